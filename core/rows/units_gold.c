/* Units labelled from a human gold text, for training the content stage:
 * a unit is content when most of its tokens align with the gold's. */
#include <stdlib.h>
#include <string.h>

#include "units_gold.h"

tbk_status tbk_units_gold_labels(tbk_units *ux, const tbk_page *page, const char *gold, size_t gold_len,
                                 double min_share, signed char *labels, double *share, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  tbk_status st = tbk_units_segment(ux, page, err);
  if (st) return st;
  size_t n = ux->n;
  uint32_t *start = malloc((n ? n : 1) * sizeof *start), *end = malloc((n ? n : 1) * sizeof *end);
  uint32_t *tokens = malloc((n ? n : 1) * sizeof *tokens), *matched = malloc((n ? n : 1) * sizeof *matched);
  if (!start || !end || !tokens || !matched) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t i = 0; st == TBK_OK && i < n; i++) {
    start[i] = ux->u[i].start;
    end[i] = ux->u[i].end;
  }
  if (st == TBK_OK)
    st = tbk_align_gold(ux->tok, pv.text ? pv.text : "", pv.text_len, start, end, n, gold, gold_len, tokens, matched,
                        err);
  for (size_t i = 0; st == TBK_OK && i < n; i++) {
    double sh = tokens[i] ? (double)matched[i] / tokens[i] : 0;
    ux->u[i].words = tokens[i];
    labels[i] = tokens[i] == 0 ? 0 : sh >= min_share ? -1 : 1;
    if (share) share[i] = sh;
  }
  free(start);
  free(end);
  free(tokens);
  free(matched);
  return st;
}

/* One unit's line: at most 200 bytes of its text, cut at a character
 * boundary (a cut inside a UTF-8 sequence would come out as U+FFFD). */
static int gold_line(tbk_buf *out, const tbk_page_ref *ref, const tbk_unit *un, int label, double share) {
  char hex[33];
  tbk_md5_hex(un->md5, hex);
  size_t sn = tbk_utf8_cut(un->text, un->text_len, 200);
  return tbk_buf_puts(out, "{\"site\":") || tbk_buf_json_str(out, ref->site, strlen(ref->site)) ||
         tbk_buf_puts(out, ",\"page\":") || tbk_buf_json_str(out, ref->page, strlen(ref->page)) ||
         tbk_buf_puts(out, ",\"url\":") || tbk_buf_json_str(out, ref->url, strlen(ref->url)) ||
         tbk_buf_puts(out, ",\"path\":") || tbk_buf_json_str(out, un->path, strlen(un->path)) ||
         tbk_buf_puts(out, ",\"tag\":") || tbk_buf_json_str(out, un->tag, strlen(un->tag)) ||
         tbk_buf_printf(out,
                        ",\"md5\":\"%s\",\"label\":\"%s\",\"aligned\":%.3f,\"words\":%u,\"chars\":%zu,\"text\":", hex,
                        label < 0 ? "content" : "boilerplate", share, un->words, un->text_chars) ||
         tbk_buf_json_str(out, un->text, sn) || tbk_buf_puts(out, "}\n");
}

tbk_status tbk_units_gold_jsonl(tbk_units *ux, const tbk_page_ref *ref, const tbk_page *page, const char *gold,
                                size_t gold_len, double min_share, tbk_buf *out, size_t *content, size_t *boilerplate,
                                tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  /* a unit holds at least one byte of the page text: a bound on units */
  size_t cap = pv.text_len + 1;
  signed char *labels = malloc(cap * sizeof *labels);
  double *shares = malloc(cap * sizeof *shares);
  tbk_status st = labels && shares ? tbk_units_gold_labels(ux, page, gold, gold_len, min_share, labels, shares, err)
                                   : tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (st == TBK_OK && tbk_units_paths(ux, page)) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t u = 0; st == TBK_OK && u < ux->n; u++) {
    if (!labels[u]) continue;
    tbk_unit un;
    tbk_units_get(ux, page, u, &un);
    if (gold_line(out, ref, &un, labels[u], shares[u])) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    else if (labels[u] < 0) ++*content;
    else ++*boilerplate;
  }
  free(labels);
  free(shares);
  return st;
}
