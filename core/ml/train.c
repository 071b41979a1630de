/* Training (Kołcz & Yih, section 4.1): deduplicate, compute out-of-fold
 * Naive-Bayes text scores (folds by site, so no row is scored by a model
 * that saw its own site), discretize every numeric input with Fayyad-Irani
 * MDL (and/or scale it), fit L2 logistic regression with LIBLINEAR, and
 * measure operating points by cross-site cross-validation. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

#define MDL_MAX_CUTS 32

void tbk_train_options_init(tbk_train_options *o) {
  memset(o, 0, sizeof *o);
  o->encoding = TBK_ENC_BOTH;
  o->parts = TBK_PARTS_ALL;
  o->C = 1.0;
  o->weight_pos = 1.0;
  o->weight_neg = 1.0;
  o->nb_alpha = 1.0;
  o->nb_folds = 5;
  o->cv_folds = 5;
  o->dedup = 1;
  o->balance = 1;
  o->max_site_rows = 3000;
  o->threads = 1;
  o->sample_pos = 1.0;
  o->sample_neg = 1.0;
}

static int input_used(const tbk_encoder *enc, uint32_t j) {
  int is_nb = j + 1 == enc->nin;
  return enc->parts == TBK_PARTS_ALL || (enc->parts == TBK_PARTS_TEXT) == is_nb;
}

/* A row's value of column j, it at its first value not yet passed. */
static double column_value(tbk_values *it, uint32_t j) {
  while (it->col < j && tbk_values_next(it)) continue;
  return it->col == j ? it->v : 0.0;
}

/* Scratch for one row at a time: its dense values and its words. */
typedef struct row_scratch {
  double *dense;   /* ds->dim + 1 */
  tbk_term *terms; /* ds->max_words (at least 1) */
} row_scratch;

static int scratch_new(row_scratch *s, const tbk_dataset *ds) {
  s->dense = malloc(((size_t)ds->dim + 1) * sizeof *s->dense);
  s->terms = malloc((ds->max_words ? ds->max_words : 1) * sizeof *s->terms);
  return s->dense && s->terms ? 0 : -1;
}

static void scratch_free(row_scratch *s) {
  free(s->dense);
  free(s->terms);
}

/* The column of input j's interval that most of x[0..n) fall in (the
 * lowest on ties): what --sparse-intervals leaves out. */
static uint32_t most_frequent_bin(const tbk_encoder *enc, uint32_t j, const double *x, size_t n) {
  size_t count[MDL_MAX_CUTS + 1] = {0}, best = 0, zeros = 0;
  /* most values are 0, all in one interval: no search for them */
  for (size_t r = 0; r < n; r++)
    if (x[r] == 0) zeros++;
    else count[tbk_mdl_bin(enc->cuts[j], enc->ncuts[j], x[r])]++;
  count[tbk_mdl_bin(enc->cuts[j], enc->ncuts[j], 0.0)] += zeros;
  for (size_t b = 1; b <= enc->ncuts[j]; b++)
    if (count[b] > count[best]) best = b;
  return enc->bin_col[j] + (uint32_t)best;
}

/* drop (nin entries, or NULL): with it, the column of each binned input's
 * most frequent interval, 0 for inputs without bins. */
static tbk_status fit_encoder(tbk_encoder *enc, const tbk_dataset *ds, const size_t *rows, size_t n,
                              const double *nb_score, const signed char *y, tbk_encoding encoding, tbk_parts parts,
                              uint32_t *drop, tbk_error *err) {
  int bad = tbk_encoder_alloc(enc, ds->dim + 1);
  enc->encoding = encoding;
  enc->parts = parts;
  double *x = malloc((n ? n : 1) * sizeof *x);
  tbk_values *cur = malloc((n ? n : 1) * sizeof *cur);
  tbk_mdl_scratch ws = {0};
  if (bad || !x || !cur) {
    free(x);
    free(cur);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  /* Columns are taken in order, so a cursor per row walks its sparse
   * values once over all of them. */
  for (size_t r = 0; r < n; r++) {
    tbk_values_start(ds, rows[r], &cur[r]);
    tbk_values_next(&cur[r]);
  }
  uint32_t col = 1;
  for (uint32_t j = 0; j < enc->nin; j++) {
    if (!input_used(enc, j)) continue;
    for (size_t r = 0; r < n; r++) x[r] = j == ds->dim ? nb_score[r] : column_value(&cur[r], j);
    if (encoding != TBK_ENC_RAW) {
      tbk_status st = tbk_mdl_cuts_with(&ws, x, y, NULL, n, MDL_MAX_CUTS, &enc->cuts[j], &enc->ncuts[j], err);
      if (st) {
        free(x);
        free(cur);
        tbk_mdl_scratch_free(&ws);
        return st;
      }
      if (enc->ncuts[j]) { /* no cut: the input cannot tell the classes apart */
        enc->bin_col[j] = col;
        col += (uint32_t)enc->ncuts[j] + 1;
        if (drop) drop[j] = most_frequent_bin(enc, j, x, n);
      }
    }
    if (encoding != TBK_ENC_MDL) {
      double lo = INFINITY, hi = -INFINITY;
      for (size_t r = 0; r < n; r++) {
        double c = tbk_encode_compress(x[r]);
        if (c < lo) lo = c;
        if (c > hi) hi = c;
      }
      if (n && hi > lo) {
        enc->lo[j] = lo;
        enc->hi[j] = hi;
        enc->raw_col[j] = col++;
      }
    }
  }
  enc->ncols = col - 1;
  tbk_encoder_prepare(enc);
  free(x);
  free(cur);
  tbk_mdl_scratch_free(&ws);
  return TBK_OK;
}

/* Rows equal in label, values and words count once: the paper
 * deduplicates training data so boilerplate repeated over many sites and
 * pages does not outweigh everything else. */
static size_t dedup_rows(const tbk_dataset *ds, size_t *rows, size_t n) {
  size_t nslots = 16;
  while (nslots < n * 2) nslots *= 2;
  size_t *slots = malloc(nslots * sizeof *slots);
  uint64_t *hashes = malloc((n ? n : 1) * sizeof *hashes);
  if (!slots || !hashes) {
    free(slots);
    free(hashes);
    return n;
  } /* no dedup beats failing */
  memset(slots, 0xFF, nslots * sizeof *slots);
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    size_t r = rows[i];
    size_t b0 = ds->row_ptr[r], len = ds->row_ptr[r + 1] - b0;
    uint64_t h = tbk_hash64(ds->bytes + b0, len) * 31 + (uint64_t)(ds->label[r] + 2);
    size_t s = h & (nslots - 1);
    int dup = 0;
    while (slots[s] != SIZE_MAX) {
      size_t q = rows[slots[s]];
      if (hashes[slots[s]] == h && ds->label[q] == ds->label[r] && ds->row_ptr[q + 1] - ds->row_ptr[q] == len &&
          memcmp(ds->bytes + ds->row_ptr[q], ds->bytes + b0, len) == 0) {
        dup = 1;
        break;
      }
      s = (s + 1) & (nslots - 1);
    }
    if (dup) continue;
    hashes[kept] = h;
    rows[kept] = r;
    slots[s] = kept++;
  }
  free(slots);
  free(hashes);
  return kept;
}

/* Fold of each site: sites sorted by name, dealt round-robin, so folds do
 * not depend on input order. */
static unsigned *site_folds(const tbk_dataset *ds, unsigned k) {
  size_t *order = malloc((ds->nsites ? ds->nsites : 1) * sizeof *order);
  unsigned *fold = malloc((ds->nsites ? ds->nsites : 1) * sizeof *fold);
  if (!order || !fold) {
    free(order);
    free(fold);
    return NULL;
  }
  for (size_t i = 0; i < ds->nsites; i++) order[i] = i;
  /* Insertion sort is fine: sites number in the hundreds. */
  for (size_t i = 1; i < ds->nsites; i++) {
    size_t v = order[i], j = i;
    while (j > 0 && strcmp(ds->sites[order[j - 1]], ds->sites[v]) > 0) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = v;
  }
  for (size_t i = 0; i < ds->nsites; i++) fold[order[i]] = (unsigned)(i % k);
  free(order);
  return fold;
}

static tbk_status nb_train(const tbk_dataset *ds, const size_t *rows, size_t n, const tbk_train_options *opt,
                           tbk_nb **out, tbk_error *err) {
  tbk_nb_options no;
  tbk_nb_options_init(&no);
  no.dim = ds->word_dims;
  no.alpha = opt->nb_alpha;
  tbk_term *terms = malloc((ds->max_words ? ds->max_words : 1) * sizeof *terms);
  if (!terms) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_status st = tbk_nb_new(&no, out, err);
  for (size_t i = 0; i < n && st == TBK_OK; i++) {
    size_t r = rows[i];
    st = tbk_nb_add(*out, ds->label[r], terms, tbk_dataset_words(ds, r, terms), 1.0, err);
  }
  free(terms);
  if (st == TBK_OK) st = tbk_nb_finish(*out, err);
  if (st) {
    tbk_nb_free(*out);
    *out = NULL;
  }
  return st;
}

/* terms: scratch of ds->max_words. */
static tbk_status nb_score_row(const tbk_nb *nb, const tbk_dataset *ds, size_t r, tbk_term *terms, double *s,
                               tbk_error *err) {
  return tbk_nb_score(nb, terms, tbk_dataset_words(ds, r, terms), s, err);
}

/* Out-of-fold NB scores for the training rows: each row is scored by a
 * model trained on the other sites' folds. */
static tbk_status nb_oof(const tbk_dataset *ds, const size_t *rows, size_t n, const tbk_train_options *opt,
                         double *score, tbk_error *err) {
  unsigned k = opt->nb_folds < 2 ? 2 : opt->nb_folds;
  unsigned *fold = site_folds(ds, k);
  size_t *sub = malloc((n ? n : 1) * sizeof *sub);
  tbk_term *terms = malloc((ds->max_words ? ds->max_words : 1) * sizeof *terms);
  if (!fold || !sub || !terms) {
    free(fold);
    free(sub);
    free(terms);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  tbk_status st = TBK_OK;
  for (unsigned f = 0; f < k && st == TBK_OK; f++) {
    size_t m = 0, held = 0;
    for (size_t i = 0; i < n; i++) {
      if (fold[ds->site[rows[i]]] != f) sub[m++] = rows[i];
      else held++;
    }
    if (!held) continue;
    tbk_nb *nb = NULL;
    st = nb_train(ds, sub, m, opt, &nb, err);
    if (st == TBK_ERR_EMPTY) { /* a class missing outside this fold: no text evidence */
      st = TBK_OK;
      for (size_t i = 0; i < n; i++)
        if (fold[ds->site[rows[i]]] == f) score[i] = 0.0;
      continue;
    }
    for (size_t i = 0; i < n && st == TBK_OK; i++)
      if (fold[ds->site[rows[i]]] == f) st = nb_score_row(nb, ds, rows[i], terms, &score[i], err);
    tbk_nb_free(nb);
  }
  free(fold);
  free(sub);
  free(terms);
  return st;
}

/* Cap rows per site (evenly spaced, deterministic) so one big site cannot
 * dominate the pooled data. */
static size_t cap_sites(const tbk_dataset *ds, size_t *rows, size_t n, size_t cap) {
  if (!cap) return n;
  size_t *count = calloc(ds->nsites, sizeof *count), *seen = calloc(ds->nsites, sizeof *seen);
  if (!count || !seen) {
    free(count);
    free(seen);
    return n;
  }
  for (size_t i = 0; i < n; i++) count[ds->site[rows[i]]]++;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = ds->site[rows[i]];
    size_t k = seen[s]++;
    /* keep row k of c when it starts a new 1/cap slice of the site */
    if (count[s] <= cap || (k * cap) / count[s] != ((k + 1) * cap) / count[s]) rows[kept++] = rows[i];
  }
  free(count);
  free(seen);
  return kept;
}

/* Keep a share of each class's rows: row r stays when a hash of r falls
 * below its class's share, so a row is in or out the same way in every
 * fold and run. */
static size_t sample_rows(const tbk_dataset *ds, size_t *rows, size_t n, double pos, double neg) {
  if (pos >= 1.0 && neg >= 1.0) return n;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t r = rows[i];
    double u = (double)(tbk_hash64(&r, sizeof r) >> 11) * 0x1p-53;
    if (u < (ds->label[rows[i]] > 0 ? pos : neg)) rows[kept++] = rows[i];
  }
  return kept;
}

typedef struct fitted {
  tbk_encoder enc;
  tbk_nb *nb;
  double *w;
} fitted;

static void fitted_free(fitted *f) {
  tbk_encoder_free(&f->enc);
  tbk_nb_free(f->nb);
  free(f->w);
  memset(f, 0, sizeof *f);
}

typedef struct encode_ctx {
  const tbk_dataset *ds;
  const size_t *rows;
  size_t n;
  const double *score;
  const tbk_encoder *enc;
  double *dense;             /* scratch: ds->dim */
  const unsigned char *drop; /* NULL, or ncols + 1 flags: columns left out */
  tbk_dataset *release;      /* NULL, or ds: its packed rows are freed once
                                 the last row is encoded (tbk_train_consume) */
} encode_ctx;

static size_t encode_row(void *ctx, size_t i, uint32_t *idx, double *val) {
  encode_ctx *e = ctx;
  tbk_dataset_dense(e->ds, e->rows[i], e->dense);
  size_t n = tbk_encode(e->enc, e->dense, e->score[i], idx, val);
  /* LIBLINEAR asks for each row once, in order, and the final fit's rows
   * ascend (the caps and deduplication keep their order): the packed rows
   * behind are given back as its rows grow, all of them after the last. */
  if (e->release && i + 1 == e->n) tbk_dataset_release_all(e->release);
  else if (e->release && i % 4096 == 4095 && e->rows[i + 1] > e->rows[i])
    tbk_dataset_release_before(e->release, e->rows[i + 1]);
  if (!e->drop) return n;
  size_t kept = 0;
  for (size_t k = 0; k < n; k++)
    if (!e->drop[idx[k]]) {
      idx[kept] = idx[k];
      val[kept++] = val[k];
    }
  return kept;
}

/* --sparse-intervals: flags (ncols + 1, by 1-based column) of the columns
 * left out of the fit, from each input's dropped column. */
static unsigned char *drop_flags(const tbk_encoder *enc, const uint32_t *drop) {
  unsigned char *flag = calloc((size_t)enc->ncols + 1, 1);
  if (flag)
    for (uint32_t j = 0; j < enc->nin; j++)
      if (drop[j]) flag[drop[j]] = 1;
  return flag;
}

/* The whole procedure on a subset of rows (which it may reorder/shrink). */
static tbk_status fit(const tbk_dataset *ds, size_t *rows, size_t n, const tbk_train_options *opt, double C,
                      tbk_dataset *release, fitted *out, size_t *used, tbk_error *err) {
  memset(out, 0, sizeof *out);
  n = cap_sites(ds, rows, n, opt->max_site_rows);
  if (opt->dedup) n = dedup_rows(ds, rows, n);
  n = sample_rows(ds, rows, n, opt->sample_pos, opt->sample_neg);
  if (used) *used = n;
  size_t npos = 0;
  for (size_t i = 0; i < n; i++) npos += ds->label[rows[i]] > 0;
  if (npos == 0 || npos == n)
    return tbk_fail(err, TBK_ERR_EMPTY,
                    "training data needs both template and content rows (%zu template, %zu content)", npos, n - npos);
  double *score = calloc(n, sizeof *score);
  signed char *y = malloc(n);
  uint32_t *drop = opt->sparse_intervals ? calloc((size_t)ds->dim + 1, sizeof *drop) : NULL;
  unsigned char *dropped = NULL;
  tbk_status st = TBK_OK;
  if (!score || !y || (opt->sparse_intervals && !drop)) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < n; i++) y[i] = ds->label[rows[i]];
  if (opt->parts != TBK_PARTS_NONTEXT) {
    if ((st = nb_oof(ds, rows, n, opt, score, err))) goto done;
    if ((st = nb_train(ds, rows, n, opt, &out->nb, err))) goto done;
  }
  if ((st = fit_encoder(&out->enc, ds, rows, n, score, y, opt->encoding, opt->parts, drop, err))) goto done;
  if (out->enc.ncols == 0) {
    st = tbk_fail(err, TBK_ERR_EMPTY, "no feature separates the classes in the training data");
    goto done;
  }
  if (drop && !(dropped = drop_flags(&out->enc, drop))) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    goto done;
  }
  /* Rows are encoded as LIBLINEAR takes them in: no matrix of their own. */
  double *dense = malloc(((size_t)ds->dim + 1) * sizeof *dense);
  if (!dense) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    goto done;
  }
  encode_ctx ec = {ds, rows, n, score, &out->enc, dense, dropped, release};
  tbk_lr_options lo;
  tbk_lr_options_init(&lo);
  lo.C = C;
  lo.weight_pos = opt->weight_pos;
  lo.weight_neg = opt->weight_neg;
  if (opt->balance) {
    /* Equal total weight per class: auto-labelled data is mostly template
     * on big template-heavy sites, and the probability scale (and so every
     * threshold) should not depend on that accident of sampling. */
    lo.weight_pos *= (double)n / (2.0 * (double)npos);
    lo.weight_neg *= (double)n / (2.0 * (double)(n - npos));
  } else {
    /* Each row kept stands for 1 / share of its class's rows. */
    lo.weight_pos /= opt->sample_pos;
    lo.weight_neg /= opt->sample_neg;
  }
  size_t nw;
  st = tbk_lr_train_rows(n, out->enc.ncols, (size_t)out->enc.nin * 2, encode_row, &ec, y, &lo, &out->w, &nw, err);
  free(dense);
  /* A column no row has keeps LIBLINEAR's starting weight 0 (its steps
   * are 0 there); set here all the same, so the file says 0, not -0 after
   * a sign flip, whatever the solver version does. */
  if (!st && dropped)
    for (uint32_t c = 1; c <= out->enc.ncols; c++)
      if (dropped[c]) out->w[c - 1] = 0.0;
done:
  free(score);
  free(y);
  free(drop);
  free(dropped);
  if (st) fitted_free(out);
  return st;
}

static tbk_status predict_row(const fitted *f, const tbk_dataset *ds, size_t r, row_scratch *sc, double *p,
                              tbk_error *err) {
  double s = 0.0;
  if (f->nb) {
    tbk_status st = nb_score_row(f->nb, ds, r, sc->terms, &s, err);
    if (st) return st;
  }
  uint32_t idx[2 * (f->enc.nin + 1)];
  double val[2 * (f->enc.nin + 1)];
  tbk_dataset_dense(ds, r, sc->dense);
  size_t k = tbk_encode(&f->enc, sc->dense, s, idx, val);
  *p = tbk_lr_prob(f->w, f->enc.ncols, idx, val, k);
  return TBK_OK;
}

/* One cross-validation run: its folds share nothing but the dataset (read
 * only) and their own rows of scores, so threads take folds in turn and
 * the scores are the same whatever the number of threads. */
typedef struct cv_run {
  const tbk_dataset *ds;
  const tbk_train_options *opt;
  double C;
  unsigned k, next;
  const unsigned *fold;
  double *scores;
  tbk_status *st; /* per fold */
  tbk_error *err; /* per fold */
  tbk_progress_fn progress;
  void *pctx;
  pthread_mutex_t lock; /* next, and the progress callback */
} cv_run;

static tbk_status cv_fold(cv_run *cv, unsigned f, size_t *rows, row_scratch *sc, tbk_error *err) {
  const tbk_dataset *ds = cv->ds;
  size_t m = 0, held = 0;
  for (size_t r = 0; r < ds->n; r++) {
    if (cv->fold[ds->site[r]] != f) rows[m++] = r;
    else held++;
  }
  if (!held) return TBK_OK;
  if (cv->progress) {
    char msg[96];
    tbk_snprintf(msg, sizeof msg, "cross-validation fold %u/%u (C=%g)", f + 1, cv->k, cv->C);
    pthread_mutex_lock(&cv->lock);
    cv->progress(cv->pctx, msg);
    pthread_mutex_unlock(&cv->lock);
  }
  fitted model;
  tbk_status st = fit(ds, rows, m, cv->opt, cv->C, NULL, &model, NULL, err);
  if (st) return st; /* fit freed the model */
  for (size_t r = 0; r < ds->n && st == TBK_OK; r++)
    if (cv->fold[ds->site[r]] == f) st = predict_row(&model, ds, r, sc, &cv->scores[r], err);
  fitted_free(&model);
  return st;
}

static void *cv_worker(void *arg) {
  cv_run *cv = arg;
  size_t *rows = malloc((cv->ds->n ? cv->ds->n : 1) * sizeof *rows);
  row_scratch sc;
  int bad = scratch_new(&sc, cv->ds);
  for (;;) {
    pthread_mutex_lock(&cv->lock);
    unsigned f = cv->next++;
    pthread_mutex_unlock(&cv->lock);
    if (f >= cv->k) break;
    cv->st[f] = rows && !bad ? cv_fold(cv, f, rows, &sc, &cv->err[f])
                             : tbk_fail(&cv->err[f], TBK_ERR_NOMEM, "out of memory");
  }
  free(rows);
  scratch_free(&sc);
  return NULL;
}

static tbk_status crossval_C(const tbk_dataset *ds, const tbk_train_options *opt, double C, unsigned k,
                             tbk_progress_fn progress, void *pctx, double *scores, tbk_error *err) {
  cv_run cv = {ds,
               opt,
               C,
               k,
               0,
               site_folds(ds, k),
               scores,
               calloc(k, sizeof(tbk_status)),
               calloc(k, sizeof(tbk_error)),
               progress,
               pctx,
               PTHREAD_MUTEX_INITIALIZER};
  unsigned nt = opt->threads < 1 ? 1 : opt->threads > k ? k : opt->threads, started = 0;
  pthread_t *th = malloc(nt * sizeof *th);
  tbk_status st = TBK_OK;
  if (!cv.fold || !cv.st || !cv.err || !th) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t r = 0; r < ds->n; r++) scores[r] = NAN;
  /* The calling thread is one of the workers; a thread that cannot be
   * started leaves its folds to the others. */
  for (; !st && started + 1 < nt; started++)
    if (pthread_create(&th[started], NULL, cv_worker, &cv)) break;
  if (!st) cv_worker(&cv);
  for (unsigned t = 0; t < started; t++) pthread_join(th[t], NULL);
  for (unsigned f = 0; !st && f < k; f++)
    if (cv.st[f]) {
      st = cv.st[f];
      if (err) *err = cv.err[f];
    }
  pthread_mutex_destroy(&cv.lock);
  free((void *)cv.fold);
  free(cv.st);
  free(cv.err);
  free(th);
  return st;
}

/* Average precision of scores against the dataset labels (NaN rows skipped). */
/* The content stage's operating points are about what it keeps: the
 * precision of the units it calls content. flip = 1 scores the content
 * class (1 - p against the negated labels). */
static double scores_ap(const tbk_dataset *ds, const double *scores, int flip, tbk_pr_point **pts, size_t *npts) {
  double *s = malloc((ds->n ? ds->n : 1) * sizeof *s);
  signed char *y = malloc(ds->n ? ds->n : 1);
  size_t m = 0;
  double ap = NAN;
  *pts = NULL;
  *npts = 0;
  if (s && y) {
    for (size_t r = 0; r < ds->n; r++)
      if (!isnan(scores[r])) {
        s[m] = flip ? 1.0 - scores[r] : scores[r];
        y[m++] = (signed char)(flip ? -ds->label[r] : ds->label[r]);
      }
    if (tbk_pr_curve(s, y, m, pts, npts, NULL) == TBK_OK) ap = tbk_average_precision(*pts, *npts);
  }
  free(s);
  free(y);
  return ap;
}

static const double C_GRID[] = {0.03, 0.1, 0.3, 1.0, 3.0};

static tbk_status choose_C(const tbk_dataset *ds, const tbk_train_options *opt, unsigned k, tbk_progress_fn progress,
                           void *pctx, double *bestC, tbk_error *err) {
  double *scores = malloc((ds->n ? ds->n : 1) * sizeof *scores);
  if (!scores) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  double best = -1;
  *bestC = opt->C;
  for (size_t i = 0; i < sizeof C_GRID / sizeof C_GRID[0]; i++) {
    tbk_status st = crossval_C(ds, opt, C_GRID[i], k, progress, pctx, scores, err);
    if (st) {
      free(scores);
      return st;
    }
    tbk_pr_point *pts;
    size_t npts;
    double ap = scores_ap(ds, scores, tbk_schema_stage(ds->schema) == TBK_STAGE_UNITS, &pts, &npts);
    free(pts);
    if (ap > best) {
      best = ap;
      *bestC = C_GRID[i];
    }
  }
  free(scores);
  return TBK_OK;
}

/* Cross-validation that also reports the C it used (chosen by the grid when
 * auto_C), so training need not search the grid a second time. */
static tbk_status crossval_chosen(const tbk_dataset *ds, const tbk_train_options *opt, unsigned k,
                                  tbk_progress_fn progress, void *pctx, double **scores_out, double *C_out,
                                  tbk_error *err) {
  *scores_out = NULL;
  if (k < 2) return tbk_fail(err, TBK_ERR_ARG, "cross-validation needs at least 2 folds");
  if (ds->nsites < 2)
    return tbk_fail(err, TBK_ERR_EMPTY, "cross-site validation needs at least 2 sites (have %zu)", ds->nsites);
  if (k > ds->nsites) k = (unsigned)ds->nsites;
  double C = opt->C;
  if (opt->auto_C) {
    tbk_status st = choose_C(ds, opt, k, progress, pctx, &C, err);
    if (st) return st;
  }
  double *scores = malloc((ds->n ? ds->n : 1) * sizeof *scores);
  if (!scores) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_status st = crossval_C(ds, opt, C, k, progress, pctx, scores, err);
  if (st) {
    free(scores);
    return st;
  }
  *scores_out = scores;
  if (C_out) *C_out = C;
  return TBK_OK;
}

tbk_status tbk_crossval(const tbk_dataset *ds, const tbk_train_options *opt, unsigned k, tbk_progress_fn progress,
                        void *pctx, double **scores_out, tbk_error *err) {
  return crossval_chosen(ds, opt, k, progress, pctx, scores_out, NULL, err);
}

static const double OP_PRECISIONS[TBK_MAX_OPS] = {0.80, 0.90, 0.95};

/* release: NULL, or ds (tbk_train_consume). */
static tbk_status train(const tbk_dataset *ds, tbk_dataset *release, const tbk_train_options *opt,
                        tbk_progress_fn progress, void *pctx, tbk_model **out, tbk_error *err) {
  *out = NULL;
  tbk_train_options o;
  if (opt) o = *opt;
  else tbk_train_options_init(&o);
  if (!ds->n) return tbk_fail(err, TBK_ERR_EMPTY, "no training rows");
  tbk_model *m = calloc(1, sizeof *m);
  size_t *rows = malloc(ds->n * sizeof *rows);
  if (!m || !rows) {
    free(m);
    free(rows);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  snprintf(m->schema, sizeof m->schema, "%s", ds->schema);
  m->dim = ds->dim;
  m->word_dims = ds->word_dims;
  m->page = ds->page;
  m->feat = ds->feat;
  m->cv_pr_auc = NAN;
  m->C = o.C;
  tbk_status st = TBK_OK;
  unsigned k = o.cv_folds;
  if (k > ds->nsites) k = (unsigned)ds->nsites;
  if (k >= 2) {
    double *scores = NULL;
    st = crossval_chosen(ds, &o, k, progress, pctx, &scores, &m->C, err);
    if (st) goto fail;
    tbk_pr_point *pts;
    size_t npts;
    int units = tbk_schema_stage(ds->schema) == TBK_STAGE_UNITS;
    m->cv_pr_auc = scores_ap(ds, scores, units, &pts, &npts);
    for (size_t i = 0; i < TBK_MAX_OPS; i++) {
      tbk_operating_point *op = &m->ops[m->n_ops];
      op->precision = OP_PRECISIONS[i];
      double prec;
      if (tbk_recall_at_precision(pts, npts, op->precision, &op->recall, &prec, &op->threshold) == (size_t)-1) continue;
      /* kept when 1 - p >= c, i.e. removed when p > 1 - c: the boilerplate
       * threshold is the next double above 1 - c */
      if (units) op->threshold = nextafter(1.0 - op->threshold, INFINITY);
      m->n_ops++;
    }
    free(pts);
    free(scores);
  }
  if (progress) progress(pctx, "fitting the final model on all sites");
  for (size_t r = 0; r < ds->n; r++) rows[r] = r;
  fitted f;
  st = fit(ds, rows, ds->n, &o, m->C, release, &f, &m->train_rows, err);
  if (st) goto fail;
  m->enc = f.enc;
  m->nb = f.nb;
  m->w = f.w;
  m->train_sites = ds->nsites;
  free(rows);
  *out = m;
  return TBK_OK;
fail:
  free(rows);
  tbk_model_free(m);
  return st;
}

tbk_status tbk_train(const tbk_dataset *ds, const tbk_train_options *opt, tbk_progress_fn progress, void *pctx,
                     tbk_model **out, tbk_error *err) {
  return train(ds, NULL, opt, progress, pctx, out, err);
}

tbk_status tbk_train_consume(tbk_dataset *ds, const tbk_train_options *opt, tbk_progress_fn progress, void *pctx,
                             tbk_model **out, tbk_error *err) {
  tbk_status st = train(ds, ds, opt, progress, pctx, out, err);
  tbk_dataset_release_all(ds); /* also when the final fit was not reached */
  return st;
}
