/* The predict layer's calls for the programs of this tree, beyond the
 * public API: tbk_predict_render with every choice tbk-predict offers. */
#ifndef TBK_PREDICT_H
#define TBK_PREDICT_H
#include "tbk.h"

typedef struct tbk_render_options {
  int units;       /* 1: the content stage decides every text unit (the
                      combined stage, or the content stage alone after
                      tbk_predictor_template_inputs(pr, 0)); 0: the
                      template stage decides every block */
  tbk_format fmt;
  tbk_content_options content; /* content.threshold: the template stage's
                                  threshold too */
} tbk_render_options;

/* One page scored, decided and rendered as o says, appended to out.
 * summary (may be NULL): what tbk_render_text or tbk_render_units_text
 * report, whatever the format. Errors: the predictor's (TBK_ERR_LIMIT for
 * a page a stage cannot take), TBK_ERR_NOMEM. */
tbk_status tbk_predict_render_as(tbk_predictor *pr, const tbk_page *page, const char *page_id,
                                 const tbk_render_options *o, tbk_buf *out, tbk_page_summary *summary,
                                 tbk_error *err);

/* The render options for model m as tbk-predict's --stage, --threshold
 * and --precision choose them: stage -1 = the model's best (combined with
 * a content stage, else template), 0 template, 1 combined, 2 content (the
 * content stage alone: the caller turns the predictor's template inputs
 * off); threshold NaN: the stage's operating point for precision, or with
 * precision NaN its default threshold. Sets o->units and
 * o->content.threshold. Errors: TBK_ERR_ARG, stage 1 or 2 of a model
 * without a content stage, or no operating point for precision. */
tbk_status tbk_render_options_for(const tbk_model *m, int stage, double threshold, double precision,
                                  tbk_render_options *o, tbk_error *err);
#endif
