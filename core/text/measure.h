/* Text measures that mean the same in every script: a length in
 * Latin-equivalent characters and the script classes the word tokenizer
 * segments without spaces.
 *
 * Han, Kana, Bopomofo and Yi are written without spaces and pack a word
 * into fewer, East Asian Wide code points: a Chinese word is 1.59 of them on
 * average (ICU's dictionary segmentation of the Chinese text of site_mirrors
 * and trafilatura_eval, 101,592 words), an English one 4.86 letters plus its
 * space (200 dragnet pages, 270,105 words), so each such Wide or Fullwidth
 * code point counts TBK_WIDE_TENTHS / 10 = 3.7 characters. Hangul is Wide
 * too but written with spaces like Latin, and emoji are not words: both
 * count one, as does every other code point, so Latin and Korean lengths
 * are plain code point counts. */
#ifndef TBK_MEASURE_H
#define TBK_MEASURE_H
#include <stddef.h>
#include <stdint.h>

#define TBK_WIDE_TENTHS 37

/* 1 when c is a Wide/Fullwidth code point of a script written without
 * spaces (Han, Hiragana, Katakana, Bopomofo, Yi, their punctuation and
 * symbols, fullwidth forms), else 0. */
static inline int tbk_cp_wide(uint32_t c) {
  if (c < 0x2E80) return 0;
  if (c < 0xA4D0) return c < 0x3130 || c > 0x318F; /* CJK radicals .. Yi, less Hangul jamo */
  if (c < 0xF900) return 0;                        /* Hangul syllables, other scripts */
  if (c < 0xFB00) return 1;                        /* compatibility ideographs */
  if (c >= 0xFE30 && c < 0xFE50) return 1;         /* CJK compatibility forms */
  if (c >= 0xFF01 && c < 0xFF61) return 1;         /* fullwidth ASCII and brackets */
  if (c >= 0xFFE0 && c < 0xFFE7) return 1;         /* fullwidth signs */
  return c >= 0x20000 && c < 0x40000;              /* ideograph planes 2 and 3 */
}

/* Latin-equivalent length from counts: code points, and how many of them
 * are wide. Floors, so a length is a whole number like a code point count. */
static inline size_t tbk_length_of(size_t cps, size_t wide) { return cps + wide * (TBK_WIDE_TENTHS - 10) / 10; }

/* Latin-equivalent length of s[0..n): code points (an invalid byte counts
 * one, as in tbk_utf8_length), each wide one weighted. Equal to
 * tbk_utf8_length for text without wide code points. */
size_t tbk_text_length(const char *s, size_t n);

/* Code points and wide code points of s[0..n), for callers that sum
 * lengths over pieces (tbk_length_of turns the sums into a length). */
void tbk_text_counts(const char *s, size_t n, size_t *cps, size_t *wide);

/* The lead byte s[0] of a valid sequence starts a wide code point. */
static inline int tbk_utf8_wide_at(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  if (c < 0xE2) return 0;
  if (c < 0xF0) {
    if (n < 3) return 0;
    return tbk_cp_wide(((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F));
  }
  return c == 0xF0 && n >= 2 && s[1] >= 0xA0 && s[1] < 0xC0; /* U+20000..U+3FFFF */
}

/* Scripts the tokenizer segments itself (text.h): */
typedef enum {
  TBK_SCRIPT_OTHER = 0, /* spaces separate words: Latin, Cyrillic, Hangul, ... */
  TBK_SCRIPT_HANKANA,   /* Han and Kana letters: character bigrams */
  TBK_SCRIPT_SEA        /* Thai, Lao, Khmer, Myanmar: syllable runs */
} tbk_script;

/* Thai, Lao, Myanmar or Khmer (their main blocks and extensions). */
static inline int tbk_cp_sea(uint32_t c) {
  return (c >= 0x0E00 && c < 0x0F00) || (c >= 0x1000 && c < 0x10A0) || (c >= 0x1780 && c < 0x1800) ||
         (c >= 0x19E0 && c < 0x1A00) || (c >= 0xA9E0 && c < 0xAA80);
}
#endif
