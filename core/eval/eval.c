/* Evaluation: ranking metrics over out-of-fold scores, the token-overlap
 * metric against gold text, trafilatura's snippet metric, and a plain SVG
 * precision-recall plot. Everything the tbk-eval program computes lives
 * here so the numbers can be unit-tested. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "jsonl.h"
#include "util.h"

/* ---------------------------------------------------------------- ranking */

void tbk_ranking_free(tbk_ranking *r) {
  if (!r) return;
  free(r->curve);
  r->curve = NULL;
  r->ncurve = 0;
}

tbk_status tbk_ranking_compute(const double *score, const int *label, size_t n, tbk_ranking *r, tbk_error *err) {
  memset(r, 0, sizeof *r);
  r->average_precision = NAN;
  r->roc_auc = NAN;
  double *s = malloc((n ? n : 1) * sizeof *s);
  signed char *y = malloc(n ? n : 1);
  if (!s || !y) {
    free(s);
    free(y);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  size_t m = 0, pos = 0;
  for (size_t i = 0; i < n; i++) {
    if (label[i] != 1 && label[i] != -1) {
      free(s);
      free(y);
      return tbk_fail(err, TBK_ERR_ARG, "row %zu: label %d is not +1 or -1", i, label[i]);
    }
    if (isnan(score[i])) continue;
    s[m] = score[i];
    y[m++] = (signed char)label[i];
    pos += label[i] == 1;
  }
  r->rows = m;
  r->positives = pos;
  tbk_status st = TBK_OK;
  if (pos > 0) {
    tbk_pr_point *pts;
    size_t npts;
    st = tbk_pr_curve(s, y, m, &pts, &npts, err);
    if (st == TBK_OK) {
      r->average_precision = tbk_average_precision(pts, npts);
      r->curve = malloc((npts ? npts : 1) * sizeof *r->curve);
      if (!r->curve) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      for (size_t i = 0; r->curve && i < npts; i++)
        r->curve[i] = (tbk_eval_point){pts[i].threshold, pts[i].precision, pts[i].recall, pts[i].tp, pts[i].fp};
      if (r->curve) r->ncurve = npts;
      free(pts);
    }
    if (st == TBK_OK && pos < m) {
      double auc;
      st = tbk_roc_auc(s, y, m, &auc, err);
      if (st == TBK_OK) r->roc_auc = auc;
    }
  }
  free(s);
  free(y);
  if (st) tbk_ranking_free(r);
  return st;
}

int tbk_ranking_at_precision(const tbk_ranking *r, double target, tbk_operating_point *op) {
  /* Same rule as the model's operating points (tbk_recall_at_precision). */
  tbk_pr_point *pts = malloc((r->ncurve ? r->ncurve : 1) * sizeof *pts);
  size_t k = (size_t)-1;
  double recall = 0, precision = 0, threshold = INFINITY;
  if (pts) {
    for (size_t i = 0; i < r->ncurve; i++)
      pts[i] = (tbk_pr_point){r->curve[i].threshold, r->curve[i].tp, r->curve[i].fp, r->curve[i].precision,
                              r->curve[i].recall};
    k = tbk_recall_at_precision(pts, r->ncurve, target, &recall, &precision, &threshold);
    free(pts);
  }
  if (op) *op = (tbk_operating_point){precision, threshold, recall};
  return k == (size_t)-1 ? -1 : 0;
}

/* ------------------------------------------------------ token overlap */

typedef struct token_bag {
  tbk_buf text; /* tokens, each NUL-terminated */
  size_t *off;  /* owned: start of each token in text */
  size_t n, cap;
  int nomem;
} token_bag;

static int bag_add(void *ctx, const char *tok, size_t len) {
  token_bag *b = ctx;
  if (tbk_grow(&b->off, &b->cap, b->n + 1, sizeof *b->off)) {
    b->nomem = 1;
    return 1;
  }
  b->off[b->n] = b->text.len;
  if (tbk_buf_append(&b->text, tok, len) || tbk_buf_append(&b->text, "", 1)) {
    b->nomem = 1;
    return 1;
  }
  b->n++;
  return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The bag's tokens as sorted string pointers (into b->text). */
static const char **bag_sorted(token_bag *b) {
  const char **v = malloc((b->n ? b->n : 1) * sizeof *v);
  if (!v) return NULL;
  for (size_t i = 0; i < b->n; i++) v[i] = b->text.data + b->off[i];
  qsort(v, b->n, sizeof *v, cmp_str);
  return v;
}

tbk_status tbk_token_overlap(tbk_tokenizer *t, const char *pred, size_t pn, const char *gold, size_t gn,
                             tbk_overlap *out, tbk_error *err) {
  memset(out, 0, sizeof *out);
  token_bag p = {0}, g = {0};
  const char **pv = NULL, **gv = NULL;
  tbk_status st = TBK_OK;
  if (pn) tbk_tokenize(t, pred, pn, bag_add, &p);
  if (gn) tbk_tokenize(t, gold, gn, bag_add, &g);
  if (p.nomem || g.nomem) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    goto done;
  }
  pv = bag_sorted(&p);
  gv = bag_sorted(&g);
  if (!pv || !gv) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    goto done;
  }
  /* Merging two sorted lists pairs equal tokens one to one, which is
   * exactly the multiset intersection. */
  size_t i = 0, j = 0, common = 0;
  while (i < p.n && j < g.n) {
    int c = strcmp(pv[i], gv[j]);
    if (c < 0) i++;
    else if (c > 0) j++;
    else {
      common++;
      i++;
      j++;
    }
  }
  out->pred_tokens = p.n;
  out->gold_tokens = g.n;
  out->common = common;
  if (p.n == 0 && g.n == 0) {
    out->precision = out->recall = out->f1 = 1.0;
  } else if (p.n == 0 || g.n == 0) {
    out->precision = out->recall = out->f1 = 0.0;
  } else {
    out->precision = (double)common / (double)p.n;
    out->recall = (double)common / (double)g.n;
    double s = out->precision + out->recall;
    out->f1 = s > 0 ? 2 * out->precision * out->recall / s : 0.0;
  }
done:
  free(pv);
  free(gv);
  free(p.off);
  free(g.off);
  tbk_buf_free(&p.text);
  tbk_buf_free(&g.text);
  return st;
}

static int cmp_double(const void *a, const void *b) {
  double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}

void tbk_mean_median(double *v, size_t n, double *mean, double *median) {
  if (n == 0) {
    if (mean) *mean = NAN;
    if (median) *median = NAN;
    return;
  }
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += v[i];
  qsort(v, n, sizeof *v, cmp_double);
  if (mean) *mean = sum / (double)n;
  if (median) *median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --------------------------------------------------------------- snippets */

enum { ROLE_ROOT, ROLE_PAGE, ROLE_WITH, ROLE_WITHOUT, ROLE_SKIP };
enum { MEMBER_OTHER, MEMBER_WITH, MEMBER_WITHOUT };
#define SNIPPET_MAX_DEPTH 64

typedef struct frame {
  char kind; /* '{' or '[' */
  char role;
  char expect_key;
  char member;  /* ROLE_PAGE: which member's value comes next */
  size_t count; /* values seen */
} frame;

void tbk_snippets_free(tbk_snippet_set *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) {
    tbk_snippet_page *p = &s->pages[i];
    free(p->key);
    for (size_t k = 0; k < p->nwith; k++) free(p->with[k]);
    for (size_t k = 0; k < p->nwithout; k++) free(p->without[k]);
    free(p->with);
    free(p->without);
  }
  free(s->pages);
  free(s);
}

/* Decode the string starting at s[*pos] == '"' into out (reset first).
 * Returns NULL or a reason. Lenient: the file is Python's. */
static const char *read_string(const char *s, size_t n, size_t *pos, tbk_buf *out) {
  const char *why;
  out->len = 0;
  return tbk_json_read_str(s, n, pos, out, 1, &why) == TBK_OK ? NULL : why;
}

/* Skip a number or true/false/null at s[*pos]. Returns NULL or a reason. */
static const char *skip_scalar(const char *s, size_t n, size_t *pos) {
  size_t i = *pos;
  static const char *const words[] = {"true", "false", "null"};
  for (size_t w = 0; w < 3; w++) {
    size_t l = strlen(words[w]);
    if (i + l <= n && memcmp(s + i, words[w], l) == 0) {
      *pos = i + l;
      return NULL;
    }
  }
  size_t start = i;
  if (i < n && s[i] == '-') i++;
  size_t d = i;
  while (i < n && s[i] >= '0' && s[i] <= '9') i++;
  if (i == d) return start == i ? "unexpected character" : "bad number";
  if (i < n && s[i] == '.') {
    d = ++i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    if (i == d) return "bad number";
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    d = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    if (i == d) return "bad number";
  }
  *pos = i;
  return NULL;
}

static int push_str(char ***v, size_t *n, const char *s, size_t len) {
  char **nv = realloc(*v, (*n + 1) * sizeof *nv);
  if (!nv) return -1;
  *v = nv;
  char *c = malloc(len + 1);
  if (!c) return -1;
  memcpy(c, s, len);
  c[len] = '\0';
  nv[(*n)++] = c;
  return 0;
}

static tbk_status json_fail(tbk_error *err, size_t pos, const char *why) {
  if (strcmp(why, "out of memory") == 0) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return tbk_fail(err, TBK_ERR_FORMAT, "invalid JSON at byte %zu: %s", pos, why);
}

/* The parser's state between tokens: the stack of open containers, where
 * in the input it is, and the set built so far. */
typedef struct snip_parser {
  const char *s;
  size_t len, i, at; /* at: where an error is reported */
  frame st[SNIPPET_MAX_DEPTH];
  size_t depth, cap;
  int after_value, started;
  tbk_buf str;
  tbk_snippet_set *set;
} snip_parser;

static void skip_space(snip_parser *p) {
  while (p->i < p->len && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r')) p->i++;
}

/* After a value: a comma, the end of its container, or (at the top) the end
 * of input, which sets *done. */
static const char *after_value(snip_parser *p, int *done) {
  if (p->depth == 0) {
    *done = 1;
    return p->i < p->len ? "trailing data after the top-level object" : NULL;
  }
  frame *f = &p->st[p->depth - 1];
  f->count++;
  if (p->i >= p->len) return "unexpected end of input";
  char c = p->s[p->i];
  if (c == ',') {
    p->i++;
    p->after_value = 0;
    if (f->kind == '{') f->expect_key = 1;
  } else if ((c == '}' && f->kind == '{') || (c == ']' && f->kind == '[')) {
    p->i++;
    p->depth--;
  } else return f->kind == '{' ? "expected ',' or '}'" : "expected ',' or ']'";
  return NULL;
}

/* A key and its ':'. At the top level a key opens a page; in a page it says
 * which member the next value is. */
static const char *object_key(snip_parser *p, frame *f) {
  const char *why;
  if (p->s[p->i] != '"') return "expected a string key";
  if ((why = read_string(p->s, p->len, &p->i, &p->str))) return why;
  skip_space(p);
  if (p->i >= p->len || p->s[p->i] != ':') {
    p->at = p->i;
    return "expected ':'";
  }
  p->i++;
  f->expect_key = 0;
  tbk_snippet_set *set = p->set;
  const char *key = p->str.data;
  if (f->role == ROLE_ROOT) {
    if (tbk_grow(&set->pages, &p->cap, set->n + 1, sizeof *set->pages)) return "out of memory";
    tbk_snippet_page *pg = &set->pages[set->n];
    memset(pg, 0, sizeof *pg);
    pg->key = strdup(key);
    if (!pg->key) return "out of memory";
    set->n++;
  } else if (f->role == ROLE_PAGE) {
    f->member = strcmp(key, "with") == 0 ? MEMBER_WITH : strcmp(key, "without") == 0 ? MEMBER_WITHOUT : MEMBER_OTHER;
  }
  return NULL;
}

/* A value, whose role follows from where it stands: containers open a
 * frame, strings in a "with"/"without" list are kept, the rest skipped. */
static const char *value(snip_parser *p, frame *f, char c) {
  const char *why;
  int role = !f                                                    ? ROLE_ROOT
             : f->role == ROLE_ROOT                                ? ROLE_PAGE
             : f->role == ROLE_PAGE && f->member == MEMBER_WITH    ? ROLE_WITH
             : f->role == ROLE_PAGE && f->member == MEMBER_WITHOUT ? ROLE_WITHOUT
                                                                   : ROLE_SKIP;
  int in_list = f && (f->role == ROLE_WITH || f->role == ROLE_WITHOUT);
  int container = c == '{' || c == '[';
  if (container && in_list) return "a snippet is not a string";
  if ((role == ROLE_ROOT || role == ROLE_PAGE) && c != '{')
    return role == ROLE_ROOT ? "the top level is not an object" : "a page entry is not an object";
  if ((role == ROLE_WITH || role == ROLE_WITHOUT) && c != '[') return "\"with\"/\"without\" is not an array";
  if (container) {
    if (p->depth == SNIPPET_MAX_DEPTH) return "nested too deeply";
    p->st[p->depth++] = (frame){c, (char)role, c == '{', MEMBER_OTHER, 0};
    p->i++;
    return NULL;
  }
  if (c == '"') {
    if ((why = read_string(p->s, p->len, &p->i, &p->str))) return why;
    if (in_list) {
      tbk_snippet_page *pg = &p->set->pages[p->set->n - 1];
      int bad = f->role == ROLE_WITH ? push_str(&pg->with, &pg->nwith, p->str.data, p->str.len)
                                     : push_str(&pg->without, &pg->nwithout, p->str.data, p->str.len);
      if (bad) return "out of memory";
    }
  } else {
    if (in_list) return "a snippet is not a string";
    if ((why = skip_scalar(p->s, p->len, &p->i))) return why;
  }
  p->after_value = 1;
  return NULL;
}

/* The next token; *done at the end of a well-formed input. */
static const char *snippets_step(snip_parser *p, int *done) {
  skip_space(p);
  p->at = p->i;
  if (p->after_value) return after_value(p, done);
  if (p->i >= p->len) return p->started ? "unexpected end of input" : "empty input";
  p->started = 1;
  frame *f = p->depth ? &p->st[p->depth - 1] : NULL;
  char c = p->s[p->i];
  if (f && f->count == 0 && ((c == '}' && f->kind == '{' && f->expect_key) || (c == ']' && f->kind == '['))) {
    p->i++;
    p->depth--;
    p->after_value = 1;
    return NULL;
  }
  if (f && f->kind == '{' && f->expect_key) return object_key(p, f);
  return value(p, f, c);
}

tbk_status tbk_snippets_parse(const char *json, size_t len, tbk_snippet_set **out, tbk_error *err) {
  *out = NULL;
  snip_parser p = {.s = json, .len = len};
  p.set = calloc(1, sizeof *p.set);
  if (!p.set) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  /* Skip a UTF-8 BOM, as Python's json.load does not but editors add. */
  if (len >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0) p.i = 3;
  const char *why = NULL;
  int done = 0;
  while (!why && !done) why = snippets_step(&p, &done);
  tbk_buf_free(&p.str);
  if (why) {
    tbk_snippets_free(p.set);
    return json_fail(err, p.at, why);
  }
  *out = p.set;
  return TBK_OK;
}

static int found(const tbk_buf *hay, const char *needle, tbk_buf *scratch, int *hit) {
  scratch->len = 0;
  if (tbk_text_normalize(needle, strlen(needle), scratch)) return -1;
  *hit = scratch->len == 0 || (hay->len >= scratch->len && memmem(hay->data, hay->len, scratch->data, scratch->len));
  return 0;
}

int tbk_snippets_count(const tbk_snippet_page *p, const char *text, size_t len, tbk_snippet_counts *c) {
  tbk_buf hay = {0}, tmp = {0};
  int rc = text && len ? tbk_text_normalize(text, len, &hay) : 0;
  for (size_t k = 0; rc == 0 && k < p->nwith; k++) {
    int hit;
    if ((rc = found(&hay, p->with[k], &tmp, &hit))) break;
    if (hit) c->tp++;
    else c->fn++;
  }
  for (size_t k = 0; rc == 0 && k < p->nwithout; k++) {
    int hit;
    if ((rc = found(&hay, p->without[k], &tmp, &hit))) break;
    if (hit) c->fp++;
    else c->tn++;
  }
  tbk_buf_free(&hay);
  tbk_buf_free(&tmp);
  return rc;
}

/* -------------------------------------------------------------- SVG plot */

enum { SVG_W = 720, SVG_H = 540, PL = 80, PR = 30, PT = 60, PB = 70 };
static const char *const COLORS[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};
/* Overlapping curves stay visible when each has its own dash pattern. */
static const char *const DASHES[] = {"none", "9 5", "2 4", "12 4 2 4"};
#define NCOLORS (sizeof COLORS / sizeof *COLORS)
#define NDASHES (sizeof DASHES / sizeof *DASHES)

static int xml_text(tbk_buf *b, const char *s) {
  for (; s && *s; s++) {
    int r;
    switch (*s) {
    case '&': r = tbk_buf_puts(b, "&amp;"); break;
    case '<': r = tbk_buf_puts(b, "&lt;"); break;
    case '>': r = tbk_buf_puts(b, "&gt;"); break;
    case '"': r = tbk_buf_puts(b, "&quot;"); break;
    default: r = tbk_buf_append(b, s, 1);
    }
    if (r) return -1;
  }
  return 0;
}

static double px_x(double recall) { return PL + recall * (SVG_W - PL - PR); }
static double px_y(double precision) { return SVG_H - PB - precision * (SVG_H - PT - PB); }

/* A title too wide for one line (about 66 characters of bold 16 px) is
 * broken at the space nearest its middle; a line still too wide gets a
 * smaller font. */
static int svg_title(tbk_buf *out, const char *title) {
  int r = 0;
  const char *t = title ? title : "";
  size_t tl = strlen(t), cut = 0;
  if (tbk_utf8_length(t, tl) > 66) {
    for (size_t i = 0; i < tl; i++)
      if (t[i] == ' ' &&
          (cut == 0 || (i > tl / 2 ? i - tl / 2 : tl / 2 - i) < (cut > tl / 2 ? cut - tl / 2 : tl / 2 - cut)))
        cut = i;
  }
  for (int line = 0; line < (cut ? 2 : 1); line++) {
    const char *ls = line ? t + cut + 1 : t;
    size_t ll = line ? tl - cut - 1 : (cut ? cut : tl), chars = tbk_utf8_length(ls, ll);
    double size = chars > 66 ? 16.0 * 66 / (double)chars : 16.0;
    char *text = strndup(ls, ll);
    if (!text) return -1;
    r |= tbk_buf_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"%.1f\" font-weight=\"bold\">",
                        SVG_W / 2, cut ? 24 + 22 * line : 34, size < 8 ? 8.0 : size);
    r |= xml_text(out, text);
    r |= tbk_buf_puts(out, "</text>\n");
    free(text);
  }
  return r;
}

/* The grid, the frame, the ticks and their numbers, the axis names. */
static int svg_axes(tbk_buf *out) {
  int r = 0;
  double x0 = px_x(0), x1 = px_x(1), y0 = px_y(0), y1 = px_y(1);
  r |= tbk_buf_puts(out, "<g stroke=\"#dddddd\" stroke-width=\"1\">\n");
  for (int k = 1; k < 10; k++) {
    double v = k / 10.0;
    r |= tbk_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px_x(v), y0, px_x(v), y1);
    r |= tbk_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0, px_y(v), x1, px_y(v));
  }
  r |= tbk_buf_puts(out, "</g>\n");
  r |= tbk_buf_printf(out,
                      "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n",
                      x0, y1, x1 - x0, y0 - y1);
  r |= tbk_buf_puts(out, "<g stroke=\"black\">\n");
  for (int k = 0; k <= 10; k++) {
    double v = k / 10.0;
    r |= tbk_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px_x(v), y0, px_x(v), y0 + 6);
    r |= tbk_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0 - 6, px_y(v), x0, px_y(v));
  }
  r |= tbk_buf_puts(out, "</g>\n");
  for (int k = 0; k <= 10; k++) {
    double v = k / 10.0;
    r |= tbk_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.1f</text>\n", px_x(v), y0 + 22, v);
    r |= tbk_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", x0 - 10, px_y(v) + 4.5,
                        v);
  }
  r |= tbk_buf_printf(
      out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"15\">Recall (template blocks)</text>\n",
      (x0 + x1) / 2, SVG_H - 20);
  r |= tbk_buf_printf(out,
                      "<text x=\"22\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"15\" "
                      "transform=\"rotate(-90 22 %.1f)\">Precision (template blocks)</text>\n",
                      (y0 + y1) / 2, (y0 + y1) / 2);
  return r;
}

/* The curve starts at recall 0 with the precision of its first point, as
 * scikit-learn draws it; points closer than half a pixel to the last one
 * drawn add nothing visible. */
static int svg_curve(tbk_buf *out, const tbk_plot_curve *cv, size_t c) {
  int r = tbk_buf_printf(out,
                         "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" "
                         "stroke-linejoin=\"round\" points=\"",
                         COLORS[c % NCOLORS], DASHES[c % NDASHES]);
  double lx = NAN, ly = NAN;
  for (size_t i = 0; i < cv->n; i++) {
    double x = px_x(cv->pts[i].recall), y = px_y(cv->pts[i].precision);
    if (i == 0) {
      r |= tbk_buf_printf(out, "%.1f,%.1f", px_x(0), y);
      lx = px_x(0);
      ly = y;
    }
    if (i + 1 < cv->n && fabs(x - lx) < 0.5 && fabs(y - ly) < 0.5) continue;
    r |= tbk_buf_printf(out, " %.1f,%.1f", x, y);
    lx = x;
    ly = y;
  }
  return r | tbk_buf_puts(out, "\"/>\n");
}

/* The legend in the lower left, where precision-recall curves rarely go. */
static int svg_legend(tbk_buf *out, const tbk_plot_curve *curves, size_t ncurves) {
  int r = 0;
  double lx0 = px_x(0) + 14, ly0 = px_y(0) - 14 - 22.0 * (double)ncurves;
  size_t longest = 0;
  for (size_t c = 0; c < ncurves; c++) {
    size_t l = tbk_utf8_length(curves[c].label ? curves[c].label : "", curves[c].label ? strlen(curves[c].label) : 0);
    if (l > longest) longest = l;
  }
  if (ncurves)
    r |= tbk_buf_printf(
        out,
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"white\" fill-opacity=\"0.9\" "
        "stroke=\"#888888\"/>\n",
        lx0, ly0, 48 + 7.5 * (double)longest, 22.0 * (double)ncurves + 8);
  for (size_t c = 0; c < ncurves; c++) {
    double y = ly0 + 18 + 22.0 * (double)c;
    r |= tbk_buf_printf(out,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\" "
                        "stroke-dasharray=\"%s\"/>\n",
                        lx0 + 8, y - 4, lx0 + 36, y - 4, COLORS[c % NCOLORS], DASHES[c % NDASHES]);
    r |= tbk_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\">", lx0 + 42, y);
    r |= xml_text(out, curves[c].label);
    r |= tbk_buf_puts(out, "</text>\n");
  }
  return r;
}

tbk_status tbk_pr_svg(const tbk_plot_curve *curves, size_t ncurves, const char *title, double base_rate, tbk_buf *out,
                      tbk_error *err) {
  int r = tbk_buf_printf(out,
                         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                         "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"13\">\n"
                         "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                         SVG_W, SVG_H, SVG_W, SVG_H);
  if (svg_title(out, title)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  r |= svg_axes(out);
  if (!isnan(base_rate) && base_rate >= 0 && base_rate <= 1) {
    double y = px_y(base_rate), x0 = px_x(0), x1 = px_x(1);
    r |= tbk_buf_printf(out,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777777\" stroke-width=\"1.5\" "
                        "stroke-dasharray=\"4 3\"/>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555555\" "
                        "font-size=\"12\">random ranking (template share %.3f)</text>\n",
                        x0, y, x1, y, x1 - 6, base_rate > 0.9 ? y + 16 : y - 6, base_rate);
  }
  for (size_t c = 0; c < ncurves; c++) r |= svg_curve(out, &curves[c], c);
  r |= svg_legend(out, curves, ncurves);
  r |= tbk_buf_puts(out, "</svg>\n");
  return r ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory") : TBK_OK;
}
