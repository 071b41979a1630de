/* MinHash signatures of path sets and LSH banding: the candidate pairs the
 * agglomeration compares instead of all n(n-1)/2. Two pages whose path sets
 * have Jaccard similarity s share a band's bucket with probability s^rows,
 * so some bucket with probability 1 - (1 - s^rows)^bands: with the default
 * 20 bands of 4, pages of one template (s >= 0.8) almost surely meet, pages
 * of unrelated templates (s <= 0.3) rarely. */
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

void tbk_minhash(const uint64_t *set, size_t n, uint64_t seed, uint32_t k, uint64_t *sig) {
  for (uint32_t i = 0; i < k; i++) {
    uint64_t s = tbk_mix64(seed + 0x9e3779b97f4a7c15ULL * (i + 1)), m = UINT64_MAX;
    for (size_t j = 0; j < n; j++) {
      uint64_t v = tbk_mix64(set[j] ^ s);
      if (v < m) m = v;
    }
    sig[i] = m;
  }
}

typedef struct keyed {
  uint64_t key;
  uint32_t doc;
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->doc > y->doc) - (x->doc < y->doc);
}

static int cmp_pair(const void *a, const void *b) {
  const tbk_pair *x = a, *y = b;
  if (x->a != y->a) return x->a < y->a ? -1 : 1;
  return (x->b > y->b) - (x->b < y->b);
}

tbk_status tbk_lsh_pairs(const uint64_t *sigs, size_t n, uint32_t bands, uint32_t rows, tbk_pair **out, size_t *n_pairs,
                         tbk_error *err) {
  *out = NULL;
  *n_pairs = 0;
  if (n >= UINT32_MAX) return tbk_fail(err, TBK_ERR_LIMIT, "%zu pages: more than 2^32 - 1", n);
  size_t width = (size_t)bands * rows;
  keyed *kd = malloc((n + 1) * sizeof *kd);
  tbk_pair *pairs = NULL;
  size_t np = 0, cap = 0;
  if (!kd) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (uint32_t band = 0; band < bands; band++) {
    for (size_t d = 0; d < n; d++) {
      /* The band number is hashed in, so equal rows in different bands
       * are different buckets. */
      uint64_t h = tbk_mix64(band + 1);
      const uint64_t *row = sigs + d * width + (size_t)band * rows;
      for (uint32_t r = 0; r < rows; r++) h = tbk_mix64(h ^ row[r]);
      kd[d] = (keyed){h, (uint32_t)d};
    }
    qsort(kd, n, sizeof *kd, cmp_keyed);
    for (size_t d = 1; d < n; d++) {
      if (kd[d].key != kd[d - 1].key) continue;
      if (tbk_grow(&pairs, &cap, np + 1, sizeof *pairs)) {
        free(kd);
        free(pairs);
        return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      }
      pairs[np++] = (tbk_pair){kd[d - 1].doc, kd[d].doc};
    }
  }
  free(kd);
  if (np) qsort(pairs, np, sizeof *pairs, cmp_pair);
  size_t u = 0;
  for (size_t i = 0; i < np; i++)
    if (u == 0 || cmp_pair(&pairs[i], &pairs[u - 1])) pairs[u++] = pairs[i];
  *out = pairs;
  *n_pairs = u;
  return TBK_OK;
}
