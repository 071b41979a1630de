/* Fayyad & Irani (1993) multi-interval discretization with the MDLP rule.
 * The samples are sorted once and merged into runs of equal value; every
 * interval is then a range of runs, and choosing its cut is one scan with
 * running class counts. Intervals wait in a FIFO queue, so the depth of the
 * split tree costs heap, not stack. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ml.h"
#include "util.h"

typedef struct sample {
  double x, w;
  signed char y;
} sample;

typedef struct span {
  size_t lo, hi; /* runs [lo, hi) */
} span;

/* Stable merge sort of s[0..n) by x (tmp: n samples of scratch): the order
 * qsort gave (glibc's is a merge sort), without a call per comparison.
 * Stability keeps equal values in input order, so a run's weights are
 * summed in the same order whatever the sort. */
static void sort_samples(sample *s, sample *tmp, size_t n) {
  enum { RUN = 16 };
  for (size_t lo = 0; lo < n; lo += RUN) { /* insertion sort of short runs */
    size_t hi = lo + RUN < n ? lo + RUN : n;
    for (size_t i = lo + 1; i < hi; i++) {
      sample v = s[i];
      size_t j = i;
      for (; j > lo && s[j - 1].x > v.x; j--) s[j] = s[j - 1];
      s[j] = v;
    }
  }
  sample *a = s, *b = tmp;
  for (size_t width = RUN; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) b[k++] = a[j].x < a[i].x ? a[j++] : a[i++];
      while (i < mid) b[k++] = a[i++];
      while (j < hi) b[k++] = a[j++];
    }
    sample *t = a;
    a = b;
    b = t;
  }
  if (a != s) memcpy(s, a, n * sizeof *s);
}

/* a * log2(a), continuous at 0. */
static double xlog2x(double a) { return a > 0 ? a * log2(a) : 0.0; }

/* Entropy in bits of a two-class distribution with weights p and q. */
static double ent2(double p, double q) {
  double n = p + q;
  if (n <= 0) return 0.0;
  return (xlog2x(n) - xlog2x(p) - xlog2x(q)) / n;
}

static int classes(double p, double q) { return (p > 0) + (q > 0); }

/* The MDLP test with both halves given, so callers summing each half
 * separately never see a right half of -1e-17 created by cancellation. */
static int mdlp(double p1, double q1, double p2, double q2, double *gain, double *thr) {
  double n1 = p1 + q1, n2 = p2 + q2, n = n1 + n2;
  *gain = *thr = 0.0;
  if (!(n > 1) || !(n1 > 0) || !(n2 > 0)) return 0;
  double p = p1 + p2, q = q1 + q2;
  double e = ent2(p, q), e1 = ent2(p1, q1), e2 = ent2(p2, q2);
  int k = classes(p, q), k1 = classes(p1, q1), k2 = classes(p2, q2);
  double delta = log2(pow(3.0, k) - 2.0) - (k * e - k1 * e1 - k2 * e2);
  *gain = e - (n1 * e1 + n2 * e2) / n;
  *thr = (log2(n - 1.0) + delta) / n;
  return *gain > *thr;
}

int tbk_mdlp_test(double pos, double neg, double pos1, double neg1, double *gain, double *threshold) {
  double g, t;
  int ok = mdlp(pos1, neg1, pos - pos1, neg - neg1, &g, &t);
  if (gain) *gain = g;
  if (threshold) *threshold = t;
  return ok;
}

/* A point strictly above a and at most b, so bin() separates the two. */
static double midpoint(double a, double b) {
  double d = b - a;
  double m = isfinite(d) ? a + d / 2 : a / 2 + b / 2;
  return m > a ? m : b;
}

static int cmp_double(const void *a, const void *b) {
  double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}

size_t tbk_mdl_bin(const double *cuts, size_t ncuts, double v) {
  size_t lo = 0, hi = ncuts; /* answer in [lo, hi] */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (cuts[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Runs of equal value: value, class weights, and whether the cut before run
 * g (between g-1 and g) is a boundary point. The arrays are the scratch's. */
typedef struct runs {
  double *v, *p, *q;
  unsigned char *boundary;
  size_t n;
} runs;

/* Sign of a pure run (+1/-1), 0 when it holds both classes. */
static int run_class(const runs *r, size_t g) {
  if (r->q[g] == 0) return 1;
  if (r->p[g] == 0) return -1;
  return 0;
}

/* Samples s[0..n) (sorted) joined to the runs r has. */
static void add_runs(runs *r, const sample *s, size_t n) {
  size_t g = r->n;
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || s[i].x != s[i - 1].x) {
      r->v[g] = s[i].x;
      r->p[g] = r->q[g] = 0;
      g++;
    }
    if (s[i].y > 0) r->p[g - 1] += s[i].w;
    else r->q[g - 1] += s[i].w;
  }
  r->n = g;
}

static void mark_boundaries(runs *r) {
  for (size_t k = 0; k < r->n; k++) {
    int a = k ? run_class(r, k - 1) : 0, b = run_class(r, k);
    r->boundary[k] = k > 0 && !(a != 0 && a == b);
  }
}

/* Split queue: a growable FIFO of spans. */
typedef struct queue {
  span *s;
  size_t head, len, cap;
} queue;

static int push(queue *qu, size_t lo, size_t hi) {
  if (hi - lo < 2) return 0; /* one run: nothing to cut */
  if (tbk_grow(&qu->s, &qu->cap, qu->len + 1, sizeof *qu->s)) return -1;
  qu->s[qu->len++] = (span){lo, hi};
  return 0;
}

/* Best boundary cut of runs [lo, hi): returns the run index it precedes, or
 * 0 when the span has no boundary point. */
static size_t best_cut(const runs *r, size_t lo, size_t hi) {
  double P = 0, Q = 0;
  for (size_t g = lo; g < hi; g++) {
    P += r->p[g];
    Q += r->q[g];
  }
  double p1 = 0, q1 = 0, best = INFINITY;
  /* Cuts tied up to rounding keep the lowest, whatever the summation noise. */
  double tie = 1e-12 * (P + Q);
  size_t at = 0;
  for (size_t g = lo + 1; g < hi; g++) {
    p1 += r->p[g - 1];
    q1 += r->q[g - 1];
    if (!r->boundary[g]) continue;
    double p2 = P - p1, q2 = Q - q1;
    /* |S| * E, in the n log n form that needs no division per candidate. */
    double e = xlog2x(p1 + q1) - xlog2x(p1) - xlog2x(q1) + xlog2x(p2 + q2) - xlog2x(p2) - xlog2x(q2);
    if (e < best - tie) {
      best = e;
      at = g;
    }
  }
  return at;
}

static void sum_runs(const runs *r, size_t lo, size_t hi, double *p, double *q) {
  *p = *q = 0;
  for (size_t g = lo; g < hi; g++) {
    *p += r->p[g];
    *q += r->q[g];
  }
}

void tbk_mdl_scratch_free(tbk_mdl_scratch *ws) {
  free(ws->samples);
  free(ws->tmp);
  free(ws->v);
  free(ws->p);
  free(ws->q);
  free(ws->boundary);
  memset(ws, 0, sizeof *ws);
}

/* Room for n nonzero samples and n + 1 runs. */
static int scratch_reserve(tbk_mdl_scratch *ws, size_t n) {
  if (n + 1 <= ws->cap) return 0;
  size_t cap = n + 1 > ws->cap * 2 ? n + 1 : ws->cap * 2;
  /* The old contents are not needed: free first, so the peak is not two. */
  tbk_mdl_scratch_free(ws);
  ws->samples = malloc(cap * sizeof(sample));
  ws->tmp = malloc(cap * sizeof(sample));
  ws->v = malloc(cap * sizeof *ws->v);
  ws->p = malloc(cap * sizeof *ws->p);
  ws->q = malloc(cap * sizeof *ws->q);
  ws->boundary = malloc(cap);
  if (!ws->samples || !ws->tmp || !ws->v || !ws->p || !ws->q || !ws->boundary) {
    tbk_mdl_scratch_free(ws);
    return -1;
  }
  ws->cap = cap;
  return 0;
}

tbk_status tbk_mdl_cuts(const double *x, const signed char *y, const double *w, size_t n, size_t max_cuts,
                        double **cuts_out, size_t *ncuts_out, tbk_error *err) {
  tbk_mdl_scratch ws = {0};
  tbk_status st = tbk_mdl_cuts_with(&ws, x, y, w, n, max_cuts, cuts_out, ncuts_out, err);
  tbk_mdl_scratch_free(&ws);
  return st;
}

tbk_status tbk_mdl_cuts_with(tbk_mdl_scratch *ws, const double *x, const signed char *y, const double *w, size_t n,
                             size_t max_cuts, double **cuts_out, size_t *ncuts_out, tbk_error *err) {
  *cuts_out = NULL;
  *ncuts_out = 0;
  if (n == 0) return TBK_OK;
  if (!x || !y) return tbk_fail(err, TBK_ERR_ARG, "mdl: NULL input");
  if (n > SIZE_MAX / sizeof(sample) - 1) return tbk_fail(err, TBK_ERR_LIMIT, "mdl: too many samples");

  /* Most inputs are 0 in most rows: the zeros are one run, between the
   * negative and the positive values, its weights summed here in input
   * order (the order a stable sort leaves them in); only the other values
   * are sorted. The run's value is its first zero's (0.0 or -0.0). */
  size_t nneg = 0, npos = 0, nzero = 0;
  double zp = 0, zq = 0, z0 = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(x[i])) return tbk_fail(err, TBK_ERR_ARG, "mdl: value %zu is not finite", i);
    if (y[i] != 1 && y[i] != -1) return tbk_fail(err, TBK_ERR_ARG, "mdl: label %zu is %d, not +1/-1", i, y[i]);
    if (w && (!isfinite(w[i]) || w[i] < 0)) return tbk_fail(err, TBK_ERR_ARG, "mdl: weight %zu is invalid", i);
    if (w && w[i] == 0) continue;
    if (x[i] < 0) nneg++;
    else if (x[i] > 0) npos++;
    else {
      if (!nzero++) z0 = x[i];
      if (y[i] > 0) zp += w ? w[i] : 1.0;
      else zq += w ? w[i] : 1.0;
    }
  }
  if (nneg + npos + nzero == 0) return TBK_OK;
  if (scratch_reserve(ws, nneg + npos)) return tbk_fail(err, TBK_ERR_NOMEM, "mdl: out of memory");
  sample *s = ws->samples;
  size_t at[2] = {0, nneg}; /* next slot of <0, >0 */
  for (size_t i = 0; i < n; i++)
    if ((!w || w[i] > 0) && x[i] != 0) s[at[x[i] > 0]++] = (sample){x[i], w ? w[i] : 1.0, y[i]};
  sort_samples(s, ws->tmp, nneg);
  sort_samples(s + nneg, ws->tmp, npos);

  runs r = {ws->v, ws->p, ws->q, ws->boundary, 0};
  add_runs(&r, s, nneg);
  if (nzero) {
    r.v[r.n] = z0;
    r.p[r.n] = zp;
    r.q[r.n++] = zq;
  }
  add_runs(&r, s + nneg, npos);
  mark_boundaries(&r);
  queue qu = {0};
  double *cuts = NULL;
  size_t ncuts = 0;
  int bad = 0;
  if (r.n > 1) {
    /* A cut splits a span in two, so at most runs - 1 cuts ever exist. */
    size_t most = max_cuts && max_cuts < r.n - 1 ? max_cuts : r.n - 1;
    cuts = malloc(most * sizeof *cuts);
    bad = !cuts || push(&qu, 0, r.n);
  }
  while (!bad && qu.head < qu.len && (max_cuts == 0 || ncuts < max_cuts)) {
    span sp = qu.s[qu.head++];
    size_t at = best_cut(&r, sp.lo, sp.hi);
    if (!at) continue;
    double p1, q1, p2, q2, gain, thr;
    sum_runs(&r, sp.lo, at, &p1, &q1);
    sum_runs(&r, at, sp.hi, &p2, &q2);
    if (!mdlp(p1, q1, p2, q2, &gain, &thr)) continue;
    cuts[ncuts++] = midpoint(r.v[at - 1], r.v[at]);
    bad = push(&qu, sp.lo, at) || push(&qu, at, sp.hi);
  }
  free(qu.s);
  if (bad) {
    free(cuts);
    return tbk_fail(err, TBK_ERR_NOMEM, "mdl: out of memory");
  }
  if (ncuts == 0) {
    free(cuts);
    return TBK_OK;
  }
  qsort(cuts, ncuts, sizeof *cuts, cmp_double);
  *cuts_out = cuts;
  *ncuts_out = ncuts;
  return TBK_OK;
}
