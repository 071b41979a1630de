/* The site-history combiners: what a stage decided alone, corrected by how
 * often the row's text occurs on the site's other pages.
 *
 * The page count is cut into bands (1, 2-4, 5-9, 10-49, 50+ other pages):
 * one page of history says little, fifty say nearly everything, and a
 * band per range lets the model learn how far to trust the counts at
 * each without assuming a curve. In a band, five inputs: a bias, the
 * stage's logit, the share of the other pages holding the row, whether
 * two or more do, and the share holding its enclosing block. */
#include <math.h>

#include "model.h"

const char *const tbk_history_input_names[TBK_HIST_DIM] = {
#define BAND(b) "h" b ".bias", "h" b ".logit", "h" b ".share", "h" b ".shared", "h" b ".outer_share"
    BAND("1"), BAND("2-4"), BAND("5-9"), BAND("10-49"), BAND("50+")
#undef BAND
};

static int band_of(uint32_t pages) { return pages < 2 ? 0 : pages < 5 ? 1 : pages < 10 ? 2 : pages < 50 ? 3 : 4; }

void tbk_history_inputs(double p, uint32_t pages, uint32_t df, uint32_t outer_df, double x[TBK_HIST_DIM]) {
  for (int i = 0; i < TBK_HIST_DIM; i++) x[i] = 0.0;
  if (!pages) return;
  /* a probability of exactly 0 or 1 would be an infinite logit */
  const double cap = 12.0;
  double logit = p <= 0 ? -cap : p >= 1 ? cap : log(p / (1 - p));
  if (logit > cap) logit = cap;
  if (logit < -cap) logit = -cap;
  double *b = x + band_of(pages) * TBK_HIST_PER_BAND;
  b[0] = 1.0;
  b[1] = logit;
  b[2] = (double)df / pages;
  /* on one other page a block may be a copy of this page's (a mirror, a
   * print version, the same story under two URLs); on two it is shared */
  b[3] = df >= 2;
  b[4] = (double)outer_df / pages;
}

double tbk_history_prob(const double *w, const double x[TBK_HIST_DIM]) {
  double z = 0;
  for (int i = 0; i < TBK_HIST_DIM; i++) z += w[i] * x[i];
  return 1.0 / (1.0 + exp(-z));
}
