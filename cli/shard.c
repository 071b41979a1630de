/* --shard K/N (shard.h). Ranges of the sorted list rather than a hash of
 * the site: a hash would scatter sites over the shards out of the order
 * one run writes them in, and joining the outputs would need a merge on a
 * key every output format would have to carry. */
#include "shard.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t shard_k, shard_n; /* k from 0; n == 0: no --shard */

static uint64_t parse_part(const char *opt, const char *s, const char *end) {
  uint64_t v = 0;
  if (s == end || end - s > 7) cli_usage_error("%s: expected K/N with 1 <= K <= N <= 1000000", opt);
  for (; s < end; s++) {
    if (*s < '0' || *s > '9') cli_usage_error("%s: expected K/N with 1 <= K <= N <= 1000000", opt);
    v = v * 10 + (uint64_t)(*s - '0');
  }
  return v;
}

void cli_shard_set(const char *opt, const char *arg) {
  const char *slash = strchr(arg, '/');
  if (!slash) cli_usage_error("%s: '%s' is not K/N", opt, arg);
  uint64_t k = parse_part(opt, arg, slash), n = parse_part(opt, slash + 1, slash + strlen(slash));
  if (k < 1 || n < 1 || k > n || n > 1000000)
    cli_usage_error("%s: '%s': expected K/N with 1 <= K <= N <= 1000000", opt, arg);
  shard_k = k - 1;
  shard_n = n;
}

int cli_shard_headers(void) { return shard_k == 0; }

int cli_shard_of(size_t *k, size_t *n) {
  *k = (size_t)shard_k + 1;
  *n = (size_t)shard_n;
  return shard_n != 0;
}

void cli_shard_sites(tbk_page_list *l) {
  if (!shard_n || !l->n) return;
  /* Dropped refs go to a list of their own, freed as one (the io layer
   * owns how a ref is freed, temporary stdin copies included). */
  tbk_page_list gone = {0};
  gone.refs = malloc(l->n * sizeof *gone.refs);
  if (!gone.refs) cli_die(TBK_EXIT_FAIL, "out of memory");
  gone.cap = l->n;
  uint64_t total = l->n;
  size_t kept = 0;
  for (size_t a = 0, b; a < l->n; a = b) {
    for (b = a + 1; b < l->n && strcmp(l->refs[b].site, l->refs[a].site) == 0; b++) continue;
    int mine = ((uint64_t)(a + b) * shard_n) / (2 * total) == shard_k;
    for (size_t i = a; i < b; i++) {
      if (mine) l->refs[kept++] = l->refs[i];
      else gone.refs[gone.n++] = l->refs[i];
    }
  }
  l->n = kept;
  tbk_page_list_free(&gone);
}

void cli_shard_list(cli_pages *c, char **inputs, int n, tbk_page_list *out) {
  cli_pages_list(c, inputs, n, out);
  cli_shard_sites(out);
}

void cli_shard_pages(size_t n, size_t *lo, size_t *hi) {
  *lo = 0;
  *hi = n;
  if (!shard_n) return;
  /* The first i with floor(i * N / n) >= k is ceil(k * n / N). */
  *lo = (size_t)((shard_k * n + shard_n - 1) / shard_n);
  *hi = (size_t)(((shard_k + 1) * n + shard_n - 1) / shard_n);
}
