/* Template clustering of heterogeneous pages (the MDL-clustering seed,
 * ../shared/papers/mdl-clustering-heterogeneous-templates.txt): pages that
 * share a template share their non-content tag paths, and the clustering
 * kept is the one that encodes those paths in the fewest bits.
 *
 * A page is the set of its root-to-element tag paths, text reduced to a
 * marker path below the element that holds it (cluster_paths.c). Within a
 * group of pages (one site, or the whole crawl, or by default one connected
 * component of the LSH candidate pairs in either: tbk_pathno_scope) a
 * path's pathno is the number of pages holding it; a page's non-content
 * paths NC(d) are those whose pathno reaches the page's threshold, the
 * mode of the pathno of its paths (cluster.c). A clustering is described
 * by three matrices over the P non-content paths, the n pages and the k
 * clusters:
 *   template   P x k, 1 where a path is in a cluster's template (the paths
 *              held by more than half of its pages)
 *   membership k x n, 1 where a page is in a cluster
 *   exceptions P x n, +1 where a page has a non-content path its template
 *              lacks, -1 where it lacks a template path
 * each costing |M| H(M) bits, H the entropy of its cells' values
 * (cluster_mdl.c). Agglomeration starts from singletons and repeatedly
 * merges the pair that lowers the total most, until none does; only pairs
 * that MinHash/LSH put in one bucket are ever compared, and a merged
 * cluster keeps both sides' candidate pairs (cluster_lsh.c). */
#ifndef TBK_CLUSTER_H
#define TBK_CLUSTER_H
#include <stddef.h>
#include <stdint.h>

#include "page_view.h"
#include "util.h"

/* splitmix64's finalizer: consecutive inputs give unrelated outputs (path
 * steps, MinHash seeds, band keys). */
static inline uint64_t tbk_mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* The page's path set: the distinct 64-bit hashes of its tag paths (attrs:
 * each step also has the element's id and class, digits left out), sorted,
 * in *out (caller frees), *n of them. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_cluster_page_paths(const tbk_page *p, int attrs, uint64_t **out, size_t *n, tbk_error *err);

/* ----- the MDL cost (cluster_mdl.c) */

/* Cells and value counts of the three matrices of one clustering. */
typedef struct tbk_mdl_totals {
  double paths;               /* P: distinct non-content paths of the group */
  double docs;                /* n */
  double clusters;            /* k */
  double template_ones;       /* sum of the templates' sizes */
  double exc_plus, exc_minus; /* exception cells +1 and -1 */
} tbk_mdl_totals;

/* Bits of a matrix of `cells` cells of which `a` hold one value, `b`
 * another and the rest a third: cells * H. 0 for an empty matrix. */
double tbk_mdl_bits(double cells, double a, double b);
/* The clustering's description length in bits. */
double tbk_mdl_cost(const tbk_mdl_totals *t);

/* A cluster's non-content paths with how many of its pages hold each,
 * sorted by path id. */
typedef struct tbk_path_count {
  uint32_t path, count;
} tbk_path_count;
/* What one cluster of `docs` pages adds to the totals: its template size
 * and its exceptions, from its path counts. */
typedef struct tbk_cluster_part {
  double template_ones, exc_plus, exc_minus;
} tbk_cluster_part;
tbk_cluster_part tbk_cluster_part_of(const tbk_path_count *pc, size_t n, uint32_t docs);
/* The same for the union of two clusters, without building it. */
tbk_cluster_part tbk_cluster_part_merged(const tbk_path_count *a, size_t na, uint32_t da, const tbk_path_count *b,
                                         size_t nb, uint32_t db);

/* The cost of a whole clustering from scratch, for checking: n pages, page
 * d's non-content path ids sets[d] (sorted, distinct) of len[d], assign[d]
 * its cluster in [0, k). P counts the distinct ids in the sets. Errors:
 * TBK_ERR_ARG (a cluster id >= k, an empty cluster), TBK_ERR_NOMEM. */
tbk_status tbk_mdl_cost_of(const uint32_t *const *sets, const size_t *len, size_t n, const uint32_t *assign, uint32_t k,
                           double *cost, tbk_error *err);

/* ----- MinHash and LSH (cluster_lsh.c) */

/* k MinHash values of the set (distinct 64-bit items) into sig: value i is
 * the minimum over the items of a hash seeded by (seed, i), so the same set
 * and seed always give the same signature. An empty set gives all
 * UINT64_MAX. */
void tbk_minhash(const uint64_t *set, size_t n, uint64_t seed, uint32_t k, uint64_t *sig);

typedef struct tbk_pair {
  uint32_t a, b; /* a < b */
} tbk_pair;
/* Candidate pairs of n signatures (sigs: n rows of bands * rows values):
 * pages whose signatures agree on all rows of some band share that band's
 * bucket, and each bucket links its pages in a chain (ascending index), so
 * a bucket of m pages gives m - 1 pairs, not m(m-1)/2; merging along the
 * chain joins the whole bucket. Pairs come sorted and distinct in *out
 * (caller frees). Errors: TBK_ERR_NOMEM, TBK_ERR_LIMIT (n >= 2^32). */
tbk_status tbk_lsh_pairs(const uint64_t *sigs, size_t n, uint32_t bands, uint32_t rows, tbk_pair **out, size_t *n_pairs,
                         tbk_error *err);

/* ----- the greedy agglomeration (cluster_mdl.c) */

typedef struct tbk_merge_stats {
  double cost_start, cost_end; /* bits: all singletons, the result */
  size_t merges;               /* merges made */
  size_t evaluations;          /* merge costs computed */
} tbk_merge_stats;
/* Agglomerate n pages (non-content path ids sets[d], sorted and distinct,
 * of len[d]; ids < n_paths) over the candidate pairs: assign[d] receives
 * the page's cluster, numbered 0.. in order of each cluster's first page,
 * *k the number of clusters. Errors: TBK_ERR_ARG (an id >= n_paths, a pair
 * out of range), TBK_ERR_NOMEM. */
tbk_status tbk_mdl_agglomerate(const uint32_t *const *sets, const size_t *len, size_t n, uint32_t n_paths,
                               const tbk_pair *pairs, size_t n_pairs, uint32_t *assign, uint32_t *k,
                               tbk_merge_stats *stats, tbk_error *err);

/* ----- agreement with a reference grouping (cluster_score.c) */

/* The adjusted Rand index (Hubert & Arabie) of two groupings of n items
 * (x[i], y[i] any labels) in *ari, 1 for identical partitions, about 0 for
 * chance (1 when both put all items in one group, or n < 2); the purity of
 * x against y in *purity: the share of items in the reference group most
 * common in their x group. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_cluster_agreement(const uint32_t *x, const uint32_t *y, size_t n, double *ari, double *purity,
                                 tbk_error *err);

/* ----- the whole procedure (cluster.c) */

/* Over which pages a path's pathno is counted. GROUP: all pages of the
 * group (the site with --sites, else the whole crawl), as the seed counts
 * it. COMPONENT (default): first the group's candidate pairs as GROUP
 * gives them, then each connected component of those pairs is a group of
 * its own: in a crawl of many sites, a generic path (div in div in div...)
 * is held by pages of unrelated sites, which lifts its pathno over a
 * page's mode and makes content paths (a post's nested quote) non-content;
 * counted over the pages that can ever share a cluster with the page (a
 * merge follows candidate pairs), it is what --sites counts within a site. */
typedef enum tbk_pathno_scope { TBK_PATHNO_COMPONENT = 0, TBK_PATHNO_GROUP = 1 } tbk_pathno_scope;

typedef struct tbk_cluster_options {
  uint32_t bands; /* LSH bands */
  uint32_t rows;  /* MinHash values per band */
  uint64_t seed;  /* MinHash seed */
  tbk_pathno_scope pathno_scope;
} tbk_cluster_options;
extern const tbk_cluster_options tbk_cluster_options_default;

/* The non-content paths of one page: of its pathnos df[0..n) (any order),
 * the threshold is their mode, the smallest of the most frequent values
 * (0 for no paths). */
uint32_t tbk_pathno_mode(const uint32_t *df, size_t n, uint32_t *scratch);

typedef struct tbk_clusterer tbk_clusterer;
tbk_status tbk_clusterer_new(const tbk_cluster_options *o, tbk_clusterer **out, tbk_error *err);
void tbk_clusterer_free(tbk_clusterer *c);
/* Add the next page (index = pages added before it): its path set (as
 * tbk_cluster_page_paths gives it) and its group; pages are clustered only
 * with pages of their own group. Errors: TBK_ERR_NOMEM, TBK_ERR_LIMIT (2^32
 * pages or distinct paths). */
tbk_status tbk_clusterer_add(tbk_clusterer *c, uint32_t group, const uint64_t *paths, size_t n, tbk_error *err);

typedef struct tbk_cluster_result {
  uint32_t *cluster; /* owned: each page's cluster, numbered 0.. in
                          order of the cluster's first page */
  uint32_t *size;    /* owned: pages of each cluster */
  size_t n_pages, n_clusters;
  size_t candidate_pairs;
  tbk_merge_stats merge; /* summed over the groups */
} tbk_cluster_result;
/* Cluster every group; the result is owned by the caller
 * (tbk_cluster_result_free). Errors: TBK_ERR_NOMEM. */
tbk_status tbk_clusterer_run(tbk_clusterer *c, tbk_cluster_result *res, tbk_error *err);
void tbk_cluster_result_free(tbk_cluster_result *r);
#endif
