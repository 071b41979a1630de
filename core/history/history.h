/* The site-history store: for every site, how many of its pages were seen
 * and on how many of them each block or unit fingerprint occurs, kept in
 * an SQLite database (WAL) so that a crawl processed in several runs, or
 * by several processes at once, keeps one history.
 *
 * A page is keyed by its site and its key (URL, else path): a page counted
 * once is never counted again, so a re-run or the decide pass of a
 * two-pass run sees the same counts, and a page that is already in the
 * store sees the other pages' counts (itself subtracted). Pages added are
 * held in memory, visible to the run's later pages at once, and committed
 * every commit_pages pages in one transaction that adds each page only if
 * no other process counted it first: counts stay exact under concurrent
 * writers, and a killed run loses at most its uncommitted pages. */
#ifndef TBK_HISTORY_H
#define TBK_HISTORY_H
#include "util.h"

/* tbk.h declares the handle and its open, begin, pages, commit, close and
 * free; here what the library's own programs use besides. */
struct tbk_model;

typedef struct tbk_history_options {
  int read_only;        /* read the counts, never add (0) */
  size_t commit_pages;  /* pages added per transaction (256) */
  const char *identity; /* borrowed: how fingerprints are made (the
                            model's segmentation); a store made another
                            way is refused (required) */
} tbk_history_options;

extern const tbk_history_options tbk_history_options_default;

/* Open (creating it unless read_only) the store at path. Errors:
 * TBK_ERR_IO (cannot open, locked past the timeout), TBK_ERR_MODEL (not a
 * tbk history store, another schema version or another identity: the
 * message names both), TBK_ERR_NOMEM. */
tbk_status tbk_history_open(const char *path, const tbk_history_options *o, tbk_history **out, tbk_error *err);

/* For each of n fingerprints (first 8 bytes of a block's or unit's MD5,
 * as tbk_history_fp gives), on how many of those other pages it occurs. */
tbk_status tbk_history_lookup(tbk_history *h, const uint64_t *fp, size_t n, uint32_t *df, tbk_error *err);
/* Count the current page with its n fingerprints (repeats count once);
 * nothing when read-only or when the page is already counted. */
tbk_status tbk_history_add(tbk_history *h, const uint64_t *fp, size_t n, tbk_error *err);

/* The same for a page's blocks (parsed with fingerprints): df[b] for
 * block b, and the page counted with its blocks. fp is scratch of
 * page->n_blocks entries. */
tbk_status tbk_history_page_df(tbk_history *h, const tbk_page *page, uint64_t *fp, uint32_t *df, tbk_error *err);
tbk_status tbk_history_add_page(tbk_history *h, const tbk_page *page, uint64_t *fp, tbk_error *err);

/* Totals of the store, for a summary: sites, pages and fingerprints
 * committed. */
tbk_status tbk_history_totals(tbk_history *h, uint64_t *sites, uint64_t *pages, uint64_t *fps, tbk_error *err);

/* What a model's block fingerprints depend on (its segmentation), as a
 * store records it: a store is shared by the models that segment alike. */
void tbk_history_identity(const struct tbk_model *m, char *out, size_t size);
/* The same for pages parsed with o (tbk-label's, which has no model): the
 * default segmentation's is the shipped model's, so the two share a store. */
void tbk_history_identity_of(const tbk_page_options *o, char *out, size_t size);

/* tbk_history_begin for a page named as the programs' inputs name it: its
 * key is url, else page; its site is site, but for files named one by one
 * (site "-") their directory, so that two sites' pages given together are
 * not counted as one site's. */
tbk_status tbk_history_begin_page(tbk_history *h, const char *site, const char *page, const char *url, tbk_error *err);

static inline uint64_t tbk_history_fp(const unsigned char md5[16]) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | md5[i];
  /* SQLite integers are signed: kept positive so that ordering by the
   * column is the order of the values */
  return v >> 1;
}

#endif
