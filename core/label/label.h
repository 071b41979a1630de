/* Labelling: blocks auto-labelled by their document frequency across a
 * site (the paper), and text aligned with a human gold. */
#ifndef TBK_LABEL_H
#define TBK_LABEL_H
#include "io.h"
#include "page_view.h"
#include "text.h"

typedef enum tbk_label { TBK_LABEL_IGNORED = 0, TBK_LABEL_TEMPLATE = 1, TBK_LABEL_CONTENT = -1 } tbk_label;

/* "template", "content" or "ignored", as the labels JSONL writes it. */
const char *tbk_label_name(tbk_label lab);

/* The bytes of text a label line shows (cut at a character boundary). */
#define TBK_LABEL_SNIPPET 80

/* One line of tbk-label's output, whichever method made it (the labeler,
 * tbk-label --method etdm, tbk_chunker): one writer keeps the fields'
 * order and spelling the same in all. A block's line has line and depth;
 * a chunk's (chunk >= 0) has method, chunk, block, key and words. Strings
 * are borrowed, with their lengths. */
typedef struct tbk_label_record {
  const char *site, *page, *url;
  size_t site_len, page_len, url_len;
  const char *trace; /* the page's WARC members (tbk_page_ref_trace), or NULL */
  size_t trace_len;
  const char *path, *tag;
  size_t path_len, tag_len;
  long chunk;               /* the chunk's index, -1 for a block */
  int block;                /* chunks only: the owner block, -1 when none */
  const unsigned char *md5; /* 16 bytes: the text's */
  const unsigned char *key; /* chunks only: 16 bytes */
  unsigned long long df, pages;
  tbk_label label;
  int clustered; /* write cluster_df and cluster_pages */
  unsigned cluster_df, cluster_pages;
  const char *reason;       /* why ignored, or NULL */
  unsigned long long chars; /* code points of the whole text */
  unsigned words;           /* chunks only */
  unsigned line, depth;     /* blocks only */
  const char *text;         /* cut to TBK_LABEL_SNIPPET bytes here */
  size_t text_len;
} tbk_label_record;

/* Append r's JSON line, newline included, to line. 0 ok, -1 out of memory. */
int tbk_label_record_write(tbk_buf *line, const tbk_label_record *r) TBK_MUST_CHECK;

/* The labeler's options, stats and lifetime are public (tbk.h); what the
 * programs add: pages named by their input reference. */
tbk_status tbk_labeler_add_page(tbk_labeler *l, const tbk_page_ref *ref, const tbk_page *page, tbk_error *err);
/* tbk_labeler_use_history (tbk.h): the page's site and key are
 * tbk_history_begin_page's; pages added with a cluster are refused
 * (TBK_ERR_ARG). */
/* Threshold df for "template" given the site's page count. */
size_t tbk_template_df(const tbk_label_options *o, size_t pages);

/* tbk-label --clusters: a page added with the index of its template cluster
 * (tbk-cluster's; any caller-chosen index below TBK_NO_CLUSTER, kept small:
 * the labeller holds a page count per index up to the largest). Its blocks
 * are template when their df among the site's pages of that cluster reaches
 * tbk_cluster_template_df of the cluster's page count within the site;
 * content still needs df 1 over the whole site (or crawl), so a text one
 * cluster holds once but another page repeats is no clean example. The
 * JSON lines of such a page add "cluster_df" and "cluster_pages". */
#define TBK_NO_CLUSTER UINT32_MAX
tbk_status tbk_labeler_add_clustered(tbk_labeler *l, const tbk_page_ref *ref, const tbk_page *page, uint32_t cluster,
                                     tbk_error *err);
/* The template threshold of a cluster of `pages` pages: tbk_template_df,
 * raised to min(min_pages, ceil(pages / 4)). */
size_t tbk_cluster_template_df(const tbk_label_options *o, size_t pages);

/* Align the word tokens of a page's units with a gold main-text, order-
 * aware, to label each unit content or boilerplate. The page's tokens (units
 * in the order given, each unit's tokens in text order) and the gold's
 * tokens (tbk_tokenize, case-folded; tokens compare as whole strings) are
 * aligned by a longest common subsequence; tokens[u] receives how many
 * tokens unit u has and matched[u] how many of them the alignment matched
 * (matched[u] <= tokens[u]; the sum of matched is the LCS length). Units are
 * byte ranges [start[u], end[u]) of text, in increasing order and not
 * overlapping (empty ranges are allowed and get 0 and 0); each unit is
 * tokenized on its own, so a range should not cut a word.
 *
 * Which LCS: among the alignments of maximal length, the one traced back
 * from the end, whose runs (matches consecutive in page, gold and unit) are
 * then moved, without changing length or order, to continue the run before
 * (or after) them in the gold wherever the page has the same words right
 * there. This keeps a gold ending "... the story" from taking "the story"
 * from a later "Related: the other story". A gold text that is not exactly the page's text can still leave
 * a few scattered matches of common words ("the", "a") in boilerplate
 * units; they are reported as they are: the caller judges a unit by its
 * share matched[u] / tokens[u], not by matched[u] > 0.
 *
 * Cost: time O(n * ceil(m/64) + occurrences), memory n * ceil(m/64) 64-bit
 * words, where n is the number of page tokens that occur in the gold and m
 * the number of gold tokens that occur in the page. When that table would
 * exceed 2^31 bits (256 MiB; e.g. 50k by 40k tokens still fits), the
 * alignment falls back to an order-free approximation: the gold is a
 * multiset, and the page's tokens, in page order, each take one remaining
 * gold copy of the same token while one is left. The fallback ignores
 * order, so boilerplate that repeats gold words early in the page is
 * credited with them and later content units lose them; its matched sum is
 * the multiset intersection, at least the LCS length.
 *
 * Empty gold: every matched[u] = 0. Errors: TBK_ERR_ARG (NULL tokenizer,
 * NULL array with nunits > 0, NULL text or gold with a length, a range
 * outside text, unordered or overlapping ranges), TBK_ERR_LIMIT (gold of
 * 4 GiB or more), TBK_ERR_NOMEM; on error matched[] is all zeros or
 * untouched (argument errors). */
tbk_status tbk_align_gold(tbk_tokenizer *t, const char *text, size_t text_len, const uint32_t *start,
                          const uint32_t *end, size_t nunits, const char *gold, size_t gold_len, uint32_t *tokens,
                          uint32_t *matched, tbk_error *err);
/* ----- labels read back (tbk-features --labels) */

/* The labels a labelling run wrote (tbk-label's JSON Lines, or --gold's),
 * keyed by (page, path), each with the md5 of the text it was given for so
 * that a page changed since labelling is noticed. */
typedef struct tbk_label_set tbk_label_set;

/* Read JSON Lines from path ("-" = stdin). A line needs "page", "path",
 * "md5" (32 lowercase hex digits) and "label": "template" or "boilerplate"
 * (+1), "content" (-1), or the number 1 or -1; "ignored" and 0 are left out
 * silently. A broken line, a line over TBK_LABEL_LINE_MAX bytes and any
 * other label value go to warn, with "PATH:LINE" as the file and a message
 * ending in "(skipped)", and are counted in *bad_lines. When a (page, path)
 * comes twice with the same label the first line wins; with conflicting
 * labels (or fingerprints) the block gets none, and each later line is
 * warned about and counted. Errors: TBK_ERR_IO (cannot open or read),
 * TBK_ERR_FORMAT (empty file), TBK_ERR_NOMEM. */
#define TBK_LABEL_LINE_MAX ((size_t)16 << 20)
tbk_status tbk_label_set_read(const char *path, tbk_warn_fn warn, void *warn_ctx, tbk_label_set **out,
                              size_t *bad_lines, tbk_error *err);
void tbk_label_set_free(tbk_label_set *s);
/* Whether any block of page is labelled (pages without labels need not be
 * read at all). */
int tbk_label_set_has_page(const tbk_label_set *s, const char *page);
/* The number of distinct pages labelled, *first the first of them in file
 * order (NULL when none). */
size_t tbk_label_set_pages(const tbk_label_set *s, const char **first);
/* Note that page was read: its labelled blocks that match no block are
 * then missing (tbk_label_set_unmatched), not merely unread. */
void tbk_label_set_page_read(tbk_label_set *s, const char *page);

typedef enum tbk_label_match {
  TBK_MATCH_NONE = 0,   /* no label for this block (or a duplicate line's) */
  TBK_MATCH_OK = 1,     /* *label is +1 or -1 */
  TBK_MATCH_CHANGED = 2 /* labelled, but for another text: *labelled_md5 */
} tbk_label_match;
/* The label of the block (or unit) at path of page, whose text has the md5
 * md5_hex; the label counts as used either way. */
tbk_label_match tbk_label_set_match(tbk_label_set *s, const char *page, const char *path, const char *md5_hex,
                                    int *label, const char **labelled_md5);
/* After every page: the labels no block used. Those of pages that were
 * read go to warn ("LABELS:LINE" as file, "labelled block PATH of PAGE not
 * found on that page (skipped)"), in file order, and are returned; *unread
 * gets the number of the others (pages not among the inputs). */
size_t tbk_label_set_unmatched(const tbk_label_set *s, tbk_warn_fn warn, void *warn_ctx, size_t *unread);
#endif
