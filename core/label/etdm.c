/* The exact top-down mapping (ETDM) of Alarte et al. 2015 (Definition 3.2,
 * Algorithm 2): pairs of equal nodes whose parents are paired, found top
 * down, one-to-one, children aligned in document order. The template of a
 * key page is what of it stays mapped after each page of its n-CS. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "etdm.h"

typedef struct etdm_node {
  uint64_t name_h;        /* tag name */
  uint64_t key_h;         /* tag name, id and sorted classes: tag+id+class */
  uint64_t id_h;          /* 0: no id */
  uint32_t cls, ncls;     /* sorted class hashes in tree->h */
  uint32_t attrs, nattrs; /* sorted attribute-name hashes in tree->h */
  uint32_t kids, nkids;   /* children in tree->kids */
  uint32_t sib, nsib;     /* position among the parent's element children */
} etdm_node;

struct tbk_etdm_tree {
  etdm_node *nodes;
  size_t n;
  uint32_t *kids;
  uint64_t *h;
  size_t nh, cap_h;
  uint32_t *tops; /* top-level elements: the children of the document */
  uint32_t ntops;
  uint64_t html_h, body_h;
};

const char *tbk_node_eq_name(tbk_node_eq e) {
  return e == TBK_NODE_EQ_TAG ? "tag" : e == TBK_NODE_EQ_TAG_ID_CLASS ? "tag+id+class" : "weighted";
}

int tbk_node_eq_parse(const char *s, tbk_node_eq *out) {
  if (strcmp(s, "tag") == 0) *out = TBK_NODE_EQ_TAG;
  else if (strcmp(s, "tag+id+class") == 0) *out = TBK_NODE_EQ_TAG_ID_CLASS;
  else if (strcmp(s, "weighted") == 0) *out = TBK_NODE_EQ_WEIGHTED;
  else return -1;
  return 0;
}

/* Classes and attributes by which a page marks its own item in the menu
 * the pages share (Bootstrap's active, WordPress's current-menu-item,
 * Drupal's is-active and menu-item--active-trail, aria-current...): every
 * page of the menu's CS marks another item, so compared they would make
 * each page's own item, and with it the menu around it, not template. The
 * relations leave them out: a class one of whose parts (split at - and _)
 * is active, current or selected, in any case, and these attributes. */
static const char *const STATE_WORDS[] = {"active", "current", "selected"};
static const char *const STATE_ATTRS[] = {"aria-current", "aria-selected"};

static int in_list(const char *const *list, size_t n, const char *s, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(list[i]) == len && strncasecmp(list[i], s, len) == 0) return 1;
  return 0;
}
#define IN_LIST(l, s, n) in_list(l, sizeof l / sizeof *l, s, n)

static int state_class(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && s[j] != '-' && s[j] != '_') j++;
    if (IN_LIST(STATE_WORDS, s + i, j - i)) return 1;
    i = j + 1;
  }
  return 0;
}

typedef struct attr_walk {
  tbk_buf id, cls;
  uint64_t *names;
  size_t nnames, cap;
  int which; /* 1: in id, 2: in class */
  int bad;
} attr_walk;

static void on_attr(void *ctx, const char *name, const char *chunk) {
  attr_walk *w = ctx;
  if (w->bad) return;
  if (!chunk) {
    if (IN_LIST(STATE_ATTRS, name, strlen(name))) return;
    if (tbk_grow(&w->names, &w->cap, w->nnames + 1, sizeof *w->names)) w->bad = 1;
    else w->names[w->nnames++] = tbk_hash64(name, strlen(name));
    return;
  }
  tbk_buf *b = strcmp(name, "id") == 0 ? &w->id : strcmp(name, "class") == 0 ? &w->cls : NULL;
  if (b && tbk_buf_puts(b, chunk)) w->bad = 1;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static int push_h(tbk_etdm_tree *t, uint64_t v) {
  if (tbk_grow(&t->h, &t->cap_h, t->nh + 1, sizeof *t->h)) return -1;
  t->h[t->nh++] = v;
  return 0;
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

tbk_status tbk_etdm_tree_new(const tbk_page *page, tbk_etdm_tree **out, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  *out = NULL;
  tbk_etdm_tree *t = calloc(1, sizeof *t);
  size_t n = pv.n_nodes;
  attr_walk w = {0};
  uint32_t *fill = NULL;
  const uint64_t class_h = tbk_hash64("class", 5);
  if (!t) goto nomem;
  t->n = n;
  t->html_h = tbk_hash64("html", 4);
  t->body_h = tbk_hash64("body", 4);
  t->nodes = calloc(n + 1, sizeof *t->nodes);
  t->kids = malloc((n + 1) * sizeof *t->kids);
  t->tops = malloc((n + 1) * sizeof *t->tops);
  fill = calloc(n + 1, sizeof *fill);
  /* h never NULL: empty class and attribute lists point into it too. */
  if (!t->nodes || !t->kids || !t->tops || !fill || tbk_grow(&t->h, &t->cap_h, 1, sizeof *t->h)) goto nomem;
  /* Children ranges: count, then place (nodes come in document order). */
  for (size_t i = 0; i < n; i++) {
    uint32_t p = pv.nodes[i].parent;
    if (p != TBK_NONE) t->nodes[p].nkids++;
    else t->tops[t->ntops++] = (uint32_t)i;
  }
  uint32_t at = 0;
  for (size_t i = 0; i < n; i++) {
    t->nodes[i].kids = at;
    at += t->nodes[i].nkids;
  }
  for (size_t i = 0; i < n; i++) {
    uint32_t p = pv.nodes[i].parent;
    if (p == TBK_NONE) continue;
    etdm_node *pn = &t->nodes[p];
    t->nodes[i].sib = fill[p];
    t->kids[pn->kids + fill[p]++] = (uint32_t)i;
  }
  for (size_t i = 0; i < n; i++) {
    etdm_node *e = &t->nodes[i];
    uint32_t p = pv.nodes[i].parent;
    e->nsib = p == TBK_NONE ? 1 : t->nodes[p].nkids;
    const char *name = tbk_node_name(&pv.nodes[i]);
    e->name_h = tbk_hash64(name, strlen(name));
    w.id.len = w.cls.len = 0;
    w.nnames = 0;
    tbk_node_attrs(&pv.nodes[i], on_attr, &w);
    if (w.bad) goto nomem;
    e->id_h = w.id.len ? tbk_hash64(w.id.data, w.id.len) | 1 : 0;
    e->cls = (uint32_t)t->nh;
    size_t state = 0, all = 0;
    for (size_t k = 0; k < w.cls.len;) {
      while (k < w.cls.len && is_ws(w.cls.data[k])) k++;
      size_t s = k;
      while (k < w.cls.len && !is_ws(w.cls.data[k])) k++;
      if (k == s) continue;
      all++;
      if (state_class(w.cls.data + s, k - s)) state++;
      else if (push_h(t, tbk_hash64(w.cls.data + s, k - s))) goto nomem;
    }
    if (all && state == all) /* class="active" alone: as if no class at all */
      for (size_t k = 0; k < w.nnames; k++)
        if (w.names[k] == class_h) {
          w.names[k] = w.names[--w.nnames];
          break;
        }
    e->ncls = (uint32_t)(t->nh - e->cls);
    if (e->ncls > 1) qsort(t->h + e->cls, e->ncls, sizeof *t->h, cmp_u64);
    /* A class written twice is one class. */
    uint32_t u = 0;
    for (uint32_t k = 0; k < e->ncls; k++)
      if (!u || t->h[e->cls + k] != t->h[e->cls + u - 1]) t->h[e->cls + u++] = t->h[e->cls + k];
    e->ncls = u;
    t->nh = e->cls + u;
    uint64_t key = e->name_h * 0x9E3779B97F4A7C15ULL ^ e->id_h;
    for (uint32_t k = 0; k < e->ncls; k++) key = (key ^ t->h[e->cls + k]) * 1099511628211ULL;
    e->key_h = key;
    e->attrs = (uint32_t)t->nh;
    for (size_t k = 0; k < w.nnames; k++)
      if (push_h(t, w.names[k])) goto nomem;
    e->nattrs = (uint32_t)w.nnames;
    if (e->nattrs > 1) qsort(t->h + e->attrs, e->nattrs, sizeof *t->h, cmp_u64);
  }
  free(fill);
  tbk_buf_free(&w.id);
  tbk_buf_free(&w.cls);
  free(w.names);
  *out = t;
  return TBK_OK;
nomem:
  free(fill);
  tbk_buf_free(&w.id);
  tbk_buf_free(&w.cls);
  free(w.names);
  tbk_etdm_tree_free(t);
  return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
}

void tbk_etdm_tree_free(tbk_etdm_tree *t) {
  if (!t) return;
  free(t->nodes);
  free(t->kids);
  free(t->h);
  free(t->tops);
  free(t);
}

size_t tbk_etdm_tree_size(const tbk_etdm_tree *t) { return t->n; }

/* |a & b| / |a | b| of two sorted sets; two empty sets are alike. */
static double jaccard(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) {
  if (!na && !nb) return 1.0;
  size_t i = 0, j = 0, both = 0;
  while (i < na && j < nb) {
    if (a[i] == b[j]) both++, i++, j++;
    else if (a[i] < b[j]) i++;
    else j++;
  }
  return (double)both / (double)(na + nb - both);
}

int tbk_etdm_equal(const tbk_etdm_tree *ta, uint32_t a, const tbk_etdm_tree *tb, uint32_t b, tbk_node_eq e) {
  const etdm_node *x = &ta->nodes[a], *y = &tb->nodes[b];
  if (x->name_h != y->name_h) return 0;
  if (e == TBK_NODE_EQ_TAG) return 1;
  /* A document has one html and one body: nothing to tell apart, and their
   * classes and ids name the page (WordPress's page-id-N, Squarespace's
   * collection ids), so the weighted relation compares their tags only. */
  if (e == TBK_NODE_EQ_WEIGHTED && (x->name_h == ta->html_h || x->name_h == ta->body_h)) return 1;
  if (e == TBK_NODE_EQ_TAG_ID_CLASS) return x->key_h == y->key_h;
  double kids = x->nkids == y->nkids ? 1.0
                                     : (double)(x->nkids < y->nkids ? x->nkids : y->nkids) /
                                           (double)(x->nkids > y->nkids ? x->nkids : y->nkids);
  double px = x->nsib > 1 ? (double)x->sib / (double)(x->nsib - 1) : 0.0;
  double py = y->nsib > 1 ? (double)y->sib / (double)(y->nsib - 1) : 0.0;
  double pos = 1.0 - (px > py ? px - py : py - px);
  double s = 0.30 * (x->id_h == y->id_h) + 0.25 * jaccard(ta->h + x->cls, x->ncls, tb->h + y->cls, y->ncls) +
             0.15 * kids + 0.10 * pos + 0.20 * jaccard(ta->h + x->attrs, x->nattrs, tb->h + y->attrs, y->nattrs);
  return s >= TBK_NODE_EQ_THRESHOLD - 1e-9;
}

typedef struct map_work {
  uint32_t *stack; /* pairs to expand: key node, other node */
  size_t nstack, cap_stack;
  uint32_t *a; /* the key node's children in the template */
  size_t cap_a;
  uint32_t *dp; /* LCS table */
  size_t cap_dp;
} map_work;

static int push_pair(map_work *w, uint32_t x, uint32_t y) {
  if (tbk_grow(&w->stack, &w->cap_stack, w->nstack + 2, sizeof *w->stack)) return -1;
  w->stack[w->nstack++] = x;
  w->stack[w->nstack++] = y;
  return 0;
}

/* Pair the children a[0..na) of a key node with b[0..nb) of an other node. */
static int align(map_work *w, const tbk_etdm_tree *tk, const uint32_t *a, size_t na, const tbk_etdm_tree *to,
                 const uint32_t *b, size_t nb, tbk_node_eq e) {
  size_t pre = 0;
  while (pre < na && pre < nb && tbk_etdm_equal(tk, a[pre], to, b[pre], e))
    if (push_pair(w, a[pre], b[pre])) return -1;
    else pre++;
  size_t suf = 0;
  while (suf < na - pre && suf < nb - pre && tbk_etdm_equal(tk, a[na - 1 - suf], to, b[nb - 1 - suf], e))
    if (push_pair(w, a[na - 1 - suf], b[nb - 1 - suf])) return -1;
    else suf++;
  a += pre, b += pre;
  na -= pre + suf, nb -= pre + suf;
  if (!na || !nb) return 0;
  if (na > TBK_ETDM_MAX_CELLS / nb) {
    /* Too large a table: each key child takes the next equal one. */
    size_t j = 0;
    for (size_t i = 0; i < na && j < nb; i++) {
      size_t k = j;
      while (k < nb && !tbk_etdm_equal(tk, a[i], to, b[k], e)) k++;
      if (k == nb) continue;
      if (push_pair(w, a[i], b[k])) return -1;
      j = k + 1;
    }
    return 0;
  }
  size_t cols = nb + 1;
  if (tbk_grow(&w->dp, &w->cap_dp, (na + 1) * cols, sizeof *w->dp)) return -1;
  uint32_t *d = w->dp;
  /* d[i][j]: LCS of a[i..] and b[j..], so the walk below goes forward. */
  for (size_t j = 0; j <= nb; j++) d[na * cols + j] = 0;
  for (size_t i = na; i-- > 0;) {
    d[i * cols + nb] = 0;
    for (size_t j = nb; j-- > 0;) {
      uint32_t best = d[(i + 1) * cols + j] > d[i * cols + j + 1] ? d[(i + 1) * cols + j] : d[i * cols + j + 1];
      if (tbk_etdm_equal(tk, a[i], to, b[j], e) && d[(i + 1) * cols + j + 1] + 1 > best)
        best = d[(i + 1) * cols + j + 1] + 1;
      d[i * cols + j] = best;
    }
  }
  for (size_t i = 0, j = 0; i < na && j < nb;) {
    if (d[i * cols + j] == d[(i + 1) * cols + j + 1] + 1 && tbk_etdm_equal(tk, a[i], to, b[j], e)) {
      if (push_pair(w, a[i], b[j])) return -1;
      i++, j++;
    } else if (d[(i + 1) * cols + j] >= d[i * cols + j + 1]) i++;
    else j++;
  }
  return 0;
}

tbk_status tbk_etdm_map(const tbk_etdm_tree *key, const uint8_t *keep, const tbk_etdm_tree *other, tbk_node_eq e,
                        uint32_t *map, tbk_error *err) {
  for (size_t i = 0; i < key->n; i++) map[i] = TBK_NONE;
  map_work w = {0};
  tbk_status st = TBK_OK;
  /* The roots: the document's top-level elements (one html, or a second
   * after a stray one), aligned as any children are. */
  if (tbk_grow(&w.a, &w.cap_a, key->ntops + 1, sizeof *w.a)) goto nomem;
  size_t na = 0;
  for (uint32_t k = 0; k < key->ntops; k++)
    if (!keep || keep[key->tops[k]]) w.a[na++] = key->tops[k];
  if (na && other->ntops && align(&w, key, w.a, na, other, other->tops, other->ntops, e)) goto nomem;
  while (w.nstack) {
    uint32_t y = w.stack[--w.nstack], x = w.stack[--w.nstack];
    map[x] = y;
    const etdm_node *kx = &key->nodes[x], *oy = &other->nodes[y];
    if (tbk_grow(&w.a, &w.cap_a, kx->nkids + 1, sizeof *w.a)) goto nomem;
    na = 0;
    for (uint32_t k = 0; k < kx->nkids; k++) {
      uint32_t c = key->kids[kx->kids + k];
      if (!keep || keep[c]) w.a[na++] = c;
    }
    if (na && oy->nkids && align(&w, key, w.a, na, other, other->kids + oy->kids, oy->nkids, e)) goto nomem;
  }
  goto done;
nomem:
  st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
done:
  free(w.stack);
  free(w.a);
  free(w.dp);
  return st;
}

tbk_status tbk_etdm_refine(const tbk_etdm_tree *key, uint8_t *keep, uint32_t *hits, const tbk_etdm_tree *other,
                           tbk_node_eq e, size_t *kept, int *skipped, tbk_error *err) {
  *skipped = 0;
  uint32_t *map = malloc((key->n + 1) * sizeof *map);
  if (!map) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_status st = tbk_etdm_map(key, keep, other, e, map, err);
  size_t n = 0, mapped = 0;
  for (size_t i = 0; st == TBK_OK && i < key->n; i++) mapped += keep[i] && map[i] != TBK_NONE;
  /* No root equal, nothing mapped: the page is skipped, as the paper does. */
  if (st == TBK_OK && !mapped) *skipped = 1;
  for (size_t i = 0; st == TBK_OK && i < key->n; i++) {
    if (!*skipped) {
      keep[i] = keep[i] && map[i] != TBK_NONE;
      if (keep[i] && hits) hits[i]++;
    }
    n += keep[i] != 0;
  }
  free(map);
  *kept = n;
  return st;
}
