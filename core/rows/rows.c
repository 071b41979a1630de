/* tbk-features' rows: blocks or text units, with or without labels, as
 * three aligned files (rows.h). */
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "util.h"

struct tbk_rows {
  tbk_feature_options opt;
  tbk_features *fx; /* blocks, or NULL */
  tbk_units *ux;    /* units, or NULL */
  tbk_buf line;     /* scratch */
};

tbk_status tbk_rows_new(const tbk_feature_options *o, int units, tbk_rows **out, tbk_error *err) {
  *out = NULL;
  tbk_rows *r = calloc(1, sizeof *r);
  if (!r) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  r->opt = *o;
  tbk_status st = units ? tbk_units_new(o, &r->ux, err) : tbk_features_new(o, &r->fx, err);
  if (st == TBK_OK) *out = r;
  else free(r);
  return st;
}

void tbk_rows_free(tbk_rows *r) {
  if (!r) return;
  tbk_features_free(r->fx);
  tbk_units_free(r->ux);
  tbk_buf_free(&r->line);
  free(r);
}

const char *tbk_rows_schema_id(const tbk_rows *r) {
  return r->ux ? tbk_units_schema_id(r->ux) : tbk_features_schema_id(r->fx);
}
size_t tbk_rows_dim(const tbk_rows *r) { return r->ux ? tbk_units_dim(r->ux) : tbk_features_dim(r->fx); }
const char *tbk_rows_name(const tbk_rows *r, size_t i) {
  return r->ux ? tbk_units_name(r->ux, i) : tbk_features_name(r->fx, i);
}
const char *tbk_rows_kind(const tbk_rows *r, size_t i) {
  return r->ux ? tbk_units_kind(r->ux, i) : tbk_features_kind(r->fx, i);
}

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
                     tbk_rows_schema_id(r), tbk_rows_dim(r), r->opt.word_dims, r->opt.attr_dims,
                     r->opt.bigrams ? 1 : 0, po->blocks == TBK_BLOCKS_HTML5 ? "html5" : "paper", po->min_chars,
                     po->min_words))
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  else
    st = put(out, out->meta, &line, err);
  tbk_buf_free(&line);
  return st;
}

/* Row i of the page just computed: where it is and its text's md5. */
typedef struct row_key {
  const char *path, *tag;
  char md5[33];
} row_key;

static void get_key(const tbk_rows *r, const tbk_page *page, size_t i, row_key *k) {
  if (r->ux) {
    tbk_unit un;
    tbk_units_get(r->ux, page, i, &un);
    k->path = un.path, k->tag = un.tag;
    tbk_md5_hex(un.md5, k->md5);
  } else {
    const tbk_block *blk = tbk_page_block(page, i);
    k->path = blk->path, k->tag = blk->tag;
    tbk_md5_hex(blk->md5, k->md5);
  }
}

static int format_vector(tbk_rows *r, size_t i, int label, int words) {
  r->line.len = 0;
  return r->ux ? tbk_units_format(r->ux, i, label, words, &r->line)
               : tbk_features_format(r->fx, i, label, words, &r->line);
}

static int format_meta(tbk_rows *r, const tbk_page_ref *ref, size_t i, const row_key *k, int label) {
  tbk_buf *b = &r->line;
  b->len = 0;
  return tbk_buf_puts(b, "{\"site\":") || tbk_buf_json_str(b, ref->site, strlen(ref->site)) ||
         tbk_buf_puts(b, ",\"page\":") || tbk_buf_json_str(b, ref->page, strlen(ref->page)) ||
         tbk_buf_puts(b, ",\"path\":") || tbk_buf_json_str(b, k->path, strlen(k->path)) ||
         tbk_buf_puts(b, ",\"tag\":") || tbk_buf_json_str(b, k->tag, strlen(k->tag)) ||
         tbk_buf_printf(b, ",\"md5\":\"%s\",\"label\":%d,\"%s\":%zu}\n", k->md5, label, r->ux ? "unit" : "block", i);
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
                 r->ux ? "unit" : "block", k->path, k->md5, want);
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
  tbk_status st = r->ux ? tbk_units_page(r->ux, page, block_p, err) : tbk_features_page(r->fx, page, err);
  if (st) return st;
  size_t n = r->ux ? tbk_units_count(r->ux) : tbk_page_block_count(page);
  for (size_t i = 0; i < n; i++) {
    row_key k;
    get_key(r, page, i, &k);
    int skip, label = row_label(r, labels, ref, &k, warn, warn_ctx, changed, &skip);
    if (skip) continue;
    if ((st = write_row(r, ref, i, &k, label, out, err))) return st;
    ++*written;
  }
  return TBK_OK;
}
