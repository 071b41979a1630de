/* tbk-eval cluster's support (cluster_eval.c): strings numbered for the
 * agreement scores, and the page sets of the scaling curve. */
#ifndef TBK_CLUSTER_EVAL_H
#define TBK_CLUSTER_EVAL_H
#include <stddef.h>
#include <stdint.h>

/* Equal strings of s[0..n) get equal ids, numbered in sorted order (byte
 * order); order receives the indexes sorted (ties by index). Returns the
 * number of distinct strings. */
size_t tbk_number_strings(const char *const *s, size_t n, uint32_t *id, uint32_t *order);

/* Page i of a set of m pages made from n real ones (the curve's sizes
 * beyond the input): real page i % n itself for i < n, else a copy that
 * lacks about 1 in 200 of its paths and has 3 paths of its own, as
 * another page of the same template would. out (room for len + 3) gets
 * the sorted paths; returns their number. Deterministic in i. */
size_t tbk_cluster_scaled_paths(const uint64_t *paths, size_t len, size_t i, size_t n, uint64_t *out);
#endif
