/* Tokenizer entry points for input already known to be valid UTF-8 (the
 * page text is repaired once at parse time, so the hot path skips the
 * re-validation the public functions do). */
#ifndef TBK_TEXT_INTERNAL_H
#define TBK_TEXT_INTERNAL_H
#include "text.h"
size_t tbk_tokenize_valid(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn, void *ctx);
/* The same tokens as tbk_tokenize_valid, given by their FNV-1a 64 and 32
 * hashes (of the folded token), length (tbk_text_length, Latin-equivalent
 * characters) and start in s,
 * without a copy of each ASCII token: text with a few non-ASCII words (a
 * quote mark, a name) pays PCRE2 and folding for those words only. A
 * nonzero return from fn stops. Returns the tokens delivered. */
typedef int (*tbk_hashed_token_fn)(void *ctx, uint64_t h64, uint32_t h32, uint32_t cps, size_t at);
size_t tbk_tokenize_hashed(tbk_tokenizer *t, const char *s, size_t n, tbk_hashed_token_fn fn, void *ctx);
size_t tbk_unique_words_valid(tbk_tokenizer *t, const char *s, size_t n, size_t stop_at);

/* [A-Za-z0-9_]: 1, every other byte 0 (one load per byte in the token
 * loops, which run over every word of every page). */
extern const unsigned char tbk_ascii_word_class[256];
static inline int tbk_ascii_word(unsigned char c) { return tbk_ascii_word_class[c]; }

/* The token pattern on ASCII text: the end of the token that starts at
 * s[i], a byte of [A-Za-z0-9_] (digits with [.,]digit groups, else a run
 * of [A-Za-z0-9_]). The tokenizer and the feature extractor's hashing fast
 * path both use it, so the two cannot drift apart; inline, as it runs once
 * per token. */
static inline size_t tbk_ascii_token_end(const unsigned char *s, size_t i, size_t n) {
  size_t j = i;
  if (s[i] >= '0' && s[i] <= '9') {
    while (j < n && s[j] >= '0' && s[j] <= '9') j++;
    int groups = 0;
    while (j + 1 < n && (s[j] == '.' || s[j] == ',') && s[j + 1] >= '0' && s[j + 1] <= '9') {
      j++;
      while (j < n && s[j] >= '0' && s[j] <= '9') j++;
      groups = 1;
    }
    if (groups) return j;
    j = i;
  }
  while (j < n && tbk_ascii_word(s[j])) j++;
  return j;
}

/* Code points the tokenizer classifies without PCRE2: a lone Han/Kana
 * letter (tbk_hk_fast) or one that starts no token (tbk_no_token).
 * tbk_token_probe asks PCRE2 about c alone: 0 no match, 1 the pattern's
 * first alternative matches exactly c, 2 another match; -1 for ASCII.
 * test_text checks every classified code point with it. */
int tbk_hk_fast(uint32_t c);
int tbk_no_token(uint32_t c);
int tbk_token_probe(tbk_tokenizer *t, uint32_t c);
/* Whether runs of Latin, Greek, Cyrillic, Hebrew, Arabic and general
 * punctuation code points are tokenized from their PCRE2-given classes
 * (1, the default) or by PCRE2 itself (0): for test_text, which checks
 * that both give the same tokens. */
void tbk_tokenizer_classes(tbk_tokenizer *t, int on);

/* One-shot MD5 through a context kept by the caller (md5.c), for callers
 * that hash many texts: the context is reused, not made per text. */
typedef struct evp_md_ctx_st tbk_md5_ctx; /* OpenSSL's EVP_MD_CTX */
tbk_md5_ctx *tbk_md5_ctx_new(void);
void tbk_md5_ctx_free(tbk_md5_ctx *c);
void tbk_md5_with(tbk_md5_ctx *c, const void *data, size_t n, unsigned char out[16]);
#endif
