/* --shard K/N: run K of N independent runs over the same inputs.
 * tbk-label and tbk-features split by site (every page of a site in one
 * shard, so document frequencies and labels are those of the whole run),
 * tbk-predict by page. Shards are contiguous ranges of the sorted page
 * list, balanced by pages, so the N outputs concatenated in shard order
 * are byte-identical to the output of one run (header lines come only
 * from shard 1). */
#ifndef TBK_CLI_SHARD_H
#define TBK_CLI_SHARD_H
#include <stddef.h>

#include "cli.h"

/* Parse "K/N" (1 <= K <= N <= 1000000) for option opt; a usage error
 * otherwise. The choice holds for the rest of the process. */
void cli_shard_set(const char *opt, const char *arg);
/* 0 when this run is shard K > 1 of N: it leaves out the header lines of
 * its outputs, which shard 1 writes. */
int cli_shard_headers(void);
/* 1 with this run's K (from 1) and N under --shard K/N, else 0. */
int cli_shard_of(size_t *k, size_t *n);
/* Keep only the sites of this shard in l (sorted, as cli_pages_list
 * leaves it); a no-op without --shard. Site i, spanning pages [a, b) of
 * the T listed, goes to shard floor((a + b) / 2 * N / T): by the middle of
 * its pages, so shards get about T / N pages and stay in site order. */
void cli_shard_sites(tbk_page_list *l);
/* cli_pages_list, then cli_shard_sites. */
void cli_shard_list(cli_pages *c, char **inputs, int n, tbk_page_list *out);
/* The pages [*lo, *hi) of n that are this shard's: shard k (from 0) gets
 * pages i with floor(i * N / n) == k. Without --shard, all of them. */
void cli_shard_pages(size_t n, size_t *lo, size_t *hi);
#endif
