/* Ranking metrics over (score, label) pairs. Scores are sorted once; equal
 * scores are one threshold, so the result never depends on how ties happen
 * to be ordered in the input. */
#include <math.h>
#include <stdlib.h>

#include "ml.h"
#include "util.h"

typedef struct scored {
  double s;
  signed char y;
} scored;

static int cmp_desc(const void *a, const void *b) {
  double u = ((const scored *)a)->s, v = ((const scored *)b)->s;
  return (u < v) - (u > v);
}

/* Validated copy sorted by decreasing score; counts the positives. */
static tbk_status sorted_copy(const double *score, const signed char *y, size_t n, scored **out, size_t *npos,
                              tbk_error *err) {
  *out = NULL;
  *npos = 0;
  if (n == 0) return tbk_fail(err, TBK_ERR_EMPTY, "metrics: no examples");
  if (!score || !y) return tbk_fail(err, TBK_ERR_ARG, "metrics: NULL input");
  for (size_t i = 0; i < n; i++) {
    if (isnan(score[i])) return tbk_fail(err, TBK_ERR_ARG, "metrics: score %zu is NaN", i);
    if (y[i] != 1 && y[i] != -1) return tbk_fail(err, TBK_ERR_ARG, "metrics: label %zu is %d, not +1/-1", i, y[i]);
    *npos += y[i] == 1;
  }
  scored *v = n <= SIZE_MAX / sizeof *v ? malloc(n * sizeof *v) : NULL;
  if (!v) return tbk_fail(err, TBK_ERR_NOMEM, "metrics: out of memory");
  for (size_t i = 0; i < n; i++) v[i] = (scored){score[i], y[i]};
  qsort(v, n, sizeof *v, cmp_desc);
  *out = v;
  return TBK_OK;
}

tbk_status tbk_pr_curve(const double *score, const signed char *y, size_t n, tbk_pr_point **pts_out, size_t *npts_out,
                        tbk_error *err) {
  *pts_out = NULL;
  *npts_out = 0;
  scored *v;
  size_t npos;
  tbk_status st = sorted_copy(score, y, n, &v, &npos, err);
  if (st) return st;
  if (npos == 0) {
    free(v);
    return tbk_fail(err, TBK_ERR_EMPTY, "metrics: no positive examples, recall is undefined");
  }
  size_t distinct = 0;
  for (size_t i = 0; i < n; i++) distinct += i == 0 || v[i].s != v[i - 1].s;
  tbk_pr_point *pts = malloc(distinct * sizeof *pts);
  if (!pts) {
    free(v);
    return tbk_fail(err, TBK_ERR_NOMEM, "metrics: out of memory");
  }
  size_t tp = 0, fp = 0, k = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i].y == 1) tp++;
    else fp++;
    if (i + 1 < n && v[i + 1].s == v[i].s) continue;
    pts[k++] = (tbk_pr_point){.threshold = v[i].s,
                              .tp = tp,
                              .fp = fp,
                              .precision = (double)tp / (double)(tp + fp),
                              .recall = (double)tp / (double)npos};
  }
  free(v);
  *pts_out = pts;
  *npts_out = k;
  return TBK_OK;
}

double tbk_average_precision(const tbk_pr_point *pts, size_t npts) {
  double ap = 0, prev = 0;
  for (size_t k = 0; k < npts; k++) {
    ap += (pts[k].recall - prev) * pts[k].precision;
    prev = pts[k].recall;
  }
  return ap;
}

size_t tbk_recall_at_precision(const tbk_pr_point *pts, size_t npts, double target, double *recall, double *precision,
                               double *threshold) {
  size_t best = (size_t)-1;
  for (size_t k = 0; k < npts; k++)
    if (pts[k].precision >= target && (best == (size_t)-1 || pts[k].recall > pts[best].recall)) best = k;
  if (recall) *recall = best == (size_t)-1 ? 0.0 : pts[best].recall;
  if (precision) *precision = best == (size_t)-1 ? 0.0 : pts[best].precision;
  if (threshold) *threshold = best == (size_t)-1 ? INFINITY : pts[best].threshold;
  return best;
}

tbk_status tbk_roc_auc(const double *score, const signed char *y, size_t n, double *auc, tbk_error *err) {
  *auc = 0;
  scored *v;
  size_t npos;
  tbk_status st = sorted_copy(score, y, n, &v, &npos, err);
  if (st) return st;
  size_t nneg = n - npos;
  if (npos == 0 || nneg == 0) {
    free(v);
    return tbk_fail(err, TBK_ERR_EMPTY, "metrics: ROC-AUC needs both classes");
  }
  /* Walking down the ranking, each negative is beaten by the positives
   * already passed and ties with the positives of its own score group. */
  double wins = 0;
  size_t above = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i, p = 0, q = 0;
    for (; j < n && v[j].s == v[i].s; j++) {
      if (v[j].y == 1) p++;
      else q++;
    }
    wins += (double)q * ((double)above + 0.5 * (double)p);
    above += p;
    i = j;
  }
  free(v);
  *auc = wins / ((double)npos * (double)nneg);
  return TBK_OK;
}
