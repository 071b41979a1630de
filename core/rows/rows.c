/* tbk-features' rows: blocks or text units, with or without labels, as
 * three aligned files (rows.h). */
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "util.h"

/* Row i of the page just computed: where it is and its text's md5. */
typedef struct row_key {
  const char *path, *tag;
  char md5[33];
} row_key;

/* What the rows need of an extractor, one for each stage: the block
 * features or the text units, chosen once in tbk_rows_new. */
typedef struct row_stage {
  tbk_stage stage;
  tbk_status (*make)(const tbk_feature_options *o, void **x, tbk_error *err);
  void (*free)(void *x);
  const char *(*schema_id)(const void *x);
  size_t (*dim)(const void *x);
  const char *(*name)(const void *x, size_t i);
  const char *(*kind)(const void *x, size_t i);
  tbk_status (*page)(void *x, const tbk_page *page, const double *block_p, tbk_error *err);
  size_t (*count)(const void *x, const tbk_page *page);
  void (*key)(const void *x, const tbk_page *page, size_t i, row_key *k);
  int (*format)(const void *x, size_t i, int label, int words, tbk_buf *out);
} row_stage;

static tbk_status blocks_make(const tbk_feature_options *o, void **x, tbk_error *err) {
  tbk_features *fx = NULL;
  tbk_status st = tbk_features_new(o, &fx, err);
  *x = fx;
  return st;
}
static void blocks_free(void *x) { tbk_features_free(x); }
static const char *blocks_schema_id(const void *x) { return tbk_features_schema_id(x); }
static size_t blocks_dim(const void *x) { return tbk_features_dim(x); }
static const char *blocks_name(const void *x, size_t i) { return tbk_features_name(x, i); }
static const char *blocks_kind(const void *x, size_t i) { return tbk_features_kind(x, i); }
static tbk_status blocks_page(void *x, const tbk_page *page, const double *block_p, tbk_error *err) {
  (void)block_p;
  return tbk_features_page(x, page, err);
}
static size_t blocks_count(const void *x, const tbk_page *page) {
  (void)x;
  return tbk_page_block_count(page);
}
static void blocks_key(const void *x, const tbk_page *page, size_t i, row_key *k) {
  (void)x;
  const tbk_block *blk = tbk_page_block(page, i);
  k->path = blk->path, k->tag = blk->tag;
  tbk_md5_hex(blk->md5, k->md5);
}
static int blocks_format(const void *x, size_t i, int label, int words, tbk_buf *out) {
  return tbk_features_format(x, i, label, words, out);
}

static tbk_status units_make(const tbk_feature_options *o, void **x, tbk_error *err) {
  tbk_units *ux = NULL;
  tbk_status st = tbk_units_new(o, &ux, err);
  *x = ux;
  return st;
}
static void units_free(void *x) { tbk_units_free(x); }
static const char *units_schema_id(const void *x) { return tbk_units_schema_id(x); }
static size_t units_dim(const void *x) { return tbk_units_dim(x); }
static const char *units_name(const void *x, size_t i) { return tbk_units_name(x, i); }
static const char *units_kind(const void *x, size_t i) { return tbk_units_kind(x, i); }
static tbk_status units_page(void *x, const tbk_page *page, const double *block_p, tbk_error *err) {
  return tbk_units_page(x, page, block_p, err);
}
static size_t units_count(const void *x, const tbk_page *page) {
  (void)page;
  return tbk_units_count(x);
}
static void units_key(const void *x, const tbk_page *page, size_t i, row_key *k) {
  tbk_unit un;
  tbk_units_get(x, page, i, &un);
  k->path = un.path, k->tag = un.tag;
  tbk_md5_hex(un.md5, k->md5);
}
static int units_format(const void *x, size_t i, int label, int words, tbk_buf *out) {
  return tbk_units_format(x, i, label, words, out);
}

static const row_stage STAGES[] = {
    [TBK_STAGE_BLOCKS] = {TBK_STAGE_BLOCKS, blocks_make, blocks_free, blocks_schema_id, blocks_dim, blocks_name,
                          blocks_kind, blocks_page, blocks_count, blocks_key, blocks_format},
    [TBK_STAGE_UNITS] = {TBK_STAGE_UNITS, units_make, units_free, units_schema_id, units_dim, units_name, units_kind,
                         units_page, units_count, units_key, units_format},
};

struct tbk_rows {
  tbk_feature_options opt;
  const row_stage *stage;
  void *x;      /* owned: the stage's extractor */
  tbk_buf line; /* scratch */
};

tbk_status tbk_rows_new(const tbk_feature_options *o, int units, tbk_rows **out, tbk_error *err) {
  *out = NULL;
  tbk_rows *r = calloc(1, sizeof *r);
  if (!r) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  r->opt = *o;
  r->stage = &STAGES[units ? TBK_STAGE_UNITS : TBK_STAGE_BLOCKS];
  tbk_status st = r->stage->make(o, &r->x, err);
  if (st == TBK_OK) *out = r;
  else free(r);
  return st;
}

void tbk_rows_free(tbk_rows *r) {
  if (!r) return;
  r->stage->free(r->x);
  tbk_buf_free(&r->line);
  free(r);
}

const char *tbk_rows_schema_id(const tbk_rows *r) { return r->stage->schema_id(r->x); }
size_t tbk_rows_dim(const tbk_rows *r) { return r->stage->dim(r->x); }
const char *tbk_rows_name(const tbk_rows *r, size_t i) { return r->stage->name(r->x, i); }
const char *tbk_rows_kind(const tbk_rows *r, size_t i) { return r->stage->kind(r->x, i); }

int tbk_rows_schema_write(const tbk_rows *r, int id, int names, tbk_buf *out) {
  if (id && tbk_buf_printf(out, "%s\n", tbk_rows_schema_id(r))) return -1;
  for (size_t i = 0; names && i < tbk_rows_dim(r); i++)
    if (tbk_buf_printf(out, "%zu\t%s\t%s\n", i + 1, tbk_rows_name(r, i), tbk_rows_kind(r, i))) return -1;
  return 0;
}

static tbk_status put(const tbk_rows_out *out, void *ctx, const tbk_buf *b, tbk_error *err) {
  if (b->len && out->write(ctx, b->data, b->len)) return tbk_fail(err, TBK_ERR_IO, "cannot write");
  return TBK_OK;
}

tbk_status tbk_rows_meta_header(const tbk_rows *r, const tbk_page_options *po, const tbk_rows_out *out,
                                tbk_error *err) {
  tbk_buf line = {0};
  tbk_status st = TBK_OK;
  if (tbk_buf_printf(&line,
                     "{\"schema\":\"%s\",\"dim\":%zu,\"word_dims\":%u,\"attr_dims\":%u,\"bigrams\":%d,"
                     "\"blocks\":\"%s\",\"min_chars\":%zu,\"min_words\":%zu}\n",
                     tbk_rows_schema_id(r), tbk_rows_dim(r), r->opt.word_dims, r->opt.attr_dims, r->opt.bigrams ? 1 : 0,
                     po->blocks == TBK_BLOCKS_HTML5 ? "html5" : "paper", po->min_chars, po->min_words))
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  else st = put(out, out->meta, &line, err);
  tbk_buf_free(&line);
  return st;
}

static int format_vector(tbk_rows *r, size_t i, int label, int words) {
  r->line.len = 0;
  return r->stage->format(r->x, i, label, words, &r->line);
}

static int format_meta(tbk_rows *r, const tbk_page_ref *ref, size_t i, const row_key *k, int label) {
  tbk_buf *b = &r->line;
  b->len = 0;
  return tbk_buf_puts(b, "{\"site\":") || tbk_buf_json_str(b, ref->site, strlen(ref->site)) ||
         tbk_buf_puts(b, ",\"page\":") || tbk_buf_json_str(b, ref->page, strlen(ref->page)) ||
         tbk_buf_puts(b, ",\"path\":") || tbk_buf_json_str(b, k->path, strlen(k->path)) ||
         tbk_buf_puts(b, ",\"tag\":") || tbk_buf_json_str(b, k->tag, strlen(k->tag)) ||
         tbk_buf_printf(b, ",\"md5\":\"%s\",\"label\":%d,\"%s\":%zu}\n", k->md5, label, tbk_stages[r->stage->stage].row,
                        i);
}

static tbk_status write_row(tbk_rows *r, const tbk_page_ref *ref, size_t i, const row_key *k, int label,
                            const tbk_rows_out *out, tbk_error *err) {
  tbk_status st;
  if (format_vector(r, i, label, 0)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if ((st = put(out, out->features, &r->line, err))) return st;
  if (out->words) {
    if (format_vector(r, i, label, 1)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    if ((st = put(out, out->words, &r->line, err))) return st;
  }
  if (out->meta) {
    if (format_meta(r, ref, i, k, label)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    if ((st = put(out, out->meta, &r->line, err))) return st;
  }
  return TBK_OK;
}

/* The label of row k, or 0 with *skip set when the row is not written. */
static int row_label(const tbk_rows *r, tbk_label_set *labels, const tbk_page_ref *ref, const row_key *k,
                     tbk_warn_fn warn, void *warn_ctx, size_t *changed, int *skip) {
  *skip = 0;
  if (!labels) return 0;
  int label = 0;
  const char *want = NULL;
  switch (tbk_label_set_match(labels, ref->page, k->path, k->md5, &label, &want)) {
  case TBK_MATCH_OK: return label;
  case TBK_MATCH_CHANGED:
    ++*changed;
    if (warn) {
      size_t n = strlen(k->path) + 256; /* the rest: 133 bytes */
      char *msg = malloc(n);
      if (msg) {
        snprintf(msg, n, "%s %s: text changed since labelling (md5 %s, labels say %s) (skipped)",
                 tbk_stages[r->stage->stage].row, k->path, k->md5, want);
        warn(warn_ctx, ref->page, msg);
        free(msg);
      }
    }
    break;
  case TBK_MATCH_NONE: break;
  }
  *skip = 1;
  return 0;
}

tbk_status tbk_rows_write_page(tbk_rows *r, const tbk_page_ref *ref, const tbk_page *page, const double *block_p,
                               tbk_label_set *labels, const tbk_rows_out *out, tbk_warn_fn warn, void *warn_ctx,
                               size_t *written, size_t *changed, tbk_error *err) {
  *written = 0;
  tbk_status st = r->stage->page(r->x, page, block_p, err);
  if (st) return st;
  size_t n = r->stage->count(r->x, page);
  for (size_t i = 0; i < n; i++) {
    row_key k;
    r->stage->key(r->x, page, i, &k);
    int skip, label = row_label(r, labels, ref, &k, warn, warn_ctx, changed, &skip);
    if (skip) continue;
    if ((st = write_row(r, ref, i, &k, label, out, err))) return st;
    ++*written;
  }
  return TBK_OK;
}
