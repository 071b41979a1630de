/* Internal entry of the gold alignment (core/label/align.c), so tests can reach
 * the multiset fallback without building pages of hundreds of MiB. */
#ifndef TBK_ALIGN_INTERNAL_H
#define TBK_ALIGN_INTERNAL_H
#include <stdint.h>
#include "text.h"

/* Largest LCS table tbk_align_gold stores, in bits (256 MiB). */
#define TBK_ALIGN_MAX_BITS ((uint64_t)1 << 31)

/* tbk_align_gold with the LCS table budget given in bits (0 = always the
 * fallback). *exact, when non-NULL, receives 1 when the LCS ran (or nothing
 * could match) and 0 when the multiset fallback was used. */
tbk_status tbk_align_gold_budget(tbk_tokenizer *t, const char *text, size_t text_len, const uint32_t *start,
                                 const uint32_t *end, size_t nunits, const char *gold, size_t gold_len,
                                 uint32_t *tokens, uint32_t *matched, uint64_t max_bits, int *exact, tbk_error *err);
#endif
