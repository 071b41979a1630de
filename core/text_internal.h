/* Tokenizer entry points for input already known to be valid UTF-8 (the
 * page text is repaired once at parse time, so the hot path skips the
 * re-validation the public functions do). */
#ifndef TBK_TEXT_INTERNAL_H
#define TBK_TEXT_INTERNAL_H
#include "tbk.h"
size_t tbk_tokenize_valid(tbk_tokenizer *t, const char *s, size_t n,
                          tbk_token_fn fn, void *ctx);
size_t tbk_unique_words_valid(tbk_tokenizer *t, const char *s, size_t n,
                              size_t stop_at);
#endif
