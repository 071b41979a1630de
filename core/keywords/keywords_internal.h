/* What the keyword files share: an interning table of strings (ids from
 * 0, in first-seen order), used for words, stems, keys and the DF table. */
#ifndef TBK_KEYWORDS_INTERNAL_H
#define TBK_KEYWORDS_INTERNAL_H
#include "keywords.h"

typedef struct kw_strtab {
  tbk_buf arena;   /* the strings, each NUL-terminated */
  uint32_t *off;   /* per id: offset in arena */
  uint32_t *len;   /* per id: length */
  size_t n, cap;   /* ids, capacity of off/len */
  uint32_t *slots; /* open addressing: id + 1, 0 = empty */
  size_t nslots;
} kw_strtab;

void kw_strtab_free(kw_strtab *t);
/* Forget every string, keep the memory. */
void kw_strtab_clear(kw_strtab *t);
/* The id of s[0..n) (added when new; *added set when given); -1 out of
 * memory, or past 2^32 bytes. */
long kw_strtab_intern(kw_strtab *t, const char *s, size_t n, int *added);
/* The id of s, or -1 when absent. */
long kw_strtab_find(const kw_strtab *t, const char *s, size_t n);
/* Room in an open-addressing table (*slots: id + 1, 0 empty; at most half
 * full) for one more of the n ids stored so far: rebuilt at twice its size
 * (`first` slots at first, a power of two) when full, each id placed by
 * hash(ctx, id). 0 ok, -1 out of memory. */
int kw_slots_reserve(uint32_t **slots, size_t *nslots, size_t n, size_t first,
                     size_t (*hash)(const void *ctx, size_t id), const void *ctx);
static inline const char *kw_strtab_str(const kw_strtab *t, size_t id) { return t->arena.data + t->off[id]; }

/* Chinese and Japanese letters: candidates of these are spans of the
 * source text, one token per character (keywords.c). */
enum { KW_CJK_NONE = 0, KW_CJK_HAN = 1, KW_CJK_HIRAGANA = 2, KW_CJK_KATAKANA = 3 };
int kw_cjk_kind(uint32_t c);
/* Whether c is a decimal digit: ASCII's, fullwidth (０-９) or another
 * script's (Unicode's Nd). A word starting with one is a number. */
int kw_digit(uint32_t c);
/* A span's length in half Han characters: a Han character is about a
 * syllable and a word is mostly two of them, a Kana letter about a mora
 * (half as much text). */
static inline unsigned kw_cjk_units(int kind) { return kind == KW_CJK_HAN ? 2u : 1u; }
/* Candidates of these scripts span at most this many units (six Han
 * characters, twelve Kana: about TBK_KW_MAX_WORDS Latin words). */
#define KW_CJK_MAX_UNITS 12
#define KW_CJK_MAX_CHARS 12

/* The candidates of a finished extractor's document, for the DF table and
 * gold restriction without exposing its internals. */
#endif
