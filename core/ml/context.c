/* The content stage's contextual pass. A unit's own features say little
 * when it is short ("Read more", a date, a one-line paragraph); what its
 * neighbours were judged says much: a short line between two paragraphs
 * of the article is the article's. The first pass scores every unit; the
 * second pass sees each unit's features plus its neighbours' first-pass
 * probabilities. It is trained on out-of-fold first-pass probabilities
 * (folds by site), so the second pass learns how far to trust first-pass
 * scores of sites the first pass has never seen. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

tbk_status tbk_train_context(const tbk_dataset *ds, const tbk_train_options *opt, unsigned folds,
                             tbk_progress_fn progress, void *pctx, tbk_model **out, tbk_error *err) {
  *out = NULL;
  tbk_train_options o = *opt;
  o.cv_folds = 0;
  double *oof = NULL;
  if (progress) progress(pctx, "contextual pass: out-of-fold first-pass probabilities");
  tbk_status st = tbk_crossval(ds, &o, folds, progress, pctx, &oof, err);
  if (st) return st;
  char schema[sizeof ds->schema + sizeof TBK_CTX_SUFFIX];
  if (strlen(ds->schema) + sizeof TBK_CTX_SUFFIX > sizeof ds->schema) {
    free(oof);
    return tbk_fail(err, TBK_ERR_ARG, "schema id too long for a contextual pass");
  }
  snprintf(schema, sizeof schema, "%s%s", ds->schema, TBK_CTX_SUFFIX);
  tbk_dataset *ds2 = NULL;
  uint32_t dim2 = ds->dim + TBK_CTX_DIM;
  st = tbk_dataset_new(schema, dim2, ds->word_dims, &ds2, err);
  double *row = malloc((size_t)dim2 * sizeof *row), *chars = malloc((ds->n ? ds->n : 1) * sizeof *chars);
  size_t wmax = ds->max_words ? ds->max_words : 1;
  uint32_t *widx = malloc(wmax * sizeof *widx), *wcnt = malloc(wmax * sizeof *wcnt);
  tbk_term *terms = malloc(wmax * sizeof *terms);
  if (!st && (!row || !chars || !widx || !wcnt || !terms)) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (!st) {
    ds2->page = ds->page;
    ds2->feat = ds->feat;
    /* rows that were never held out (a site beyond k folds) have no
     * out-of-fold score: they stand for no evidence */
    for (size_t r = 0; r < ds->n; r++) {
      if (isnan(oof[r])) oof[r] = 0.5;
      chars[r] = tbk_dataset_value(ds, r, 0); /* u.chars is the first unit feature */
    }
  }
  for (size_t a = 0; !st && a < ds->n;) {
    size_t b = a + 1;
    while (b < ds->n && ds->pageno[b] == ds->pageno[a]) b++;
    for (size_t r = a; !st && r < b; r++) {
      tbk_dataset_dense(ds, r, row);
      tbk_context_features(oof + a, chars + a, b - a, r - a, row + ds->dim);
      size_t nw = tbk_dataset_words(ds, r, terms);
      for (size_t k = 0; k < nw; k++) {
        widx[k] = terms[k].index + 1;
        wcnt[k] = terms[k].count >= 1 ? (uint32_t)terms[k].count : 1;
      }
      st = tbk_dataset_add(ds2, ds->sites[ds->site[r]], ds->label[r], row, widx, wcnt, nw, err);
    }
    a = b;
  }
  free(oof);
  free(row);
  free(chars);
  free(widx);
  free(wcnt);
  free(terms);
  tbk_model *m1 = NULL, *m2 = NULL;
  if (!st) {
    if (progress) progress(pctx, "contextual pass: first pass on all sites");
    st = tbk_train(ds, &o, progress, pctx, &m1, err);
  }
  if (!st) {
    if (progress) progress(pctx, "contextual pass: second pass");
    st = tbk_train(ds2, opt, progress, pctx, &m2, err);
  }
  tbk_dataset_free(ds2);
  if (st) {
    tbk_model_free(m1);
    tbk_model_free(m2);
    return st;
  }
  /* The operating points describe the final (second-pass) probability. */
  memcpy(m1->ops, m2->ops, sizeof m1->ops);
  m1->n_ops = m2->n_ops;
  m1->cv_pr_auc = m2->cv_pr_auc;
  m1->context = m2;
  *out = m1;
  return TBK_OK;
}
