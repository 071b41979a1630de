/* A page as the MDL clustering sees it: the set of its root-to-element tag
 * paths, plus, for each element that holds text itself, the element's path
 * with a text marker (the text's words do not matter, only where text
 * sits). Paths are 64-bit hashes built down the node table, a child's from
 * its parent's and its tag name. */
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* With attrs, an element's id and class values join its step, digits left
 * out: sites built on one framework share their tags but rarely their class
 * names, and numbered ids ("post-1234") would make every page's paths its
 * own. */
typedef struct attr_hash {
  uint64_t h;
  int on; /* inside an id or class value */
} attr_hash;

static void hash_attr(void *ctx, const char *name, const char *chunk) {
  attr_hash *a = ctx;
  if (!chunk) {
    a->on = 0;
    return;
  }
  if (!a->on) {
    if (strcmp(name, "id") != 0 && strcmp(name, "class") != 0) return;
    a->on = 1;
    a->h = tbk_fnv64_step(a->h, (unsigned char)name[0]);
  }
  for (const char *c = chunk; *c; c++)
    if (*c < '0' || *c > '9') a->h = tbk_fnv64_step(a->h, (unsigned char)*c);
}

/* The text marker's step, a value no tag name's FNV hash is likely to be. */
#define TEXT_STEP 0x23746578742d2d23ULL

tbk_status tbk_cluster_page_paths(const tbk_page *p, int attrs, uint64_t **out, size_t *n, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(p);
  *out = NULL;
  *n = 0;
  size_t nn = pv.n_nodes;
  uint64_t *h = malloc((3 * nn + 1) * sizeof *h);
  unsigned char *has_text = calloc(nn + 1, 1);
  if (!h || !has_text) {
    free(h);
    free(has_text);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  for (size_t r = 0; r < pv.n_runs; r++)
    if (pv.runs[r].end > pv.runs[r].start && pv.runs[r].node < nn) has_text[pv.runs[r].node] = 1;
  size_t m = 0;
  uint64_t *path = h + nn; /* after each node's own: up to two paths a node */
  for (size_t i = 0; i < nn; i++) {
    const tbk_node *nd = &pv.nodes[i];
    const char *name = tbk_node_name(nd);
    uint64_t step = tbk_hash64(name, strlen(name));
    if (attrs) {
      attr_hash a = {step, 0};
      tbk_node_attrs(nd, hash_attr, &a);
      step = a.h;
    }
    uint64_t up = nd->parent == TBK_NONE || nd->parent >= i ? 0 : h[nd->parent];
    h[i] = tbk_mix64(up * 0x9e3779b97f4a7c15ULL ^ step);
    path[m++] = h[i];
    if (has_text[i]) path[m++] = tbk_mix64(h[i] ^ TEXT_STEP);
  }
  free(has_text);
  qsort(path, m, sizeof *path, cmp_u64);
  size_t u = 0;
  for (size_t i = 0; i < m; i++)
    if (u == 0 || path[i] != path[u - 1]) path[u++] = path[i];
  uint64_t *set = malloc((u ? u : 1) * sizeof *set);
  if (!set) {
    free(h);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  memcpy(set, path, u * sizeof *set);
  free(h);
  *out = set;
  *n = u;
  return TBK_OK;
}
