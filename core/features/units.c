/* The content stage's units and their features.
 *
 * The template stage scores the paper's candidate blocks, and text outside
 * every candidate is kept unseen. The content stage covers the whole page:
 * a unit is a run of consecutive text nodes that share their line element
 * (the nearest ancestor that breaks a visual line: p, li, td, div, h1...),
 * boilerpipe's atomic text block in DOM terms. Every visible text run is in
 * exactly one unit, so nothing is kept just because no block held it.
 *
 * A unit's features describe its own text (Kohlschütter's text and link
 * density, sentences, stop words), its markup context (line tag, ancestor
 * elements, class/id tokens), where it sits relative to the page's densest
 * region (a Readability-style best element and a maximum-sum span of unit
 * text), what the template stage thinks of its block, the page title, and
 * its neighbours. Everything is linear in the page's nodes and text. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "sizes.h"
#include "text_internal.h"
#include "units.h"
#include "util.h"

/* --------------------------------------------------------------- schema */

/* Line-element tags with a column of their own ("line.tag.<t>"); any other
 * line element is line.tag.other. */
static const char *const line_tags[] = {
    "p",      "div",    "li",   "td",     "th",      "dd",         "dt",         "h1",      "h2",
    "h3",     "h4",     "h5",   "h6",     "pre",     "blockquote", "figcaption", "caption", "address",
    "option", "legend", "body", "center", "article", "section",    "header",     "footer",  "aside",
    "nav",    "form",   "main", "ul",     "ol",      "table",      "tr",         "summary"};

#define COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* Function words of the languages the training pages are in. Text with
 * many of them is prose; menus, bylines and tag lists have almost none. */
static const char *const stop_words[] = {
    "the",   "a",     "an",   "and",   "or",    "but",   "of",   "to",    "in",   "on",    "at",    "for",  "with",
    "by",    "from",  "is",   "are",   "was",   "were",  "be",   "been",  "it",   "its",   "this",  "that", "these",
    "those", "he",    "she",  "they",  "we",    "you",   "i",    "his",   "her",  "their", "our",   "as",   "not",
    "have",  "has",   "had",  "which", "who",   "what",  "will", "would", "can",  "could", "there", "if",   "than",
    "so",    "about", "into", "more",  "also",  "after", "when", "one",   "all",  "no",    "do",    "said", "der",
    "die",   "das",   "und",  "ist",   "nicht", "ein",   "eine", "zu",    "den",  "mit",   "sich",  "auf",  "le",
    "la",    "les",   "et",   "est",   "un",    "une",   "des",  "du",    "que",  "qui",   "dans",  "pour", "pas",
    "el",    "los",   "las",  "y",     "es",    "en",    "que",  "por",   "con",  "una",   "del",   "se",   "lo",
    "para",  "il",    "di",   "che",   "è",     "per",   "non",  "della", "sono", "de",    "het",   "een",  "van",
    "niet",  "dat",   "o",    "os",    "um",    "uma",   "não",  "com",   "na",   "no",    "da",    "do"};
/* One table of function words by FNV-1a 64 hash (| 1: 0 marks an empty
 * slot): bit WORD_STOP for the list above (the stop-ratio feature), bit l
 * for the text layer's list l (the page's language, tbk_units_language).
 * One probe a token serves both. */
#define WORD_SLOTS 4096
#define WORD_STOP 0x8000u
static uint64_t word_hash[WORD_SLOTS];
static uint16_t word_bits[WORD_SLOTS];
static pthread_once_t stop_once = PTHREAD_ONCE_INIT;
static void word_mark(const char *w, size_t n, uint16_t bit) {
  uint64_t h = tbk_hash64(w, n) | 1;
  size_t k = h & (WORD_SLOTS - 1);
  while (word_hash[k] && word_hash[k] != h) k = (k + 1) & (WORD_SLOTS - 1);
  word_hash[k] = h;
  word_bits[k] |= bit;
}
static void stop_init(void) {
  for (size_t i = 0; i < COUNTOF(stop_words); i++) word_mark(stop_words[i], strlen(stop_words[i]), WORD_STOP);
  size_t nl = tbk_stop_count < TBK_UNITS_MAX_LANGS ? tbk_stop_count : TBK_UNITS_MAX_LANGS;
  size_t marked = 0, n;
  for (size_t l = 0; l < nl; l++)
    for (const char *s = tbk_stop_lists[l], *w; (w = tbk_stop_next(&s, &n)) != NULL;)
      /* the table holds three quarters of its slots at most */
      if (marked++ < WORD_SLOTS * 3 / 4) word_mark(w, n, (uint16_t)(1u << l));
}
static uint16_t word_bits_of(uint64_t h) {
  h |= 1;
  for (size_t k = h & (WORD_SLOTS - 1); word_hash[k]; k = (k + 1) & (WORD_SLOTS - 1))
    if (word_hash[k] == h) return word_bits[k];
  return 0;
}

/* A token's function-word bits: its stop-ratio count, and the page's
 * language tally. */
static inline uint32_t count_bits(tbk_units *ux, uint16_t bits) {
  for (unsigned m = bits & ~WORD_STOP; m; m &= m - 1) ux->lang_hits[__builtin_ctz(m)]++;
  return bits >> 15;
}

/* The units' class/id vocabulary is the template features' one. Measured:
 * twenty-odd caption/byline/teaser words added to it made every
 * leave-one-dataset-out figure worse (dragnet -0.010 F1): the gold sets
 * disagree on bylines and captions, so such words learn one set's
 * convention. */
static const char *ux_vocab_all[UX_VOCAB_MAX];
static size_t ux_vocab_count;
static void vocab_init(void) {
  for (size_t i = 0; i < tbk_fx_attr_vocab_n && ux_vocab_count < UX_VOCAB_MAX; i++)
    ux_vocab_all[ux_vocab_count++] = tbk_fx_attr_vocab[i];
}
static pthread_once_t vocab_once = PTHREAD_ONCE_INIT;

static tbk_status build_schema(tbk_units *ux, tbk_error *err) {
  tbk_schema_builder b = {&ux->name_buf, &ux->kinds, &ux->dim, NULL, 0, 0};
  static const struct {
    const char *name, *kind;
  } fixed[] = {
#define TBK_UX_ROW(id, name, kind) {name, kind},
      TBK_UX_FIXED(TBK_UX_ROW)
#undef TBK_UX_ROW
  };
  static const char *const anc[] = {
#define TBK_UX_ANC_ROW(id, name) name,
      TBK_UX_ANC(TBK_UX_ANC_ROW)
#undef TBK_UX_ANC_ROW
  };
  for (size_t i = 0; i < UX_FIXED_COUNT; i++) tbk_schema_add(&b, fixed[i].kind, "%s", fixed[i].name);
  for (int t = 0; t < TBK_TAG_COUNT; t++) ux->tag_col[t] = -1;
  for (size_t i = 0; i < COUNTOF(line_tags); i++) {
    ux->tag_col[tbk_tag_lookup(line_tags[i])] = (int)ux->dim;
    tbk_schema_add(&b, "binary", "line.tag.%s", line_tags[i]);
  }
  ux->tag_other = ux->dim;
  tbk_schema_add(&b, "binary", "line.tag.other");
  ux->anc_col = ux->dim;
  for (size_t i = 0; i < UA_COUNT; i++) tbk_schema_add(&b, "binary", "anc.%s", anc[i]);
  ux->attr_width = ux->opt.attr_dims + ux_vocab_count + tbk_fx_roles_n;
  /* The same class/id/role columns as the template features, for the line
   * element and its parent ("near") and for all ancestors ("anc"). */
  ux->attr_self = ux->dim;
  tbk_schema_add_attrs(&b, "near", ux->opt.attr_dims, ux_vocab_all, ux_vocab_count);
  ux->attr_anc = ux->dim;
  tbk_schema_add_attrs(&b, "anc", ux->opt.attr_dims, ux_vocab_all, ux_vocab_count);
  char options[64];
  snprintf(options, sizeof options, "word_dims=%u wrap=%d\n", ux->opt.word_dims, TBK_FX_WRAP);
  return tbk_schema_finish(&b, &ux->names, "tbk-units-1", options, ux->schema_id, sizeof ux->schema_id, err);
}

tbk_status tbk_units_new(const tbk_feature_options *o, tbk_units **out, tbk_error *err) {
  *out = NULL;
  tbk_feature_options defaults;
  if (!o) {
    tbk_feature_options_init(&defaults);
    defaults.attr_dims = TBK_UNITS_ATTR_DIMS;
    defaults.word_dims = TBK_UNITS_WORD_DIMS;
    o = &defaults;
  }
  pthread_once(&stop_once, stop_init);
  tbk_units *ux = calloc(1, sizeof *ux);
  if (!ux) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  ux->opt = *o;
  ux->opt.bigrams = 0;
  ux->fingerprints = 1;
  pthread_once(&vocab_once, vocab_init);
  for (size_t v = 0; v < ux_vocab_count; v++) ux->vhash[v] = tbk_hash32(ux_vocab_all[v], strlen(ux_vocab_all[v]));
  tbk_status st = ux->opt.attr_dims > TBK_MAX_ATTR_DIMS || !ux->opt.word_dims || ux->opt.word_dims > TBK_MAX_WORD_DIMS
                      ? tbk_fail(err, TBK_ERR_ARG, "attr-dims or word-dims out of range")
                      : tbk_tokenizer_new(&ux->tok, err);
  if (st == TBK_OK) st = build_schema(ux, err);
  if (st == TBK_OK && ux->opt.word_dims < UX_FOLD_MAX_DIMS) {
    /* buckets 1..word_dims; the bitmap's words, and the summary's */
    size_t nb = (size_t)ux->opt.word_dims + 1, nw = (nb + 63) / 64;
    ux->n_fold_sum = (nw + 63) / 64;
    ux->fold_cnt = calloc(nb, sizeof *ux->fold_cnt);
    ux->fold_bits = calloc(nw, sizeof *ux->fold_bits);
    ux->fold_sum = calloc(ux->n_fold_sum, sizeof *ux->fold_sum);
    if (!ux->fold_cnt || !ux->fold_bits || !ux->fold_sum) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  if (st == TBK_OK) {
    /* per unit: its line tag, its ancestor flags, near and anc class/id bits */
    ux->sp_max = 1 + UA_COUNT + 2 * ((ux->attr_width + 63) / 64) * 64;
    ux->ones = malloc(ux->sp_max * sizeof *ux->ones);
    ux->row = malloc(ux->dim * sizeof *ux->row);
    ux->row_unit = SIZE_MAX;
    if (!ux->ones || !ux->row) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    for (size_t k = 0; st == TBK_OK && k < ux->sp_max; k++) ux->ones[k] = 1;
  }
  if (st == TBK_OK) *out = ux;
  else tbk_units_free(ux);
  return st;
}

void tbk_units_free(tbk_units *ux) {
  if (!ux) return;
  tbk_tokenizer_free(ux->tok);
  free(ux->names);
  free(ux->kinds);
  tbk_buf_free(&ux->name_buf);
  free(ux->u);
  tbk_buf_free(&ux->paths);
  free(ux->fixed);
  free(ux->ones);
  free(ux->row);
  free(ux->sp_col);
  free(ux->sort_tmp);
  free(ux->fold_cnt);
  free(ux->fold_bits);
  free(ux->fold_sum);
  free(ux->need);
  free(ux->sp_off);
  free(ux->w_off);
  free(ux->w_idx);
  free(ux->w_cnt);
  free(ux->path_stk);
  free(ux->self_bits);
  free(ux->anc_bits);
  free(ux->nd);
  free(ux->scratch);
  free(ux->title_h);
  free(ux->voc);
  tbk_units_body_free(ux);
  free(ux);
}

size_t tbk_units_dim(const tbk_units *ux) { return ux->dim; }
const char *tbk_units_name(const tbk_units *ux, size_t i) { return i < ux->dim ? ux->names[i] : NULL; }
const char *tbk_units_kind(const tbk_units *ux, size_t i) { return i < ux->dim ? ux->kinds[i] : NULL; }
const char *tbk_units_schema_id(const tbk_units *ux) { return ux->schema_id; }
void tbk_units_set_fingerprints(tbk_units *ux, int on) { ux->fingerprints = on != 0; }
size_t tbk_units_count(const tbk_units *ux) { return ux->n; }

tbk_status tbk_units_get(const tbk_units *ux, const tbk_page *page, size_t i, tbk_unit *out) {
  const tbk_page_view pv = tbk_page_view_of(page);
  if (i >= ux->n) return TBK_ERR_ARG;
  const tbk_unit_rec *r = &ux->u[i];
  out->text = pv.text + r->start;
  out->text_len = r->end - r->start;
  out->text_chars = r->chars;
  /* out is whole even then: callers that only need the text may go on */
  int nomem = tbk_units_paths(ux, page) != 0;
  out->path = nomem ? "" : ux->paths.data + r->path_off;
  out->tag = tbk_node_name(&pv.nodes[r->elem]);
  memcpy(out->md5, r->md5, 16);
  out->start = r->start;
  out->end = r->end;
  out->words = r->words;
  return nomem ? TBK_ERR_NOMEM : TBK_OK;
}

const double *tbk_units_values(const tbk_units *cux, size_t i) {
  if (i >= cux->n) return NULL;
  /* The row is a cache of what the unit's fixed and sparse columns
   * determine: the extractor itself is never const (tbk_units_new). */
  tbk_units *ux = (tbk_units *)cux;
  if (ux->row_unit != i) {
    const uint32_t *cols;
    size_t n = tbk_units_sparse(ux, i, &cols);
    tbk_dense_row(ux->row, ux->dim, ux->fixed + i * UX_FIXED_COUNT, UX_FIXED_COUNT, cols, NULL, n);
    ux->row_unit = i;
  }
  return ux->row;
}

size_t tbk_units_sparse_values(const tbk_units *ux, size_t i, const uint32_t **cols, const double **vals) {
  if (i >= ux->n || i >= ux->sp_rows) {
    *cols = NULL;
    if (vals) *vals = NULL;
    return 0;
  }
  *cols = ux->sp_col + ux->sp_off[i];
  if (vals) *vals = ux->ones;
  return ux->sp_off[i + 1] - ux->sp_off[i];
}

size_t tbk_units_sparse(const tbk_units *ux, size_t i, const uint32_t **cols) {
  return tbk_units_sparse_values(ux, i, cols, NULL);
}

size_t tbk_units_words(const tbk_units *ux, size_t i, const uint32_t **idx, const uint32_t **cnt) {
  if (i >= ux->n) {
    *idx = *cnt = NULL;
    return 0;
  }
  *idx = ux->w_idx + ux->w_off[i];
  *cnt = ux->w_cnt + ux->w_off[i];
  return ux->w_off[i + 1] - ux->w_off[i];
}

int tbk_units_format(const tbk_units *ux, size_t i, int label, int words, tbk_buf *out) {
  if (i >= ux->n) return -1;
  if (tbk_buf_printf(out, "%d", label)) return -1;
  if (words) {
    for (size_t k = ux->w_off[i]; k < ux->w_off[i + 1]; k++)
      if (tbk_buf_printf(out, " %u:%u", ux->w_idx[k], ux->w_cnt[k])) return -1;
  } else {
    /* every nonzero value: the fixed columns, then the sparse ones (all
     * past them, ascending, all 1) */
    const double *v = ux->fixed + i * UX_FIXED_COUNT;
    for (size_t j = 0; j < UX_FIXED_COUNT; j++)
      if (v[j] != 0 && tbk_buf_printf(out, " %zu:%.9g", j + 1, v[j])) return -1;
    const uint32_t *cols;
    size_t n = tbk_units_sparse(ux, i, &cols);
    for (size_t k = 0; k < n; k++)
      if (tbk_buf_printf(out, " %zu:%.9g", (size_t)cols[k] + 1, 1.0)) return -1;
  }
  return tbk_buf_append(out, "\n", 1);
}

/* ---------------------------------------------------------- segmentation */

// clang-format off
static uint32_t anc_flag_of(tbk_tag t) {
  switch (t) {
  case TBK_TAG_A: return 1u << UA_A;
  case TBK_TAG_LI: return 1u << UA_LI;
  case TBK_TAG_UL: case TBK_TAG_OL: case TBK_TAG_MENU: return 1u << UA_LIST;
  case TBK_TAG_TABLE: return 1u << UA_TABLE;
  case TBK_TAG_NAV: return 1u << UA_NAV;
  case TBK_TAG_HEADER: return 1u << UA_HEADER;
  case TBK_TAG_FOOTER: return 1u << UA_FOOTER;
  case TBK_TAG_ASIDE: return 1u << UA_ASIDE;
  case TBK_TAG_FORM: case TBK_TAG_FIELDSET: return 1u << UA_FORM;
  case TBK_TAG_ARTICLE: return 1u << UA_ARTICLE;
  case TBK_TAG_MAIN: return 1u << UA_MAIN;
  case TBK_TAG_SECTION: return 1u << UA_SECTION;
  case TBK_TAG_FIGURE: case TBK_TAG_FIGCAPTION: return 1u << UA_FIGURE;
  case TBK_TAG_BLOCKQUOTE: case TBK_TAG_Q: return 1u << UA_BLOCKQUOTE;
  case TBK_TAG_H1: case TBK_TAG_H2: case TBK_TAG_H3: case TBK_TAG_H4: case TBK_TAG_H5: case TBK_TAG_H6:
    return 1u << UA_HEADING;
  case TBK_TAG_BUTTON: case TBK_TAG_SELECT: case TBK_TAG_LABEL: case TBK_TAG_OPTION: case TBK_TAG_TEXTAREA:
    return 1u << UA_CONTROL;
  case TBK_TAG_STRONG: case TBK_TAG_B: return 1u << UA_STRONG;
  case TBK_TAG_SMALL: case TBK_TAG_SUB: case TBK_TAG_SUP: return 1u << UA_SMALL;
  case TBK_TAG_TIME: return 1u << UA_TIME;
  case TBK_TAG_ADDRESS: return 1u << UA_ADDRESS;
  case TBK_TAG_PRE: case TBK_TAG_CODE: return 1u << UA_PRE;
  case TBK_TAG_CENTER: return 1u << UA_CENTER;
  case TBK_TAG_DL: case TBK_TAG_DD: case TBK_TAG_DT: return 1u << UA_DL;
  case TBK_TAG_CITE: return 1u << UA_CITE;
  default: return 0;
  }
}
// clang-format on

/* Locator of a unit: its line element's XPath-like path (same-name
 * siblings counted as XPath does) and "#k", the k-th unit of that element. */
static int append_step(tbk_buf *b, const tbk_node *nd) {
  const char *name = tbk_node_name(nd);
  char num[16], *e = num + sizeof num, *d = e;
  uint32_t v = nd->nth;
  *--d = ']';
  do *--d = (char)('0' + v % 10);
  while (v /= 10);
  *--d = '[';
  return tbk_buf_append(b, "/", 1) || tbk_buf_append(b, name, strlen(name)) || tbk_buf_append(b, d, (size_t)(e - d));
}

/* tbk_text_length, with the ASCII prefix (most text) counted eight bytes at
 * a time: a prefix without wide code points adds exactly its bytes. */
static size_t text_length(const char *s, size_t n) {
  size_t i = 0;
  for (uint64_t w; i + 8 <= n; i += 8) {
    memcpy(&w, s + i, 8);
    if (w & 0x8080808080808080ULL) break;
  }
  while (i < n && (unsigned char)s[i] < 0x80) i++;
  return i == n ? n : i + tbk_text_length(s + i, n - i);
}

/* The units come in document order, so a unit's path shares with the
 * previous one's the part down to their common ancestor: the elements of
 * the previous path stay on a stack (ux->path_stk, with the length of the
 * path through each), the new path copies the shared part and appends the
 * steps below it. Each element's step is formatted once, and no element
 * path is kept apart from the units' own. */
int tbk_units_paths(const tbk_units *cux, const tbk_page *p) {
  const tbk_page_view pv = tbk_page_view_of(p);
  if (cux->paths_ready) return 0;
  /* A cache of what the units already determine: the object itself is
   * never const (tbk_units_new), only the readers' view of it. */
  tbk_units *ux = (tbk_units *)cux;
  ux->paths.len = 0;
  size_t depth = 0, prev = 0; /* stack entries; the previous path's offset */
  for (size_t i = 0; i < ux->n; i++) {
    uint32_t e = ux->u[i].elem;
    uint32_t top = TBK_NONE;
    for (; depth; depth--) { /* down to e's nearest ancestor (or e) on the stack */
      top = ux->path_stk[depth - 1].node;
      if (tbk_view_holds(&pv, top, e)) break;
      top = TBK_NONE;
    }
    size_t k = 0;
    for (uint32_t x = e; x != top; x = pv.nodes[x].parent) k++;
    if (tbk_grow((void **)&ux->path_stk, &ux->cap_path_stk, depth + k, sizeof *ux->path_stk)) return -1;
    tbk_path_step *stk = ux->path_stk;
    size_t j = depth + k;
    for (uint32_t x = e; x != top; x = pv.nodes[x].parent) stk[--j].node = x;
    size_t start = ux->paths.len, shared = depth ? stk[depth - 1].len : 0;
    if (tbk_buf_reserve(&ux->paths, shared)) return -1;
    memmove(ux->paths.data + start, ux->paths.data + prev, shared);
    ux->paths.len += shared;
    for (j = depth; j < depth + k; j++) {
      if (append_step(&ux->paths, &pv.nodes[stk[j].node])) return -1;
      stk[j].len = ux->paths.len - start;
    }
    depth += k;
    char num[16], *end = num + sizeof num, *d = end; /* "#<ordinal>" and the NUL */
    uint32_t ord = ux->u[i].ordinal;
    *--d = '\0';
    do *--d = (char)('0' + ord % 10);
    while (ord /= 10);
    *--d = '#';
    if (tbk_buf_append(&ux->paths, d, (size_t)(end - d))) return -1;
    ux->u[i].path_off = start;
    prev = start;
  }
  ux->paths_ready = 1;
  return 0;
}

tbk_status tbk_units_segment(tbk_units *ux, const tbk_page *p, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(p);
  ux->n = 0;
  ux->paths.len = 0;
  ux->paths_ready = 0;
  ux->sp_rows = 0; /* the features are the last page's until tbk_units_page */
  ux->row_unit = SIZE_MAX;
  if (tbk_grow_exact((void **)&ux->nd, &ux->cap_nd, pv.n_nodes + 1, sizeof *ux->nd))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  /* Parents come before children, so one pass in document order; the
   * rest of each entry starts at 0 here, not by a memset of the array. */
  for (uint32_t i = 0; i < pv.n_nodes; i++) {
    const tbk_node *nd = &pv.nodes[i];
    uint32_t line = (tbk_tag_flags(nd->tag) & TAG_BREAK) || nd->parent == TBK_NONE ? i : ux->nd[nd->parent].line;
    ux->nd[i] = (tbk_unit_node){.line = line};
  }
  uint32_t last_elem = TBK_NONE, last_ord = 0;
  for (uint32_t r = 0; r < pv.n_runs;) {
    uint32_t le = ux->nd[pv.runs[r].node].line, e = r + 1;
    while (e < pv.n_runs && ux->nd[pv.runs[e].node].line == le) e++;
    uint32_t s = pv.runs[r].start, t = pv.runs[e - 1].end;
    while (s < t && pv.text[s] == ' ') s++;
    while (t > s && pv.text[t - 1] == ' ') t--;
    if (s < t) {
      if (ux->n >= TBK_UNITS_MAX)
        return tbk_fail(err, TBK_ERR_LIMIT, "more than %d text units (max-units): too fragmented for the content stage",
                        TBK_UNITS_MAX);
      if (tbk_grow((void **)&ux->u, &ux->cap, ux->n + 1, sizeof *ux->u))
        return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      tbk_unit_rec *u = &ux->u[ux->n++];
      memset(u, 0, sizeof *u);
      u->run_first = r;
      u->run_end = e;
      u->start = s;
      u->end = t;
      u->elem = le;
      /* A line element's units are separated by nested line elements, so
       * they come in order: counting from the previous unit suffices only
       * when it is the same element; otherwise count again. */
      if (le == last_elem) u->ordinal = ++last_ord;
      else {
        u->ordinal = 1;
        for (size_t k = ux->n - 1; k-- > 0;)
          if (ux->u[k].elem == le) {
            u->ordinal = ux->u[k].ordinal + 1;
            break;
          } else if (ux->u[k].start < pv.nodes[le].text_start) break;
        last_ord = u->ordinal;
      }
      last_elem = le;
      u->chars = (uint32_t)text_length(pv.text + s, t - s);
      for (uint32_t k = r; k < e; k++)
        if (pv.nodes[pv.runs[k].node].in_anchor)
          u->anchor_chars += (uint32_t)text_length(pv.text + pv.runs[k].start, pv.runs[k].end - pv.runs[k].start);
      if (u->anchor_chars > u->chars) u->anchor_chars = u->chars;
      if (ux->fingerprints) tbk_md5(pv.text + s, t - s, u->md5);
    }
    r = e;
  }
  return TBK_OK;
}

/* ------------------------------------------------------------- features */

/* Index of the title token of hash h (title_and_words' table), -1 = none:
 * every token of the page is looked up, the title has up to 64. */
static int title_index(const tbk_units *ux, uint64_t h) {
  for (size_t s = h & (UX_TITLE_SLOTS - 1); ux->title_k[s]; s = (s + 1) & (UX_TITLE_SLOTS - 1))
    if (ux->title_slot[s] == h) return ux->title_k[s] - 1;
  return -1;
}

typedef struct tok_ctx {
  tbk_units *ux;
  size_t unit;
  uint32_t words, stops, caps, word_cps, title_hits;
  /* boilerpipe's text density: wrap at 80 columns */
  long line_len;
  uint32_t wrapped, line_words;
  uint64_t title_seen; /* bit k: title token k was met */
  int fail;
} tok_ctx;

/* One token of a unit, by its hashes (FNV-1a 64 and 32 of the folded
 * token) and its length in code points. */
static int add_token(tok_ctx *c, uint64_t h, uint32_t h32, uint32_t cps) {
  tbk_units *ux = c->ux;
  c->words++;
  c->word_cps += cps;
  c->stops += count_bits(ux, word_bits_of(h));
  int k = title_index(ux, h);
  if (k >= 0) {
    c->title_hits++;
    c->title_seen |= 1ULL << k;
  }
  c->line_len += (long)cps + 1;
  if (c->line_len > TBK_FX_WRAP) {
    c->wrapped++;
    c->line_len = (long)cps;
    c->line_words = 1;
  } else c->line_words++;
  if (tbk_grow((void **)&ux->w_idx, &ux->cap_w, ux->n_w + 1, sizeof *ux->w_idx)) {
    c->fail = 1;
    return 1;
  }
  ux->w_idx[ux->n_w++] = h32 % ux->opt.word_dims + 1;
  return 0;
}

static int on_token(void *vc, uint64_t h64, uint32_t h32, uint32_t cps, size_t at) {
  (void)at;
  return add_token(vc, h64, h32, cps);
}

/* What a unit's tokens need of a word of the page: the same as add_token
 * finds from its hashes, found once per page and word. */
typedef struct unit_word {
  uint32_t bucket; /* h32 % word_dims + 1 */
  int16_t title;   /* index among the title's tokens, -1 = none */
  uint16_t bits;   /* word_bits_of its hash */
} unit_word;

/* add_token for the tokens [k0, k1) of the template features' pass. */
static int add_shared_tokens(tok_ctx *c, const tbk_features *fx, size_t k0, size_t k1) {
  tbk_units *ux = c->ux;
  if (tbk_grow((void **)&ux->w_idx, &ux->cap_w, ux->n_w + (k1 - k0) + 1, sizeof *ux->w_idx)) {
    c->fail = 1;
    return 1;
  }
  for (size_t k = k0; k < k1; k++) {
    const unit_word *w = &ux->voc[fx->tok_word[k]];
    uint32_t cps = fx->tok_cp[k];
    c->words++;
    c->word_cps += cps;
    c->stops += count_bits(ux, w->bits);
    if (w->title >= 0) {
      c->title_hits++;
      if (w->title < 64) c->title_seen |= 1ULL << w->title;
    }
    c->line_len += (long)cps + 1;
    if (c->line_len > TBK_FX_WRAP) {
      c->wrapped++;
      c->line_len = (long)cps;
      c->line_words = 1;
    } else c->line_words++;
    ux->w_idx[ux->n_w++] = w->bucket;
  }
  return 0;
}

/* Nothing in the token pattern looks past a space, so text cut where a
 * space is on either side has the same tokens as the text whole. */
static int cut_is_safe(const char *text, size_t len, size_t at) {
  return at == 0 || at >= len || text[at - 1] == ' ' || text[at] == ' ';
}

/* A pure-ASCII unit (most are) is tokenized here with the tokenizer's own
 * token ends (tbk_ascii_token_end), folding and hashing on the fly: the
 * same tokens as tbk_tokenize, without a callback and a copy per token. */
static void tokenize_ascii(tok_ctx *c, const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n && !c->fail;) {
    if (!tbk_ascii_word(s[i])) {
      i++;
      continue;
    }
    size_t j = tbk_ascii_token_end(s, i, n);
    uint64_t h64;
    uint32_t h32;
    tbk_hash_ascii_folded(s + i, j - i, &h64, &h32);
    add_token(c, h64, h32, (uint32_t)(j - i));
    i = j;
  }
}

static int is_ascii(const unsigned char *s, size_t n) {
  unsigned char acc = 0;
  for (size_t i = 0; i < n; i++) acc |= s[i];
  return acc < 0x80;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Most units have a few words: an insertion sort beats qsort's calls;
 * long ones are radix-sorted a byte at a time through tmp (n entries; NULL:
 * qsort). */
static void sort_u32(uint32_t *a, size_t n, uint32_t *tmp) {
  if (n > 48) {
    if (!tmp) {
      qsort(a, n, sizeof *a, cmp_u32);
      return;
    }
    uint32_t hi = 0;
    for (size_t i = 0; i < n; i++) hi |= a[i];
    uint32_t *src = a, *dst = tmp;
    for (unsigned shift = 0; shift < 32 && hi >> shift; shift += 8) {
      size_t count[257] = {0};
      for (size_t i = 0; i < n; i++) count[(src[i] >> shift & 0xFF) + 1]++;
      for (int d = 0; d < 256; d++) count[d + 1] += count[d];
      for (size_t i = 0; i < n; i++) dst[count[src[i] >> shift & 0xFF]++] = src[i];
      uint32_t *t = src;
      src = dst;
      dst = t;
    }
    if (src != a) memcpy(a, src, n * sizeof *a);
    return;
  }
  for (size_t i = 1; i < n; i++) {
    uint32_t x = a[i];
    size_t j = i;
    while (j > 0 && a[j - 1] > x) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = x;
  }
}

/* fold_words for a unit of more than UX_FOLD_SORT words: every index
 * counted in a table of the word buckets, its bit set in a bitmap of them
 * (and its word's bit in a summary of the bitmap), then the set bits read
 * in ascending order, which leaves table, bitmap and summary zero again.
 * Linear in the unit's words where the sort was not (an insertion sort,
 * or a radix sort's passes over 256 counters). */
static void fold_bitmap(tbk_units *ux, uint32_t *idx, uint32_t *cnt, size_t n, size_t from) {
  uint32_t *tab = ux->fold_cnt;
  uint64_t *bits = ux->fold_bits, *sum = ux->fold_sum;
  for (size_t i = 0; i < n; i++) {
    uint32_t b = idx[i];
    if (tab[b]++) continue;
    bits[b >> 6] |= 1ULL << (b & 63);
    sum[b >> 12] |= 1ULL << (b >> 6 & 63);
  }
  size_t k = 0;
  for (size_t s = 0; s < ux->n_fold_sum; s++) {
    for (uint64_t sm = sum[s]; sm; sm &= sm - 1) {
      size_t w = s * 64 + (size_t)__builtin_ctzll(sm);
      for (uint64_t bm = bits[w]; bm; bm &= bm - 1) {
        uint32_t b = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bm));
        idx[k] = b;
        cnt[k++] = tab[b];
        tab[b] = 0;
      }
      bits[w] = 0;
    }
    sum[s] = 0;
  }
  ux->n_w = from + k;
}

/* Sort a unit's word indices and fold them to (index, count) pairs in
 * place (w_cnt holds at least n_w entries). */
static void fold_words(tbk_units *ux, size_t from) {
  size_t n = ux->n_w - from;
  uint32_t *idx = ux->w_idx + from, *cnt = ux->w_cnt + from;
  if (n > UX_FOLD_SORT && ux->fold_cnt) {
    fold_bitmap(ux, idx, cnt, n, from);
    return;
  }
  int tmp_ok = n <= 48 || !tbk_grow((void **)&ux->sort_tmp, &ux->cap_sort_tmp, n, sizeof *ux->sort_tmp);
  sort_u32(idx, n, tmp_ok && n > 48 ? ux->sort_tmp : NULL);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (k && idx[k - 1] == idx[i]) {
      cnt[k - 1]++;
      continue;
    }
    idx[k] = idx[i];
    cnt[k] = 1;
    k++;
  }
  ux->n_w = from + k;
}

static int cmp_double_desc(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

static int is_terminal(uint32_t c) {
  return c == '.' || c == '!' || c == '?' || c == 0x2026 || c == 0x3002 || c == 0xFF01 || c == 0xFF1F;
}
static int is_sep(uint32_t c) {
  return c == '|' || c == 0xB7 || c == 0x2022 || c == 0xBB || c == 0x203A || c == '/' || c == '>';
}
static int is_punct_cp(uint32_t c) {
  if (c < 0x80)
    return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
  return c == 0xA1 || c == 0xA9 || c == 0xAB || c == 0xB7 || c == 0xBB || c == 0xBF || (c >= 0x2010 && c <= 0x205E) ||
         (c >= 0x3001 && c <= 0x301F) || (c >= 0xFF01 && c <= 0xFF0F) || (c >= 0xFF1A && c <= 0xFF20);
}

typedef struct char_stats {
  uint32_t visible, punct, digits, letters, upper, commas, seps, sentences;
  int ends_terminal, starts_upper, copyright;
} char_stats;

/* What scan_chars asks of an ASCII character, from a table (most text). */
enum { SC_UP = 1, SC_LOW = 2, SC_DIGIT = 4, SC_PUNCT = 8, SC_COMMA = 16, SC_SEP = 32, SC_TERM = 64 };
static unsigned char sc_class[128];
/* The same as counts, one byte lane each (see SC_LANE): an ASCII character
 * costs one addition whatever it is. */
enum { LN_VISIBLE, LN_LETTER, LN_UPPER, LN_DIGIT, LN_PUNCT, LN_COMMA, LN_SEP, LN_SENT };
#define SC_LANE(l) ((uint64_t)1 << (8 * (l)))
/* [1][c] also counts a sentence when c is a space after a terminal */
static uint64_t sc_inc[2][128];
static pthread_once_t sc_once = PTHREAD_ONCE_INIT;
static void sc_init(void) {
  for (uint32_t c = 0; c < 128; c++) {
    unsigned f = 0;
    if (c >= 'A' && c <= 'Z') f |= SC_UP;
    if (c >= 'a' && c <= 'z') f |= SC_LOW;
    if (c >= '0' && c <= '9') f |= SC_DIGIT;
    if (is_punct_cp(c)) f |= SC_PUNCT;
    if (c == ',') f |= SC_COMMA;
    if (is_sep(c)) f |= SC_SEP;
    if (is_terminal(c)) f |= SC_TERM;
    sc_class[c] = (unsigned char)f;
    if (c == ' ') { /* not visible */
      sc_inc[1][c] = SC_LANE(LN_SENT);
      continue;
    }
    sc_inc[1][c] = sc_inc[0][c] = SC_LANE(LN_VISIBLE) + ((f & (SC_UP | SC_LOW)) ? SC_LANE(LN_LETTER) : 0) +
                                  ((f & SC_UP) ? SC_LANE(LN_UPPER) : 0) + ((f & SC_DIGIT) ? SC_LANE(LN_DIGIT) : 0) +
                                  ((f & SC_PUNCT) && !(f & SC_DIGIT) ? SC_LANE(LN_PUNCT) : 0) +
                                  ((f & SC_COMMA) ? SC_LANE(LN_COMMA) : 0) + ((f & SC_SEP) ? SC_LANE(LN_SEP) : 0);
  }
}

static uint32_t lane(uint64_t acc, int l) { return (uint32_t)(acc >> (8 * l) & 0xFF); }

/* Counters live in locals: the text pointer may alias anything. */
static void scan_chars(const char *s, size_t n, char_stats *cs) {
  const unsigned char *u = (const unsigned char *)s;
  uint32_t prev = 0, visible = 0, punct = 0, digits = 0, letters = 0, upper = 0, commas = 0, seps = 0, sentences = 0;
  int starts_upper = 0, copyright = 0;
  /* the first visible character (spaces and invalid bytes skipped) */
  for (size_t i = 0; i < n; i++) {
    if (u[i] == ' ') continue;
    if (u[i] < 0x80) {
      starts_upper = sc_class[u[i]] & SC_UP;
      break;
    }
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (!k) continue;
    uint32_t c = tbk_utf8_decode(u + i, k);
    int up = (c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3A9) || (c >= 0x410 && c <= 0x42F);
    starts_upper = up || (c >= 0x100 && !is_punct_cp(c));
    break;
  }
  uint64_t acc = 0; /* lanes of the ASCII characters since the last flush */
  unsigned pending = 0;
  /* a space after a terminal ends a sentence: after_term says whether prev is one */
  unsigned after_term = 0;
  for (size_t i = 0; i < n;) {
    uint64_t w8;
    if (i + 8 <= n && (memcpy(&w8, u + i, 8), !(w8 & 0x8080808080808080ULL))) {
      /* eight ASCII characters: one test for all of them */
      for (size_t q = i; q < i + 8; q++) {
        acc += sc_inc[after_term][u[q]];
        after_term = (sc_class[u[q]] & SC_TERM) != 0;
      }
      prev = u[i + 7];
      i += 8;
      pending += 8;
    } else if (u[i] < 0x80) {
      uint32_t c = u[i++];
      acc += sc_inc[after_term][c];
      after_term = (sc_class[c] & SC_TERM) != 0;
      prev = c;
      pending++;
    }
    if (pending >= 248) { /* a lane holds 255: flush before it could overflow */
      visible += lane(acc, LN_VISIBLE), letters += lane(acc, LN_LETTER), upper += lane(acc, LN_UPPER);
      digits += lane(acc, LN_DIGIT), punct += lane(acc, LN_PUNCT), commas += lane(acc, LN_COMMA);
      seps += lane(acc, LN_SEP), sentences += lane(acc, LN_SENT);
      acc = 0;
      pending = 0;
    }
    if (i >= n || u[i] < 0x80) continue;
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (!k) {
      i++;
      continue;
    }
    uint32_t c = tbk_utf8_decode(u + i, k);
    i += k;
    visible++;
    int up = (c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3A9) || (c >= 0x410 && c <= 0x42F);
    int low = (c >= 0xDF && c <= 0xFF && c != 0xF7) || (c >= 0x3B1 && c <= 0x3C9) || (c >= 0x430 && c <= 0x44F);
    if (up || low || (c >= 0x100 && !is_punct_cp(c) && !(c >= 0xFF10 && c <= 0xFF19))) letters++;
    if (up) upper++;
    if (c >= 0xFF10 && c <= 0xFF19) digits++;
    else if (is_punct_cp(c)) punct++;
    if (c == 0x3001 || c == 0xFF0C || c == 0x060C) commas++;
    if (is_sep(c)) seps++;
    if (c == 0xA9) copyright = 1;
    if (c == 0x3002 || c == 0xFF01 || c == 0xFF1F) sentences++;
    prev = c;
    after_term = (unsigned)is_terminal(c);
  }
  visible += lane(acc, LN_VISIBLE), letters += lane(acc, LN_LETTER), upper += lane(acc, LN_UPPER);
  digits += lane(acc, LN_DIGIT), punct += lane(acc, LN_PUNCT), commas += lane(acc, LN_COMMA);
  seps += lane(acc, LN_SEP), sentences += lane(acc, LN_SENT);
  int ends_terminal = 0;
  /* a closing quote or bracket after the terminal still ends a sentence */
  if (is_terminal(prev) || ((prev == '"' || prev == 0x201D || prev == ')' || prev == '\'') && n >= 2 &&
                            is_terminal((unsigned char)s[n - 2]))) {
    ends_terminal = 1;
    sentences++;
  }
  *cs = (char_stats){visible, punct,     digits,        letters,      upper,    commas,
                     seps,    sentences, ends_terminal, starts_upper, copyright};
}

/* The page's <title>, normalized, and its tokens as hashes. */
static void read_title(tbk_units *ux, const tbk_page *p) {
  ux->title[0] = '\0';
  ux->n_title = 0;
  tbk_buf b = {0};
  if (tbk_page_title(p, 2000, &b) == 0 && b.len) {
    size_t k = tbk_utf8_cut(b.data, b.len, sizeof ux->title - 1);
    memcpy(ux->title, b.data, k);
    ux->title[k] = '\0';
  }
  tbk_buf_free(&b);
}

typedef struct title_ctx {
  tbk_units *ux;
  size_t cap;
  int fail;
} title_ctx;
static int on_title_token(void *vc, const char *tok, size_t len) {
  title_ctx *c = vc;
  tbk_units *ux = c->ux;
  if (ux->n_title >= 64) return 1;
  uint64_t h = tbk_hash64(tok, len);
  for (size_t k = 0; k < ux->n_title; k++)
    if (ux->title_h[k] == h) return 0;
  if (tbk_grow((void **)&ux->title_h, &c->cap, ux->n_title + 1, sizeof *ux->title_h)) {
    c->fail = 1;
    return 1;
  }
  ux->title_h[ux->n_title++] = h;
  return 0;
}

/* Readability's class/id weights, per vocabulary word: +25 for words of
 * article containers, -25 for words of page furniture. */
static int vocab_weight[UX_VOCAB_MAX];
static pthread_once_t weight_once = PTHREAD_ONCE_INIT;
static void weight_init(void) {
  static const char *const pos[] = {"article", "content", "entry", "main", "body", "text", "story", "post"};
  static const char *const neg[] = {"comment",   "footer",     "sidebar", "side",   "widget",     "share",
                                    "social",    "related",    "ad",      "ads",    "banner",     "promo",
                                    "nav",       "menu",       "header",  "meta",   "tag",        "cookie",
                                    "subscribe", "newsletter", "login",   "search", "breadcrumb", "pagination",
                                    "pager",     "skip",       "toolbar", "hidden", "copyright"};
  for (size_t v = 0; v < ux_vocab_count; v++) {
    for (size_t k = 0; k < COUNTOF(pos); k++) vocab_weight[v] += strcmp(ux_vocab_all[v], pos[k]) == 0 ? 25 : 0;
    for (size_t k = 0; k < COUNTOF(neg); k++) vocab_weight[v] -= strcmp(ux_vocab_all[v], neg[k]) == 0 ? 25 : 0;
  }
}

static int readability_weight(const uint64_t *bits, size_t attr_dims) {
  pthread_once(&weight_once, weight_init);
  int w = 0;
  for (size_t v = 0; v < ux_vocab_count; v++) {
    size_t j = attr_dims + v;
    if (bits[j / 64] >> (j % 64) & 1) w += vocab_weight[v];
  }
  return w;
}

tbk_status tbk_units_page(tbk_units *ux, const tbk_page *p, const double *block_p, tbk_error *err) {
  return tbk_units_page_with(ux, p, block_p, NULL, err);
}

/* One page's pass over its units: what the steps below share. */
typedef struct unit_pass {
  tbk_units *ux;
  const tbk_page *p;
  tbk_page_view pv; /* p's tables */
  const double *block_p;
  const tbk_features *fx; /* NULL when it is another page's */
  size_t nn, nu, dim, words_per, sp_max;
  size_t page_chars, page_anchor, page_words;
  double *tmpl_p, *dens; /* per unit: template probability, text density */
  size_t tok_k, bound_k; /* fx's first token and piece bound not before the unit */
  /* Readability's best element, its runner-up and the long units */
  uint32_t best, best2;
  double best_s, best_share;
  double max_plain, plain_total, best_long, long_total;
  double *longs;
  size_t n_long;
  /* the maximum-sum span of units */
  size_t sa, sb;
  double span_chars;
  uint32_t first_h1;
} unit_pass;

/* Node i's own class/id bits and its ancestors' (i must need them). */
static inline uint64_t *self_row(const tbk_units *ux, uint32_t i, size_t words_per) {
  return ux->self_bits + (size_t)(ux->need[i] - 1) * words_per;
}
static inline uint64_t *anc_row(const tbk_units *ux, uint32_t i, size_t words_per) {
  return ux->anc_bits + (size_t)(ux->need[i] - 1) * words_per;
}

/* The buffers sized for the page (unit_own_cols zeroes each unit's
 * fixed features as it comes to it). They are sized once per page, so to
 * what the page needs: the power of two tbk_grow would round to is up to
 * twice that, and the largest page's rows set the peak. */
static tbk_status prepare_rows(unit_pass *up, tbk_error *err) {
  tbk_units *ux = up->ux;
  size_t nn = up->nn, nu = up->nu;
  ux->sp_rows = 0;
  ux->n_sp = 0;
  ux->row_unit = SIZE_MAX;
  int bad = tbk_grow_exact((void **)&ux->fixed, &ux->cap_fixed, (nu ? nu : 1) * UX_FIXED_COUNT, sizeof *ux->fixed) ||
            tbk_grow_exact((void **)&ux->w_off, &ux->cap_woff, nu + 1, sizeof *ux->w_off) ||
            tbk_grow_exact((void **)&ux->sp_off, &ux->cap_spoff, nu + 1, sizeof *ux->sp_off);
  bad = bad || tbk_grow_exact((void **)&ux->scratch, &ux->cap_scratch, nu * 3 + 2, sizeof *ux->scratch) ||
        tbk_grow_exact((void **)&ux->need, &ux->cap_need, nn + 1, sizeof *ux->need);
  if (bad) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  ux->sp_off[0] = 0;
  return TBK_OK;
}

/* Per node: ancestor flags and class/id bits (own, and all ancestors'),
 * visible and anchor characters of the subtree. Class/id bits are read
 * only of the units' line elements and their ancestors (near, anc, the
 * best-element scores): inline elements inside a unit (a, span, code)
 * never need theirs. A marked node's ancestors are all marked. */
static tbk_status node_stats(unit_pass *up, tbk_error *err) {
  tbk_units *ux = up->ux;
  const tbk_page_view pv = up->pv;
  size_t nn = up->nn, nu = up->nu, words_per = up->words_per, rows = 0;
  memset(ux->need, 0, nn * sizeof *ux->need);
  for (size_t i = 0; i < nu; i++)
    for (uint32_t x = ux->u[i].elem; x != TBK_NONE && !ux->need[x]; x = pv.nodes[x].parent) ux->need[x] = 1, rows++;
  /* A bit row per node that needs one, not per node: a big page's inline
   * elements are most of its nodes. */
  if (tbk_grow_exact((void **)&ux->self_bits, &ux->cap_bits, (rows + 1) * words_per, sizeof *ux->self_bits) ||
      tbk_grow_exact((void **)&ux->anc_bits, &ux->cap_anc, (rows + 1) * words_per, sizeof *ux->anc_bits))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  uint32_t row = 0;
  for (uint32_t i = 0; i < nn; i++) {
    const tbk_node *nd = &pv.nodes[i];
    ux->nd[i].anc_flags = (nd->parent == TBK_NONE ? 0 : ux->nd[nd->parent].anc_flags) | anc_flag_of((tbk_tag)nd->tag);
    if (!ux->need[i]) continue;
    ux->need[i] = ++row; /* a parent's row is set before its children's */
    uint64_t *sb = self_row(ux, i, words_per), *ab = anc_row(ux, i, words_per);
    memset(sb, 0, words_per * sizeof *sb);
    tbk_fx_attr_bits_vocab(ux->opt.attr_dims, ux_vocab_all, ux->vhash, ux_vocab_count, nd, sb);
    if (nd->parent == TBK_NONE) {
      memcpy(ab, sb, words_per * sizeof *ab);
    } else {
      const uint64_t *pb = anc_row(ux, nd->parent, words_per);
      for (size_t w = 0; w < words_per; w++) ab[w] = pb[w] | sb[w];
    }
  }
  size_t page_chars = 0, page_anchor = 0;
  for (size_t r = 0; r < pv.n_runs; r++) {
    const tbk_run *run = &pv.runs[r];
    uint32_t c = (uint32_t)text_length(pv.text + run->start, run->end - run->start);
    ux->nd[run->node].chars += c;
    page_chars += c;
    if (pv.nodes[run->node].in_anchor) {
      ux->nd[run->node].anchor += c;
      page_anchor += c;
    }
  }
  for (size_t i = nn; i-- > 0;) {
    uint32_t par = pv.nodes[i].parent;
    if (par == TBK_NONE) continue;
    ux->nd[par].chars += ux->nd[i].chars;
    ux->nd[par].anchor += ux->nd[i].anchor;
  }
  up->page_chars = page_chars;
  up->page_anchor = page_anchor;
  return TBK_OK;
}

/* The title's tokens; with the template features' pass of this page, what
 * every word of it means to a unit, found once per word (add_shared_tokens). */
static tbk_status title_and_words(unit_pass *up, tbk_error *err) {
  tbk_units *ux = up->ux;
  read_title(ux, up->p);
  title_ctx tc = {ux, 0, 0};
  free(ux->title_h);
  ux->title_h = NULL;
  ux->n_title = 0;
  if (ux->title[0]) tbk_tokenize_valid(ux->tok, ux->title, strlen(ux->title), on_title_token, &tc);
  if (tc.fail) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  memset(ux->title_k, 0, sizeof ux->title_k);
  for (size_t k = 0; k < ux->n_title; k++) {
    size_t slot = ux->title_h[k] & (UX_TITLE_SLOTS - 1);
    while (ux->title_k[slot]) slot = (slot + 1) & (UX_TITLE_SLOTS - 1);
    ux->title_slot[slot] = ux->title_h[k];
    ux->title_k[slot] = (uint8_t)(k + 1);
  }
  const tbk_features *fx = up->fx;
  if (fx && (fx->tok_text != up->pv.text || fx->tok_len != up->pv.text_len)) fx = up->fx = NULL; /* another page's */
  if (!fx) return TBK_OK;
  if (tbk_grow((void **)&ux->voc, &ux->cap_voc, fx->n_voc + 1, sizeof *ux->voc))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t id = 0; id < fx->n_voc; id++) {
    uint64_t h = fx->voc_h64[id];
    unit_word *w = &ux->voc[id];
    w->bucket = fx->voc_h32[id] % ux->opt.word_dims + 1;
    w->bits = word_bits_of(h);
    w->title = -1;
    w->title = (int16_t)title_index(ux, h);
  }
  return TBK_OK;
}

/* The tokens of text [a, z) of the page, tokenized here. */
static void fresh_tokens(unit_pass *up, tok_ctx *c, size_t a, size_t z) {
  const unsigned char *t = (const unsigned char *)up->pv.text + a;
  if (is_ascii(t, z - a)) tokenize_ascii(c, t, z - a);
  else tbk_tokenize_hashed(up->ux->tok, (const char *)t, z - a, on_token, c);
}

/* A unit's tokens: taken from the template features' pass where no cut
 * (the unit's ends, fx's piece bounds inside) can change them; around a
 * bound that cuts a word (an inline element inside it), the word from
 * the space before to the space after is tokenized here. A sixth of the
 * units of debian_docs have such a bound, most of them one. Fails only
 * for memory. */
static int unit_tokens(unit_pass *up, const tbk_unit_rec *u, tok_ctx *c) {
  const tbk_features *fx = up->fx;
  const tbk_page_view pv = up->pv;
  const char *text = pv.text;
  size_t len = pv.text_len;
  if (!fx || !cut_is_safe(text, len, u->start) || !cut_is_safe(text, len, u->end)) {
    fresh_tokens(up, c, u->start, u->end);
    return c->fail;
  }
  while (up->tok_k < fx->n_tok && fx->tok_pos[up->tok_k] < u->start) up->tok_k++;
  while (up->bound_k < fx->n_bounds && fx->bounds[up->bound_k] <= u->start) up->bound_k++;
  /* pos: where fx's tokens are the unit's again (a safe cut), from k */
  size_t pos = u->start, k = up->tok_k;
  for (size_t b = up->bound_k; b < fx->n_bounds && fx->bounds[b] < u->end && !c->fail; b++) {
    size_t cut = fx->bounds[b];
    if (cut < pos || cut_is_safe(text, len, cut)) continue;
    size_t a = cut, z = cut;
    while (a > pos && text[a - 1] != ' ') a--;
    while (z < u->end && text[z] != ' ') z++;
    size_t k1 = k;
    while (k1 < fx->n_tok && fx->tok_pos[k1] < a) k1++;
    if (add_shared_tokens(c, fx, k, k1)) return 1;
    fresh_tokens(up, c, a, z);
    for (k = k1; k < fx->n_tok && fx->tok_pos[k] < z; k++) {}
    pos = z;
  }
  size_t k1 = k;
  while (k1 < fx->n_tok && fx->tok_pos[k1] < u->end) k1++;
  if (!c->fail) add_shared_tokens(c, fx, k, k1);
  up->tok_k = k1;
  return c->fail;
}

/* The unit's own text: lengths, sentences, character classes, density,
 * title words, position, links. */
static void unit_text_cols(unit_pass *up, size_t i, const tok_ctx *c, double *v) {
  const tbk_page_view pv = up->pv;
  const tbk_unit_rec *u = &up->ux->u[i];
  size_t nu = up->nu, n_title = up->ux->n_title;
  char_stats cs;
  scan_chars(pv.text + u->start, u->end - u->start, &cs);
  double words = c->words;
  v[UX_CHARS] = u->chars;
  v[UX_WORDS] = words;
  v[UX_MEAN_WORD_LEN] = c->words ? (double)c->word_cps / words : 0;
  v[UX_SENTENCES] = cs.sentences;
  v[UX_WORDS_PER_SENT] = words / (cs.sentences ? cs.sentences : 1);
  v[UX_ENDS_PUNCT] = cs.ends_terminal;
  v[UX_STARTS_UPPER] = cs.starts_upper;
  v[UX_COMMAS] = cs.commas;
  v[UX_PUNCT_RATIO] = cs.visible ? (double)cs.punct / cs.visible : 0;
  v[UX_SEP_RATIO] = cs.visible ? (double)cs.seps / cs.visible : 0;
  v[UX_DIGIT_RATIO] = cs.visible ? (double)cs.digits / cs.visible : 0;
  v[UX_UPPER_RATIO] = cs.letters ? (double)cs.upper / cs.letters : 0;
  v[UX_STOP_RATIO] = c->words ? (double)c->stops / words : 0;
  double d = c->wrapped ? (double)(c->words - c->line_words) / c->wrapped : words;
  up->dens[i] = d;
  v[UX_DENSITY] = d;
  v[UX_COPYRIGHT] = cs.copyright;
  v[UX_LINK_RATIO] = u->chars ? (double)u->anchor_chars / u->chars : 0;
  v[UX_RUNS] = u->run_end - u->run_first;
  const tbk_node *le = &pv.nodes[u->elem];
  v[UX_DEPTH] = le->depth;
  v[UX_DEPTH_REL] = pv.max_depth ? (double)le->depth / pv.max_depth : 0;
  v[UX_OFFSET_REL] = pv.text_len ? (double)u->start / (double)pv.text_len : 0;
  v[UX_INDEX_REL] = nu > 1 ? (double)i / (double)(nu - 1) : 0;
  v[UX_TITLE_SHARE] = c->words ? (double)(c->title_hits < c->words ? c->title_hits : c->words) / words : 0;
  v[UX_TITLE_COVER] = n_title ? (double)__builtin_popcountll(c->title_seen) / (double)(n_title < 64 ? n_title : 64) : 0;
  /* anchors: distinct <a> elements among the unit's runs */
  uint32_t anchors = 0, last_a = TBK_NONE;
  for (uint32_t r = u->run_first; r < u->run_end; r++) {
    uint32_t n = pv.runs[r].node;
    while (n != TBK_NONE && pv.nodes[n].tag != TBK_TAG_A && pv.nodes[n].in_anchor) n = pv.nodes[n].parent;
    if (n != TBK_NONE && pv.nodes[n].tag == TBK_TAG_A && n != last_a) {
      anchors++;
      last_a = n;
    }
  }
  v[UX_ANCHORS] = anchors;
}

/* Markup context: the binary columns, in column order, as the unit's
 * sparse list. */
static tbk_status unit_markup_cols(unit_pass *up, size_t i, double *v, tbk_error *err) {
  tbk_units *ux = up->ux;
  const tbk_page_view pv = up->pv;
  tbk_unit_rec *u = &ux->u[i];
  size_t words_per = up->words_per;
  if (tbk_grow((void **)&ux->sp_col, &ux->cap_sp, ux->n_sp + up->sp_max, sizeof *ux->sp_col))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  const tbk_node *le = &pv.nodes[u->elem];
  uint32_t *sp = ux->sp_col + ux->n_sp, *sp0 = sp;
  int col = ux->tag_col[le->tag];
  *sp++ = col >= 0 ? (uint32_t)col : (uint32_t)ux->tag_other;
  uint32_t fl = ux->nd[u->elem].anc_flags;
  /* inline elements around the unit's text count too (a, strong, time) */
  for (uint32_t r = u->run_first; r < u->run_end; r++) fl |= ux->nd[pv.runs[r].node].anc_flags;
  u->anc_flags = fl;
  for (uint32_t b = fl; b; b &= b - 1) *sp++ = (uint32_t)(ux->anc_col + (size_t)__builtin_ctz(b));
  v[UX_HEADING] = (fl >> UA_HEADING) & 1;
  const uint64_t *near = self_row(ux, u->elem, words_per);
  const uint64_t *nearp = le->parent != TBK_NONE ? self_row(ux, le->parent, words_per) : near;
  const uint64_t *anc = anc_row(ux, u->elem, words_per);
  for (size_t w = 0; w < words_per; w++)
    for (uint64_t b = near[w] | nearp[w]; b; b &= b - 1)
      *sp++ = (uint32_t)(ux->attr_self + w * 64 + (size_t)__builtin_ctzll(b));
  for (size_t w = 0; w < words_per; w++)
    for (uint64_t b = anc[w]; b; b &= b - 1) *sp++ = (uint32_t)(ux->attr_anc + w * 64 + (size_t)__builtin_ctzll(b));
  ux->n_sp += (size_t)(sp - sp0);
  ux->sp_off[i + 1] = ux->n_sp;
  ux->sp_rows = i + 1;
  return TBK_OK;
}

/* Template stage: the innermost block's probability, weighted by chars,
 * and the outermost block's. */
static void unit_template_cols(unit_pass *up, size_t i, double *v) {
  const tbk_page_view pv = up->pv;
  const tbk_unit_rec *u = &up->ux->u[i];
  const double *block_p = up->block_p;
  double tp = 0, inb = 0;
  for (uint32_t r = u->run_first; block_p && r < u->run_end; r++) {
    int32_t b = tbk_view_block_of(&pv, pv.runs[r].node);
    if (b < 0) continue;
    double w = (double)(pv.runs[r].end - pv.runs[r].start);
    tp += w * block_p[b];
    inb += w;
  }
  double tot = 0;
  for (uint32_t r = u->run_first; r < u->run_end; r++) tot += (double)(pv.runs[r].end - pv.runs[r].start);
  v[UX_TMPL_P] = tot > 0 ? tp / tot : 0;
  v[UX_TMPL_IN_BLOCK] = tot > 0 ? inb / tot : 0;
  up->tmpl_p[i] = v[UX_TMPL_P];
  double outer = 0;
  for (int32_t b = block_p ? tbk_view_block_of(&pv, u->elem) : -1; b >= 0; b = pv.blocks[b].parent) outer = block_p[b];
  v[UX_TMPL_OUTER_P] = outer;
}

/* Every unit's own columns: tokens, words line, text stats, markup and
 * template probability. */
static tbk_status unit_own_cols(unit_pass *up, tbk_error *err) {
  tbk_units *ux = up->ux;
  size_t nu = up->nu;
  ux->n_w = 0;
  up->page_words = 0;
  up->tmpl_p = ux->scratch;
  up->dens = ux->scratch + nu;
  for (size_t i = 0; i < nu; i++) {
    tbk_unit_rec *u = &ux->u[i];
    double *v = ux->fixed + i * UX_FIXED_COUNT;
    /* unit by unit: one memset of the page's rows is a string store,
     * which callgrind counts a byte at a time */
    memset(v, 0, UX_FIXED_COUNT * sizeof *v);
    ux->w_off[i] = ux->n_w;
    tok_ctx c = {.ux = ux, .unit = i, .line_len = -1};
    size_t before = ux->n_w;
    if (unit_tokens(up, u, &c)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    /* fold_words writes a count beside every index */
    if (tbk_grow((void **)&ux->w_cnt, &ux->cap_wcnt, ux->n_w ? ux->n_w : 1, sizeof *ux->w_cnt))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    fold_words(ux, before);
    u->words = c.words;
    up->page_words += c.words;
    unit_text_cols(up, i, &c, v);
    tbk_status st = unit_markup_cols(up, i, v, err);
    if (st) return st;
    unit_template_cols(up, i, v);
  }
  ux->w_off[nu] = ux->n_w;
  return TBK_OK;
}

/* Readability's best element: every prose-like unit adds to its line
 * element's parent (full), grandparent (half) and great-grandparent
 * (a third); scores are then cut by the element's link density and
 * moved by its class/id words. */
static void best_element(unit_pass *up) {
  tbk_units *ux = up->ux;
  const tbk_page_view pv = up->pv;
  size_t nu = up->nu, nn = up->nn;
  for (size_t i = 0; i < nu; i++) {
    const tbk_unit_rec *u = &ux->u[i];
    if (u->chars < 25 || u->anchor_chars * 2 > u->chars) continue;
    double s = 1 + ux->fixed[i * UX_FIXED_COUNT + UX_COMMAS] + fmin((double)u->chars / 100.0, 3.0);
    uint32_t a = pv.nodes[u->elem].parent;
    for (int lvl = 1; lvl <= 3 && a != TBK_NONE; lvl++, a = pv.nodes[a].parent)
      ux->nd[a].score += lvl == 1 ? s : lvl == 2 ? s / 2 : s / 3;
  }
  uint32_t best = TBK_NONE, best2 = TBK_NONE;
  double best_s = 0, best2_s = 0;
  for (uint32_t i = 0; i < nn; i++) {
    if (ux->nd[i].score <= 0) continue;
    double ld = ux->nd[i].chars ? (double)ux->nd[i].anchor / ux->nd[i].chars : 0;
    double s = (ux->nd[i].score + readability_weight(self_row(ux, i, up->words_per), ux->opt.attr_dims)) * (1 - ld);
    ux->nd[i].score = s;
    if (s > best_s) {
      best2_s = best_s;
      best2 = best;
      best_s = s;
      best = i;
    } else if (s > best2_s) {
      best2_s = s;
      best2 = i;
    }
  }
  /* The second-best element counts only when it is not inside the best
   * one (an article split in two containers, a lone long paragraph). */
  if (best2 != TBK_NONE && tbk_view_holds(&pv, best, best2)) best2 = TBK_NONE;
  up->best = best;
  up->best2 = best2;
  up->best_s = best_s;
  up->best_share = best != TBK_NONE && up->page_chars ? (double)ux->nd[best].chars / up->page_chars : 0;
}

/* Unit lengths relative to the page's longest prose: one long paragraph
 * is content wherever the best element went. Then the maximum-sum span of
 * units: long unlinked text gains, links and short units cost; the span
 * is where the page's prose is. */
static void long_units_and_span(unit_pass *up) {
  tbk_units *ux = up->ux;
  const tbk_page_view pv = up->pv;
  size_t nu = up->nu;
  uint32_t best = up->best;
  double max_plain = 0, plain_total = 0;
  for (size_t i = 0; i < nu; i++) {
    double pl = (double)ux->u[i].chars - ux->u[i].anchor_chars;
    plain_total += pl;
    if (pl > max_plain) max_plain = pl;
  }
  double *longs = ux->scratch + 2 * nu;
  size_t n_long = 0;
  for (size_t i = 0; i < nu; i++)
    if (ux->u[i].chars - ux->u[i].anchor_chars >= 80) longs[n_long++] = (double)ux->u[i].chars - ux->u[i].anchor_chars;
  qsort(longs, n_long, sizeof *longs, cmp_double_desc);
  double best_long = 0, long_total = 0;
  for (size_t i = 0; i < nu; i++) {
    if (ux->u[i].chars - ux->u[i].anchor_chars < 80) continue;
    long_total += 1;
    if (best != TBK_NONE && tbk_view_holds(&pv, best, ux->u[i].elem)) best_long += 1;
  }
  size_t sa = 0, sb = 0, cur_a = 0;
  double bestsum = -1, cur = 0;
  for (size_t i = 0; i < nu; i++) {
    const tbk_unit_rec *u = &ux->u[i];
    double g = (double)u->chars - 3.0 * u->anchor_chars - 60.0;
    if (cur <= 0) {
      cur = 0;
      cur_a = i;
    }
    cur += g;
    if (cur > bestsum) {
      bestsum = cur;
      sa = cur_a;
      sb = i + 1;
    }
  }
  double span_chars = 0;
  for (size_t i = sa; i < sb; i++) span_chars += ux->u[i].chars;
  up->max_plain = max_plain;
  up->plain_total = plain_total;
  up->longs = longs;
  up->n_long = n_long;
  up->best_long = best_long;
  up->long_total = long_total;
  up->sa = sa;
  up->sb = sb;
  up->span_chars = span_chars;
}

/* Units and words under each line element's parent: counted at the
 * units' own line elements and summed up the tree like the characters;
 * and the first unit in an <h1>. */
static void subtree_units(unit_pass *up) {
  tbk_units *ux = up->ux;
  const tbk_page_view pv = up->pv;
  size_t nu = up->nu;
  for (size_t i = 0; i < nu; i++) {
    ux->nd[ux->u[i].elem].units++;
    ux->nd[ux->u[i].elem].words += ux->u[i].words;
  }
  for (size_t i = up->nn; i-- > 0;) {
    uint32_t par = pv.nodes[i].parent;
    if (par == TBK_NONE) continue;
    ux->nd[par].units += ux->nd[i].units;
    ux->nd[par].words += ux->nd[i].words;
  }
  uint32_t first_h1 = TBK_NONE;
  for (size_t i = 0; i < nu && first_h1 == TBK_NONE; i++)
    if (pv.nodes[ux->u[i].elem].tag == TBK_TAG_H1) first_h1 = (uint32_t)i;
  up->first_h1 = first_h1;
}

/* Where the unit is from the best element: inside, before, after, steps
 * up to the common ancestor and down. */
static void unit_best_cols(const unit_pass *up, const tbk_unit_rec *u, double *v) {
  const tbk_page_view pv = up->pv;
  uint32_t best = up->best;
  const tbk_node *b = &pv.nodes[best];
  uint32_t steps = 0, x = u->elem;
  while (x != TBK_NONE && !tbk_view_holds(&pv, x, best)) {
    x = pv.nodes[x].parent;
    steps++;
  }
  int inside = u->elem >= best && u->elem < b->end;
  v[UX_BEST_IN] = inside;
  v[UX_BEST_UP] = steps;
  v[UX_BEST_DOWN] = x == TBK_NONE ? 0 : b->depth - pv.nodes[x].depth;
  v[UX_BEST_SHARE] = up->best_share;
  v[UX_BEST_BEFORE] = !inside && u->elem < best;
  v[UX_BEST_AFTER] = !inside && u->elem >= b->end;
  uint32_t par = pv.nodes[u->elem].parent;
  v[UX_PARENT_SCORE] = par != TBK_NONE && up->best_s > 0 ? fmax(0, up->ux->nd[par].score) / up->best_s : 0;
}

/* The unit against the page's long units, the prose span and headings. */
static void unit_rank_cols(const unit_pass *up, size_t i, double *v) {
  const tbk_units *ux = up->ux;
  const tbk_unit_rec *u = &ux->u[i];
  size_t nu = up->nu, sa = up->sa, sb = up->sb;
  double plain = (double)u->chars - u->anchor_chars;
  v[UX_CHARS_REL_MAX] = up->max_plain > 0 ? plain / up->max_plain : 0;
  v[UX_PLAIN_SHARE] = up->plain_total > 0 ? plain / up->plain_total : 0;
  /* rank among units by plain characters, counted by the longer ones */
  double rank = 50;
  if (plain >= 80) {
    size_t lo = 0, hi = up->n_long; /* first index not longer than plain */
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (up->longs[mid] > plain) lo = mid + 1;
      else hi = mid;
    }
    rank = fmin(50, (double)lo + 1);
  }
  v[UX_CHARS_RANK] = rank;
  uint32_t best2 = up->best2;
  v[UX_BEST2_IN] = best2 != TBK_NONE && tbk_view_holds(&up->pv, best2, u->elem);
  v[UX_BEST_LONG_SHARE] = up->long_total > 0 ? up->best_long / up->long_total : 0;
  v[UX_SPAN_IN] = i >= sa && i < sb;
  v[UX_SPAN_DIST] = i < sa ? (double)(sa - i) : i >= sb ? (double)(i - sb + 1) : 0;
  v[UX_SPAN_SHARE] = up->page_chars ? up->span_chars / up->page_chars : 0;
  v[UX_FIRST_H1] = up->first_h1 == i;
  v[UX_HEADING_BEFORE] = i > 0 && ux->fixed[(i - 1) * UX_FIXED_COUNT + UX_HEADING] > 0;
  v[UX_HEADING_THEN_TEXT] = v[UX_HEADING] > 0 && i + 1 < nu && ux->u[i + 1].words >= 15;
}

/* The units around: two on each side, a window of seven, the siblings. */
/* Words, characters and linked characters of the units i-3..i+3: slid
 * along the page a unit at a time (integer sums, so the same values as
 * adding the seven up, in a fixed number of steps per unit). */
typedef struct unit_window {
  uint64_t words, chars, anchor;
} unit_window;

static void window_add(unit_window *w, const tbk_unit_rec *u) {
  w->words += u->words;
  w->chars += u->chars;
  w->anchor += u->anchor_chars;
}

static void window_drop(unit_window *w, const tbk_unit_rec *u) {
  w->words -= u->words;
  w->chars -= u->chars;
  w->anchor -= u->anchor_chars;
}

static void unit_neighbour_cols(const unit_pass *up, size_t i, const unit_window *win, double *v) {
  const tbk_units *ux = up->ux;
  const tbk_page_view pv = up->pv;
  const tbk_unit_rec *u = &ux->u[i];
  size_t nu = up->nu;
  static const int nb_off[4] = {-2, -1, 1, 2};
  static const int nb_words[4] = {UX_PREV2_WORDS, UX_PREV_WORDS, UX_NEXT_WORDS, UX_NEXT2_WORDS};
  static const int nb_link[4] = {UX_PREV2_LINK, UX_PREV_LINK, UX_NEXT_LINK, UX_NEXT2_LINK};
  for (int k = 0; k < 4; k++) {
    long j = (long)i + nb_off[k];
    if (j < 0 || (size_t)j >= nu) continue;
    v[nb_words[k]] = ux->u[j].words;
    v[nb_link[k]] = ux->u[j].chars ? (double)ux->u[j].anchor_chars / ux->u[j].chars : 0;
  }
  if (i > 0) {
    v[UX_PREV_DENSITY] = up->dens[i - 1];
    v[UX_PREV_TMPL] = up->tmpl_p[i - 1];
    v[UX_PREV_SAME_PARENT] = pv.nodes[ux->u[i - 1].elem].parent == pv.nodes[u->elem].parent;
  }
  if (i + 1 < nu) {
    v[UX_NEXT_DENSITY] = up->dens[i + 1];
    v[UX_NEXT_TMPL] = up->tmpl_p[i + 1];
    v[UX_NEXT_SAME_PARENT] = pv.nodes[ux->u[i + 1].elem].parent == pv.nodes[u->elem].parent;
  }
  v[UX_WIN_WORDS] = (double)win->words;
  v[UX_WIN_LINK] = win->chars > 0 ? (double)win->anchor / (double)win->chars : 0;
  uint32_t par = pv.nodes[u->elem].parent;
  if (par != TBK_NONE) {
    v[UX_SIB_LINK] = ux->nd[par].chars ? (double)ux->nd[par].anchor / ux->nd[par].chars : 0;
    v[UX_SIB_UNITS] = ux->nd[par].units;
    v[UX_SIB_WORDS] = ux->nd[par].words;
  }
}

/* The per-node class/id bits, the per-unit scratch and the word table are
 * dead once the rows are made: a large page gives them back (util.h's
 * TBK_KEEP_BYTES), so that its decision and rendering do not carry them;
 * smaller ones keep them for the next page, which then allocates nothing. */
static void release_scratch(tbk_units *ux) {
  TBK_DROP_ALL(&ux->cap_bits, TBK_ARRAY(ux->self_bits));
  TBK_DROP_ALL(&ux->cap_anc, TBK_ARRAY(ux->anc_bits));
  TBK_DROP_ALL(&ux->cap_need, TBK_ARRAY(ux->need));
  TBK_DROP_ALL(&ux->cap_scratch, TBK_ARRAY(ux->scratch));
  TBK_DROP_ALL(&ux->cap_voc, TBK_ARRAY(ux->voc));
  TBK_DROP_ALL(&ux->cap_sort_tmp, TBK_ARRAY(ux->sort_tmp));
}

void tbk_units_drop_page(tbk_units *ux) {
  ux->n = 0;
  ux->sp_rows = 0;
  ux->n_sp = 0;
  ux->n_w = 0;
  ux->row_unit = SIZE_MAX;
  ux->paths.len = 0;
  ux->paths_ready = 0;
  ux->body.containers = 0;
  TBK_DROP_ALL(&ux->cap, TBK_ARRAY(ux->u));
  TBK_DROP_ALL(&ux->cap_fixed, TBK_ARRAY(ux->fixed));
  TBK_DROP_ALL(&ux->cap_sp, TBK_ARRAY(ux->sp_col));
  TBK_DROP_ALL(&ux->cap_spoff, TBK_ARRAY(ux->sp_off));
  TBK_DROP_ALL(&ux->cap_woff, TBK_ARRAY(ux->w_off));
  TBK_DROP_ALL(&ux->cap_w, TBK_ARRAY(ux->w_idx));
  TBK_DROP_ALL(&ux->cap_wcnt, TBK_ARRAY(ux->w_cnt));
  TBK_DROP_ALL(&ux->cap_nd, TBK_ARRAY(ux->nd));
  TBK_DROP_ALL(&ux->body.cap, TBK_ARRAY(ux->body.in), TBK_ARRAY(ux->body.thread), TBK_ARRAY(ux->body.gallery));
  TBK_DROP_ALL(&ux->body.memo_cap, TBK_ARRAY(ux->body.memo));
  TBK_DROP_ALL(&ux->paths.cap, TBK_ARRAY(ux->paths.data));
}

tbk_status tbk_units_page_with(tbk_units *ux, const tbk_page *p, const double *block_p, const tbk_features *fx,
                               tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(p);
  pthread_once(&sc_once, sc_init);
  tbk_status st = tbk_units_segment(ux, p, err);
  if (st) return st;
  memset(ux->lang_hits, 0, sizeof ux->lang_hits);
  unit_pass up = {
      .ux = ux, .p = p, .pv = pv, .block_p = block_p, .fx = fx, .nn = pv.n_nodes, .nu = ux->n, .dim = ux->dim};
  up.words_per = (ux->attr_width + 63) / 64;
  up.sp_max = ux->sp_max;
  if ((st = prepare_rows(&up, err))) return st;
  if ((st = node_stats(&up, err))) return st;
  if ((st = title_and_words(&up, err)) || (st = unit_own_cols(&up, err))) return st;
  best_element(&up);
  long_units_and_span(&up);
  subtree_units(&up);
  size_t nu = up.nu;
  double page_link = up.page_chars ? (double)up.page_anchor / up.page_chars : 0;
  unit_window win = {0, 0, 0};
  for (size_t j = 0; j < nu && j <= 3; j++) window_add(&win, &ux->u[j]);
  for (size_t i = 0; i < nu; i++) {
    double *v = ux->fixed + i * UX_FIXED_COUNT;
    v[UX_PAGE_UNITS] = (double)nu;
    v[UX_PAGE_WORDS] = (double)up.page_words;
    v[UX_PAGE_LINK_RATIO] = page_link;
    if (up.best != TBK_NONE) unit_best_cols(&up, &ux->u[i], v);
    unit_rank_cols(&up, i, v);
    unit_neighbour_cols(&up, i, &win, v);
    if (i + 4 < nu) window_add(&win, &ux->u[i + 4]);
    if (i >= 3) window_drop(&win, &ux->u[i - 3]);
  }
  release_scratch(ux);
  return tbk_units_body_markup(ux, p, err);
}

const char *tbk_units_title(const tbk_units *ux) { return ux->title; }

int tbk_units_language(const tbk_units *ux) {
  size_t nl = tbk_stop_count < TBK_UNITS_MAX_LANGS ? tbk_stop_count : TBK_UNITS_MAX_LANGS;
  int best = -1;
  for (size_t l = 0; l < nl; l++)
    if (ux->lang_hits[l] >= TBK_UNITS_LANG_MIN_HITS && (best < 0 || ux->lang_hits[l] > ux->lang_hits[best]))
      best = (int)l;
  return best;
}
