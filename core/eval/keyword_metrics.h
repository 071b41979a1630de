/* The keyword evaluation of Kołcz & Yih 2007 section 5: the top-N score of
 * one document and the paired t-test the paper compares settings with. */
#ifndef TBK_KEYWORD_METRICS_H
#define TBK_KEYWORD_METRICS_H
#include "keywords.h"

/* |A ∩ K_N| / min(|A|, N): K_N the first N of ranked (fewer when there are
 * fewer candidates), A the gold set. NaN when A is empty or N is 0. */
double tbk_kw_topn(const tbk_kw_cand *ranked, size_t n, const tbk_kw_gold *gold, size_t N);

/* Two-tailed paired t-test of a[i] against b[i] (i < n): the mean of
 * a - b, the t statistic (n - 1 degrees of freedom) and its p-value.
 * n < 2: all NaN. Differences all equal: t = ±inf and p = 0, or t = 0
 * and p = 1 when they are all 0. */
void tbk_paired_t(const double *a, const double *b, size_t n, double *mean_diff, double *t, double *p);

/* The pages where a[i] and (b not NULL) b[i] are both numbers: their
 * count *np, the means of a and b over them in percent (*mb 0 without b;
 * NaN with no page), and without b *p NaN, else the p-value of the paired
 * t-test of a against b over them. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_paired_compare(const double *a, const double *b, size_t n, double *ma, double *mb, size_t *np, double *p,
                              tbk_error *err);

/* P(|T| >= |t|) for Student's t with df degrees of freedom (> 0). */
double tbk_t_two_tailed(double t, double df);
#endif
