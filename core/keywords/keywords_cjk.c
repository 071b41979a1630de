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
