/* The trained ranker (keywords.h): gold key sets, training rows, the fit
 * through the library's LIBLINEAR path, and the ranker file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keywords_internal.h"

/* ------------------------------------------------------------------ gold */

struct tbk_kw_gold {
  kw_strtab keys;
  tbk_buf scratch;
};

tbk_status tbk_kw_gold_new(tbk_kw_gold **out, tbk_error *err) {
  *out = calloc(1, sizeof **out);
  return *out ? TBK_OK : tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
}

void tbk_kw_gold_free(tbk_kw_gold *g) {
  if (!g) return;
  kw_strtab_free(&g->keys);
  tbk_buf_free(&g->scratch);
  free(g);
}

void tbk_kw_gold_clear(tbk_kw_gold *g) { kw_strtab_clear(&g->keys); }
size_t tbk_kw_gold_count(const tbk_kw_gold *g) { return g->keys.n; }
const char *tbk_kw_gold_key(const tbk_kw_gold *g, size_t i) { return kw_strtab_str(&g->keys, i); }
int tbk_kw_gold_has(const tbk_kw_gold *g, const char *key) { return kw_strtab_find(&g->keys, key, strlen(key)) >= 0; }

long tbk_kw_gold_add(tbk_kw_gold *g, tbk_kw_extractor *x, const char *s, size_t n) {
  long added = 0;
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    while (j < n && !strchr(",;|\n\r", s[j])) j++;
    g->scratch.len = 0;
    int r = tbk_kw_key_of(x, s + i, j - i, &g->scratch);
    if (r < 0) return -1;
    if (r > 0) {
      int fresh;
      if (kw_strtab_intern(&g->keys, g->scratch.data, g->scratch.len - 1, &fresh) < 0) return -1;
      added += fresh;
    }
    i = j + 1;
  }
  return added;
}

size_t tbk_kw_gold_keep_if(tbk_kw_gold *g, int (*keep)(void *ctx, const char *key), void *ctx) {
  kw_strtab kept = {0};
  for (size_t id = 0; id < g->keys.n; id++)
    if (keep(ctx, kw_strtab_str(&g->keys, id)) &&
        kw_strtab_intern(&kept, kw_strtab_str(&g->keys, id), g->keys.len[id], NULL) < 0) {
      kw_strtab_free(&kept);
      return g->keys.n;
    }
  kw_strtab_free(&g->keys);
  g->keys = kept;
  return g->keys.n;
}

typedef struct cand_set {
  kw_strtab keys;
  int nomem;
} cand_set;

static int is_candidate(void *ctx, const char *key) {
  return kw_strtab_find(&((cand_set *)ctx)->keys, key, strlen(key)) >= 0;
}

size_t tbk_kw_gold_restrict(tbk_kw_gold *g, const tbk_kw_extractor *x) {
  size_t n = tbk_kw_count(x);
  const tbk_kw_cand *c = tbk_kw_cands((tbk_kw_extractor *)x);
  cand_set cs = {0};
  for (size_t i = 0; i < n; i++)
    if (kw_strtab_intern(&cs.keys, c[i].key, strlen(c[i].key), NULL) < 0) {
      kw_strtab_free(&cs.keys);
      return g->keys.n; /* nothing lost: the set stays as it was */
    }
  size_t left = tbk_kw_gold_keep_if(g, is_candidate, &cs);
  kw_strtab_free(&cs.keys);
  return left;
}

/* --------------------------------------------------------------- trainer */

struct tbk_kw_trainer {
  double *x; /* rows * TBK_KW_NFEAT */
  signed char *y;
  size_t n, cap;
  size_t pages, pos, neg;
  tbk_kw_gold *gold; /* scratch of tbk_kw_trainer_add_meta */
};

tbk_status tbk_kw_trainer_new(tbk_kw_trainer **out, tbk_error *err) {
  *out = calloc(1, sizeof **out);
  return *out ? TBK_OK : tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
}

void tbk_kw_trainer_free(tbk_kw_trainer *t) {
  if (!t) return;
  free(t->x);
  free(t->y);
  tbk_kw_gold_free(t->gold);
  free(t);
}

static int add_row(tbk_kw_trainer *t, const double *x, int label) {
  if (t->n == t->cap) {
    size_t cap = tbk_grow_cap(t->cap, t->n + 1, sizeof(double) * TBK_KW_NFEAT);
    if (!cap || tbk_resize(&t->x, cap, sizeof(double) * TBK_KW_NFEAT) || tbk_resize(&t->y, cap, 1)) return -1;
    t->cap = cap;
  }
  memcpy(t->x + t->n * TBK_KW_NFEAT, x, sizeof(double) * TBK_KW_NFEAT);
  t->y[t->n++] = (signed char)label;
  if (label > 0) t->pos++;
  else t->neg++;
  return 0;
}

tbk_status tbk_kw_trainer_add(tbk_kw_trainer *t, tbk_kw_extractor *x, const tbk_kw_df *df, const tbk_kw_gold *gold,
                              size_t max_rank, tbk_error *err) {
  tbk_kw_rank(x, df, NULL);
  size_t n = tbk_kw_count(x);
  const tbk_kw_cand *c = tbk_kw_cands(x);
  size_t hits = 0;
  for (size_t i = 0; i < n; i++) hits += tbk_kw_gold_has(gold, c[i].key);
  if (!hits) return TBK_OK;
  for (size_t i = 0; i < n; i++) {
    int pos = tbk_kw_gold_has(gold, c[i].key);
    if (!pos && i >= max_rank) continue;
    if (add_row(t, c[i].x, pos ? 1 : -1)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  t->pages++;
  return TBK_OK;
}

tbk_status tbk_kw_trainer_add_meta(tbk_kw_trainer *t, tbk_kw_extractor *x, const tbk_kw_df *df, const char *meta,
                                   size_t n, size_t max_rank, tbk_error *err) {
  if (!t->gold && tbk_kw_gold_new(&t->gold, err)) return TBK_ERR_NOMEM;
  tbk_kw_gold *gold = t->gold;
  tbk_kw_gold_clear(gold);
  if (tbk_kw_gold_add(gold, x, meta ? meta : "", n) < 0) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (!tbk_kw_gold_restrict(gold, x)) return TBK_OK;
  return tbk_kw_trainer_add(t, x, df, gold, max_rank, err);
}

size_t tbk_kw_trainer_pages(const tbk_kw_trainer *t) { return t->pages; }

tbk_status tbk_kw_trainer_fit(tbk_kw_trainer *t, double C, tbk_kw_ranker *out, tbk_error *err) {
  if (!t->pos || !t->neg)
    return tbk_fail(err, TBK_ERR_EMPTY, "no %s among the training candidates", t->pos ? "non-keyword" : "gold keyword");
  size_t nnz = t->n * TBK_KW_NFEAT;
  size_t *rp = malloc((t->n + 1) * sizeof *rp);
  uint32_t *idx = malloc(nnz * sizeof *idx);
  if (!rp || !idx) {
    free(rp);
    free(idx);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  out->df_id[0] = '\0'; /* the caller knows the table */
  for (size_t r = 0; r <= t->n; r++) rp[r] = r * TBK_KW_NFEAT;
  for (size_t k = 0; k < nnz; k++) idx[k] = (uint32_t)(k % TBK_KW_NFEAT) + 1;
  tbk_sparse X = {t->n, TBK_KW_NFEAT, rp, idx, t->x};
  tbk_lr_options o;
  tbk_lr_options_init(&o);
  o.C = C;
  /* Keywords are a few of a page's candidates: equal total weight per
   * class, as the template stage's training does. */
  o.weight_pos = (double)t->n / (2.0 * (double)t->pos);
  o.weight_neg = (double)t->n / (2.0 * (double)t->neg);
  double *w = NULL;
  size_t nw = 0;
  tbk_status st = tbk_lr_train(&X, t->y, &o, &w, &nw, err);
  free(rp);
  free(idx);
  if (st) return st;
  memcpy(out->w, w, sizeof out->w);
  out->bias = w[TBK_KW_NFEAT];
  out->pages = t->pages;
  out->positives = t->pos;
  out->negatives = t->neg;
  free(w);
  return TBK_OK;
}

/* ------------------------------------------------------------------ file */

tbk_status tbk_kw_ranker_write(const tbk_kw_ranker *r, tbk_buf *out) {
  int bad = tbk_buf_printf(out, "tbk-keywords-ranker 2\ntrained %zu %zu %zu\ndf %s\n", r->pages, r->positives,
                           r->negatives, r->df_id[0] ? r->df_id : "unknown");
  for (size_t j = 0; j < TBK_KW_NFEAT && !bad; j++)
    bad = tbk_buf_printf(out, "w %s %.17g\n", tbk_kw_feature_names[j], r->w[j]);
  if (!bad) bad = tbk_buf_printf(out, "bias %.17g\nend\n", r->bias);
  return bad ? TBK_ERR_NOMEM : TBK_OK;
}

/* A finite number filling s[0..n) exactly, within the model bound. */
static int read_num(const char *s, size_t n, double *v) {
  char buf[64];
  if (!n || n >= sizeof buf) return -1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  char *end;
  *v = tbk_strtod(buf, &end);
  return *end || !isfinite(*v) || fabs(*v) > 1e6 ? -1 : 0;
}

tbk_status tbk_kw_ranker_read(const char *text, size_t len, tbk_kw_ranker *r, tbk_error *err) {
  memset(r, 0, sizeof *r);
  size_t at = 0, line = 0;
  char buf[256];
  size_t field = 0; /* lines read after the header */
  int version = 1;
  for (;;) {
    if (at >= len)
      return tbk_fail(err, TBK_ERR_MODEL, "truncated ranker: the file ends at line %zu, before its 'end' line",
                      line + 1);
    const char *s = text + at;
    const char *e = memchr(s, '\n', len - at);
    size_t n = e ? (size_t)(e - s) : len - at;
    at += n + (e != NULL);
    line++;
    if (n >= sizeof buf) return tbk_fail(err, TBK_ERR_MODEL, "line %zu: too long", line);
    memcpy(buf, s, n);
    buf[n] = '\0';
    /* A last line cut short (no line end) is truncation, whatever it reads as. */
    if (!e && line > 1 && strcmp(buf, "end") != 0)
      return tbk_fail(err, TBK_ERR_MODEL, "truncated ranker: the file ends within line %zu, before its 'end' line",
                      line);
    if (line == 1) {
      if (strcmp(buf, "tbk-keywords-ranker 2") == 0) version = 2;
      else if (strcmp(buf, "tbk-keywords-ranker 1") != 0)
        return tbk_fail(err, TBK_ERR_MODEL, "line 1: not a tbk-keywords-ranker file (version 1 or 2)");
      continue;
    }
    if (line == 3 && version == 2) {
      size_t k = n > 3 ? n - 3 : 0;
      int hex = k == 32;
      for (size_t i = 3; hex && i < n; i++) hex = (buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f');
      if (strncmp(buf, "df ", 3) != 0 || (!hex && strcmp(buf + 3, "none") != 0 && strcmp(buf + 3, "unknown") != 0))
        return tbk_fail(err, TBK_ERR_MODEL,
                        "line 3: expected 'df ID' (the DF table it was trained with, none or unknown)");
      if (strcmp(buf + 3, "unknown") != 0) memcpy(r->df_id, buf + 3, k + 1);
      continue;
    }
    if (line == 2) {
      if (sscanf(buf, "trained %zu %zu %zu", &r->pages, &r->positives, &r->negatives) != 3)
        return tbk_fail(err, TBK_ERR_MODEL, "line 2: expected 'trained PAGES POSITIVES NEGATIVES'");
      continue;
    }
    if (field < TBK_KW_NFEAT) {
      const char *name = tbk_kw_feature_names[field];
      size_t nl = strlen(name);
      if (strncmp(buf, "w ", 2) != 0)
        return tbk_fail(err, TBK_ERR_MODEL, "line %zu: expected 'w FEATURE WEIGHT'", line);
      if (strncmp(buf + 2, name, nl) != 0 || buf[2 + nl] != ' ')
        return tbk_fail(err, TBK_ERR_SCHEMA, "line %zu: feature '%s' expected: the ranker was made for other features",
                        line, name);
      if (read_num(buf + 3 + nl, n - 3 - nl, &r->w[field]))
        return tbk_fail(err, TBK_ERR_MODEL, "line %zu: bad weight", line);
      field++;
      continue;
    }
    if (field == TBK_KW_NFEAT) {
      if (strncmp(buf, "w ", 2) == 0)
        return tbk_fail(err, TBK_ERR_SCHEMA, "line %zu: more features than this program knows", line);
      if (strncmp(buf, "bias ", 5) != 0 || read_num(buf + 5, n - 5, &r->bias))
        return tbk_fail(err, TBK_ERR_MODEL, "line %zu: expected 'bias B'", line);
      field++;
      continue;
    }
    if (strcmp(buf, "end") != 0) return tbk_fail(err, TBK_ERR_MODEL, "line %zu: expected 'end'", line);
    return TBK_OK;
  }
}

tbk_status tbk_kw_ranker_load(const char *path, tbk_kw_ranker *r, tbk_error *err) {
  tbk_buf b = {0};
  tbk_status st = tbk_read_file(path, 1 << 20, &b, err);
  if (!st) st = tbk_side_text(&b, 0, err); /* CRLF, a BOM, UTF-16 */
  if (!st) st = tbk_kw_ranker_read(b.data ? b.data : "", b.len, r, err);
  tbk_buf_free(&b);
  return st;
}
