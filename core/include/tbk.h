/*
 * tbk.h — template-block kit: site-independent template-block detection.
 *
 * OWNERSHIP RULE (the one rule for the whole API):
 *   - An object returned through an out-parameter of a *_new, *_open, *_parse,
 *     *_load or *_train function is owned by the caller and released with the
 *     matching *_free (every *_free accepts NULL).
 *   - Every pointer returned by any other function, or found in a struct the
 *     library filled, is BORROWED: it stays valid until the object it came
 *     from is freed (or, for iterators, until the next call on that iterator).
 *   - Strings and buffers passed in are copied when the library keeps them;
 *     the caller may free them as soon as the call returns.
 *
 * The library never prints and never exits. Every fallible call returns a
 * tbk_status and, when given a non-NULL tbk_error, fills a one-line message
 * that does not repeat the file name (the caller knows it and prefixes it).
 * All text inside tbk is UTF-8.
 */
#ifndef TBK_H
#define TBK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "tbk_version.h"

/* The version of the library the program runs with ("0.1.0"), which may
 * differ from TBK_VERSION, the version of the headers it was compiled with. */
const char *tbk_version(void);

/* ------------------------------------------------------------------ status */

typedef enum tbk_status {
  TBK_OK = 0,
  TBK_ERR_IO,      /* cannot open/read/write a file */
  TBK_ERR_NOMEM,   /* allocation failed */
  TBK_ERR_EMPTY,   /* nothing to work on: empty page, no pages, no text */
  TBK_ERR_BINARY,  /* input is not HTML/text (binary magic, NUL-heavy) */
  TBK_ERR_FORMAT,  /* malformed input: bad WARC, bad TSV, bad JSON, bad gzip */
  TBK_ERR_LIMIT,   /* a configured resource limit was exceeded */
  TBK_ERR_MODEL,   /* model file corrupt, truncated or of another version */
  TBK_ERR_SCHEMA,  /* data or model built on another feature schema */
  TBK_ERR_ARG      /* invalid argument or option value */
} tbk_status;

typedef struct tbk_error {
  tbk_status code;
  char msg[512]; /* one line, no trailing newline, no file name */
} tbk_error;

/* Human-readable name of a status ("I/O error", "limit exceeded", ...). */
const char *tbk_status_str(tbk_status s);

/* --------------------------------------------------------- growable buffer */

/* A growable byte buffer. data is owned by the buffer (free with
 * tbk_buf_free); it is always NUL-terminated when len > 0 or after any
 * append, so it can be used as a C string. */
typedef struct tbk_buf {
  char *data;
  size_t len;
  size_t cap;
} tbk_buf;

void tbk_buf_free(tbk_buf *b);
int tbk_buf_reserve(tbk_buf *b, size_t extra); /* 0 ok, -1 nomem */
int tbk_buf_append(tbk_buf *b, const void *p, size_t n);
int tbk_buf_puts(tbk_buf *b, const char *s);
int tbk_buf_printf(tbk_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append s as a JSON string literal (with quotes), escaping as RFC 8259
 * requires; invalid UTF-8 is replaced by U+FFFD. */
int tbk_buf_json_str(tbk_buf *b, const char *s, size_t n);

/* Read a whole file ("-" = stdin) into a new buffer, failing with
 * TBK_ERR_LIMIT when it is larger than max_bytes (0 = no limit). */
tbk_status tbk_read_file(const char *path, size_t max_bytes, tbk_buf *out,
                         tbk_error *err);

/* ------------------------------------------------------------------- text */

/* Collapse runs of Unicode/ASCII whitespace to one space and trim. Writes
 * into out (appended). Returns 0, or -1 on allocation failure. */
int tbk_text_normalize(const char *s, size_t n, tbk_buf *out);

/* Number of code points in valid UTF-8 (invalid bytes count one each). */
size_t tbk_utf8_length(const char *s, size_t n);

/* 1 if s[0..n) is valid UTF-8 (no overlongs, no surrogates), else 0. */
int tbk_utf8_valid(const char *s, size_t n);

/* Unicode word tokenizer (PCRE2, UTF+UCP, JIT). A token is a run of letters,
 * marks, digits and connector punctuation, except that every Han, Hiragana
 * and Katakana code point is a token of its own (scripts written without
 * spaces; Hangul is written with spaces and stays whole); numbers keep inner
 * '.' and ',' ("3.14", "1,000"). Tokens are lowercased code point by code
 * point (simple Unicode lowercase, no NFC normalization, so a precomposed
 * and a decomposed "é" differ). */
typedef struct tbk_tokenizer tbk_tokenizer;
tbk_status tbk_tokenizer_new(tbk_tokenizer **out, tbk_error *err);
void tbk_tokenizer_free(tbk_tokenizer *t);
/* Called once per token with the folded token (NUL-terminated, borrowed for
 * the call only). Return non-zero to stop early. */
typedef int (*tbk_token_fn)(void *ctx, const char *tok, size_t len);
/* Returns the number of tokens visited. */
size_t tbk_tokenize(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn,
                    void *ctx);
/* Number of distinct folded tokens, counting stops once `stop_at` is reached
 * (0 = count all). */
size_t tbk_unique_words(tbk_tokenizer *t, const char *s, size_t n,
                        size_t stop_at);

/* MD5 (through OpenSSL EVP) of n bytes; hex is 32 chars + NUL. */
void tbk_md5(const void *data, size_t n, unsigned char out[16]);
void tbk_md5_hex(const unsigned char md5[16], char hex[33]);

/* ------------------------------------------------------ page and blocks */

typedef enum tbk_blockset {
  TBK_BLOCKS_PAPER = 0, /* Kołcz & Yih: blockquote dd div dl dt h1-h6 li ol
                           pre small table td th tr ul */
  TBK_BLOCKS_HTML5 = 1  /* paper set + article aside footer header main nav
                           section form p figure details fieldset address */
} tbk_blockset;

typedef struct tbk_page_options {
  tbk_blockset blocks;      /* default TBK_BLOCKS_PAPER */
  size_t min_chars;         /* candidate needs >= this many code points (40) */
  size_t min_words;         /* ... and >= this many unique words (3) */
  size_t max_page_bytes;    /* larger raw pages are refused (64 MiB) */
  size_t max_depth;         /* deeper nesting: page refused (4096) */
  size_t max_blocks;        /* more candidates on one page: refused (100000) */
  size_t max_nodes;         /* more elements on one page: refused (2000000) */
  const char *charset_hint; /* e.g. from HTTP Content-Type; NULL = none */
  int fingerprints;         /* compute each block's md5 (1); prediction,
                               which never needs them, sets 0 */
} tbk_page_options;

void tbk_page_options_init(tbk_page_options *o);

/* One candidate block of a page. All pointers are borrowed from the page. */
typedef struct tbk_block {
  const char *text;      /* normalized text, NOT NUL-terminated: use text_len */
  size_t text_len;       /* bytes */
  size_t text_chars;     /* code points */
  const char *path;      /* locator: /html[1]/body[1]/div[2]/ul[1] */
  const char *tag;       /* lower-case tag name */
  unsigned char md5[16]; /* MD5 of text (zeros when !fingerprints) */
  int32_t parent;        /* index of the nearest enclosing candidate, or -1 */
  uint32_t node;         /* index of its element in the page's node table */
  uint32_t line;         /* source line of the start tag (1-based) */
  uint32_t depth;        /* element depth, <html> = 1 */
} tbk_block;

typedef struct tbk_page tbk_page;

/* Parse raw page bytes (any charset: BOM, options->charset_hint, <meta>,
 * then UTF-8, then windows-1252) and segment it into candidate blocks.
 * Blocks come in document order; a block whose text equals that of its
 * nearest enclosing candidate is folded into the enclosing one (a wrapper
 * adds no block of its own). Errors: TBK_ERR_EMPTY (no bytes / only
 * whitespace), TBK_ERR_BINARY, TBK_ERR_LIMIT, TBK_ERR_NOMEM. */
tbk_status tbk_page_parse(const char *data, size_t len,
                          const tbk_page_options *opt, tbk_page **out,
                          tbk_error *err);
void tbk_page_free(tbk_page *p);

size_t tbk_page_block_count(const tbk_page *p);
const tbk_block *tbk_page_block(const tbk_page *p, size_t i);
/* Charset the page was decoded from (e.g. "UTF-8", "windows-1252"). */
const char *tbk_page_charset(const tbk_page *p);
/* Count of libxml2 parse errors (recovered). */
size_t tbk_page_parse_errors(const tbk_page *p);
/* Repairs made to markup after which libxml2 lost the page's text (an
 * unclosed <title>, <script>, <noscript>…, a broken comment); 0 when the
 * page is as parsed. README.md "Inputs" lists the shapes. */
int tbk_page_recovered(const tbk_page *p);
/* The page's whole visible text, normalized (borrowed). */
const char *tbk_page_text(const tbk_page *p, size_t *len);

/* ------------------------------------------------------------------ input */

/* A page to process, from any input form. Strings are owned by the list. */
typedef struct tbk_page_ref {
  char *site;         /* site key (grouping for auto-labelling) */
  char *page;         /* page id: path (dir/manifest) or URL (WARC) */
  char *url;          /* URL when known, else "" */
  char *file;         /* file to read: the page itself, or the WARC file */
  char *gold;         /* gold text path when known (manifest), else "" */
  char *charset;      /* charset from HTTP headers (WARC), else NULL */
  uint64_t offset;    /* WARC: offset of the record's gzip member / record */
  uint64_t skip;      /* WARC: uncompressed bytes to skip after offset */
  int is_warc;
  int is_temp;        /* file is a temporary copy of stdin, removed by
                         tbk_page_list_free */
} tbk_page_ref;

typedef enum tbk_site_key {
  TBK_SITE_DOMAIN = 0, /* registered domain (public-suffix list) */
  TBK_SITE_HOST = 1    /* full host name, leading "www." removed */
} tbk_site_key;

typedef struct tbk_input_options {
  tbk_site_key site_key;      /* WARC only */
  size_t max_record_bytes;    /* decompressed WARC record limit (64 MiB) */
  int single_site;            /* plain files given: all one site ("-") */
} tbk_input_options;

void tbk_input_options_init(tbk_input_options *o);

typedef struct tbk_page_list {
  tbk_page_ref *refs; /* owned */
  size_t n, cap;
  size_t skipped;     /* entries that could not be listed (reported) */
} tbk_page_list;

/* Called for each input problem that is skipped rather than fatal (a
 * manifest row naming a missing file, a truncated WARC tail...). */
typedef void (*tbk_warn_fn)(void *ctx, const char *file, const char *msg);

/* Add the pages of one input: a directory (ROOT/<site>/... *.html; files
 * directly in ROOT are site "-"), a manifest (*.tsv with header
 * "site page url ..."), a WARC file (*.warc, *.warc.gz), or a single page
 * file ("-" = stdin, which is read into a temporary file). */
tbk_status tbk_page_list_add(tbk_page_list *l, const char *input,
                             const tbk_input_options *opt, tbk_warn_fn warn,
                             void *warn_ctx, tbk_error *err);
/* Sort by (site, page, file, offset) so output never depends on directory
 * or archive order. */
void tbk_page_list_sort(tbk_page_list *l);
void tbk_page_list_free(tbk_page_list *l);

/* Read the raw bytes of one page into out (out->len is reset first): the
 * file, or for WARC the record's HTTP body, de-chunked and gzip/deflate
 * decoded. The HTTP charset, when known, is ref->charset. More than
 * opt->max_record_bytes (NULL opt: defaults): TBK_ERR_LIMIT. */
tbk_status tbk_page_ref_read(const tbk_page_ref *ref,
                             const tbk_input_options *opt, tbk_buf *out,
                             tbk_error *err);

/* Site key of a URL's host under the given policy (new string, caller frees),
 * or NULL when the URL has no host. */
char *tbk_site_of_url(const char *url, tbk_site_key key);

/* -------------------------------------------------------------- labelling */

typedef enum tbk_label {
  TBK_LABEL_IGNORED = 0,
  TBK_LABEL_TEMPLATE = 1,
  TBK_LABEL_CONTENT = -1
} tbk_label;

typedef struct tbk_label_options {
  double template_share;  /* df >= ceil(share * pages) ... (0.10) */
  size_t template_min_df; /* ... and df >= this (3) */
  size_t min_pages;       /* skip sites with fewer pages (10) */
  int emit_ignored;       /* also emit ignored blocks, with a reason */
} tbk_label_options;

void tbk_label_options_init(tbk_label_options *o);

/* Per-site summary. */
typedef struct tbk_site_stats {
  size_t pages;       /* pages labelled */
  size_t bad_pages;   /* pages skipped as unreadable/unparsable */
  size_t candidates;  /* candidate blocks */
  size_t templates, contents, ignored;
  double template_text_share; /* chars in outermost template blocks / all
                                 visible chars of the site's pages */
} tbk_site_stats;

/* Labels one site's pages. Feed every page with tbk_labeler_add_page (pass
 * 1: fingerprints and document frequencies; blocks are spilled to a
 * temporary file so memory is bounded by the site's distinct fingerprints),
 * then tbk_labeler_finish appends the JSON Lines of every labelled block, in
 * page order, to out. */
typedef struct tbk_labeler tbk_labeler;
tbk_status tbk_labeler_new(const char *site, const tbk_label_options *lopt,
                           tbk_labeler **out, tbk_error *err);
void tbk_labeler_free(tbk_labeler *l);
tbk_status tbk_labeler_add_page(tbk_labeler *l, const tbk_page_ref *ref,
                                const tbk_page *page, tbk_error *err);
/* Threshold df for "template" given the site's page count. */
size_t tbk_template_df(const tbk_label_options *o, size_t pages);
/* Writes the labelled blocks as JSON Lines to out (through write callback
 * so the caller controls the stream). */
typedef int (*tbk_write_fn)(void *ctx, const char *data, size_t n);
tbk_status tbk_labeler_finish(tbk_labeler *l, tbk_write_fn write, void *wctx,
                              tbk_site_stats *stats, tbk_error *err);

/* ============================================================ features */
/* (section owned by the features module; see core/features.c) */

/* Feature extraction for the blocks of one page (stage 2). Training and
 * prediction both call this, so they can never disagree about a vector.
 * Every feature has a schema name and kind; the schema id hashes all names,
 * kinds and options, and models record it so data from another schema is
 * refused (TBK_ERR_SCHEMA). */
typedef struct tbk_feature_options {
  uint32_t attr_dims; /* hashed class/id/role token features, per scope
                         (self, ancestors) (default 128; 0 = none) */
  uint32_t word_dims; /* hashed word indices for the Naive-Bayes words
                         (default 1<<18) */
  int bigrams;        /* also hash word bigrams (default 0) */
} tbk_feature_options;

void tbk_feature_options_init(tbk_feature_options *o);

/* Opaque extractor: the schema plus per-page scratch; one per thread. */
typedef struct tbk_features tbk_features;
/* Errors: TBK_ERR_ARG (word_dims 0, dims too large), TBK_ERR_NOMEM. */
tbk_status tbk_features_new(const tbk_feature_options *o, tbk_features **out,
                            tbk_error *err);
void tbk_features_free(tbk_features *fx);
/* Number of dense features (= schema size). */
size_t tbk_features_dim(const tbk_features *fx);
/* Schema name and kind of dense feature i (0-based; NULL when out of range).
 * Kinds: "count", "ratio", "real", "binary", "position". */
const char *tbk_features_name(const tbk_features *fx, size_t i);
const char *tbk_features_kind(const tbk_features *fx, size_t i);
/* "tbk-features-1:<16 hex>" — a hash of all names, kinds and options. */
const char *tbk_features_schema_id(const tbk_features *fx);
/* The options the extractor was built with. */
const tbk_feature_options *tbk_features_options(const tbk_features *fx);

/* Compute the vectors of all blocks of a page at once (page-relative
 * features need the whole page). Replaces the previous page's results. */
tbk_status tbk_features_page(tbk_features *fx, const tbk_page *page,
                             tbk_error *err);
/* Number of blocks of the last page computed. */
size_t tbk_features_blocks(const tbk_features *fx);
/* Block i's dense vector: tbk_features_dim doubles, borrowed until the next
 * tbk_features_page call (NULL when out of range). */
const double *tbk_features_values(const tbk_features *fx, size_t block);
/* Block i's hashed words: n pairs (index in [1, word_dims], count), by
 * ascending index, borrowed like the values. */
size_t tbk_features_words(const tbk_features *fx, size_t block,
                          const uint32_t **idx, const uint32_t **cnt);
/* Append block i as a LIBLINEAR/svmlight line "LABEL idx:val ..." (1-based
 * ascending indices, zeros omitted, C-locale %.9g) and "\n"; words=1 appends
 * the words line "LABEL idx:count ..." instead. 0 ok, -1 nomem/bad block. */
int tbk_features_format(const tbk_features *fx, size_t block, int label,
                        int words, tbk_buf *out);

/* A small reader for the flat JSON objects of JSON Lines files (tbk-label's
 * labels, tbk-features' meta sidecar): one object per line; top-level
 * string, number, boolean and null members are kept, nested arrays and
 * objects are validated and skipped. Never recursive, never crashes on
 * junk: a broken line is TBK_ERR_FORMAT ("invalid JSON at byte N") and the
 * caller warns with the line number and skips it. */
typedef struct tbk_jsonl_obj tbk_jsonl_obj;
/* Parse one line (a JSON object; surrounding whitespace allowed). */
tbk_status tbk_jsonl_parse(const char *s, size_t n, tbk_jsonl_obj **out,
                           tbk_error *err);
void tbk_jsonl_free(tbk_jsonl_obj *o);
/* Value of a string member (decoded UTF-8, borrowed), NULL when absent or
 * not a string. With duplicate keys the first one wins. */
const char *tbk_jsonl_str(const tbk_jsonl_obj *o, const char *key);
/* Value of a number member, or dflt when absent or not a number. */
double tbk_jsonl_num(const tbk_jsonl_obj *o, const char *key, double dflt);
/* 1 when the member exists (any type). */
int tbk_jsonl_has(const tbk_jsonl_obj *o, const char *key);

/* ============================================================ model */

/* Training data: one row per labelled block, its dense feature vector (of
 * the schema's dimension), its hashed words and its site (for cross-site
 * folds). */
typedef struct tbk_dataset tbk_dataset;
tbk_status tbk_dataset_new(const char *schema_id, uint32_t dim,
                           uint32_t word_dims, tbk_dataset **out,
                           tbk_error *err);
void tbk_dataset_free(tbk_dataset *ds);
/* Add a row; label is +1 (template) or -1 (content). Copies everything. */
tbk_status tbk_dataset_add(tbk_dataset *ds, const char *site, int label,
                           const double *values, const uint32_t *widx,
                           const uint32_t *wcnt, size_t nwords,
                           tbk_error *err);
/* Read what tbk-features wrote: the features file, the aligned words file
 * and the aligned meta JSON Lines file (whose first line names the
 * schema). Files of another schema are TBK_ERR_SCHEMA. warn receives
 * skipped malformed lines (file, "line N: reason"). */
tbk_status tbk_dataset_read(tbk_dataset *ds, const char *features,
                            const char *words, const char *meta,
                            tbk_warn_fn warn, void *warn_ctx, tbk_error *err);
size_t tbk_dataset_rows(const tbk_dataset *ds);
size_t tbk_dataset_sites(const tbk_dataset *ds);
const char *tbk_dataset_schema(const tbk_dataset *ds);

typedef enum tbk_encoding {
  TBK_ENC_MDL = 0,  /* Fayyad-Irani MDL intervals as binary indicators */
  TBK_ENC_RAW = 1,  /* log-compressed, min-max scaled numbers */
  TBK_ENC_BOTH = 2  /* both of the above */
} tbk_encoding;

/* Which parts of the model to use (the paper's ablation). */
typedef enum tbk_parts {
  TBK_PARTS_ALL = 0,     /* NB text score + all other features */
  TBK_PARTS_TEXT = 1,    /* NB text score only */
  TBK_PARTS_NONTEXT = 2  /* other features only, no NB */
} tbk_parts;

typedef struct tbk_train_options {
  tbk_encoding encoding; /* TBK_ENC_BOTH */
  tbk_parts parts;       /* TBK_PARTS_ALL */
  double C;              /* LIBLINEAR C (1.0) */
  int auto_C;            /* choose C in {0.03,0.1,0.3,1,3} by cross-site CV */
  double weight_pos;     /* class weight of template (1.0) */
  double weight_neg;     /* class weight of content (1.0) */
  double nb_alpha;       /* NB additive smoothing (1.0) */
  unsigned nb_folds;     /* out-of-fold NB scores, folds by site (5) */
  unsigned cv_folds;     /* cross-site CV for operating points (5; 0 = none) */
  int dedup;             /* drop duplicate training rows (1) */
  int balance;           /* weight classes to equal total weight (1) */
  size_t max_site_rows;  /* cap rows per site, 0 = none (3000) */
} tbk_train_options;
void tbk_train_options_init(tbk_train_options *o);

typedef struct tbk_model tbk_model;

/* Operating point: the probability threshold reaching a template precision
 * in cross-site CV on the training data, and the recall there. */
typedef struct tbk_operating_point {
  double precision, threshold, recall;
} tbk_operating_point;

/* Progress callback for long training runs (may be NULL). */
typedef void (*tbk_progress_fn)(void *ctx, const char *what);

/* Fit the model on all rows. The segmentation and feature options are
 * those the dataset's meta header recorded. */
tbk_status tbk_train(const tbk_dataset *ds, const tbk_train_options *opt,
                     tbk_progress_fn progress, void *progress_ctx,
                     tbk_model **out, tbk_error *err);

/* Cross-site k-fold cross-validation: the whole training procedure is
 * refitted without the held-out sites. *scores_out (malloc'd, caller
 * frees) receives one out-of-fold template probability per dataset row;
 * rows of sites never held out (k > sites) get NaN. */
tbk_status tbk_crossval(const tbk_dataset *ds, const tbk_train_options *opt,
                        unsigned k, tbk_progress_fn progress,
                        void *progress_ctx, double **scores_out,
                        tbk_error *err);
/* Label (+1/-1) and site index of a dataset row, for evaluation. */
int tbk_dataset_label(const tbk_dataset *ds, size_t row);
const char *tbk_dataset_site(const tbk_dataset *ds, size_t row);

/* Model files are plain text (diffable), versioned, and end with an MD5
 * checksum line, so truncation or corruption is always detected. */
tbk_status tbk_model_write(const tbk_model *m, tbk_buf *out, tbk_error *err);
tbk_status tbk_model_load(const char *path, tbk_model **out, tbk_error *err);
tbk_status tbk_model_parse(const char *text, size_t len, tbk_model **out,
                           tbk_error *err);
void tbk_model_free(tbk_model *m);
const char *tbk_model_schema(const tbk_model *m);
/* Segmentation and feature options the model was trained with; prediction
 * must use them. */
void tbk_model_page_options(const tbk_model *m, tbk_page_options *o);
void tbk_model_feature_options(const tbk_model *m, tbk_feature_options *o);
size_t tbk_model_operating_points(const tbk_model *m,
                                  const tbk_operating_point **ops);
/* Threshold for a precision target (the stored point with the smallest
 * precision >= target), or NaN when none is stored. */
double tbk_model_threshold_for(const tbk_model *m, double precision);
/* Default decision threshold: 0.5 (even odds under the class-balanced
 * training). */
double tbk_model_default_threshold(const tbk_model *m);

/* Prediction: a model plus a feature extractor and scratch space. One per
 * thread. */
typedef struct tbk_predictor tbk_predictor;
tbk_status tbk_predictor_new(const tbk_model *m, tbk_predictor **out,
                             tbk_error *err);
void tbk_predictor_free(tbk_predictor *pr);
/* Template probability of every block of the page (borrowed, n blocks,
 * valid until the next call). The page must have been parsed with the
 * model's page options. */
tbk_status tbk_predict_page(tbk_predictor *pr, const tbk_page *page,
                            const double **probs, tbk_error *err);

/* Renderings of a scored page. A visible text run takes the decision of
 * its innermost block; text in no block counts as content. */
typedef struct tbk_page_summary {
  size_t blocks, template_blocks;
  size_t chars, template_chars; /* visible text, and the part removed */
} tbk_page_summary;
tbk_status tbk_render_text(const tbk_page *page, const double *probs,
                           double threshold, tbk_buf *out,
                           tbk_page_summary *summary);
/* annotate = 0: template blocks removed; 1: every block gets
 * data-tbk-template="P" and nothing is removed. The page's DOM is
 * modified. */
tbk_status tbk_render_html(tbk_page *page, const double *probs,
                           double threshold, int annotate, tbk_buf *out);
/* One JSON line per block: page, path, tag, probability, decision, text. */
tbk_status tbk_render_jsonl(const tbk_page *page, const char *page_id,
                            const double *probs, double threshold,
                            tbk_buf *out);

/* ========================================================= content stage */
/* (section owned by the content stage; see core/units.c, core/content.c) */

/* The template stage removes what recurs across a site; the content stage
 * decides, for every leaf text unit of the page, whether it is the page's
 * main content. A unit is a run of consecutive text nodes that share their
 * line element (the nearest ancestor that starts a visual line: p, li, td,
 * div, h1...); every visible text run belongs to exactly one unit. */
typedef struct tbk_units tbk_units;

/* One unit of the last page computed. Pointers are borrowed from the page
 * (text) and the extractor (path) until the next tbk_units_page. */
typedef struct tbk_unit {
  const char *text;      /* normalized text, NOT NUL-terminated */
  size_t text_len;       /* bytes */
  size_t text_chars;     /* code points */
  const char *path;      /* line element's locator + "#k" (k-th unit of it) */
  const char *tag;       /* line element's tag name */
  unsigned char md5[16]; /* MD5 of text (zeros when fingerprints are off) */
  uint32_t start, end;   /* byte range in tbk_page_text */
  uint32_t words;        /* tokens */
} tbk_unit;

/* The extractor: schema, class/id tokenizer and per-page scratch; one per
 * thread. Uses o->attr_dims and o->word_dims (bigrams are not supported);
 * o = NULL: the units' defaults, TBK_UNITS_WORD_DIMS word buckets and
 * TBK_UNITS_ATTR_DIMS hashed class/id buckets per scope (measured as
 * accurate as 2^18 and 128, EVALUATION.md, for a smaller, faster model). */
#define TBK_UNITS_ATTR_DIMS 32
#define TBK_UNITS_WORD_DIMS 16384
tbk_status tbk_units_new(const tbk_feature_options *o, tbk_units **out,
                         tbk_error *err);
void tbk_units_free(tbk_units *ux);
size_t tbk_units_dim(const tbk_units *ux);
const char *tbk_units_name(const tbk_units *ux, size_t i);
const char *tbk_units_kind(const tbk_units *ux, size_t i);
/* "tbk-units-1:<16 hex>" — a hash of all names, kinds and options. */
const char *tbk_units_schema_id(const tbk_units *ux);
/* Compute unit MD5s (default 1); prediction turns them off. */
void tbk_units_set_fingerprints(tbk_units *ux, int on);
/* Cut the page into units and compute every unit's vector. block_p holds
 * the template probability of each candidate block of the page (from
 * tbk_predict_page), or NULL when there is no template stage (its
 * features are then 0). Replaces the previous page's results. */
tbk_status tbk_units_page(tbk_units *ux, const tbk_page *page,
                          const double *block_p, tbk_error *err);
size_t tbk_units_count(const tbk_units *ux);
/* Unit i of the last page (which must be `page`); 0 ok, -1 out of range. */
int tbk_units_get(const tbk_units *ux, const tbk_page *page, size_t i,
                  tbk_unit *out);
const double *tbk_units_values(const tbk_units *ux, size_t i);
size_t tbk_units_words(const tbk_units *ux, size_t i, const uint32_t **idx,
                       const uint32_t **cnt);
/* Append unit i as a svmlight line (words = 0) or its words line (1), in
 * the format of tbk_features_format. 0 ok, -1 nomem/bad unit. */
int tbk_units_format(const tbk_units *ux, size_t i, int label, int words,
                     tbk_buf *out);
/* The page's <title>, normalized ("" when none), of the last page. */
const char *tbk_units_title(const tbk_units *ux);

/* Segment the page into units (as tbk_units_page does, without features;
 * tbk_units_get then reads them) and label them from a human gold text:
 * each unit's
 * tokens are aligned with the gold's (tbk_align_gold, order-aware) and a
 * unit is content (-1) when at least min_share of its tokens are matched,
 * boilerplate (+1) otherwise; a unit without tokens gets 0 (no label).
 * labels, share: tbk_units_count entries (share may be NULL). */
tbk_status tbk_units_gold_labels(tbk_units *ux, const tbk_page *page,
                                 const char *gold, size_t gold_len,
                                 double min_share, signed char *labels,
                                 double *share, tbk_error *err);

/* A two-stage model: a template model (the paper's) with a content model
 * (trained on tbk-units rows) attached. The model takes ownership of
 * content, which must be a single-stage model of a tbk-units schema whose
 * features were computed with this template model. */
tbk_status tbk_model_attach_content(tbk_model *m, tbk_model *content,
                                    tbk_error *err);
/* Train a content stage with its contextual pass: a first pass on the
 * units' features, then a second pass on the features plus the first
 * pass's probabilities of the unit's neighbours (previous and next two,
 * a window, the page), trained on out-of-fold first-pass probabilities
 * (folds by site, >= 2). ds holds tbk-units rows in page order (as
 * tbk-features --units writes them). */
tbk_status tbk_train_context(const tbk_dataset *ds, const tbk_train_options *opt,
                             unsigned folds, tbk_progress_fn progress,
                             void *progress_ctx, tbk_model **out,
                             tbk_error *err);
/* The content stage (borrowed), or NULL for a template-only model. */
const tbk_model *tbk_model_content(const tbk_model *m);
/* Free the content stage: m becomes its template stage alone. */
void tbk_model_drop_content(tbk_model *m);

/* Template probabilities of the blocks and boilerplate probabilities of
 * the units of a page (both borrowed until the next call; unit i is
 * tbk_units_get(tbk_predictor_units(pr), page, i)). Needs a model with a
 * content stage (TBK_ERR_ARG otherwise). */
tbk_status tbk_predict_units(tbk_predictor *pr, const tbk_page *page,
                             const double **block_p, const double **unit_p,
                             tbk_error *err);
/* on = 0: tbk_predict_units runs the content stage alone, its template
 * features 0 and *block_p NULL (for a content stage trained on units
 * featurized without a template model: the ablation). Default 1. */
void tbk_predictor_template_inputs(tbk_predictor *pr, int on);
/* The predictor's unit extractor (borrowed; NULL without a content stage). */
const tbk_units *tbk_predictor_units(const tbk_predictor *pr);

/* Renderings of the combined stage: a unit is kept when its boilerplate
 * probability is below threshold. */
typedef struct tbk_content_options {
  double threshold;   /* boilerplate when P >= threshold (0.5) */
  int title;          /* emit the page's headline as the first text line
                         unless a kept unit is the headline (1); 0: no
                         headline at all, the headline's units removed */
  int keep_comments;  /* keep units inside user-comment sections (class or
                         id "comment(s)" on an ancestor), unless mostly
                         links (0: remove them) */
  size_t min_kept_words;     /* a page keeping fewer words than this (60) */
  double fallback_threshold; /* ... keeps every unit below this (0.95) */
} tbk_content_options;
void tbk_content_options_init(tbk_content_options *o);
/* Which units are kept (1) or removed (0), into keep (unit count). */
void tbk_content_decide(const tbk_page *page, const tbk_units *ux,
                        const double *unit_p, const tbk_content_options *o,
                        unsigned char *keep);
/* The kept text, one line per unit, the headline first. summary (may be
 * NULL): blocks = units, template_blocks = removed units, chars and
 * template_chars = all and removed characters. */
tbk_status tbk_render_units_text(const tbk_page *page, const tbk_units *ux,
                                 const unsigned char *keep,
                                 const tbk_content_options *o, tbk_buf *out,
                                 tbk_page_summary *summary);
/* The page without its removed units' text (annotate = 0), or with every
 * unit's line element marked data-tbk-content="P" (1). The DOM is
 * modified: renderings are final. */
tbk_status tbk_render_units_html(tbk_page *page, const tbk_units *ux,
                                 const unsigned char *keep,
                                 const double *unit_p, int annotate,
                                 tbk_buf *out);
/* One JSON line per unit: page, path, tag, p_template (of its innermost
 * block), p_content (1 - boilerplate probability), content, chars, text. */
tbk_status tbk_render_units_jsonl(const tbk_page *page, const tbk_units *ux,
                                  const char *page_id, const double *unit_p,
                                  const unsigned char *keep, tbk_buf *out);

/* ======================================================= gold alignment */
/* (section owned by the alignment module; see core/align.c) */

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
tbk_status tbk_align_gold(tbk_tokenizer *t, const char *text, size_t text_len,
                          const uint32_t *start, const uint32_t *end,
                          size_t nunits, const char *gold, size_t gold_len,
                          uint32_t *tokens, uint32_t *matched,
                          tbk_error *err);

/* ============================================================ evaluation */
/* (section owned by the evaluation module; see core/eval.c) */

/* One point of a precision-recall curve: every row scored >= threshold is
 * predicted template. */
typedef struct tbk_eval_point {
  double threshold, precision, recall;
  size_t tp, fp;
} tbk_eval_point;

/* Ranking quality of template probabilities against +1/-1 labels. Rows
 * whose score is NaN (never held out) are left out. */
typedef struct tbk_ranking {
  size_t rows;              /* rows scored */
  size_t positives;         /* template rows among them */
  double average_precision; /* step-wise AP (PR-AUC); NaN without positives */
  double roc_auc;           /* NaN when a class is absent */
  tbk_eval_point *curve;    /* owned (tbk_ranking_free): one point per
                               distinct score, by decreasing threshold */
  size_t ncurve;
} tbk_ranking;

/* Fill r (any previous content is overwritten, not freed). No row, or no
 * template row, still succeeds with NaN figures and an empty curve.
 * Errors: TBK_ERR_ARG (label not +1/-1), TBK_ERR_NOMEM. */
tbk_status tbk_ranking_compute(const double *score, const int *label, size_t n,
                               tbk_ranking *r, tbk_error *err);
void tbk_ranking_free(tbk_ranking *r);
/* Operating point with the best recall at template precision >= target
 * (ties: highest threshold). Returns 0 and fills op, or -1 when no point
 * reaches the target (op: recall 0, precision 0, threshold +inf). */
int tbk_ranking_at_precision(const tbk_ranking *r, double target,
                             tbk_operating_point *op);

/* Token-multiset overlap of an extraction with a gold text: both are
 * tokenized with tbk_tokenize (case-folded word tokens) and the common part
 * is the multiset intersection. P = common / pred, R = common / gold,
 * F1 = 2PR / (P + R); both empty: P = R = F1 = 1; exactly one empty:
 * P = R = F1 = 0 (the rules of bench/peers/score_dir.py). */
typedef struct tbk_overlap {
  size_t pred_tokens, gold_tokens, common;
  double precision, recall, f1;
} tbk_overlap;
tbk_status tbk_token_overlap(tbk_tokenizer *t, const char *pred, size_t pn,
                             const char *gold, size_t gn, tbk_overlap *out,
                             tbk_error *err);

/* Mean and median of v[0..n) (v is sorted in place); NaN for n = 0. */
void tbk_mean_median(double *v, size_t n, double *mean, double *median);

/* The trafilatura evaluation's snippets: for each labelled page, text that
 * must be extracted ("with") and text that must not ("without"). */
typedef struct tbk_snippet_page {
  char *key;      /* owned by the set: the evaldata.json key */
  char **with;    /* owned by the set: nwith NUL-terminated UTF-8 strings */
  size_t nwith;
  char **without; /* owned by the set */
  size_t nwithout;
} tbk_snippet_page;
typedef struct tbk_snippet_set {
  tbk_snippet_page *pages; /* owned; in file order */
  size_t n;
} tbk_snippet_set;
/* Parse trafilatura's evaldata.json: one object whose members are
 * {"with": [strings], "without": [strings], ...}; other members are
 * skipped. A streaming reader with an explicit stack (no recursion, depth
 * limit 64). Errors: TBK_ERR_FORMAT ("invalid JSON at byte N: why"),
 * TBK_ERR_NOMEM. The set is released with tbk_snippets_free. */
tbk_status tbk_snippets_parse(const char *json, size_t len,
                              tbk_snippet_set **out, tbk_error *err);
void tbk_snippets_free(tbk_snippet_set *s);
/* Confusion counts of one page as trafilatura's evaluation defines them:
 * text and snippets are whitespace-normalized (runs of Unicode white space
 * become one space, trimmed) and a snippet is found when it is a
 * case-sensitive substring. tp = "with" found, fn = "with" missing,
 * fp = "without" found, tn = "without" absent. text NULL (no output at
 * all) scores like an empty text. Adds to *c. 0 ok, -1 out of memory. */
typedef struct tbk_snippet_counts {
  size_t tp, fn, fp, tn;
} tbk_snippet_counts;
int tbk_snippets_count(const tbk_snippet_page *p, const char *text,
                       size_t len, tbk_snippet_counts *c);

/* A precision-recall plot as a standalone SVG document (no scripts, no
 * external resources): recall on x, precision on y, both 0..1 with ticks
 * and grid, one coloured line per curve (solid, dashed, dotted, ...), a
 * legend and a title. Curves are thinned to what changes the drawing by
 * half a pixel. base_rate (the template share, i.e. the precision of a
 * random ranking) is drawn as a grey line; NaN = none. */
typedef struct tbk_plot_curve {
  const char *label;         /* borrowed: legend text (UTF-8) */
  const tbk_eval_point *pts; /* borrowed */
  size_t n;
} tbk_plot_curve;
tbk_status tbk_pr_svg(const tbk_plot_curve *curves, size_t ncurves,
                      const char *title, double base_rate, tbk_buf *out,
                      tbk_error *err);

/* ============================================================ benchmark support */
/* (section owned by the benchmark harness; see core/bench.c) */

/* The baseline tbk-bench measures every stage against: exactly what
 * tbk_page_parse does before segmentation (size limit, charset decoding,
 * libxml2 parse with the same flags), then one bare walk counting every DOM
 * node into *nodes; no segmentation, nothing kept. Errors as for
 * tbk_page_parse. */
tbk_status tbk_bench_parse_walk(const char *data, size_t len,
                                const tbk_page_options *opt, size_t *nodes,
                                tbk_error *err);

#ifdef __cplusplus
}
#endif
#endif /* TBK_H */
