/* The MDL value of a clustering and the greedy agglomeration that lowers
 * it (the seed's Extract Template, with its FindBestCluster restricted to
 * the candidate pairs of cluster_lsh.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

/* x log2(N/x), with the share near 1 taken through log1p so a matrix of
 * billions of cells with a few ones keeps its precision. */
static double term(double cells, double x) { return x > 0 ? x * log2(cells / x) : 0.0; }

double tbk_mdl_bits(double cells, double a, double b) {
  if (cells <= 0) return 0.0;
  double rest = cells - a - b;
  double r = rest > 0 ? -rest * log1p(-(a + b) / cells) / M_LN2 : 0.0;
  return term(cells, a) + term(cells, b) + r;
}

double tbk_mdl_cost(const tbk_mdl_totals *t) {
  return tbk_mdl_bits(t->paths * t->clusters, t->template_ones, 0) + tbk_mdl_bits(t->clusters * t->docs, t->docs, 0) +
         tbk_mdl_bits(t->paths * t->docs, t->exc_plus, t->exc_minus);
}

/* The template is the paths held by more than half the pages ((|DOC|+1)/2
 * or more, as the seed writes it): each such path costs its missing pages
 * as -1 exceptions, each other path its holders as +1 exceptions. */
static inline void count_path(tbk_cluster_part *p, uint32_t c, uint32_t docs) {
  if (2 * (uint64_t)c > docs) {
    p->template_ones += 1;
    p->exc_minus += docs - c;
  } else {
    p->exc_plus += c;
  }
}

tbk_cluster_part tbk_cluster_part_of(const tbk_path_count *pc, size_t n, uint32_t docs) {
  tbk_cluster_part p = {0, 0, 0};
  for (size_t i = 0; i < n; i++) count_path(&p, pc[i].count, docs);
  return p;
}

tbk_cluster_part tbk_cluster_part_merged(const tbk_path_count *a, size_t na, uint32_t da, const tbk_path_count *b,
                                         size_t nb, uint32_t db) {
  tbk_cluster_part p = {0, 0, 0};
  uint32_t docs = da + db;
  size_t i = 0, j = 0;
  while (i < na || j < nb) {
    if (j == nb || (i < na && a[i].path < b[j].path)) count_path(&p, a[i++].count, docs);
    else if (i == na || b[j].path < a[i].path) count_path(&p, b[j++].count, docs);
    else count_path(&p, a[i++].count + b[j++].count, docs);
  }
  return p;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The path counts of a sorted list of ids (repeats counted) into pc; the
 * number of distinct ids. */
static size_t count_sorted(const uint32_t *ids, size_t n, tbk_path_count *pc) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m && pc[m - 1].path == ids[i]) pc[m - 1].count++;
    else pc[m++] = (tbk_path_count){ids[i], 1};
  }
  return m;
}

tbk_status tbk_mdl_cost_of(const uint32_t *const *sets, const size_t *len, size_t n, const uint32_t *assign, uint32_t k,
                           double *cost, tbk_error *err) {
  *cost = 0;
  size_t total = 0;
  for (size_t d = 0; d < n; d++) {
    if (assign[d] >= k) return tbk_fail(err, TBK_ERR_ARG, "page %zu: cluster %u >= %u", d, assign[d], k);
    total += len[d];
  }
  uint32_t *ids = malloc((total + 1) * sizeof *ids);
  tbk_path_count *pc = malloc((total + 1) * sizeof *pc);
  uint32_t *docs = calloc(k + 1, sizeof *docs);
  if (!ids || !pc || !docs) {
    free(ids);
    free(pc);
    free(docs);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  tbk_mdl_totals t = {0, (double)n, (double)k, 0, 0, 0};
  tbk_status st = TBK_OK;
  for (uint32_t c = 0; c < k && !st; c++) {
    size_t m = 0;
    for (size_t d = 0; d < n; d++)
      if (assign[d] == c) {
        docs[c]++;
        memcpy(ids + m, sets[d], len[d] * sizeof *ids);
        m += len[d];
      }
    if (!docs[c]) st = tbk_fail(err, TBK_ERR_ARG, "cluster %u has no page", c);
    qsort(ids, m, sizeof *ids, cmp_u32);
    size_t np = count_sorted(ids, m, pc);
    tbk_cluster_part p = tbk_cluster_part_of(pc, np, docs[c]);
    t.template_ones += p.template_ones;
    t.exc_plus += p.exc_plus;
    t.exc_minus += p.exc_minus;
  }
  if (!st) {
    size_t m = 0;
    for (size_t d = 0; d < n; d++) {
      memcpy(ids + m, sets[d], len[d] * sizeof *ids);
      m += len[d];
    }
    qsort(ids, m, sizeof *ids, cmp_u32);
    t.paths = (double)count_sorted(ids, m, pc);
    *cost = tbk_mdl_cost(&t);
  }
  free(ids);
  free(pc);
  free(docs);
  return st;
}

/* ----- the agglomeration */

typedef struct cand {
  double delta;    /* cost change of the merge, when computed */
  uint32_t a, b;   /* clusters (roots when computed) */
  uint32_t va, vb; /* their versions then */
  uint64_t epoch;  /* merges made before it was computed */
} cand;

typedef struct agg {
  tbk_path_count **pc; /* each root's path counts */
  size_t *npc;
  uint32_t *docs, *ver, *up;
  tbk_cluster_part *part;
  tbk_mdl_totals t;
  double cost;
  uint64_t epoch;
  cand *heap;
  size_t nheap, cap;
  size_t evaluations;
} agg;

static uint32_t find(uint32_t *up, uint32_t x) {
  while (up[x] != x) {
    up[x] = up[up[x]];
    x = up[x];
  }
  return x;
}

/* Ties broken by the pair, so the result never depends on the heap's
 * layout. */
static int before(const cand *x, const cand *y) {
  if (x->delta != y->delta) return x->delta < y->delta;
  if (x->a != y->a) return x->a < y->a;
  return x->b < y->b;
}

static int heap_push(agg *g, cand c) {
  if (tbk_grow(&g->heap, &g->cap, g->nheap + 1, sizeof *g->heap)) return -1;
  size_t i = g->nheap++;
  while (i && before(&c, &g->heap[(i - 1) / 2])) {
    g->heap[i] = g->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  g->heap[i] = c;
  return 0;
}

static cand heap_pop(agg *g) {
  cand top = g->heap[0], last = g->heap[--g->nheap];
  size_t i = 0, n = g->nheap;
  for (;;) {
    size_t l = 2 * i + 1, m = i;
    const cand *best = &last;
    if (l < n && before(&g->heap[l], best)) m = l, best = &g->heap[l];
    if (l + 1 < n && before(&g->heap[l + 1], best)) m = l + 1;
    if (m == i) break;
    g->heap[i] = g->heap[m];
    i = m;
  }
  if (n) g->heap[i] = last;
  return top;
}

static tbk_mdl_totals totals_after(const agg *g, uint32_t a, uint32_t b, const tbk_cluster_part *m) {
  tbk_mdl_totals t = g->t;
  t.clusters -= 1;
  t.template_ones += m->template_ones - g->part[a].template_ones - g->part[b].template_ones;
  t.exc_plus += m->exc_plus - g->part[a].exc_plus - g->part[b].exc_plus;
  t.exc_minus += m->exc_minus - g->part[a].exc_minus - g->part[b].exc_minus;
  return t;
}

static cand evaluate(agg *g, uint32_t a, uint32_t b) {
  if (a > b) {
    uint32_t x = a;
    a = b;
    b = x;
  }
  tbk_cluster_part m = tbk_cluster_part_merged(g->pc[a], g->npc[a], g->docs[a], g->pc[b], g->npc[b], g->docs[b]);
  tbk_mdl_totals t = totals_after(g, a, b, &m);
  g->evaluations++;
  return (cand){tbk_mdl_cost(&t) - g->cost, a, b, g->ver[a], g->ver[b], g->epoch};
}

/* b into a: the union's path counts replace a's. */
static int merge(agg *g, uint32_t a, uint32_t b) {
  size_t na = g->npc[a], nb = g->npc[b], i = 0, j = 0, m = 0;
  tbk_path_count *x = g->pc[a], *y = g->pc[b];
  tbk_path_count *u = malloc((na + nb + 1) * sizeof *u);
  if (!u) return -1;
  while (i < na || j < nb) {
    if (j == nb || (i < na && x[i].path < y[j].path)) u[m++] = x[i++];
    else if (i == na || y[j].path < x[i].path) u[m++] = y[j++];
    else {
      u[m] = x[i++];
      u[m++].count += y[j++].count;
    }
  }
  tbk_cluster_part p = tbk_cluster_part_of(u, m, g->docs[a] + g->docs[b]);
  g->t = totals_after(g, a, b, &p);
  g->cost = tbk_mdl_cost(&g->t);
  free(x);
  free(y);
  g->pc[a] = u;
  g->npc[a] = m;
  g->pc[b] = NULL;
  g->npc[b] = 0;
  g->docs[a] += g->docs[b];
  g->part[a] = p;
  g->up[b] = a;
  g->ver[a]++;
  g->epoch++;
  return 0;
}

static void agg_free(agg *g, size_t n) {
  if (g->pc)
    for (size_t i = 0; i < n; i++) free(g->pc[i]);
  free(g->pc);
  free(g->npc);
  free(g->docs);
  free(g->ver);
  free(g->up);
  free(g->part);
  free(g->heap);
}

static int agg_init(agg *g, const uint32_t *const *sets, const size_t *len, size_t n, uint32_t n_paths) {
  g->pc = calloc(n + 1, sizeof *g->pc);
  g->npc = calloc(n + 1, sizeof *g->npc);
  g->docs = calloc(n + 1, sizeof *g->docs);
  g->ver = calloc(n + 1, sizeof *g->ver);
  g->up = calloc(n + 1, sizeof *g->up);
  g->part = calloc(n + 1, sizeof *g->part);
  unsigned char *seen = calloc((size_t)n_paths + 1, 1);
  int r = !g->pc || !g->npc || !g->docs || !g->ver || !g->up || !g->part || !seen ? -1 : 0;
  double paths = 0;
  for (size_t d = 0; d < n && !r; d++) {
    g->pc[d] = malloc((len[d] + 1) * sizeof **g->pc);
    if (!g->pc[d]) r = -1;
    for (size_t i = 0; i < len[d] && !r; i++) {
      g->pc[d][i] = (tbk_path_count){sets[d][i], 1};
      paths += !seen[sets[d][i]];
      seen[sets[d][i]] = 1;
    }
    g->npc[d] = len[d];
    g->docs[d] = 1;
    g->up[d] = (uint32_t)d;
    g->part[d] = tbk_cluster_part_of(g->pc[d], g->npc[d], 1);
    g->t.template_ones += g->part[d].template_ones;
  }
  free(seen);
  g->t.paths = paths;
  g->t.docs = (double)n;
  g->t.clusters = (double)n;
  g->cost = tbk_mdl_cost(&g->t);
  return r;
}

tbk_status tbk_mdl_agglomerate(const uint32_t *const *sets, const size_t *len, size_t n, uint32_t n_paths,
                               const tbk_pair *pairs, size_t n_pairs, uint32_t *assign, uint32_t *k,
                               tbk_merge_stats *stats, tbk_error *err) {
  memset(stats, 0, sizeof *stats);
  *k = 0;
  for (size_t d = 0; d < n; d++)
    for (size_t i = 0; i < len[d]; i++)
      if (sets[d][i] >= n_paths)
        return tbk_fail(err, TBK_ERR_ARG, "page %zu: path id %u >= %u", d, sets[d][i], n_paths);
  for (size_t i = 0; i < n_pairs; i++)
    if (pairs[i].a >= n || pairs[i].b >= n || pairs[i].a == pairs[i].b)
      return tbk_fail(err, TBK_ERR_ARG, "candidate pair %zu (%u, %u) out of range", i, pairs[i].a, pairs[i].b);
  agg g;
  memset(&g, 0, sizeof g);
  if (agg_init(&g, sets, len, n, n_paths)) goto nomem;
  stats->cost_start = g.cost;
  for (size_t i = 0; i < n_pairs; i++)
    if (heap_push(&g, evaluate(&g, pairs[i].a, pairs[i].b))) goto nomem;
  /* Lazy greedy: a candidate computed before the last merge (or for
   * clusters since grown) is computed again and put back; one that is
   * current and still first is the best merge there is, and when even it
   * does not lower the cost, none does. */
  while (g.nheap) {
    cand c = heap_pop(&g);
    uint32_t a = find(g.up, c.a), b = find(g.up, c.b);
    if (a == b) continue;
    int current = c.epoch == g.epoch && a == c.a && b == c.b && g.ver[a] == c.va && g.ver[b] == c.vb;
    if (!current) {
      if (heap_push(&g, evaluate(&g, a, b))) goto nomem;
      continue;
    }
    if (c.delta >= 0) break;
    if (merge(&g, a, b)) goto nomem;
    stats->merges++;
  }
  stats->cost_end = g.cost;
  stats->evaluations = g.evaluations;
  /* Clusters numbered by their first page: the same input always gives
   * the same numbers. */
  uint32_t *num = g.ver; /* versions are no longer needed */
  for (size_t d = 0; d < n; d++) num[d] = UINT32_MAX;
  for (size_t d = 0; d < n; d++) {
    uint32_t r = find(g.up, (uint32_t)d);
    if (num[r] == UINT32_MAX) num[r] = (*k)++;
    assign[d] = num[r];
  }
  agg_free(&g, n);
  return TBK_OK;
nomem:
  agg_free(&g, n);
  return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
}
