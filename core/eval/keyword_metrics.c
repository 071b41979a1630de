/* Keyword evaluation metrics (keyword_metrics.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keyword_metrics.h"

double tbk_kw_topn(const tbk_kw_cand *ranked, size_t n, const tbk_kw_gold *gold, size_t N) {
  size_t a = tbk_kw_gold_count(gold);
  if (!a || !N) return NAN;
  size_t hit = 0;
  for (size_t i = 0; i < n && i < N; i++) hit += tbk_kw_gold_has(gold, ranked[i].key);
  return (double)hit / (double)(a < N ? a : N);
}

/* The continued fraction of the regularized incomplete beta function
 * (modified Lentz; Numerical Recipes' betacf). */
static double beta_cf(double a, double b, double x) {
  const double tiny = 1e-300;
  double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap;
  if (fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; m++) {
    double m2 = 2.0 * m, aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1) < 1e-15) break;
  }
  return h;
}

static double inc_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return exp(lbt) * beta_cf(a, b, x) / a;
  return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

double tbk_t_two_tailed(double t, double df) {
  if (isnan(t) || !(df > 0)) return NAN;
  if (isinf(t)) return 0;
  return inc_beta(df / 2, 0.5, df / (df + t * t));
}

void tbk_paired_t(const double *a, const double *b, size_t n, double *mean_diff, double *t, double *p) {
  *mean_diff = *t = *p = NAN;
  if (n < 2) return;
  double mean = 0;
  for (size_t i = 0; i < n; i++) mean += a[i] - b[i];
  mean /= (double)n;
  double ss = 0;
  for (size_t i = 0; i < n; i++) ss += (a[i] - b[i] - mean) * (a[i] - b[i] - mean);
  *mean_diff = mean;
  double se = sqrt(ss / (double)(n - 1) / (double)n);
  if (se == 0) {
    *t = mean == 0 ? 0 : mean > 0 ? INFINITY : -INFINITY;
    *p = mean == 0 ? 1 : 0;
    return;
  }
  *t = mean / se;
  *p = tbk_t_two_tailed(*t, (double)(n - 1));
}

tbk_status tbk_paired_compare(const double *a, const double *b, size_t n, double *ma, double *mb, size_t *np, double *p,
                              tbk_error *err) {
  double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y);
  if (!x || !y) {
    free(x);
    free(y);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!isnan(a[i]) && (!b || !isnan(b[i]))) {
      x[m] = a[i];
      y[m] = b ? b[i] : 0;
      m++;
    }
  double sa = 0, sb = 0;
  for (size_t i = 0; i < m; i++) sa += x[i], sb += y[i];
  *ma = m ? 100 * sa / (double)m : NAN;
  *mb = m ? 100 * sb / (double)m : NAN;
  *np = m;
  double d, t;
  *p = NAN;
  if (b) tbk_paired_t(x, y, m, &d, &t, p);
  free(x);
  free(y);
  return TBK_OK;
}
