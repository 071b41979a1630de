/* What tbk-predict's main.c and setup.c share: the run's options and
 * what is set up before the page loop (the model, the history store). */
#ifndef TBK_PREDICT_CLI_H
#define TBK_PREDICT_CLI_H
#include "cli.h"
#include "tbk_history.h"
#include "tbk_predict.h"

typedef struct run {
  cli_pages pages;
  const char *model, *output, *output_dir;
  tbk_render_options ro;
  int annotate, summary, stage; /* stage: as tbk_render_options_for's */
  int combined_only;            /* an option of the combined stage was given */
  double threshold, precision;
  const char *history, *history_rows; /* --history DB, --history-rows FILE */
  int history_only, history_count;
  size_t history_commit; /* pages a transaction, 0 = the store's default */
} run;

void predict_parse_options(run *r, int argc, char **argv);
/* The model, its stage and threshold as the options choose them, and the
 * pages segmented as it was trained. */
tbk_predictor *predict_load_model(run *r, const char *mp, tbk_model **model);
/* The store of --history (NULL without it), its rows written to rows_out
 * through rows with --history-rows. */
tbk_history *predict_open_history(const run *r, const tbk_model *model, tbk_predictor *pred, cli_out *rows_out,
                                  tbk_buf *rows);
void predict_print_summary(const run *r, const char *page, const tbk_page_summary *s);
#endif
