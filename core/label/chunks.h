/* The second labeller: table text chunks (Ma, Goharian & Chowdhury 2003,
 * "Automatic data extraction from template generated web pages").
 *
 * A page's visible text is cut into chunks at every start and end of a
 * table-structure element (table tr td th thead tbody tfoot caption, or the
 * tags chosen); a chunk's key is the MD5 of its normalized text (optionally
 * with its tag path), and a key found on at least a threshold of a site's
 * pages (each page counted once) is template. */
#ifndef TBK_CHUNKS_H
#define TBK_CHUNKS_H
#include "io.h"
#include "label.h"
#include "page_view.h"

typedef enum tbk_chunk_key {
  TBK_CHUNK_KEY_TEXT = 0,     /* the paper's key: the chunk's text */
  TBK_CHUNK_KEY_TEXT_PATH = 1 /* text and tag path (tag names, no sibling
                                 numbers), the paper's suggested fix for a
                                 template chunk repeated on one page */
} tbk_chunk_key;

typedef struct tbk_chunk_options {
  unsigned char delim[TBK_TAG_COUNT]; /* 1: the tag closes a chunk */
  size_t df;                          /* template if df >= this; 0: from df_frac and min_df */
  double df_frac;                     /* template if df >= ceil(df_frac x pages) ... (0.10) */
  size_t min_df;                      /* ... and df >= min_df (3) */
  tbk_chunk_key key;
  int emit_ignored; /* also emit chunks neither template nor content */
  int keep_text;    /* keep each chunk's whole text for the page callback
                       (strip, evaluation), not only an 80-byte snippet */
} tbk_chunk_options;

#define TBK_CHUNK_TAGS_DEFAULT "table,tr,td,th,thead,tbody,tfoot,caption"
void tbk_chunk_options_init(tbk_chunk_options *o);
/* Set the delimiters from a comma-separated list of tag names (case-
 * insensitive; spaces allowed). Errors: TBK_ERR_ARG (an empty list, a tag
 * tbk does not know by name; the message names it). */
tbk_status tbk_chunk_tags_parse(tbk_chunk_options *o, const char *list, tbk_error *err);
/* The delimiters as a list, in tag-table order, into out (appended). */
int tbk_chunk_tags_format(const tbk_chunk_options *o, tbk_buf *out);
/* The df a key needs on a site of `pages` pages to be template. */
size_t tbk_chunk_threshold(const tbk_chunk_options *o, size_t pages);

/* One chunk of a page as the walk finds it. */
typedef struct tbk_chunk_span {
  uint32_t start, end; /* trimmed, non-empty byte range of the page text */
  uint32_t owner;      /* innermost delimiter element open around it, or the
                          root element when none is */
  const char *path;    /* locator of owner (/html[1]/body[1]/table[2]/...),
                          NUL-terminated, borrowed for the call */
  const char *tpath;   /* the same without sibling numbers (html/body/table) */
  size_t path_len, tpath_len;
  int32_t block; /* candidate block whose text is exactly this chunk
                          (its path then replaces path), else -1 */
} tbk_chunk_span;
/* Return non-zero to stop the walk (tbk_page_chunks then returns it). */
typedef int (*tbk_chunk_span_fn)(void *ctx, const tbk_chunk_span *s);
/* Every chunk of the page, in document order: one pass over the node
 * table. Returns 0, -1 when out of memory, or fn's non-zero value. */
int tbk_page_chunks(const tbk_page *p, const tbk_chunk_options *o, tbk_chunk_span_fn fn, void *ctx);

/* A chunk as pass 2 sees it. */
typedef struct tbk_chunk {
  const char *text; /* the whole text with keep_text, else <= 80 bytes */
  size_t text_len;
  const char *path, *tag;
  const char *tpath;         /* the owner's tag path without sibling numbers */
  unsigned char md5[16];     /* MD5 of the text */
  unsigned char key[16];     /* the document-frequency key (md5 for --key text) */
  uint32_t df, chars, words; /* words: space-separated terms */
  uint32_t start;            /* byte offset in the page text */
  int block;                 /* exactly a candidate block: path and md5 are the
                         block's, so tbk-features can train on the label */
  int dup;                   /* its key occurs again on the same page */
  tbk_label label;
  const char *reason; /* why ignored, else NULL */
} tbk_chunk;
typedef struct tbk_chunk_page {
  const char *page, *url;
  const char *trace;       /* the WARC record's JSON members (tbk_page_ref_trace) */
  size_t trace_len;        /* 0: not from a WARC */
  size_t index;            /* 0-based, in the order pages were added */
  const tbk_chunk *chunks; /* in document order */
  size_t n;
  uint64_t chars, words; /* the whole page's visible text */
} tbk_chunk_page;
typedef int (*tbk_chunk_page_fn)(void *ctx, const tbk_chunk_page *p);

typedef struct tbk_chunk_stats {
  size_t pages, chunks, keys; /* chunk occurrences, distinct keys */
  size_t threshold;
  size_t template_keys;                /* distinct keys with df >= threshold */
  size_t templates, contents, ignored; /* occurrences by label */
  uint64_t words, template_words;      /* all words; words in template chunks */
  uint64_t template_key_words;         /* words of the distinct template keys */
  double atf;                          /* the paper's average template fraction: words of the
                  distinct template keys / mean words per page */
  double template_share;               /* template words / all words (occurrences) */
} tbk_chunk_stats;

typedef struct tbk_chunker tbk_chunker;
tbk_status tbk_chunker_new(const char *site, const tbk_chunk_options *o, tbk_chunker **out, tbk_error *err);
void tbk_chunker_free(tbk_chunker *c);
/* Pass 1: count the page's keys (once per page) and spill its chunks to a
 * temporary file, so memory holds only the site's distinct keys. */
tbk_status tbk_chunker_add_page(tbk_chunker *c, const tbk_page_ref *ref, const tbk_page *page, tbk_error *err);
/* Set the threshold to df (0: from df_frac and min_df) before a (further)
 * pass 2: the counts of pass 1 do not depend on it, so a threshold curve
 * needs one pass 1. */
void tbk_chunker_set_df(tbk_chunker *c, size_t df);
/* Pass 2: label every chunk, page by page in the order added: template
 * (df >= threshold), content (df 1, once on its page), else ignored. Each
 * labelled chunk (and with emit_ignored every chunk) goes to write as a
 * JSON line (write may be NULL); every page goes to page_fn (may be NULL).
 * It may be called again (another threshold: tbk_chunker_set_df).
 * Errors: TBK_ERR_IO (the temporary file, or write failed), TBK_ERR_NOMEM,
 * TBK_ERR_ARG (page_fn returned non-zero: "stopped"). */
tbk_status tbk_chunker_finish(tbk_chunker *c, tbk_write_fn write, void *wctx, tbk_chunk_page_fn page_fn, void *pctx,
                              tbk_chunk_stats *stats, tbk_error *err);
/* The paper's second pass for one page: the text of every chunk not
 * labelled template, one chunk a line, into out (appended; needs keep_text).
 * Returns 0, -1 when out of memory. */
int tbk_chunk_page_strip(const tbk_chunk_page *p, tbk_buf *out);
#endif
