/* What the predict layer's files share beyond the public API. */
#ifndef TBK_PREDICT_INTERNAL_H
#define TBK_PREDICT_INTERNAL_H
#include "model.h"

/* Why a text unit is page furniture whatever the model says (content_rules.c). */
enum {
  TBK_FURNITURE_NOTICE = 1, /* "requires JavaScript", an ad's label, a sign-up heading */
  TBK_FURNITURE_LINKS,      /* a tag or category line, an archive entry with its count, "Read more: …" */
  TBK_FURNITURE_CAPTION,    /* an image's caption or credit line */
  TBK_FURNITURE_DATE        /* a date or time stamp alone */
};
/* Whether unit i of ux (the units of page) is furniture: 0 no, else a
 * TBK_FURNITURE_* reason. */
int tbk_unit_furniture(const tbk_page *page, const tbk_units *ux, size_t i);
/* Whether unit i is outside schema.org's articleBody though it belongs to
 * the article: 0 no, TBK_OUTSIDE_META for its headline (h1), byline or
 * date line, or what its <header> holds, TBK_OUTSIDE_LEAD for a
 * standfirst or summary (by the class or id of a small element around
 * it). */
enum { TBK_OUTSIDE_META = 1, TBK_OUTSIDE_LEAD };
int tbk_unit_outside_body(const tbk_page *page, const tbk_units *ux, size_t i);

/* The predictor's hold on the last page given up (its units and what its
 * features kept of it; tbk_predictor_units then has none), a big page's
 * arrays freed: once the page is rendered, so that they are not alive
 * while the next page is parsed. */
void tbk_predictor_page_done(tbk_predictor *pr);
/* The model a predictor was made from (borrowed). */
const tbk_model *tbk_predictor_model(const tbk_predictor *pr);
#endif
