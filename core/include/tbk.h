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

#ifdef __cplusplus
extern "C" {
#endif

#include "tbk_version.h"

/* What libtbk.so exports: the library is compiled with hidden visibility,
 * so a function is callable from a shared-library user only when its
 * declaration here carries TBK_API (tests/cli/shared_symbols.sh checks
 * both directions). For a program the attribute changes nothing. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define TBK_API __attribute__((visibility("default")))
#else
#define TBK_API
#endif

/* The version of the library the program runs with ("0.1.0"), which may
 * differ from TBK_VERSION, the version of the headers it was compiled with. */
TBK_API const char *tbk_version(void);

/* ------------------------------------------------------------------ status */

typedef enum tbk_status {
  TBK_OK = 0,
  TBK_ERR_IO,     /* cannot open/read/write a file */
  TBK_ERR_NOMEM,  /* allocation failed */
  TBK_ERR_EMPTY,  /* nothing to work on: empty page, no pages, no text */
  TBK_ERR_BINARY, /* input is not HTML/text (binary magic, NUL-heavy) */
  TBK_ERR_FORMAT, /* malformed input: bad WARC, bad TSV, bad JSON, bad gzip */
  TBK_ERR_LIMIT,  /* a configured resource limit was exceeded */
  TBK_ERR_MODEL,  /* model file corrupt, truncated or of another version */
  TBK_ERR_SCHEMA, /* data or model built on another feature schema */
  TBK_ERR_ARG     /* invalid argument or option value */
} tbk_status;

typedef struct tbk_error {
  tbk_status code;
  char msg[512]; /* one line, no trailing newline, no file name */
} tbk_error;

/* Human-readable name of a status ("I/O error", "limit exceeded", ...). */
TBK_API const char *tbk_status_str(tbk_status s);

/* --------------------------------------------------------- growable buffer */

/* A growable byte buffer. data is owned by the buffer (free with
 * tbk_buf_free); it is always NUL-terminated when len > 0 or after any
 * append, so it can be used as a C string. */
typedef struct tbk_buf {
  char *data;
  size_t len;
  size_t cap;
  struct tbk_buf_sink *sink; /* borrowed; NULL (the default): the buffer
                                holds all it is given (library-internal) */
} tbk_buf;

TBK_API void tbk_buf_free(tbk_buf *b);

/* ------------------------------------------------------ page and blocks */

typedef enum tbk_blockset {
  TBK_BLOCKS_PAPER = 0, /* Kołcz & Yih: blockquote dd div dl dt h1-h6 li ol
                           pre small table td th tr ul */
  TBK_BLOCKS_HTML5 = 1  /* paper set + article aside footer header main nav
                           section form p figure details fieldset address */
} tbk_blockset;

/* Which HTML parser builds the page (tbk_page_options.parser). */
typedef enum tbk_parser {
  TBK_PARSER_TBK = 0,     /* reproduces libxml2 2.9.14's HTML parser on every libxml2 */
  TBK_PARSER_LIBXML2 = 1, /* the installed libxml2's own HTML parser */
} tbk_parser;

typedef struct tbk_page_options {
  tbk_blockset blocks; /* default TBK_BLOCKS_PAPER */
  size_t
      min_chars; /* candidate needs >= this many Latin-equivalent characters (40): code points, Han/Kana/fullwidth 3.7 */
  size_t min_words;      /* ... and >= this many unique words (3): Han/Kana bigrams, Thai/Lao/Khmer/Myanmar syllables */
  size_t max_page_bytes; /* larger raw pages are refused (64 MiB) */
  size_t max_depth;      /* deeper nesting: page refused (4096) */
  size_t max_blocks;     /* more candidates on one page: refused (100000) */
  size_t max_nodes;      /* more elements on one page: refused (2000000) */
  size_t max_attrs;      /* more attributes on one element: refused
                               (1000; libxml2's cost is quadratic in them;
                               0 = no limit) */
  const char *charset_hint; /* e.g. from HTTP Content-Type; NULL = none */
  int fingerprints;         /* compute each block's md5 (1); prediction,
                               which never needs them, sets 0 */
  int keep_dom;             /* keep the page's tree for HTML output (0:
                               the tree is dropped once the tables are
                               made, and the first HTML rendering parses
                               the source again, keeping it; -1: no HTML
                               rendering is wanted, so the decoded source
                               is not kept for one: it fails with
                               TBK_ERR_ARG); the same blocks every way */
  tbk_parser parser;        /* TBK_PARSER_TBK (default): tbk's parser, the
                               same tree with every libxml2;
                               TBK_PARSER_LIBXML2: the installed libxml2's
                               own (HTML5 from 2.14 on: other trees, other
                               output than the model was trained on) */
} tbk_page_options;

/* Options start from the defaults (the values in parentheses above):
 * `tbk_page_options o = tbk_page_options_default;` or
 * tbk_page_options_init(&o), then change what differs. */
TBK_API extern const tbk_page_options tbk_page_options_default;
TBK_API void tbk_page_options_init(tbk_page_options *o);

/* One candidate block of a page. All pointers are borrowed from the page. */
typedef struct tbk_block {
  const char *text;      /* normalized text, NOT NUL-terminated: use text_len */
  size_t text_len;       /* bytes */
  size_t text_chars;     /* Latin-equivalent characters: code points, Han/Kana 3.7 */
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
TBK_API tbk_status tbk_page_parse(const char *data, size_t len, const tbk_page_options *opt, tbk_page **out,
                                  tbk_error *err);
TBK_API void tbk_page_free(tbk_page *p);

TBK_API size_t tbk_page_block_count(const tbk_page *p);
TBK_API const tbk_block *tbk_page_block(const tbk_page *p, size_t i);
/* Charset the page was decoded from (e.g. "UTF-8", "windows-1252"). */
TBK_API const char *tbk_page_charset(const tbk_page *p);
/* Count of libxml2 parse errors (recovered). */
TBK_API size_t tbk_page_parse_errors(const tbk_page *p);
/* Repairs made to markup after which libxml2 lost the page's text (an
 * unclosed <title>, <script>, <noscript>…, a broken comment) or showed
 * script as text (a nested script's end tag after "<!--"); 0 when the
 * page is as parsed. docs/inputs.md lists the shapes. */
TBK_API int tbk_page_recovered(const tbk_page *p);
/* The page's whole visible text, normalized (borrowed). */
TBK_API const char *tbk_page_text(const tbk_page *p, size_t *len);

typedef struct tbk_model tbk_model;

/* Operating point: the probability threshold reaching a template precision
 * in cross-site CV on the training data, and the recall there. */
typedef struct tbk_operating_point {
  double precision, threshold, recall;
} tbk_operating_point;

/* A model file (plain text, versioned, checksummed) loaded from path or
 * parsed from memory. Errors: TBK_ERR_IO, TBK_ERR_MODEL (corrupt,
 * truncated, another version), TBK_ERR_NOMEM. */
TBK_API tbk_status tbk_model_load(const char *path, tbk_model **out, tbk_error *err);
TBK_API tbk_status tbk_model_parse(const char *text, size_t len, tbk_model **out, tbk_error *err);
TBK_API void tbk_model_free(tbk_model *m);
/* The feature schema id the model was trained on. */
TBK_API const char *tbk_model_schema(const tbk_model *m);
/* The segmentation options the model was trained with (the other fields
 * from tbk_page_options_default): parse the pages to predict with them. */
TBK_API void tbk_model_page_options(const tbk_model *m, tbk_page_options *o);

TBK_API size_t tbk_model_operating_points(const tbk_model *m, const tbk_operating_point **ops);
/* Threshold for a precision target (the stored point with the smallest
 * precision >= target), or NaN when none is stored. */
TBK_API double tbk_model_threshold_for(const tbk_model *m, double precision);
/* Default decision threshold: 0.5 (even odds under the class-balanced
 * training). */
TBK_API double tbk_model_default_threshold(const tbk_model *m);

/* Prediction: a model plus a feature extractor and scratch space. One per
 * thread. */
typedef struct tbk_predictor tbk_predictor;
TBK_API tbk_status tbk_predictor_new(const tbk_model *m, tbk_predictor **out, tbk_error *err);
TBK_API void tbk_predictor_free(tbk_predictor *pr);
/* Template probability of every block of the page (borrowed, n blocks,
 * valid until the next call). The page must have been parsed with the
 * model's page options. */
TBK_API tbk_status tbk_predict_page(tbk_predictor *pr, const tbk_page *page, const double **probs, tbk_error *err);

/* Renderings of a scored page. A visible text run takes the decision of
 * its innermost block; text in no block counts as content. */
typedef struct tbk_page_summary {
  size_t blocks, template_blocks;
  size_t chars, template_chars; /* visible text, and the part removed */
} tbk_page_summary;
TBK_API tbk_status tbk_render_text(const tbk_page *page, const double *probs, double threshold, tbk_buf *out,
                                   tbk_page_summary *summary);
/* annotate = 0: template blocks removed; 1: every block gets
 * data-tbk-template="P" and nothing is removed. The page is left as it
 * was (any rendering may follow), but one page is not to be rendered from
 * two threads at once. */
TBK_API tbk_status tbk_render_html(const tbk_page *page, const double *probs, double threshold, int annotate,
                                   tbk_buf *out);
/* One JSON line per block: page, path, tag, probability, decision, text. */
TBK_API tbk_status tbk_render_jsonl(const tbk_page *page, const char *page_id, const double *probs, double threshold,
                                    tbk_buf *out);

/* ========================================================= content stage */
/* (core/features/units.c segments and scores units; core/predict/content.c
 * decides and renders) */

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
  size_t text_chars;     /* Latin-equivalent characters: code points, Han/Kana 3.7 */
  const char *path;      /* line element's locator + "#k" (k-th unit of it) */
  const char *tag;       /* line element's tag name */
  unsigned char md5[16]; /* MD5 of text (zeros when fingerprints are off) */
  uint32_t start, end;   /* byte range in tbk_page_text */
  uint32_t words;        /* tokens */
} tbk_unit;

TBK_API size_t tbk_units_count(const tbk_units *ux);
/* Unit i of the last page (which must be `page`). Errors: TBK_ERR_ARG
 * (i out of range), TBK_ERR_NOMEM (out as for success, path ""). */
TBK_API tbk_status tbk_units_get(const tbk_units *ux, const tbk_page *page, size_t i, tbk_unit *out);

/* Template probabilities of the blocks and boilerplate probabilities of
 * the units of a page (both borrowed until the next call; unit i is
 * tbk_units_get(tbk_predictor_units(pr), page, i)). Needs a model with a
 * content stage (TBK_ERR_ARG otherwise). */
TBK_API tbk_status tbk_predict_units(tbk_predictor *pr, const tbk_page *page, const double **block_p,
                                     const double **unit_p, tbk_error *err);
/* on = 0: tbk_predict_units runs the content stage alone, its template
 * features 0 and *block_p NULL (for a content stage trained on units
 * featurized without a template model: the ablation). Default 1. */
TBK_API void tbk_predictor_template_inputs(tbk_predictor *pr, int on);
/* The predictor's unit extractor (borrowed; NULL without a content stage). */
TBK_API const tbk_units *tbk_predictor_units(const tbk_predictor *pr);

/* Renderings of the combined stage: a unit is kept when its boilerplate
 * probability is below threshold. */
typedef struct tbk_content_options {
  double threshold;          /* boilerplate when P >= threshold (0.5) */
  int title;                 /* emit the page's headline as the first text line
                         unless a kept unit is the headline (1); 0: no
                         headline at all, the headline's units removed */
  int keep_comments;         /* keep units inside user-comment sections (class or
                         id "comment(s)" on an ancestor), unless mostly
                         links (0: remove them) */
  size_t min_kept_words;     /* a page keeping fewer words than this (60) */
  double fallback_threshold; /* ... keeps every unit below this (0.95) */
  int body;                  /* 1: the article body alone, as schema.org's
                         articleBody: no headline, byline, date, caption or
                         standfirst (0) */
  double prose_share;        /* a page whose kept prose and kept words are both
                         less than this share of its own prose (long,
                         link-free units the template stage calls the
                         page's) keeps that prose and every unit below
                         fallback_threshold (0.3; 0: never) */
  double text_share;         /* a page whose kept words are less than this
                         share of its own text (units of 5+ words, few
                         links, not template) keeps that text, but for
                         boxes beside it named so (sidebar, widget,
                         teaser, ...) (0.5; 0: never) */
} tbk_content_options;
TBK_API extern const tbk_content_options tbk_content_options_default;
TBK_API void tbk_content_options_init(tbk_content_options *o);
/* Which units are kept (1) or removed (0), into keep (unit count). */
TBK_API void tbk_content_decide(const tbk_page *page, const tbk_units *ux, const double *unit_p,
                                const tbk_content_options *o, unsigned char *keep);
/* The kept text, one line per unit, the headline first. summary (may be
 * NULL): blocks = units, template_blocks = removed units, chars and
 * template_chars = all and removed characters. */
TBK_API tbk_status tbk_render_units_text(const tbk_page *page, const tbk_units *ux, const unsigned char *keep,
                                         const tbk_content_options *o, tbk_buf *out, tbk_page_summary *summary);
/* The page without its removed units' text (annotate = 0), or with every
 * unit's line element marked data-tbk-content="P" (1). The DOM is
 * left as it was, as by tbk_render_html. */
TBK_API tbk_status tbk_render_units_html(const tbk_page *page, const tbk_units *ux, const unsigned char *keep,
                                         const double *unit_p, int annotate, tbk_buf *out);
/* One JSON line per unit: page, path, tag, p_template (of its innermost
 * block), p_content (1 - boilerplate probability), content, chars, text. */
TBK_API tbk_status tbk_render_units_jsonl(const tbk_page *page, const tbk_units *ux, const char *page_id,
                                          const double *unit_p, const unsigned char *keep, tbk_buf *out);

/* ======================================================= one call a page */

typedef enum tbk_format {
  TBK_FORMAT_TEXT = 0,          /* the clean text (tbk-predict -f text) */
  TBK_FORMAT_JSONL = 1,         /* one JSON line per unit, or per block for
                                    a template-only model (-f jsonl) */
  TBK_FORMAT_HTML = 2,          /* the page without what is removed */
  TBK_FORMAT_HTML_ANNOTATED = 3 /* the whole page, probabilities marked */
} tbk_format;
/* What tbk-predict writes for one page, appended to out: the combined
 * stage for a two-stage model (o: its options, NULL = the defaults), else
 * the template stage at the model's default threshold (o unused). page_id
 * names the page in JSONL (NULL = ""). The page must have been parsed with
 * tbk_model_page_options. HTML is written in the charset the page declares;
 * TBK_ERR_FORMAT when that charset cannot write the page, not even with
 * character references (e.g. ISO646-FR, which has no '#'). */
TBK_API tbk_status tbk_predict_render(tbk_predictor *pr, const tbk_page *page, const char *page_id, tbk_format fmt,
                                      const tbk_content_options *o, tbk_buf *out, tbk_error *err);

/* tbk_page_parse with the segmentation options of model m (NULL: the
 * defaults, as labelling wants) and an optional charset hint (NULL: none):
 * the one call a script needs before tbk_predict_render. */
TBK_API tbk_status tbk_page_parse_for(const tbk_model *m, const char *data, size_t len, const char *charset_hint,
                                      tbk_page **out, tbk_error *err);

/* ------------------------------------------------------------ site history */

/* A site-history store (an SQLite file): for each site, the pages seen and
 * on how many of them each block occurs. A predictor given one
 * (tbk_predictor_set_history) looks up each page's blocks among the site's
 * other pages, counts the page, and, when the model has a history stage,
 * corrects its decisions by them; with no other page of the site seen the
 * decision is the page's own, byte for byte. */
typedef struct tbk_history tbk_history;
/* Open (creating it unless read_only) the store at path for model m's
 * fingerprints (m NULL: the default segmentation's, which tbk-label and
 * tbk_labeler_use_history use and the shipped model shares). Errors: TBK_ERR_IO (cannot open), TBK_ERR_MODEL (not a tbk
 * history store, another format, or made with another segmentation: the
 * message names both), TBK_ERR_NOMEM. One handle is used by one thread at
 * a time; handles of several threads or processes may share a store. */
TBK_API tbk_status tbk_history_open_for(const tbk_model *m, const char *path, int read_only, tbk_history **out,
                                        tbk_error *err);
/* The page that is predicted next: its site (e.g. tbk_site_of_url) and its
 * key (its URL, else its path). A page already counted is not counted
 * again, and sees the site's other pages only. */
TBK_API tbk_status tbk_history_begin(tbk_history *h, const char *site, const char *key, tbk_error *err);
/* The site's other pages seen so far (after tbk_history_begin). */
TBK_API uint32_t tbk_history_pages(const tbk_history *h);
/* Commit the pages counted so far (they are committed every 256 pages and
 * by tbk_history_close; a process killed loses only the uncommitted). */
TBK_API tbk_status tbk_history_commit(tbk_history *h, tbk_error *err);
/* Commit and free (h freed even on error); tbk_history_free frees without
 * committing. */
TBK_API tbk_status tbk_history_close(tbk_history *h, tbk_error *err);
TBK_API void tbk_history_free(tbk_history *h);
/* Predict the following pages with history h (borrowed; NULL: none): call
 * tbk_history_begin before each page, and parse pages with
 * tbk_page_parse_fingerprinted. */
TBK_API void tbk_predictor_set_history(tbk_predictor *pr, tbk_history *h);
/* tbk_page_parse_for, with each block's fingerprint (what history needs). */
TBK_API tbk_status tbk_page_parse_fingerprinted(const tbk_model *m, const char *data, size_t len,
                                                const char *charset_hint, tbk_page **out, tbk_error *err);

/* Every choice tbk-predict offers for one page (its --stage, --threshold,
 * --precision, --keep comments, --no-title, --body, --min-kept-words and
 * --min-prose-share), from the defaults: `tbk_predict_options o =
 * tbk_predict_options_default;` or tbk_predict_options_init(&o). */
typedef struct tbk_predict_options {
  int stage;                   /* -1 (default): the combined stage with a two-stage
                        model, else the template stage; 0 template; 1
                        combined; 2 content (the content stage without
                        template inputs) */
  double threshold;            /* remove when P >= threshold; NaN (default): the
                        operating point for precision, else the stage's
                        default threshold */
  double precision;            /* NaN (default): none; else the stage's operating
                        point for this precision (excludes threshold) */
  tbk_content_options content; /* the combined stage's options (their
                        threshold is not read: threshold above); with the
                        template stage they must be the defaults */
} tbk_predict_options;
TBK_API extern const tbk_predict_options tbk_predict_options_default;
TBK_API void tbk_predict_options_init(tbk_predict_options *o);
/* tbk_predict_render with those choices (o NULL: the defaults, which is
 * tbk_predict_render); summary (may be NULL): the units (blocks) and
 * characters seen and removed, whatever the format. Errors: TBK_ERR_ARG
 * (threshold with precision, a value out of [0, 1], a stage the model does
 * not have, no operating point for precision, combined-stage options with
 * the template stage), the predictor's (TBK_ERR_LIMIT), TBK_ERR_NOMEM. */
TBK_API tbk_status tbk_predict_render_opts(tbk_predictor *pr, const tbk_page *page, const char *page_id, tbk_format fmt,
                                           const tbk_predict_options *o, tbk_buf *out, tbk_page_summary *summary,
                                           tbk_error *err);

/* The metadata the page declares, appended to out as one JSON object:
 * {"title", "author", "date", "date_modified", "site_name", "language",
 * "description", "url", "image", "keywords", "type"}, each a string or
 * null. Read from the decoded source: JSON-LD (<script
 * type="application/ld+json">: an Article-like object's headline, author
 * name(s), datePublished, dateModified, publisher name, inLanguage), Open
 * Graph and other <meta> (og:title, author, article:published_time,
 * og:site_name, description, keywords...), <html lang>, <link
 * rel=canonical> and <title>; JSON-LD first for author and dates, Open
 * Graph first for the rest. Errors: TBK_ERR_ARG (a page parsed with
 * keep_dom < 0 keeps no source), TBK_ERR_NOMEM. */
TBK_API tbk_status tbk_page_metadata(const tbk_page *page, tbk_buf *out, tbk_error *err);

/* ============================================================ labelling */
/* The paper's auto-labels: a block whose text recurs on many pages of one
 * site is template, a block found on one page only is content. */

typedef struct tbk_label_options {
  double template_share;  /* df >= ceil(share * pages) ... (0.10) */
  size_t template_min_df; /* ... and df >= this (3) */
  size_t min_pages;       /* skip sites with fewer pages (10) */
  int emit_ignored;       /* also emit ignored blocks, with a reason */
} tbk_label_options;
TBK_API extern const tbk_label_options tbk_label_options_default;
TBK_API void tbk_label_options_init(tbk_label_options *o);

/* Per-site summary. */
typedef struct tbk_site_stats {
  size_t pages;      /* pages labelled */
  size_t bad_pages;  /* pages skipped as unreadable/unparsable */
  size_t candidates; /* candidate blocks */
  size_t templates, contents, ignored;
  double template_text_share; /* chars in outermost template blocks / all
                                 visible chars of the site's pages */
} tbk_site_stats;

/* How pages are grouped into sites. */
typedef enum tbk_site_key {
  TBK_SITE_DOMAIN = 0, /* registered domain (public-suffix list) */
  TBK_SITE_HOST = 1    /* full host name, leading "www." removed */
} tbk_site_key;
/* Site key of a URL's host under the given policy (new string, caller
 * frees with free()), or NULL when the URL has no host. */
TBK_API char *tbk_site_of_url(const char *url, tbk_site_key key);

/* Output callback: write n bytes; 0 ok, non-zero stops the writer. */
typedef int (*tbk_write_fn)(void *ctx, const char *data, size_t n);

/* Labels one site's pages. Feed every page with tbk_labeler_add (pass 1:
 * fingerprints and document frequencies; blocks are spilled to a temporary
 * file so memory is bounded by the site's distinct fingerprints), then
 * tbk_labeler_finish writes the JSON Lines of every labelled block, in the
 * order the pages were added (what tbk-label writes), through write. */
typedef struct tbk_labeler tbk_labeler;
TBK_API tbk_status tbk_labeler_new(const char *site, const tbk_label_options *lopt, tbk_labeler **out, tbk_error *err);
TBK_API void tbk_labeler_free(tbk_labeler *l);
/* One page of the site, parsed with the default page options (or the
 * ones the labels are meant for); page_id and url are copied. */
TBK_API tbk_status tbk_labeler_add(tbk_labeler *l, const char *page_id, const char *url, const tbk_page *page,
                                   tbk_error *err);
TBK_API tbk_status tbk_labeler_finish(tbk_labeler *l, tbk_write_fn write, void *wctx, tbk_site_stats *stats,
                                      tbk_error *err);
/* Count the site's pages into h (borrowed, opened for the pages'
 * segmentation; call before the first page) and label them by the store's
 * counts: df and pages are the store's for the page's site, the page
 * itself included, so a site labelled in several runs is labelled by
 * every run's pages (tbk-label --history). The rules and options are the
 * same. */
TBK_API void tbk_labeler_use_history(tbk_labeler *l, tbk_history *h);
/* The site's pages the labels count: the pages added, or with a store the
 * most pages a page's site has in it (this run's counted): a site under
 * min_pages is to be skipped, as tbk-label does, before finishing. */
TBK_API size_t tbk_labeler_pages(const tbk_labeler *l);

/* ============================================================= keywords */
/* The keywords of a page after its template (or boilerplate) is removed,
 * as tbk-keywords finds and ranks them (Kołcz & Yih, section 5). */
typedef struct tbk_keyword_table tbk_keyword_table;
/* The background document frequencies (a tbk-keywords --build-df file;
 * NULL: every term has idf 1) and a trained ranker (--train-ranker; NULL:
 * TF-IDF), read-only once loaded: one table may serve every thread.
 * The message names the file refused (two files: the exception to the
 * rule above). Errors: TBK_ERR_IO, TBK_ERR_FORMAT, TBK_ERR_MODEL, TBK_ERR_SCHEMA,
 * TBK_ERR_NOMEM. */
TBK_API tbk_status tbk_keyword_table_load(const char *df_path, const char *ranker_path, tbk_keyword_table **out,
                                          tbk_error *err);
TBK_API void tbk_keyword_table_free(tbk_keyword_table *t);
/* The page's top keywords appended to out as the line `tbk-keywords -f
 * jsonl` writes: {"page", "lang", "tokens", "keywords": [{"term", "score",
 * "tf"}]}. data: the raw page (its <meta> keywords are removed before the
 * parse, as tbk-keywords does), parsed with the predictor's model's
 * options and charset_hint (NULL: none). denoise: -1 (default: 2 with a
 * two-stage model, else 1), 0 none, 1 template blocks removed, 2 only the
 * content stage's kept units. t NULL: idf 1, TF-IDF. Errors: those of
 * tbk_page_parse and of the predictor, TBK_ERR_ARG (denoise 2 with a
 * template-only model). */
TBK_API tbk_status tbk_keywords_page(tbk_predictor *pr, const tbk_keyword_table *t, const char *data, size_t len,
                                     const char *charset_hint, const char *page_id, int denoise, size_t top,
                                     tbk_buf *out, tbk_error *err);

/* ================================================================ WARC */
/* The HTML response records of a WARC file (plain or gzip), as the
 * programs read them (docs/inputs.md): listed on open, each read on
 * demand. Damage is skipped as the programs skip it: a warning line each
 * (tbk_warc_warnings) and a count (tbk_warc_skipped). */
typedef struct tbk_warc tbk_warc;
typedef struct tbk_warc_record {
  const char *url;          /* WARC-Target-URI */
  const char *record_id;    /* WARC-Record-ID ("" when absent) */
  const char *date;         /* WARC-Date ("" when absent) */
  const char *charset;      /* the HTTP Content-Type's charset ("" none) */
  const char *warc_headers; /* the WARC header lines, as in the file
                              (version line first) */
  size_t warc_headers_len;
  const char *http_headers; /* the HTTP status line and header lines */
  size_t http_headers_len;
  const char *body; /* the HTTP body: de-chunked, gzip/deflate
                              decoded; NOT NUL-terminated: use body_len */
  size_t body_len;
  uint64_t offset, skip; /* where the record starts: the gzip member's
                              offset (the byte offset of a plain WARC) and
                              the decompressed bytes into it */
} tbk_warc_record;
/* List the HTML response records of path (max_record_bytes: larger ones
 * are skipped; 0 no limit). Errors: TBK_ERR_IO, TBK_ERR_FORMAT (no record
 * could be read), TBK_ERR_EMPTY (no HTML response record), TBK_ERR_NOMEM. */
TBK_API tbk_status tbk_warc_open(const char *path, size_t max_record_bytes, tbk_warc **out, tbk_error *err);
TBK_API void tbk_warc_free(tbk_warc *w);
TBK_API size_t tbk_warc_count(const tbk_warc *w);
/* Records skipped while listing, and their warnings (one line each, "\n"
 * separated; "" when none; borrowed). A record cut off in a truncated gzip
 * member is listed with the part that could be read, and counted here too
 * (the programs exit 3 for it). */
TBK_API size_t tbk_warc_skipped(const tbk_warc *w);
TBK_API const char *tbk_warc_warnings(const tbk_warc *w);
/* Record i read into *out (pointers borrowed until the next call on w or
 * tbk_warc_free). Errors: TBK_ERR_ARG (i out of range), those of reading
 * the record (TBK_ERR_IO, TBK_ERR_FORMAT, TBK_ERR_LIMIT, TBK_ERR_NOMEM). */
TBK_API tbk_status tbk_warc_record_get(tbk_warc *w, size_t i, tbk_warc_record *out, tbk_error *err);

#ifdef __cplusplus
}
#endif
#endif /* TBK_H */
