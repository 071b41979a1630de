/* Naive Bayes over hashed word ids, multinomial or Bernoulli. Training
 * accumulates dense per-class counts; finishing turns them into one dense
 * table of per-word log ratios so a score costs one lookup per term. The
 * text form stores the counts, not the logs, so a reloaded model recomputes
 * the very same table. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ml.h"
#include "nb_view.h"
#include "util.h"

#define NB_MAX_DIM (1u << 26)

struct tbk_nb {
  tbk_nb_options opt;
  double docs[2];   /* [0] template, [1] content: weighted documents */
  double totals[2]; /* multinomial: weighted word count per class */
  double *cnt;      /* owned; 2 * dim: cnt[2i] template, cnt[2i+1] content;
                       NULL in a model read from text, which keeps only
                       its words' counts (w_*): a 2^18-id model has ~100k */
  uint32_t *w_idx;  /* owned; n_words ascending ids of a read model */
  double *w_cnt;    /* owned; 2 * n_words counts, as cnt */
  size_t n_words;
  double *ratio;    /* owned; dim log ratios, NULL until finished */
  double base;      /* score of the empty document */
  int finished;
};

void tbk_nb_options_init(tbk_nb_options *o) {
  o->kind = TBK_NB_MULTINOMIAL;
  o->dim = 1u << 18;
  o->alpha = 1.0;
}

static tbk_status check_options(const tbk_nb_options *o, tbk_error *err) {
  if (o->kind != TBK_NB_MULTINOMIAL && o->kind != TBK_NB_BERNOULLI)
    return tbk_fail(err, TBK_ERR_ARG, "naive bayes: unknown kind %d",
                    (int)o->kind);
  if (o->dim < 1 || o->dim > NB_MAX_DIM)
    return tbk_fail(err, TBK_ERR_ARG,
                    "naive bayes: dimension %u not in 1..%u",
                    (unsigned)o->dim, (unsigned)NB_MAX_DIM);
  if (!(o->alpha > 0) || !isfinite(o->alpha))
    return tbk_fail(err, TBK_ERR_ARG, "naive bayes: alpha must be > 0");
  return TBK_OK;
}

tbk_status tbk_nb_new(const tbk_nb_options *opt, tbk_nb **out,
                      tbk_error *err) {
  *out = NULL;
  tbk_nb_options def;
  if (!opt) {
    tbk_nb_options_init(&def);
    opt = &def;
  }
  tbk_status st = check_options(opt, err);
  if (st) return st;
  tbk_nb *nb = calloc(1, sizeof *nb);
  if (nb) nb->cnt = calloc(2 * (size_t)opt->dim, sizeof *nb->cnt);
  if (!nb || !nb->cnt) {
    free(nb);
    return tbk_fail(err, TBK_ERR_NOMEM, "naive bayes: out of memory");
  }
  nb->opt = *opt;
  *out = nb;
  return TBK_OK;
}

/* Word i's two counts, for i = 0, 1, ... in turn (a read model's sparse
 * list is walked alongside). */
typedef struct word_iter {
  const tbk_nb *nb;
  size_t k; /* next entry of the sparse list */
} word_iter;

static void word_counts(word_iter *it, size_t i, double *t, double *c) {
  const tbk_nb *nb = it->nb;
  if (nb->cnt) {
    *t = nb->cnt[2 * i];
    *c = nb->cnt[2 * i + 1];
  } else if (it->k < nb->n_words && nb->w_idx[it->k] == i) {
    *t = nb->w_cnt[2 * it->k];
    *c = nb->w_cnt[2 * it->k + 1];
    it->k++;
  } else {
    *t = *c = 0;
  }
}

void tbk_nb_free(tbk_nb *nb) {
  if (!nb) return;
  free(nb->cnt);
  free(nb->w_idx);
  free(nb->w_cnt);
  free(nb->ratio);
  free(nb);
}

const tbk_nb_options *tbk_nb_get_options(const tbk_nb *nb) {
  return &nb->opt;
}

double tbk_nb_docs(const tbk_nb *nb, int label) {
  return label > 0 ? nb->docs[0] : nb->docs[1];
}

static tbk_status check_terms(const tbk_nb *nb, const tbk_term *t, size_t n,
                              tbk_error *err) {
  if (n && !t) return tbk_fail(err, TBK_ERR_ARG, "naive bayes: NULL terms");
  for (size_t i = 0; i < n; i++) {
    if (t[i].index >= nb->opt.dim)
      return tbk_fail(err, TBK_ERR_ARG,
                      "naive bayes: term index %u >= dimension %u",
                      (unsigned)t[i].index, (unsigned)nb->opt.dim);
    if (i && t[i].index <= t[i - 1].index)
      return tbk_fail(err, TBK_ERR_ARG,
                      "naive bayes: term indices not strictly ascending");
    if (!(t[i].count > 0) || !isfinite(t[i].count))
      return tbk_fail(err, TBK_ERR_ARG,
                      "naive bayes: term count must be finite and > 0");
  }
  return TBK_OK;
}

tbk_status tbk_nb_add(tbk_nb *nb, int label, const tbk_term *terms, size_t n,
                      double weight, tbk_error *err) {
  if (nb->finished)
    return tbk_fail(err, TBK_ERR_ARG, "naive bayes: model already finished");
  if (label != 1 && label != -1)
    return tbk_fail(err, TBK_ERR_ARG, "naive bayes: label %d is not +1/-1",
                    label);
  if (!(weight > 0) || !isfinite(weight))
    return tbk_fail(err, TBK_ERR_ARG,
                    "naive bayes: document weight must be finite and > 0");
  tbk_status st = check_terms(nb, terms, n, err);
  if (st) return st;
  int c = label > 0 ? 0 : 1;
  nb->docs[c] += weight;
  int bern = nb->opt.kind == TBK_NB_BERNOULLI;
  for (size_t i = 0; i < n; i++) {
    double add = bern ? weight : weight * terms[i].count;
    nb->cnt[2 * (size_t)terms[i].index + c] += add;
    if (!bern) nb->totals[c] += add;
  }
  return TBK_OK;
}

tbk_status tbk_nb_finish(tbk_nb *nb, tbk_error *err) {
  if (nb->finished) return TBK_OK;
  if (!(nb->docs[0] > 0))
    return tbk_fail(err, TBK_ERR_EMPTY, "naive bayes: no template documents");
  if (!(nb->docs[1] > 0))
    return tbk_fail(err, TBK_ERR_EMPTY, "naive bayes: no content documents");
  size_t dim = nb->opt.dim;
  double a = nb->opt.alpha;
  double *r = malloc(dim * sizeof *r);
  if (!r) return tbk_fail(err, TBK_ERR_NOMEM, "naive bayes: out of memory");
  double base = log(nb->docs[0]) - log(nb->docs[1]);
  if (nb->opt.kind == TBK_NB_MULTINOMIAL) {
    /* log theta_ti/theta_ci = log(n_ti+a)/(n_ci+a) + log(N_c+aV)/(N_t+aV). */
    double norm = log(nb->totals[1] + a * (double)dim) -
                  log(nb->totals[0] + a * (double)dim);
    /* A word never seen in either class (most of the hashed ids) gets
     * log(a) - log(a) + norm, which is norm to the last bit: two logs
     * saved per such id, the bulk of a model's load. */
    word_iter it = {nb, 0};
    for (size_t i = 0; i < dim; i++) {
      double t, c;
      word_counts(&it, i, &t, &c);
      r[i] = t == 0 && c == 0 ? norm : log(t + a) - log(c + a) + norm;
    }
  } else {
    /* Every word is absent until shown present: the base sums the absence
     * terms of all words; a present word swaps its absence term for its
     * presence term. */
    double dt = nb->docs[0] + 2 * a, dc = nb->docs[1] + 2 * a;
    double lt = log(dt), lc = log(dc);
    word_iter it = {nb, 0};
    for (size_t i = 0; i < dim; i++) {
      double nt, nc;
      word_counts(&it, i, &nt, &nc);
      nt += a;
      nc += a;
      double present = (log(nt) - lt) - (log(nc) - lc);
      double absent = (log(dt - nt) - lt) - (log(dc - nc) - lc);
      base += absent;
      r[i] = present - absent;
    }
  }
  nb->ratio = r;
  nb->base = base;
  nb->finished = 1;
  return TBK_OK;
}

int tbk_nb_get_view(const tbk_nb *nb, tbk_nb_view *v) {
  if (!nb->finished) return -1;
  *v = (tbk_nb_view){nb->ratio, nb->base, nb->opt.dim, nb->opt.kind == TBK_NB_BERNOULLI};
  return 0;
}

tbk_status tbk_nb_score(const tbk_nb *nb, const tbk_term *terms, size_t n,
                        double *score, tbk_error *err) {
  *score = 0;
  if (!nb->finished)
    return tbk_fail(err, TBK_ERR_ARG, "naive bayes: model not finished");
  tbk_status st = check_terms(nb, terms, n, err);
  if (st) return st;
  double s = nb->base;
  int bern = nb->opt.kind == TBK_NB_BERNOULLI;
  for (size_t i = 0; i < n; i++)
    s += (bern ? 1.0 : terms[i].count) * nb->ratio[terms[i].index];
  *score = s;
  return TBK_OK;
}

/* ------------------------------------------------------------ text form */

#define CHECK_BUF(call)                                                   \
  do {                                                                    \
    if ((call) != 0)                                                      \
      return tbk_fail(err, TBK_ERR_NOMEM, "naive bayes: out of memory");  \
  } while (0)

tbk_status tbk_nb_write(const tbk_nb *nb, tbk_buf *out, tbk_error *err) {
  size_t dim = nb->opt.dim, words = 0;
  word_iter it = {nb, 0};
  for (size_t i = 0; i < dim; i++) {
    double t, c;
    word_counts(&it, i, &t, &c);
    words += t != 0 || c != 0;
  }
  CHECK_BUF(tbk_buf_printf(
      out,
      "tbk-nb 1\nkind %s\ndim %u\nalpha %.17g\ndocs %.17g %.17g\n"
      "totals %.17g %.17g\nwords %zu\n",
      nb->opt.kind == TBK_NB_BERNOULLI ? "bernoulli" : "multinomial",
      (unsigned)nb->opt.dim, nb->opt.alpha, nb->docs[0], nb->docs[1], nb->totals[0],
      nb->totals[1], words));
  it.k = 0;
  for (size_t i = 0; i < dim; i++) {
    double t, c;
    word_counts(&it, i, &t, &c);
    if (t != 0 || c != 0) CHECK_BUF(tbk_buf_printf(out, "%zu %.17g %.17g\n", i, t, c));
  }
  CHECK_BUF(tbk_buf_puts(out, "end\n"));
  return TBK_OK;
}

/* Line cursor over a text that need not be NUL-terminated. */
typedef struct cursor {
  const char *p, *end;
  size_t line;
  char buf[256];
} cursor;

/* Copy the next line (without '\n') into c->buf; -1 at end of text or when
 * the line is too long to be ours. */
static int next_line(cursor *c) {
  if (c->p >= c->end) return -1;
  const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
  const char *stop = nl ? nl : c->end;
  size_t len = (size_t)(stop - c->p);
  c->line++;
  if (len >= sizeof c->buf) return -1;
  memcpy(c->buf, c->p, len);
  c->buf[len] = 0;
  c->p = nl ? nl + 1 : c->end;
  return 0;
}

/* Parse doubles/unsigned from a space-separated field list. */
static int parse_double(const char **s, double *v) {
  if (**s != ' ') return -1;
  (*s)++;
  if (**s == ' ' || **s == 0) return -1;
  char *e;
  errno = 0;
  *v = tbk_strtod(*s, &e);
  if (e == *s || errno == ERANGE || !isfinite(*v)) return -1;
  *s = e;
  return 0;
}

static int parse_count(const char **s, double *v) {
  return parse_double(s, v) || *v < 0 ? -1 : 0;
}

/* The decimal digits at *s (at least one), *s moved past them; -1 when
 * there are none or they overflow. strtoull's locale and sign handling
 * cost ~200 instructions a call, a fifth of a model's load: a model has a
 * word index on each of its ~100k word lines. */
static int parse_digits(const char **s, unsigned long long *v) {
  const char *p = *s;
  if (*p < '0' || *p > '9') return -1;
  unsigned long long x = 0;
  int over = 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (x > (ULLONG_MAX - d) / 10) over = 1;
    x = x * 10 + d;
  }
  *s = p;
  *v = x;
  return over ? -1 : 0;
}

static int parse_size(const char **s, unsigned long long *v) {
  if (**s != ' ') return -1;
  (*s)++;
  return parse_digits(s, v);
}

/* Line "<key> ..." with key matched exactly; returns the rest or NULL. */
static const char *keyed(const cursor *c, const char *key) {
  size_t k = strlen(key);
  if (strncmp(c->buf, key, k) != 0) return NULL;
  return c->buf + k;
}

static tbk_status bad_line(const cursor *c, const char *what, tbk_error *err) {
  return tbk_fail(err, TBK_ERR_MODEL, "naive bayes model line %zu: %s", c->line, what);
}

/* What the header lines say, checked against each other before anything
 * is allocated. */
typedef struct nb_header {
  tbk_nb_options o;
  double docs[2], totals[2];
  unsigned long long words; /* word lines that follow */
} nb_header;

static tbk_status read_header(cursor *c, nb_header *h, tbk_error *err) {
  const char *s;
  unsigned long long u;
  if (next_line(c) || strcmp(c->buf, "tbk-nb 1") != 0) return bad_line(c, "expected \"tbk-nb 1\"", err);
  if (next_line(c) || !(s = keyed(c, "kind "))) return bad_line(c, "expected kind", err);
  if (strcmp(s, "multinomial") == 0) h->o.kind = TBK_NB_MULTINOMIAL;
  else if (strcmp(s, "bernoulli") == 0) h->o.kind = TBK_NB_BERNOULLI;
  else return bad_line(c, "unknown kind", err);
  if (next_line(c) || !(s = keyed(c, "dim")) || parse_size(&s, &u) || *s || u < 1 || u > NB_MAX_DIM)
    return bad_line(c, "bad dim", err);
  h->o.dim = (uint32_t)u;
  if (next_line(c) || !(s = keyed(c, "alpha")) || parse_double(&s, &h->o.alpha) || *s || !(h->o.alpha > 0))
    return bad_line(c, "bad alpha", err);
  if (next_line(c) || !(s = keyed(c, "docs")) || parse_count(&s, &h->docs[0]) || parse_count(&s, &h->docs[1]) ||
      *s)
    return bad_line(c, "bad docs", err);
  if (!(h->docs[0] > 0) || !(h->docs[1] > 0)) return bad_line(c, "a class has no documents", err);
  if (next_line(c) || !(s = keyed(c, "totals")) || parse_count(&s, &h->totals[0]) ||
      parse_count(&s, &h->totals[1]) || *s)
    return bad_line(c, "bad totals", err);
  if (h->o.kind == TBK_NB_BERNOULLI && (h->totals[0] != 0 || h->totals[1] != 0))
    return bad_line(c, "bernoulli model with word totals", err);
  if (next_line(c) || !(s = keyed(c, "words")) || parse_size(&s, &h->words) || *s || h->words > h->o.dim)
    return bad_line(c, "bad words", err);
  return TBK_OK;
}

/* The word lines, ascending by index. Recomputed sums catch a damaged word
 * list; the stored totals stay authoritative so the round trip is exact. */
static tbk_status read_words(cursor *c, const nb_header *h, tbk_nb *nb, tbk_error *err) {
  double sum[2] = {0, 0};
  long long prev = -1;
  for (unsigned long long k = 0; k < h->words; k++) {
    double a, b;
    if (next_line(c)) return bad_line(c, "missing word line", err);
    const char *s = c->buf;
    if (*s < '0' || *s > '9') return bad_line(c, "bad word index", err);
    unsigned long long idx;
    if (parse_digits(&s, &idx) || idx >= h->o.dim || (long long)idx <= prev)
      return bad_line(c, "word index out of range or not ascending", err);
    if (parse_count(&s, &a) || parse_count(&s, &b) || *s || (a == 0 && b == 0))
      return bad_line(c, "bad word counts", err);
    if (h->o.kind == TBK_NB_BERNOULLI && (a > h->docs[0] || b > h->docs[1]))
      return bad_line(c, "word in more documents than its class has", err);
    prev = (long long)idx;
    nb->w_idx[k] = (uint32_t)idx;
    nb->w_cnt[2 * k] = a;
    nb->w_cnt[2 * k + 1] = b;
    nb->n_words = k + 1;
    sum[0] += a;
    sum[1] += b;
  }
  if (h->o.kind == TBK_NB_MULTINOMIAL)
    for (int k = 0; k < 2; k++) {
      double tot = h->totals[k];
      if (fabs(sum[k] - tot) > 1e-9 * (tot > 1 ? tot : 1))
        return tbk_fail(err, TBK_ERR_MODEL, "naive bayes model: word counts do not add up to totals");
    }
  return TBK_OK;
}

/* Numbers that parse yet overflow the logs (an alpha or counts near 1e308)
 * would make every score NaN: refused on load. */
static tbk_status check_finite(const tbk_nb *nb, tbk_error *err) {
  for (size_t i = 0; i < nb->opt.dim; i++)
    if (!isfinite(nb->ratio[i]) || !isfinite(nb->base))
      return tbk_fail(err, TBK_ERR_MODEL,
                      "naive bayes model: numbers out of range (the log odds of word %zu are not finite)", i);
  return TBK_OK;
}

tbk_status tbk_nb_read(const char *text, size_t len, tbk_nb **out,
                       size_t *consumed, tbk_error *err) {
  *out = NULL;
  if (consumed) *consumed = 0;
  cursor c = {.p = text, .end = text + len, .line = 0};
  nb_header h;
  tbk_nb *nb = NULL;
  tbk_status st = read_header(&c, &h, err);
  if (st) return st;
  nb = calloc(1, sizeof *nb);
  if (nb) {
    nb->opt = h.o;
    nb->w_idx = malloc((h.words ? h.words : 1) * sizeof *nb->w_idx);
    nb->w_cnt = malloc((h.words ? h.words : 1) * 2 * sizeof *nb->w_cnt);
  }
  if (!nb || !nb->w_idx || !nb->w_cnt) {
    tbk_nb_free(nb);
    return tbk_fail(err, TBK_ERR_NOMEM, "naive bayes: out of memory");
  }
  nb->docs[0] = h.docs[0];
  nb->docs[1] = h.docs[1];
  nb->totals[0] = h.totals[0];
  nb->totals[1] = h.totals[1];
  st = read_words(&c, &h, nb, err);
  if (!st && (next_line(&c) || strcmp(c.buf, "end") != 0)) st = bad_line(&c, "expected \"end\"", err);
  if (!st) st = tbk_nb_finish(nb, err);
  if (!st) st = check_finite(nb, err);
  if (st) {
    tbk_nb_free(nb);
    return st;
  }
  if (consumed) *consumed = (size_t)(c.p - text);
  *out = nb;
  return TBK_OK;
}
