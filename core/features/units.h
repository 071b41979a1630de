/* Internal layout of the content stage's units: the leaf text units of a
 * page (every visible text run belongs to exactly one) and the per-page
 * scratch of their feature extraction. See units.c (segmentation and
 * features), ../rows/units_gold.c (gold labels) and ../predict/content.c (the
 * decision, the renderings). */
#ifndef TBK_UNITS_H
#define TBK_UNITS_H
#include <stdint.h>

#include "features.h"
#include "page_view.h"
#include "text.h"

/* The fixed unit features, in schema order: X(id, name, kind). */
/* Units a page may have: every unit carries its fixed features and its
 * nonzero columns (about 1 KB at most), so a page of a million one-word
 * paragraphs would take a GB and tens of seconds; the largest real page
 * of the shared sets has 15,266 (a Python changelog index). */
#define TBK_UNITS_MAX 100000

#define TBK_UX_FIXED(X)                                      \
  X(CHARS, "u.chars", "count")                               \
  X(WORDS, "u.words", "count")                               \
  X(MEAN_WORD_LEN, "u.mean_word_len", "real")                \
  X(SENTENCES, "u.sentences", "count")                       \
  X(WORDS_PER_SENT, "u.words_per_sentence", "real")          \
  X(ENDS_PUNCT, "u.ends_with_terminal", "binary")            \
  X(STARTS_UPPER, "u.starts_upper", "binary")                \
  X(COMMAS, "u.commas", "count")                             \
  X(PUNCT_RATIO, "u.punct_ratio", "ratio")                   \
  X(SEP_RATIO, "u.separator_ratio", "ratio")                 \
  X(DIGIT_RATIO, "u.digit_ratio", "ratio")                   \
  X(UPPER_RATIO, "u.upper_ratio", "ratio")                   \
  X(STOP_RATIO, "u.stopword_ratio", "ratio")                 \
  X(DENSITY, "u.text_density", "real")                       \
  X(COPYRIGHT, "u.copyright", "binary")                      \
  X(LINK_RATIO, "u.link_char_ratio", "ratio")                \
  X(ANCHORS, "u.anchors", "count")                           \
  X(RUNS, "u.text_runs", "count")                            \
  X(DEPTH, "u.depth", "position")                            \
  X(DEPTH_REL, "u.depth_rel", "position")                    \
  X(OFFSET_REL, "u.text_offset_rel", "position")             \
  X(INDEX_REL, "u.index_rel", "position")                    \
  X(PAGE_UNITS, "page.units", "count")                       \
  X(PAGE_WORDS, "page.words", "count")                       \
  X(PAGE_LINK_RATIO, "page.link_char_ratio", "ratio")        \
  X(CHARS_REL_MAX, "u.chars_rel_max", "ratio")               \
  X(CHARS_RANK, "u.chars_rank", "count")                     \
  X(PLAIN_SHARE, "u.plain_char_share", "ratio")              \
  X(BEST2_IN, "region.in_second_best", "binary")             \
  X(BEST_LONG_SHARE, "region.best_long_unit_share", "ratio") \
  X(BEST_IN, "region.in_best", "binary")                     \
  X(BEST_UP, "region.steps_up_to_best", "count")             \
  X(BEST_DOWN, "region.steps_down_to_best", "count")         \
  X(BEST_SHARE, "region.best_char_share", "ratio")           \
  X(BEST_BEFORE, "region.before_best", "binary")             \
  X(BEST_AFTER, "region.after_best", "binary")               \
  X(PARENT_SCORE, "region.parent_score_rel", "ratio")        \
  X(SPAN_IN, "region.in_span", "binary")                     \
  X(SPAN_DIST, "region.span_distance", "count")              \
  X(SPAN_SHARE, "region.span_char_share", "ratio")           \
  X(TMPL_P, "tmpl.p", "ratio")                               \
  X(TMPL_IN_BLOCK, "tmpl.in_block", "ratio")                 \
  X(TMPL_OUTER_P, "tmpl.outer_p", "ratio")                   \
  X(TITLE_SHARE, "title.unit_share", "ratio")                \
  X(TITLE_COVER, "title.cover", "ratio")                     \
  X(HEADING, "u.heading", "binary")                          \
  X(HEADING_BEFORE, "u.heading_before", "binary")            \
  X(HEADING_THEN_TEXT, "u.heading_then_text", "binary")      \
  X(FIRST_H1, "u.first_h1", "binary")                        \
  X(PREV2_WORDS, "nb.prev2_words", "count")                  \
  X(PREV_WORDS, "nb.prev_words", "count")                    \
  X(NEXT_WORDS, "nb.next_words", "count")                    \
  X(NEXT2_WORDS, "nb.next2_words", "count")                  \
  X(PREV2_LINK, "nb.prev2_link_ratio", "ratio")              \
  X(PREV_LINK, "nb.prev_link_ratio", "ratio")                \
  X(NEXT_LINK, "nb.next_link_ratio", "ratio")                \
  X(NEXT2_LINK, "nb.next2_link_ratio", "ratio")              \
  X(PREV_DENSITY, "nb.prev_density", "real")                 \
  X(NEXT_DENSITY, "nb.next_density", "real")                 \
  X(PREV_TMPL, "nb.prev_tmpl_p", "ratio")                    \
  X(NEXT_TMPL, "nb.next_tmpl_p", "ratio")                    \
  X(PREV_SAME_PARENT, "nb.prev_same_parent", "binary")       \
  X(NEXT_SAME_PARENT, "nb.next_same_parent", "binary")       \
  X(WIN_WORDS, "nb.window_words", "count")                   \
  X(WIN_LINK, "nb.window_link_ratio", "ratio")               \
  X(SIB_UNITS, "nb.parent_units", "count")                   \
  X(SIB_WORDS, "nb.parent_words", "count")                   \
  X(SIB_LINK, "nb.parent_link_ratio", "ratio")

enum {
#define TBK_UX_ENUM(id, name, kind) UX_##id,
  TBK_UX_FIXED(TBK_UX_ENUM)
#undef TBK_UX_ENUM
      UX_FIXED_COUNT
};

/* Ancestor context flags ("anc.<name>": the unit's line element or one of
 * its ancestors is such an element). */
// clang-format off
#define TBK_UX_ANC(X)                                                \
  X(A, "a") X(LI, "li") X(LIST, "list") X(TABLE, "table")            \
  X(NAV, "nav") X(HEADER, "header") X(FOOTER, "footer")              \
  X(ASIDE, "aside") X(FORM, "form") X(ARTICLE, "article")            \
  X(MAIN, "main") X(SECTION, "section") X(FIGURE, "figure")          \
  X(BLOCKQUOTE, "blockquote") X(HEADING, "heading")                  \
  X(CONTROL, "control") X(STRONG, "strong") X(SMALL, "small")        \
  X(TIME, "time") X(ADDRESS, "address") X(PRE, "pre")                \
  X(CENTER, "center") X(DL, "dl") X(CITE, "cite")
// clang-format on

enum {
#define TBK_UX_ANC_ENUM(id, name) UA_##id,
  TBK_UX_ANC(TBK_UX_ANC_ENUM)
#undef TBK_UX_ANC_ENUM
      UA_COUNT
};

/* class/id words of the units' attribute features: the template features'
 * vocabulary first (same order), then words that tell page-specific
 * boilerplate (captions, bylines, teasers, sharing) from the article. */
#define UX_VOCAB_MAX 128
/* Units of more words than this fold them through a bitmap of the word
 * buckets, when there are fewer than UX_FOLD_MAX_DIMS buckets (a table of
 * 4 bytes a bucket); fewer words are sorted in place. */
#define UX_FOLD_SORT 16
/* Slots of the table of the title's tokens (at most 64: half full). */
#define UX_TITLE_SLOTS 128
/* Function-word lists a page's language is chosen among (a bit each of a
 * 16-bit mask; the text layer has ten), and the tokens the chosen one must
 * hold. */
#define TBK_UNITS_MAX_LANGS 15
#define TBK_UNITS_LANG_MIN_HITS 5
#define UX_FOLD_MAX_DIMS (1u << 16)

/* What the units' features need per element of the page. */
typedef struct tbk_unit_node {
  uint32_t line;          /* line element of the element's text */
  uint32_t anc_flags;     /* UA_* of the element and its ancestors */
  uint32_t chars, anchor; /* visible and linked characters below */
  uint32_t units, words;  /* units and words below */
  double score;           /* Readability score */
  /* The content rules' memo of the element's class and id, 2 bits a list
   * of names (content_rules.c): 0 not read yet, 1 not named so, 2 named
   * so. Scratch the rules write through a const tbk_units. */
  uint16_t rule_names;
  uint32_t shape; /* content_records.c's memo of its tag and class, 0 not read yet */
} tbk_unit_node;

/* An element on the path of the last unit tbk_units_paths wrote. */
typedef struct tbk_path_step {
  uint32_t node;
  size_t len; /* bytes of that unit's path through this element's step */
} tbk_path_step;

/* One leaf text unit: consecutive text runs that share their line element
 * (the nearest ancestor that breaks a visual line), trimmed. */
typedef struct tbk_unit_rec {
  uint32_t run_first, run_end; /* runs [run_first, run_end) of the page */
  uint32_t start, end;         /* trimmed byte range in the page text */
  uint32_t elem;               /* line element (node index) */
  uint32_t ordinal;            /* 1-based among units of the same element */
  uint32_t chars, words, anchor_chars;
  uint32_t anc_flags; /* UA_* of the line element, its ancestors and
                                  the inline elements of its runs */
  size_t path_off;    /* locator in tbk_units.paths */
  unsigned char md5[16];
} tbk_unit_rec;

/* The article body, the comment thread and the photo gallery the page's
 * markup declares (units_container.c). */
typedef struct tbk_units_body {
  unsigned char *in;      /* per unit: under an itemprop=articleBody element */
  unsigned char *thread;  /* per unit: after a comments heading, in its section */
  unsigned char *gallery; /* per unit: a gallery's caption or picture credit */
  /* per unit: after a line that only points away, in the next element;
   * the content stage's scratch (content.c), written through a const
   * tbk_units, 0 here */
  unsigned char *pointed;
  uint32_t h1;         /* the page's first <h1> element, TBK_NONE when none */
  size_t containers;   /* itemprop=articleBody elements of the page */
  size_t cap;          /* of in, thread, gallery and pointed (all owned) */
  unsigned char *memo; /* per node of the page: scratch of the thread's ancestor walk */
  size_t memo_cap;
} tbk_units_body;

struct tbk_units {
  tbk_feature_options opt;
  uint32_t vhash[UX_VOCAB_MAX]; /* FNV-1a 32 of ux_vocab_all's words */
  tbk_tokenizer *tok;           /* owned */
  int fingerprints;
  /* schema */
  size_t dim;
  char **names; /* owned array; strings in name_buf */
  tbk_buf name_buf;
  const char **kinds; /* owned array of static strings */
  char schema_id[64];
  int tag_col[TBK_TAG_COUNT]; /* column of line.tag.<t>, -1 = line.tag.other */
  size_t tag_other, anc_col, attr_self, attr_anc, attr_width;

  /* results of the last page (owned) */
  tbk_unit_rec *u;
  size_t n, cap;
  tbk_buf paths; /* built on demand: see tbk_units_paths */
  int paths_ready;
  double *fixed;
  size_t cap_fixed; /* n x UX_FIXED_COUNT: the fixed features */
  /* Past the fixed features every column is binary and most are 0 on a
   * unit: each unit keeps only its nonzero ones (ascending), so a page of
   * 12,723 units holds 68 doubles a unit, not 286, and scoring skips the
   * zeros (a dense row is made on demand by tbk_units_values). */
  uint32_t *sp_col;
  size_t n_sp, cap_sp;
  size_t *sp_off;
  size_t cap_spoff; /* per unit + 1 */
  size_t sp_rows;   /* units whose sp_off range is set */
  size_t sp_max;    /* sparse columns a unit may have */
  double *ones;     /* sp_max 1.0s: every sparse value */
  double *row;      /* dim doubles: tbk_units_values' row */
  size_t row_unit;  /* the unit in row, SIZE_MAX: none */
  size_t *w_off;
  size_t cap_woff;
  uint32_t *w_idx, *w_cnt;
  size_t n_w, cap_w, cap_wcnt;
  char title[512]; /* the page's <title>, normalized */
  /* per function-word list of the text layer: the last page's tokens in
   * it (tbk_units_language) */
  uint32_t lang_hits[TBK_UNITS_MAX_LANGS];
  tbk_units_body body; /* of the last page (tbk_units_page) */

  /* scratch (owned) */
  tbk_unit_node *nd;
  size_t cap_nd; /* per node of the page */
  struct tbk_path_step *path_stk;
  size_t cap_path_stk; /* see tbk_units_paths */
  uint64_t *self_bits;
  size_t cap_bits; /* bit rows x words */
  uint64_t *anc_bits;
  size_t cap_anc;
  uint32_t *need;
  size_t cap_need; /* per node: its bit row + 1, 0 =
                                             its bits are never read */
  double *scratch;
  size_t cap_scratch; /* per unit, 3 arrays */
  uint64_t *title_h;
  size_t n_title;                      /* up to 64 distinct */
  uint64_t title_slot[UX_TITLE_SLOTS]; /* title_h by hash ... */
  uint8_t title_k[UX_TITLE_SLOTS];     /* ... and its index + 1, 0 = empty */
  uint32_t *sort_tmp;
  size_t cap_sort_tmp; /* a long unit's word indices */
  /* fold_bitmap's table, bitmap and summary of the word buckets (zero
   * between units; NULL for word_dims of UX_FOLD_MAX_DIMS and more) */
  uint32_t *fold_cnt;
  uint64_t *fold_bits, *fold_sum;
  size_t n_fold_sum;
  struct unit_word *voc;
  size_t cap_voc; /* per word of the template
                                             features' page vocabulary */
};

/* Segment the page into units (no features): the shared first step of
 * tbk_units_page and the gold labeller. */
tbk_status tbk_units_segment(struct tbk_units *ux, const tbk_page *page, tbk_error *err);
/* The units' locators (tbk_unit_rec.path_off into paths) of the page they
 * were segmented from, built at the first call after segmentation: only
 * the JSONL rendering and tbk_units_get read them, the text rendering
 * never does. 0 ok, -1 out of memory. */
int tbk_units_paths(const struct tbk_units *ux, const tbk_page *page);
/* The extractor: schema, class/id tokenizer and per-page scratch; one per
 * thread. Uses o->attr_dims and o->word_dims (bigrams are not supported);
 * o = NULL: the units' defaults, TBK_UNITS_WORD_DIMS word buckets and
 * TBK_UNITS_ATTR_DIMS (schema.h) hashed class/id buckets per scope
 * (measured as accurate as 2^18 and 128, EVALUATION.md, for a smaller,
 * faster model). */
#define TBK_UNITS_WORD_DIMS 16384
tbk_status tbk_units_new(const tbk_feature_options *o, tbk_units **out, tbk_error *err);
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
tbk_status tbk_units_page(tbk_units *ux, const tbk_page *page, const double *block_p, tbk_error *err);
/* Unit i's dense vector: tbk_units_dim doubles, made in a row the
 * extractor keeps, borrowed until the next call of this function or
 * tbk_units_page (tests and tools; scoring reads fixed + sparse). */
const double *tbk_units_values(const tbk_units *ux, size_t i);
/* Unit i's UX_FIXED_COUNT fixed features (the start of its dense vector),
 * borrowed until the next tbk_units_page. Inline, as the content
 * decision reads them unit by unit. */
static inline const double *tbk_units_fixed(const tbk_units *ux, size_t i) {
  return i < ux->n ? ux->fixed + i * UX_FIXED_COUNT : NULL;
}
/* The columns of unit i past the UX_FIXED_COUNT fixed features that are
 * nonzero (all binary), ascending: with the fixed features, every nonzero
 * value of tbk_units_values' row. vals (may be NULL) gets their values,
 * all 1. */
size_t tbk_units_sparse(const tbk_units *ux, size_t i, const uint32_t **cols);
size_t tbk_units_sparse_values(const tbk_units *ux, size_t i, const uint32_t **cols, const double **vals);
/* Whether column col (past the fixed features) of unit i is 1. Searched
 * from the end: the content decision asks for an ancestor class/id word,
 * the last scope of the list, past which a unit has few columns. */
static inline int tbk_units_has_col(const tbk_units *ux, size_t i, size_t col) {
  if (i >= ux->n || i >= ux->sp_rows) return 0;
  const uint32_t *cols = ux->sp_col + ux->sp_off[i];
  size_t k = ux->sp_off[i + 1] - ux->sp_off[i];
  while (k && cols[k - 1] > col) k--;
  return k && cols[k - 1] == col;
}
size_t tbk_units_words(const tbk_units *ux, size_t i, const uint32_t **idx, const uint32_t **cnt);
/* Append unit i as a svmlight line (words = 0) or its words line (1), in
 * the format of tbk_features_format. 0 ok, -1 nomem/bad unit. */
int tbk_units_format(const tbk_units *ux, size_t i, int label, int words, tbk_buf *out);
/* The page's <title>, normalized ("" when none), of the last page. */
const char *tbk_units_title(const tbk_units *ux);
/* The last page's language: the function-word list of the text layer
 * (tbk_stop_codes) holding the most of its units' tokens, or -1 when none
 * holds TBK_UNITS_LANG_MIN_HITS (a page of a few words, or in a language
 * without a list). */
int tbk_units_language(const tbk_units *ux);

/* The last page's units, rows, locators and per-node statistics given up
 * by a caller done with the page: the extractor then holds no page's units
 * (tbk_units_count 0), and arrays of TBK_KEEP_BYTES or more are freed, so
 * a big page does not leave them to the parse of the next. */
void tbk_units_drop_page(struct tbk_units *ux);

/* tbk_units_page, reusing the tokens of the page that fx (NULL: none) has
 * just computed the template features of (tbk_predict_units): the units
 * then tokenize only where the template features' pieces cut a word. */
tbk_status tbk_units_page_with(struct tbk_units *ux, const tbk_page *page, const double *block_p,
                               const tbk_features *fx, tbk_error *err);

/* ux->body for the page ux was just segmented from: which units are under
 * an itemprop=articleBody element (units_container.c). */
tbk_status tbk_units_body_markup(struct tbk_units *ux, const tbk_page *page, tbk_error *err);
void tbk_units_body_free(struct tbk_units *ux);
#endif
