/* Applying a fitted logistic model: what prediction needs, apart from
 * logreg.c so that a program that only predicts does not link LIBLINEAR. */
#include <math.h>

#include "ml.h"

double tbk_lr_decision(const double *w, uint32_t ncols, const uint32_t *index, const double *value, size_t nnz) {
  double z = 0;
  for (size_t k = 0; k < nnz; k++)
    if (index[k] >= 1 && index[k] <= ncols) z += w[index[k] - 1] * value[k];
  return z + w[ncols];
}

double tbk_sigmoid(double z) {
  /* A probability, whatever the decision: no NaN ever reaches an output. */
  if (isnan(z)) return 0.5;
  if (z >= 0) return 1.0 / (1.0 + exp(-z));
  double e = exp(z);
  return e / (1.0 + e);
}

double tbk_lr_prob(const double *w, uint32_t ncols, const uint32_t *index, const double *value, size_t nnz) {
  return tbk_sigmoid(tbk_lr_decision(w, ncols, index, value, nnz));
}
