/* ETDM a site at a time (etdm.h): pass 1 builds the site's link graph from
 * its pages; pass 2 takes each page as the key page, finds its n-CS and
 * refines the template by mapping each CS page onto it. The pages come
 * from the caller (tbk_etdm_load_fn), which reports those it cannot give;
 * the CS pages' trees are cached. */
#include <stdlib.h>
#include <string.h>

#include "etdm.h"

/* Trees of the CS pages, which the key pages of a site mostly share (the
 * menu's pages): a few kept, the least recently used replaced. */
enum { TREE_CACHE = 32 };

struct tbk_etdm_site {
  size_t cs_size;
  tbk_node_eq eq;
  tbk_etdm_load_fn load;
  void *ctx;            /* borrowed: load's */
  tbk_link_builder *lb; /* owned, until tbk_etdm_site_finish */
  tbk_link_graph g;     /* owned, after it */
  size_t *index;        /* owned: the caller's index of each graph page */
  size_t n_index, cap_index;
  uint32_t *cs; /* owned, cs_size entries: the key page's CS */
  size_t cache_idx[TREE_CACHE];
  tbk_etdm_tree *cache[TREE_CACHE]; /* owned */
  unsigned long used[TREE_CACHE], clock;
};

tbk_status tbk_etdm_site_new(size_t cs_size, tbk_node_eq eq, tbk_etdm_load_fn load, void *ctx, tbk_etdm_site **out,
                             tbk_error *err) {
  *out = NULL;
  tbk_etdm_site *s = calloc(1, sizeof *s);
  if (!s || !(s->cs = malloc((cs_size + 1) * sizeof *s->cs)) || tbk_link_builder_new(&s->lb, err)) {
    tbk_etdm_site_free(s);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  s->cs_size = cs_size;
  s->eq = eq;
  s->load = load;
  s->ctx = ctx;
  *out = s;
  return TBK_OK;
}

void tbk_etdm_site_free(tbk_etdm_site *s) {
  if (!s) return;
  for (int i = 0; i < TREE_CACHE; i++) tbk_etdm_tree_free(s->cache[i]);
  tbk_link_builder_free(s->lb);
  tbk_link_graph_free(&s->g);
  free(s->index);
  free(s->cs);
  free(s);
}

tbk_status tbk_etdm_site_add(tbk_etdm_site *s, size_t index, const tbk_page *page, const char *site,
                             const char *page_id, const char *url, tbk_error *err) {
  if (tbk_grow(&s->index, &s->cap_index, s->n_index + 1, sizeof *s->index))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_status st = tbk_link_builder_add(s->lb, page, site, page_id, url, err);
  if (!st) s->index[s->n_index++] = index;
  return st;
}

tbk_status tbk_etdm_site_finish(tbk_etdm_site *s, size_t *keys, size_t *links, tbk_error *err) {
  tbk_status st = tbk_link_builder_finish(s->lb, &s->g, err);
  tbk_link_builder_free(s->lb);
  s->lb = NULL;
  if (st) return st;
  *keys = s->g.n;
  *links = s->g.off[s->g.n];
  return TBK_OK;
}

/* The tree of the caller's page idx, NULL (*err untouched) when the caller
 * could not give the page. */
static tbk_status cached_tree(tbk_etdm_site *s, size_t idx, tbk_etdm_tree **out, tbk_error *err) {
  int slot = 0;
  *out = NULL;
  for (int i = 0; i < TREE_CACHE; i++) {
    if (s->cache[i] && s->cache_idx[i] == idx) {
      s->used[i] = ++s->clock;
      *out = s->cache[i];
      return TBK_OK;
    }
    if (!s->cache[i] || (s->cache[slot] && s->used[i] < s->used[slot])) slot = i;
  }
  tbk_page *p = s->load(s->ctx, idx);
  if (!p) return TBK_OK;
  tbk_etdm_tree *t;
  tbk_status st = tbk_etdm_tree_new(p, &t, err);
  tbk_page_free(p);
  if (st) return st;
  tbk_etdm_tree_free(s->cache[slot]);
  s->cache[slot] = t;
  s->cache_idx[slot] = idx;
  s->used[slot] = ++s->clock;
  *out = t;
  return TBK_OK;
}

tbk_status tbk_etdm_site_key(tbk_etdm_site *s, size_t q, tbk_etdm_key *k, tbk_error *err) {
  memset(k, 0, sizeof *k);
  k->cs_n = tbk_ncs_find(&s->g, (uint32_t)q, s->cs_size, s->cs, &k->loads);
  k->index = s->index[q];
  k->page = s->load(s->ctx, k->index);
  if (!k->page) return TBK_OK;
  tbk_etdm_tree *kt;
  tbk_status st = tbk_etdm_tree_new(k->page, &kt, err);
  if (st) return st;
  size_t n = tbk_page_view_of(k->page).n_nodes;
  k->keep = malloc(n + 1);
  k->hits = calloc(n + 1, sizeof *k->hits);
  if (!k->keep || !k->hits) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  else memset(k->keep, 1, n + 1);
  k->kept = n;
  for (size_t c = 0; c < k->cs_n && !st; c++) {
    tbk_etdm_tree *t;
    st = cached_tree(s, s->index[s->cs[c]], &t, err);
    int skipped;
    if (!st && t) st = tbk_etdm_refine(kt, k->keep, k->hits, t, s->eq, &k->kept, &skipped, err);
  }
  tbk_etdm_tree_free(kt);
  return st;
}

void tbk_etdm_key_clear(tbk_etdm_key *k) {
  tbk_page_free(k->page);
  free(k->keep);
  free(k->hits);
  memset(k, 0, sizeof *k);
}
