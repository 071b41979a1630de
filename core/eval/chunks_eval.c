/* Ma et al.'s metrics for the chunk labeller: the known template, the
 * discovered places, ttdr, agreement rates, and a line plot. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chunks_eval.h"
#include "util.h"

/* ------------------------------------------------------------ truth */

static int hexval(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

static int parse_md5(const char *s, unsigned char out[16]) {
  if (strlen(s) != 32) return -1;
  for (int i = 0; i < 16; i++) {
    int a = hexval(s[2 * i]), b = hexval(s[2 * i + 1]);
    if (a < 0 || b < 0) return -1;
    out[i] = (unsigned char)(a * 16 + b);
  }
  return 0;
}

/* Split line (modified in place) at tabs into at most max fields. */
static size_t split_tabs(char *line, char **f, size_t max) {
  size_t n = 0;
  for (char *s = line; n < max;) {
    f[n++] = s;
    char *t = strchr(s, '\t');
    if (!t) break;
    *t = '\0';
    s = t + 1;
  }
  return n;
}

static int cmp_site(const tbk_chunk_node *x, const tbk_chunk_node *y) { return strcmp(x->site, y->site); }

tbk_status tbk_chunk_truth_read(const char *path, tbk_chunk_truth *out, tbk_error *err) {
  memset(out, 0, sizeof *out);
  FILE *f;
  tbk_status st = tbk_open_read(path, &f, err);
  if (st) return st;
  char *line = NULL, *fld[16];
  size_t cap = 0, lineno = 0, ncap = 0;
  ssize_t len;
  int col[6] = {-1, -1, -1, -1, -1, -1}; /* site node variant pages md5 tpath */
  static const char *const names[6] = {"site", "node", "variant", "pages", "md5", "tpath"};
  while (st == TBK_OK && (len = getline(&line, &cap, f)) >= 0) {
    lineno++;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
    size_t nf = split_tabs(line, fld, 16);
    if (lineno == 1) {
      for (size_t i = 0; i < nf; i++)
        for (int k = 0; k < 6; k++)
          if (strcmp(fld[i], names[k]) == 0) col[k] = (int)i;
      if (col[0] < 0 || col[4] < 0 || col[5] < 0)
        st = tbk_fail(err, TBK_ERR_FORMAT, "1: the header names no site, md5 or tpath column");
      continue;
    }
    if (len == 0) continue;
    int top = 0;
    for (int k = 0; k < 6; k++)
      if (col[k] > top) top = col[k];
    unsigned char md5[16];
    if ((size_t)top >= nf || parse_md5(fld[col[4]], md5)) {
      st = tbk_fail(err, TBK_ERR_FORMAT, "%zu: %s", lineno,
                    (size_t)top >= nf ? "too few fields" : "md5 is not 32 hex digits");
      break;
    }
    if (tbk_grow(&out->nodes, &ncap, out->n + 1, sizeof *out->nodes)) {
      st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      break;
    }
    tbk_chunk_node *nd = &out->nodes[out->n];
    memset(nd, 0, sizeof *nd);
    memcpy(nd->md5, md5, 16);
    nd->site = strdup(fld[col[0]]);
    nd->tpath = strdup(fld[col[5]]);
    nd->node = strdup(col[1] >= 0 ? fld[col[1]] : "");
    nd->variant = strdup(col[2] >= 0 ? fld[col[2]] : "");
    nd->pages = col[3] >= 0 ? (unsigned)strtoul(fld[col[3]], NULL, 10) : 0;
    out->n++;
    if (!nd->site || !nd->tpath || !nd->node || !nd->variant) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  if (st == TBK_OK && ferror(f)) st = tbk_fail(err, TBK_ERR_IO, "read error");
  if (st == TBK_OK && lineno == 0) st = tbk_fail(err, TBK_ERR_FORMAT, "1: empty file (no header)");
  free(line);
  if (strcmp(path, "-") != 0) fclose(f);
  if (st) {
    tbk_chunk_truth_free(out);
    return st;
  }
  /* Sites contiguous, within one in file order: an insertion sort is
   * stable, and a truth file comes grouped already (linear then). */
  for (size_t i = 1; i < out->n; i++) {
    tbk_chunk_node x = out->nodes[i];
    size_t j = i;
    while (j > 0 && cmp_site(&out->nodes[j - 1], &x) > 0) {
      out->nodes[j] = out->nodes[j - 1];
      j--;
    }
    out->nodes[j] = x;
  }
  return TBK_OK;
}

void tbk_chunk_truth_free(tbk_chunk_truth *t) {
  for (size_t i = 0; i < t->n; i++) {
    free(t->nodes[i].site);
    free(t->nodes[i].node);
    free(t->nodes[i].variant);
    free(t->nodes[i].tpath);
  }
  free(t->nodes);
  memset(t, 0, sizeof *t);
}

size_t tbk_chunk_truth_site(const tbk_chunk_truth *t, const char *site, const tbk_chunk_node **nodes) {
  size_t i = 0;
  while (i < t->n && strcmp(t->nodes[i].site, site) != 0) i++;
  size_t j = i;
  while (j < t->n && strcmp(t->nodes[j].site, site) == 0) j++;
  *nodes = i < t->n ? &t->nodes[i] : NULL;
  return j - i;
}

/* ------------------------------------------------------------ places */

typedef struct place {
  unsigned char md5[16];
  char *tpath; /* NULL: empty slot */
} place;

struct tbk_chunk_places {
  place *slots;
  size_t nslots, used;
};

tbk_chunk_places *tbk_chunk_places_new(void) { return calloc(1, sizeof(tbk_chunk_places)); }

void tbk_chunk_places_clear(tbk_chunk_places *p) {
  for (size_t i = 0; i < p->nslots; i++) free(p->slots[i].tpath);
  free(p->slots);
  p->slots = NULL;
  p->nslots = p->used = 0;
}

void tbk_chunk_places_free(tbk_chunk_places *p) {
  if (!p) return;
  tbk_chunk_places_clear(p);
  free(p);
}

static size_t place_slot(const place *s, size_t ns, const unsigned char md5[16], const char *tpath) {
  uint64_t h;
  memcpy(&h, md5, sizeof h);
  h ^= tbk_hash64(tpath, strlen(tpath));
  size_t i = (size_t)h & (ns - 1);
  while (s[i].tpath && (memcmp(s[i].md5, md5, 16) != 0 || strcmp(s[i].tpath, tpath) != 0)) i = (i + 1) & (ns - 1);
  return i;
}

int tbk_chunk_places_has(const tbk_chunk_places *p, const unsigned char md5[16], const char *tpath) {
  return p->nslots && p->slots[place_slot(p->slots, p->nslots, md5, tpath)].tpath != NULL;
}

int tbk_chunk_places_add(tbk_chunk_places *p, const unsigned char md5[16], const char *tpath) {
  if ((p->used + 1) * 2 > p->nslots) {
    size_t ns = p->nslots ? p->nslots * 2 : 64;
    place *s = calloc(ns, sizeof *s);
    if (!s) return -1;
    for (size_t i = 0; i < p->nslots; i++)
      if (p->slots[i].tpath) s[place_slot(s, ns, p->slots[i].md5, p->slots[i].tpath)] = p->slots[i];
    free(p->slots);
    p->slots = s;
    p->nslots = ns;
  }
  place *x = &p->slots[place_slot(p->slots, p->nslots, md5, tpath)];
  if (x->tpath) return 0;
  if (!(x->tpath = strdup(tpath))) return -1;
  memcpy(x->md5, md5, 16);
  p->used++;
  return 0;
}

int tbk_chunk_places_add_page(tbk_chunk_places *p, const tbk_chunk_page *pg) {
  for (size_t i = 0; i < pg->n; i++)
    if (pg->chunks[i].label == TBK_LABEL_TEMPLATE && tbk_chunk_places_add(p, pg->chunks[i].md5, pg->chunks[i].tpath))
      return -1;
  return 0;
}

size_t tbk_chunk_places_count(const tbk_chunk_places *p) { return p->used; }

void tbk_chunk_places_each(const tbk_chunk_places *p,
                           void (*fn)(void *ctx, const unsigned char md5[16], const char *tpath), void *ctx) {
  for (size_t i = 0; i < p->nslots; i++)
    if (p->slots[i].tpath) fn(ctx, p->slots[i].md5, p->slots[i].tpath);
}

static void finish_ttdr(tbk_ttdr *t, size_t discovered) {
  t->extra = discovered - t->found;
  t->ttdr = t->nt ? (double)(t->found + t->extra) / (double)t->nt : NAN;
}

tbk_ttdr tbk_chunk_ttdr_nodes(const tbk_chunk_places *found, const tbk_chunk_node *ref, size_t nref) {
  tbk_ttdr t = {0};
  /* Reference nodes may share a place (the same text twice at one tag
   * path): each is one node to find, and the place is found for each. */
  tbk_chunk_places *seen = tbk_chunk_places_new();
  size_t distinct_found = 0;
  t.nt = nref;
  for (size_t i = 0; i < nref; i++) {
    if (!tbk_chunk_places_has(found, ref[i].md5, ref[i].tpath)) continue;
    t.found++;
    if (seen && !tbk_chunk_places_has(seen, ref[i].md5, ref[i].tpath)) {
      distinct_found++;
      if (tbk_chunk_places_add(seen, ref[i].md5, ref[i].tpath))
        distinct_found = t.found; /* out of memory: approximate */
    }
  }
  if (!seen) distinct_found = t.found;
  tbk_chunk_places_free(seen);
  size_t discovered = tbk_chunk_places_count(found);
  t.extra = discovered - distinct_found;
  t.ttdr = t.nt ? (double)(t.found + t.extra) / (double)t.nt : NAN;
  return t;
}

typedef struct ref_ctx {
  const tbk_chunk_places *found;
  size_t hits;
} ref_ctx;

static void count_hit(void *ctx, const unsigned char md5[16], const char *tpath) {
  ref_ctx *r = ctx;
  r->hits += (size_t)tbk_chunk_places_has(r->found, md5, tpath);
}

tbk_ttdr tbk_chunk_ttdr_places(const tbk_chunk_places *found, const tbk_chunk_places *ref) {
  tbk_ttdr t = {0};
  ref_ctx r = {found, 0};
  tbk_chunk_places_each(ref, count_hit, &r);
  t.nt = tbk_chunk_places_count(ref);
  t.found = r.hits;
  finish_ttdr(&t, tbk_chunk_places_count(found));
  return t;
}

void tbk_agreement_rates(const tbk_agreement *g, double *precision, double *recall, double *jaccard) {
  *precision = g->a ? (double)g->both / (double)g->a : NAN;
  *recall = g->b ? (double)g->both / (double)g->b : NAN;
  uint64_t u = g->a + g->b - g->both;
  *jaccard = u ? (double)g->both / (double)u : NAN;
}

/* ------------------------------------------------------------ line plot */

enum { LW = 860, LH = 520, ML = 80, MR = 230, MT = 56, MB = 64 };
static const char *const LCOLORS[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
static const char *const LDASHES[] = {"none", "7 4", "2 3"};

static int xml_esc(tbk_buf *b, const char *s) {
  int r = 0;
  for (; *s && !r; s++) {
    if (*s == '<') r = tbk_buf_puts(b, "&lt;");
    else if (*s == '>') r = tbk_buf_puts(b, "&gt;");
    else if (*s == '&') r = tbk_buf_puts(b, "&amp;");
    else if (*s == '"') r = tbk_buf_puts(b, "&quot;");
    else r = tbk_buf_append(b, s, 1);
  }
  return r;
}

/* A step of 1, 2 or 5 x 10^k giving about five ticks over span. */
static double nice_step(double span) {
  if (!(span > 0)) return 1;
  double raw = span / 5, p = pow(10, floor(log10(raw))), m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

tbk_status tbk_line_svg(const tbk_line_series *s, size_t ns, const char *title, const char *xlabel, const char *ylabel,
                        tbk_buf *out, tbk_error *err) {
  double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
  for (size_t k = 0; k < ns; k++)
    for (size_t i = 0; i < s[k].n; i++) {
      if (s[k].x[i] < xmin) xmin = s[k].x[i];
      if (s[k].x[i] > xmax) xmax = s[k].x[i];
      if (!isnan(s[k].y[i]) && s[k].y[i] > ymax) ymax = s[k].y[i];
    }
  if (!(xmin < xmax)) {
    xmin = isfinite(xmin) ? xmin - 1 : 0;
    xmax = xmin + 2;
  }
  if (!(ymax > 0)) ymax = 1;
  double ystep = nice_step(ymax), xstep = nice_step(xmax - xmin);
  ymax = ceil(ymax * 1.0001 / ystep) * ystep;
  double pw = LW - ML - MR, ph = LH - MT - MB;
#define PX(v) (ML + ((v)-xmin) / (xmax - xmin) * pw)
#define PY(v) (MT + ph - (v) / ymax * ph)
  int r = tbk_buf_printf(
      out,
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, "
      "Arial, sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
      "<text x=\"%d\" y=\"30\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">",
      LW, LH, LW, LH, ML + (int)pw / 2);
  r |= xml_esc(out, title ? title : "");
  r |= tbk_buf_puts(out, "</text>\n<g stroke=\"#dddddd\">\n");
  for (double v = 0; v <= ymax + ystep / 2; v += ystep)
    r |= tbk_buf_printf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ML, PY(v), ML + pw, PY(v));
  double x0 = ceil(xmin / xstep) * xstep;
  for (double v = x0; v <= xmax + xstep / 1000; v += xstep)
    r |= tbk_buf_printf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\"/>\n", PX(v), MT, PX(v), MT + ph);
  r |= tbk_buf_printf(out,
                      "</g>\n<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n",
                      ML, MT, pw, ph);
  for (double v = 0; v <= ymax + ystep / 2; v += ystep)
    r |= tbk_buf_printf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", ML - 6, PY(v) + 4, v);
  for (double v = x0; v <= xmax + xstep / 1000; v += xstep)
    r |= tbk_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", PX(v), MT + ph + 18, v);
  r |= tbk_buf_printf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">", ML + pw / 2, LH - 18);
  r |= xml_esc(out, xlabel ? xlabel : "");
  r |= tbk_buf_printf(out,
                      "</text>\n<text x=\"20\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\" "
                      "transform=\"rotate(-90 20 %.1f)\">",
                      MT + ph / 2, MT + ph / 2);
  r |= xml_esc(out, ylabel ? ylabel : "");
  r |= tbk_buf_puts(out, "</text>\n");
  for (size_t k = 0; k < ns; k++) {
    const char *color = LCOLORS[k % 10], *dash = LDASHES[(k / 10) % 3];
    r |= tbk_buf_printf(out,
                        "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-dasharray=\"%s\" points=\"",
                        color, dash);
    for (size_t i = 0; i < s[k].n; i++)
      if (!isnan(s[k].y[i])) r |= tbk_buf_printf(out, "%.1f,%.1f ", PX(s[k].x[i]), PY(s[k].y[i]));
    r |= tbk_buf_puts(out, "\"/>\n");
    double ly = MT + 8 + 16.0 * (double)k;
    if (ly > LH - 10) continue; /* more series than the legend holds */
    r |= tbk_buf_printf(out,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" "
                        "stroke-dasharray=\"%s\"/>\n<text x=\"%.1f\" y=\"%.1f\">",
                        ML + pw + 12, ly, ML + pw + 40, ly, color, dash, ML + pw + 46, ly + 4);
    r |= xml_esc(out, s[k].name ? s[k].name : "");
    r |= tbk_buf_puts(out, "</text>\n");
  }
  r |= tbk_buf_puts(out, "</svg>\n");
#undef PX
#undef PY
  return r ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory") : TBK_OK;
}
