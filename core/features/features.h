/* Internal layout of the feature extractor: the schema (fixed features
 * first, then the generated groups), and the per-page scratch the
 * extraction reuses so a page costs no allocation once buffers have grown.
 * See features.c for the extraction, features_schema.c for the names and
 * features_attr.c for class/id/role tokens. */
#ifndef TBK_FEATURES_H
#define TBK_FEATURES_H
#include <stdint.h>

#include "page_view.h"
#include "schema.h"
#include "text.h"

/* Feature extraction for the blocks of one page (stage 2). Training and
 * prediction both call this, so they can never disagree about a vector.
 * Its options, tbk_feature_options, are in schema.h (core/base). */

/* Opaque extractor: the schema plus per-page scratch; one per thread. */
typedef struct tbk_features tbk_features;
/* Errors: TBK_ERR_ARG (word_dims 0, dims too large), TBK_ERR_NOMEM. */
tbk_status tbk_features_new(const tbk_feature_options *o, tbk_features **out, tbk_error *err);
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
tbk_status tbk_features_page(tbk_features *fx, const tbk_page *page, tbk_error *err);
/* The last page's rows (fixed features, sparse columns, words lines)
 * given up by a caller done with them that goes on with the page (the
 * predictor makes its units after scoring the blocks): the extractor then
 * holds no page's rows (tbk_features_blocks 0), and rows of
 * TBK_KEEP_BYTES or more are freed. */
void tbk_features_drop_rows(tbk_features *fx);
/* tbk_features_drop_rows, and the page's tokens, bounds and words (what
 * tbk_units_page_with reads) given up the same way: for a caller done
 * with the page. */
void tbk_features_drop_page(tbk_features *fx);
/* Number of blocks of the last page computed. */
size_t tbk_features_blocks(const tbk_features *fx);
/* Block i's dense vector: tbk_features_dim doubles, made in a row the
 * extractor keeps, borrowed until the next call of this function or
 * tbk_features_page (NULL when out of range). */
const double *tbk_features_values(const tbk_features *fx, size_t block);
/* Block i's FX_FIXED_COUNT fixed features (the start of its dense
 * vector), borrowed until the next tbk_features_page. */
const double *tbk_features_fixed(const tbk_features *fx, size_t block);
/* The columns of block i past the FX_FIXED_COUNT fixed features that are
 * nonzero, ascending, and their values in *vals (may be NULL): with the
 * fixed features, every nonzero value of tbk_features_values' row. */
size_t tbk_features_sparse(const tbk_features *fx, size_t block, const uint32_t **cols);
size_t tbk_features_sparse_values(const tbk_features *fx, size_t block, const uint32_t **cols, const double **vals);
/* Block i's hashed words: n pairs (index in [1, word_dims], count), by
 * ascending index, borrowed like the values. */
size_t tbk_features_words(const tbk_features *fx, size_t block, const uint32_t **idx, const uint32_t **cnt);
/* Append block i as a LIBLINEAR/svmlight line "LABEL idx:val ..." (1-based
 * ascending indices, zeros omitted, C-locale %.9g) and "\n"; words=1 appends
 * the words line "LABEL idx:count ..." instead. 0 ok, -1 nomem/bad block. */
int tbk_features_format(const tbk_features *fx, size_t block, int label, int words, tbk_buf *out);

/* The fixed features, in schema order: X(id, name, kind). */
#define TBK_FX_FIXED(X)                                       \
  X(TEXT_CHARS, "text.chars", "count")                        \
  X(TEXT_WORDS, "text.words", "count")                        \
  X(TEXT_UNIQUE, "text.unique_words", "count")                \
  X(TEXT_UNIQUE_RATIO, "text.unique_ratio", "ratio")          \
  X(TEXT_MEAN_WORD_LEN, "text.mean_word_len", "real")         \
  X(TEXT_SHORT_RATIO, "text.short_word_ratio", "ratio")       \
  X(TEXT_SENTENCES, "text.sentences", "count")                \
  X(TEXT_WORDS_PER_SENT, "text.words_per_sentence", "real")   \
  X(TEXT_PUNCT, "text.punct", "count")                        \
  X(TEXT_PUNCT_RATIO, "text.punct_ratio", "ratio")            \
  X(TEXT_DIGIT_RATIO, "text.digit_ratio", "ratio")            \
  X(TEXT_UPPER_RATIO, "text.upper_ratio", "ratio")            \
  X(TEXT_CAP_RATIO, "text.cap_word_ratio", "ratio")           \
  X(TEXT_HEADING_CHARS, "text.heading_chars", "count")        \
  X(TEXT_HEADING_RATIO, "text.heading_ratio", "ratio")        \
  X(TEXT_DENSITY, "text.density", "real")                     \
  X(LINK_ANCHOR_WORDS, "link.anchor_words", "count")          \
  X(LINK_DENSITY, "link.density", "ratio")                    \
  X(LINK_CHAR_DENSITY, "link.char_density", "ratio")          \
  X(LINK_WORDS_PER_ANCHOR, "link.words_per_anchor", "real")   \
  X(MARKUP_ELEMENTS, "markup.elements", "count")              \
  X(MARKUP_DISTINCT, "markup.distinct_tags", "count")         \
  X(MARKUP_FORMAT, "markup.format_tags", "count")             \
  X(MARKUP_TAG_TEXT, "markup.tag_text_ratio", "ratio")        \
  X(MARKUP_TEXT_RUNS, "markup.text_runs", "count")            \
  X(MARKUP_CHILDREN, "markup.child_elements", "count")        \
  X(PAGE_WORDS, "page.words", "count")                        \
  X(PAGE_ELEMENTS, "page.elements", "count")                  \
  X(PAGE_WORD_SHARE, "page.word_share", "ratio")              \
  X(PAGE_CHAR_SHARE, "page.char_share", "ratio")              \
  X(PAGE_TAG_SHARE, "page.tag_share", "ratio")                \
  X(PAGE_LINK_SHARE, "page.link_share", "ratio")              \
  X(PAGE_KL, "page.kl_divergence", "real")                    \
  X(POS_LINE, "pos.line", "position")                         \
  X(POS_LINE_REL, "pos.line_rel", "position")                 \
  X(POS_OFFSET_REL, "pos.text_offset_rel", "position")        \
  X(POS_END_REL, "pos.text_end_rel", "position")              \
  X(POS_DEPTH, "pos.depth", "position")                       \
  X(POS_DEPTH_REL, "pos.depth_rel", "position")               \
  X(POS_SIB_LEFT, "pos.sibling_index", "position")            \
  X(POS_SIB_RIGHT, "pos.sibling_index_right", "position")     \
  X(POS_SIBLINGS, "pos.siblings", "count")                    \
  X(POS_BLOCK_INDEX, "pos.block_index", "position")           \
  X(POS_BLOCK_REL, "pos.block_index_rel", "position")         \
  X(POS_BLOCKS, "pos.blocks", "count")                        \
  X(POS_HAS_CAND_ANC, "pos.has_candidate_ancestor", "binary") \
  X(POS_CAND_ANCESTORS, "pos.candidate_ancestors", "count")   \
  X(POS_CAND_DESC, "pos.candidate_descendants", "count")      \
  X(POS_CAND_CHILDREN, "pos.candidate_children", "count")     \
  X(NB_PREV_WORDS, "nb.prev_words", "count")                  \
  X(NB_PREV_LINK, "nb.prev_link_density", "ratio")            \
  X(NB_NEXT_WORDS, "nb.next_words", "count")                  \
  X(NB_NEXT_LINK, "nb.next_link_density", "ratio")

enum {
#define TBK_FX_ENUM(id, name, kind) FX_##id,
  TBK_FX_FIXED(TBK_FX_ENUM)
#undef TBK_FX_ENUM
      FX_FIXED_COUNT
};

/* Additive smoothing of the rest-of-page word distribution in the KL
 * divergence (see SCHEMA.md). */
#define TBK_FX_KL_ALPHA 0.1
/* boilerpipe's wrap width for text density. */
#define TBK_FX_WRAP 80

/* Class/id tokens that generalise across sites (Dragnet), and ARIA roles. */
extern const char *const tbk_fx_attr_vocab[];
extern const size_t tbk_fx_attr_vocab_n;
extern const char *const tbk_fx_roles[];
extern const size_t tbk_fx_roles_n;

/* One piece of the page text between two consecutive boundaries; the
 * prefix sums over pieces give any block's text statistics in O(1). */
typedef struct fx_textstats {
  uint32_t chars, nonspace, words, short_words, word_cps, anchor_words, anchor_chars, heading_chars, punct, digits,
      letters, upper, cap_words, sentences;
  /* the wide code points among chars (all of them non-space), anchor_chars
   * and heading_chars: lengths are tbk_length_of(count, wide) */
  uint32_t wide, anchor_wide, heading_wide;
} fx_textstats;

/* A block open at a node while tag_pass walks the page. */
typedef struct fx_open {
  uint32_t block;
  uint64_t tags[2];               /* the tags of its nodes seen so far (bits) */
  uint32_t counts[TBK_TAG_COUNT]; /* the page's tag counts when it opened */
} fx_open;

struct tbk_features {
  tbk_feature_options opt;
  tbk_tokenizer *tok; /* owned */
  /* schema */
  size_t dim;
  char **names;       /* owned array; strings owned by name_buf */
  tbk_buf name_buf;   /* owned: NUL-separated names */
  const char **kinds; /* owned array of static strings */
  char schema_id[64];
  int tag_col[TBK_TAG_COUNT];      /* column of tag.<t>, -1 when untracked */
  int blocktag_col[TBK_TAG_COUNT]; /* column of block.tag.<t>, -1 if none */
  int fmt_tag[TBK_TAG_COUNT];      /* formatting tag (b strong em ...) */
  size_t attr_self, attr_anc;      /* first column of each attribute group */
  size_t attr_width;               /* attr_dims + vocab + roles */
  uint32_t vocab_hash[64];         /* FNV-1a 32 of each vocabulary word */

  /* results of the last page (owned) */
  size_t n_blocks;
  double *values; /* n_blocks x FX_FIXED_COUNT: the fixed features */
  size_t cap_values;
  /* Past the fixed features (tag counts, block tag, class/id bits) most
   * columns are 0 on a block: each block keeps only its nonzero ones
   * (ascending) with their values, so scoring skips the zeros and a page
   * of ten thousand blocks holds 53 doubles a block, not 489 (a dense
   * row is made on demand by tbk_features_values). */
  uint32_t *sp_col;
  size_t n_sp, cap_sp;
  double *sp_val; /* the value of each sp_col entry */
  size_t *sp_off;
  size_t cap_spoff;                  /* per block + 1 */
  size_t sp_rows;                    /* blocks whose sp_off range is set */
  double *row;                       /* dim doubles: tbk_features_values' row */
  size_t row_block;                  /* the block in row, SIZE_MAX: none */
  uint8_t tag_by_col[TBK_TAG_COUNT]; /* the counted tags in column order */
  uint8_t tag_rank[TBK_TAG_COUNT];   /* a tag's index there, 0xFF: not counted */
  size_t n_tag_cols;
  size_t *w_off; /* n_blocks + 1 */
  uint32_t *w_idx, *w_cnt;
  size_t n_w, cap_w, cap_woff;

  /* scratch (owned) */
  uint32_t *bounds;
  size_t n_bounds, cap_bounds;
  uint32_t *state_pos;
  uint8_t *state_val;
  size_t n_states, cap_states;
  /* The blocks' text bounds (and 0 and the text's end), sorted: the
   * statistics of the text before each (pref) and its first token there. */
  uint32_t *bbounds;
  size_t n_bbounds, cap_bbounds;
  fx_textstats *pref;
  size_t cap_pref;
  uint32_t *piece_tok;
  size_t cap_piece_tok;
  uint32_t *tok_word, *tok_cp; /* page tokens: word id, length */
  uint32_t *tok_pos;           /* ... and start in the page text */
  size_t n_tok, cap_tok;
  const char *tok_text; /* the text they are of, tok_len bytes */
  size_t tok_len;       /* (the content stage reuses them) */
  /* The page's distinct words (by 64-bit hash) get dense ids, so the
   * per-block maps are small arrays instead of word_dims-sized ones. */
  uint64_t *voc_h64;
  uint32_t *voc_h32; /* (the content stage reads them) */
  size_t n_voc, cap_voc;
  uint32_t *voc_bucket, *voc_cnt, *voc_blk;
  size_t cap_voc_scratch;
  uint32_t *voc_slots;
  size_t n_voc_slots; /* word id + 1, 0 = empty */
  /* Word ids ranked by bucket, so a block's words line comes out sorted
   * from a bitmap over ranks instead of a sort per block. */
  uint32_t *voc_rank, *rank_id;
  size_t cap_rank;
  uint64_t *rank_bits;
  size_t cap_rank_bits;
  uint8_t *in_heading;
  size_t cap_nodes;
  fx_open *open;
  size_t cap_open; /* the blocks open (tag_pass) */
  /* The nonzero counts of counted tags in each block, in the order blocks
   * close: index in tag_by_col and count (block b's: tc_n[b] from tc_off[b]). */
  uint8_t *tc_k;
  uint32_t *tc_cnt;
  size_t n_tc, cap_tc;
  uint32_t *slot;
  size_t cap_slot; /* node -> attribute slot */
  uint64_t *bits;
  size_t cap_bits; /* slots x 2 x words */
  uint32_t *touched;
  size_t cap_touched; /* word ids seen in a block */
  uint64_t *pairs, *pairs_tmp;
  size_t cap_pairs, cap_pairs_tmp; /* bucket << 32 | count */
  uint32_t *cand_depth;
  size_t cap_cand;
  /* per-block statistics: the tags among its nodes (tag_pass), what the
   * neighbour features read */
  uint32_t *blk_anchors, *blk_format, *blk_words;
  size_t *tc_off;
  uint8_t *blk_distinct, *tc_n;
  double *blk_link;
  size_t cap_blk;
};

/* Build names, kinds and the schema id (features_schema.c). */
tbk_status tbk_fx_schema_build(tbk_features *fx, tbk_error *err);
void tbk_fx_schema_free(tbk_features *fx);

/* The schema builder the block and the unit extractor share: it appends
 * names to a name buffer and kinds to a kinds array, both the extractor's. */
typedef struct tbk_schema_builder {
  tbk_buf *name_buf;   /* NUL-separated names */
  const char ***kinds; /* static strings */
  size_t *dim;
  size_t *off, cap; /* owned: each name's offset while name_buf may move */
  int failed;       /* out of memory: reported by tbk_schema_finish */
} tbk_schema_builder;
/* Add the feature named by the format. */
void tbk_schema_add(tbk_schema_builder *b, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A class/id/role group: attr.SCOPE.hash.NNN (attr_dims of them), then
 * attr.SCOPE.word.W per vocabulary word, then attr.SCOPE.role.R. */
void tbk_schema_add_attrs(tbk_schema_builder *b, const char *scope, unsigned attr_dims, const char *const *vocab,
                          size_t nv);
/* Point *names (allocated here) into name_buf and write the id
 * "PREFIX:<16 hex>", a hash of every name and kind in order and of the
 * options line; frees the builder's offsets either way. */
tbk_status tbk_schema_finish(tbk_schema_builder *b, char ***names, const char *prefix, const char *options, char *id,
                             size_t id_size, tbk_error *err);

/* Set the attribute bits of one element: hashed class/id tokens
 * (attr_dims), vocabulary hits, ARIA roles (features_attr.c). */
void tbk_fx_attr_bits(const tbk_features *fx, const tbk_node *nd, uint64_t *bits);
/* The same with another vocabulary (nv words and their FNV-1a 32 hashes):
 * bits are attr_dims hashed, nv vocabulary, then the roles. */
void tbk_fx_attr_bits_vocab(uint32_t attr_dims, const char *const *vocab, const uint32_t *vhash, size_t nv,
                            const tbk_node *nd, uint64_t *bits);

#endif
