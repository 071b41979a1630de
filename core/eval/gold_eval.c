/* tbk-eval gold's scoring of a page (gold_eval.h). */
#include <stdio.h>
#include <string.h>

#include "gold_eval.h"

tbk_status tbk_gold_eval_init(tbk_gold_eval *g, int baseline, tbk_error *err) {
  memset(g, 0, sizeof *g);
  g->baseline = baseline;
  tbk_input_options_init(&g->iopt);
  tbk_page_options_init(&g->popt);
  return tbk_tokenizer_new(&g->tok, err);
}

void tbk_gold_eval_free(tbk_gold_eval *g) {
  tbk_tokenizer_free(g->tok);
  tbk_buf_free(&g->gold);
  tbk_buf_free(&g->pred);
  tbk_buf_free(&g->more);
}

/* file could not be read (why), and is scored as what the note says. */
static void problem(tbk_warn_fn warn, void *ctx, size_t *problems, const char *file, const char *why,
                    const char *note) {
  char msg[sizeof((tbk_error *)0)->msg + 64];
  snprintf(msg, sizeof msg, "%s (%s)", why, note);
  warn(ctx, file, msg);
  ++*problems;
}

tbk_status tbk_gold_eval_page(tbk_gold_eval *g, const tbk_page_ref *ref, const char *comments, const char *pred,
                              tbk_overlap *ov, size_t *problems, tbk_warn_fn warn, void *ctx, tbk_error *err) {
  tbk_error e = {0};
  g->gold.len = 0;
  if (tbk_gold_read(ref->gold, 0, 0, &g->gold, &e)) {
    problem(warn, ctx, problems, ref->gold, e.msg, "scored as empty gold");
    g->gold.len = 0;
  }
  if (comments) {
    g->more.len = 0;
    if (tbk_read_file(comments, TBK_GOLD_MAX_BYTES, &g->more, &e))
      problem(warn, ctx, problems, comments, e.msg, "comments left out");
    else if (tbk_buf_append(&g->gold, "\n", 1) ||
             tbk_buf_append(&g->gold, g->more.data ? g->more.data : "", g->more.len))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  g->pred.len = 0;
  const char *text = "";
  size_t len = 0;
  tbk_page *page = NULL;
  if (g->baseline) {
    tbk_status st = tbk_page_ref_read(ref, &g->iopt, &g->pred, &e);
    if (st == TBK_OK) st = tbk_page_parse(g->pred.data, g->pred.len, &g->popt, &page, &e);
    if (st == TBK_OK) text = tbk_page_text(page, &len);
    else if (st != TBK_ERR_EMPTY) problem(warn, ctx, problems, ref->file, e.msg, "scored as empty text");
  } else if (pred) {
    if (tbk_read_file(pred, 0, &g->pred, &e)) problem(warn, ctx, problems, pred, e.msg, "scored as empty");
    else {
      text = g->pred.data ? g->pred.data : "";
      len = g->pred.len;
    }
  }
  tbk_status st = tbk_token_overlap(g->tok, text, len, g->gold.data ? g->gold.data : "", g->gold.len, ov, err);
  tbk_page_free(page);
  return st;
}
