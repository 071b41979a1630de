/* One page, start to end, as tbk-predict writes it: the stage the model is
 * best at (combined for a two-stage model, else template), its decision,
 * one rendering. tbk-predict and the Python module both come here, so what
 * a user scripts is what the programs print. */
#include <math.h>
#include <stdlib.h>

#include "model.h"
#include "predict.h"
#include "predict_internal.h"
#include "units.h"

tbk_status tbk_predict_render(tbk_predictor *pr, const tbk_page *page, const char *page_id, tbk_format fmt,
                              const tbk_content_options *o, tbk_buf *out, tbk_error *err) {
  if (!pr) return tbk_fail(err, TBK_ERR_ARG, "tbk_predict_render: bad argument");
  tbk_render_options ro = {tbk_model_content(tbk_predictor_model(pr)) != NULL, fmt,
                           o ? *o : tbk_content_options_default, 0};
  if (!ro.units) ro.content.threshold = tbk_model_default_threshold(tbk_predictor_model(pr));
  return tbk_predict_render_as(pr, page, page_id, &ro, out, NULL, err);
}

/* The rendering of a decided page: keep holds the units' decisions, probs
 * their probabilities; without keep (the template stage) probs are the
 * blocks'. */
static tbk_status render(const tbk_predictor *pr, const tbk_page *page, const tbk_units *ux, const char *page_id,
                         const double *probs, const unsigned char *keep, const unsigned char *why,
                         const tbk_render_options *o, tbk_buf *out, tbk_page_summary *summary) {
  double thr = o->content.threshold;
  int annotate = o->fmt == TBK_FORMAT_HTML_ANNOTATED;
  tbk_status st = TBK_OK;
  int text = o->fmt == TBK_FORMAT_TEXT && !o->explain; /* the clean text is the output */
  if (text || summary) {
    /* Only the summary wanted: the text goes to a buffer of its own, as out
     * may write out what it holds (a sink, util.h). */
    tbk_buf scratch = {0}, *to = text ? out : &scratch;
    st = keep ? tbk_render_units_text(page, ux, keep, &o->content, to, summary)
              : tbk_render_text(page, probs, thr, to, summary);
    tbk_buf_free(&scratch);
  }
  if (st || text) return st;
  if (o->explain)
    return o->fmt == TBK_FORMAT_JSONL ? tbk_render_explain_jsonl(pr, page, page_id, probs, keep, why, &o->content, out)
                                      : tbk_render_explain_text(pr, page, probs, keep, why, &o->content, out);
  if (o->fmt == TBK_FORMAT_JSONL)
    return keep ? tbk_render_units_jsonl(page, ux, page_id, probs, keep, out)
                : tbk_render_jsonl(page, page_id, probs, thr, out);
  return keep ? tbk_render_units_html(page, ux, keep, probs, annotate, out)
              : tbk_render_html(page, probs, thr, annotate, out);
}

/* A rendering that failed: out of memory, but for HTML the page's declared
 * charset could not write (tbk_page_html_note says which). */
static tbk_status render_failed(const tbk_page *page, tbk_status st, tbk_error *err) {
  if (st == TBK_ERR_FORMAT && *tbk_page_html_note(page)) return tbk_fail(err, st, "%s", tbk_page_html_note(page));
  return tbk_fail(err, st, "out of memory rendering the page");
}

tbk_status tbk_predict_render_as(tbk_predictor *pr, const tbk_page *page, const char *page_id,
                                 const tbk_render_options *o, tbk_buf *out, tbk_page_summary *summary, tbk_error *err) {
  if (!pr || !page || !o || !out || o->fmt < TBK_FORMAT_TEXT || o->fmt > TBK_FORMAT_HTML_ANNOTATED)
    return tbk_fail(err, TBK_ERR_ARG, "tbk_predict_render: bad argument");
  if (o->explain && o->fmt != TBK_FORMAT_TEXT && o->fmt != TBK_FORMAT_JSONL)
    return tbk_fail(err, TBK_ERR_ARG, "explanations are rendered as text or JSONL, not HTML");
  if (!page_id) page_id = "";
  tbk_predictor_explain(pr, o->explain);
  const double *probs, *uprobs;
  tbk_status st;
  if (!o->units) {
    if ((st = tbk_predict_page(pr, page, &probs, err))) {
      tbk_predictor_page_done(pr);
      return st;
    }
    st = render(pr, page, NULL, page_id, probs, NULL, NULL, o, out, summary);
    tbk_predictor_page_done(pr);
    return st ? render_failed(page, st, err) : TBK_OK;
  }
  if ((st = tbk_predict_units(pr, page, &probs, &uprobs, err))) {
    tbk_predictor_page_done(pr);
    return st;
  }
  const tbk_units *ux = tbk_predictor_units(pr);
  size_t n = tbk_units_count(ux);
  /* keep, then (with explanations) the rule that decided each unit */
  size_t m = n ? n : 1;
  unsigned char *keep = malloc(o->explain ? 2 * m : m);
  if (!keep) {
    tbk_predictor_page_done(pr);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  unsigned char *why = o->explain ? keep + m : NULL;
  tbk_content_decide_why(page, ux, uprobs, &o->content, keep, why);
  st = render(pr, page, ux, page_id, uprobs, keep, why, o, out, summary);
  free(keep);
  tbk_predictor_page_done(pr);
  return st ? render_failed(page, st, err) : TBK_OK;
}

tbk_status tbk_render_options_for(const tbk_model *m, int stage, double threshold, double precision,
                                  tbk_render_options *o, tbk_error *err) {
  const tbk_model *content = tbk_model_content(m);
  if (stage >= 1 && !content)
    return tbk_fail(err, TBK_ERR_ARG, "the model has no content stage (--stage %s needs a two-stage model)",
                    stage == 1 ? "combined" : "content");
  o->units = stage < 0 ? content != NULL : stage != 0;
  const tbk_model *sm = o->units ? content : m;
  if (isnan(threshold))
    threshold = isnan(precision) ? tbk_model_default_threshold(sm) : tbk_model_threshold_for(sm, precision);
  const tbk_operating_point *ops;
  if (isnan(threshold) && !tbk_model_operating_points(sm, &ops))
    return tbk_fail(err, TBK_ERR_ARG,
                    "the model stores no operating points (trained without cross-site CV, as on one site): "
                    "-p %g needs one; give -t THRESHOLD instead",
                    precision);
  if (isnan(threshold))
    return tbk_fail(err, TBK_ERR_ARG, "the model stores no operating point for precision %g", precision);
  o->content.threshold = threshold;
  return TBK_OK;
}

static tbk_status parse_for(const tbk_model *m, const char *data, size_t len, const char *charset_hint,
                            int fingerprints, tbk_page **out, tbk_error *err) {
  tbk_page_options o = tbk_page_options_default;
  if (m) {
    tbk_model_page_options(m, &o);
    o.fingerprints = fingerprints; /* prediction reads them for history only */
  }
  o.charset_hint = charset_hint;
  return tbk_page_parse(data, len, &o, out, err);
}

tbk_status tbk_page_parse_for(const tbk_model *m, const char *data, size_t len, const char *charset_hint,
                              tbk_page **out, tbk_error *err) {
  return parse_for(m, data, len, charset_hint, 0, out, err);
}

tbk_status tbk_page_parse_fingerprinted(const tbk_model *m, const char *data, size_t len, const char *charset_hint,
                                        tbk_page **out, tbk_error *err) {
  return parse_for(m, data, len, charset_hint, 1, out, err);
}
