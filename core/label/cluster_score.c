/* How well a clustering matches a reference grouping (the sites, or page
 * types): adjusted Rand index and purity, from the contingency table built
 * by sorting the (cluster, reference) pairs. */
#include <stdlib.h>

#include "cluster.h"

typedef struct xy {
  uint32_t x, y;
} xy;

static int cmp_xy(const void *a, const void *b) {
  const xy *p = a, *q = b;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  return (p->y > q->y) - (p->y < q->y);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static double pairs_of(double m) { return m * (m - 1) / 2; }

/* Sum of C(run, 2) over the runs of equal values of a sorted array. */
static double run_pairs(const uint32_t *v, size_t n) {
  double s = 0;
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && v[j] == v[i];) j++;
    s += pairs_of((double)(j - i));
  }
  return s;
}

tbk_status tbk_cluster_agreement(const uint32_t *x, const uint32_t *y, size_t n, double *ari, double *purity,
                                 tbk_error *err) {
  *ari = 1;
  *purity = 1;
  if (!n) return TBK_OK;
  xy *t = malloc(n * sizeof *t);
  uint32_t *v = malloc(n * sizeof *v);
  if (!t || !v) {
    free(t);
    free(v);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  for (size_t i = 0; i < n; i++) t[i] = (xy){x[i], y[i]};
  qsort(t, n, sizeof *t, cmp_xy);
  double cells = 0, majority = 0;
  for (size_t i = 0, j; i < n; i = j) {
    size_t best = 0;
    for (j = i; j < n && t[j].x == t[i].x;) {
      size_t k = j;
      while (k < n && t[k].x == t[j].x && t[k].y == t[j].y) k++;
      cells += pairs_of((double)(k - j));
      if (k - j > best) best = k - j;
      j = k;
    }
    majority += (double)best;
  }
  for (size_t i = 0; i < n; i++) v[i] = x[i];
  qsort(v, n, sizeof *v, cmp_u32);
  double a = run_pairs(v, n);
  for (size_t i = 0; i < n; i++) v[i] = y[i];
  qsort(v, n, sizeof *v, cmp_u32);
  double b = run_pairs(v, n);
  free(t);
  free(v);
  double expected = n > 1 ? a * b / pairs_of((double)n) : 0, top = (a + b) / 2;
  *ari = top == expected ? 1.0 : (cells - expected) / (top - expected);
  *purity = majority / (double)n;
  return TBK_OK;
}
