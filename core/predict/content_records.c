/* Records: elements of one shape repeated side by side (a forum thread's
 * posts, an article's sections, a recipe's steps), whose text the
 * content stage should decide alike. Trained on news, where what repeats
 * beside the article is comments and teasers, it keeps the opening post
 * and a line or two of the replies. Measured in
 * docs/experiments/evaluation-content-stage.md ("A thread's posts"). */
#include <stdint.h>
#include <string.h>

#include "predict_internal.h"
#include "units.h"
#include "util.h"

/* An element's class as an order-free hash of its tokens, each without
 * trailing digits (phpBB alternates "bg1" and "bg2" on its posts); 0 when
 * it has none. */
static void on_class(void *ctx, const char *name, const char *chunk) {
  uint32_t *h = ctx;
  if (!chunk || strcmp(name, "class") != 0) return;
  for (const char *q = chunk; *q;) {
    q += strspn(q, " \t\n\r\f");
    size_t l = strcspn(q, " \t\n\r\f"), m = l;
    while (m && q[m - 1] >= '0' && q[m - 1] <= '9') m--;
    if (l) *h += tbk_hash32(q, m) * 2654435761u;
    q += l;
  }
}

/* Element k's shape (its tag and class), memoized in ux->nd[k].shape; bit
 * 0 says whether it has a class. */
static uint32_t shape(const tbk_page_view *pv, const tbk_units *ux, uint32_t k) {
  if (!ux->nd[k].shape) {
    uint32_t h = 0;
    tbk_node_attrs(&pv->nodes[k], on_class, &h);
    uint32_t s = (h ^ pv->nodes[k].tag * 0x9e3779b9u) & ~1u;
    ux->nd[k].shape = s | (h != 0) | 2u; /* bit 1: never 0 */
  }
  return ux->nd[k].shape;
}

/* The shapes of the way from record r down to element x, folded from the
 * top: way[d] is the hash of the path to the element d + 1 levels below
 * r, el[d] that element. Returns the depth (at most RECORD_DEPTH). */
#define RECORD_DEPTH 48
static size_t way_down(const tbk_page_view *pv, const tbk_units *ux, uint32_t r, uint32_t x, uint32_t *way,
                       uint32_t *el) {
  size_t n = 0;
  for (; x != r && x != TBK_NONE && n < RECORD_DEPTH; x = pv->nodes[x].parent) el[n++] = x;
  for (size_t a = 0, b = n; a + 1 < b; a++, b--) {
    uint32_t t = el[a];
    el[a] = el[b - 1];
    el[b - 1] = t;
  }
  uint32_t h = 0;
  for (size_t d = 0; d < n; d++) way[d] = h = h * 31u + shape(pv, ux, el[d]);
  return n;
}

/* The ways the record's kept units take: what the record of the anchor
 * shows of itself. */
#define RECORD_WAYS 64

void tbk_records_like(const tbk_page *page, const tbk_units *ux, size_t anchor, const unsigned char *keep,
                      void (*take)(void *ctx, size_t i), void *ctx) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t lo = anchor, hi = anchor + 1;
  for (uint32_t x = pv.nodes[ux->u[anchor].elem].parent; x != TBK_NONE; x = pv.nodes[x].parent) {
    uint32_t par = pv.nodes[x].parent;
    /* the <body>'s children are the page's columns, not records */
    if (par == TBK_NONE || pv.nodes[par].tag == TBK_TAG_BODY) break;
    /* the units in x are [lo, hi) */
    while (lo > 0 && tbk_view_holds(&pv, x, ux->u[lo - 1].elem)) lo--;
    while (hi < ux->n && tbk_view_holds(&pv, x, ux->u[hi].elem)) hi++;
    /* a record is named: unnamed <div>s repeat in any layout */
    uint32_t sig = shape(&pv, ux, x), records = 0;
    if (!(sig & 1u) || hi - lo < 2) continue;
    for (uint32_t c = par + 1; c < pv.nodes[par].end; c = pv.nodes[c].end) records += shape(&pv, ux, c) == sig;
    if (records < 2) continue;
    uint32_t kept[RECORD_WAYS], way[RECORD_DEPTH], el[RECORD_DEPTH];
    size_t nk = 0;
    for (size_t i = lo; i < hi && nk < RECORD_WAYS; i++) {
      size_t n = keep[i] == 1 ? way_down(&pv, ux, x, ux->u[i].elem, way, el) : 0;
      if (n) kept[nk++] = way[n - 1];
    }
    size_t plo = lo;
    while (plo > 0 && tbk_view_holds(&pv, par, ux->u[plo - 1].elem)) plo--;
    /* units follow the document's order: one pass over par's records */
    size_t i = plo;
    for (uint32_t r = par + 1; r < pv.nodes[par].end; r = pv.nodes[r].end) {
      if (r == x || shape(&pv, ux, r) != sig) continue;
      while (i < ux->n && ux->u[i].elem < r) i++;
      for (; i < ux->n && tbk_view_holds(&pv, r, ux->u[i].elem); i++) {
        if (keep[i] || ux->u[i].elem == r) continue;
        /* the unit or an element around it takes a way a kept unit of
         * the anchor's record takes (a reply's code, inside its text's
         * element) */
        size_t n = way_down(&pv, ux, r, ux->u[i].elem, way, el), hit = 0;
        for (size_t d = 0; d < n && !hit; d++)
          for (size_t k = 0; k < nk && !hit; k++) hit = way[d] == kept[k];
        if (hit) take(ctx, i);
      }
    }
  }
}
