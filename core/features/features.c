/* Feature vectors of the candidate blocks of a page (Kołcz & Yih, section 3
 * step 4): the block's text in isolation, its markup, its class/id/role
 * tokens, how it differs from the rest of the page, and where it sits.
 *
 * Cost is linear in the page plus the blocks' own words: the page text is
 * cut at every block boundary (and wherever the text enters or leaves a link
 * or heading) into pieces; each piece is scanned and tokenized once, and
 * prefix sums over pieces give every block's text statistics in O(1). Tag
 * counts come from running per-tag counters snapshotted when a block opens
 * and compared when it closes, and class/id bits are computed once per element on
 * the blocks' ancestor chains. Only the per-block word maps (unique words,
 * KL divergence, words line, text density) walk each block's tokens, so
 * nested blocks cost their own words once per nesting level. */
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "features.h"
#include "measure.h"
#include "sizes.h"
#include "text_internal.h"
#include "util.h"

static locale_t cls_locale;
static pthread_once_t cls_once = PTHREAD_ONCE_INIT;
static void cls_init(void) { cls_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0); }
static pthread_once_t ascii_once = PTHREAD_ONCE_INIT;
static void ascii_init(void);

tbk_status tbk_features_new(const tbk_feature_options *o, tbk_features **out, tbk_error *err) {
  *out = NULL;
  tbk_feature_options defaults;
  if (!o) {
    tbk_feature_options_init(&defaults);
    o = &defaults;
  }
  if (o->word_dims < 1 || o->word_dims > TBK_MAX_WORD_DIMS)
    return tbk_fail(err, TBK_ERR_ARG, "word-dims must be in 1..%u", TBK_MAX_WORD_DIMS);
  if (o->attr_dims > TBK_MAX_ATTR_DIMS)
    return tbk_fail(err, TBK_ERR_ARG, "attr-dims must be in 0..%u", TBK_MAX_ATTR_DIMS);
  pthread_once(&cls_once, cls_init);
  pthread_once(&ascii_once, ascii_init);
  tbk_features *fx = calloc(1, sizeof *fx);
  if (!fx) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  fx->opt = *o;
  fx->opt.bigrams = o->bigrams ? 1 : 0;
  tbk_status st = tbk_tokenizer_new(&fx->tok, err);
  if (st == TBK_OK) st = tbk_fx_schema_build(fx, err);
  memset(fx->tag_rank, 0xFF, sizeof fx->tag_rank);
  if (st == TBK_OK) /* counted tags by ascending column */
    for (size_t col = 0; col < fx->dim; col++)
      for (int t = 0; t < TBK_TAG_COUNT; t++)
        if (fx->tag_col[t] == (int)col) {
          fx->tag_rank[t] = (uint8_t)fx->n_tag_cols;
          fx->tag_by_col[fx->n_tag_cols++] = (uint8_t)t;
        }
  fx->row_block = SIZE_MAX;
  if (st == TBK_OK && !(fx->row = malloc((fx->dim ? fx->dim : 1) * sizeof *fx->row)))
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (st == TBK_OK) *out = fx;
  else tbk_features_free(fx);
  return st;
}

void tbk_features_free(tbk_features *fx) {
  if (!fx) return;
  tbk_tokenizer_free(fx->tok);
  tbk_fx_schema_free(fx);
  free(fx->values);
  free(fx->sp_col);
  free(fx->sp_val);
  free(fx->row);
  free(fx->sp_off);
  free(fx->w_off);
  free(fx->w_idx);
  free(fx->w_cnt);
  free(fx->bounds);
  free(fx->state_pos);
  free(fx->state_val);
  free(fx->bbounds);
  free(fx->pref);
  free(fx->piece_tok);
  free(fx->tok_word);
  free(fx->tok_cp);
  free(fx->tok_pos);
  free(fx->voc_h64);
  free(fx->voc_h32);
  free(fx->voc_bucket);
  free(fx->voc_cnt);
  free(fx->voc_blk);
  free(fx->voc_slots);
  free(fx->voc_rank);
  free(fx->rank_id);
  free(fx->rank_bits);
  free(fx->in_heading);
  free(fx->open);
  free(fx->tc_k);
  free(fx->tc_cnt);
  free(fx->slot);
  free(fx->bits);
  free(fx->touched);
  free(fx->pairs);
  free(fx->pairs_tmp);
  free(fx->cand_depth);
  free(fx->blk_anchors);
  free(fx->blk_format);
  free(fx->tc_off);
  free(fx->blk_words);
  free(fx->blk_distinct);
  free(fx->tc_n);
  free(fx->blk_link);
  free(fx);
}

/* ------------------------------------------------------------ characters */

static int is_terminal(uint32_t c) {
  return c == '.' || c == '!' || c == '?' || c == 0x2026 || c == 0x3002 || c == 0xFF01 || c == 0xFF1F || c == 0xFF0E;
}
/* Scripts without spaces end a sentence at the mark itself. */
static int is_wide_terminal(uint32_t c) { return c == 0x3002 || c == 0xFF01 || c == 0xFF1F || c == 0xFF0E; }
static int is_closer(uint32_t c) {
  return c == ')' || c == ']' || c == '}' || c == '"' || c == '\'' || c == 0xBB || c == 0x2019 || c == 0x201D ||
         c == 0x300D || c == 0x300F || c == 0xFF09;
}

/* ASCII punctuation and symbols, plus the Unicode punctuation blocks
 * (general, CJK, full-width); a fixed list, so no platform changes it. */
static int is_punct(uint32_t c) {
  if (c < 0x80)
    return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
  return c == 0xA1 || c == 0xA7 || c == 0xAB || c == 0xB6 || c == 0xB7 || c == 0xBB || c == 0xBF ||
         (c >= 0x2010 && c <= 0x2027) || (c >= 0x2030 && c <= 0x205E) || (c >= 0x3001 && c <= 0x3003) ||
         (c >= 0x3008 && c <= 0x3011) || (c >= 0x3014 && c <= 0x301F) || (c >= 0xFF01 && c <= 0xFF0F) ||
         (c >= 0xFF1A && c <= 0xFF20) || (c >= 0xFF3B && c <= 0xFF40) || (c >= 0xFF5B && c <= 0xFF65);
}

static int is_digit(uint32_t c) {
  return (c >= '0' && c <= '9') || (c >= 0xFF10 && c <= 0xFF19) || (c >= 0x660 && c <= 0x669) ||
         (c >= 0x6F0 && c <= 0x6F9) || (c >= 0x966 && c <= 0x96F);
}

static int is_mark(uint32_t c) {
  return (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) ||
         (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F);
}

static void add_stats(fx_textstats *d, const fx_textstats *a) {
  d->chars += a->chars;
  d->nonspace += a->nonspace;
  d->words += a->words;
  d->short_words += a->short_words;
  d->word_cps += a->word_cps;
  d->anchor_words += a->anchor_words;
  d->anchor_chars += a->anchor_chars;
  d->heading_chars += a->heading_chars;
  d->punct += a->punct;
  d->wide += a->wide;
  d->anchor_wide += a->anchor_wide;
  d->heading_wide += a->heading_wide;
  d->digits += a->digits;
  d->letters += a->letters;
  d->upper += a->upper;
  d->cap_words += a->cap_words;
  d->sentences += a->sentences;
}

static fx_textstats diff_stats(const fx_textstats *b, const fx_textstats *a) {
  fx_textstats d;
  d.chars = b->chars - a->chars;
  d.nonspace = b->nonspace - a->nonspace;
  d.words = b->words - a->words;
  d.short_words = b->short_words - a->short_words;
  d.word_cps = b->word_cps - a->word_cps;
  d.anchor_words = b->anchor_words - a->anchor_words;
  d.anchor_chars = b->anchor_chars - a->anchor_chars;
  d.heading_chars = b->heading_chars - a->heading_chars;
  d.punct = b->punct - a->punct;
  d.wide = b->wide - a->wide;
  d.anchor_wide = b->anchor_wide - a->anchor_wide;
  d.heading_wide = b->heading_wide - a->heading_wide;
  d.digits = b->digits - a->digits;
  d.letters = b->letters - a->letters;
  d.upper = b->upper - a->upper;
  d.cap_words = b->cap_words - a->cap_words;
  d.sentences = b->sentences - a->sentences;
  return d;
}

/* Classes of ASCII characters, for the fast path of scan_piece. */
enum { C_PUNCT = 1, C_DIGIT = 2, C_UPPER = 4, C_LOWER = 8, C_TERM = 16, C_CLOSER = 32, C_WORD = 64 };
static unsigned char ascii_class[128];

/* scan_piece between two characters is in one of six states: pending (0
 * none, 1 after a terminal run, 2 after a wide terminal) * 2 + prev_word.
 * An ASCII character's counts and next state depend on that state and the
 * character alone, so they come from two tables filled by the character
 * loop's own rules (piece_rules): one addition of byte lanes and one
 * lookup per character. */
enum { PIECE_STATES = 6 };
enum { PL_SPACE, PL_PUNCT, PL_DIGIT, PL_LETTER, PL_UPPER, PL_CAP, PL_SENT };
#define PIECE_LANE(l) ((uint64_t)1 << (8 * (l)))
static uint64_t piece_inc[PIECE_STATES][128];
static unsigned char piece_next[PIECE_STATES][128];

/* The rules for an ASCII character c of class f, from the state
 * (*pending, *prev_word): what it counts, as lanes. */
static uint64_t piece_rules(unsigned c, unsigned f, int *pending, int *prev_word) {
  uint64_t inc = 0;
  if (*pending && !(f & C_TERM)) {
    if (*pending == 2 || c == ' ' || (f & C_CLOSER)) inc += PIECE_LANE(PL_SENT);
    *pending = 0;
  }
  if (c == ' ') {
    *prev_word = 0;
    return inc + PIECE_LANE(PL_SPACE);
  }
  if (f & C_TERM) *pending = *pending == 2 ? 2 : 1;
  if (f & C_PUNCT) inc += PIECE_LANE(PL_PUNCT);
  if (f & C_DIGIT) inc += PIECE_LANE(PL_DIGIT);
  if (f & (C_UPPER | C_LOWER)) inc += PIECE_LANE(PL_LETTER);
  if (f & C_UPPER) inc += PIECE_LANE(PL_UPPER) + (*prev_word ? 0 : PIECE_LANE(PL_CAP));
  *prev_word = (f & C_WORD) != 0;
  return inc;
}

static void ascii_init(void) {
  for (uint32_t c = 0; c < 128; c++) {
    unsigned f = 0;
    if (is_punct(c)) f |= C_PUNCT;
    if (is_digit(c)) f |= C_DIGIT | C_WORD;
    if (c >= 'A' && c <= 'Z') f |= C_UPPER | C_WORD;
    if (c >= 'a' && c <= 'z') f |= C_LOWER | C_WORD;
    if (c == '_') f |= C_WORD;
    if (is_terminal(c)) f |= C_TERM;
    if (is_closer(c)) f |= C_CLOSER;
    ascii_class[c] = (unsigned char)f;
  }
  for (int st = 0; st < PIECE_STATES; st++)
    for (unsigned c = 0; c < 128; c++) {
      int pending = st / 2, prev_word = st % 2;
      piece_inc[st][c] = piece_rules(c, ascii_class[c], &pending, &prev_word);
      piece_next[st][c] = (unsigned char)(pending * 2 + prev_word);
    }
}

static uint32_t piece_lane(uint64_t acc, int l) { return (uint32_t)(acc >> (8 * l) & 0xFF); }

/* Character statistics of one piece (valid UTF-8, spaces collapsed).
 * Counters live in locals: the text pointer may alias anything. */
static int scan_piece(const unsigned char *s, size_t n, int anchor, int heading, fx_textstats *st) {
  int ascii = 1;
  uint32_t chars = 0, spaces = 0, sentences = 0, punct = 0, digits = 0, letters = 0, upper = 0, cap_words = 0, wide = 0;
  unsigned state = 0;   /* see PIECE_STATES */
  uint64_t acc = 0;     /* lanes of the ASCII characters since the last flush */
  unsigned lanes_n = 0; /* ... and how many they are */
  for (size_t i = 0; i < n;) {
    uint64_t w8;
    if (i + 8 <= n && (memcpy(&w8, s + i, 8), !(w8 & 0x8080808080808080ULL))) {
      /* eight ASCII characters: one test for all of them */
      for (size_t q = i; q < i + 8; q++) {
        acc += piece_inc[state][s[q]];
        state = piece_next[state][s[q]];
      }
      i += 8;
      lanes_n += 8;
    } else if (s[i] < 0x80) {
      acc += piece_inc[state][s[i]];
      state = piece_next[state][s[i]];
      i++;
      lanes_n++;
    } else {
      chars++;
      ascii = 0;
      int pending = (int)(state / 2), prev_word = (int)(state % 2);
      size_t k = tbk_utf8_seq(s + i, n - i);
      uint32_t c = k ? tbk_utf8_decode(s + i, k) : 0xFFFD;
      i += k ? k : 1;
      wide += (uint32_t)tbk_cp_wide(c);
      int term = is_terminal(c);
      if (pending && !term) {
        if (pending == 2 || is_closer(c)) sentences++;
        pending = 0;
      }
      if (term) pending = is_wide_terminal(c) || pending == 2 ? 2 : 1;
      punct += is_punct(c) != 0;
      int digit = is_digit(c), letter = 0, up = 0;
      if (!digit && cls_locale) {
        letter = iswalpha_l((wint_t)c, cls_locale) != 0;
        up = letter && iswupper_l((wint_t)c, cls_locale) != 0;
      }
      digits += digit != 0;
      letters += letter;
      if (up) {
        upper++;
        cap_words += !prev_word;
      }
      prev_word = letter || digit || is_mark(c);
      state = (unsigned)(pending * 2 + prev_word);
      continue;
    }
    if (lanes_n >= 248) { /* a lane holds 255: flush before it could overflow */
      chars += lanes_n, spaces += piece_lane(acc, PL_SPACE), punct += piece_lane(acc, PL_PUNCT);
      digits += piece_lane(acc, PL_DIGIT), letters += piece_lane(acc, PL_LETTER);
      upper += piece_lane(acc, PL_UPPER), cap_words += piece_lane(acc, PL_CAP);
      sentences += piece_lane(acc, PL_SENT);
      acc = 0;
      lanes_n = 0;
    }
  }
  chars += lanes_n, spaces += piece_lane(acc, PL_SPACE), punct += piece_lane(acc, PL_PUNCT);
  digits += piece_lane(acc, PL_DIGIT), letters += piece_lane(acc, PL_LETTER);
  upper += piece_lane(acc, PL_UPPER), cap_words += piece_lane(acc, PL_CAP);
  sentences += piece_lane(acc, PL_SENT);
  if (state / 2) sentences++;
  st->chars += chars;
  st->nonspace += chars - spaces;
  if (anchor) st->anchor_chars += chars - spaces;
  if (heading) st->heading_chars += chars - spaces;
  st->wide += wide;
  if (anchor) st->anchor_wide += wide;
  if (heading) st->heading_wide += wide;
  st->sentences += sentences;
  st->punct += punct;
  st->digits += digits;
  st->letters += letters;
  st->upper += upper;
  st->cap_words += cap_words;
  return ascii;
}

/* ------------------------------------------------------------- tokens */

typedef struct tok_ctx {
  tbk_features *fx;
  fx_textstats *st;
  int anchor;
  int failed;
  uint32_t base; /* the piece's start in the page text */
} tok_ctx;

/* The 32-bit hash of an ASCII word folded as the tokenizer folds it
 * (tbk_hash_ascii_folded's). */
static unsigned char ascii_lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c; }
static uint32_t ascii_hash32(const unsigned char *s, size_t n) {
  uint32_t h = TBK_FNV32_INIT;
  for (size_t k = 0; k < n; k++) h = tbk_fnv32_step(h, ascii_lower(s[k]));
  return h;
}

/* Dense id of a word on this page (new ids for new words). A new word's
 * 32-bit hash is h32, or when word is not NULL that of the ASCII word
 * word[0..n): most tokens repeat a word the page has, which needs the
 * 64-bit hash alone. -1 nomem. */
static int64_t word_id(tbk_features *fx, uint64_t h, uint32_t h32, const unsigned char *word, size_t n) {
  if ((fx->n_voc + 1) * 2 > fx->n_voc_slots) { /* grow and rehash */
    size_t ns = fx->n_voc_slots ? fx->n_voc_slots * 2 : 1024;
    uint32_t *slots = calloc(ns, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < fx->n_voc; i++) {
      size_t j = (size_t)fx->voc_h64[i] & (ns - 1);
      while (slots[j]) j = (j + 1) & (ns - 1);
      slots[j] = (uint32_t)i + 1;
    }
    free(fx->voc_slots);
    fx->voc_slots = slots;
    fx->n_voc_slots = ns;
  }
  size_t j = (size_t)h & (fx->n_voc_slots - 1);
  for (; fx->voc_slots[j]; j = (j + 1) & (fx->n_voc_slots - 1))
    if (fx->voc_h64[fx->voc_slots[j] - 1] == h) return fx->voc_slots[j] - 1;
  if (fx->n_voc + 1 > fx->cap_voc &&
      TBK_GROW_ALL(&fx->cap_voc, fx->n_voc + 1, TBK_ARRAY(fx->voc_h64), TBK_ARRAY(fx->voc_h32)))
    return -1;
  if (fx->n_voc + 1 > fx->cap_voc_scratch &&
      TBK_GROW_ALL(&fx->cap_voc_scratch, fx->n_voc + 1, TBK_ARRAY(fx->voc_bucket), TBK_ARRAY(fx->voc_cnt),
                   TBK_ARRAY(fx->voc_blk)))
    return -1;
  if (word) h32 = ascii_hash32(word, n);
  size_t id = fx->n_voc++;
  fx->voc_h64[id] = h;
  fx->voc_h32[id] = h32;
  fx->voc_bucket[id] = h32 % fx->opt.word_dims + 1;
  fx->voc_cnt[id] = 0;
  fx->voc_blk[id] = 0;
  fx->voc_slots[j] = (uint32_t)id + 1;
  return (int64_t)id;
}

/* Keep one token of the page: its word (as word_id takes it), length and
 * start. The caller counts it in its piece's statistics. -1 nomem. */
static inline int push_token(tbk_features *fx, uint64_t h64, uint32_t h32, const unsigned char *word, size_t n,
                             uint32_t cps, uint32_t pos) {
  /* the capacity test first: the call is for the rare token that grows */
  if (fx->n_tok + 1 > fx->cap_tok &&
      TBK_GROW_ALL(&fx->cap_tok, fx->n_tok + 1, TBK_ARRAY(fx->tok_word), TBK_ARRAY(fx->tok_cp), TBK_ARRAY(fx->tok_pos)))
    return -1;
  int64_t id = word_id(fx, h64, h32, word, n);
  if (id < 0) return -1;
  size_t k = fx->n_tok++;
  fx->tok_word[k] = (uint32_t)id;
  fx->tok_cp[k] = cps;
  fx->tok_pos[k] = pos;
  fx->voc_cnt[id]++;
  return 0;
}

static void count_tokens(fx_textstats *st, int anchor, uint32_t words, uint32_t cps, uint32_t short_words) {
  st->words += words;
  st->word_cps += cps;
  st->short_words += short_words;
  if (anchor) st->anchor_words += words;
}

static int on_token(void *p, uint64_t h64, uint32_t h32, uint32_t cps, size_t at) {
  tok_ctx *c = p;
  if (push_token(c->fx, h64, h32, NULL, 0, cps, c->base + (uint32_t)at)) {
    c->failed = 1;
    return 1;
  }
  count_tokens(c->st, c->anchor, 1, cps, cps <= 3);
  return 0;
}

/* Tokens of a pure-ASCII piece hashed straight from the text (lower-cased
 * on the fly, no callback, no copy), where the tokenizer would fold each
 * into a buffer first; token ends are the tokenizer's own
 * (tbk_ascii_token_end). Most text is ASCII, and this is the hot loop:
 * its counts are kept in locals, and a word's 32-bit hash is made only
 * when the page first has it (word_id). */
static void tokenize_ascii(tok_ctx *c, const unsigned char *s, size_t n) {
  uint32_t words = 0, cps = 0, short_words = 0;
  for (size_t i = 0; i < n;) {
    if (!(ascii_class[s[i]] & C_WORD)) {
      i++;
      continue;
    }
    size_t j = tbk_ascii_token_end(s, i, n);
    uint64_t h64 = TBK_FNV64_INIT;
    for (size_t k = i; k < j; k++) h64 = tbk_fnv64_step(h64, ascii_lower(s[k]));
    if (push_token(c->fx, h64, 0, s + i, j - i, (uint32_t)(j - i), c->base + (uint32_t)i)) {
      c->failed = 1;
      break;
    }
    words++;
    cps += (uint32_t)(j - i);
    short_words += j - i <= 3;
    i = j;
  }
  count_tokens(c->st, c->anchor, words, cps, short_words);
}

/* Bigram bucket from the two unigram hashes, bytes in a fixed order so the
 * value does not depend on the platform's endianness. */
static uint32_t bigram_idx(uint32_t a, uint32_t b, uint32_t dims) {
  unsigned char k[9] = {
      (unsigned char)a, (unsigned char)(a >> 8), (unsigned char)(a >> 16), (unsigned char)(a >> 24), 0x1F,
      (unsigned char)b, (unsigned char)(b >> 8), (unsigned char)(b >> 16), (unsigned char)(b >> 24)};
  return tbk_hash32(k, sizeof k) % dims + 1;
}

/* LSD radix sort of 64-bit keys on bits [lo, lo + bits), stable; small
 * inputs use insertion sort. tmp holds n keys. */
static void radix_sort64(uint64_t *a, uint64_t *tmp, size_t n, unsigned lo, unsigned bits) {
  if (n <= 48) {
    for (size_t i = 1; i < n; i++) {
      uint64_t x = a[i];
      uint64_t kx = (x >> lo) & ((bits < 64 ? (1ULL << bits) : 0) - 1);
      size_t j = i;
      while (j > 0 && ((a[j - 1] >> lo) & ((bits < 64 ? (1ULL << bits) : 0) - 1)) > kx) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
    return;
  }
  uint64_t *src = a, *dst = tmp;
  for (unsigned shift = lo; shift < lo + bits; shift += 8) {
    size_t count[257] = {0};
    for (size_t i = 0; i < n; i++) count[((src[i] >> shift) & 0xFF) + 1]++;
    if (count[((src[0] >> shift) & 0xFF) + 1] == n) continue; /* one digit value */
    for (int d = 0; d < 256; d++) count[d + 1] += count[d];
    for (size_t i = 0; i < n; i++) dst[count[(src[i] >> shift) & 0xFF]++] = src[i];
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, n * sizeof *a);
}

/* Sort and deduplicate a[0..n) (32-bit values); returns the new length. */
static size_t sort_unique(tbk_features *fx, uint32_t *a, size_t n) {
  if (!n) return 0;
  if (tbk_grow(&fx->pairs, &fx->cap_pairs, n, sizeof *fx->pairs) ||
      tbk_grow(&fx->pairs_tmp, &fx->cap_pairs_tmp, n, sizeof *fx->pairs_tmp))
    return SIZE_MAX;
  for (size_t i = 0; i < n; i++) fx->pairs[i] = a[i];
  radix_sort64(fx->pairs, fx->pairs_tmp, n, 0, 32);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!m || fx->pairs[i] != a[m - 1]) a[m++] = (uint32_t)fx->pairs[i];
  return m;
}

/* Index of x in the sorted array a[0..n) (x is known to be present). */
static size_t find_u32(const uint32_t *a, size_t n, uint32_t x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

/* --------------------------------------------------------------- passes */

/* Cut the text into pieces and compute each piece's statistics and tokens. */
static tbk_status text_pass(tbk_features *fx, const tbk_page *p, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(p);
  const char *text = pv.text ? pv.text : "";
  uint32_t T = (uint32_t)pv.text_len;
  if (TBK_FIT_ALL(&fx->cap_bbounds, 2 * pv.n_blocks + 2, TBK_ARRAY(fx->bbounds)) ||
      TBK_FIT_ALL(&fx->cap_nodes, pv.n_nodes + 1, TBK_ARRAY(fx->in_heading)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < pv.n_nodes; i++) {
    const tbk_node *n = &pv.nodes[i];
    int h = n->tag >= TBK_TAG_H1 && n->tag <= TBK_TAG_H6;
    fx->in_heading[i] = (uint8_t)(h || (n->parent != TBK_NONE && fx->in_heading[n->parent]));
  }
  size_t nbb = 0;
  fx->bbounds[nbb++] = 0;
  fx->bbounds[nbb++] = T;
  for (size_t b = 0; b < pv.n_blocks; b++) {
    uint32_t s = (uint32_t)(pv.blocks[b].text - text);
    fx->bbounds[nbb++] = s;
    fx->bbounds[nbb++] = s + (uint32_t)pv.blocks[b].text_len;
  }
  nbb = sort_unique(fx, fx->bbounds, nbb);
  if (nbb == SIZE_MAX) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  fx->n_bbounds = nbb;
  /* Where the text enters or leaves a link or a heading. */
  fx->n_states = 0;
  uint8_t state = 0;
  for (size_t r = 0; r < pv.n_runs; r++) {
    const tbk_node *n = &pv.nodes[pv.runs[r].node];
    uint8_t s = (uint8_t)((n->in_anchor ? 1 : 0) | (fx->in_heading[pv.runs[r].node] ? 2 : 0));
    if (s == state) continue;
    state = s;
    if (TBK_GROW_ALL(&fx->cap_states, fx->n_states + 1, TBK_ARRAY(fx->state_pos), TBK_ARRAY(fx->state_val)))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    fx->state_pos[fx->n_states] = pv.runs[r].start;
    fx->state_val[fx->n_states++] = s;
  }
  /* The pieces' bounds: the blocks' and the states', both ascending (runs
   * are in text order), merged. */
  if (TBK_FIT_ALL(&fx->cap_bounds, nbb + fx->n_states, TBK_ARRAY(fx->bounds)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  size_t nb = 0;
  for (size_t i = 0, j = 0; i < nbb || j < fx->n_states;) {
    uint32_t x = j == fx->n_states || (i < nbb && fx->bbounds[i] <= fx->state_pos[j]) ? fx->bbounds[i++]
                                                                                      : fx->state_pos[j++];
    if (!nb || fx->bounds[nb - 1] != x) fx->bounds[nb++] = x;
  }
  fx->n_bounds = nb;
  if (TBK_FIT_ALL(&fx->cap_pref, nbb, TBK_ARRAY(fx->pref)) ||
      TBK_FIT_ALL(&fx->cap_piece_tok, nbb, TBK_ARRAY(fx->piece_tok)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  fx_textstats before = {0}; /* the statistics of the pieces so far */
  size_t q = 0;              /* the next of bbounds */
  fx->n_tok = 0;
  fx->tok_text = NULL;
  /* (a huge page's table was freed when its text was done) */
  if (fx->voc_slots) memset(fx->voc_slots, 0, fx->n_voc_slots * sizeof *fx->voc_slots);
  fx->n_voc = 0;
  size_t sj = 0;
  state = 0;
  for (size_t k = 0; k + 1 < nb; k++) {
    uint32_t a = fx->bounds[k], b = fx->bounds[k + 1];
    while (sj < fx->n_states && fx->state_pos[sj] <= a) state = fx->state_val[sj++];
    if (fx->bbounds[q] == a) { /* (the last, the text's end, is met below) */
      fx->pref[q] = before;
      fx->piece_tok[q++] = (uint32_t)fx->n_tok;
    }
    fx_textstats st = {0};
    int ascii = scan_piece((const unsigned char *)text + a, b - a, state & 1, (state >> 1) & 1, &st);
    tok_ctx c = {fx, &st, state & 1, 0, a};
    if (ascii) tokenize_ascii(&c, (const unsigned char *)text + a, b - a);
    else tbk_tokenize_hashed(fx->tok, text + a, b - a, on_token, &c);
    if (c.failed) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    add_stats(&before, &st);
  }
  fx->pref[q] = before;
  fx->piece_tok[q] = (uint32_t)fx->n_tok;
  fx->tok_text = text;
  fx->tok_len = T;
  /* the content stage reads the tokens, the bounds and the words' hashes */
  TBK_TRIM_ALL(&fx->cap_tok, fx->n_tok, TBK_ARRAY(fx->tok_word), TBK_ARRAY(fx->tok_cp), TBK_ARRAY(fx->tok_pos));
  TBK_TRIM_ALL(&fx->cap_bounds, nb, TBK_ARRAY(fx->bounds));
  TBK_TRIM_ALL(&fx->cap_voc, fx->n_voc, TBK_ARRAY(fx->voc_h64), TBK_ARRAY(fx->voc_h32));
  /* and nothing reads these again: a big page frees them before its blocks */
  TBK_DROP_ALL(&fx->cap_states, TBK_ARRAY(fx->state_pos), TBK_ARRAY(fx->state_val));
  TBK_DROP_ALL(&fx->n_voc_slots, TBK_ARRAY(fx->voc_slots));
  TBK_DROP_ALL(&fx->cap_nodes, TBK_ARRAY(fx->in_heading));
  return TBK_OK;
}

/* Rank the page's words by bucket (see block_words). */
static tbk_status rank_words(tbk_features *fx, tbk_error *err) {
  size_t v = fx->n_voc, nw = v / 64 + 1;
  if (TBK_FIT_ALL(&fx->cap_rank, v + 1, TBK_ARRAY(fx->voc_rank), TBK_ARRAY(fx->rank_id)) ||
      TBK_FIT_ALL(&fx->cap_touched, v + 1, TBK_ARRAY(fx->touched)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (TBK_FIT_ALL(&fx->cap_rank_bits, nw, TBK_ARRAY(fx->rank_bits)) ||
      tbk_grow(&fx->pairs, &fx->cap_pairs, v + 1, sizeof *fx->pairs) ||
      tbk_grow(&fx->pairs_tmp, &fx->cap_pairs_tmp, v + 1, sizeof *fx->pairs_tmp))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  memset(fx->rank_bits, 0, nw * sizeof *fx->rank_bits);
  for (size_t i = 0; i < v; i++) fx->pairs[i] = (uint64_t)fx->voc_bucket[i] << 32 | i;
  radix_sort64(fx->pairs, fx->pairs_tmp, v, 32, 32);
  for (size_t r = 0; r < v; r++) {
    uint32_t id = (uint32_t)fx->pairs[r];
    fx->rank_id[r] = id;
    fx->voc_rank[id] = (uint32_t)r;
  }
  if (!fx->opt.bigrams) { /* the sort buffers' last use (see block_words) */
    TBK_DROP_ALL(&fx->cap_pairs, TBK_ARRAY(fx->pairs));
    TBK_DROP_ALL(&fx->cap_pairs_tmp, TBK_ARRAY(fx->pairs_tmp));
  }
  return TBK_OK;
}

/* Block o->block closes: what its nodes' tags were, from the counts now
 * (c1) and when it opened. Only the tags it has are visited. */
static void close_block(tbk_features *fx, const fx_open *o, const uint32_t *c1) {
  const uint32_t *c0 = o->counts;
  uint32_t distinct = 0, format = 0;
  uint64_t ranks = 0; /* its counted tags, by tag_rank */
  for (unsigned w = 0; w < 2; w++)
    for (uint64_t m = o->tags[w]; m; m &= m - 1) {
      unsigned tag = w * 64 + (unsigned)__builtin_ctzll(m);
      distinct++;
      if (fx->fmt_tag[tag]) format += c1[tag] - c0[tag];
      if (fx->tag_rank[tag] != 0xFF) ranks |= 1ULL << fx->tag_rank[tag];
    }
  size_t b = o->block;
  fx->blk_anchors[b] = c1[TBK_TAG_A] - c0[TBK_TAG_A];
  fx->blk_distinct[b] = (uint8_t)distinct;
  fx->blk_format[b] = format;
  fx->tc_off[b] = fx->n_tc;
  fx->tc_n[b] = (uint8_t)__builtin_popcountll(ranks);
  for (; ranks; ranks &= ranks - 1) {
    unsigned k = (unsigned)__builtin_ctzll(ranks);
    fx->tc_k[fx->n_tc] = (uint8_t)k;
    fx->tc_cnt[fx->n_tc++] = c1[fx->tag_by_col[k]] - c0[fx->tag_by_col[k]];
  }
}

/* The tags among every block's nodes [node, end): running per-tag counts,
 * compared when a block closes with what they were when it opened, and
 * which tags it has (a node marks the innermost open block, which passes
 * its marks on when it closes). Blocks nest, so the open ones are a stack
 * no deeper than the tree: a page keeps a few snapshots of the counters,
 * not two per block. */
static tbk_status tag_pass(tbk_features *fx, const tbk_page *p, uint32_t *page_anchors, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(p);
  _Static_assert(TBK_TAG_COUNT <= 128, "a block's tags are two 64-bit masks");
  uint32_t counts[TBK_TAG_COUNT] = {0};
  size_t B = pv.n_blocks, top = 0, b = 0;
  fx->n_tc = 0;
  for (size_t i = 0; i <= pv.n_nodes; i++) {
    while (top && pv.nodes[pv.blocks[fx->open[top - 1].block].node].end <= i) {
      const fx_open *o = &fx->open[--top];
      if (TBK_GROW_ALL(&fx->cap_tc, fx->n_tc + fx->n_tag_cols, TBK_ARRAY(fx->tc_k), TBK_ARRAY(fx->tc_cnt)))
        return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      close_block(fx, o, counts);
      if (top) {
        fx->open[top - 1].tags[0] |= o->tags[0];
        fx->open[top - 1].tags[1] |= o->tags[1];
      }
    }
    for (; b < B && pv.blocks[b].node == i; b++, top++) {
      if (tbk_grow(&fx->open, &fx->cap_open, top + 1, sizeof *fx->open))
        return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      fx_open *o = &fx->open[top];
      o->block = (uint32_t)b;
      o->tags[0] = o->tags[1] = 0;
      memcpy(o->counts, counts, sizeof counts);
    }
    if (i == pv.n_nodes) break;
    unsigned tag = pv.nodes[i].tag;
    counts[tag]++;
    if (top) fx->open[top - 1].tags[tag / 64] |= 1ULL << (tag % 64);
  }
  *page_anchors = counts[TBK_TAG_A];
  return TBK_OK;
}

/* class/id/role bits of every block element and the union over its
 * ancestors, computed once per element of the blocks' ancestor chains. */
static tbk_status attr_pass(tbk_features *fx, const tbk_page *p, size_t *words_out, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(p);
  size_t words = (fx->attr_width + 63) / 64;
  *words_out = words;
  if (TBK_FIT_ALL(&fx->cap_slot, pv.n_nodes + 1, TBK_ARRAY(fx->slot)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < pv.n_nodes; i++) fx->slot[i] = TBK_NONE;
  for (size_t b = 0; b < pv.n_blocks; b++)
    for (uint32_t x = pv.blocks[b].node; x != TBK_NONE && fx->slot[x] == TBK_NONE; x = pv.nodes[x].parent)
      fx->slot[x] = 0;
  size_t ns = 0;
  for (size_t i = 0; i < pv.n_nodes; i++)
    if (fx->slot[i] != TBK_NONE) fx->slot[i] = (uint32_t)ns++;
  if (ns && TBK_FIT_ALL(&fx->cap_bits, ns * 2 * words, TBK_ARRAY(fx->bits)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (ns) memset(fx->bits, 0, ns * 2 * words * sizeof *fx->bits);
  for (size_t i = 0; i < pv.n_nodes; i++) {
    if (fx->slot[i] == TBK_NONE) continue;
    uint64_t *self = fx->bits + (size_t)fx->slot[i] * 2 * words, *anc = self + words;
    tbk_fx_attr_bits(fx, &pv.nodes[i], self);
    uint32_t up = pv.nodes[i].parent;
    if (up == TBK_NONE) continue;
    const uint64_t *pself = fx->bits + (size_t)fx->slot[up] * 2 * words, *panc = pself + words;
    for (size_t w = 0; w < words; w++) anc[w] = pself[w] | panc[w];
  }
  return TBK_OK;
}

/* Runs (text nodes) whose text lies in [a, b). */
static size_t runs_in(const tbk_page_view *pv, uint32_t a, uint32_t b) {
  size_t lo = 0, hi = pv->n_runs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (pv->runs[mid].start < a) lo = mid + 1;
    else hi = mid;
  }
  size_t first = lo;
  hi = pv->n_runs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (pv->runs[mid].start < b) lo = mid + 1;
    else hi = mid;
  }
  return lo - first;
}

/* Word-level statistics of block tokens [t0, t1): unique words, text
 * density and the KL divergence from the rest of the page; appends the
 * block's words line (hashed buckets, ascending, colliding words merged). */
static int block_words(tbk_features *fx, size_t t0, size_t t1, double *uniq_out, double *density_out, double *kl_out) {
  size_t n = t1 - t0, npairs = fx->opt.bigrams && n ? 2 * n - 1 : 0;
  /* touched holds the page's words at most (rank_words); pairs are for
   * the bigrams alone */
  if (npairs && (tbk_grow(&fx->pairs, &fx->cap_pairs, npairs + 1, sizeof *fx->pairs) ||
                 tbk_grow(&fx->pairs_tmp, &fx->cap_pairs_tmp, npairs + 1, sizeof *fx->pairs_tmp)))
    return -1;
  size_t nt = 0, wrapped = 0, line_words = 0;
  long line_len = -1;
  for (size_t k = t0; k < t1; k++) {
    uint32_t id = fx->tok_word[k];
    if (fx->voc_blk[id]++ == 0) fx->touched[nt++] = id;
    /* boilerpipe: wrap at 80 columns; the unfinished last line is left out
     * when there is more than one. */
    line_len += (long)fx->tok_cp[k] + 1;
    if (line_len > TBK_FX_WRAP) {
      wrapped++;
      line_len = (long)fx->tok_cp[k];
      line_words = 1;
    } else line_words++;
  }
  *uniq_out = (double)nt;
  *density_out = wrapped ? (double)(n - line_words) / (double)wrapped : (double)n;
  double kl = 0.0, rest = (double)(fx->n_tok - n) + TBK_FX_KL_ALPHA * (double)fx->n_voc;
  uint32_t rmin = UINT32_MAX, rmax = 0;
  /* A word's log term depends only on its count in the block and in the
   * rest of the page (n and rest are the block's): most words share a few
   * small pairs (once here, never elsewhere), so the logs of pairs up to
   * (4, 15) are kept for the block, the same value computed once. */
  double log_memo[64];
  uint64_t log_have = 0;
  for (size_t j = 0; j < nt; j++) {
    uint32_t id = fx->touched[j], c = fx->voc_blk[id], other = fx->voc_cnt[id] - c;
    double pw = (double)c / (double)n, lg;
    unsigned slot = (c - 1) * 16 + other;
    if (c <= 4 && other < 16 && (log_have >> slot & 1)) {
      lg = log_memo[slot];
    } else {
      double qw = ((double)other + TBK_FX_KL_ALPHA) / rest;
      lg = log(pw / qw);
      if (c <= 4 && other < 16) {
        log_memo[slot] = lg;
        log_have |= 1ULL << slot;
      }
    }
    kl += pw * lg;
    uint32_t r = fx->voc_rank[id];
    fx->rank_bits[r / 64] |= 1ULL << (r % 64);
    if (r < rmin) rmin = r;
    if (r > rmax) rmax = r;
  }
  *kl_out = kl;
  /* Grown by a quarter, not doubled: the lines of a page of nested blocks
   * are its largest array while its blocks are computed. */
  size_t need = fx->n_w + (npairs ? npairs : nt), more = fx->cap_w + fx->cap_w / 4 + 64;
  if (need > fx->cap_w &&
      TBK_FIT_ALL(&fx->cap_w, need > more ? need : more, TBK_ARRAY(fx->w_idx), TBK_ARRAY(fx->w_cnt)))
    return -1;
  size_t first = fx->n_w, np = 0;
  /* Ranks ascend with buckets: walking the bitmap yields the words line in
   * order; different words in one bucket are adjacent and merged. */
  for (size_t wi = nt ? rmin / 64 : 1, we = nt ? rmax / 64 : 0; wi <= we; wi++) {
    for (uint64_t m = fx->rank_bits[wi]; m; m &= m - 1) {
      uint32_t id = fx->rank_id[wi * 64 + (size_t)__builtin_ctzll(m)];
      uint32_t idx = fx->voc_bucket[id], c = fx->voc_blk[id];
      fx->voc_blk[id] = 0;
      if (fx->opt.bigrams) {
        fx->pairs[np++] = (uint64_t)idx << 32 | c;
      } else if (fx->n_w > first && fx->w_idx[fx->n_w - 1] == idx) {
        fx->w_cnt[fx->n_w - 1] += c;
      } else {
        fx->w_idx[fx->n_w] = idx;
        fx->w_cnt[fx->n_w++] = c;
      }
    }
    fx->rank_bits[wi] = 0;
  }
  if (!fx->opt.bigrams) return 0;
  for (size_t k = t0 + 1; k < t1; k++)
    fx->pairs[np++] =
        (uint64_t)bigram_idx(fx->voc_h32[fx->tok_word[k - 1]], fx->voc_h32[fx->tok_word[k]], fx->opt.word_dims) << 32 |
        1;
  radix_sort64(fx->pairs, fx->pairs_tmp, np, 32, 32);
  for (size_t j = 0; j < np; j++) {
    uint32_t idx = (uint32_t)(fx->pairs[j] >> 32), c = (uint32_t)fx->pairs[j];
    if (fx->n_w > first && fx->w_idx[fx->n_w - 1] == idx) {
      fx->w_cnt[fx->n_w - 1] += c;
    } else {
      fx->w_idx[fx->n_w] = idx;
      fx->w_cnt[fx->n_w++] = c;
    }
  }
  return 0;
}

/* One page's pass over its blocks: what the steps below share. */
typedef struct block_pass {
  tbk_features *fx;
  const tbk_page *p;
  tbk_page_view pv; /* p's tables */
  const char *text;
  const fx_textstats *page_st;
  double T, N; /* visible text length, elements */
  double page_anchors;
  size_t B, D, words; /* blocks, row width, class/id bit words */
} block_pass;

/* One block's text and word statistics, found before its columns. */
typedef struct block_text {
  fx_textstats t;
  uint32_t s, e; /* the block's text in the page's */
  double uniq, density, kl;
} block_text;

/* The buffers sized for the page: the fixed features of every block, the
 * words and sparse columns' offsets. */
static tbk_status prepare_blocks(tbk_features *fx, size_t B, tbk_error *err) {
  fx->sp_rows = 0;
  fx->n_sp = 0;
  fx->row_block = SIZE_MAX;
  if (B > SIZE_MAX / FX_FIXED_COUNT - 1 ||
      TBK_FIT_ALL(&fx->cap_values, B * FX_FIXED_COUNT + 1, TBK_ARRAY(fx->values)) ||
      TBK_FIT_ALL(&fx->cap_woff, B + 1, TBK_ARRAY(fx->w_off)) ||
      TBK_FIT_ALL(&fx->cap_spoff, B + 1, TBK_ARRAY(fx->sp_off)) ||
      TBK_FIT_ALL(&fx->cap_cand, B + 1, TBK_ARRAY(fx->cand_depth)) ||
      TBK_FIT_ALL(&fx->cap_blk, B + 1, TBK_ARRAY(fx->blk_anchors), TBK_ARRAY(fx->blk_format), TBK_ARRAY(fx->tc_off),
                  TBK_ARRAY(fx->blk_words), TBK_ARRAY(fx->blk_distinct), TBK_ARRAY(fx->tc_n), TBK_ARRAY(fx->blk_link)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return TBK_OK;
}

/* Text, link, markup and page-share columns of block b. */
static void block_text_cols(const block_pass *bp, size_t b, const block_text *bt, double *v) {
  const tbk_features *fx = bp->fx;
  const tbk_page_view pv = bp->pv;
  const tbk_node *nd = &pv.nodes[pv.blocks[b].node];
  const fx_textstats *t = &bt->t;
  double anchors = (double)fx->blk_anchors[b];
  double elements = (double)(nd->end - pv.blocks[b].node);
  double w = t->words;
  /* lengths in Latin-equivalent characters (measure.h) */
  double chars = (double)tbk_length_of(t->chars, t->wide), nonspace = (double)tbk_length_of(t->nonspace, t->wide);
  double heading_chars = (double)tbk_length_of(t->heading_chars, t->heading_wide);
  double anchor_chars = (double)tbk_length_of(t->anchor_chars, t->anchor_wide);
  v[FX_TEXT_CHARS] = chars;
  v[FX_TEXT_WORDS] = w;
  v[FX_TEXT_UNIQUE] = bt->uniq;
  v[FX_TEXT_UNIQUE_RATIO] = ratio(bt->uniq, w);
  v[FX_TEXT_MEAN_WORD_LEN] = ratio(t->word_cps, w);
  v[FX_TEXT_SHORT_RATIO] = ratio(t->short_words, w);
  v[FX_TEXT_SENTENCES] = t->sentences;
  v[FX_TEXT_WORDS_PER_SENT] = w / (t->sentences ? t->sentences : 1);
  v[FX_TEXT_PUNCT] = t->punct;
  v[FX_TEXT_PUNCT_RATIO] = ratio(t->punct, nonspace);
  v[FX_TEXT_DIGIT_RATIO] = ratio(t->digits, nonspace);
  v[FX_TEXT_UPPER_RATIO] = ratio(t->upper, t->letters);
  v[FX_TEXT_CAP_RATIO] = ratio(t->cap_words, w);
  v[FX_TEXT_HEADING_CHARS] = heading_chars;
  v[FX_TEXT_HEADING_RATIO] = ratio(heading_chars, nonspace);
  v[FX_TEXT_DENSITY] = bt->density;
  v[FX_LINK_ANCHOR_WORDS] = t->anchor_words;
  v[FX_LINK_DENSITY] = ratio(t->anchor_words, w);
  v[FX_LINK_CHAR_DENSITY] = ratio(anchor_chars, nonspace);
  v[FX_LINK_WORDS_PER_ANCHOR] = ratio(t->anchor_words, anchors);
  v[FX_MARKUP_ELEMENTS] = elements;
  v[FX_MARKUP_DISTINCT] = (double)fx->blk_distinct[b];
  v[FX_MARKUP_FORMAT] = (double)fx->blk_format[b];
  v[FX_MARKUP_TAG_TEXT] = ratio(elements, chars);
  v[FX_MARKUP_TEXT_RUNS] = (double)runs_in(&pv, nd->text_start, nd->text_end);
  v[FX_MARKUP_CHILDREN] = nd->child_elems;
  v[FX_PAGE_WORDS] = (double)fx->n_tok;
  v[FX_PAGE_ELEMENTS] = bp->N;
  v[FX_PAGE_WORD_SHARE] = ratio(w, (double)fx->n_tok);
  v[FX_PAGE_CHAR_SHARE] = ratio(nonspace, (double)tbk_length_of(bp->page_st->nonspace, bp->page_st->wide));
  v[FX_PAGE_TAG_SHARE] = ratio(elements, bp->N);
  v[FX_PAGE_LINK_SHARE] = ratio(anchors, bp->page_anchors);
  v[FX_PAGE_KL] = bt->kl;
}

/* Position columns of block b: in the text, the tree and among the
 * candidate blocks. */
static void block_pos_cols(const block_pass *bp, size_t b, const block_text *bt, double *v) {
  tbk_features *fx = bp->fx;
  const tbk_page_view pv = bp->pv;
  const tbk_block *blk = &pv.blocks[b];
  const tbk_node *nd = &pv.nodes[blk->node];
  size_t B = bp->B;
  v[FX_POS_LINE] = blk->line;
  v[FX_POS_LINE_REL] = ratio(blk->line, pv.n_lines);
  v[FX_POS_OFFSET_REL] = ratio(bt->s, bp->T);
  v[FX_POS_END_REL] = ratio(bt->e, bp->T);
  v[FX_POS_DEPTH] = blk->depth;
  v[FX_POS_DEPTH_REL] = ratio(blk->depth, pv.max_depth);
  v[FX_POS_SIB_LEFT] = nd->sib_index;
  v[FX_POS_SIB_RIGHT] = nd->sib_count > nd->sib_index ? nd->sib_count - 1 - nd->sib_index : 0;
  v[FX_POS_SIBLINGS] = nd->sib_count;
  v[FX_POS_BLOCK_INDEX] = (double)b;
  v[FX_POS_BLOCK_REL] = ratio((double)b, (double)B);
  v[FX_POS_BLOCKS] = (double)B;
  v[FX_POS_HAS_CAND_ANC] = blk->parent >= 0;
  v[FX_POS_CAND_ANCESTORS] = fx->cand_depth[b];
  /* Blocks are in document order, so the descendants follow b directly. */
  size_t lo = b + 1, hi = B;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (pv.blocks[mid].node < nd->end) lo = mid + 1;
    else hi = mid;
  }
  v[FX_POS_CAND_DESC] = (double)(lo - (b + 1));
  if (blk->parent >= 0) fx->values[(size_t)blk->parent * FX_FIXED_COUNT + FX_POS_CAND_CHILDREN] += 1;
}

/* The class/id bits of block b: its own, then its ancestors'. */
static const uint64_t *block_bits(const tbk_features *fx, const tbk_page_view *pv, size_t b, size_t words) {
  return fx->bits + (size_t)fx->slot[pv->blocks[b].node] * 2 * words;
}

/* How many sparse columns block b has (block_sparse_cols writes them). */
static size_t block_sparse_n(const block_pass *bp, size_t b) {
  const tbk_features *fx = bp->fx;
  size_t n = fx->tc_n[b] + (fx->blocktag_col[bp->pv.nodes[bp->pv.blocks[b].node].tag] >= 0);
  const uint64_t *bits = block_bits(fx, &bp->pv, b, bp->words);
  for (size_t wi = 0; wi < 2 * bp->words; wi++)
    if (bits[wi]) n += (size_t)__builtin_popcountll(bits[wi]);
  return n;
}

/* Tag counts, block tag, class/id bits of block b: in column order, kept
 * as the row's sparse list (sized for the page by tbk_features_page). */
static void block_sparse_cols(const block_pass *bp, size_t b) {
  tbk_features *fx = bp->fx;
  const tbk_node *nd = &bp->pv.nodes[bp->pv.blocks[b].node];
  size_t words = bp->words;
  uint32_t *sp = fx->sp_col + fx->n_sp, *sp0 = sp;
  double *val = fx->sp_val + fx->n_sp;
  for (size_t k = fx->tc_off[b], e = k + fx->tc_n[b]; k < e; k++) {
    *val++ = fx->tc_cnt[k];
    *sp++ = (uint32_t)fx->tag_col[fx->tag_by_col[fx->tc_k[k]]];
  }
  if (fx->blocktag_col[nd->tag] >= 0) {
    *val++ = 1;
    *sp++ = (uint32_t)fx->blocktag_col[nd->tag];
  }
  const uint64_t *self = block_bits(fx, &bp->pv, b, words), *anc = self + words;
  for (size_t wi = 0; wi < words; wi++)
    for (uint64_t m = self[wi]; m; m &= m - 1) {
      *val++ = 1;
      *sp++ = (uint32_t)(fx->attr_self + wi * 64 + (size_t)__builtin_ctzll(m));
    }
  for (size_t wi = 0; wi < words; wi++)
    for (uint64_t m = anc[wi]; m; m &= m - 1) {
      *val++ = 1;
      *sp++ = (uint32_t)(fx->attr_anc + wi * 64 + (size_t)__builtin_ctzll(m));
    }
  fx->n_sp += (size_t)(sp - sp0);
  fx->sp_off[b + 1] = fx->n_sp;
  fx->sp_rows = b + 1;
}

/* Block b's row: its text statistics and words line, then its columns. */
static tbk_status block_row(const block_pass *bp, size_t b, tbk_error *err) {
  tbk_features *fx = bp->fx;
  const tbk_block *blk = &bp->pv.blocks[b];
  double *v = fx->values + b * FX_FIXED_COUNT;
  block_text bt;
  bt.s = (uint32_t)(blk->text - bp->text);
  bt.e = bt.s + (uint32_t)blk->text_len;
  size_t ks = find_u32(fx->bbounds, fx->n_bbounds, bt.s), ke = find_u32(fx->bbounds, fx->n_bbounds, bt.e);
  bt.t = diff_stats(&fx->pref[ke], &fx->pref[ks]);
  if (block_words(fx, fx->piece_tok[ks], fx->piece_tok[ke], &bt.uniq, &bt.density, &bt.kl))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  fx->w_off[b + 1] = fx->n_w;
  block_text_cols(bp, b, &bt, v);
  block_pos_cols(bp, b, &bt, v);
  block_sparse_cols(bp, b);
  fx->blk_words[b] = bt.t.words;
  fx->blk_link[b] = v[FX_LINK_DENSITY];
  return TBK_OK;
}

/* The page's words lines cut to size and its big scratch freed (see
 * TBK_KEEP_BYTES): only the results, the tokens, the bounds and the words'
 * hashes outlive it. */
static void page_done(tbk_features *fx) {
  TBK_TRIM_ALL(&fx->cap_w, fx->n_w, TBK_ARRAY(fx->w_idx), TBK_ARRAY(fx->w_cnt));
  TBK_DROP_ALL(&fx->cap_bbounds, TBK_ARRAY(fx->bbounds));
  TBK_DROP_ALL(&fx->cap_pref, TBK_ARRAY(fx->pref));
  TBK_DROP_ALL(&fx->cap_piece_tok, TBK_ARRAY(fx->piece_tok));
  TBK_DROP_ALL(&fx->cap_voc_scratch, TBK_ARRAY(fx->voc_bucket), TBK_ARRAY(fx->voc_cnt), TBK_ARRAY(fx->voc_blk));
  TBK_DROP_ALL(&fx->cap_rank, TBK_ARRAY(fx->voc_rank), TBK_ARRAY(fx->rank_id));
  TBK_DROP_ALL(&fx->cap_rank_bits, TBK_ARRAY(fx->rank_bits));
  TBK_DROP_ALL(&fx->cap_open, TBK_ARRAY(fx->open));
  TBK_DROP_ALL(&fx->cap_tc, TBK_ARRAY(fx->tc_k), TBK_ARRAY(fx->tc_cnt));
  TBK_DROP_ALL(&fx->cap_slot, TBK_ARRAY(fx->slot));
  TBK_DROP_ALL(&fx->cap_bits, TBK_ARRAY(fx->bits));
  TBK_DROP_ALL(&fx->cap_touched, TBK_ARRAY(fx->touched));
  TBK_DROP_ALL(&fx->cap_pairs, TBK_ARRAY(fx->pairs));
  TBK_DROP_ALL(&fx->cap_pairs_tmp, TBK_ARRAY(fx->pairs_tmp));
  TBK_DROP_ALL(&fx->cap_cand, TBK_ARRAY(fx->cand_depth));
  TBK_DROP_ALL(&fx->cap_blk, TBK_ARRAY(fx->blk_anchors), TBK_ARRAY(fx->blk_format), TBK_ARRAY(fx->tc_off),
               TBK_ARRAY(fx->blk_words), TBK_ARRAY(fx->blk_distinct), TBK_ARRAY(fx->tc_n), TBK_ARRAY(fx->blk_link));
}

void tbk_features_drop_rows(tbk_features *fx) {
  fx->n_blocks = 0;
  fx->sp_rows = 0;
  fx->row_block = SIZE_MAX;
  TBK_DROP_ALL(&fx->cap_values, TBK_ARRAY(fx->values));
  TBK_DROP_ALL(&fx->cap_sp, TBK_ARRAY(fx->sp_col), TBK_ARRAY(fx->sp_val));
  TBK_DROP_ALL(&fx->cap_spoff, TBK_ARRAY(fx->sp_off));
  TBK_DROP_ALL(&fx->cap_woff, TBK_ARRAY(fx->w_off));
  TBK_DROP_ALL(&fx->cap_w, TBK_ARRAY(fx->w_idx), TBK_ARRAY(fx->w_cnt));
}

void tbk_features_drop_page(tbk_features *fx) {
  tbk_features_drop_rows(fx);
  fx->n_tok = 0;
  fx->n_bounds = 0;
  fx->n_voc = 0;
  fx->tok_text = NULL;
  fx->tok_len = 0;
  TBK_DROP_ALL(&fx->cap_tok, TBK_ARRAY(fx->tok_word), TBK_ARRAY(fx->tok_cp), TBK_ARRAY(fx->tok_pos));
  TBK_DROP_ALL(&fx->cap_bounds, TBK_ARRAY(fx->bounds));
  TBK_DROP_ALL(&fx->cap_voc, TBK_ARRAY(fx->voc_h64), TBK_ARRAY(fx->voc_h32));
}

tbk_status tbk_features_page(tbk_features *fx, const tbk_page *p, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(p);
  fx->n_blocks = 0;
  fx->n_w = 0;
  size_t B = pv.n_blocks, D = fx->dim;
  tbk_status st = prepare_blocks(fx, B, err);
  if (st == TBK_OK) st = text_pass(fx, p, err);
  uint32_t page_anchors = 0;
  size_t words = 0;
  if (st == TBK_OK) st = rank_words(fx, err);
  if (st == TBK_OK) st = tag_pass(fx, p, &page_anchors, err);
  if (st == TBK_OK) st = attr_pass(fx, p, &words, err);
  if (st != TBK_OK) return st;

  block_pass bp = {.fx = fx,
                   .p = p,
                   .pv = pv,
                   .text = pv.text ? pv.text : "",
                   .page_st = &fx->pref[fx->n_bbounds - 1],
                   .N = (double)pv.n_nodes,
                   .page_anchors = page_anchors,
                   .B = B,
                   .D = D,
                   .words = words};
  /* The page text may end in a collapsed space: positions are relative to
   * the visible text, shares count visible characters. */
  size_t tlen = pv.text_len;
  while (tlen > 0 && bp.text[tlen - 1] == ' ') tlen--;
  bp.T = (double)tlen;
  size_t n_sp = 0;
  for (size_t b = 0; b < B; b++) n_sp += block_sparse_n(&bp, b);
  if (TBK_FIT_ALL(&fx->cap_sp, n_sp + 1, TBK_ARRAY(fx->sp_col), TBK_ARRAY(fx->sp_val)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  memset(fx->values, 0, B * FX_FIXED_COUNT * sizeof *fx->values);
  fx->sp_off[0] = 0;
  for (size_t b = 0; b < B; b++) {
    const tbk_block *blk = &pv.blocks[b];
    fx->cand_depth[b] = blk->parent >= 0 ? fx->cand_depth[blk->parent] + 1 : 0;
  }
  fx->w_off[0] = 0;
  for (size_t b = 0; b < B; b++)
    if ((st = block_row(&bp, b, err))) return st;
  for (size_t b = 0; b < B; b++) {
    double *v = fx->values + b * FX_FIXED_COUNT;
    if (b > 0) {
      v[FX_NB_PREV_WORDS] = fx->blk_words[b - 1];
      v[FX_NB_PREV_LINK] = fx->blk_link[b - 1];
    }
    if (b + 1 < B) {
      v[FX_NB_NEXT_WORDS] = fx->blk_words[b + 1];
      v[FX_NB_NEXT_LINK] = fx->blk_link[b + 1];
    }
  }
  fx->n_blocks = B;
  page_done(fx);
  return TBK_OK;
}

size_t tbk_features_blocks(const tbk_features *fx) { return fx->n_blocks; }

const double *tbk_features_values(const tbk_features *cfx, size_t block) {
  if (block >= cfx->n_blocks) return NULL;
  /* The row is a cache of what the block's fixed and sparse values
   * determine: the extractor itself is never const (tbk_features_new). */
  tbk_features *fx = (tbk_features *)cfx;
  if (fx->row_block != block) {
    const uint32_t *cols;
    const double *vals;
    size_t n = tbk_features_sparse_values(fx, block, &cols, &vals);
    tbk_dense_row(fx->row, fx->dim, fx->values + block * FX_FIXED_COUNT, FX_FIXED_COUNT, cols, vals, n);
    fx->row_block = block;
  }
  return fx->row;
}

const double *tbk_features_fixed(const tbk_features *fx, size_t block) {
  return block < fx->n_blocks ? fx->values + block * FX_FIXED_COUNT : NULL;
}

size_t tbk_features_sparse_values(const tbk_features *fx, size_t block, const uint32_t **cols, const double **vals) {
  if (block >= fx->n_blocks || block >= fx->sp_rows) {
    *cols = NULL;
    if (vals) *vals = NULL;
    return 0;
  }
  *cols = fx->sp_col + fx->sp_off[block];
  if (vals) *vals = fx->sp_val + fx->sp_off[block];
  return fx->sp_off[block + 1] - fx->sp_off[block];
}

size_t tbk_features_sparse(const tbk_features *fx, size_t block, const uint32_t **cols) {
  return tbk_features_sparse_values(fx, block, cols, NULL);
}

size_t tbk_features_words(const tbk_features *fx, size_t block, const uint32_t **idx, const uint32_t **cnt) {
  if (block >= fx->n_blocks) {
    if (idx) *idx = NULL;
    if (cnt) *cnt = NULL;
    return 0;
  }
  size_t a = fx->w_off[block], b = fx->w_off[block + 1];
  if (idx) *idx = fx->w_idx + a;
  if (cnt) *cnt = fx->w_cnt + a;
  return b - a;
}

static int put_value(tbk_buf *out, size_t col, double x) { return tbk_buf_printf(out, " %zu:%.9g", col, x); }

int tbk_features_format(const tbk_features *fx, size_t block, int label, int words, tbk_buf *out) {
  if (block >= fx->n_blocks) return -1;
  if (tbk_buf_printf(out, "%d", label)) return -1;
  if (words) {
    const uint32_t *idx, *cnt;
    size_t n = tbk_features_words(fx, block, &idx, &cnt);
    for (size_t k = 0; k < n; k++)
      if (tbk_buf_printf(out, " %u:%u", idx[k], cnt[k])) return -1;
  } else {
    /* every nonzero value: the fixed columns, then the sparse ones (all
     * past them, ascending) */
    const double *v = fx->values + block * FX_FIXED_COUNT;
    for (size_t j = 0; j < FX_FIXED_COUNT; j++)
      if (v[j] != 0 && put_value(out, j + 1, v[j])) return -1;
    const uint32_t *cols;
    const double *vals;
    size_t n = tbk_features_sparse_values(fx, block, &cols, &vals);
    for (size_t k = 0; k < n; k++)
      if (put_value(out, (size_t)cols[k] + 1, vals[k])) return -1;
  }
  return tbk_buf_append(out, "\n", 1);
}
