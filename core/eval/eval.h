/* Evaluation support (not part of the installed library): ranking
 * metrics, token overlap, trafilatura snippets, PR plots. */
#ifndef TBK_EVAL_H
#define TBK_EVAL_H
#include "ml.h"
#include "text.h"

/* One point of a precision-recall curve: every row scored >= threshold is
 * predicted template. */
typedef struct tbk_eval_point {
  double threshold, precision, recall;
  size_t tp, fp;
} tbk_eval_point;

/* Ranking quality of template probabilities against +1/-1 labels. Rows
 * whose score is NaN (never held out) are left out. */
typedef struct tbk_ranking {
  size_t rows;              /* rows scored */
  size_t positives;         /* template rows among them */
  double average_precision; /* step-wise AP (PR-AUC); NaN without positives */
  double roc_auc;           /* NaN when a class is absent */
  tbk_eval_point *curve;    /* owned (tbk_ranking_free): one point per
                               distinct score, by decreasing threshold */
  size_t ncurve;
} tbk_ranking;

/* Fill r (any previous content is overwritten, not freed). No row, or no
 * template row, still succeeds with NaN figures and an empty curve.
 * Errors: TBK_ERR_ARG (label not +1/-1), TBK_ERR_NOMEM. */
tbk_status tbk_ranking_compute(const double *score, const int *label, size_t n, tbk_ranking *r, tbk_error *err);
void tbk_ranking_free(tbk_ranking *r);
/* Operating point with the best recall at template precision >= target
 * (ties: highest threshold). Returns 0 and fills op, or -1 when no point
 * reaches the target (op: recall 0, precision 0, threshold +inf). */
int tbk_ranking_at_precision(const tbk_ranking *r, double target, tbk_operating_point *op);

/* Token-multiset overlap of an extraction with a gold text: both are
 * tokenized with tbk_tokenize (case-folded word tokens) and the common part
 * is the multiset intersection. P = common / pred, R = common / gold,
 * F1 = 2PR / (P + R); both empty: P = R = F1 = 1; exactly one empty:
 * P = R = F1 = 0 (the rules of bench/peers/score_dir.py). */
typedef struct tbk_overlap {
  size_t pred_tokens, gold_tokens, common;
  double precision, recall, f1;
} tbk_overlap;
tbk_status tbk_token_overlap(tbk_tokenizer *t, const char *pred, size_t pn, const char *gold, size_t gn,
                             tbk_overlap *out, tbk_error *err);

/* Mean and median of v[0..n) (v is sorted in place); NaN for n = 0. */
void tbk_mean_median(double *v, size_t n, double *mean, double *median);

/* The trafilatura evaluation's snippets: for each labelled page, text that
 * must be extracted ("with") and text that must not ("without"). */
typedef struct tbk_snippet_page {
  char *key;   /* owned by the set: the evaldata.json key */
  char **with; /* owned by the set: nwith NUL-terminated UTF-8 strings */
  size_t nwith;
  char **without; /* owned by the set */
  size_t nwithout;
} tbk_snippet_page;
typedef struct tbk_snippet_set {
  tbk_snippet_page *pages; /* owned; in file order */
  size_t n;
} tbk_snippet_set;
/* Parse trafilatura's evaldata.json: one object whose members are
 * {"with": [strings], "without": [strings], ...}; other members are
 * skipped. A streaming reader with an explicit stack (no recursion, depth
 * limit 64). Errors: TBK_ERR_FORMAT ("invalid JSON at byte N: why"),
 * TBK_ERR_NOMEM. The set is released with tbk_snippets_free. */
tbk_status tbk_snippets_parse(const char *json, size_t len, tbk_snippet_set **out, tbk_error *err);
void tbk_snippets_free(tbk_snippet_set *s);
/* Confusion counts of one page as trafilatura's evaluation defines them:
 * text and snippets are whitespace-normalized (runs of Unicode white space
 * become one space, trimmed) and a snippet is found when it is a
 * case-sensitive substring. tp = "with" found, fn = "with" missing,
 * fp = "without" found, tn = "without" absent. text NULL (no output at
 * all) scores like an empty text. Adds to *c. 0 ok, -1 out of memory. */
typedef struct tbk_snippet_counts {
  size_t tp, fn, fp, tn;
} tbk_snippet_counts;
int tbk_snippets_count(const tbk_snippet_page *p, const char *text, size_t len, tbk_snippet_counts *c);
/* One labelled page's counts added to *pc (snippets_page.c): of the
 * visible text of the page file html (the baseline), else of the
 * prediction file pred (NULL: nothing extracted), read into scratch. A
 * file that cannot be read or parsed scores as nothing extracted, reported
 * through warn(ctx, file, why) and counted in *problems. Errors:
 * TBK_ERR_NOMEM. */
tbk_status tbk_snippets_page_counts(const tbk_snippet_page *p, const char *html, const char *pred,
                                    const tbk_page_options *popt, tbk_buf *scratch, tbk_snippet_counts *pc,
                                    size_t *problems, tbk_warn_fn warn, void *ctx, tbk_error *err);
/* Precision, recall, accuracy and F1 of counts (each 0 when undefined). */
void tbk_snippet_rates(const tbk_snippet_counts *c, double *precision, double *recall, double *accuracy, double *f1);

/* A precision-recall plot as a standalone SVG document (no scripts, no
 * external resources): recall on x, precision on y, both 0..1 with ticks
 * and grid, one coloured line per curve (solid, dashed, dotted, ...), a
 * legend and a title. Curves are thinned to what changes the drawing by
 * half a pixel. base_rate (the template share, i.e. the precision of a
 * random ranking) is drawn as a grey line; NaN = none. */
typedef struct tbk_plot_curve {
  const char *label;         /* borrowed: legend text (UTF-8) */
  const tbk_eval_point *pts; /* borrowed */
  size_t n;
} tbk_plot_curve;
tbk_status tbk_pr_svg(const tbk_plot_curve *curves, size_t ncurves, const char *title, double base_rate, tbk_buf *out,
                      tbk_error *err);
#endif
