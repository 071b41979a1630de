/* tbk-eval cv's view of a dataset's rows (cv_eval.c): their labels and
 * sites, and a site's figures at an operating threshold. */
#ifndef TBK_CV_EVAL_H
#define TBK_CV_EVAL_H
#include "eval.h"

typedef struct tbk_cv_rows {
  size_t rows;
  int *label;             /* owned, per row: +1 template, -1 not */
  size_t *site_of;        /* owned, per row: its site's index in site_name */
  const char **site_name; /* owned array, the names the dataset's
                             (interned: pointer identity is site identity),
                             in first-seen order */
  size_t nsites;          /* in site_name */
  size_t positives;       /* template rows */
} tbk_cv_rows;
/* Errors: TBK_ERR_NOMEM. */
tbk_status tbk_cv_rows_index(const tbk_dataset *ds, tbk_cv_rows *out, tbk_error *err);
void tbk_cv_rows_free(tbk_cv_rows *r);

/* Site k's rows that have a score (NaN: never held out) at threshold thr. */
typedef struct tbk_cv_site {
  size_t rows, templates; /* scored rows, template rows among them */
  size_t tp, fp;          /* rows scored >= thr: template, not */
  tbk_ranking rank;       /* owned (tbk_ranking_free): the site's ranking */
} tbk_cv_site;
/* ss and sy: scratch of r->rows entries. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_cv_site_at(const tbk_cv_rows *r, const double *scores, size_t k, double thr, double *ss, int *sy,
                          tbk_cv_site *out, tbk_error *err);
#endif
