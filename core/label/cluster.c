/* The clustering run: pages' path sets interned to dense ids, then for each
 * group (a site, or the whole crawl) the pathno of every path, each page's
 * non-content paths (pathno at least the mode of its paths' pathnos),
 * MinHash/LSH candidate pairs over those, and the MDL agglomeration; by
 * default (TBK_PATHNO_COMPONENT) each connected component of those
 * candidate pairs then goes through the same steps as a group of its own. */
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

const tbk_cluster_options tbk_cluster_options_default = {
    .bands = 20, .rows = 4, .seed = 0x74626b2d636c7573ULL, .pathno_scope = TBK_PATHNO_COMPONENT};

/* Path hash -> dense id, open addressing at most half full. */
typedef struct intern {
  uint64_t *keys; /* slot keys; ids[slot] valid when used[slot] */
  uint32_t *ids;
  unsigned char *used;
  size_t nslots;
  uint64_t *by_id; /* each id's hash */
  size_t n, cap;
} intern;

struct tbk_clusterer {
  tbk_cluster_options opt;
  intern in;
  uint32_t *ids; /* every page's path ids, sorted within a page */
  size_t n_ids, cap_ids;
  size_t *start; /* page d's ids: [start[d], start[d + 1]) */
  uint32_t *group;
  size_t n, cap;
};

static int intern_grow(intern *in) {
  size_t ns = in->nslots ? 2 * in->nslots : 1024;
  uint64_t *keys = malloc(ns * sizeof *keys);
  uint32_t *ids = malloc(ns * sizeof *ids);
  unsigned char *used = calloc(ns, 1);
  if (!keys || !ids || !used) {
    free(keys);
    free(ids);
    free(used);
    return -1;
  }
  for (size_t i = 0; i < in->nslots; i++) {
    if (!in->used[i]) continue;
    size_t s = (size_t)(in->keys[i] * 0x9e3779b97f4a7c15ULL >> 7) & (ns - 1);
    while (used[s]) s = (s + 1) & (ns - 1);
    used[s] = 1;
    keys[s] = in->keys[i];
    ids[s] = in->ids[i];
  }
  free(in->keys);
  free(in->ids);
  free(in->used);
  in->keys = keys;
  in->ids = ids;
  in->used = used;
  in->nslots = ns;
  return 0;
}

/* The id of hash h, new ids numbered on; 0 ok, -1 out of memory, -2 too
 * many ids. */
static int intern_id(intern *in, uint64_t h, uint32_t *id) {
  if (2 * (in->n + 1) > in->nslots && intern_grow(in)) return -1;
  size_t s = (size_t)(h * 0x9e3779b97f4a7c15ULL >> 7) & (in->nslots - 1);
  while (in->used[s]) {
    if (in->keys[s] == h) {
      *id = in->ids[s];
      return 0;
    }
    s = (s + 1) & (in->nslots - 1);
  }
  if (in->n >= UINT32_MAX - 1) return -2;
  if (tbk_grow(&in->by_id, &in->cap, in->n + 1, sizeof *in->by_id)) return -1;
  in->used[s] = 1;
  in->keys[s] = h;
  in->ids[s] = (uint32_t)in->n;
  in->by_id[in->n] = h;
  *id = (uint32_t)in->n++;
  return 0;
}

tbk_status tbk_clusterer_new(const tbk_cluster_options *o, tbk_clusterer **out, tbk_error *err) {
  *out = NULL;
  tbk_clusterer *c = calloc(1, sizeof *c);
  if (!c) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  c->opt = o ? *o : tbk_cluster_options_default;
  if (!c->opt.bands || !c->opt.rows) {
    free(c);
    return tbk_fail(err, TBK_ERR_ARG, "LSH needs at least one band of one row");
  }
  *out = c;
  return TBK_OK;
}

void tbk_clusterer_free(tbk_clusterer *c) {
  if (!c) return;
  free(c->in.keys);
  free(c->in.ids);
  free(c->in.used);
  free(c->in.by_id);
  free(c->ids);
  free(c->start);
  free(c->group);
  free(c);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

tbk_status tbk_clusterer_add(tbk_clusterer *c, uint32_t group, const uint64_t *paths, size_t n, tbk_error *err) {
  if (c->n >= UINT32_MAX - 1) return tbk_fail(err, TBK_ERR_LIMIT, "more than 2^32 - 2 pages");
  if (TBK_GROW_ALL(&c->cap, c->n + 2, TBK_ARRAY(c->group), TBK_ARRAY(c->start)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (tbk_grow(&c->ids, &c->cap_ids, c->n_ids + n + 1, sizeof *c->ids))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  uint32_t *dst = c->ids + c->n_ids;
  for (size_t i = 0; i < n; i++) {
    int r = intern_id(&c->in, paths[i], &dst[i]);
    if (r == -1) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    if (r == -2) return tbk_fail(err, TBK_ERR_LIMIT, "more than 2^32 - 2 distinct paths");
  }
  qsort(dst, n, sizeof *dst, cmp_u32);
  size_t u = 0;
  for (size_t i = 0; i < n; i++)
    if (u == 0 || dst[i] != dst[u - 1]) dst[u++] = dst[i];
  c->start[c->n] = c->n_ids;
  c->n_ids += u;
  c->group[c->n++] = group;
  c->start[c->n] = c->n_ids;
  return TBK_OK;
}

uint32_t tbk_pathno_mode(const uint32_t *df, size_t n, uint32_t *scratch) {
  if (!n) return 0;
  memcpy(scratch, df, n * sizeof *scratch);
  qsort(scratch, n, sizeof *scratch, cmp_u32);
  uint32_t best = scratch[0];
  size_t best_run = 0;
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && scratch[j] == scratch[i];) j++;
    if (j - i > best_run) { /* strictly more: ties keep the smaller value */
      best_run = j - i;
      best = scratch[i];
    }
  }
  return best;
}

void tbk_cluster_result_free(tbk_cluster_result *r) {
  free(r->cluster);
  free(r->size);
  memset(r, 0, sizeof *r);
}

/* Scratch of one group's run, sized for the largest group. */
typedef struct group_run {
  uint32_t *df;    /* per global path id; zero between groups */
  uint32_t *local; /* global id -> 1 + local id; zero between groups */
  uint32_t *nc;    /* the group's non-content sets, local ids */
  size_t *nc_start;
  uint32_t **sets;
  size_t *len;
  uint32_t *scratch, *scratch2;
  uint64_t *hashes, *sigs;
  uint32_t *assign;
} group_run;

static void group_run_free(group_run *g) {
  free(g->df);
  free(g->local);
  free(g->nc);
  free(g->nc_start);
  free(g->sets);
  free(g->len);
  free(g->scratch);
  free(g->scratch2);
  free(g->hashes);
  free(g->sigs);
  free(g->assign);
}

/* The candidate pairs of the m pages docs[0..m): each page's non-content
 * paths by the pathno over these pages (g->sets, g->len; local ids below
 * *n_local), their MinHash signatures, LSH. */
static tbk_status candidates(tbk_clusterer *c, group_run *g, const uint32_t *docs, size_t m, uint32_t *n_local,
                             tbk_pair **pairs, size_t *n_pairs, tbk_error *err) {
  size_t total = 0, widest = 0;
  for (size_t i = 0; i < m; i++) {
    size_t len = c->start[docs[i] + 1] - c->start[docs[i]];
    total += len;
    if (len > widest) widest = len;
    for (size_t j = c->start[docs[i]]; j < c->start[docs[i] + 1]; j++) g->df[c->ids[j]]++;
  }
  size_t width = (size_t)c->opt.bands * c->opt.rows;
  g->nc = malloc((total + 1) * sizeof *g->nc);
  g->nc_start = malloc((m + 1) * sizeof *g->nc_start);
  g->sets = malloc((m + 1) * sizeof *g->sets);
  g->len = malloc((m + 1) * sizeof *g->len);
  g->scratch = malloc((widest + 1) * sizeof *g->scratch);
  g->scratch2 = malloc((widest + 1) * sizeof *g->scratch2);
  g->hashes = malloc((widest + 1) * sizeof *g->hashes);
  g->sigs = malloc((m * width + 1) * sizeof *g->sigs);
  g->assign = malloc((m + 1) * sizeof *g->assign);
  if (!g->nc || !g->nc_start || !g->sets || !g->len || !g->scratch || !g->scratch2 || !g->hashes || !g->sigs ||
      !g->assign) {
    for (size_t i = 0; i < m; i++)
      for (size_t j = c->start[docs[i]]; j < c->start[docs[i] + 1]; j++) g->df[c->ids[j]] = 0;
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  *n_local = 0;
  size_t at = 0;
  for (size_t i = 0; i < m; i++) {
    const uint32_t *ids = c->ids + c->start[docs[i]];
    size_t len = c->start[docs[i] + 1] - c->start[docs[i]];
    for (size_t j = 0; j < len; j++) g->scratch2[j] = g->df[ids[j]];
    uint32_t thr = tbk_pathno_mode(g->scratch2, len, g->scratch);
    size_t h = 0;
    g->nc_start[i] = at;
    for (size_t j = 0; j < len; j++) {
      if (g->df[ids[j]] < thr) continue;
      if (!g->local[ids[j]]) g->local[ids[j]] = ++*n_local;
      g->nc[at++] = g->local[ids[j]] - 1;
      g->hashes[h++] = c->in.by_id[ids[j]];
    }
    g->len[i] = at - g->nc_start[i];
    qsort(g->nc + g->nc_start[i], g->len[i], sizeof *g->nc, cmp_u32);
    tbk_minhash(g->hashes, h, c->opt.seed, (uint32_t)width, g->sigs + i * width);
  }
  for (size_t i = 0; i < m; i++) g->sets[i] = g->nc + g->nc_start[i];
  /* Leave df and local zero for the next group. */
  for (size_t i = 0; i < m; i++)
    for (size_t j = c->start[docs[i]]; j < c->start[docs[i] + 1]; j++) g->df[c->ids[j]] = g->local[c->ids[j]] = 0;
  return tbk_lsh_pairs(g->sigs, m, c->opt.bands, c->opt.rows, pairs, n_pairs, err);
}

/* g's arrays of one run freed, df and local (zero) kept for the next. */
static void group_run_reset(group_run *g) {
  uint32_t *df = g->df, *local = g->local;
  g->df = g->local = NULL;
  group_run_free(g);
  memset(g, 0, sizeof *g);
  g->df = df;
  g->local = local;
}

/* Cluster the m pages docs[0..m) together; their clusters numbered from
 * *next_cluster on in res. */
static tbk_status run_group(tbk_clusterer *c, group_run *g, const uint32_t *docs, size_t m, tbk_cluster_result *res,
                            uint32_t *next_cluster, tbk_error *err) {
  uint32_t n_local;
  tbk_pair *pairs;
  size_t n_pairs;
  tbk_status st = candidates(c, g, docs, m, &n_local, &pairs, &n_pairs, err);
  if (st) return st;
  res->candidate_pairs += n_pairs;
  uint32_t k;
  tbk_merge_stats ms;
  st = tbk_mdl_agglomerate((const uint32_t *const *)g->sets, g->len, m, n_local, pairs, n_pairs, g->assign, &k, &ms,
                           err);
  free(pairs);
  if (st) return st;
  res->merge.cost_start += ms.cost_start;
  res->merge.cost_end += ms.cost_end;
  res->merge.merges += ms.merges;
  res->merge.evaluations += ms.evaluations;
  for (size_t i = 0; i < m; i++) {
    res->cluster[docs[i]] = *next_cluster + g->assign[i];
    res->size[*next_cluster + g->assign[i]]++;
  }
  *next_cluster += k;
  return TBK_OK;
}

static uint32_t root_of(uint32_t *up, uint32_t x) {
  while (up[x] != x) {
    up[x] = up[up[x]];
    x = up[x];
  }
  return x;
}

/* With pathno_scope TBK_PATHNO_COMPONENT: the group's candidate pairs
 * first, then each connected component of them clustered as a group of
 * its own (run_group), so pathnos count only pages that can ever share a
 * cluster. docs is reordered by component. */
static tbk_status run_scoped(tbk_clusterer *c, group_run *g, uint32_t *docs, size_t m, tbk_cluster_result *res,
                             uint32_t *next_cluster, tbk_error *err) {
  if (c->opt.pathno_scope != TBK_PATHNO_COMPONENT || m < 2) return run_group(c, g, docs, m, res, next_cluster, err);
  uint32_t n_local;
  tbk_pair *pairs;
  size_t n_pairs;
  tbk_status st = candidates(c, g, docs, m, &n_local, &pairs, &n_pairs, err);
  group_run_reset(g);
  if (st) return st;
  res->candidate_pairs += n_pairs;
  uint32_t *up = malloc(m * sizeof *up), *at = calloc(m + 1, sizeof *at);
  uint32_t *sorted = malloc(2 * m * sizeof *sorted), *root = sorted + m;
  if (!up || !at || !sorted) {
    free(pairs);
    free(up);
    free(at);
    free(sorted);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  /* A component is named by its first page (the smaller root wins), and
   * pages keep their order within it: the result does not depend on the
   * pairs' order. */
  for (size_t i = 0; i < m; i++) up[i] = (uint32_t)i;
  for (size_t i = 0; i < n_pairs; i++) {
    uint32_t a = root_of(up, pairs[i].a), b = root_of(up, pairs[i].b);
    if (a != b) up[a > b ? a : b] = a < b ? a : b;
  }
  free(pairs);
  for (size_t i = 0; i < m; i++) at[(up[i] = root_of(up, (uint32_t)i)) + 1]++;
  for (size_t r = 0; r < m; r++) at[r + 1] += at[r];
  for (size_t i = 0; i < m; i++) {
    root[at[up[i]]] = up[i];
    sorted[at[up[i]]++] = docs[i];
  }
  memcpy(docs, sorted, m * sizeof *docs);
  for (size_t i = 0, j; i < m && !st; i = j) {
    for (j = i + 1; j < m && root[j] == root[i];) j++;
    st = run_group(c, g, docs + i, j - i, res, next_cluster, err);
    group_run_reset(g);
  }
  free(up);
  free(at);
  free(sorted);
  return st;
}

static int cmp_by_group(const void *a, const void *b, void *ctx) {
  const uint32_t *group = ctx, x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  if (group[x] != group[y]) return group[x] < group[y] ? -1 : 1;
  return (x > y) - (x < y);
}

tbk_status tbk_clusterer_run(tbk_clusterer *c, tbk_cluster_result *res, tbk_error *err) {
  memset(res, 0, sizeof *res);
  res->n_pages = c->n;
  res->cluster = calloc(c->n + 1, sizeof *res->cluster);
  res->size = calloc(c->n + 1, sizeof *res->size);
  uint32_t *order = malloc((c->n + 1) * sizeof *order);
  group_run g;
  memset(&g, 0, sizeof g);
  g.df = calloc(c->in.n + 1, sizeof *g.df);
  g.local = calloc(c->in.n + 1, sizeof *g.local);
  tbk_status st = TBK_OK;
  if (!res->cluster || !res->size || !order || !g.df || !g.local) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < c->n; i++) order[i] = (uint32_t)i;
  qsort_r(order, c->n, sizeof *order, cmp_by_group, c->group);
  uint32_t next = 0;
  for (size_t i = 0, j; i < c->n && !st; i = j) {
    for (j = i; j < c->n && c->group[order[j]] == c->group[order[i]];) j++;
    st = run_scoped(c, &g, order + i, j - i, res, &next, err);
    group_run_reset(&g); /* each group's own arrays, sized for it */
  }
  res->n_clusters = next;
  /* Renumber by first page over all groups, as within one. */
  if (!st) {
    uint32_t *num = order;
    for (size_t i = 0; i < c->n; i++) num[i] = UINT32_MAX;
    uint32_t k = 0;
    for (size_t d = 0; d < c->n; d++) {
      if (num[res->cluster[d]] == UINT32_MAX) num[res->cluster[d]] = k++;
      res->cluster[d] = num[res->cluster[d]];
    }
    memset(res->size, 0, (c->n + 1) * sizeof *res->size);
    for (size_t d = 0; d < c->n; d++) res->size[res->cluster[d]]++;
  }
done:
  group_run_free(&g);
  free(order);
  if (st) tbk_cluster_result_free(res);
  return st;
}
