/* tbk_train_options.sparse_intervals (tbk-train --sparse-intervals): each
 * MDL-binned input's most frequent interval is left out of the fit, so the
 * written model has weight 0 there and everything else (encoder, format,
 * prediction code) as without it; the model it gives predicts close to the
 * reference encoding's. Also the large-data preset (with --encoding mdl) and
 * tbk_train_consume, which frees the rows before LIBLINEAR's fit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "tbk_internal.h"

enum { DIM = 5, SITES = 6, PER_SITE = 80 };

/* f0 separates the classes over a range (several cuts), f1 is mostly 0 and
 * set on template rows, f2 a count that leans content, f3 noise, f4 a
 * ratio; words lean one way or the other. */
static tbk_dataset *toy_dataset(void) {
  tbk_dataset *ds;
  tbk_error err;
  if (tbk_dataset_new("test-schema:1", DIM, 64, &ds, &err)) return NULL;
  unsigned seed = 11;
  for (int site = 0; site < SITES; site++) {
    char name[16];
    snprintf(name, sizeof name, "site%d", site);
    for (int i = 0; i < PER_SITE; i++) {
      int label = i % 3 == 0 ? -1 : 1;
      double u[4];
      for (int k = 0; k < 4; k++) {
        seed = seed * 1103515245u + 12345u;
        u[k] = (double)(seed >> 16 & 0x3FF) / 1023.0;
      }
      double v[DIM] = {label > 0 ? 2.0 + u[0] * 6 : u[0] * 5, label > 0 && u[1] < 0.4 ? 1.0 + (double)(i % 3) : 0.0,
                       label > 0 ? (double)(i % 4) : (double)(2 + i % 7), u[2] < 0.5 ? 0.0 : u[2],
                       u[3] * (label > 0 ? 0.6 : 1.0)};
      uint32_t w[2] = {label > 0 ? 1u + (uint32_t)(i % 6) : 20u + (uint32_t)(i % 6), 40u + (uint32_t)(site % 5)};
      uint32_t c[2] = {1 + (uint32_t)(i % 2), 1};
      if (u[1] < 0.15) w[0] = 30; /* some rows with a word of neither side */
      if (u[2] > 0.7) w[0] = label > 0 ? 20u + (uint32_t)(i % 6) : 1u + (uint32_t)(i % 6); /* and of the other */
      if (tbk_dataset_add(ds, name, label, v, w, c, 2, &err)) {
        tbk_dataset_free(ds);
        return NULL;
      }
    }
  }
  return ds;
}

static void toy_options(tbk_train_options *opt, tbk_parts parts, unsigned cv, int sparse) {
  tbk_train_options_init(opt);
  opt->parts = parts;
  opt->cv_folds = cv;
  opt->dedup = 0; /* every row is a training row: the test counts intervals over all of them */
  opt->max_site_rows = 0;
  opt->sparse_intervals = sparse;
}

static tbk_model *train(const tbk_dataset *ds, tbk_parts parts, unsigned cv, int sparse) {
  tbk_train_options opt;
  toy_options(&opt, parts, cv, sparse);
  tbk_model *m = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_train(ds, &opt, NULL, NULL, &m, &err), TBK_OK);
  if (!m) fprintf(stderr, "train: %s\n", err.msg);
  return m;
}

/* The sparse fit changes weights, never the encoding. */
static void check_same_encoder(const tbk_encoder *a, const tbk_encoder *b) {
  CHECK_INT(a->nin, b->nin);
  CHECK_INT(a->ncols, b->ncols);
  for (uint32_t j = 0; j < a->nin && j < b->nin; j++) {
    CHECK_INT(a->bin_col[j], b->bin_col[j]);
    CHECK_INT(a->raw_col[j], b->raw_col[j]);
    CHECK_INT(a->ncuts[j], b->ncuts[j]);
    if (a->ncuts[j] == b->ncuts[j] && a->ncuts[j])
      CHECK(memcmp(a->cuts[j], b->cuts[j], a->ncuts[j] * sizeof *a->cuts[j]) == 0);
  }
}

/* Exactly one interval of every binned input has weight +0 (not -0: the
 * model file says "0"), and the reference fit has none. */
static void check_one_zero_per_input(const tbk_model *sparse, const tbk_model *ref) {
  const tbk_encoder *e = &sparse->enc;
  size_t binned = 0;
  for (uint32_t j = 0; j < e->nin; j++) {
    if (!e->bin_col[j]) continue;
    binned++;
    int zeros = 0, ref_zeros = 0;
    for (size_t b = 0; b <= e->ncuts[j]; b++) {
      double w = sparse->w[e->bin_col[j] + b - 1];
      zeros += w == 0 && !signbit(w);
      ref_zeros += ref->w[e->bin_col[j] + b - 1] == 0;
    }
    CHECK_INT(zeros, 1);
    CHECK_INT(ref_zeros, 0);
  }
  CHECK(binned >= 3); /* the toy data must exercise the option */
}

/* Non-text model: the zero weight sits on the interval most rows fall in
 * (the lowest on ties), and probabilities stay within 0.1 of the reference
 * fit's on every row (L2 now shrinks the other intervals towards the
 * dropped one instead of towards their mean: a small shift, not a new
 * model). */
static void check_nontext(const tbk_dataset *ds) {
  tbk_model *ref = train(ds, TBK_PARTS_NONTEXT, 0, 0), *sp = train(ds, TBK_PARTS_NONTEXT, 0, 1);
  if (!ref || !sp) goto done;
  check_same_encoder(&ref->enc, &sp->enc);
  check_one_zero_per_input(sp, ref);
  const tbk_encoder *e = &sp->enc;
  size_t n = tbk_dataset_rows(ds);
  double x[DIM + 1];
  for (uint32_t j = 0; j < DIM; j++) {
    if (!e->bin_col[j]) continue;
    size_t count[64] = {0}, best = 0;
    for (size_t r = 0; r < n; r++) {
      tbk_dataset_dense(ds, r, x);
      count[tbk_mdl_bin(e->cuts[j], e->ncuts[j], x[j])]++;
    }
    for (size_t b = 1; b <= e->ncuts[j]; b++)
      if (count[b] > count[best]) best = b;
    CHECK_NEAR(sp->w[e->bin_col[j] + best - 1], 0.0, 0);
  }
  uint32_t idx[2 * (DIM + 1)];
  double val[2 * (DIM + 1)], maxdiff = 0;
  for (size_t r = 0; r < n; r++) {
    tbk_dataset_dense(ds, r, x);
    size_t k = tbk_encode(e, x, 0.0, idx, val);
    double d = fabs(tbk_lr_prob(sp->w, e->ncols, idx, val, k) - tbk_lr_prob(ref->w, e->ncols, idx, val, k));
    if (d > maxdiff) maxdiff = d;
  }
  CHECK(maxdiff < 0.1);
  CHECK(maxdiff > 0); /* a different fit, not the same one */
done:
  tbk_model_free(ref);
  tbk_model_free(sp);
}

/* The model's file reads back into a model that writes the same file. */
static void check_round_trip(const tbk_model *m) {
  tbk_buf a = {0}, b = {0};
  tbk_model *back = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_model_write(m, &a, &err), TBK_OK);
  CHECK_INT(tbk_model_parse(a.data, a.len, &back, &err), TBK_OK);
  if (back) {
    CHECK_INT(tbk_model_write(back, &b, &err), TBK_OK);
    CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
  }
  tbk_buf_free(&a);
  tbk_buf_free(&b);
  tbk_model_free(back);
}

/* The whole model (NB score input included) with cross-site CV: its CV
 * PR-AUC within 0.02 of the reference's, and the file reads back into the
 * same model (the zeros are ordinary weights to the format). */
static void check_full(const tbk_dataset *ds) {
  tbk_model *ref = train(ds, TBK_PARTS_ALL, 3, 0), *sp = train(ds, TBK_PARTS_ALL, 3, 1);
  if (!ref || !sp) goto done;
  check_same_encoder(&ref->enc, &sp->enc);
  check_one_zero_per_input(sp, ref);
  CHECK(fabs(sp->cv_pr_auc - ref->cv_pr_auc) < 0.02);
  check_round_trip(sp);
done:
  tbk_model_free(ref);
  tbk_model_free(sp);
}

/* tbk_train_consume (what tbk-train calls): the same model file as
 * tbk_train's, by default and with the large-data options (--sparse-intervals,
 * --encoding mdl too), and the dataset's packed rows are gone afterwards. */
static void check_consume(int sparse, tbk_encoding enc) {
  tbk_dataset *ds = toy_dataset(), *ds2 = toy_dataset();
  tbk_train_options opt;
  toy_options(&opt, TBK_PARTS_ALL, 3, sparse);
  opt.encoding = enc;
  tbk_model *ref = NULL, *con = NULL;
  tbk_buf a = {0}, b = {0};
  tbk_error err = {0};
  if (!ds || !ds2) goto done;
  CHECK_INT(tbk_train(ds, &opt, NULL, NULL, &ref, &err), TBK_OK);
  CHECK(ds2->bytes != NULL && ds2->nbytes > 0);
  CHECK_INT(tbk_train_consume(ds2, &opt, NULL, NULL, &con, &err), TBK_OK);
  CHECK(ds2->bytes == NULL && ds2->nbytes == 0); /* released */
  CHECK(ds->bytes != NULL);                      /* tbk_train leaves them */
  if (!ref || !con) goto done;
  CHECK_INT(tbk_model_write(ref, &a, &err), TBK_OK);
  CHECK_INT(tbk_model_write(con, &b, &err), TBK_OK);
  CHECK(a.len > 0 && a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
done:
  tbk_buf_free(&a);
  tbk_buf_free(&b);
  tbk_model_free(ref);
  tbk_model_free(con);
  tbk_dataset_free(ds);
  tbk_dataset_free(ds2); /* rows released: freeing must still work (ASan) */
}

/* The large-data preset (--sparse-intervals --encoding mdl: interval
 * indicators only, no scaled values): no input has a raw column, each
 * binned input one zero weight, the file reads back into the same model,
 * and its cross-site CV PR-AUC is within 0.02 of the default's. */
static void check_preset(const tbk_dataset *ds) {
  tbk_train_options opt;
  toy_options(&opt, TBK_PARTS_ALL, 3, 1);
  opt.encoding = TBK_ENC_MDL;
  tbk_model *ref = train(ds, TBK_PARTS_ALL, 3, 0), *m = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_train(ds, &opt, NULL, NULL, &m, &err), TBK_OK);
  if (!ref || !m) goto done;
  size_t raw = 0, binned = 0;
  for (uint32_t j = 0; j < m->enc.nin; j++) {
    raw += m->enc.raw_col[j] != 0;
    binned += m->enc.bin_col[j] != 0;
  }
  CHECK_INT(raw, 0);
  CHECK(binned >= 3);
  CHECK(m->enc.ncols < ref->enc.ncols);
  CHECK(fabs(m->cv_pr_auc - ref->cv_pr_auc) < 0.02);
  check_round_trip(m);
done:
  tbk_model_free(ref);
  tbk_model_free(m);
}

int main(void) {
  tbk_dataset *ds = toy_dataset();
  CHECK(ds != NULL);
  if (!ds) return check_report();
  check_nontext(ds);
  check_full(ds);
  check_preset(ds);
  check_consume(0, TBK_ENC_BOTH);
  check_consume(1, TBK_ENC_MDL);
  tbk_dataset_free(ds);
  return check_report();
}
