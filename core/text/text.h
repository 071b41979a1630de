/* The text layer: whitespace normalization, UTF-8 checks, the word
 * tokenizer every stage shares, and MD5 fingerprints. */
#ifndef TBK_TEXT_H
#define TBK_TEXT_H
#include "util.h"

/* Collapse runs of Unicode/ASCII whitespace to one space and trim. Writes
 * into out (appended). Returns 0, or -1 on allocation failure. */
int tbk_text_normalize(const char *s, size_t n, tbk_buf *out);

/* Number of code points in valid UTF-8 (invalid bytes count one each). */
size_t tbk_utf8_length(const char *s, size_t n);

/* 1 if s[0..n) is valid UTF-8 (no overlongs, no surrogates), else 0. */
int tbk_utf8_valid(const char *s, size_t n);

/* The function-word lists (the .txt files of core/text/stopwords, compiled in by
 * core/CMakeLists.txt): tbk_stop_count lists, list l's language code
 * tbk_stop_codes[l] (ISO 639-1) and its words tbk_stop_lists[l], folded
 * as the tokenizer yields them, separated by white space, '#' lines
 * comments. */
extern const char *const tbk_stop_codes[];
extern const char *const tbk_stop_lists[];
extern const size_t tbk_stop_count;
/* The next word of a list from *s, comment lines skipped: its start,
 * with its length in *len and *s moved past it; NULL at the list's end. */
const char *tbk_stop_next(const char **s, size_t *len);

/* Unicode word tokenizer (PCRE2, UTF+UCP, JIT). A token is a run of letters,
 * marks, digits and connector punctuation, except that every Han, Hiragana
 * and Katakana code point is a token of its own (scripts written without
 * spaces; Hangul is written with spaces and stays whole); numbers keep inner
 * '.' and ',' ("3.14", "1,000"). Tokens are lowercased code point by code
 * point (simple Unicode lowercase, no NFC normalization, so a precomposed
 * and a decomposed "é" differ). */
typedef struct tbk_tokenizer tbk_tokenizer;
tbk_status tbk_tokenizer_new(tbk_tokenizer **out, tbk_error *err);
void tbk_tokenizer_free(tbk_tokenizer *t);
/* Called once per token with the folded token (NUL-terminated, borrowed for
 * the call only). Return non-zero to stop early. */
typedef int (*tbk_token_fn)(void *ctx, const char *tok, size_t len);
/* Returns the number of tokens visited. */
size_t tbk_tokenize(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn, void *ctx);
/* Number of distinct folded tokens, counting stops once `stop_at` is reached
 * (0 = count all). */
size_t tbk_unique_words(tbk_tokenizer *t, const char *s, size_t n, size_t stop_at);

/* MD5 (through OpenSSL EVP) of n bytes; hex is 32 chars + NUL. */
void tbk_md5(const void *data, size_t n, unsigned char out[16]);
void tbk_md5_hex(const unsigned char md5[16], char hex[33]);
#endif
