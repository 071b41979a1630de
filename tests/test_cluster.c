/* MDL template clustering: the matrices' costs computed by hand on tiny
 * inputs, the greedy merge order they imply, the pathno mode, MinHash and
 * LSH determinism and banding, the adjusted Rand index, page path sets, and
 * interleaved templates clustered end to end, within and across groups. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

/* Three pages over three paths: d0 = d1 = {0, 1}, d2 = {0, 2}. */
static const uint32_t s01[] = {0, 1}, s02[] = {0, 2};
static const uint32_t *const sets3[] = {s01, s01, s02};
static const size_t len3[] = {2, 2, 2};

static double cost_of(const uint32_t *assign, uint32_t k) {
  double c = -1;
  tbk_error err = {0};
  CHECK_INT(tbk_mdl_cost_of(sets3, len3, 3, assign, k, &c, &err), TBK_OK);
  return c;
}

static void test_costs(void) {
  CHECK_NEAR(tbk_mdl_bits(0, 0, 0), 0, 1e-12);
  CHECK_NEAR(tbk_mdl_bits(4, 2, 0), 4, 1e-12);          /* a fair coin: 1 bit a cell */
  CHECK_NEAR(tbk_mdl_bits(9, 3, 3), 9 * log2(3), 1e-9); /* three even values */
  CHECK_NEAR(tbk_mdl_bits(5, 5, 0), 0, 1e-12);          /* one value: free */
  /* All singletons, k = 3: templates 3x3 with 6 ones; membership 3x3 with
   * 3 ones; no exception. */
  uint32_t single[] = {0, 1, 2};
  double a = 6 * log2(9.0 / 6) + 3 * log2(9.0 / 3) + (3 * log2(3.0) + 6 * log2(1.5));
  CHECK_NEAR(cost_of(single, 3), a, 1e-9);
  /* {d0, d1}, {d2}: templates 3x2 with 4 ones, membership 2x3 with 3 ones. */
  uint32_t pair[] = {0, 0, 1};
  double b = 4 * log2(6.0 / 4) + 2 * log2(6.0 / 2) + 6;
  CHECK_NEAR(cost_of(pair, 2), b, 1e-9);
  /* One cluster: path 0 on 3 of 3 pages and path 1 on 2 of 3 are the
   * template (more than half), path 2 on 1 is not: templates 3x1 with 2
   * ones, membership all ones (0 bits), exceptions 3x3 with one +1 (d2's
   * path 2) and one -1 (d2 lacks path 1). */
  uint32_t one[] = {0, 0, 0};
  double c = (2 * log2(1.5) + log2(3.0)) + 0 + (2 * log2(9.0) + 7 * log2(9.0 / 7));
  CHECK_NEAR(cost_of(one, 1), c, 1e-9);
  /* {d0, d2}, {d1}: a path on 1 of 2 pages is not in the template. */
  uint32_t cross[] = {0, 1, 0};
  double d = 6 + 6 + (2 * log2(4.5) + 7 * log2(9.0 / 7));
  CHECK_NEAR(cost_of(cross, 2), d, 1e-9);
  CHECK(b < c && c < a && a < d);
  tbk_error err = {0};
  double x;
  uint32_t bad[] = {0, 0, 2};
  CHECK_INT(tbk_mdl_cost_of(sets3, len3, 3, bad, 2, &x, &err), TBK_ERR_ARG);
  CHECK_INT(tbk_mdl_cost_of(sets3, len3, 3, bad, 3, &x, &err), TBK_ERR_ARG); /* cluster 1 empty */

  /* The greedy run from singletons: (d0, d1) lowers the cost most (to b);
   * adding d2 would raise it (c > b), so it stops there. */
  tbk_pair pairs[] = {{0, 1}, {0, 2}, {1, 2}};
  uint32_t assign[3], k = 0;
  tbk_merge_stats ms;
  CHECK_INT(tbk_mdl_agglomerate(sets3, len3, 3, 3, pairs, 3, assign, &k, &ms, &err), TBK_OK);
  CHECK_INT(k, 2);
  CHECK_INT(assign[0], 0);
  CHECK_INT(assign[1], 0);
  CHECK_INT(assign[2], 1);
  CHECK_INT(ms.merges, 1);
  CHECK_NEAR(ms.cost_start, a, 1e-9);
  CHECK_NEAR(ms.cost_end, b, 1e-9);
  /* Without the pair (0, 1) LSH would not have proposed, nothing merges:
   * (d0, d2) and (d1, d2) both raise the cost. */
  CHECK_INT(tbk_mdl_agglomerate(sets3, len3, 3, 3, pairs + 1, 2, assign, &k, &ms, &err), TBK_OK);
  CHECK_INT(k, 3);
  CHECK_INT(ms.merges, 0);
  tbk_pair out_of_range = {0, 3};
  CHECK_INT(tbk_mdl_agglomerate(sets3, len3, 3, 3, &out_of_range, 1, assign, &k, &ms, &err), TBK_ERR_ARG);
  CHECK_INT(tbk_mdl_agglomerate(sets3, len3, 3, 2, pairs, 3, assign, &k, &ms, &err), TBK_ERR_ARG);

  /* Merged parts without building the union equal the union's. */
  tbk_path_count pa[] = {{1, 3}, {4, 1}, {7, 2}}, pb[] = {{1, 2}, {5, 2}, {7, 1}};
  tbk_cluster_part m = tbk_cluster_part_merged(pa, 3, 3, pb, 3, 2);
  tbk_path_count u[] = {{1, 5}, {4, 1}, {5, 2}, {7, 3}};
  tbk_cluster_part v = tbk_cluster_part_of(u, 4, 5);
  CHECK_NEAR(m.template_ones, 2, 0); /* paths 1 (5 of 5) and 7 (3 of 5) */
  CHECK_NEAR(m.exc_minus, 2, 0);     /* 0 + 2 */
  CHECK_NEAR(m.exc_plus, 3, 0);      /* paths 4 and 5: 1 + 2 */
  CHECK(m.template_ones == v.template_ones && m.exc_plus == v.exc_plus && m.exc_minus == v.exc_minus);
}

static void test_mode(void) {
  uint32_t scratch[8];
  uint32_t a[] = {5, 3, 5, 1, 3};
  CHECK_INT(tbk_pathno_mode(a, 5, scratch), 3); /* 5 and 3 tie: the smaller */
  uint32_t b[] = {4, 1, 4, 4};
  CHECK_INT(tbk_pathno_mode(b, 4, scratch), 4);
  CHECK_INT(tbk_pathno_mode(b, 0, scratch), 0);
}

static void test_minhash_lsh(void) {
  uint64_t set[200], other[200];
  for (int i = 0; i < 200; i++) set[i] = 1000 + (uint64_t)i * 7919;
  for (int i = 0; i < 200; i++) other[i] = i < 100 ? set[i + 100] : 5000000 + (uint64_t)i; /* J = 100 / 300 */
  uint64_t s1[256], s2[256], s3[256], s4[256];
  tbk_minhash(set, 200, 42, 256, s1);
  tbk_minhash(set, 200, 42, 256, s2);
  CHECK(memcmp(s1, s2, sizeof s1) == 0);
  tbk_minhash(set, 200, 43, 256, s3);
  CHECK(memcmp(s1, s3, sizeof s1) != 0);
  /* The order of the items does not matter. */
  uint64_t rev[200];
  for (int i = 0; i < 200; i++) rev[i] = set[199 - i];
  tbk_minhash(rev, 200, 42, 256, s3);
  CHECK(memcmp(s1, s3, sizeof s1) == 0);
  /* The share of equal values estimates the Jaccard similarity, 1/3. */
  tbk_minhash(other, 200, 42, 256, s4);
  int eq = 0;
  for (int i = 0; i < 256; i++) eq += s1[i] == s4[i];
  CHECK(eq > 256 / 3 - 30 && eq < 256 / 3 + 30);
  tbk_minhash(set, 0, 42, 4, s3);
  CHECK(s3[0] == UINT64_MAX && s3[3] == UINT64_MAX);

  /* Five signatures of 3 bands x 2 rows: pages 0, 2, 4 equal, 1 and 3
   * equal, and the two kinds share no band: each bucket is a chain. */
  uint64_t sig[5][6];
  for (int d = 0; d < 5; d++)
    for (int r = 0; r < 6; r++) sig[d][r] = d % 2 ? 100 + r : 200 + r;
  sig[4][0] = 999; /* page 4 leaves band 0's bucket, keeps the others */
  tbk_pair *pairs;
  size_t np;
  tbk_error err = {0};
  CHECK_INT(tbk_lsh_pairs(&sig[0][0], 5, 3, 2, &pairs, &np, &err), TBK_OK);
  CHECK_INT(np, 3);
  if (np == 3) {
    CHECK(pairs[0].a == 0 && pairs[0].b == 2);
    CHECK(pairs[1].a == 1 && pairs[1].b == 3);
    CHECK(pairs[2].a == 2 && pairs[2].b == 4);
  }
  free(pairs);
}

static void test_agreement(void) {
  tbk_error err = {0};
  double ari, purity;
  uint32_t x[] = {0, 0, 1, 1}, y[] = {0, 0, 0, 1}, z[] = {7, 7, 3, 3};
  CHECK_INT(tbk_cluster_agreement(x, z, 4, &ari, &purity, &err), TBK_OK);
  CHECK_NEAR(ari, 1, 1e-12);
  CHECK_NEAR(purity, 1, 1e-12);
  /* Pairs together in both: 1; in x: 2, in y: 3, of 6: expected 1, so
   * ARI = (1 - 1) / ((2 + 3) / 2 - 1) = 0. Purity: (2 + 1) / 4. */
  CHECK_INT(tbk_cluster_agreement(x, y, 4, &ari, &purity, &err), TBK_OK);
  CHECK_NEAR(ari, 0, 1e-12);
  CHECK_NEAR(purity, 0.75, 1e-12);
  uint32_t p[] = {0, 0, 0, 1, 1, 2}, q[] = {0, 0, 1, 1, 2, 2};
  /* Together in both: (0,1) only = 1; in p: 3 + 1 = 4; in q: 3; of 15:
   * expected 12/15 = 0.8; ARI = 0.2 / (3.5 - 0.8). */
  CHECK_INT(tbk_cluster_agreement(p, q, 6, &ari, &purity, &err), TBK_OK);
  CHECK_NEAR(ari, 0.2 / 2.7, 1e-12);
  CHECK_NEAR(purity, 4.0 / 6, 1e-12);
}

static void paths_of(const char *html, uint64_t **set, size_t *n) {
  tbk_page *p = NULL;
  tbk_error err = {0};
  *set = NULL;
  *n = 0;
  CHECK_INT(tbk_page_parse(html, strlen(html), NULL, &p, &err), TBK_OK);
  if (!p) return;
  CHECK_INT(tbk_cluster_page_paths(p, 0, set, n, &err), TBK_OK);
  tbk_page_free(p);
}

static void test_page_paths(void) {
  uint64_t *a, *b, *c, *d;
  size_t na, nb, nc, nd;
  paths_of("<html><body><div><p>one</p><p>two</p></div><ul><li>x</li></ul></body></html>", &a, &na);
  /* Other words, a third <p>: the same tag paths. */
  paths_of("<html><body><div><p>uno dos</p><p>tres</p><p>4</p></div><ul><li>y</li></ul></body></html>", &b, &nb);
  /* One more element kind: one more path and its text marker. */
  paths_of("<html><body><div><p>one</p><h2>t</h2></div><ul><li>x</li></ul></body></html>", &c, &nc);
  /* The <li> without text: its text marker goes. */
  paths_of("<html><body><div><p>one</p><p>two</p></div><ul><li></li></ul></body></html>", &d, &nd);
  CHECK(na > 0);
  CHECK_INT(nb, na);
  CHECK(na == nb && memcmp(a, b, na * sizeof *a) == 0);
  CHECK_INT(nc, na + 2);
  CHECK_INT(nd, na - 1);
  for (size_t i = 1; i < na; i++) CHECK(a[i - 1] < a[i]);
  free(a);
  free(b);
  free(c);
  free(d);
}

/* Pages of template t: its 40 paths, page-own paths (content) and, for
 * one page in three, an optional module of 3 paths. */
static size_t synth_page(uint64_t *out, int t, int page) {
  size_t n = 0;
  for (int i = 0; i < 40; i++) out[n++] = (uint64_t)t * 100000 + (uint64_t)i + 1;
  if (page % 3 == 0)
    for (int i = 0; i < 3; i++) out[n++] = (uint64_t)t * 100000 + 500 + (uint64_t)i;
  for (int i = 0; i < 5; i++) out[n++] = 900000000ULL + (uint64_t)page * 10 + (uint64_t)i;
  return n;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static void run_synth(int groups) {
  tbk_clusterer *c;
  tbk_error err = {0};
  CHECK_INT(tbk_clusterer_new(NULL, &c, &err), TBK_OK);
  enum { PAGES = 90 };
  uint32_t truth[PAGES];
  uint64_t buf[64];
  for (int p = 0; p < PAGES; p++) {
    int t = p % 3; /* three templates, interleaved */
    size_t n = synth_page(buf, t, p);
    qsort(buf, n, sizeof *buf, cmp_u64);
    /* With groups, template 2 is in group 1 and the others in group 0. */
    CHECK_INT(tbk_clusterer_add(c, groups && t == 2, buf, n, &err), TBK_OK);
    truth[p] = (uint32_t)t;
  }
  tbk_cluster_result r;
  CHECK_INT(tbk_clusterer_run(c, &r, &err), TBK_OK);
  CHECK_INT(r.n_clusters, 3);
  double ari, purity;
  CHECK_INT(tbk_cluster_agreement(r.cluster, truth, PAGES, &ari, &purity, &err), TBK_OK);
  CHECK_NEAR(ari, 1, 1e-12);
  CHECK_INT(r.cluster[0], 0);
  CHECK_INT(r.cluster[1], 1);
  CHECK_INT(r.size[0], PAGES / 3);
  CHECK(r.candidate_pairs < PAGES * 20);
  CHECK(r.merge.cost_end < r.merge.cost_start);
  /* The same input, the same clusters. */
  tbk_cluster_result r2;
  CHECK_INT(tbk_clusterer_run(c, &r2, &err), TBK_OK);
  CHECK(r2.n_clusters == r.n_clusters && memcmp(r.cluster, r2.cluster, PAGES * sizeof *r.cluster) == 0);
  tbk_cluster_result_free(&r);
  tbk_cluster_result_free(&r2);
  tbk_clusterer_free(c);
}

/* Pathno pollution (tbk_pathno_scope): 40 pages of template A, half of
 * them with a 6-path nested content structure (a quoted post's div in div
 * in div...), and 60 pages of an unrelated template B that all hold those 6
 * generic paths. Counted over all 100 pages, the 6 paths' pathno (80)
 * reaches A's mode (40), so they are non-content and split A in two (a
 * merge would pay 120 exceptions to save a 60-path template); counted
 * within A's LSH component (20 < 40) they are content, and A is one
 * cluster. */
static void test_pathno_scope(void) {
  enum { NA = 40, NB = 60, T = 60 };
  for (int scope = 0; scope < 2; scope++) {
    tbk_cluster_options o = tbk_cluster_options_default;
    o.pathno_scope = scope ? TBK_PATHNO_GROUP : TBK_PATHNO_COMPONENT;
    tbk_clusterer *c;
    tbk_error err = {0};
    CHECK_INT(tbk_clusterer_new(&o, &c, &err), TBK_OK);
    uint32_t truth[NA + NB];
    uint64_t buf[T + 8];
    for (int p = 0; p < NA + NB; p++) {
      int b = p >= NA;
      size_t n = 0;
      for (int i = 0; i < T; i++) buf[n++] = (uint64_t)(b ? 20000 : 10000) + (uint64_t)i;
      if (b || p % 2 == 0)
        for (int i = 0; i < 6; i++) buf[n++] = 50000 + (uint64_t)i;
      buf[n++] = 900000 + (uint64_t)p; /* the page's own text */
      qsort(buf, n, sizeof *buf, cmp_u64);
      CHECK_INT(tbk_clusterer_add(c, 0, buf, n, &err), TBK_OK);
      truth[p] = (uint32_t)b;
    }
    tbk_cluster_result r;
    CHECK_INT(tbk_clusterer_run(c, &r, &err), TBK_OK);
    double ari, purity;
    CHECK_INT(tbk_cluster_agreement(r.cluster, truth, NA + NB, &ari, &purity, &err), TBK_OK);
    CHECK_NEAR(purity, 1, 1e-12);
    if (scope) {
      CHECK_INT(r.n_clusters, 3);
      CHECK(r.cluster[0] != r.cluster[1]); /* with and without the nest */
      CHECK_INT(r.cluster[0], r.cluster[2]);
    } else {
      CHECK_INT(r.n_clusters, 2);
      CHECK_NEAR(ari, 1, 1e-12);
    }
    tbk_cluster_result_free(&r);
    tbk_clusterer_free(c);
  }
}

int main(void) {
  test_costs();
  test_mode();
  test_minhash_lsh();
  test_agreement();
  test_page_paths();
  run_synth(0);
  run_synth(1);
  test_pathno_scope();
  return check_report();
}
