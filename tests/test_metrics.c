/* Ranking metrics: hand-computed PR curves, average precision (the
 * scikit-learn step-wise definition), recall at a precision target, ROC-AUC,
 * tie handling and degenerate inputs. */
#include <stdlib.h>

#include "check.h"
#include "ml.h"

static void test_basic_curve(void) {
  /* scores 0.9 0.8 0.7 0.6, labels + - + -:
   *   t=0.9: tp1 fp0 P=1   R=1/2
   *   t=0.8: tp1 fp1 P=1/2 R=1/2
   *   t=0.7: tp2 fp1 P=2/3 R=1
   *   t=0.6: tp2 fp2 P=1/2 R=1
   *   AP = (1/2 - 0)*1 + 0*(1/2) + (1 - 1/2)*(2/3) + 0 = (1 + 2/3)/2 = 0.8333
   * (sklearn.metrics.average_precision_score([1,0,1,0],[.9,.8,.7,.6])
   *  gives 0.8333333333333333.) */
  double s[4] = {0.6, 0.9, 0.7, 0.8}; /* input order must not matter */
  signed char y[4] = {-1, 1, 1, -1};
  tbk_pr_point *pts = NULL;
  size_t n = 0;
  tbk_error e;
  CHECK_INT(tbk_pr_curve(s, y, 4, &pts, &n, &e), TBK_OK);
  CHECK_INT(n, 4);
  if (n != 4) return;
  double thr[4] = {0.9, 0.8, 0.7, 0.6}, P[4] = {1, 0.5, 2.0 / 3, 0.5}, R[4] = {0.5, 0.5, 1, 1};
  size_t tp[4] = {1, 1, 2, 2}, fp[4] = {0, 1, 1, 2};
  for (int k = 0; k < 4; k++) {
    CHECK_NEAR(pts[k].threshold, thr[k], 0);
    CHECK_NEAR(pts[k].precision, P[k], 1e-15);
    CHECK_NEAR(pts[k].recall, R[k], 1e-15);
    CHECK_INT(pts[k].tp, tp[k]);
    CHECK_INT(pts[k].fp, fp[k]);
  }
  CHECK_NEAR(tbk_average_precision(pts, n), 5.0 / 6.0, 1e-15);

  /* Recall at precision. */
  double r, p, t;
  CHECK_INT(tbk_recall_at_precision(pts, n, 0.9, &r, &p, &t), 0);
  CHECK_NEAR(r, 0.5, 0);
  CHECK_NEAR(t, 0.9, 0);
  CHECK_NEAR(p, 1.0, 0);
  /* 0.6: the t=0.7 point (P=2/3) reaches recall 1. */
  CHECK_INT(tbk_recall_at_precision(pts, n, 0.6, &r, &p, &t), 2);
  CHECK_NEAR(r, 1.0, 0);
  CHECK_NEAR(t, 0.7, 0);
  /* 0.5: t=0.7 and t=0.6 both give recall 1; the higher threshold (higher
   * precision) is chosen. */
  CHECK_INT(tbk_recall_at_precision(pts, n, 0.5, &r, &p, &t), 2);
  CHECK_NEAR(t, 0.7, 0);
  CHECK_NEAR(p, 2.0 / 3, 1e-15);
  /* Unreachable target: nothing predicted positive. */
  CHECK(tbk_recall_at_precision(pts, n, 1.01, &r, &p, &t) == (size_t)-1);
  CHECK_NEAR(r, 0, 0);
  CHECK(isinf(t) && t > 0);
  CHECK(tbk_recall_at_precision(pts, n, 1.0, NULL, NULL, NULL) == 0);

  double auc;
  /* Positive-negative pairs: (.9,.8) (.9,.6) (.7,.6) won, (.7,.8) lost. */
  CHECK_INT(tbk_roc_auc(s, y, 4, &auc, &e), TBK_OK);
  CHECK_NEAR(auc, 0.75, 1e-15);
  free(pts);
}

static void test_ties(void) {
  /* scores 0.9 0.5 0.5 0.1, labels + + - -: the tied pair is one step.
   *   t=0.9: P=1 R=1/2;  t=0.5: tp2 fp1 P=2/3 R=1;  t=0.1: P=1/2 R=1
   *   AP = 1/2*1 + 1/2*2/3 = 0.8333 (sklearn agrees: ties are one threshold)
   *   AUC = (1 + 1 + 1/2 + 1) / 4 = 0.875 */
  double s1[4] = {0.9, 0.5, 0.5, 0.1}, s2[4] = {0.5, 0.1, 0.5, 0.9};
  signed char y1[4] = {1, 1, -1, -1}, y2[4] = {-1, -1, 1, 1};
  for (int v = 0; v < 2; v++) {
    tbk_pr_point *pts = NULL;
    size_t n = 0;
    tbk_error e;
    CHECK_INT(tbk_pr_curve(v ? s2 : s1, v ? y2 : y1, 4, &pts, &n, &e), TBK_OK);
    CHECK_INT(n, 3);
    if (n == 3) {
      CHECK_NEAR(pts[1].threshold, 0.5, 0);
      CHECK_INT(pts[1].tp, 2);
      CHECK_INT(pts[1].fp, 1);
      CHECK_NEAR(pts[1].precision, 2.0 / 3, 1e-15);
    }
    CHECK_NEAR(tbk_average_precision(pts, n), 5.0 / 6.0, 1e-15);
    double auc;
    CHECK_INT(tbk_roc_auc(v ? s2 : s1, v ? y2 : y1, 4, &auc, &e), TBK_OK);
    CHECK_NEAR(auc, 0.875, 1e-15);
    free(pts);
  }
  /* All scores equal: one point at the base rate; AUC one half. */
  double s[5] = {2, 2, 2, 2, 2};
  signed char y[5] = {1, -1, -1, 1, -1};
  tbk_pr_point *pts;
  size_t n;
  tbk_error e;
  CHECK_INT(tbk_pr_curve(s, y, 5, &pts, &n, &e), TBK_OK);
  CHECK_INT(n, 1);
  CHECK_NEAR(tbk_average_precision(pts, n), 0.4, 1e-15);
  free(pts);
  double auc;
  CHECK_INT(tbk_roc_auc(s, y, 5, &auc, &e), TBK_OK);
  CHECK_NEAR(auc, 0.5, 0);
}

static void test_larger_by_hand(void) {
  /* 8 scores, labels by rank: + + - + - - + -  (3 thresholds reach P >= .75)
   * rank: 1  2  3  4  5  6  7  8
   *  P:   1  1 2/3 3/4 3/5 1/2 4/7 1/2     R: 1/4 1/2 1/2 3/4 3/4 3/4 1 1
   *  AP = 1/4*1 + 1/4*1 + 1/4*3/4 + 1/4*4/7 = 0.25 + 0.25 + 0.1875 + 0.142857
   *     = 0.8303571428... */
  double s[8] = {8, 7, 6, 5, 4, 3, 2, 1};
  signed char y[8] = {1, 1, -1, 1, -1, -1, 1, -1};
  tbk_pr_point *pts;
  size_t n;
  tbk_error e;
  CHECK_INT(tbk_pr_curve(s, y, 8, &pts, &n, &e), TBK_OK);
  CHECK_INT(n, 8);
  CHECK_NEAR(tbk_average_precision(pts, n), 0.25 + 0.25 + 0.1875 + 1.0 / 7, 1e-15);
  double r, t;
  CHECK_INT(tbk_recall_at_precision(pts, n, 0.75, &r, NULL, &t), 3);
  CHECK_NEAR(r, 0.75, 0);
  CHECK_NEAR(t, 5, 0);
  CHECK_INT(tbk_recall_at_precision(pts, n, 0.55, &r, NULL, &t), 6);
  CHECK_NEAR(r, 1, 0);
  CHECK_NEAR(t, 2, 0);
  free(pts);
  /* AUC: negatives at ranks 3,5,6,8 are beaten by 2,3,3,4 positives
   * -> 12 of 16 pairs. */
  double auc;
  CHECK_INT(tbk_roc_auc(s, y, 8, &auc, &e), TBK_OK);
  CHECK_NEAR(auc, 12.0 / 16, 1e-15);
}

static void test_degenerate(void) {
  tbk_pr_point *pts = (tbk_pr_point *)1;
  size_t n = 5;
  tbk_error e;
  double auc;
  CHECK_INT(tbk_pr_curve(NULL, NULL, 0, &pts, &n, &e), TBK_ERR_EMPTY);
  CHECK(pts == NULL && n == 0);
  CHECK_INT(tbk_roc_auc(NULL, NULL, 0, &auc, &e), TBK_ERR_EMPTY);
  double s[3] = {0.2, 0.4, 0.6};
  signed char neg[3] = {-1, -1, -1}, pos[3] = {1, 1, 1}, bad[3] = {1, 2, -1};
  CHECK_INT(tbk_pr_curve(s, neg, 3, &pts, &n, &e), TBK_ERR_EMPTY);
  CHECK_INT(tbk_roc_auc(s, neg, 3, &auc, &e), TBK_ERR_EMPTY);
  CHECK_INT(tbk_roc_auc(s, pos, 3, &auc, &e), TBK_ERR_EMPTY);
  CHECK_INT(tbk_pr_curve(s, bad, 3, &pts, &n, &e), TBK_ERR_ARG);
  /* Only positives: precision 1 everywhere, AP 1. */
  CHECK_INT(tbk_pr_curve(s, pos, 3, &pts, &n, &e), TBK_OK);
  CHECK_NEAR(tbk_average_precision(pts, n), 1.0, 0);
  free(pts);
  /* NaN is an error; infinities are ordinary extreme scores. */
  double sn[3] = {0.2, NAN, 0.6}, si[3] = {-INFINITY, INFINITY, 0.5};
  signed char y[3] = {1, 1, -1};
  CHECK_INT(tbk_pr_curve(sn, y, 3, &pts, &n, &e), TBK_ERR_ARG);
  CHECK_INT(e.code, TBK_ERR_ARG);
  CHECK_INT(tbk_roc_auc(sn, y, 3, &auc, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_pr_curve(si, y, 3, &pts, &n, &e), TBK_OK);
  CHECK_INT(n, 3);
  if (n == 3) CHECK(isinf(pts[0].threshold) && pts[0].threshold > 0);
  free(pts);
  CHECK_NEAR(tbk_average_precision(NULL, 0), 0, 0);
  CHECK(tbk_recall_at_precision(NULL, 0, 0.5, NULL, NULL, NULL) == (size_t)-1);
}

int main(void) {
  test_basic_curve();
  test_ties();
  test_larger_by_hand();
  test_degenerate();
  return check_report();
}
