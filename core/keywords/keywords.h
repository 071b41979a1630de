/* Keyword extraction after template removal (Kołcz & Yih 2007, section 5):
 * the candidates of a page, their features (those of Yih, Goodman &
 * Carvalho 2006 the paper keeps: term and document frequency, position of
 * first occurrence, title, heading, anchor text, capitalization, phrase
 * length), a background document-frequency table, and two rankers: an
 * untrained TF-IDF and a logistic one trained through LIBLINEAR.
 *
 *   keywords.c       tokens, stop words, candidates, features, ranking
 *   keywords_df.c    the document-frequency table and its file
 *   keywords_rank.c  the trained ranker: training, file, scoring
 *   keywords_page.c  a page's text runs as the extractor's input, after the
 *                    template or content stage removed what it decides
 *   keywords_gold.c  gold keywords from <meta>, removed from the page
 *   keywords_doc.c   an input document read and parsed, its keywords written
 */
#ifndef TBK_KEYWORDS_H
#define TBK_KEYWORDS_H
#include "io.h"
#include "ml.h"
#include "page_view.h"

/* Candidates are 1..TBK_KW_MAX_WORDS consecutive words of one phrase that
 * neither start nor end with a stop word. Han and Kana text (no spaces) is
 * taken a character at a time instead: a candidate is a span of 2 to 6 Han
 * characters (a Kana letter counting half) written as in the source, not
 * crossing a stop word of the page's language (particles, function
 * characters) nor starting or ending with Hiragana, and the occurrences of
 * a span inside a longer span found more than once are counted for the
 * longer one only (博物馆 four times is not also 博物 and 物馆). */
#define TBK_KW_MAX_WORDS 3

/* Where a text segment comes from (tbk_kw_add_text's seg). */
enum { TBK_KW_SEG_HEADING = 1, TBK_KW_SEG_ANCHOR = 2, TBK_KW_SEG_TITLE = 4, TBK_KW_SEG_TAG = 8 };

/* The candidate features, in the ranker file's order: X(id, name). */
#define TBK_KW_FEATURES(X)    \
  X(TF_LOG, "tf_log")         \
  X(TF_REL, "tf_rel")         \
  X(IDF, "idf")               \
  X(DF_LOG, "df_log")         \
  X(TFIDF, "tfidf")           \
  X(FIRST_POS, "first_pos")   \
  X(IN_TITLE, "in_title")     \
  X(HEADING, "heading_share") \
  X(ANCHOR, "anchor_share")   \
  X(CAPS, "caps_share")       \
  X(LEN1, "len1")             \
  X(LEN2, "len2")             \
  X(LEN3, "len3")             \
  X(NUMBER, "has_number")     \
  X(WORD_TF, "word_tf")       \
  X(CHARS, "chars_log")
enum {
#define TBK_KW_FEAT_ENUM(id, name) TBK_KW_F_##id,
  TBK_KW_FEATURES(TBK_KW_FEAT_ENUM)
#undef TBK_KW_FEAT_ENUM
      TBK_KW_NFEAT
};
extern const char *const tbk_kw_feature_names[TBK_KW_NFEAT];

typedef struct tbk_kw_cand {
  const char *key;                /* stems joined by one space: what gold is matched on */
  const char *text;               /* the folded words of its first occurrence */
  uint32_t tf;                    /* occurrences in the body (the title not counted) */
  uint32_t removed;               /* occurrences in text the content denoising removed
                                     (counted only with a removed weight) */
  uint32_t first;                 /* body token index of the first, UINT32_MAX: title only */
  uint32_t heading, anchor, caps; /* body occurrences in a heading, in
                                     anchor text, with every word capitalized */
  uint8_t words;                  /* 1..TBK_KW_MAX_WORDS (Chinese/Japanese: the span's
                        Latin-equivalent words, a quarter of its units) */
  uint8_t chars;                  /* Chinese/Japanese: the span's characters; 0 Latin */
  uint8_t in_title;               /* found in the page's <title> */
  uint8_t in_tag;                 /* found in one of the page's tag links */
  uint8_t number;                 /* a word is a number (never all of them) */
  float word_tf;                  /* mean log(1 + body count) of its non-stop words */
  double x[TBK_KW_NFEAT];         /* features (tbk_kw_rank) */
  double score;                   /* ranking score (tbk_kw_rank) */
} tbk_kw_cand;

/* Background document frequencies: in how many documents of a collection
 * each candidate key occurs. */
typedef struct tbk_kw_df tbk_kw_df;

/* The trained ranker: logistic regression over the features. */
typedef struct tbk_kw_ranker {
  double w[TBK_KW_NFEAT];
  double bias;
  size_t pages, positives, negatives; /* what it was trained on */
  char df_id[33];                     /* the DF table it was trained with (tbk_kw_df_id), "none"
                     without one, "" when not recorded (a version 1 file) */
} tbk_kw_ranker;

/* ------------------------------------------------------------ extractor */

/* One document at a time: tbk_kw_begin, tbk_kw_add_text / tbk_kw_add_page,
 * tbk_kw_finish, then tbk_kw_rank any number of times. One per thread. */
typedef struct tbk_kw_extractor tbk_kw_extractor;
tbk_status tbk_kw_new(tbk_kw_extractor **out, tbk_error *err);
void tbk_kw_free(tbk_kw_extractor *x);
void tbk_kw_begin(tbk_kw_extractor *x);
/* A segment of text (any bytes; invalid UTF-8 is repaired). A phrase never
 * crosses a segment's edges, nor a sentence or clause punctuation inside
 * it. seg: TBK_KW_SEG_* flags. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_kw_add_text(tbk_kw_extractor *x, const char *s, size_t n, unsigned seg);
/* A parsed page: its <title>, then its text runs in reading order, those
 * with keep[run] = 0 left out (keep NULL: every run). A phrase never
 * crosses a line element (p, li, td, div, h1...) nor removed text; heading
 * and anchor text are marked as such. */
tbk_status tbk_kw_add_page(tbk_kw_extractor *x, const tbk_page *page, const unsigned char *keep);
/* The weight of an occurrence in text the content stage removed, beside
 * an occurrence in kept text (1), in the untrained TF-IDF score of the
 * kept text's candidates (-d content only; 0: removed text is not read).
 * The content stage removes all boilerplate, the page's own too (captions,
 * its tags, its section's name): a page-specific keyword found there is
 * weaker evidence, not none. Chosen on the coarse grid 0 / 0.1 / 0.25 / 0.5
 * (docs/experiments/evaluation-keywords.md); a trained ranker does not use
 * it (its features are the kept text's). */
#define TBK_KW_REMOVED_WEIGHT 0.1
void tbk_kw_set_removed_weight(tbk_kw_extractor *x, double w);
/* The document being read (until the next tbk_kw_begin) reads removed runs
 * with weight w (tbk_kw_extract_page sets it from the option and the
 * denoising; 0, as after tbk_kw_begin: they are skipped). */
void tbk_kw_read_removed(tbk_kw_extractor *x, double w);
/* Choose the stop lists (the Latin words': the language whose list covers
 * most of them; the Han/Kana text's: the list whose entries are found most
 * often in it), then make the candidates. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_kw_finish(tbk_kw_extractor *x, tbk_error *err);
/* The candidates (borrowed until the next tbk_kw_begin), in the order of
 * the last tbk_kw_rank (before it: of first occurrence). */
size_t tbk_kw_count(const tbk_kw_extractor *x);
tbk_kw_cand *tbk_kw_cands(tbk_kw_extractor *x);
/* Body tokens of the document (a Han/Kana character is one), and the
 * chosen stop list's language code, of the two lists the one with more hits
 * ("" when no list matched a word). */
size_t tbk_kw_tokens(const tbk_kw_extractor *x);
const char *tbk_kw_lang(const tbk_kw_extractor *x);
/* Compute every candidate's features against df (NULL: no background, idf
 * 1 for every key) and its score, and sort by score (ties: earlier first
 * occurrence, then key). ranker NULL: the untrained TF-IDF score
 * tf * idf, idf = 1 + ln((D + 1) / (df + 1)) over a table of D documents;
 * else the ranker's probability. */
void tbk_kw_rank(tbk_kw_extractor *x, const tbk_kw_df *df, const tbk_kw_ranker *ranker);

/* The key of a keyword phrase as candidates have it (words folded and
 * stemmed, joined by one space), appended to out with a NUL; 0 when the
 * phrase has no word or more than TBK_KW_MAX_WORDS. -1 out of memory. */
int tbk_kw_key_of(tbk_kw_extractor *x, const char *s, size_t n, tbk_buf *out);
/* The light stemmer matching uses (Harman's S-stemmer on words of four
 * bytes or more: -ies -> -y (five or more), -es -> -e, -s dropped, except after u, s, i,
 * e/w ('news'), and a/e/o before -es): the stem of w[0..n) into out
 * (room for n + 1 bytes); returns its length. */
size_t tbk_kw_stem(const char *w, size_t n, char *out);
/* The language codes of the built-in stop lists, in list order, and
 * whether a folded word is a stop word of list lang. */
size_t tbk_kw_languages(const char *const **codes);
int tbk_kw_is_stop(const char *w, size_t n, size_t lang);

/* ------------------------------------------------- document frequencies */

tbk_status tbk_kw_df_new(tbk_kw_df **out, tbk_error *err);
void tbk_kw_df_free(tbk_kw_df *df);
/* Count one document: each distinct candidate key of the finished
 * extractor once. */
tbk_status tbk_kw_df_add(tbk_kw_df *df, const tbk_kw_extractor *x, tbk_error *err);
/* Add another table's counts (documents and keys). */
tbk_status tbk_kw_df_merge(tbk_kw_df *df, const tbk_kw_df *other, tbk_error *err);
size_t tbk_kw_df_docs(const tbk_kw_df *df);
size_t tbk_kw_df_keys(const tbk_kw_df *df);
/* Count one occurrence of any string (the table as a plain counter). */
tbk_status tbk_kw_df_add_key(tbk_kw_df *df, const char *key, size_t len, tbk_error *err);
uint32_t tbk_kw_df_get(const tbk_kw_df *df, const char *key, size_t len);
/* The table as plain text, keys of df >= min_df only (the document count
 * stays that of the whole collection):
 *   tbk-keywords-df 1
 *   docs <D>
 *   keys <K>
 *   <df> TAB <key>      (K lines, by decreasing df, then key)
 *   end
 *   checksum <MD5 of all the lines above>
 * (tables written before the checksum line are read without one). */
tbk_status tbk_kw_df_write(const tbk_kw_df *df, size_t min_df, tbk_buf *out, tbk_error *err);
/* Parse that format; anything else is TBK_ERR_FORMAT with the line. */
tbk_status tbk_kw_df_read(const char *text, size_t len, tbk_kw_df **out, tbk_error *err);
/* A table read from a file: the MD5 of its text up to its "end" line, which
 * a ranker trained with it records; "" for a table built in memory. */
const char *tbk_kw_df_id(const tbk_kw_df *df);
tbk_status tbk_kw_df_load(const char *path, tbk_kw_df **out, tbk_error *err);

/* --------------------------------------------------------------- ranker */

/* A set of gold keys (from tbk_kw_key_of). */
typedef struct tbk_kw_gold tbk_kw_gold;
tbk_status tbk_kw_gold_new(tbk_kw_gold **out, tbk_error *err);
void tbk_kw_gold_free(tbk_kw_gold *g);
void tbk_kw_gold_clear(tbk_kw_gold *g);
/* Split s at ',', ';', '|' and line ends and add each phrase's key (those
 * of no word or too many words are left out). Returns the keys added, -1
 * out of memory. */
long tbk_kw_gold_add(tbk_kw_gold *g, tbk_kw_extractor *x, const char *s, size_t n);
int tbk_kw_gold_has(const tbk_kw_gold *g, const char *key);
size_t tbk_kw_gold_count(const tbk_kw_gold *g);
/* Keep only the keys that are candidates of the finished extractor (what
 * any ranking of that document could find); returns how many are left. */
size_t tbk_kw_gold_restrict(tbk_kw_gold *g, const tbk_kw_extractor *x);
/* Keep only the keys keep(ctx, key) says 1 to; returns how many are left
 * (on out of memory the set stays as it was). */
size_t tbk_kw_gold_keep_if(tbk_kw_gold *g, int (*keep)(void *ctx, const char *key), void *ctx);
/* The i-th key (i < count). */
const char *tbk_kw_gold_key(const tbk_kw_gold *g, size_t i);

/* Whose a meta keyword is: the keys of every page's <meta> keywords
 * (tbk_kw_gold_add, before tbk_kw_gold_restrict) counted per site, then a
 * page's gold filtered by one of these rules. A keyword other pages of the
 * site list too (the site's name, its sections: "BBC, News") is in the
 * template, not in what the page is about. */
typedef enum tbk_kw_gold_rule {
  TBK_KW_GOLD_ALL = 0,       /* every meta keyword */
  TBK_KW_GOLD_NOT_SITE_WIDE, /* those in the meta of half or more of the
                                site's pages left out (sites of
                                TBK_KW_SITE_MIN_PAGES such pages or more) */
  TBK_KW_GOLD_PAGE_SPECIFIC  /* only those no other page of the site lists;
                                a page of a site with fewer than
                                TBK_KW_SITE_MIN_PAGES such pages has none */
} tbk_kw_gold_rule;
#define TBK_KW_SITE_MIN_PAGES 4
typedef struct tbk_kw_sites tbk_kw_sites;
tbk_status tbk_kw_sites_new(tbk_kw_sites **out, tbk_error *err);
void tbk_kw_sites_free(tbk_kw_sites *s);
/* Count one page of site (call once a page) with the meta keys in meta.
 * Errors: TBK_ERR_NOMEM. */
tbk_status tbk_kw_sites_add(tbk_kw_sites *s, const char *site, const tbk_kw_gold *meta, tbk_error *err);
/* The pages of site counted, and those of them listing key (0 on out of
 * memory). */
uint32_t tbk_kw_sites_pages(tbk_kw_sites *s, const char *site);
uint32_t tbk_kw_sites_listing(tbk_kw_sites *s, const char *site, const char *key);
/* Keep the keys of g (the meta keys of a page of site counted in s) that
 * rule keeps; returns how many are left. */
size_t tbk_kw_gold_site_rule(tbk_kw_gold *g, tbk_kw_sites *s, const char *site, tbk_kw_gold_rule rule);

/* Training rows for the ranker, gathered page by page. */
typedef struct tbk_kw_trainer tbk_kw_trainer;
tbk_status tbk_kw_trainer_new(tbk_kw_trainer **out, tbk_error *err);
void tbk_kw_trainer_free(tbk_kw_trainer *t);
/* The page's candidates as rows, labelled by gold: every gold candidate,
 * and the other candidates among the first max_rank of the TF-IDF ranking
 * (the extractor is ranked by TF-IDF against df here). A page without a
 * gold candidate adds nothing. */
tbk_status tbk_kw_trainer_add(tbk_kw_trainer *t, tbk_kw_extractor *x, const tbk_kw_df *df, const tbk_kw_gold *gold,
                              size_t max_rank, tbk_error *err);
/* tbk_kw_trainer_add with the keys of meta[0..n) (a page's <meta>
 * keywords, split as tbk_kw_gold_add does) that are candidates of the
 * page. */
tbk_status tbk_kw_trainer_add_meta(tbk_kw_trainer *t, tbk_kw_extractor *x, const tbk_kw_df *df, const char *meta,
                                   size_t n, size_t max_rank, tbk_error *err);
/* Pages that added rows (those with a gold candidate). */
size_t tbk_kw_trainer_pages(const tbk_kw_trainer *t);
/* L2 logistic regression (LIBLINEAR, C), classes weighted to equal total
 * weight. Errors: TBK_ERR_EMPTY (no row of a class), those of tbk_lr_train. */
tbk_status tbk_kw_trainer_fit(tbk_kw_trainer *t, double C, tbk_kw_ranker *out, tbk_error *err);

/* The ranker file:
 *   tbk-keywords-ranker 2
 *   trained <pages> <positives> <negatives>
 *   df <the DF table's id, none, or unknown (a table built in memory)>
 *                                  (version 2; version 1 has no such line)
 *   w <feature name> <weight>      (one line per feature, in order)
 *   bias <b>
 *   end
 * A file naming other features is TBK_ERR_SCHEMA; anything else malformed
 * TBK_ERR_MODEL. */
tbk_status tbk_kw_ranker_write(const tbk_kw_ranker *r, tbk_buf *out);
tbk_status tbk_kw_ranker_read(const char *text, size_t len, tbk_kw_ranker *r, tbk_error *err);
tbk_status tbk_kw_ranker_load(const char *path, tbk_kw_ranker *r, tbk_error *err);

/* ----------------------------------------------------------------- page */

typedef enum tbk_kw_denoise {
  TBK_KW_DENOISE_NONE = 0,     /* the whole page (the paper's ORD) */
  TBK_KW_DENOISE_TEMPLATE = 1, /* template blocks removed (DN) */
  TBK_KW_DENOISE_CONTENT = 2   /* only the content stage's kept units */
} tbk_kw_denoise;
/* Which text runs of the page survive mode: keep[run] (page->n_runs
 * entries, grown as needed) is 1 or 0, or TBK_KW_KEEP_OWN for a run the
 * content stage removed from a block the template stage calls the page's
 * own (its tag links are read as the page's tags). The predictor's model
 * must have a content stage for TBK_KW_DENOISE_CONTENT (TBK_ERR_ARG
 * otherwise); the template stage's threshold is the model's default, the
 * content stage's o (NULL: the defaults). Errors: those of the predictor. */
#define TBK_KW_KEEP_OWN 2
tbk_status tbk_kw_page_keep(tbk_predictor *pr, const tbk_page *page, tbk_kw_denoise mode, const tbk_content_options *o,
                            unsigned char **keep, size_t *cap, tbk_error *err);

/* Every <meta name|property|itemprop="keywords|news_keywords|article:tag">
 * of html[0..n) is overwritten with spaces (line ends kept), so a parse of
 * the page no longer holds it; the content attributes, entities decoded,
 * are appended to gold (when not NULL), one per line. Returns how many
 * elements were removed, -1 out of memory. */
long tbk_kw_meta_strip(char *html, size_t n, tbk_buf *gold);
/* Parse raw page bytes as tbk_page_parse does, after removing those
 * elements from a copy; gold (may be NULL) receives their contents in
 * UTF-8 (the page decoded as the parse decodes it), one a line. Errors:
 * those of tbk_page_parse. */
tbk_status tbk_kw_page_parse(const char *raw, size_t n, const tbk_page_options *o, tbk_page **out, tbk_buf *gold,
                             tbk_error *err);

/* ------------------------------------------------------------ documents */

/* Read ref into raw (a page file's limit is o's max_page_bytes, a WARC
 * record's in's max_record_bytes) and, when out is not NULL, parse it as
 * tbk_kw_page_parse does, with ref's charset as the hint; gold (may be
 * NULL) is emptied first. Errors: those of tbk_page_ref_read and
 * tbk_page_parse. */
tbk_status tbk_kw_page_read(const tbk_page_ref *ref, const tbk_input_options *in, const tbk_page_options *o,
                            tbk_buf *raw, tbk_page **out, tbk_buf *gold, tbk_error *err);
/* The extractor holds the candidates of plain text s[0..n) (one segment),
 * or of page after mode (tbk_kw_page_keep, the content stage's default
 * options). Errors: those of tbk_kw_page_keep (TBK_ERR_LIMIT: the page is
 * past the predictor's limits), TBK_ERR_NOMEM. */
tbk_status tbk_kw_extract_text(tbk_kw_extractor *x, const char *s, size_t n, tbk_error *err);
tbk_status tbk_kw_extract_page(tbk_kw_extractor *x, tbk_predictor *pr, const tbk_page *page, tbk_kw_denoise mode,
                               tbk_error *err);
/* The candidates of text s[0..n) that stands for page (its gold text),
 * under the page's title as tbk_kw_extract_page gives it. Errors:
 * TBK_ERR_NOMEM. */
tbk_status tbk_kw_extract_titled(tbk_kw_extractor *x, const tbk_page *page, const char *s, size_t n, tbk_error *err);
/* The first top candidates of the ranked extractor appended to out. Text:
 * a line "==> PAGE <==" when page is not NULL, then one "SCORE<TAB>KEYWORD"
 * line each (trained: the ranker's probability to 4 decimals, else 4
 * significant digits). JSONL: one object {page, lang, tokens, keywords:
 * [{term, score, tf}]}. 0 ok, -1 out of memory. */
int tbk_kw_write_text(tbk_buf *out, tbk_kw_extractor *x, const char *page, size_t top, int trained);
int tbk_kw_write_jsonl(tbk_buf *out, tbk_kw_extractor *x, const char *page, size_t top);
#endif
