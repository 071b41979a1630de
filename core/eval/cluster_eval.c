/* tbk-eval cluster's support (cluster_eval.h). */
#include <stdlib.h>
#include <string.h>

#include "cluster_eval.h"

static int cmp_key(const void *a, const void *b, void *ctx) {
  const char *const *s = ctx;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  int c = strcmp(s[x], s[y]);
  return c ? c : (x > y) - (x < y);
}

size_t tbk_number_strings(const char *const *s, size_t n, uint32_t *id, uint32_t *order) {
  for (size_t i = 0; i < n; i++) order[i] = (uint32_t)i;
  qsort_r(order, n, sizeof *order, cmp_key, (void *)s);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (i && strcmp(s[order[i]], s[order[i - 1]])) k++;
    id[order[i]] = (uint32_t)k;
  }
  return n ? k + 1 : 0;
}

static uint64_t next_rand(uint64_t *s) {
  uint64_t x = (*s += 0x9e3779b97f4a7c15ULL);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

size_t tbk_cluster_scaled_paths(const uint64_t *paths, size_t len, size_t i, size_t n, uint64_t *out) {
  size_t copy = i / n, t = 0;
  uint64_t rng = (uint64_t)i * 0x2545f4914f6cdd1dULL + 1;
  for (size_t j = 0; j < len; j++)
    if (!copy || next_rand(&rng) % 200) out[t++] = paths[j];
  for (int e = 0; copy && e < 3; e++) out[t++] = next_rand(&rng);
  qsort(out, t, sizeof *out, cmp_u64);
  return t;
}
