/* Fayyad–Irani MDL discretization: hand-computed criterion values, the
 * classic shapes (separable, pure, noise, three intervals), weights, limits,
 * and agreement with a naive O(n^2) reimplementation on random data. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "ml.h"

/* xorshift64*: the same stream on every platform, unlike rand(). */
static uint64_t rng_state;
static uint64_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ULL;
}
static double unif(void) { return (double)(rng() >> 11) / 9007199254740992.0; }

static void test_criterion_by_hand(void) {
  double gain, thr;
  /* 8 points, 4+ 4-, split into S1 = 4+ | S2 = 4-:
   *   Ent(S) = 1, Ent(S1) = Ent(S2) = 0, Gain = 1 - 0 = 1
   *   k = 2, k1 = k2 = 1: Delta = log2(3^2 - 2) - [2*1 - 0 - 0]
   *                             = log2 7 - 2 = 2.8073549221 - 2 = 0.8073549221
   *   threshold = (log2(8-1) + Delta) / 8 = (2.8073549221 + 0.8073549221)/8
   *             = 0.4518387305   -> 1 > 0.4518: accepted */
  CHECK_INT(tbk_mdlp_test(4, 4, 4, 0, &gain, &thr), 1);
  CHECK_NEAR(gain, 1.0, 1e-12);
  CHECK_NEAR(thr, 0.4518387305, 1e-9);

  /* 8 points, 4+ 4-, split S1 = 3+ 1- | S2 = 1+ 3-:
   *   Ent(S1) = Ent(S2) = -(3/4 log2 3/4 + 1/4 log2 1/4)
   *           = 0.75 * 0.4150374993 + 0.25 * 2 = 0.8112781245
   *   Gain = 1 - 0.8112781245 = 0.1887218755
   *   k = k1 = k2 = 2: Delta = log2 7 - [2 - 2*0.8112781245 - 2*0.8112781245]
   *                          = 2.8073549221 + 1.2451124978 = 4.0524674199
   *   threshold = (2.8073549221 + 4.0524674199) / 8 = 0.8574777927
   *   -> rejected */
  CHECK_INT(tbk_mdlp_test(4, 4, 3, 1, &gain, &thr), 0);
  CHECK_NEAR(gain, 0.1887218755, 1e-9);
  CHECK_NEAR(thr, 0.8574777927, 1e-9);

  /* 8 points, 6+ 2-, split S1 = 4+ | S2 = 2+ 2-:
   *   Ent(S) = 0.8112781245, Ent(S1) = 0, Ent(S2) = 1
   *   Gain = 0.8112781245 - (4*0 + 4*1)/8 = 0.3112781245
   *   k = 2, k1 = 1, k2 = 2: Delta = log2 7 - [2*0.8112781245 - 0 - 2*1]
   *                                = 2.8073549221 + 0.3774437510 = 3.1847986731
   *   threshold = (2.8073549221 + 3.1847986731) / 8 = 0.7490191994 */
  CHECK_INT(tbk_mdlp_test(6, 2, 4, 0, &gain, &thr), 0);
  CHECK_NEAR(gain, 0.3112781245, 1e-9);
  CHECK_NEAR(thr, 0.7490191994, 1e-9);

  /* No split possible. */
  CHECK_INT(tbk_mdlp_test(1, 0, 1, 0, &gain, &thr), 0);
  CHECK_INT(tbk_mdlp_test(4, 4, 0, 0, &gain, &thr), 0);
  CHECK_NEAR(gain, 0, 0);
}

static void test_separable_8(void) {
  /* The first case above as data: the cut is the midpoint 4.5. */
  double x[8] = {8, 1, 7, 2, 6, 3, 5, 4};
  signed char y[8] = {-1, 1, -1, 1, -1, 1, -1, 1};
  double *cuts;
  size_t nc;
  tbk_error e;
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, 8, 0, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 1);
  if (nc == 1) CHECK(cuts[0] == 4.5);
  free(cuts);

  /* 3+ 1- | 1+ 3- rejected as computed by hand; no other cut is better. */
  signed char y2[8] = {-1, 1, -1, 1, 1, 1, -1, -1}; /* x=1..4: +++-, 5..8: +--- */
  CHECK_INT(tbk_mdl_cuts(x, y2, NULL, 8, 0, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 0);
  CHECK(cuts == NULL);
}

static void test_pure_and_constant(void) {
  double x[100];
  signed char y[100];
  for (int i = 0; i < 100; i++) {
    x[i] = i;
    y[i] = 1;
  }
  double *cuts;
  size_t nc;
  tbk_error e;
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, 100, 0, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 0);
  /* One value, both classes: no boundary point exists. */
  for (int i = 0; i < 100; i++) {
    x[i] = 3.25;
    y[i] = i % 2 ? 1 : -1;
  }
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, 100, 0, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 0);
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, 0, 0, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 0);
  CHECK(cuts == NULL);
}

static void test_random_labels(void) {
  enum { N = 1000 };
  double x[N];
  signed char y[N];
  rng_state = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < N; i++) {
    x[i] = unif() * 100;
    y[i] = (rng() >> 63) ? 1 : -1;
  }
  double *cuts;
  size_t nc;
  tbk_error e;
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, N, 0, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 0);
  free(cuts);
}

static void test_three_intervals(void) {
  /* -1 on [0,10), +1 on [10,20), -1 on [20,30), 50 points each. */
  enum { N = 150 };
  double x[N];
  signed char y[N];
  for (int i = 0; i < N; i++) {
    x[i] = i / 5.0;
    y[i] = (x[i] >= 10 && x[i] < 20) ? 1 : -1;
  }
  double *cuts;
  size_t nc;
  tbk_error e;
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, N, 0, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 2);
  if (nc == 2) {
    CHECK_NEAR(cuts[0], (x[49] + x[50]) / 2, 1e-12);  /* 9.9 */
    CHECK_NEAR(cuts[1], (x[99] + x[100]) / 2, 1e-12); /* 19.9 */
    CHECK_INT(tbk_mdl_bin(cuts, nc, x[49]), 0);
    CHECK_INT(tbk_mdl_bin(cuts, nc, x[50]), 1);
    CHECK_INT(tbk_mdl_bin(cuts, nc, x[99]), 1);
    CHECK_INT(tbk_mdl_bin(cuts, nc, x[100]), 2);
  }
  free(cuts);
  /* Both single cuts tie exactly; the lower one is found first and kept. */
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, N, 1, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 1);
  if (nc == 1) CHECK_NEAR(cuts[0], 9.9, 1e-12);
  free(cuts);
}

static void test_weights(void) {
  /* Weight 3 must equal three copies; weight 0 must equal absence. */
  enum { N = 60 };
  double x[3 * N], w[N + 5], xw[N + 5];
  signed char y[3 * N], yw[N + 5];
  rng_state = 42;
  for (int i = 0; i < N; i++) {
    xw[i] = (double)(rng() % 20);
    yw[i] = (xw[i] < 7) == (rng() % 10 != 0) ? 1 : -1;
    w[i] = 3;
    for (int c = 0; c < 3; c++) {
      x[3 * i + c] = xw[i];
      y[3 * i + c] = yw[i];
    }
  }
  for (int i = N; i < N + 5; i++) { /* zero-weight noise */
    xw[i] = 6.5;
    yw[i] = -1;
    w[i] = 0;
  }
  double *c1, *c2;
  size_t n1, n2;
  tbk_error e;
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, 3 * N, 0, &c1, &n1, &e), TBK_OK);
  CHECK_INT(tbk_mdl_cuts(xw, yw, w, N + 5, 0, &c2, &n2, &e), TBK_OK);
  CHECK(n1 >= 1);
  CHECK_INT(n1, n2);
  for (size_t i = 0; i < n1 && i < n2; i++) CHECK(c1[i] == c2[i]);
  free(c1);
  free(c2);
}

static void test_midpoint_edges(void) {
  /* Adjacent doubles: the midpoint rounds onto one of them, and must still
   * separate them. Huge opposite values: b - a overflows. */
  double a = 1.0, b = nextafter(1.0, 2.0);
  double x[40];
  signed char y[40];
  for (int i = 0; i < 40; i++) {
    x[i] = i < 20 ? a : b;
    y[i] = i < 20 ? 1 : -1;
  }
  double *cuts;
  size_t nc;
  tbk_error e;
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, 40, 0, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 1);
  if (nc == 1) {
    CHECK_INT(tbk_mdl_bin(cuts, nc, a), 0);
    CHECK_INT(tbk_mdl_bin(cuts, nc, b), 1);
  }
  free(cuts);
  for (int i = 0; i < 40; i++) x[i] = i < 20 ? -1e308 : 1.5e308;
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, 40, 0, &cuts, &nc, &e), TBK_OK);
  CHECK_INT(nc, 1);
  if (nc == 1) CHECK_NEAR(cuts[0], 0.25e308, 1e293);
  free(cuts);
}

static void test_bin(void) {
  double cuts[2] = {1.5, 3.5};
  CHECK_INT(tbk_mdl_bin(cuts, 2, 1.4), 0);
  CHECK_INT(tbk_mdl_bin(cuts, 2, 1.5), 1); /* equal to a cut: upper */
  CHECK_INT(tbk_mdl_bin(cuts, 2, 3.4), 1);
  CHECK_INT(tbk_mdl_bin(cuts, 2, 3.5), 2);
  CHECK_INT(tbk_mdl_bin(cuts, 2, 1e300), 2);
  CHECK_INT(tbk_mdl_bin(cuts, 2, -INFINITY), 0);
  CHECK_INT(tbk_mdl_bin(cuts, 2, NAN), 0);
  CHECK_INT(tbk_mdl_bin(NULL, 0, 7), 0);
}

static void test_errors(void) {
  double x[3] = {1, NAN, 3}, w[3] = {1, -1, 1};
  signed char y[3] = {1, -1, 1}, ybad[3] = {1, 0, 1};
  double *cuts = (double *)1;
  size_t nc = 9;
  tbk_error e;
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, 3, 0, &cuts, &nc, &e), TBK_ERR_ARG);
  CHECK_INT(e.code, TBK_ERR_ARG);
  CHECK(cuts == NULL && nc == 0);
  x[1] = INFINITY;
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, 3, 0, &cuts, &nc, &e), TBK_ERR_ARG);
  x[1] = 2;
  CHECK_INT(tbk_mdl_cuts(x, ybad, NULL, 3, 0, &cuts, &nc, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_mdl_cuts(x, y, w, 3, 0, &cuts, &nc, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_mdl_cuts(x, y, w, 3, 0, &cuts, &nc, NULL), TBK_ERR_ARG);
}

/* ---- naive reference: every distinct-value midpoint, counts recomputed
 * from scratch, intervals split breadth-first. */
typedef struct pt {
  double x;
  signed char y;
} pt;
static int cmp_pt(const void *a, const void *b) {
  double u = ((const pt *)a)->x, v = ((const pt *)b)->x;
  return (u > v) - (u < v);
}
static double H(double p, double q) {
  double n = p + q, h = 0;
  if (p > 0) h -= p / n * log2(p / n);
  if (q > 0) h -= q / n * log2(q / n);
  return h;
}
static size_t naive_cuts(pt *s, size_t n, double *out) {
  qsort(s, n, sizeof *s, cmp_pt);
  size_t lo[4096], hi[4096], head = 0, tail = 0, nc = 0;
  lo[tail] = 0;
  hi[tail++] = n;
  while (head < tail) {
    size_t a = lo[head], b = hi[head++];
    double bestE = INFINITY;
    size_t best = 0;
    for (size_t c = a + 1; c < b; c++) {
      if (s[c].x == s[c - 1].x) continue;
      double p1 = 0, q1 = 0, p2 = 0, q2 = 0;
      for (size_t i = a; i < c; i++) s[i].y > 0 ? p1++ : q1++;
      for (size_t i = c; i < b; i++) s[i].y > 0 ? p2++ : q2++;
      double E = ((p1 + q1) * H(p1, q1) + (p2 + q2) * H(p2, q2)) / (b - a);
      if (E < bestE - 1e-12) {
        bestE = E;
        best = c;
      }
    }
    if (!best) continue;
    double p = 0, q = 0, p1 = 0, q1 = 0;
    for (size_t i = a; i < b; i++) s[i].y > 0 ? p++ : q++;
    for (size_t i = a; i < best; i++) s[i].y > 0 ? p1++ : q1++;
    double p2 = p - p1, q2 = q - q1, N = (double)(b - a);
    int k = (p > 0) + (q > 0), k1 = (p1 > 0) + (q1 > 0), k2 = (p2 > 0) + (q2 > 0);
    double gain = H(p, q) - bestE;
    double delta = log2(pow(3, k) - 2) - (k * H(p, q) - k1 * H(p1, q1) - k2 * H(p2, q2));
    if (!(gain > (log2(N - 1) + delta) / N)) continue;
    out[nc++] = (s[best - 1].x + s[best].x) / 2;
    lo[tail] = a;
    hi[tail++] = best;
    lo[tail] = best;
    hi[tail++] = b;
  }
  return nc;
}

static int cmp_d(const void *a, const void *b) {
  double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}

static void test_against_naive(void) {
  /* Integer values (many ties) and a label rate that steps with x. */
  enum { N = 600 };
  static double x[N], ref[N];
  static signed char y[N];
  static pt s[N];
  size_t total_cuts = 0;
  for (int round = 0; round < 20; round++) {
    rng_state = 1000 + round;
    int levels = 5 + round;
    for (int i = 0; i < N; i++) {
      x[i] = (double)(rng() % (uint64_t)levels);
      double rate = ((int)x[i] * 7 % 5) / 4.0 * 0.8 + 0.1;
      y[i] = unif() < rate ? 1 : -1;
      s[i] = (pt){x[i], y[i]};
    }
    size_t nref = naive_cuts(s, N, ref);
    qsort(ref, nref, sizeof *ref, cmp_d);
    double *cuts;
    size_t nc;
    tbk_error e;
    CHECK_INT(tbk_mdl_cuts(x, y, NULL, N, 0, &cuts, &nc, &e), TBK_OK);
    CHECK_INT(nc, nref);
    for (size_t i = 0; i < nc && i < nref; i++) CHECK(cuts[i] == ref[i]);
    total_cuts += nc;
    free(cuts);
  }
  CHECK(total_cuts > 20); /* the comparison must not be vacuous */
}

static void test_signs_against_naive(void) {
  /* Negative, zero (half of the rows, some of them -0.0) and positive
   * values: the zeros are one run between the two sorted signs. Runs of
   * more than 16 values take the merge passes; reversing the input must
   * not change a cut, nor cutting it with work arrays kept from the
   * earlier rounds (of other sizes). */
  enum { N = 600 };
  static double x[N], xr[N], ref[N];
  static signed char y[N], yr[N];
  static pt s[N];
  size_t total_cuts = 0, zero_cuts = 0;
  tbk_mdl_scratch ws = {0};
  for (int round = 0; round < 20; round++) {
    rng_state = 5000 + round;
    int levels = 4 + round;
    for (int i = 0; i < N; i++) {
      x[i] = rng() % 2 ? 0.0 : (double)(rng() % (uint64_t)levels) - levels / 2;
      if (x[i] == 0 && rng() % 3 == 0) x[i] = -0.0;
      double rate = x[i] < 0 ? 0.85 : x[i] == 0 ? 0.5 : ((int)x[i] * 3 % 4) / 3.0 * 0.8 + 0.1;
      y[i] = unif() < rate ? 1 : -1;
      s[i] = (pt){x[i], y[i]};
      xr[N - 1 - i] = x[i];
      yr[N - 1 - i] = y[i];
    }
    size_t nref = naive_cuts(s, N, ref);
    qsort(ref, nref, sizeof *ref, cmp_d);
    double *cuts, *rcuts;
    size_t nc, nrc;
    tbk_error e;
    CHECK_INT(tbk_mdl_cuts(x, y, NULL, N, 0, &cuts, &nc, &e), TBK_OK);
    CHECK_INT(tbk_mdl_cuts_with(&ws, xr, yr, NULL, N, 0, &rcuts, &nrc, &e), TBK_OK);
    CHECK_INT(nc, nref);
    CHECK_INT(nrc, nc);
    for (size_t i = 0; i < nc && i < nref; i++) CHECK(cuts[i] == ref[i]);
    for (size_t i = 0; i < nc && i < nrc; i++) CHECK(cuts[i] == rcuts[i]);
    for (size_t i = 0; i < nc; i++) zero_cuts += fabs(cuts[i]) == 0.5;
    total_cuts += nc;
    free(cuts);
    free(rcuts);
  }
  tbk_mdl_scratch_free(&ws);
  CHECK(ws.cap == 0 && ws.samples == NULL);
  CHECK(total_cuts > 20); /* not vacuous: cuts exist ... */
  CHECK(zero_cuts > 0);   /* ... and some of them bound the zeros' run */
}

static void test_million(void) {
  /* 1M samples: template rate 0.9 below 0.3, 0.1 above. One sort plus a
   * few scans; must find the step and stay fast. */
  enum { N = 1000000 };
  double *x = malloc(N * sizeof *x);
  signed char *y = malloc(N);
  rng_state = 7;
  for (int i = 0; i < N; i++) {
    x[i] = unif();
    y[i] = unif() < (x[i] < 0.3 ? 0.9 : 0.1) ? 1 : -1;
  }
  double *cuts;
  size_t nc;
  tbk_error e;
  clock_t t0 = clock();
  CHECK_INT(tbk_mdl_cuts(x, y, NULL, N, 0, &cuts, &nc, &e), TBK_OK);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  fprintf(stderr, "mdl: 1M samples, %zu cuts, %.2f s\n", nc, secs);
  int near = 0;
  for (size_t i = 0; i < nc; i++) near |= fabs(cuts[i] - 0.3) < 1e-3;
  CHECK(near);
  CHECK(nc <= 5);
  free(cuts);
  free(x);
  free(y);
}

int main(void) {
  test_criterion_by_hand();
  test_separable_8();
  test_pure_and_constant();
  test_random_labels();
  test_three_intervals();
  test_weights();
  test_midpoint_edges();
  test_bin();
  test_errors();
  test_against_naive();
  test_signs_against_naive();
  test_million();
  return check_report();
}
