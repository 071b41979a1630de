/* Which text runs of a page the extractor sees after denoising
 * (keywords.h): the template stage's decision per block, as tbk-predict
 * --stage template renders it, or the content stage's per unit. */
#include <stdlib.h>
#include <string.h>

#include "keywords.h"
#include "predict_internal.h"
#include "units.h"

tbk_status tbk_kw_page_keep(tbk_predictor *pr, const tbk_page *page, tbk_kw_denoise mode, const tbk_content_options *o,
                            unsigned char **keep, size_t *cap, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t nr = pv.n_runs;
  if (tbk_grow(keep, cap, nr ? nr : 1, 1)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  unsigned char *k = *keep;
  memset(k, 1, nr);
  if (mode == TBK_KW_DENOISE_NONE) return TBK_OK;
  if (mode == TBK_KW_DENOISE_TEMPLATE) {
    const double *probs;
    tbk_status st = tbk_predict_page(pr, page, &probs, err);
    if (st) return st;
    double thr = tbk_model_default_threshold(tbk_predictor_model(pr));
    for (size_t r = 0; r < nr; r++) {
      int32_t b = tbk_view_block_of(&pv, pv.runs[r].node);
      k[r] = !(b >= 0 && probs[b] >= thr);
    }
    return TBK_OK;
  }
  const tbk_units *ux = tbk_predictor_units(pr);
  if (!ux) return tbk_fail(err, TBK_ERR_ARG, "the model has no content stage");
  const double *bp, *up;
  tbk_status st = tbk_predict_units(pr, page, &bp, &up, err);
  if (st) return st;
  double thr = tbk_model_default_threshold(tbk_predictor_model(pr));
  tbk_content_options d = tbk_content_options_default;
  if (!o) o = &d;
  size_t nu = ux->n;
  unsigned char *ukeep = malloc(nu ? nu : 1);
  if (!ukeep) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_content_decide(page, ux, up, o, ukeep);
  /* Units cover the runs in document order, each a trimmed byte range of
   * the page text: a run takes the decision of the unit its first visible
   * byte lies in (a run of spaces holds no word either way). */
  size_t u = 0;
  for (size_t r = 0; r < nr; r++) {
    uint32_t s = pv.runs[r].start, e = pv.runs[r].end;
    while (s < e && pv.text[s] == ' ') s++;
    while (u < nu && ux->u[u].end <= s) u++;
    k[r] = s < e && u < nu && ux->u[u].start <= s && ukeep[u];
    if (k[r]) continue;
    int32_t b = tbk_view_block_of(&pv, pv.runs[r].node);
    if (!(b >= 0 && bp[b] >= thr)) k[r] = TBK_KW_KEEP_OWN;
  }
  free(ukeep);
  return TBK_OK;
}
