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
                       NULL in a model read from text, whose counts are
                       its words' pairs alone (below) */
  /* Word i's two counts as pair slot[i] (0: no counts). A 2^18-id model
   * has ~100k words but only ~6k distinct count pairs, so a read model
   * keeps 2 bytes an id and a log ratio per pair, not a double per id (and
   * the words' counts beside it): 4 MB became 0.6 MB, and a load takes the
   * logs of ~6k pairs instead of ~100k words. Past 65,535 pairs the slots
   * are 32-bit (slot32); exactly one of slot16, slot32 is set once the
   * pairs exist (read, or finished). */
  uint16_t *slot16;   /* owned, dim */
  uint32_t *slot32;   /* owned, dim */
  double *pair_cnt;   /* owned; 2 * npairs counts, as cnt; pair 0 is 0, 0 */
  double *pair_ratio; /* owned; npairs log ratios, NULL until finished */
  uint32_t npairs, cap_pairs;
  uint32_t *pair_hash; /* owned while pairs are added: index + 1 per slot */
  size_t hash_cap;     /* a power of two, or 0 */
  double base;         /* score of the empty document */
  int finished;
};

static inline uint32_t slot_of(const tbk_nb *nb, size_t i) { return nb->slot16 ? nb->slot16[i] : nb->slot32[i]; }

/* The log ratio of word i in a finished model. */
static inline double ratio_of(const tbk_nb *nb, size_t i) { return nb->pair_ratio[slot_of(nb, i)]; }

static uint64_t dbits(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

/* Counts are mostly whole numbers, whose bits vary only at the top: a
 * finalizer that moves them to the low bits the table indexes by
 * (MurmurHash3's fmix64, applied twice). */
static uint64_t fmix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDULL;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ULL;
  return h ^ (h >> 33);
}

static size_t pair_hash_of(uint64_t a, uint64_t b, size_t cap) { return (size_t)fmix64(a ^ fmix64(b)) & (cap - 1); }

static int pair_hash_grow(tbk_nb *nb) {
  size_t cap = nb->hash_cap ? 2 * nb->hash_cap : 1024;
  uint32_t *h = calloc(cap, sizeof *h);
  if (!h) return -1;
  for (uint32_t p = 0; p < nb->npairs; p++) {
    size_t k = pair_hash_of(dbits(nb->pair_cnt[2 * p]), dbits(nb->pair_cnt[2 * p + 1]), cap);
    while (h[k]) k = (k + 1) & (cap - 1);
    h[k] = p + 1;
  }
  free(nb->pair_hash);
  nb->pair_hash = h;
  nb->hash_cap = cap;
  return 0;
}

/* Word i gets counts (t, c): the index of their pair, a new one when no
 * word had them (the same bits: -0 is not 0, so a model writes back what
 * it read). Slots start 16-bit and widen past 65,535 pairs. -1 when out
 * of memory. */
static int set_pair(tbk_nb *nb, size_t i, double t, double c) {
  uint64_t bt = dbits(t), bc = dbits(c);
  if (2 * ((size_t)nb->npairs + 1) > nb->hash_cap && pair_hash_grow(nb)) return -1;
  size_t k = pair_hash_of(bt, bc, nb->hash_cap);
  uint32_t p;
  for (;; k = (k + 1) & (nb->hash_cap - 1)) {
    if (!nb->pair_hash[k]) {
      if (nb->npairs == nb->cap_pairs) {
        uint32_t cap = nb->cap_pairs ? 2 * nb->cap_pairs : 256;
        double *pc = realloc(nb->pair_cnt, 2 * (size_t)cap * sizeof *pc);
        if (!pc) return -1;
        nb->pair_cnt = pc;
        nb->cap_pairs = cap;
      }
      p = nb->npairs++;
      nb->pair_cnt[2 * p] = t;
      nb->pair_cnt[2 * p + 1] = c;
      nb->pair_hash[k] = p + 1;
      break;
    }
    p = nb->pair_hash[k] - 1;
    if (dbits(nb->pair_cnt[2 * p]) == bt && dbits(nb->pair_cnt[2 * p + 1]) == bc) break;
  }
  if (nb->slot16 && p > UINT16_MAX) {
    uint32_t *w = malloc((size_t)nb->opt.dim * sizeof *w);
    if (!w) return -1;
    for (size_t q = 0; q < nb->opt.dim; q++) w[q] = nb->slot16[q];
    free(nb->slot16);
    nb->slot16 = NULL;
    nb->slot32 = w;
  }
  if (nb->slot16) nb->slot16[i] = (uint16_t)p;
  else nb->slot32[i] = p;
  return 0;
}

/* Empty slots (every word pair 0, the counts 0, 0); -1 when out of memory. */
static int pairs_start(tbk_nb *nb) {
  nb->slot16 = calloc(nb->opt.dim, sizeof *nb->slot16);
  if (!nb->slot16) return -1;
  return set_pair(nb, 0, 0.0, 0.0);
}

/* The pairs are complete: the hash that found them is dead, the pair
 * array cut to size. */
static void pairs_done(tbk_nb *nb) {
  free(nb->pair_hash);
  nb->pair_hash = NULL;
  nb->hash_cap = 0;
  double *pc = realloc(nb->pair_cnt, 2 * (size_t)(nb->npairs ? nb->npairs : 1) * sizeof *pc);
  if (pc) {
    nb->pair_cnt = pc;
    nb->cap_pairs = nb->npairs;
  }
}

void tbk_nb_options_init(tbk_nb_options *o) {
  o->kind = TBK_NB_MULTINOMIAL;
  o->dim = 1u << 18;
  o->alpha = 1.0;
}

static tbk_status check_options(const tbk_nb_options *o, tbk_error *err) {
  if (o->kind != TBK_NB_MULTINOMIAL && o->kind != TBK_NB_BERNOULLI)
    return tbk_fail(err, TBK_ERR_ARG, "naive bayes: unknown kind %d", (int)o->kind);
  if (o->dim < 1 || o->dim > NB_MAX_DIM)
    return tbk_fail(err, TBK_ERR_ARG, "naive bayes: dimension %u not in 1..%u", (unsigned)o->dim, (unsigned)NB_MAX_DIM);
  if (!(o->alpha > 0) || !isfinite(o->alpha)) return tbk_fail(err, TBK_ERR_ARG, "naive bayes: alpha must be > 0");
  return TBK_OK;
}

tbk_status tbk_nb_new(const tbk_nb_options *opt, tbk_nb **out, tbk_error *err) {
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

/* Word i's two counts: a training model's dense table, else its pair. */
static void word_counts(const tbk_nb *nb, size_t i, double *t, double *c) {
  if (nb->cnt) {
    *t = nb->cnt[2 * i];
    *c = nb->cnt[2 * i + 1];
  } else {
    uint32_t p = slot_of(nb, i);
    *t = nb->pair_cnt[2 * p];
    *c = nb->pair_cnt[2 * p + 1];
  }
}

void tbk_nb_free(tbk_nb *nb) {
  if (!nb) return;
  free(nb->cnt);
  free(nb->slot16);
  free(nb->slot32);
  free(nb->pair_cnt);
  free(nb->pair_ratio);
  free(nb->pair_hash);
  free(nb);
}

const tbk_nb_options *tbk_nb_get_options(const tbk_nb *nb) { return &nb->opt; }

double tbk_nb_docs(const tbk_nb *nb, int label) { return label > 0 ? nb->docs[0] : nb->docs[1]; }

static tbk_status check_terms(const tbk_nb *nb, const tbk_term *t, size_t n, tbk_error *err) {
  if (n && !t) return tbk_fail(err, TBK_ERR_ARG, "naive bayes: NULL terms");
  for (size_t i = 0; i < n; i++) {
    if (t[i].index >= nb->opt.dim)
      return tbk_fail(err, TBK_ERR_ARG, "naive bayes: term index %u >= dimension %u", (unsigned)t[i].index,
                      (unsigned)nb->opt.dim);
    if (i && t[i].index <= t[i - 1].index)
      return tbk_fail(err, TBK_ERR_ARG, "naive bayes: term indices not strictly ascending");
    if (!(t[i].count > 0) || !isfinite(t[i].count))
      return tbk_fail(err, TBK_ERR_ARG, "naive bayes: term count must be finite and > 0");
  }
  return TBK_OK;
}

tbk_status tbk_nb_add(tbk_nb *nb, int label, const tbk_term *terms, size_t n, double weight, tbk_error *err) {
  if (nb->finished) return tbk_fail(err, TBK_ERR_ARG, "naive bayes: model already finished");
  if (label != 1 && label != -1) return tbk_fail(err, TBK_ERR_ARG, "naive bayes: label %d is not +1/-1", label);
  if (!(weight > 0) || !isfinite(weight))
    return tbk_fail(err, TBK_ERR_ARG, "naive bayes: document weight must be finite and > 0");
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
  if (!(nb->docs[0] > 0)) return tbk_fail(err, TBK_ERR_EMPTY, "naive bayes: no template documents");
  if (!(nb->docs[1] > 0)) return tbk_fail(err, TBK_ERR_EMPTY, "naive bayes: no content documents");
  size_t dim = nb->opt.dim;
  double a = nb->opt.alpha;
  if (!nb->slot16 && !nb->slot32) { /* a trained model: its pairs from the table */
    int bad = pairs_start(nb);
    for (size_t i = 0; i < dim && !bad; i++)
      if (dbits(nb->cnt[2 * i]) | dbits(nb->cnt[2 * i + 1])) bad = set_pair(nb, i, nb->cnt[2 * i], nb->cnt[2 * i + 1]);
    if (bad) return tbk_fail(err, TBK_ERR_NOMEM, "naive bayes: out of memory");
  }
  pairs_done(nb);
  uint32_t np = nb->npairs;
  double *r = malloc((size_t)np * sizeof *r);
  if (!r) return tbk_fail(err, TBK_ERR_NOMEM, "naive bayes: out of memory");
  double base = log(nb->docs[0]) - log(nb->docs[1]);
  if (nb->opt.kind == TBK_NB_MULTINOMIAL) {
    /* log theta_ti/theta_ci = log(n_ti+a)/(n_ci+a) + log(N_c+aV)/(N_t+aV). */
    double norm = log(nb->totals[1] + a * (double)dim) - log(nb->totals[0] + a * (double)dim);
    /* A word never seen in either class (most of the hashed ids) gets
     * log(a) - log(a) + norm, which is norm to the last bit. */
    for (uint32_t p = 0; p < np; p++) {
      double t = nb->pair_cnt[2 * p], c = nb->pair_cnt[2 * p + 1];
      r[p] = t == 0 && c == 0 ? norm : log(t + a) - log(c + a) + norm;
    }
  } else {
    /* Every word is absent until shown present: the base sums the absence
     * terms of all words (word by word, in id order, as it always did); a
     * present word swaps its absence term for its presence term. */
    double dt = nb->docs[0] + 2 * a, dc = nb->docs[1] + 2 * a;
    double lt = log(dt), lc = log(dc);
    double *absent = malloc((size_t)np * sizeof *absent);
    if (!absent) {
      free(r);
      return tbk_fail(err, TBK_ERR_NOMEM, "naive bayes: out of memory");
    }
    for (uint32_t p = 0; p < np; p++) {
      double nt = nb->pair_cnt[2 * p] + a, nc = nb->pair_cnt[2 * p + 1] + a;
      double present = (log(nt) - lt) - (log(nc) - lc);
      absent[p] = (log(dt - nt) - lt) - (log(dc - nc) - lc);
      r[p] = present - absent[p];
    }
    for (size_t i = 0; i < dim; i++) base += absent[slot_of(nb, i)];
    free(absent);
  }
  nb->pair_ratio = r;
  nb->base = base;
  nb->finished = 1;
  return TBK_OK;
}

int tbk_nb_get_view(const tbk_nb *nb, tbk_nb_view *v) {
  if (!nb->finished) return -1;
  *v = (tbk_nb_view){nb->slot16, nb->slot32, nb->pair_ratio, nb->base, nb->opt.dim, nb->opt.kind == TBK_NB_BERNOULLI};
  return 0;
}

tbk_status tbk_nb_score(const tbk_nb *nb, const tbk_term *terms, size_t n, double *score, tbk_error *err) {
  *score = 0;
  if (!nb->finished) return tbk_fail(err, TBK_ERR_ARG, "naive bayes: model not finished");
  tbk_status st = check_terms(nb, terms, n, err);
  if (st) return st;
  double s = nb->base;
  int bern = nb->opt.kind == TBK_NB_BERNOULLI;
  for (size_t i = 0; i < n; i++) s += (bern ? 1.0 : terms[i].count) * ratio_of(nb, terms[i].index);
  *score = s;
  return TBK_OK;
}

/* ------------------------------------------------------------ text form */

#define CHECK_BUF(call)                                                                 \
  do {                                                                                  \
    if ((call) != 0) return tbk_fail(err, TBK_ERR_NOMEM, "naive bayes: out of memory"); \
  } while (0)

tbk_status tbk_nb_write(const tbk_nb *nb, tbk_buf *out, tbk_error *err) {
  size_t dim = nb->opt.dim, words = 0;
  for (size_t i = 0; i < dim; i++) {
    double t, c;
    word_counts(nb, i, &t, &c);
    words += t != 0 || c != 0;
  }
  CHECK_BUF(tbk_buf_printf(out,
                           "tbk-nb 1\nkind %s\ndim %u\nalpha %.17g\ndocs %.17g %.17g\n"
                           "totals %.17g %.17g\nwords %zu\n",
                           nb->opt.kind == TBK_NB_BERNOULLI ? "bernoulli" : "multinomial", (unsigned)nb->opt.dim,
                           nb->opt.alpha, nb->docs[0], nb->docs[1], nb->totals[0], nb->totals[1], words));
  for (size_t i = 0; i < dim; i++) {
    double t, c;
    word_counts(nb, i, &t, &c);
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

static int parse_count(const char **s, double *v) { return parse_double(s, v) || *v < 0 ? -1 : 0; }

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
  if (next_line(c) || !(s = keyed(c, "docs")) || parse_count(&s, &h->docs[0]) || parse_count(&s, &h->docs[1]) || *s)
    return bad_line(c, "bad docs", err);
  if (!(h->docs[0] > 0) || !(h->docs[1] > 0)) return bad_line(c, "a class has no documents", err);
  if (next_line(c) || !(s = keyed(c, "totals")) || parse_count(&s, &h->totals[0]) || parse_count(&s, &h->totals[1]) ||
      *s)
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
    if (set_pair(nb, (size_t)idx, a, b)) return tbk_fail(err, TBK_ERR_NOMEM, "naive bayes: out of memory");
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
  int ok = isfinite(nb->base);
  for (uint32_t p = 0; p < nb->npairs && ok; p++) ok = isfinite(nb->pair_ratio[p]);
  if (ok) return TBK_OK;
  for (size_t i = 0; i < nb->opt.dim; i++)
    if (!isfinite(ratio_of(nb, i)) || !isfinite(nb->base))
      return tbk_fail(err, TBK_ERR_MODEL,
                      "naive bayes model: numbers out of range (the log odds of word %zu are not finite)", i);
  return TBK_OK;
}

tbk_status tbk_nb_read(const char *text, size_t len, tbk_nb **out, size_t *consumed, tbk_error *err) {
  *out = NULL;
  if (consumed) *consumed = 0;
  cursor c = {.p = text, .end = text + len, .line = 0};
  nb_header h;
  tbk_nb *nb = NULL;
  tbk_status st = read_header(&c, &h, err);
  if (st) return st;
  nb = calloc(1, sizeof *nb);
  if (nb) nb->opt = h.o;
  if (!nb || pairs_start(nb)) {
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
