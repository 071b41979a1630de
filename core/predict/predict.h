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
#endif
