/* Prediction on a single page, corrected by its site's history when
 * there is one, and the three renderings of the result. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "model.h"
#include "nb_view.h"
#include "predict.h"
#include "predict_internal.h"
#include "page_view.h"
#include "units.h"
#include "util.h"

/* One stage's decision function: a model's encoder, LR weights and NB
 * text model applied to a dense vector and its words. Most inputs are 0 on
 * most rows, so the decision starts from what all-zero inputs give and adds
 * only the nonzero inputs' differences, instead of encoding every input to
 * columns and summing them all. */
enum { SMALL_INTS = 64, MEMO_BITS = 8, MEMO_WAYS = 1 << MEMO_BITS };

/* A remembered input value (its bits; 0 = empty, never looked up since
 * zero inputs are skipped) and its contribution's difference from zero's. */
typedef struct scorer_memo {
  uint64_t bits;
  double delta;
} scorer_memo;

/* One input: how its values encode (the encoder's and weights' numbers
 * gathered, model.h) and the values it has met. */
typedef struct scorer_input {
  tbk_contrib_input c;
  double *ints;      /* owned, NULL until the input first has a whole
                          value 1..SMALL_INTS - 1: ints[v] =
                          tbk_encode_contrib(j, v) - its zero, v >= 1 */
  scorer_memo *memo; /* owned, MEMO_WAYS slots; until the input's first
                          miss the scorer's shared empty memo (no_memo) */
} scorer_input;

typedef struct scorer {
  const tbk_model *m;             /* borrowed */
  scorer_input *in;               /* owned: nin */
  double zero_decision;           /* bias + the sum of the inputs' zero */
  uint32_t fixed_ints;            /* inputs 0 .. fixed_ints - 1 have their ints */
  const double *log1p;            /* borrowed: tbk_encode_log1p_table() */
  scorer_memo no_memo[MEMO_WAYS]; /* all empty, never written: every
                           lookup misses */
  tbk_nb_view nb;                 /* the text model's numbers (has_nb) */
  int has_nb;
  tbk_term *terms; /* owned scratch */
  size_t capterms;
} scorer;

static void scorer_free(scorer *sc) {
  if (sc->in && sc->m)
    for (uint32_t j = 0; j < sc->m->enc.nin; j++)
      if (sc->in[j].memo != sc->no_memo) free(sc->in[j].memo);
  if (sc->in && sc->m)
    for (uint32_t j = 0; j < sc->m->enc.nin; j++) free(sc->in[j].ints);
  free(sc->in);
  free(sc->terms);
}

static int scorer_init(scorer *sc, const tbk_model *m) {
  memset(sc, 0, sizeof *sc);
  sc->m = m;
  const tbk_encoder *enc = &m->enc;
  size_t nin = enc->nin ? enc->nin : 1;
  sc->in = calloc(nin, sizeof *sc->in);
  if (!sc->in) return -1;
  sc->log1p = tbk_encode_log1p_table();
  sc->has_nb = m->nb && tbk_nb_get_view(m->nb, &sc->nb) == 0;
  sc->zero_decision = m->w[enc->ncols];
  for (uint32_t j = 0; j < enc->nin; j++) {
    scorer_input *in = &sc->in[j];
    in->memo = sc->no_memo;
    tbk_contrib_input_init(enc, m->w, j, &in->c);
    sc->zero_decision += in->c.zero;
  }
  return 0;
}

/* A value the memo does not have: computed, and remembered in its slot.
 * Out of line, so the lookups around it stay small enough to unroll. */
__attribute__((noinline)) static double scorer_miss(scorer *sc, scorer_input *in, size_t slot, uint64_t bits,
                                                    double v) {
  double d = tbk_contrib(&in->c, sc->log1p, v) - in->c.zero;
  if (in->memo == sc->no_memo) {
    scorer_memo *mm = calloc(MEMO_WAYS, sizeof *mm);
    if (!mm) return d; /* no memory for a memo: computed every time */
    in->memo = mm;
  }
  in->memo[slot] = (scorer_memo){bits, d};
  return d;
}

/* An input's table of whole values (a page uses a few hundred of a
 * model's inputs; tables for all were 400 KiB); -1 when out of memory. */
static int scorer_make_ints(scorer *sc, scorer_input *in) {
  double *t = malloc(SMALL_INTS * sizeof *t);
  if (!t) return -1;
  t[0] = 0.0;
  for (int k = 1; k < SMALL_INTS; k++) t[k] = tbk_contrib(&in->c, sc->log1p, (double)k) - in->c.zero;
  in->ints = t;
  return 0;
}

/* A sparse input's first whole value: its table made. */
__attribute__((noinline)) static double scorer_ints(scorer *sc, scorer_input *in, int v) {
  if (scorer_make_ints(sc, in)) return tbk_contrib(&in->c, sc->log1p, (double)v) - in->c.zero;
  return in->ints[v];
}

/* tbk_encode_contrib(j, v) - its zero for a nonzero v: whole values 1..63
 * from the input's table (made by scorer_prob first for the fixed inputs,
 * has_ints, which are on every row; else at the input's first whole
 * value); other values (ratios, long counts, the NB score) need the MDL
 * interval search and a log, so each input remembers the last values it
 * met (page-level features repeat on every unit of a page, neighbour
 * features on the next units): the same difference, computed once. 256
 * slots per input (16 missed 55 % of the lookups on debian_docs) cut 26 M
 * of 2.26 G instructions there; on debian_docs' first 200 pages 109 of
 * the default model's 777 inputs ever miss, so a memo is made at an
 * input's first miss (4 KiB each), not for all. */
static inline double scorer_delta(scorer *sc, uint32_t j, double v, int has_ints) {
  scorer_input *in = &sc->in[j];
  if (v > 0 && v < SMALL_INTS && v == (double)(int)v)
    return has_ints || in->ints ? in->ints[(int)v] : scorer_ints(sc, in, (int)v);
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  size_t slot = (size_t)((bits * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS));
  const scorer_memo *e = &in->memo[slot];
  return e->bits == bits ? e->delta : scorer_miss(sc, in, slot, bits, v);
}

/* tbk_nb_score's sum, term by term in the same order, added to *s while
 * the terms pass its checks (indices ascending, 1..dim, counts > 0);
 * returns how many passed. One loop per slot width and kind, each the
 * same sum (a Bernoulli term's 1.0 * r is r). */
static inline size_t nb_terms(const tbk_nb_view *v, const uint32_t *wi, const uint32_t *wc, size_t nw, double *s) {
  const double *ratio = v->ratio;
  const uint32_t dim = v->dim;
  double sum = *s;
  uint32_t prev = 0;
  size_t k = 0;
// clang-format off
#define NB_TERMS(slot, count)                                     \
  for (; k < nw; k++) {                                           \
    uint32_t i = wi[k];                                           \
    if (i - 1 >= dim || i <= prev || !wc[k]) break;               \
    prev = i;                                                     \
    sum += (count) * ratio[slot[i - 1]];                          \
  }
  // clang-format on
  if (v->slot16 && !v->bernoulli) {
    NB_TERMS(v->slot16, (double)wc[k])
  } else if (v->slot16) {
    NB_TERMS(v->slot16, 1.0)
  } else if (!v->bernoulli) {
    NB_TERMS(v->slot32, (double)wc[k])
  } else {
    NB_TERMS(v->slot32, 1.0)
  }
#undef NB_TERMS
  *s = sum;
  return k;
}

/* The decision of a row whose nonzero inputs are among its first nfixed
 * (x) and the columns cols[0..ncols) (ascending, all past nfixed), whose
 * values are vals[k] (vals NULL: x[cols[k]], x then being the dense row);
 * a dense row has nfixed = every input and no cols. */
/* The text model's score of a row's words (0 without a text model); a
 * row whose terms fail a check goes to tbk_nb_score for its error. */
static inline tbk_status scorer_nb(scorer *sc, const uint32_t *wi, const uint32_t *wc, size_t nw, double *score,
                                   tbk_error *err) {
  const tbk_model *m = sc->m;
  double s = 0.0;
  int nb_done = 0;
  if (m->nb && sc->has_nb) {
    s = sc->nb.base;
    nb_done = nb_terms(&sc->nb, wi, wc, nw, &s) == nw;
  }
  if (m->nb && !nb_done) {
    if (tbk_grow(&sc->terms, &sc->capterms, nw, sizeof *sc->terms))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    for (size_t k = 0; k < nw; k++) sc->terms[k] = (tbk_term){wi[k] - 1, (double)wc[k]};
    tbk_status st = tbk_nb_score(m->nb, sc->terms, nw, &s, err);
    if (st) return st;
  }
  *score = s;
  return TBK_OK;
}

static tbk_status scorer_prob(scorer *sc, const double *x, uint32_t nfixed, const uint32_t *cols, const double *vals,
                              size_t ncols, const uint32_t *wi, const uint32_t *wc, size_t nw, double *prob,
                              tbk_error *err) {
  const tbk_model *m = sc->m;
  double s = 0.0;
  tbk_status st = scorer_nb(sc, wi, wc, nw, &s, err);
  if (st) return st;
  /* The terms are added in input order, as they always were: the same
   * decision to the last bit. */
  double z = sc->zero_decision;
  uint32_t nx = m->enc.nin ? m->enc.nin - 1 : 0; /* dense inputs; the NB score is last */
  if (nfixed < nx) nx = nfixed;
  for (; sc->fixed_ints < nx; sc->fixed_ints++)
    if (!sc->in[sc->fixed_ints].ints && scorer_make_ints(sc, &sc->in[sc->fixed_ints]))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  uint32_t j = 0;
  for (; j + 4 <= nx; j += 4) {
    /* four zeros at a time (most inputs): one test of their bits, the
     * sign shifted out so that -0.0 counts as zero too */
    uint64_t b0, b1, b2, b3;
    memcpy(&b0, x + j, sizeof b0);
    memcpy(&b1, x + j + 1, sizeof b1);
    memcpy(&b2, x + j + 2, sizeof b2);
    memcpy(&b3, x + j + 3, sizeof b3);
    if (!((b0 | b1 | b2 | b3) << 1)) continue;
    for (uint32_t k = 0; k < 4; k++)
      if (x[j + k] != 0) z += scorer_delta(sc, j + k, x[j + k], 1);
  }
  for (; j < nx; j++)
    if (x[j] != 0) z += scorer_delta(sc, j, x[j], 1);
  for (size_t k = 0; k < ncols; k++) z += scorer_delta(sc, cols[k], vals ? vals[k] : x[cols[k]], 0);
  if (m->enc.nin && s != 0) z += scorer_delta(sc, m->enc.nin - 1, s, 0);
  *prob = tbk_sigmoid(z);
  return TBK_OK;
}

/* Explanations of a page's rows, each with room for k terms. */
typedef struct explain_set {
  tbk_explanation *ex; /* owned: n filled, cap allocated */
  size_t n, cap;
  tbk_explain_term *terms; /* owned: k per explanation */
  size_t cap_terms;
} explain_set;

struct tbk_predictor {
  const tbk_model *m; /* borrowed */
  tbk_features *fx;   /* owned */
  scorer tmpl;        /* owned: the template stage */
  double *probs;      /* owned scratch, cap entries */
  size_t cap;
  /* content stage (when the model has one) */
  tbk_units *ux;     /* owned */
  scorer content;    /* owned */
  scorer nontext;    /* owned: the content stage without the text model,
                          when the model has one */
  int nontext_page;  /* the last page was scored by nontext */
  scorer context;    /* owned: the contextual pass, when the model has one */
  double *uprobs;    /* owned scratch: final probabilities */
  double *first;     /* owned scratch: first-pass probabilities, then the
                          chars and first-pass p of the units with words */
  double *row;       /* owned scratch: a unit's sparse and context values */
  uint32_t *cols;    /* owned scratch: their columns */
  size_t ucap, fcap; /* capacities of uprobs and first */
  int no_template;   /* content stage without template probabilities */
  /* explanations (tbk_predictor_explain): off unless asked for, so
   * scoring does no work for them otherwise */
  size_t explain_k;      /* inputs kept per explanation, 0 = off */
  explain_set bex;       /* owned: the template stage's, per block */
  explain_set uex;       /* owned: the content stage's, per unit */
  tbk_explain_term *all; /* owned scratch: a row's contributing inputs */
  size_t cap_all;
  /* site history (tbk_predictor_use_history) */
  tbk_history *hist;   /* borrowed, NULL = none */
  tbk_buf *hist_rows;  /* borrowed: the history combiners' rows, or NULL */
  const char *page_id; /* borrowed: the page's id in those rows */
  uint64_t *hfp;       /* owned scratch: the page's block fingerprints */
  uint32_t *hdf;       /* owned: their counts on the site's other pages */
  size_t hcap, hdfcap; /* of hfp, of hdf */
  int hdf_page;        /* hdf holds the current page's counts */
};

static void explain_set_free(explain_set *es) {
  free(es->ex);
  free(es->terms);
  memset(es, 0, sizeof *es);
}

/* Room for n explanations of k terms each; es->n stays 0 until the caller
 * has filled them. 0 ok, -1 out of memory. */
static int explain_set_room(explain_set *es, size_t n, size_t k) {
  es->n = 0;
  if (!n) return 0;
  if (tbk_grow((void **)&es->ex, &es->cap, n, sizeof *es->ex) ||
      tbk_grow((void **)&es->terms, &es->cap_terms, n * k, sizeof *es->terms))
    return -1;
  for (size_t i = 0; i < n; i++) es->ex[i] = (tbk_explanation){.top = es->terms + i * k};
  return 0;
}

/* The contextual pass's inputs past the units' (tbk_context_features'
 * order). */
static const char *const ctx_names[TBK_CTX_DIM] = {
    "ctx.p",          "ctx.prev_p",     "ctx.next_p", "ctx.prev2_p",     "ctx.next2_p",    "ctx.window_p",
    "ctx.min_next_p", "ctx.max_next_p", "ctx.page_p", "ctx.kept_before", "ctx.kept_after", "ctx.prose_distance"};

/* Input j of a stage's model m: a schema name, the text model's score, or
 * a contextual input. */
static const char *input_name(const tbk_predictor *pr, int content, const tbk_model *m, uint32_t j) {
  if (m->enc.nin && j == m->enc.nin - 1) return "text_score";
  const char *name = NULL;
  if (!content) name = tbk_features_name(pr->fx, j);
  else if (j < tbk_units_dim(pr->ux)) name = tbk_units_name(pr->ux, j);
  else if (j - tbk_units_dim(pr->ux) < TBK_CTX_DIM) name = ctx_names[j - tbk_units_dim(pr->ux)];
  return name ? name : "?";
}

static int cmp_term(const void *a, const void *b) {
  const tbk_explain_term *x = a, *y = b;
  double ax = fabs(x->contribution), ay = fabs(y->contribution);
  if (ax != ay) return ax < ay ? 1 : -1;
  return strcmp(x->name, y->name); /* names are unique: the same order every run */
}

/* One row's explanation (the row as scorer_prob takes it): every nonzero
 * input's contribution is the difference scorer_prob adds for it, added
 * here in its order from the same start, so the logit is the scorer's to
 * the bit; the explain_k largest by magnitude go to ex->top. */
static tbk_status scorer_explain(tbk_predictor *pr, scorer *sc, int content, const double *x, uint32_t nfixed,
                                 const uint32_t *cols, const double *vals, size_t ncols, const uint32_t *wi,
                                 const uint32_t *wc, size_t nw, tbk_explanation *ex, tbk_error *err) {
  const tbk_model *m = sc->m;
  uint32_t nin = m->enc.nin;
  if (tbk_grow((void **)&pr->all, &pr->cap_all, (size_t)nin + 1, sizeof *pr->all))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  double s = 0.0;
  tbk_status st = scorer_nb(sc, wi, wc, nw, &s, err);
  if (st) return st;
  double z = sc->zero_decision;
  size_t n = 0;
#define TERM(j, v)                                                                            \
  do {                                                                                        \
    double d_ = scorer_delta(sc, (j), (v), 0);                                                \
    z += d_;                                                                                  \
    if (d_ != 0) pr->all[n++] = (tbk_explain_term){input_name(pr, content, m, (j)), (v), d_}; \
  } while (0)
  uint32_t nx = nin ? nin - 1 : 0;
  if (nfixed < nx) nx = nfixed;
  for (uint32_t j = 0; j < nx; j++)
    if (x[j] != 0) TERM(j, x[j]);
  for (size_t k = 0; k < ncols; k++) TERM(cols[k], vals ? vals[k] : x[cols[k]]);
  if (nin && s != 0) TERM(nin - 1, s);
#undef TERM
  qsort(pr->all, n, sizeof *pr->all, cmp_term);
  size_t top = n < pr->explain_k ? n : pr->explain_k;
  tbk_explain_term *keep = (tbk_explain_term *)ex->top;
  memcpy(keep, pr->all, top * sizeof *keep);
  double rest = 0;
  for (size_t k = top; k < n; k++) rest += pr->all[k].contribution;
  ex->logit = z;
  ex->base = sc->zero_decision;
  ex->bias = m->w[m->enc.ncols];
  ex->rest = rest;
  ex->inputs = n;
  ex->n = top;
  return TBK_OK;
}

void tbk_predictor_explain(tbk_predictor *pr, size_t k) {
  if (k != pr->explain_k) pr->bex.n = pr->uex.n = 0; /* made with another k */
  pr->explain_k = k;
}

const tbk_explanation *tbk_predictor_block_explanation(const tbk_predictor *pr, size_t b) {
  return b < pr->bex.n ? &pr->bex.ex[b] : NULL;
}

const tbk_explanation *tbk_predictor_unit_explanation(const tbk_predictor *pr, size_t i) {
  return i < pr->uex.n ? &pr->uex.ex[i] : NULL;
}

void tbk_predictor_template_inputs(tbk_predictor *pr, int on) { pr->no_template = !on; }
const tbk_model *tbk_predictor_model(const tbk_predictor *pr) { return pr->m; }

/* A model scores only the vectors of the extractor it was trained with:
 * the same schema (names, kinds, options) and so the same dimension. */
static tbk_status check_schema(const char *stage, const char *rows, const tbk_model *m, const char *schema, size_t dim,
                               tbk_error *err) {
  if (strcmp(schema, m->schema) == 0 && dim == m->dim) return TBK_OK;
  /* A content stage saved alone (tbk-train without --template) is no
   * template model: say what it is, not only that the schemas differ. */
  if (strcmp(rows, "features") == 0 && tbk_schema_stage(m->schema) == TBK_STAGE_UNITS)
    return tbk_fail(err, TBK_ERR_SCHEMA,
                    "a content stage alone (schema %s), not a template or two-stage model: "
                    "train it with --template TEMPLATE.model to join the two",
                    m->schema);
  return tbk_fail(err, TBK_ERR_SCHEMA, "%s was trained on %s %s (dim %u); this build extracts %s (dim %zu)", stage,
                  rows, m->schema, m->dim, schema, dim);
}

tbk_status tbk_predictor_new(const tbk_model *m, tbk_predictor **out, tbk_error *err) {
  *out = NULL;
  tbk_predictor *pr = calloc(1, sizeof *pr);
  if (!pr) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  pr->m = m;
  tbk_feature_options fo;
  tbk_model_feature_options(m, &fo);
  tbk_status st = tbk_features_new(&fo, &pr->fx, err);
  if (st) {
    tbk_predictor_free(pr);
    return st;
  }
  if ((st = check_schema("model", "features", m, tbk_features_schema_id(pr->fx), tbk_features_dim(pr->fx), err))) {
    tbk_predictor_free(pr);
    return st;
  }
  if (scorer_init(&pr->tmpl, m)) {
    tbk_predictor_free(pr);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  if (m->content) {
    const tbk_model *c = m->content;
    if ((st = tbk_units_new(&c->feat, &pr->ux, err))) {
      tbk_predictor_free(pr);
      return st;
    }
    tbk_units_set_fingerprints(pr->ux, 0);
    if ((st = check_schema("content stage", "units", c, tbk_units_schema_id(pr->ux), tbk_units_dim(pr->ux), err))) {
      tbk_predictor_free(pr);
      return st;
    }
    if (scorer_init(&pr->content, c) || (c->nontext && scorer_init(&pr->nontext, c->nontext))) {
      tbk_predictor_free(pr);
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    }
    if (c->context && (scorer_init(&pr->context, c->context) ||
                       !(pr->row = malloc(((size_t)c->dim + TBK_CTX_DIM) * sizeof *pr->row)) ||
                       !(pr->cols = malloc(((size_t)c->dim + TBK_CTX_DIM) * sizeof *pr->cols)))) {
      tbk_predictor_free(pr);
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    }
  }
  *out = pr;
  return TBK_OK;
}

void tbk_predictor_free(tbk_predictor *pr) {
  if (!pr) return;
  tbk_features_free(pr->fx);
  scorer_free(&pr->tmpl);
  free(pr->probs);
  tbk_units_free(pr->ux);
  scorer_free(&pr->content);
  scorer_free(&pr->nontext);
  scorer_free(&pr->context);
  free(pr->uprobs);
  free(pr->first);
  free(pr->row);
  free(pr->cols);
  explain_set_free(&pr->bex);
  explain_set_free(&pr->uex);
  free(pr->all);
  free(pr->hfp);
  free(pr->hdf);
  free(pr);
}

void tbk_predictor_use_history(tbk_predictor *pr, tbk_history *h, tbk_buf *rows) {
  pr->hist = h;
  pr->hist_rows = rows;
}

void tbk_predictor_set_history(tbk_predictor *pr, tbk_history *h) { tbk_predictor_use_history(pr, h, NULL); }

void tbk_predictor_page_id(tbk_predictor *pr, const char *id) { pr->page_id = id; }

/* The page's blocks' counts among the site's other pages (once a page),
 * and the page counted; 1 when the page has history to use. */
static tbk_status page_history(tbk_predictor *pr, const tbk_page *page, int *use, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  *use = 0;
  if (!pr->hist) return TBK_OK;
  size_t nb = pv.n_blocks;
  if (!pr->hdf_page) {
    static const unsigned char none[16];
    if (nb && !memcmp(pv.blocks[0].md5, none, 16))
      return tbk_fail(err, TBK_ERR_ARG, "site history needs the page parsed with fingerprints");
    if (tbk_grow_exact((void **)&pr->hfp, &pr->hcap, nb ? nb : 1, sizeof *pr->hfp) ||
        tbk_grow_exact((void **)&pr->hdf, &pr->hdfcap, nb ? nb : 1, sizeof *pr->hdf))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    tbk_status st = tbk_history_page_df(pr->hist, page, pr->hfp, pr->hdf, err);
    if (!st) st = tbk_history_add(pr->hist, pr->hfp, nb, err);
    if (st) return st;
    pr->hdf_page = 1;
  }
  *use = tbk_history_pages(pr->hist) > 0 && (pr->m->history || pr->hist_rows);
  return TBK_OK;
}

/* s as a TSV field: tab, newline, CR and backslash escaped as \\t, \\n,
 * \\r, \\\\. */
static int tsv_field(tbk_buf *o, const char *s) {
  for (; *s; s++) {
    const char *e = *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : *s == '\\' ? "\\\\" : NULL;
    if (e ? tbk_buf_puts(o, e) : tbk_buf_append(o, s, 1)) return -1;
  }
  return 0;
}

/* One row of the combiners' training data: stage, page, path, the site's
 * other pages, the row's and its enclosing block's counts, the stage's
 * probability. */
static tbk_status history_row(tbk_predictor *pr, const char *stage, const char *path, uint32_t pages, uint32_t df,
                              uint32_t outer, double p, tbk_error *err) {
  tbk_buf *o = pr->hist_rows;
  const char *id = pr->page_id ? pr->page_id : "";
  if (tbk_buf_printf(o, "%s\t", stage) || tsv_field(o, id) || tbk_buf_puts(o, "\t") || tsv_field(o, path) ||
      tbk_buf_printf(o, "\t%u\t%u\t%u\t%.17g\n", pages, df, outer, p))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return TBK_OK;
}

/* The history stage's move of a row's logit added to its explanation (as
 * one more input, "history", valued by the site's other pages): the
 * contributions, base and rest still sum to the logit, now the final one. */
static void explain_history(tbk_predictor *pr, tbk_explanation *ex, uint32_t pages, double delta) {
  ex->logit += delta;
  ex->inputs++;
  tbk_explain_term t = {"history", (double)pages, delta}, *top = (tbk_explain_term *)ex->top;
  if (ex->n < pr->explain_k) top[ex->n++] = t;
  else if (ex->n && fabs(delta) > fabs(top[ex->n - 1].contribution)) {
    ex->rest += top[ex->n - 1].contribution;
    top[ex->n - 1] = t;
  } else {
    ex->rest += delta;
    return;
  }
  qsort(top, ex->n, sizeof *top, cmp_term);
}

/* The probability *p of block b (unit == NO_UNIT: the template stage) or
 * of unit `unit` whose block is b, corrected by the site's history (its
 * block's count and its enclosing block's), its training row written
 * first. */
#define NO_UNIT SIZE_MAX
static tbk_status history_correct(tbk_predictor *pr, const tbk_page *page, int32_t b, size_t unit, double *p,
                                  tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  uint32_t pages = tbk_history_pages(pr->hist);
  int32_t up = pv.blocks[b].parent;
  uint32_t df = pr->hdf[b], outer = up >= 0 ? pr->hdf[up] : df;
  if (pr->hist_rows) {
    const char *path = pv.blocks[b].path;
    tbk_unit u;
    if (unit != NO_UNIT) {
      if (tbk_units_get(pr->ux, page, unit, &u)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      path = u.path;
    }
    tbk_status st = history_row(pr, unit == NO_UNIT ? "block" : "unit", path, pages, df, outer, *p, err);
    if (st) return st;
  }
  if (pr->m->history) {
    double x[TBK_HIST_DIM], before = *p;
    tbk_history_inputs(*p, pages, df, outer, x);
    *p = tbk_history_prob(pr->m->history + (unit == NO_UNIT ? 0 : TBK_HIST_DIM), x);
    explain_set *es = unit == NO_UNIT ? &pr->bex : &pr->uex;
    size_t row = unit == NO_UNIT ? (size_t)b : unit;
    if (pr->explain_k && row < es->n && before > 0 && before < 1 && *p > 0 && *p < 1)
      explain_history(pr, &es->ex[row], pages, log(*p / (1 - *p)) - log(before / (1 - before)));
  }
  return TBK_OK;
}

/* The blocks' template probabilities corrected by the site's history. */
static tbk_status history_blocks(tbk_predictor *pr, const tbk_page *page, double *probs, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  int use;
  tbk_status st = page_history(pr, page, &use, err);
  for (size_t b = 0; !st && use && b < pv.n_blocks; b++)
    st = history_correct(pr, page, (int32_t)b, NO_UNIT, &probs[b], err);
  return st;
}

/* The units' probabilities corrected by the site's history: a unit
 * counts as the block that holds most of its text. */
static tbk_status history_units(tbk_predictor *pr, const tbk_page *page, double *uprobs, tbk_error *err) {
  int use;
  tbk_status st = page_history(pr, page, &use, err);
  for (size_t i = 0; !st && use && i < pr->ux->n; i++) {
    int32_t b = tbk_unit_block(page, pr->ux, i);
    if (b >= 0) st = history_correct(pr, page, b, i, &uprobs[i], err); /* else no block: no fingerprint */
  }
  return st;
}

static tbk_status score_blocks(tbk_predictor *pr, const tbk_page *page, const double **probs, tbk_error *err);

tbk_status tbk_predict_page(tbk_predictor *pr, const tbk_page *page, const double **probs, tbk_error *err) {
  tbk_status st = score_blocks(pr, page, probs, err);
  return st ? st : history_blocks(pr, page, pr->probs, err);
}

/* The template stage alone: its probabilities, before any history. */
static tbk_status score_blocks(tbk_predictor *pr, const tbk_page *page, const double **probs, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  tbk_status st = tbk_features_page(pr->fx, page, err);
  if (st) return st;
  size_t nb = pv.n_blocks;
  if (tbk_grow((void **)&pr->probs, &pr->cap, nb, sizeof *pr->probs))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  size_t ek = pr->explain_k;
  if (explain_set_room(&pr->bex, ek ? nb : 0, ek)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t b = 0; b < nb; b++) {
    const uint32_t *wi = NULL, *wc = NULL;
    size_t nw = pr->m->nb ? tbk_features_words(pr->fx, b, &wi, &wc) : 0;
    const uint32_t *sp;
    const double *spv;
    size_t nsp = tbk_features_sparse_values(pr->fx, b, &sp, &spv);
    if ((st = scorer_prob(&pr->tmpl, tbk_features_fixed(pr->fx, b), FX_FIXED_COUNT, sp, spv, nsp, wi, wc, nw,
                          &pr->probs[b], err)))
      return st;
    if (ek && (st = scorer_explain(pr, &pr->tmpl, 0, tbk_features_fixed(pr->fx, b), FX_FIXED_COUNT, sp, spv, nsp, wi,
                                   wc, nw, &pr->bex.ex[b], err)))
      return st;
  }
  if (ek) pr->bex.n = nb;
  /* The rows are dead once scored (the probabilities are kept apart): a
   * big page's go before its units are made, where the peak is. */
  tbk_features_drop_rows(pr->fx);
  *probs = pr->probs;
  return TBK_OK;
}

const tbk_units *tbk_predictor_units(const tbk_predictor *pr) { return pr->ux; }

void tbk_predictor_page_done(tbk_predictor *pr) {
  pr->hdf_page = 0;
  tbk_features_drop_page(pr->fx);
  if (pr->ux) tbk_units_drop_page(pr->ux);
}

/* Whether the page's function words are mostly lang's list's (the
 * units' guess, tbk_units_language). */
static int page_in_language(const tbk_units *ux, const char *lang) {
  int l = tbk_units_language(ux);
  return l >= 0 && strcmp(tbk_stop_codes[l], lang) == 0;
}

int tbk_predictor_nontext_page(const tbk_predictor *pr) { return pr->nontext_page; }

tbk_status tbk_predict_units(tbk_predictor *pr, const tbk_page *page, const double **block_p, const double **unit_p,
                             tbk_error *err) {
  if (!pr->ux) return tbk_fail(err, TBK_ERR_ARG, "the model has no content stage");
  pr->bex.n = pr->uex.n = 0; /* no template stage runs without its inputs */
  const double *bp = NULL;
  tbk_status st = pr->no_template ? TBK_OK : score_blocks(pr, page, &bp, err);
  if (st || (st = tbk_units_page_with(pr->ux, page, bp, pr->no_template ? NULL : pr->fx, err))) return st;
  tbk_features_drop_page(pr->fx); /* the units have read its tokens */
  size_t nu = tbk_units_count(pr->ux);
  if (tbk_grow((void **)&pr->uprobs, &pr->ucap, nu ? nu : 1, sizeof *pr->uprobs) ||
      tbk_grow((void **)&pr->first, &pr->fcap, 3 * (nu ? nu : 1), sizeof *pr->first))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  const tbk_model *c = pr->m->content;
  /* The text model's word statistics are its training pages' language's:
   * on a page in another one they are noise, and the stage fitted without
   * them decides. */
  pr->nontext_page = c->nontext && !page_in_language(pr->ux, c->text_lang);
  scorer *sc = pr->nontext_page ? &pr->nontext : &pr->content;
  size_t ek = pr->explain_k;
  if (explain_set_room(&pr->uex, ek ? nu : 0, ek)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < nu; i++) {
    const uint32_t *wi = NULL, *wc = NULL;
    size_t nw = sc->m->nb ? tbk_units_words(pr->ux, i, &wi, &wc) : 0;
    const uint32_t *sp;
    const double *spv;
    size_t nsp = tbk_units_sparse_values(pr->ux, i, &sp, &spv);
    if ((st = scorer_prob(sc, tbk_units_fixed(pr->ux, i), UX_FIXED_COUNT, sp, spv, nsp, wi, wc, nw, &pr->uprobs[i],
                          err)))
      return st;
    /* a unit the contextual pass scores again is explained again there */
    if (ek && (st = scorer_explain(pr, sc, 1, tbk_units_fixed(pr->ux, i), UX_FIXED_COUNT, sp, spv, nsp, wi, wc, nw,
                                   &pr->uex.ex[i], err)))
      return st;
  }
  if (c->context && nu) {
    /* The second pass sees the units training saw: those with words (a
     * unit of punctuation has no gold label), in reading order. */
    double *p = pr->first, *chars = pr->first + nu, *idx = pr->first + 2 * nu;
    size_t n = 0;
    const tbk_units *ux = pr->ux;
    for (size_t i = 0; i < nu; i++) {
      if (!ux->u[i].words) continue;
      p[n] = pr->uprobs[i];
      chars[n] = ux->u[i].chars;
      idx[n++] = (double)i;
    }
    /* The context model's row is the unit's row with the context features
     * after it: scored as the unit's fixed features, its sparse columns
     * and the nonzero context features, all ascending, which adds the
     * same terms in the same order as the dense row did. */
    for (size_t k = 0; k < n; k++) {
      size_t i = (size_t)idx[k];
      const uint32_t *sp;
      const double *spv;
      size_t nsp = tbk_units_sparse_values(ux, i, &sp, &spv), ncol = nsp;
      double ctx[TBK_CTX_DIM];
      tbk_context_features(p, chars, n, k, ctx);
      memcpy(pr->cols, sp, nsp * sizeof *pr->cols);
      memcpy(pr->row, spv, nsp * sizeof *pr->row);
      for (uint32_t q = 0; q < TBK_CTX_DIM; q++)
        if (ctx[q] != 0) {
          pr->cols[ncol] = c->dim + q;
          pr->row[ncol++] = ctx[q];
        }
      const uint32_t *wi = NULL, *wc = NULL;
      size_t nw = c->context->nb ? tbk_units_words(ux, i, &wi, &wc) : 0;
      if ((st = scorer_prob(&pr->context, tbk_units_fixed(ux, i), UX_FIXED_COUNT, pr->cols, pr->row, ncol, wi, wc, nw,
                            &pr->uprobs[i], err)))
        return st;
      if (ek && (st = scorer_explain(pr, &pr->context, 1, tbk_units_fixed(ux, i), UX_FIXED_COUNT, pr->cols, pr->row,
                                     ncol, wi, wc, nw, &pr->uex.ex[i], err)))
        return st;
    }
  }
  if (ek) pr->uex.n = nu;
  if ((st = history_units(pr, page, pr->uprobs, err))) return st;
  *block_p = bp;
  *unit_p = pr->uprobs;
  return TBK_OK;
}

int32_t tbk_unit_block(const tbk_page *page, const tbk_units *ux, size_t i) {
  const tbk_page_view pv = tbk_page_view_of(page);
  /* the blocks of a unit's runs, with their bytes: almost always one */
  enum { MAX_BLOCKS = 8 };
  int32_t blk[MAX_BLOCKS];
  size_t bytes[MAX_BLOCKS], nb = 0, best = 0;
  const tbk_unit_rec *u = &ux->u[i];
  for (uint32_t r = u->run_first; r < u->run_end; r++) {
    int32_t b = tbk_view_block_of(&pv, pv.runs[r].node);
    if (b < 0) continue;
    size_t k = 0;
    while (k < nb && blk[k] != b) k++;
    if (k == nb) {
      if (nb == MAX_BLOCKS) continue;
      blk[nb] = b;
      bytes[nb++] = 0;
    }
    bytes[k] += pv.runs[r].end - pv.runs[r].start;
    if (bytes[k] > bytes[best]) best = k;
  }
  return nb ? blk[best] : -1;
}

static int run_is_template(const tbk_page_view *pv, const tbk_run *r, const double *probs, double thr) {
  int32_t b = tbk_view_block_of(pv, r->node);
  return b >= 0 && probs[b] >= thr;
}

/* Element that starts the visual line a run belongs to. */
static uint32_t line_elem(const tbk_page_view *pv, uint32_t i) {
  while (i != TBK_NONE && !(tbk_tag_flags(pv->nodes[i].tag) & TAG_BREAK)) i = pv->nodes[i].parent;
  return i;
}

/* The line is counted in bytes, not kept as an offset: out may have a sink
 * (util.h) that empties it at the end of a line. */
static int trim_line_end(tbk_buf *out, size_t *line_len) {
  while (*line_len && out->data[out->len - 1] == ' ') out->len--, --*line_len;
  if (!*line_len) return 0; /* nothing on the line */
  *line_len = 0;
  return tbk_buf_append(out, "\n", 1);
}

tbk_status tbk_render_text(const tbk_page *page, const double *probs, double threshold, tbk_buf *out,
                           tbk_page_summary *summary) {
  const tbk_page_view pv = tbk_page_view_of(page);
  tbk_page_summary s = {0};
  s.blocks = pv.n_blocks;
  for (size_t b = 0; b < pv.n_blocks; b++) s.template_blocks += probs[b] >= threshold;
  uint32_t cur_line = TBK_NONE - 1;
  size_t line_len = 0;
  for (size_t i = 0; i < pv.n_runs; i++) {
    const tbk_run *r = &pv.runs[i];
    size_t chars = tbk_utf8_length(pv.text + r->start, r->end - r->start);
    s.chars += chars;
    if (run_is_template(&pv, r, probs, threshold)) {
      s.template_chars += chars;
      continue;
    }
    uint32_t le = line_elem(&pv, r->node);
    const char *t = pv.text + r->start;
    size_t n = r->end - r->start;
    if (le != cur_line) {
      if (trim_line_end(out, &line_len)) return TBK_ERR_NOMEM;
      cur_line = le;
      while (n && *t == ' ') {
        t++;
        n--;
      }
    } else if (line_len && out->data[out->len - 1] == ' ' && n && *t == ' ') {
      t++; /* the removed text between two kept runs may leave two spaces */
      n--;
    }
    if (tbk_buf_append(out, t, n)) return TBK_ERR_NOMEM;
    line_len += n;
  }
  if (trim_line_end(out, &line_len)) return TBK_ERR_NOMEM;
  if (tbk_buf_reserve(out, 0)) return TBK_ERR_NOMEM;
  out->data[out->len] = '\0';
  if (summary) *summary = s;
  return TBK_OK;
}

tbk_status tbk_render_html(const tbk_page *page, const double *probs, double threshold, int annotate, tbk_buf *out) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t nb = pv.n_blocks;
  tbk_html_edit e = {0};
  tbk_status st = TBK_ERR_NOMEM;
  if (annotate) return tbk_render_blocks_annotated(page, probs, threshold, out);
  /* Same decisions as the text rendering: a template block goes whole
   * when no content block sits inside it; otherwise only the text that
   * is its own goes. */
  char *whole = calloc(nb ? nb : 1, 1);
  tbk_html_drop *drop = malloc((pv.n_runs + nb + 1) * sizeof *drop);
  if (whole && drop) {
    for (size_t b = 0; b < nb; b++) whole[b] = probs[b] >= threshold;
    for (size_t b = nb; b-- > 0;) /* children come after parents: sweep back */
      if (probs[b] < threshold && pv.blocks[b].parent >= 0) {
        for (int32_t a = pv.blocks[b].parent; a >= 0; a = pv.blocks[a].parent) whole[a] = 0;
      }
    size_t nd = 0;
    for (size_t i = 0; i < pv.n_runs; i++) {
      int32_t b = tbk_view_block_of(&pv, pv.runs[i].node);
      if (b >= 0 && probs[b] >= threshold && !whole[b]) drop[nd++] = (tbk_html_drop){(uint32_t)i, 1};
    }
    for (size_t b = 0; b < nb; b++) {
      if (!whole[b]) continue;
      int32_t a = pv.blocks[b].parent;
      while (a >= 0 && !whole[a]) a = pv.blocks[a].parent;
      if (a < 0) drop[nd++] = (tbk_html_drop){pv.blocks[b].node, 0}; /* outermost only */
    }
    e.drop = drop;
    e.n_drop = nd;
    st = tbk_page_html(page, &e, out);
  }
  free(drop);
  free(whole);
  return st;
}

int tbk_block_record(const tbk_page *page, const char *page_id, const double *probs, double threshold, size_t b,
                     tbk_buf *out) {
  const tbk_page_view pv = tbk_page_view_of(page);
  const tbk_block *k = &pv.blocks[b];
  size_t sn = tbk_utf8_cut(k->text, k->text_len, 100);
  return tbk_buf_puts(out, "{\"page\":") || tbk_buf_json_str(out, page_id, strlen(page_id)) ||
                 tbk_buf_puts(out, ",\"path\":") || tbk_buf_json_str(out, k->path, strlen(k->path)) ||
                 tbk_buf_printf(out, ",\"tag\":\"%s\",\"p\":", k->tag) || tbk_buf_fixed4(out, probs[b]) ||
                 tbk_buf_puts(
                     out, probs[b] >= threshold ? ",\"template\":true,\"chars\":" : ",\"template\":false,\"chars\":") ||
                 tbk_buf_u64(out, k->text_chars) || tbk_buf_puts(out, ",\"text\":") ||
                 tbk_buf_json_str(out, k->text, sn)
             ? -1
             : 0;
}

tbk_status tbk_render_jsonl(const tbk_page *page, const char *page_id, const double *probs, double threshold,
                            tbk_buf *out) {
  const tbk_page_view pv = tbk_page_view_of(page);
  for (size_t b = 0; b < pv.n_blocks; b++)
    if (tbk_block_record(page, page_id, probs, threshold, b, out) || tbk_buf_puts(out, "}\n")) return TBK_ERR_NOMEM;
  return TBK_OK;
}
