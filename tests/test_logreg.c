/* Logistic regression through LIBLINEAR: probabilities on separable data,
 * agreement of our dot product with LIBLINEAR's own predict_probability,
 * class weights, label-order independence, determinism and input checks. */
#include <linear.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ml.h"

/* A small CSR builder. */
typedef struct rows {
  size_t n, nnz;
  size_t ptr[256];
  uint32_t idx[1024];
  double val[1024];
  signed char y[256];
} rows;

static void row_begin(rows *r, signed char y) {
  if (r->n == 0) r->ptr[0] = 0;
  r->y[r->n] = y;
  r->ptr[r->n + 1] = r->nnz;
  r->n++;
}
static void row_put(rows *r, uint32_t j, double v) {
  r->idx[r->nnz] = j;
  r->val[r->nnz++] = v;
  r->ptr[r->n] = r->nnz;
}
static tbk_sparse as_sparse(const rows *r, uint32_t ncols) { return (tbk_sparse){r->n, ncols, r->ptr, r->idx, r->val}; }

static double prob_of(const double *w, uint32_t ncols, const uint32_t *idx, const double *val, size_t n) {
  return tbk_lr_prob(w, ncols, idx, val, n);
}

/* Separable toy data: feature 1 marks templates, feature 2 content, feature
 * 3 is noise shared by both. */
static void separable(rows *r, int neg_first) {
  memset(r, 0, sizeof *r);
  for (int pass = 0; pass < 2; pass++) {
    int positive = neg_first ? pass == 1 : pass == 0;
    for (int i = 0; i < 10; i++) {
      row_begin(r, positive ? 1 : -1);
      row_put(r, positive ? 1 : 2, 1.0 + 0.1 * i);
      row_put(r, 3, (i % 3) * 0.5);
    }
  }
}

static void test_separable(void) {
  rows r;
  separable(&r, 0);
  tbk_sparse X = as_sparse(&r, 3);
  tbk_lr_options o;
  tbk_lr_options_init(&o);
  CHECK_NEAR(o.C, 1, 0);
  CHECK_NEAR(o.eps, 0.01, 0);
  o.C = 10;
  double *w = NULL;
  size_t nw = 0;
  tbk_error e;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_OK);
  CHECK_INT(nw, 4);
  if (!w) return;
  uint32_t i1 = 1, i2 = 2;
  double one = 1.0;
  CHECK(prob_of(w, 3, &i1, &one, 1) > 0.9);
  CHECK(prob_of(w, 3, &i2, &one, 1) < 0.1);
  CHECK(w[0] > 0 && w[1] < 0);
  /* Every training row on the right side. */
  for (size_t k = 0; k < r.n; k++) {
    double p = prob_of(w, 3, r.idx + r.ptr[k], r.val + r.ptr[k], r.ptr[k + 1] - r.ptr[k]);
    CHECK(r.y[k] > 0 ? p > 0.9 : p < 0.1);
  }
  /* Features past ncols or 0 carry no weight; the bias is always there. */
  uint32_t far[2] = {0, 99};
  double vals[2] = {5, 5};
  CHECK_NEAR(tbk_lr_decision(w, 3, far, vals, 2), w[3], 0);
  CHECK_NEAR(tbk_lr_decision(w, 3, NULL, NULL, 0), w[3], 0);

  /* Same data in the same order: bit-identical weights. */
  double *w2 = NULL;
  size_t nw2;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w2, &nw2, &e), TBK_OK);
  CHECK(w2 && memcmp(w, w2, 4 * sizeof *w) == 0);
  free(w2);
  free(w);
}

/* LIBLINEAR trained directly on the same problem as the wrapper builds it. */
static struct model *liblinear_model(const rows *r, uint32_t ncols, const tbk_lr_options *o, struct feature_node *nodes,
                                     struct feature_node **xs, double *ys) {
  struct feature_node *nd = nodes;
  for (size_t k = 0; k < r->n; k++) {
    xs[k] = nd;
    ys[k] = r->y[k];
    for (size_t j = r->ptr[k]; j < r->ptr[k + 1]; j++) *nd++ = (struct feature_node){(int)r->idx[j], r->val[j]};
    *nd++ = (struct feature_node){(int)ncols + 1, 1.0};
    *nd++ = (struct feature_node){-1, 0};
  }
  struct problem prob = {(int)r->n, (int)ncols + 1, ys, xs, 1.0};
  int wl[2] = {1, -1};
  double wt[2] = {o->weight_pos, o->weight_neg};
  struct parameter par = {L2R_LR, o->eps, o->C, 2, wl, wt, 0.1, NULL};
  return train(&prob, &par);
}

static void test_matches_liblinear(void) {
  /* Overlapping classes so probabilities are not all near 0/1. The first
   * row is -1: LIBLINEAR orders labels by first appearance, except that 2.x
   * swaps a -1/+1 pair to put +1 first; either way ours must be P(+1). */
  rows r;
  memset(&r, 0, sizeof r);
  uint64_t st = 99;
  for (int i = 0; i < 60; i++) {
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    int y = i == 0 ? -1 : ((st >> 40) % 3 == 0 ? 1 : -1);
    row_begin(&r, (signed char)y);
    for (uint32_t j = 1; j <= 4; j++) {
      st = st * 6364136223846793005ULL + 1442695040888963407ULL;
      double v = (double)((st >> 33) % 1000) / 1000.0 + (y > 0 && j <= 2 ? 0.4 : 0);
      if ((st >> 20) % 4) row_put(&r, j, v);
    }
  }
  tbk_lr_options o;
  tbk_lr_options_init(&o);
  o.weight_pos = 2.0;
  double *w = NULL;
  size_t nw;
  tbk_error e;
  tbk_sparse X = as_sparse(&r, 4);
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_OK);
  struct feature_node *nodes = malloc((r.nnz + 2 * r.n) * sizeof *nodes);
  struct feature_node **xs = malloc(r.n * sizeof *xs);
  double *ys = malloc(r.n * sizeof *ys);
  struct model *m = liblinear_model(&r, 4, &o, nodes, xs, ys);
  CHECK(m != NULL);
  if (m && w) {
    CHECK(m->label[0] == 1 || m->label[0] == -1);
    double lo = 1, hi = 0;
    for (size_t k = 0; k < r.n; k++) {
      double pe[2];
      predict_probability(m, xs[k], pe);
      /* pe follows m->label order; our probability is P(+1). */
      double theirs = m->label[0] == 1 ? pe[0] : pe[1];
      double ours = prob_of(w, 4, r.idx + r.ptr[k], r.val + r.ptr[k], r.ptr[k + 1] - r.ptr[k]);
      CHECK_NEAR(ours, theirs, 1e-9);
      if (ours < lo) lo = ours;
      if (ours > hi) hi = ours;
    }
    CHECK(lo < 0.4 && hi > 0.6); /* the comparison spans the range */
  }
  if (m) free_and_destroy_model(&m);
  free(nodes);
  free(xs);
  free(ys);
  free(w);
}

static void test_class_weight(void) {
  /* Only the bias: 5 templates, 15 content rows. The bias moves towards the
   * class whose weight grows. */
  rows r;
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 20; i++) row_begin(&r, i < 5 ? 1 : -1);
  tbk_sparse X = as_sparse(&r, 1);
  tbk_lr_options o;
  tbk_lr_options_init(&o);
  double p[3];
  double wpos[3] = {1, 3, 10};
  tbk_error e;
  for (int k = 0; k < 3; k++) {
    o.weight_pos = wpos[k];
    double *w = NULL;
    size_t nw;
    CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_OK);
    p[k] = w ? tbk_lr_prob(w, 1, NULL, NULL, 0) : NAN;
    free(w);
  }
  CHECK(p[0] < 0.5);
  CHECK(p[2] > 0.5);
  CHECK(p[0] < p[1] && p[1] < p[2]);
  /* Weight 3 on 5 positives balances 15 negatives. */
  CHECK_NEAR(p[1], 0.5, 1e-6);
  /* Raising the negative weight instead pushes the other way. */
  o.weight_pos = 1;
  o.weight_neg = 10;
  double *w = NULL;
  size_t nw;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_OK);
  CHECK(w && tbk_lr_prob(w, 1, NULL, NULL, 0) < p[0]);
  free(w);
}

static void test_label_order(void) {
  rows a, b;
  separable(&a, 0); /* +1 rows first */
  separable(&b, 1); /* -1 rows first, same rows within each class */
  tbk_sparse Xa = as_sparse(&a, 3), Xb = as_sparse(&b, 3);
  tbk_lr_options o;
  tbk_lr_options_init(&o);
  double *wa = NULL, *wb = NULL;
  size_t na, nb;
  tbk_error e;
  CHECK_INT(tbk_lr_train(&Xa, a.y, &o, &wa, &na, &e), TBK_OK);
  CHECK_INT(tbk_lr_train(&Xb, b.y, &o, &wb, &nb, &e), TBK_OK);
  if (wa && wb)
    for (int j = 0; j < 4; j++) CHECK_NEAR(wa[j], wb[j], 1e-9);
  CHECK(wa && wa[0] > 0);
  free(wa);
  free(wb);
}

static void test_errors(void) {
  rows r;
  separable(&r, 0);
  tbk_sparse X = as_sparse(&r, 3);
  tbk_lr_options o;
  tbk_lr_options_init(&o);
  double *w = (double *)1;
  size_t nw = 7;
  tbk_error e;
  o.C = 0;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_ARG);
  CHECK(w == NULL && nw == 0);
  o.C = 1;
  o.eps = NAN;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_ARG);
  o.eps = 0.01;
  o.weight_neg = -1;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_ARG);
  o.weight_neg = 1;
  /* Column out of range, index 0, descending, non-finite. */
  X.ncols = 2;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_ARG);
  X.ncols = 3;
  uint32_t saved = r.idx[0];
  r.idx[0] = 0;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_ARG);
  r.idx[0] = 3; /* row 0 becomes {3, 3} */
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_ARG);
  r.idx[0] = saved;
  r.val[1] = INFINITY;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_ARG);
  r.val[1] = 0;
  r.y[4] = 0;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_ARG);
  r.y[4] = 1;
  /* One class only; no rows. */
  X.nrows = 10;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_EMPTY);
  CHECK(strstr(e.msg, "only") != NULL);
  X.nrows = 0;
  CHECK_INT(tbk_lr_train(&X, r.y, &o, &w, &nw, &e), TBK_ERR_EMPTY);
  X.nrows = r.n;
  CHECK_INT(tbk_lr_train(&X, r.y, NULL, &w, &nw, &e), TBK_OK);
  free(w);
}

static void test_sigmoid(void) {
  CHECK_NEAR(tbk_sigmoid(0), 0.5, 0);
  CHECK_NEAR(tbk_sigmoid(800), 1.0, 0);
  CHECK_NEAR(tbk_sigmoid(-800), 0.0, 1e-300);
  CHECK(tbk_sigmoid(-800) >= 0);
  CHECK_NEAR(tbk_sigmoid(2) + tbk_sigmoid(-2), 1.0, 1e-15);
  CHECK_NEAR(tbk_sigmoid(log(3.0)), 0.75, 1e-15);
}

int main(void) {
  test_separable();
  test_matches_liblinear();
  test_class_weight();
  test_label_order();
  test_errors();
  test_sigmoid();
  return check_report();
}
