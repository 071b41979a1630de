/* Algorithm 1 of Alarte et al. 2015: the n-complete subdigraph (n-CS) of
 * the pages a key page links to, found incrementally in the order the key
 * page's links come, so that as few pages as possible need loading. */
#include <stdlib.h>

#include "etdm.h"

static int mutual(const tbk_link_graph *g, uint32_t a, uint32_t b) {
  return tbk_link_graph_has(g, a, b) && tbk_link_graph_has(g, b, a);
}

typedef struct clique_search {
  const tbk_link_graph *g;
  const uint32_t *cand; /* processed pages mutual with the new one */
  size_t ncand;
  size_t want;          /* members wanted besides the new page (n - 1) */
  uint32_t *cur, *best; /* indices into cand */
  size_t ncur, nbest;
  unsigned long steps;
} clique_search;

/* Depth-first over cand in order, so that among the largest cliques the
 * first in processing order wins; stops at want members or out of steps. */
static void extend(clique_search *s, size_t from) {
  if (s->ncur > s->nbest) {
    s->nbest = s->ncur;
    for (size_t i = 0; i < s->ncur; i++) s->best[i] = s->cur[i];
  }
  if (s->nbest >= s->want) return;
  for (size_t j = from; j < s->ncand; j++) {
    if (s->ncur + (s->ncand - j) <= s->nbest || s->nbest >= s->want || s->steps >= TBK_NCS_MAX_STEPS) return;
    s->steps++;
    int ok = 1;
    for (size_t k = 0; k < s->ncur && ok; k++) ok = mutual(s->g, s->cand[s->cur[k]], s->cand[j]);
    if (!ok) continue;
    s->cur[s->ncur++] = (uint32_t)j;
    extend(s, j + 1);
    s->ncur--;
  }
}

size_t tbk_ncs_find(const tbk_link_graph *g, uint32_t key, size_t n, uint32_t *cs, size_t *loads) {
  if (loads) *loads = 0;
  if (key >= g->n || n == 0) return 0;
  const uint32_t *links = g->dst + g->off[key];
  size_t nl = g->off[key + 1] - g->off[key];
  uint32_t *cand = malloc((nl + 1) * sizeof *cand);
  uint32_t *cur = malloc((n + 1) * sizeof *cur), *best = malloc((n + 1) * sizeof *best);
  size_t nbest = 0;
  if (!cand || !cur || !best) {
    /* Out of memory: a CS of the first link alone is still a CS. */
    free(cand);
    free(cur);
    free(best);
    if (!nl) return 0;
    cs[0] = links[0];
    if (loads) *loads = 1;
    return 1;
  }
  clique_search s = {.g = g, .cand = cand, .want = n - 1, .cur = cur, .best = best};
  size_t processed = 0;
  for (size_t i = 0; i < nl; i++) {
    uint32_t link = links[i];
    processed++;
    s.ncand = 0;
    for (size_t k = 0; k < i; k++)
      if (mutual(g, link, links[k])) cand[s.ncand++] = links[k];
    s.ncur = s.nbest = 0;
    if (s.ncand && s.want) extend(&s, 0);
    size_t size = 1 + s.nbest;
    if (size > nbest) {
      /* Members in processing order: cand is, and the new link is last. */
      for (size_t k = 0; k < s.nbest; k++) cs[k] = cand[best[k]];
      cs[s.nbest] = link;
      nbest = size;
    }
    if (size >= n) break;
  }
  free(cand);
  free(cur);
  free(best);
  if (loads) *loads = processed;
  return nbest;
}
