/* L2-regularized logistic regression through LIBLINEAR (-s 0 -B 1). Only
 * training touches LIBLINEAR: the result is a plain weight vector oriented
 * towards +1, and prediction is a dot product here, so a model file never
 * depends on LIBLINEAR's own format or label order. */
#include <limits.h>
#include <linear.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ml.h"
#include "util.h"

void tbk_lr_options_init(tbk_lr_options *o) {
  o->C = 1.0;
  o->weight_pos = 1.0;
  o->weight_neg = 1.0;
  o->eps = 0.01;
}

static void quiet(const char *s) { (void)s; }

static int positive(double v) { return v > 0 && isfinite(v); }

static tbk_status check_options(size_t nrows, uint32_t ncols, const signed char *y, const tbk_lr_options *o,
                                tbk_error *err) {
  if (!positive(o->C) || !positive(o->weight_pos) || !positive(o->weight_neg) || !positive(o->eps))
    return tbk_fail(err, TBK_ERR_ARG, "logistic regression: C, class weights and eps must be finite and > 0");
  if (nrows == 0) return tbk_fail(err, TBK_ERR_EMPTY, "logistic regression: no examples");
  /* LIBLINEAR counts rows and feature indices (plus the bias) in int. */
  if (nrows > INT_MAX || ncols >= INT_MAX)
    return tbk_fail(err, TBK_ERR_ARG, "logistic regression: more than INT_MAX rows or columns");
  if (!y) return tbk_fail(err, TBK_ERR_ARG, "logistic regression: NULL input");
  size_t pos = 0;
  for (size_t r = 0; r < nrows; r++) {
    if (y[r] != 1 && y[r] != -1)
      return tbk_fail(err, TBK_ERR_ARG, "logistic regression: label of row %zu is %d, not +1/-1", r, y[r]);
    pos += y[r] == 1;
  }
  if (pos == 0 || pos == nrows)
    return tbk_fail(err, TBK_ERR_EMPTY, "logistic regression: only %s examples",
                    pos ? "template (+1)" : "content (-1)");
  return TBK_OK;
}

static tbk_status check_row(size_t r, uint32_t ncols, const uint32_t *idx, const double *val, size_t k,
                            tbk_error *err) {
  for (size_t i = 0; i < k; i++) {
    if (idx[i] < 1 || idx[i] > ncols || (i && idx[i] <= idx[i - 1]))
      return tbk_fail(err, TBK_ERR_ARG, "logistic regression: row %zu: feature indices must be ascending in 1..%u", r,
                      (unsigned)ncols);
    if (!isfinite(val[i])) return tbk_fail(err, TBK_ERR_ARG, "logistic regression: row %zu: non-finite value", r);
  }
  return TBK_OK;
}

/* LIBLINEAR's rows, built straight from the caller's rows (no matrix of
 * our own beside them): each row's entries, the bias node and the -1
 * terminator, in one array grown as rows come. */
static tbk_status build_problem(size_t nrows, uint32_t ncols, size_t max_row, tbk_lr_row_fn row, void *ctx,
                                const signed char *y, struct problem *prob, struct feature_node **nodes_out,
                                tbk_error *err) {
  uint32_t *idx = malloc((max_row + 1) * sizeof *idx);
  double *val = malloc((max_row + 1) * sizeof *val);
  size_t *start = malloc(nrows * sizeof *start), n = 0, cap = 0;
  struct feature_node *nodes = NULL;
  prob->x = malloc(nrows * sizeof *prob->x);
  prob->y = malloc(nrows * sizeof *prob->y);
  tbk_status st = idx && val && start && prob->x && prob->y ? TBK_OK : TBK_ERR_NOMEM;
  for (size_t r = 0; r < nrows && !st; r++) {
    size_t k = row(ctx, r, idx, val);
    if (k > max_row) {
      st = tbk_fail(err, TBK_ERR_ARG, "logistic regression: row %zu too long", r);
      break;
    }
    if ((st = check_row(r, ncols, idx, val, k, err))) break;
    if (k + 2 > SIZE_MAX / sizeof *nodes - n || tbk_grow(&nodes, &cap, n + k + 2, sizeof *nodes)) {
      st = TBK_ERR_NOMEM;
      break;
    }
    start[r] = n;
    prob->y[r] = y[r];
    for (size_t i = 0; i < k; i++) nodes[n++] = (struct feature_node){(int)idx[i], val[i]};
    nodes[n++] = (struct feature_node){(int)ncols + 1, 1.0};
    nodes[n++] = (struct feature_node){-1, 0.0};
  }
  for (size_t r = 0; r < nrows && !st; r++) prob->x[r] = nodes + start[r];
  if (st == TBK_ERR_NOMEM) tbk_fail(err, st, "logistic regression: out of memory");
  free(idx);
  free(val);
  free(start);
  *nodes_out = nodes;
  prob->l = (int)nrows;
  prob->n = (int)ncols + 1;
  prob->bias = 1.0;
  return st;
}

static void set_parameter(struct parameter *param, const tbk_lr_options *opt) {
  param->solver_type = L2R_LR;
  param->eps = opt->eps;
  param->C = opt->C;
  param->nr_weight = 2;
  param->weight_label[0] = 1;
  param->weight[0] = opt->weight_pos;
  param->weight_label[1] = -1;
  param->weight[1] = opt->weight_neg;
  param->p = 0.1; /* unused by -s 0; LIBLINEAR's default */
  param->init_sol = NULL;
}

static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;
static void set_quiet(void) { set_print_string_function(quiet); }

tbk_status tbk_lr_train_rows(size_t nrows, uint32_t ncols, size_t max_row, tbk_lr_row_fn row, void *ctx,
                             const signed char *y, const tbk_lr_options *opt, double **w_out, size_t *nw_out,
                             tbk_error *err) {
  *w_out = NULL;
  *nw_out = 0;
  tbk_lr_options def;
  if (!opt) {
    tbk_lr_options_init(&def);
    opt = &def;
  }
  tbk_status st = check_options(nrows, ncols, y, opt, err);
  if (st) return st;
  struct problem prob = {0};
  struct parameter param = {0};
  struct model *model = NULL;
  struct feature_node *nodes = NULL;
  param.weight_label = malloc(2 * sizeof *param.weight_label);
  param.weight = malloc(2 * sizeof *param.weight);
  if (!param.weight_label || !param.weight) st = tbk_fail(err, TBK_ERR_NOMEM, "logistic regression: out of memory");
  if (!st) st = build_problem(nrows, ncols, max_row, row, ctx, y, &prob, &nodes, err);
  if (st) goto done;
  set_parameter(&param, opt);
  const char *bad = check_parameter(&prob, &param);
  if (bad) {
    st = tbk_fail(err, TBK_ERR_ARG, "logistic regression: %s", bad);
    goto done;
  }
  pthread_once(&quiet_once, set_quiet); /* process-wide: once, not once per (concurrent) fit */
  model = train(&prob, &param);
  double *w = NULL;
  if (!model || model->nr_class != 2 || !model->w || !model->label || !(w = malloc(((size_t)ncols + 1) * sizeof *w))) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "logistic regression: training failed");
    goto done;
  }
  /* LIBLINEAR's decision value favours label[0], the first label seen. */
  double sign = model->label[0] == 1 ? 1.0 : -1.0;
  for (size_t j = 0; j <= ncols; j++) w[j] = sign * model->w[j];
  *w_out = w;
  *nw_out = (size_t)ncols + 1;
done:
  if (model) free_and_destroy_model(&model);
  destroy_param(&param);
  free(nodes);
  free(prob.x);
  free(prob.y);
  return st;
}

static size_t sparse_row(void *ctx, size_t r, uint32_t *idx, double *val) {
  const tbk_sparse *X = ctx;
  size_t k = X->row_ptr[r + 1] - X->row_ptr[r];
  if (k) {
    memcpy(idx, X->index + X->row_ptr[r], k * sizeof *idx);
    memcpy(val, X->value + X->row_ptr[r], k * sizeof *val);
  }
  return k;
}

tbk_status tbk_lr_train(const tbk_sparse *X, const signed char *y, const tbk_lr_options *opt, double **w_out,
                        size_t *nw_out, tbk_error *err) {
  *w_out = NULL;
  *nw_out = 0;
  if (X->nrows && (!X->row_ptr || (X->row_ptr[X->nrows] && (!X->index || !X->value))))
    return tbk_fail(err, TBK_ERR_ARG, "logistic regression: NULL input");
  if (X->nrows && X->row_ptr[0] != 0) return tbk_fail(err, TBK_ERR_ARG, "logistic regression: row_ptr[0] != 0");
  size_t max_row = 0;
  for (size_t r = 0; r < X->nrows; r++) {
    if (X->row_ptr[r + 1] < X->row_ptr[r])
      return tbk_fail(err, TBK_ERR_ARG, "logistic regression: row_ptr decreases at row %zu", r);
    if (X->row_ptr[r + 1] - X->row_ptr[r] > max_row) max_row = X->row_ptr[r + 1] - X->row_ptr[r];
  }
  return tbk_lr_train_rows(X->nrows, X->ncols, max_row, sparse_row, (void *)X, y, opt, w_out, nw_out, err);
}
