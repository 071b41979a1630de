/* One page, start to end, as tbk-predict writes it: the stage the model is
 * best at (combined for a two-stage model, else template), its decision,
 * one rendering. The programs' loop and the Python module both call this,
 * so what a user scripts is what the programs print. */
#include <stdlib.h>

#include "model.h"
#include "predict_internal.h"
#include "units.h"

tbk_status tbk_predict_render(tbk_predictor *pr, const tbk_page *page, const char *page_id, tbk_format fmt,
                              const tbk_content_options *o, tbk_buf *out, tbk_error *err) {
  if (!pr || !page || !out || fmt < TBK_FORMAT_TEXT || fmt > TBK_FORMAT_HTML_ANNOTATED)
    return tbk_fail(err, TBK_ERR_ARG, "tbk_predict_render: bad argument");
  if (!page_id) page_id = "";
  tbk_content_options copt = o ? *o : tbk_content_options_default;
  const double *probs, *uprobs;
  tbk_status st;
  int annotate = fmt == TBK_FORMAT_HTML_ANNOTATED;
  if (!tbk_model_content(tbk_predictor_model(pr))) {
    double thr = tbk_model_default_threshold(tbk_predictor_model(pr));
    if ((st = tbk_predict_page(pr, page, &probs, err))) return st;
    st = fmt == TBK_FORMAT_TEXT    ? tbk_render_text(page, probs, thr, out, NULL)
         : fmt == TBK_FORMAT_JSONL ? tbk_render_jsonl(page, page_id, probs, thr, out)
                                   : tbk_render_html(page, probs, thr, annotate, out);
    return st ? tbk_fail(err, st, "out of memory rendering the page") : TBK_OK;
  }
  if ((st = tbk_predict_units(pr, page, &probs, &uprobs, err))) return st;
  const tbk_units *ux = tbk_predictor_units(pr);
  size_t n = tbk_units_count(ux);
  unsigned char *keep = malloc(n ? n : 1);
  if (!keep) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_content_decide(page, ux, uprobs, &copt, keep);
  st = fmt == TBK_FORMAT_TEXT    ? tbk_render_units_text(page, ux, keep, &copt, out, NULL)
       : fmt == TBK_FORMAT_JSONL ? tbk_render_units_jsonl(page, ux, page_id, uprobs, keep, out)
                                 : tbk_render_units_html(page, ux, keep, uprobs, annotate, out);
  free(keep);
  return st ? tbk_fail(err, st, "out of memory rendering the page") : TBK_OK;
}

tbk_status tbk_page_parse_for(const tbk_model *m, const char *data, size_t len, const char *charset_hint,
                              tbk_page **out, tbk_error *err) {
  tbk_page_options o = tbk_page_options_default;
  if (m) {
    tbk_model_page_options(m, &o);
    o.fingerprints = 0; /* prediction never reads them */
  }
  o.charset_hint = charset_hint;
  return tbk_page_parse(data, len, &o, out, err);
}
