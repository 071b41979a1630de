/* Letters of the scripts written without spaces that keyword candidates
 * treat as characters, not words (keywords_internal.h). */
#include "keywords_internal.h"

/* The code points the tokenizer pairs into bigrams (\p{Han}, \p{Hiragana},
 * \p{Katakana} less punctuation and symbols), by block: the keyword
 * extractor takes them out of the tokenizer's hands, so what it leaves
 * behind holds none. */
int kw_cjk_kind(uint32_t c) {
  if (c < 0x3005) return KW_CJK_NONE;
  if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) ||
      (c >= 0x20000 && c <= 0x323AF) || c == 0x3005 || c == 0x3007 || c == 0x303B)
    return KW_CJK_HAN;
  if ((c >= 0x3041 && c <= 0x3096) || (c >= 0x309D && c <= 0x309F)) return KW_CJK_HIRAGANA;
  if ((c >= 0x30A1 && c <= 0x30FA) || (c >= 0x30FC && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF) ||
      (c >= 0xFF66 && c <= 0xFF9F))
    return KW_CJK_KATAKANA;
  return KW_CJK_NONE;
}

/* The zeros of Unicode's decimal digit runs (general category Nd: ten code
 * points each from these), ASCII's and fullwidth included. */
static const uint32_t DIGIT_ZEROS[] = {
    0x0030,  0x0660,  0x06F0,  0x07C0,  0x0966,  0x09E6,  0x0A66,  0x0AE6,  0x0B66,  0x0BE6,  0x0C66,  0x0CE6,  0x0D66,
    0x0DE6,  0x0E50,  0x0ED0,  0x0F20,  0x1040,  0x1090,  0x17E0,  0x1810,  0x1946,  0x19D0,  0x1A80,  0x1A90,  0x1B50,
    0x1BB0,  0x1C40,  0x1C50,  0xA620,  0xA8D0,  0xA900,  0xA9D0,  0xA9F0,  0xAA50,  0xABF0,  0xFF10,  0x104A0, 0x10D30,
    0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50,
    0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0};

int kw_digit(uint32_t c) {
  if (c >= 0x1D7CE && c <= 0x1D7FF) return 1; /* mathematical digits: five runs */
  size_t lo = 0, hi = sizeof DIGIT_ZEROS / sizeof DIGIT_ZEROS[0];
  while (lo < hi) { /* the last zero at or below c */
    size_t mid = (lo + hi) / 2;
    if (DIGIT_ZEROS[mid] <= c) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && c - DIGIT_ZEROS[lo - 1] < 10;
}
