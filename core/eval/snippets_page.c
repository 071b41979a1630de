/* tbk-eval snippets' scoring of one labelled page (eval.h). */
#include <stdio.h>

#include "eval.h"

/* file could not be read or parsed (why): scored as nothing extracted. */
static void problem(tbk_warn_fn warn, void *ctx, size_t *problems, const char *file, const char *why) {
  char msg[sizeof((tbk_error *)0)->msg + 32];
  snprintf(msg, sizeof msg, "%s (scored as nothing extracted)", why);
  warn(ctx, file, msg);
  ++*problems;
}

tbk_status tbk_snippets_page_counts(const tbk_snippet_page *p, const char *html, const char *pred,
                                    const tbk_page_options *popt, tbk_buf *scratch, tbk_snippet_counts *pc,
                                    size_t *problems, tbk_warn_fn warn, void *ctx, tbk_error *err) {
  const char *text = NULL;
  size_t len = 0;
  tbk_page *page = NULL;
  tbk_error e = {0};
  scratch->len = 0;
  if (html) {
    tbk_status st = tbk_read_file(html, popt->max_page_bytes, scratch, &e);
    if (st == TBK_OK) st = tbk_page_parse(scratch->data, scratch->len, popt, &page, &e);
    if (st == TBK_OK) text = tbk_page_text(page, &len);
    else problem(warn, ctx, problems, html, e.msg);
  } else if (pred) {
    if (tbk_read_file(pred, 0, scratch, &e)) problem(warn, ctx, problems, pred, e.msg);
    else {
      text = scratch->data ? scratch->data : "";
      len = scratch->len;
    }
  }
  int r = tbk_snippets_count(p, text, len, pc);
  tbk_page_free(page);
  return r ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory") : TBK_OK;
}

void tbk_snippet_rates(const tbk_snippet_counts *c, double *precision, double *recall, double *accuracy, double *f1) {
  double tp = (double)c->tp, fn = (double)c->fn, fp = (double)c->fp, tn = (double)c->tn;
  *precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  *recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  *accuracy = tp + fn + fp + tn > 0 ? (tp + tn) / (tp + fn + fp + tn) : 0;
  *f1 = 2 * tp + fp + fn > 0 ? 2 * tp / (2 * tp + fp + fn) : 0;
}
