/* Units labelled from a human gold text, for training the content stage:
 * a unit is content when most of its tokens align with the gold's. */
#include <stdlib.h>

#include "label.h"
#include "units.h"

tbk_status tbk_units_gold_labels(tbk_units *ux, const tbk_page *page, const char *gold, size_t gold_len,
                                 double min_share, signed char *labels, double *share, tbk_error *err) {
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
    st = tbk_align_gold(ux->tok, page->text.data ? page->text.data : "", page->text.len, start, end, n, gold,
                        gold_len, tokens, matched, err);
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
