/* L2-regularized logistic regression through LIBLINEAR (-s 0 -B 1). Only
 * training touches LIBLINEAR: the result is a plain weight vector oriented
 * towards +1, and prediction is a dot product here, so a model file never
 * depends on LIBLINEAR's own format or label order. */
#include <limits.h>
#include <linear.h>
#include <math.h>
#include <stdlib.h>

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

static tbk_status check_input(const tbk_sparse *X, const signed char *y,
                              const tbk_lr_options *o, tbk_error *err) {
  if (!positive(o->C) || !positive(o->weight_pos) ||
      !positive(o->weight_neg) || !positive(o->eps))
    return tbk_fail(err, TBK_ERR_ARG,
                    "logistic regression: C, class weights and eps must be "
                    "finite and > 0");
  if (X->nrows == 0)
    return tbk_fail(err, TBK_ERR_EMPTY, "logistic regression: no examples");
  /* LIBLINEAR counts rows and feature indices (plus the bias) in int. */
  if (X->nrows > INT_MAX || X->ncols >= INT_MAX)
    return tbk_fail(err, TBK_ERR_ARG,
                    "logistic regression: more than INT_MAX rows or columns");
  if (!X->row_ptr || !y || (X->row_ptr[X->nrows] && (!X->index || !X->value)))
    return tbk_fail(err, TBK_ERR_ARG, "logistic regression: NULL input");
  if (X->row_ptr[0] != 0)
    return tbk_fail(err, TBK_ERR_ARG, "logistic regression: row_ptr[0] != 0");
  size_t pos = 0;
  for (size_t r = 0; r < X->nrows; r++) {
    if (y[r] != 1 && y[r] != -1)
      return tbk_fail(err, TBK_ERR_ARG,
                      "logistic regression: label of row %zu is %d, not +1/-1",
                      r, y[r]);
    pos += y[r] == 1;
    if (X->row_ptr[r + 1] < X->row_ptr[r])
      return tbk_fail(err, TBK_ERR_ARG,
                      "logistic regression: row_ptr decreases at row %zu", r);
    for (size_t k = X->row_ptr[r]; k < X->row_ptr[r + 1]; k++) {
      uint32_t j = X->index[k];
      if (j < 1 || j > X->ncols || (k > X->row_ptr[r] && j <= X->index[k - 1]))
        return tbk_fail(err, TBK_ERR_ARG,
                        "logistic regression: row %zu: feature indices must "
                        "be ascending in 1..%u",
                        r, (unsigned)X->ncols);
      if (!isfinite(X->value[k]))
        return tbk_fail(err, TBK_ERR_ARG,
                        "logistic regression: row %zu: non-finite value", r);
    }
  }
  if (pos == 0 || pos == X->nrows)
    return tbk_fail(err, TBK_ERR_EMPTY,
                    "logistic regression: only %s examples",
                    pos ? "template (+1)" : "content (-1)");
  return TBK_OK;
}

tbk_status tbk_lr_train(const tbk_sparse *X, const signed char *y,
                        const tbk_lr_options *opt, double **w_out,
                        size_t *nw_out, tbk_error *err) {
  *w_out = NULL;
  *nw_out = 0;
  tbk_lr_options def;
  if (!opt) {
    tbk_lr_options_init(&def);
    opt = &def;
  }
  tbk_status st = check_input(X, y, opt, err);
  if (st) return st;

  size_t nrows = X->nrows, nnz = X->row_ptr[nrows];
  int bias_index = (int)X->ncols + 1;
  struct problem prob = {0};
  struct parameter param = {0};
  struct model *model = NULL;
  double *w = NULL;
  /* Each row gets its entries, the bias node and the -1 terminator. */
  struct feature_node *nodes = NULL;
  if (nnz <= (SIZE_MAX / sizeof *nodes) - 2 * nrows)
    nodes = malloc((nnz + 2 * nrows) * sizeof *nodes);
  prob.x = malloc(nrows * sizeof *prob.x);
  prob.y = malloc(nrows * sizeof *prob.y);
  param.weight_label = malloc(2 * sizeof *param.weight_label);
  param.weight = malloc(2 * sizeof *param.weight);
  if (!nodes || !prob.x || !prob.y || !param.weight_label || !param.weight) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "logistic regression: out of memory");
    goto done;
  }
  struct feature_node *nd = nodes;
  for (size_t r = 0; r < nrows; r++) {
    prob.x[r] = nd;
    prob.y[r] = y[r];
    for (size_t k = X->row_ptr[r]; k < X->row_ptr[r + 1]; k++)
      *nd++ = (struct feature_node){(int)X->index[k], X->value[k]};
    *nd++ = (struct feature_node){bias_index, 1.0};
    *nd++ = (struct feature_node){-1, 0.0};
  }
  prob.l = (int)nrows;
  prob.n = bias_index;
  prob.bias = 1.0;

  param.solver_type = L2R_LR;
  param.eps = opt->eps;
  param.C = opt->C;
  param.nr_weight = 2;
  param.weight_label[0] = 1;
  param.weight[0] = opt->weight_pos;
  param.weight_label[1] = -1;
  param.weight[1] = opt->weight_neg;
  param.p = 0.1; /* unused by -s 0; LIBLINEAR's default */
  param.init_sol = NULL;

  const char *bad = check_parameter(&prob, &param);
  if (bad) {
    st = tbk_fail(err, TBK_ERR_ARG, "logistic regression: %s", bad);
    goto done;
  }
  set_print_string_function(quiet);
  model = train(&prob, &param);
  if (!model || model->nr_class != 2 || !model->w || !model->label) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "logistic regression: training failed");
    goto done;
  }
  w = malloc(((size_t)X->ncols + 1) * sizeof *w);
  if (!w) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "logistic regression: out of memory");
    goto done;
  }
  /* LIBLINEAR's decision value favours label[0], the first label seen. */
  double sign = model->label[0] == 1 ? 1.0 : -1.0;
  for (size_t j = 0; j <= X->ncols; j++) w[j] = sign * model->w[j];
  *w_out = w;
  *nw_out = (size_t)X->ncols + 1;

done:
  if (model) free_and_destroy_model(&model);
  destroy_param(&param);
  free(nodes);
  free(prob.x);
  free(prob.y);
  return st;
}
