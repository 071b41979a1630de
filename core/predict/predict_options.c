/* tbk_predict_render_opts: one page with every choice tbk-predict offers
 * (--stage, --threshold, --precision and the combined stage's options),
 * for library users (the Python module): a thin layer over
 * tbk_render_options_for and tbk_predict_render_as, as tbk-predict's
 * load_model does it. */
#include <math.h>

#include "predict.h"
#include "predict_internal.h"

const tbk_predict_options tbk_predict_options_default = {
    .stage = -1,
    .threshold = NAN,
    .precision = NAN,
    .content = TBK_CONTENT_OPTIONS_DEFAULT,
};

void tbk_predict_options_init(tbk_predict_options *o) {
  *o = tbk_predict_options_default;
  tbk_content_options_init(&o->content);
}

tbk_status tbk_predict_render_opts(tbk_predictor *pr, const tbk_page *page, const char *page_id, tbk_format fmt,
                                   const tbk_predict_options *o, tbk_buf *out, tbk_page_summary *summary,
                                   tbk_error *err) {
  if (!pr || !page || !out || fmt < TBK_FORMAT_TEXT || fmt > TBK_FORMAT_HTML_ANNOTATED)
    return tbk_fail(err, TBK_ERR_ARG, "tbk_predict_render_opts: bad argument");
  tbk_predict_options dflt;
  if (!o) {
    tbk_predict_options_init(&dflt);
    o = &dflt;
  }
  if (o->stage < -1 || o->stage > 2) return tbk_fail(err, TBK_ERR_ARG, "stage %d is not -1, 0, 1 or 2", o->stage);
  if (!isnan(o->threshold) && !isnan(o->precision))
    return tbk_fail(err, TBK_ERR_ARG, "threshold and precision exclude each other");
  if (!isnan(o->threshold) && (o->threshold < 0 || o->threshold > 1))
    return tbk_fail(err, TBK_ERR_ARG, "threshold %g is not in [0, 1]", o->threshold);
  if (!isnan(o->precision) && (o->precision < 0 || o->precision > 1))
    return tbk_fail(err, TBK_ERR_ARG, "precision %g is not in [0, 1]", o->precision);
  const tbk_content_options *c = &o->content;
  /* a NaN share would turn its check on and off at once: neither */
  if (!(c->prose_share >= 0 && c->prose_share <= 1))
    return tbk_fail(err, TBK_ERR_ARG, "prose_share %g is not in [0, 1]", c->prose_share);
  if (!(c->text_share >= 0 && c->text_share <= 1))
    return tbk_fail(err, TBK_ERR_ARG, "text_share %g is not in [0, 1]", c->text_share);
  const tbk_model *m = tbk_predictor_model(pr);
  const tbk_content_options *d = &tbk_content_options_default;
  int units = o->stage < 0 ? tbk_model_content(m) != NULL : o->stage != 0;
  if (!units && (c->keep_comments || !c->title || c->body || c->min_kept_words != d->min_kept_words ||
                 c->prose_share != d->prose_share || c->text_share != d->text_share))
    return tbk_fail(
        err, TBK_ERR_ARG,
        "keep_comments, title, body, min_kept_words, prose_share and text_share apply to the combined stage");
  tbk_render_options ro = {0, fmt, *c, 0};
  tbk_status st = tbk_render_options_for(m, o->stage, o->threshold, o->precision, &ro, err);
  if (st) return st;
  ro.fmt = fmt;
  if (o->stage == 2) tbk_predictor_template_inputs(pr, 0);
  st = tbk_predict_render_as(pr, page, page_id, &ro, out, summary, err);
  if (o->stage == 2) tbk_predictor_template_inputs(pr, 1);
  return st;
}
