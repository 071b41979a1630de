/* The feature schema: every dense feature has a stable name and kind, and
 * the schema id hashes them all together with the options, so a model can
 * refuse vectors computed under another schema. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features.h"
#include "util.h"

/* Markup counted inside a block ("tag.<name>"). Anchors and images are
 * separate features, as Kołcz & Yih ask. */
static const char *const counted_tags[] = {
    "a",    "img",    "li",   "ul",    "ol",         "p",      "br",       "span",   "div",    "table",   "tr",
    "td",   "th",     "form", "input", "button",     "select", "textarea", "label",  "option", "h1",      "h2",
    "h3",   "h4",     "h5",   "h6",    "strong",     "b",      "em",       "i",      "u",      "font",    "small",
    "big",  "tt",     "code", "pre",   "blockquote", "nav",    "header",   "footer", "aside",  "article", "section",
    "main", "figure", "time", "sup",   "cite",       "hr",     "dl",       "dt",     "dd"};

/* One-hot of the block element's own tag ("block.tag.<name>"): the paper
 * set plus the HTML5 extras. */
static const char *const block_tags[] = {
    "blockquote", "dd",     "div",  "dl",    "dt",      "h1",   "h2", "h3",     "h4",      "h5",       "h6",
    "li",         "ol",     "pre",  "small", "table",   "td",   "th", "tr",     "ul",      "article",  "aside",
    "footer",     "header", "main", "nav",   "section", "form", "p",  "figure", "details", "fieldset", "address"};

static const char *const format_tags[] = {"b", "strong", "em", "i", "u", "font", "small", "big", "tt"};

const char *const tbk_fx_attr_vocab[] = {
    "nav",       "menu",       "footer",    "header",  "sidebar", "side",       "widget", "breadcrumb",
    "share",     "social",     "copyright", "comment", "related", "ad",         "ads",    "banner",
    "promo",     "post",       "article",   "content", "entry",   "main",       "body",   "text",
    "story",     "title",      "meta",      "tag",     "cat",     "login",      "search", "cookie",
    "subscribe", "newsletter", "skip",      "hidden",  "toolbar", "pagination", "pager"};
const size_t tbk_fx_attr_vocab_n = sizeof tbk_fx_attr_vocab / sizeof tbk_fx_attr_vocab[0];

const char *const tbk_fx_roles[] = {"navigation", "banner", "contentinfo", "complementary",
                                    "main",       "search", "menu",        "article"};
const size_t tbk_fx_roles_n = sizeof tbk_fx_roles / sizeof tbk_fx_roles[0];

#define COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

void tbk_schema_add(tbk_schema_builder *b, const char *kind, const char *fmt, ...) {
  if (b->failed) return;
  if (tbk_grow(&b->off, &b->cap, *b->dim + 1, sizeof *b->off)) {
    b->failed = 1;
    return;
  }
  /* The kinds array shares the offsets' capacity, so it grows with them. */
  if (tbk_resize(b->kinds, b->cap, sizeof **b->kinds)) {
    b->failed = 1;
    return;
  }
  b->off[*b->dim] = b->name_buf->len;
  va_list ap;
  va_start(ap, fmt);
  char name[128];
  int n = vsnprintf(name, sizeof name, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof name || tbk_buf_append(b->name_buf, name, (size_t)n + 1)) {
    b->failed = 1;
    return;
  }
  (*b->kinds)[(*b->dim)++] = kind;
}

void tbk_schema_add_attrs(tbk_schema_builder *b, const char *scope, unsigned attr_dims, const char *const *vocab,
                          size_t nv) {
  for (unsigned j = 0; j < attr_dims; j++) tbk_schema_add(b, "binary", "attr.%s.hash.%03u", scope, j);
  for (size_t j = 0; j < nv; j++) tbk_schema_add(b, "binary", "attr.%s.word.%s", scope, vocab[j]);
  for (size_t j = 0; j < tbk_fx_roles_n; j++) tbk_schema_add(b, "binary", "attr.%s.role.%s", scope, tbk_fx_roles[j]);
}

tbk_status tbk_schema_finish(tbk_schema_builder *b, char ***names, const char *prefix, const char *options, char *id,
                             size_t id_size, tbk_error *err) {
  size_t dim = *b->dim;
  if (!b->failed && !(*names = malloc((dim ? dim : 1) * sizeof **names))) b->failed = 1;
  tbk_buf desc = {0};
  for (size_t i = 0; !b->failed && i < dim; i++) {
    (*names)[i] = b->name_buf->data + b->off[i];
    if (tbk_buf_printf(&desc, "%s\t%s\n", (*names)[i], (*b->kinds)[i])) b->failed = 1;
  }
  if (!b->failed && tbk_buf_puts(&desc, options)) b->failed = 1;
  uint64_t h = b->failed ? 0 : tbk_hash64(desc.data, desc.len);
  tbk_buf_free(&desc);
  free(b->off);
  b->off = NULL;
  if (b->failed) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  snprintf(id, id_size, "%s:%016llx", prefix, (unsigned long long)h);
  return TBK_OK;
}

tbk_status tbk_fx_schema_build(tbk_features *fx, tbk_error *err) {
  tbk_schema_builder b = {&fx->name_buf, &fx->kinds, &fx->dim, NULL, 0, 0};
  for (int t = 0; t < TBK_TAG_COUNT; t++) fx->tag_col[t] = fx->blocktag_col[t] = -1, fx->fmt_tag[t] = 0;
  static const struct {
    const char *name, *kind;
  } fixed[] = {
#define TBK_FX_ROW(id, name, kind) {name, kind},
      TBK_FX_FIXED(TBK_FX_ROW)
#undef TBK_FX_ROW
  };
  for (size_t i = 0; i < FX_FIXED_COUNT; i++) tbk_schema_add(&b, fixed[i].kind, "%s", fixed[i].name);
  _Static_assert(COUNTOF(counted_tags) <= 64, "a block's counted tags are a 64-bit mask (tag_pass)");
  for (size_t i = 0; i < COUNTOF(counted_tags); i++) {
    tbk_tag t = tbk_tag_lookup(counted_tags[i]);
    if (t == TBK_TAG_OTHER) continue; /* cannot happen: all are in tags.h */
    fx->tag_col[t] = (int)fx->dim;
    tbk_schema_add(&b, "count", "tag.%s", counted_tags[i]);
  }
  for (size_t i = 0; i < COUNTOF(block_tags); i++) {
    tbk_tag t = tbk_tag_lookup(block_tags[i]);
    if (t == TBK_TAG_OTHER) continue;
    fx->blocktag_col[t] = (int)fx->dim;
    tbk_schema_add(&b, "binary", "block.tag.%s", block_tags[i]);
  }
  for (size_t i = 0; i < COUNTOF(format_tags); i++) fx->fmt_tag[tbk_tag_lookup(format_tags[i])] = 1;
  fx->fmt_tag[TBK_TAG_OTHER] = 0;
  fx->attr_width = fx->opt.attr_dims + tbk_fx_attr_vocab_n + tbk_fx_roles_n;
  for (size_t v = 0; v < tbk_fx_attr_vocab_n && v < 64; v++)
    fx->vocab_hash[v] = tbk_hash32(tbk_fx_attr_vocab[v], strlen(tbk_fx_attr_vocab[v]));
  fx->attr_self = fx->dim;
  tbk_schema_add_attrs(&b, "self", fx->opt.attr_dims, tbk_fx_attr_vocab, tbk_fx_attr_vocab_n);
  fx->attr_anc = fx->dim;
  tbk_schema_add_attrs(&b, "anc", fx->opt.attr_dims, tbk_fx_attr_vocab, tbk_fx_attr_vocab_n);
  /* The id covers everything that changes what a vector or a words line
   * means: names and kinds in order, and the word hashing options. */
  char options[128];
  snprintf(options, sizeof options, "word_dims=%u bigrams=%d kl_alpha_milli=%d kl_over=words wrap=%d\n",
           fx->opt.word_dims, fx->opt.bigrams ? 1 : 0, (int)(TBK_FX_KL_ALPHA * 1000 + 0.5), TBK_FX_WRAP);
  return tbk_schema_finish(&b, &fx->names, "tbk-features-1", options, fx->schema_id, sizeof fx->schema_id, err);
}

void tbk_fx_schema_free(tbk_features *fx) {
  free(fx->names);
  free(fx->kinds);
  tbk_buf_free(&fx->name_buf);
}

size_t tbk_features_dim(const tbk_features *fx) { return fx->dim; }
const char *tbk_features_name(const tbk_features *fx, size_t i) { return i < fx->dim ? fx->names[i] : NULL; }
const char *tbk_features_kind(const tbk_features *fx, size_t i) { return i < fx->dim ? fx->kinds[i] : NULL; }
const char *tbk_features_schema_id(const tbk_features *fx) { return fx->schema_id; }
const tbk_feature_options *tbk_features_options(const tbk_features *fx) { return &fx->opt; }
