/* tbk-eval gold's scoring of a page (gold_eval.c): its gold text against
 * an extraction, as token overlap (eval.h). */
#ifndef TBK_GOLD_EVAL_H
#define TBK_GOLD_EVAL_H
#include "eval.h"
#include "io.h"

typedef struct tbk_gold_eval {
  tbk_tokenizer *tok;       /* owned */
  int baseline;             /* the extraction is the page's whole visible text */
  tbk_input_options iopt;   /* how the baseline reads a page */
  tbk_page_options popt;    /* and parses it (the defaults) */
  tbk_buf gold, pred, more; /* owned scratch */
} tbk_gold_eval;
tbk_status tbk_gold_eval_init(tbk_gold_eval *g, int baseline, tbk_error *err);
void tbk_gold_eval_free(tbk_gold_eval *g);

/* Page ref (which has a gold file) scored into *ov: its gold text, the gold
 * file followed, when comments is not NULL, by a newline and that file
 * (the page's user comments); against the prediction file pred (NULL: an
 * empty extraction), or with baseline the page's visible text. A file
 * that cannot be read (or a page that cannot be parsed) is scored as empty
 * (the comments left out), reported through warn(ctx, file, why) and
 * counted in *problems. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_gold_eval_page(tbk_gold_eval *g, const tbk_page_ref *ref, const char *comments, const char *pred,
                              tbk_overlap *ov, size_t *problems, tbk_warn_fn warn, void *ctx, tbk_error *err);
#endif
