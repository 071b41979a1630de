/*
 * ml.h — the numeric core of training and prediction (internal API).
 *
 *   mdl.c     Fayyad–Irani MDLP discretization of one numeric feature
 *   nb.c      Naive Bayes text model over hashed word ids
 *   logreg.c  L2-regularized logistic regression through LIBLINEAR
 *   metrics.c precision–recall curve, average precision, ROC-AUC
 *
 * Conventions shared by every function here:
 *   - Class labels are signed chars: +1 = template (TBK_LABEL_TEMPLATE),
 *     -1 = content (TBK_LABEL_CONTENT). Any other value is TBK_ERR_ARG.
 *   - Arrays returned through `double **` / `T **` out-parameters are
 *     allocated with malloc and owned by the caller, who releases them with
 *     free(). On failure the out-parameters are set to NULL / 0.
 *   - Opaque objects (tbk_nb) follow tbk.h's rule: *_new or *_read give the
 *     caller an object released with the matching *_free (NULL accepted).
 *   - Non-finite inputs (NaN, ±inf) are rejected with TBK_ERR_ARG unless a
 *     function documents otherwise; nothing here prints or exits.
 *   - Every result is deterministic: it depends only on the input values and
 *     their order, never on time, addresses or global state.
 */
#ifndef TBK_ML_H
#define TBK_ML_H

#include <stddef.h>
#include <stdint.h>

#include "schema.h"
#include "util.h"

/* ================================================== MDL discretization */

/*
 * Cut points of one numeric feature by Fayyad & Irani (1993) multi-interval
 * discretization with the MDLP stopping rule.
 *
 * x[i], y[i] (+1/-1) and optional w[i] (NULL = every weight 1) describe n
 * samples. Weights act as multiplicities: every count in the criterion,
 * including N, is a sum of weights, so weight 3 equals three copies of the
 * sample. Samples of weight 0 are ignored; negative or non-finite weights and
 * non-finite x are TBK_ERR_ARG.
 *
 * Candidate cuts are the midpoints between adjacent distinct values that are
 * boundary points (the two values do not both hold only one and the same
 * class — Fayyad & Irani show the entropy minimum lies on such a point).
 * Within an interval S the cut of least class-information entropy
 * E = (|S1| Ent(S1) + |S2| Ent(S2)) / |S| is chosen (the lowest such cut on
 * ties, up to a relative rounding margin of 1e-12) and accepted when
 *     Gain > log2(N - 1) / N + Delta / N,
 *     Delta = log2(3^k - 2) - [k Ent(S) - k1 Ent(S1) - k2 Ent(S2)],
 * N = |S|, k, k1, k2 = number of classes present in S, S1, S2. Accepted
 * intervals are split again, breadth-first from a work queue (no recursion):
 * when max_cuts > 0 stops the search, the coarser cuts found first are kept.
 * max_cuts = 0 means no limit.
 *
 * A midpoint m between values a < b always satisfies a < m <= b (if rounding
 * would make m == a, m = b), so tbk_mdl_bin puts a and b in different
 * intervals.
 *
 * Output: *cuts_out = ascending cut points (malloc'd, caller frees; NULL when
 * there are none), *ncuts_out = their number. n = 0, a single class or a
 * single distinct value yield TBK_OK with zero cuts.
 * Cost: one O(n log n) sort, then O(n) per level of splitting.
 */
tbk_status tbk_mdl_cuts(const double *x, const signed char *y, const double *w, size_t n, size_t max_cuts,
                        double **cuts_out, size_t *ncuts_out, tbk_error *err);

/*
 * The same, with the work arrays kept in *ws between calls: a caller that
 * cuts many inputs of the same rows one after another (training: hundreds
 * of columns of up to millions of rows) allocates them once instead of
 * having them given back to the system and faulted in again for every
 * input. ws starts zeroed ({0}); tbk_mdl_scratch_free releases it. The
 * arrays hold the nonzero values only (the zeros are counted as one run).
 */
typedef struct tbk_mdl_scratch {
  void *samples, *tmp;     /* cap samples each */
  double *v, *p, *q;       /* cap runs */
  unsigned char *boundary; /* cap */
  size_t cap;
} tbk_mdl_scratch;
tbk_status tbk_mdl_cuts_with(tbk_mdl_scratch *ws, const double *x, const signed char *y, const double *w, size_t n,
                             size_t max_cuts, double **cuts_out, size_t *ncuts_out, tbk_error *err);
void tbk_mdl_scratch_free(tbk_mdl_scratch *ws);

/*
 * Index of the interval holding v, in 0..ncuts: the number of cut points
 * <= v (binary search). A value exactly equal to a cut goes to the upper
 * interval: with cuts {1.5}, bin(1.4) = 0 and bin(1.5) = bin(1.6) = 1.
 * NaN maps to interval 0; callers that must tell it apart check first.
 */
size_t tbk_mdl_bin(const double *cuts, size_t ncuts, double v);

/*
 * The MDLP test for one binary split, exposed so the numbers can be checked
 * by hand: S holds pos/neg (weighted) examples of each class and S1 the
 * pos1/neg1 of them left of the cut (S2 = the rest). Writes the information
 * gain Ent(S) - E and the acceptance threshold (log2(N-1) + Delta) / N, and
 * returns 1 when gain > threshold (the cut is accepted), else 0. Entropies
 * are in bits. Returns 0 with both outputs set to 0 when N <= 1 or S1 or
 * S2 is empty (no split).
 */
int tbk_mdlp_test(double pos, double neg, double pos1, double neg1, double *gain, double *threshold);

/* ============================================================ Naive Bayes */

/* One word feature of a document: hashed id and its count in the document. */
typedef struct tbk_term {
  uint32_t index; /* 0 .. dim-1 */
  double count;   /* > 0 (finite); Bernoulli mode only asks count > 0 */
} tbk_term;

typedef enum tbk_nb_kind {
  TBK_NB_MULTINOMIAL = 0, /* word counts (default) */
  TBK_NB_BERNOULLI = 1    /* word presence/absence over all dim words */
} tbk_nb_kind;

typedef struct tbk_nb_options {
  tbk_nb_kind kind; /* TBK_NB_MULTINOMIAL */
  uint32_t dim;     /* hashed feature space size, 1 .. 2^26 (2^18) */
  double alpha;     /* additive smoothing, > 0 and finite (1.0) */
} tbk_nb_options;

void tbk_nb_options_init(tbk_nb_options *o);

/*
 * Naive Bayes model, opaque. Life cycle: tbk_nb_new, tbk_nb_add for every
 * training document, tbk_nb_finish once, then tbk_nb_score any number of
 * times (a finished model is read-only, so concurrent scoring is safe).
 * tbk_nb_read returns a finished model. Memory: 2 * dim doubles in
 * training, plus 2 bytes an id once finished; a read model keeps 2 bytes an
 * id (4 past 65,535 distinct count pairs) and 24 bytes per distinct pair of
 * word counts.
 *
 * Estimates (c = template or content, D_c = weighted documents of class c,
 * V = dim):
 *   prior      P(c) = D_c / (D_template + D_content)     (not smoothed)
 *   multinom.  theta_ci = (n_ci + alpha) / (N_c + alpha V),
 *              n_ci = weighted count of word i in class c, N_c = sum_i n_ci
 *   Bernoulli  theta_ci = (d_ci + alpha) / (D_c + 2 alpha),
 *              d_ci = weighted documents of class c that contain word i
 * Score of a document (log-odds, natural log, positive = template):
 *   log P(template|doc) - log P(content|doc)
 *   multinom.  = log P(t)/P(c) + sum_i count_i log(theta_ti / theta_ci)
 *   Bernoulli  = log P(t)/P(c) + sum_{i present} log(theta_ti / theta_ci)
 *                + sum_{i absent} log((1-theta_ti) / (1-theta_ci))
 * A word never seen in training contributes only through the smoothing
 * (multinomial: count * log((N_c + alpha V) / (N_t + alpha V))).
 */
typedef struct tbk_nb tbk_nb;

tbk_status tbk_nb_new(const tbk_nb_options *opt, tbk_nb **out, tbk_error *err);
void tbk_nb_free(tbk_nb *nb);

/*
 * Add one training document of class label (+1/-1) counted `weight` times
 * (1.0 normally; > 0, finite). terms must have strictly ascending indices
 * < dim and counts > 0 (TBK_ERR_ARG otherwise, and the model is unchanged).
 * n = 0 is an empty document: it still counts for the prior. Fails with
 * TBK_ERR_ARG after tbk_nb_finish.
 */
tbk_status tbk_nb_add(tbk_nb *nb, int label, const tbk_term *terms, size_t n, double weight, tbk_error *err);

/* Freeze the model and precompute the per-word log ratios. TBK_ERR_EMPTY
 * when a class has no documents (no log-odds exist). Idempotent. */
tbk_status tbk_nb_finish(tbk_nb *nb, tbk_error *err);

/* Log-odds score of a document (same term rules as tbk_nb_add). Needs a
 * finished model (TBK_ERR_ARG otherwise). */
tbk_status tbk_nb_score(const tbk_nb *nb, const tbk_term *terms, size_t n, double *score, tbk_error *err);

/* Options the model was built with, and documents per class (weighted). */
const tbk_nb_options *tbk_nb_get_options(const tbk_nb *nb);
double tbk_nb_docs(const tbk_nb *nb, int label);

/*
 * Append the model as plain text to out (finished or not). Only words with a
 * non-zero count in either class are written; doubles use %.17g, so
 * tbk_nb_read gives back bit-identical counts and scores. Format (one record
 * a line, fields separated by one space):
 *   tbk-nb 1
 *   kind multinomial|bernoulli
 *   dim <dim>
 *   alpha <alpha>
 *   docs <D_template> <D_content>
 *   totals <N_template> <N_content>     (multinomial; 0 0 for Bernoulli)
 *   words <count of word lines>
 *   <index> <n_template,i> <n_content,i> (ascending index; d_ci for Bernoulli)
 *   end
 * Numbers have the C locale's form whatever the process's locale.
 */
tbk_status tbk_nb_write(const tbk_nb *nb, tbk_buf *out, tbk_error *err);

/*
 * Parse a model written by tbk_nb_write from text[0..len) (not necessarily
 * NUL-terminated), starting at its "tbk-nb" line and stopping after "end\n"
 * (or "end" at the end of text), so it can be embedded in a larger file.
 * *consumed (may be NULL) receives the bytes used. Returns a finished model;
 * any malformed, inconsistent or out-of-range value is TBK_ERR_MODEL with
 * the 1-based line number (relative to text) in the message.
 */
tbk_status tbk_nb_read(const char *text, size_t len, tbk_nb **out, size_t *consumed, tbk_error *err);

/* ===================================================== logistic regression */

/*
 * Sparse rows in compressed-row form. Everything is borrowed from the caller.
 * Row r holds entries row_ptr[r] .. row_ptr[r+1]-1 of index/value; indices are
 * 1-based, strictly ascending within a row and <= ncols. Values are finite.
 */
typedef struct tbk_sparse {
  size_t nrows;
  uint32_t ncols;        /* features are numbered 1..ncols */
  const size_t *row_ptr; /* borrowed; nrows + 1 offsets, row_ptr[0] = 0 */
  const uint32_t *index; /* borrowed; row_ptr[nrows] entries */
  const double *value;   /* borrowed; row_ptr[nrows] entries */
} tbk_sparse;

typedef struct tbk_lr_options {
  double C;          /* inverse regularization strength, > 0 (1.0) */
  double weight_pos; /* class weight of +1 (template): C_+ = C * w_+ (1.0) */
  double weight_neg; /* class weight of -1 (content):  C_- = C * w_- (1.0) */
  double eps;        /* LIBLINEAR stopping tolerance of -s 0 (0.01): stop when
                        |grad f(w)| <= eps * min(#pos,#neg)/l * |grad f(w0)| */
} tbk_lr_options;

void tbk_lr_options_init(tbk_lr_options *o);

/*
 * Train L2-regularized logistic regression (LIBLINEAR -s 0, bias term with
 * constant feature value 1, i.e. -B 1; note LIBLINEAR regularizes the bias
 * like any other weight). y[r] is +1/-1.
 *
 * *w_out (malloc'd, caller frees) receives ncols + 1 doubles: w[j-1] is the
 * weight of feature j, w[ncols] the bias b, oriented so that
 *     P(+1 | x) = 1 / (1 + exp(-(sum_j w[j-1] x_j + b)))
 * whichever label comes first in the data (LIBLINEAR orders its classes by
 * first appearance, and 2.x moves +1 first in a -1/+1 pair; the wrapper
 * reads the order from the trained model and flips the signs when its
 * label[0] is -1, so no LIBLINEAR version detail leaks out).
 * Deterministic: the same rows in the same order give the same w.
 *
 * Errors: TBK_ERR_EMPTY (no rows, or only one class present), TBK_ERR_ARG
 * (bad labels/indices/values/options, more than INT_MAX rows or columns, or
 * LIBLINEAR's check_parameter message), TBK_ERR_NOMEM.
 * LIBLINEAR's progress printing is silenced through set_print_string_function
 * (a process-wide LIBLINEAR setting).
 */
tbk_status tbk_lr_train(const tbk_sparse *X, const signed char *y, const tbk_lr_options *opt, double **w_out,
                        size_t *nw_out, tbk_error *err);
/* The same on rows the caller makes one at a time, so a large training set
 * is never held twice (as our matrix and as LIBLINEAR's): row(ctx, r, idx,
 * val) writes row r's entries (at most max_row, 1-based ascending indices
 * <= ncols) and returns their number. Rows are asked for once, in order. */
typedef size_t (*tbk_lr_row_fn)(void *ctx, size_t r, uint32_t *idx, double *val);
tbk_status tbk_lr_train_rows(size_t nrows, uint32_t ncols, size_t max_row, tbk_lr_row_fn row, void *ctx,
                             const signed char *y, const tbk_lr_options *opt, double **w_out, size_t *nw_out,
                             tbk_error *err);

/*
 * Decision value sum_k w[index_k - 1] value_k + w[ncols] of one sparse row
 * for a weight vector of ncols + 1 entries from tbk_lr_train. Indices are
 * 1-based; indices 0 or > ncols are ignored (features unseen in training have
 * no weight, as LIBLINEAR does). Order of entries is free.
 */
double tbk_lr_decision(const double *w, uint32_t ncols, const uint32_t *index, const double *value, size_t nnz);

/* Logistic function 1 / (1 + exp(-z)), computed without overflow. */
double tbk_sigmoid(double z);

/* P(+1 | x) = tbk_sigmoid(tbk_lr_decision(...)). */
double tbk_lr_prob(const double *w, uint32_t ncols, const uint32_t *index, const double *value, size_t nnz);

/* ================================================================ metrics */

/* One point of a precision–recall curve: everything scored >= threshold is
 * predicted positive (+1). */
typedef struct tbk_pr_point {
  double threshold; /* a score value present in the data */
  size_t tp, fp;    /* positives / negatives scoring >= threshold */
  double precision; /* tp / (tp + fp) */
  double recall;    /* tp / (all positives) */
} tbk_pr_point;

/*
 * Precision–recall curve of scores (higher = more likely +1) against labels
 * y (+1/-1). One point per distinct score, by decreasing threshold (so recall
 * never decreases); tied scores enter together as one step. *pts_out is
 * malloc'd (caller frees), *npts_out its length.
 * Errors: TBK_ERR_EMPTY for n = 0 or no positive label (recall undefined);
 * TBK_ERR_ARG for a NaN score or a bad label. ±inf scores are allowed.
 */
tbk_status tbk_pr_curve(const double *score, const signed char *y, size_t n, tbk_pr_point **pts_out, size_t *npts_out,
                        tbk_error *err);

/*
 * Average precision of a curve from tbk_pr_curve, step-wise as
 * scikit-learn's average_precision_score defines it (no interpolation):
 *     AP = sum_k (R_k - R_{k-1}) P_k,  R_0 = 0,
 * over the points k in curve order. Returns 0 for npts = 0.
 */
double tbk_average_precision(const tbk_pr_point *pts, size_t npts);

/*
 * Best recall at a precision target: the maximum recall among curve points
 * with precision >= target; among points of that recall the first one (the
 * highest threshold, i.e. the highest precision) is chosen. Returns its index
 * in pts and fills *recall, *precision and *threshold (the lowest score still
 * predicted positive there). When no point reaches the target, returns
 * (size_t)-1 with *recall = 0, *precision = 0 and *threshold = +inf
 * (predict nothing). Output pointers may be NULL.
 */
size_t tbk_recall_at_precision(const tbk_pr_point *pts, size_t npts, double target, double *recall, double *precision,
                               double *threshold);

/*
 * Area under the ROC curve: the probability that a random positive scores
 * above a random negative, ties counting one half (Mann–Whitney U).
 * TBK_ERR_EMPTY when either class is absent; TBK_ERR_ARG for NaN or bad
 * labels.
 */
tbk_status tbk_roc_auc(const double *score, const signed char *y, size_t n, double *auc, tbk_error *err);

/* Training data: one row per labelled block, its dense feature vector (of
 * the schema's dimension), its hashed words and its site (for cross-site
 * folds). */
typedef struct tbk_dataset tbk_dataset;
tbk_status tbk_dataset_new(const char *schema_id, uint32_t dim, uint32_t word_dims, tbk_dataset **out, tbk_error *err);
void tbk_dataset_free(tbk_dataset *ds);
/* Add a row; label is +1 (template) or -1 (content). Copies everything. */
tbk_status tbk_dataset_add(tbk_dataset *ds, const char *site, int label, const double *values, const uint32_t *widx,
                           const uint32_t *wcnt, size_t nwords, tbk_error *err);
/* Read what tbk-features wrote: the features file, the aligned words file
 * and the aligned meta JSON Lines file (whose first line names the
 * schema). Files of another schema are TBK_ERR_SCHEMA. warn receives
 * skipped malformed lines (file, "line N: reason"). */
tbk_status tbk_dataset_read(tbk_dataset *ds, const char *features, const char *words, const char *meta,
                            tbk_warn_fn warn, void *warn_ctx, tbk_error *err);
size_t tbk_dataset_rows(const tbk_dataset *ds);
size_t tbk_dataset_sites(const tbk_dataset *ds);
const char *tbk_dataset_schema(const tbk_dataset *ds);

typedef enum tbk_encoding {
  TBK_ENC_MDL = 0, /* Fayyad-Irani MDL intervals as binary indicators */
  TBK_ENC_RAW = 1, /* log-compressed, min-max scaled numbers */
  TBK_ENC_BOTH = 2 /* both of the above */
} tbk_encoding;

/* Which parts of the model to use (the paper's ablation). */
typedef enum tbk_parts {
  TBK_PARTS_ALL = 0,    /* NB text score + all other features */
  TBK_PARTS_TEXT = 1,   /* NB text score only */
  TBK_PARTS_NONTEXT = 2 /* other features only, no NB */
} tbk_parts;

typedef struct tbk_train_options {
  tbk_encoding encoding; /* TBK_ENC_BOTH */
  tbk_parts parts;       /* TBK_PARTS_ALL */
  double C;              /* LIBLINEAR C (1.0) */
  int auto_C;            /* choose C in {0.03,0.1,0.3,1,3} by cross-site CV */
  double weight_pos;     /* class weight of template (1.0) */
  double weight_neg;     /* class weight of content (1.0) */
  double nb_alpha;       /* NB additive smoothing (1.0) */
  unsigned nb_folds;     /* out-of-fold NB scores, folds by site (5) */
  unsigned cv_folds;     /* cross-site CV for operating points (5; 0 = none) */
  int dedup;             /* drop duplicate training rows (1) */
  int balance;           /* weight classes to equal total weight (1) */
  size_t max_site_rows;  /* cap rows per site, 0 = none (3000) */
  unsigned threads;      /* cross-validation folds fitted at once (1); the
                            model does not depend on it */
  double sample_pos;     /* share of template (+1) rows kept (1): each row
                            by a hash of its index, the same in every fold;
                            the class weight is divided by it (balance, the
                            default, equalizes the classes anyway) */
  double sample_neg;     /* the same for content (-1) rows (1) */
  int sparse_intervals;  /* leave each MDL-binned input's most frequent
                            interval (lowest on ties) out of the fit (0):
                            the bias absorbs it and its weight is written
                            as 0, so prediction and the model format are
                            unchanged, but most rows no longer carry one
                            indicator per binned input (those indicators
                            were most of LIBLINEAR's memory). It changes
                            the fit: L2 no longer shrinks that interval */
} tbk_train_options;
void tbk_train_options_init(tbk_train_options *o);

/* Fit the model on all rows. The segmentation and feature options are
 * those the dataset's meta header recorded. */
tbk_status tbk_train(const tbk_dataset *ds, const tbk_train_options *opt, tbk_progress_fn progress, void *progress_ctx,
                     tbk_model **out, tbk_error *err);

/* tbk_train for a caller that needs nothing more of ds than
 * tbk_dataset_free (tbk-train): the rows' packed values and words are
 * released once the final fit has encoded them, before LIBLINEAR fits
 * (about 0.4 KB a row read: 0.4 GB of the peak at a million rows). The
 * same model as tbk_train's. Afterwards ds has no rows to read: any call
 * but tbk_dataset_free on it is undefined. */
tbk_status tbk_train_consume(tbk_dataset *ds, const tbk_train_options *opt, tbk_progress_fn progress,
                             void *progress_ctx, tbk_model **out, tbk_error *err);

/* Cross-site k-fold cross-validation: the whole training procedure is
 * refitted without the held-out sites. *scores_out (malloc'd, caller
 * frees) receives one out-of-fold template probability per dataset row;
 * rows of sites never held out (k > sites) get NaN. */
tbk_status tbk_crossval(const tbk_dataset *ds, const tbk_train_options *opt, unsigned k, tbk_progress_fn progress,
                        void *progress_ctx, double **scores_out, tbk_error *err);
/* Label (+1/-1) and site index of a dataset row, for evaluation. */
int tbk_dataset_label(const tbk_dataset *ds, size_t row);
const char *tbk_dataset_site(const tbk_dataset *ds, size_t row);

/* Train a content stage with its contextual pass: a first pass on the
 * units' features, then a second pass on the features plus the first
 * pass's probabilities of the unit's neighbours (previous and next two,
 * a window, the page), trained on out-of-fold first-pass probabilities
 * (folds by site, >= 2). ds holds tbk-units rows in page order (as
 * tbk-features --units writes them). */
tbk_status tbk_train_context(const tbk_dataset *ds, const tbk_train_options *opt, unsigned folds,
                             tbk_progress_fn progress, void *progress_ctx, tbk_model **out, tbk_error *err);
#endif /* TBK_ML_H */
