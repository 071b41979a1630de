/* Text primitives: whitespace normalization, UTF-8 checks, the Unicode word
 * tokenizer (PCRE2) with simple case folding, and MD5 fingerprints. */
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include <openssl/evp.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "text.h"
#include "text_internal.h"
#include "util.h"

int tbk_text_normalize(const char *s, size_t n, tbk_buf *out) {
  const unsigned char *u = (const unsigned char *)s;
  int pending = 0, any = 0;
  if (tbk_buf_reserve(out, n)) return -1;
  for (size_t i = 0; i < n;) {
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (k == 0) { /* invalid byte: keep the text, mark the damage */
      if (pending && any && tbk_buf_append(out, " ", 1)) return -1;
      pending = 0; any = 1;
      if (tbk_buf_append(out, "\xEF\xBF\xBD", 3)) return -1;
      i++;
      continue;
    }
    if (tbk_is_space_cp(tbk_utf8_decode(u + i, k))) {
      pending = 1;
    } else {
      if (pending && any && tbk_buf_append(out, " ", 1)) return -1;
      pending = 0; any = 1;
      if (tbk_buf_append(out, s + i, k)) return -1;
    }
    i += k;
  }
  return tbk_buf_reserve(out, 0);
}

size_t tbk_utf8_length(const char *s, size_t n) {
  /* Counting lead bytes alone would let stray continuation bytes and the
   * tails of broken sequences vanish; the contract is one per invalid byte. */
  const unsigned char *u = (const unsigned char *)s;
  size_t count = 0;
  for (size_t i = 0; i < n; count++) {
    if (u[i] < 0x80) { i++; continue; }
    size_t k = tbk_utf8_seq(u + i, n - i);
    i += k ? k : 1;
  }
  return count;
}

int tbk_utf8_valid(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    if (u[i] < 0x80) { i++; continue; }
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (!k) return 0;
    i += k;
  }
  return 1;
}

void tbk_md5(const void *data, size_t n, unsigned char out[16]) {
  unsigned int len = 16;
  if (!EVP_Digest(data, n, out, &len, EVP_md5(), NULL)) memset(out, 0, 16);
}

tbk_md5_ctx *tbk_md5_ctx_new(void) { return EVP_MD_CTX_new(); }
void tbk_md5_ctx_free(tbk_md5_ctx *c) { EVP_MD_CTX_free(c); }

void tbk_md5_with(tbk_md5_ctx *c, const void *data, size_t n, unsigned char out[16]) {
  unsigned int len = 16;
  if (!EVP_DigestInit_ex(c, EVP_md5(), NULL) || !EVP_DigestUpdate(c, data, n) || !EVP_DigestFinal_ex(c, out, &len))
    memset(out, 0, 16);
}

void tbk_md5_hex(const unsigned char md5[16], char hex[33]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < 16; i++) {
    hex[2 * i] = digits[md5[i] >> 4];
    hex[2 * i + 1] = digits[md5[i] & 15];
  }
  hex[32] = '\0';
}

/* ------------------------------------------------------------ tokenizer */

/* Scripts written without spaces give one token per code point; numbers keep
 * their inner separators; everything else is a run of word characters. */
/* \p{Han} etc. match by script extension, which includes CJK punctuation
 * such as U+3002: punctuation and symbols are never tokens. */
static const char TOKEN_PATTERN[] =
    "(?![\\p{P}\\p{S}])[\\p{Han}\\p{Hiragana}\\p{Katakana}]"
    "|\\p{N}+(?:[.,]\\p{N}+)+"
    "|(?:(?![\\p{Han}\\p{Hiragana}\\p{Katakana}])[\\p{L}\\p{M}\\p{N}\\p{Pc}])+";

struct tbk_tokenizer {
  pcre2_code *code;            /* borrowed: the process-wide compiled pattern */
  pcre2_match_data *match;     /* owned */
  int jit;                     /* JIT compiled successfully */
  tbk_buf fold;                /* scratch: the folded token */
  tbk_buf seen;                /* scratch: distinct tokens, NUL-separated */
  uint32_t *slots;             /* scratch hash set of offsets into seen */
  size_t nslots;
};

static locale_t fold_locale;
static pthread_once_t fold_once = PTHREAD_ONCE_INIT;
static void fold_init(void) { fold_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0); }

/* The compiled pattern (and its JIT code) is read-only once built, so one
 * copy serves every tokenizer and thread; only match data is per tokenizer. */
static pcre2_code *shared_code;
static int shared_jit, shared_err;
static pthread_once_t code_once = PTHREAD_ONCE_INIT;
static void code_init(void) {
  PCRE2_SIZE off;
  shared_code = pcre2_compile((PCRE2_SPTR)TOKEN_PATTERN, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP,
                              &shared_err, &off, NULL);
  if (shared_code) shared_jit = pcre2_jit_compile(shared_code, PCRE2_JIT_COMPLETE) == 0;
}

tbk_status tbk_tokenizer_new(tbk_tokenizer **out, tbk_error *err) {
  *out = NULL;
  pthread_once(&fold_once, fold_init);
  pthread_once(&code_once, code_init);
  if (!shared_code)
    return tbk_fail(err, TBK_ERR_ARG, "tokenizer pattern failed to compile (PCRE2 error %d)", shared_err);
  tbk_tokenizer *t = calloc(1, sizeof *t);
  if (!t) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  t->code = shared_code;
  t->jit = shared_jit;
  t->match = pcre2_match_data_create_from_pattern(t->code, NULL);
  if (!t->match) {
    tbk_tokenizer_free(t);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  *out = t;
  return TBK_OK;
}

void tbk_tokenizer_free(tbk_tokenizer *t) {
  if (!t) return;
  pcre2_match_data_free(t->match);
  tbk_buf_free(&t->fold);
  tbk_buf_free(&t->seen);
  free(t->slots);
  free(t);
}

/* Simple (1:1) lowercase folding; ASCII stays on the fast path. */
static const char *fold_token(tbk_tokenizer *t, const char *s, size_t n, size_t *len) {
  t->fold.len = 0;
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    if (u[i] < 0x80) {
      char c = (char)u[i];
      if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
      if (tbk_buf_append(&t->fold, &c, 1)) return NULL;
      i++;
      continue;
    }
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (!k) k = 1; /* cannot happen on validated input */
    uint32_t c = tbk_utf8_decode(u + i, k);
    uint32_t lc = fold_locale ? (uint32_t)towlower_l((wint_t)c, fold_locale) : c;
    if (tbk_buf_utf8(&t->fold, lc)) return NULL;
    i += k;
  }
  if (tbk_buf_reserve(&t->fold, 0)) return NULL;
  t->fold.data[t->fold.len] = '\0';
  *len = t->fold.len;
  return t->fold.data;
}

static int ascii_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* TOKEN_PATTERN on ASCII text reduces to: digits with [.,]digits groups
 * when one follows, else a run of [A-Za-z0-9_]. */
size_t tbk_ascii_token_end(const unsigned char *s, size_t i, size_t n) {
  size_t j = i;
  if (ascii_digit(s[i])) {
    while (j < n && ascii_digit(s[j])) j++;
    int groups = 0;
    while (j + 1 < n && (s[j] == '.' || s[j] == ',') && ascii_digit(s[j + 1])) {
      j++;
      while (j < n && ascii_digit(s[j])) j++;
      groups = 1;
    }
    if (groups) return j;
    j = i;
  }
  while (j < n && tbk_ascii_word(s[j])) j++;
  return j;
}

/* Nothing in the pattern looks behind or past a space, so an ASCII word can
 * be tokenized here and the words around it by PCRE2 with the same result.
 * 1 = stopped (fn asked, or out of memory). */
static int tokenize_ascii(tbk_tokenizer *t, const unsigned char *s, size_t n, tbk_token_fn fn, void *ctx,
                          size_t *count) {
  for (size_t i = 0; i < n;) {
    if (!tbk_ascii_word(s[i])) { i++; continue; }
    size_t j = tbk_ascii_token_end(s, i, n);
    size_t flen;
    const char *tok = fold_token(t, (const char *)s + i, j - i, &flen);
    if (!tok) return 1;
    (*count)++;
    if (fn && fn(ctx, tok, flen)) return 1;
    i = j;
  }
  return 0;
}

static int tokenize_pcre(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn, void *ctx, size_t *count) {
  PCRE2_SIZE start = 0;
  while (start < n) {
    int rc = t->jit ? pcre2_jit_match(t->code, (PCRE2_SPTR)s, n, start, PCRE2_NO_UTF_CHECK, t->match, NULL)
                    : pcre2_match(t->code, (PCRE2_SPTR)s, n, start, PCRE2_NO_UTF_CHECK, t->match, NULL);
    if (rc < 0) return 0;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(t->match);
    if (ov[1] <= ov[0]) return 0; /* pattern cannot match empty; be safe */
    size_t flen;
    const char *tok = fold_token(t, s + ov[0], ov[1] - ov[0], &flen);
    start = ov[1];
    if (!tok) return 1;
    (*count)++;
    if (fn && fn(ctx, tok, flen)) return 1;
  }
  return 0;
}

/* Text is cut into runs of whole space-separated words that are all ASCII
 * or all not: ASCII runs (most of any page) skip PCRE2 and its per-match
 * call; a word with any other byte goes to PCRE2 whole. */
size_t tbk_tokenize_valid(tbk_tokenizer *t, const char *s, size_t n,
                          tbk_token_fn fn, void *ctx) {
  const unsigned char *u = (const unsigned char *)s;
  size_t count = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    int run_ascii = -1;
    while (j < n) {
      size_t e = j;
      int word_ascii = 1;
      while (e < n && u[e] != ' ' && u[e] != '\n') word_ascii &= u[e++] < 0x80;
      if (run_ascii < 0) run_ascii = word_ascii;
      else if (word_ascii != run_ascii) break;
      j = e;
      while (j < n && (u[j] == ' ' || u[j] == '\n')) j++;
    }
    int stop = run_ascii ? tokenize_ascii(t, u + i, j - i, fn, ctx, &count)
                         : tokenize_pcre(t, s + i, j - i, fn, ctx, &count);
    if (stop) break;
    i = j;
  }
  return count;
}

size_t tbk_tokenize(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn,
                    void *ctx) {
  if (!tbk_utf8_valid(s, n)) {
    /* PCRE2 without its UTF check needs valid input: repair a copy. */
    tbk_buf fixed = {0};
    if (tbk_text_normalize(s, n, &fixed)) return 0;
    size_t c = tbk_tokenize_valid(t, fixed.data, fixed.len, fn, ctx);
    tbk_buf_free(&fixed);
    return c;
  }
  return tbk_tokenize_valid(t, s, n, fn, ctx);
}

typedef struct uniq_ctx {
  tbk_tokenizer *t;
  size_t count, stop_at;
} uniq_ctx;

static int uniq_add(void *p, const char *tok, size_t len) {
  uniq_ctx *u = p;
  tbk_tokenizer *t = u->t;
  if ((u->count + 1) * 2 > t->nslots) { /* grow and rehash */
    size_t ns = t->nslots ? t->nslots * 2 : 64;
    uint32_t *slots = malloc(ns * sizeof *slots);
    if (!slots) return 1;
    memset(slots, 0xFF, ns * sizeof *slots);
    for (size_t i = 0; i < t->nslots; i++) {
      if (t->slots[i] == UINT32_MAX) continue;
      const char *w = t->seen.data + t->slots[i];
      size_t h = tbk_hash64(w, strlen(w)) & (ns - 1);
      while (slots[h] != UINT32_MAX) h = (h + 1) & (ns - 1);
      slots[h] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = ns;
  }
  size_t h = tbk_hash64(tok, len) & (t->nslots - 1);
  while (t->slots[h] != UINT32_MAX) {
    const char *w = t->seen.data + t->slots[h];
    if (strlen(w) == len && memcmp(w, tok, len) == 0) return 0;
    h = (h + 1) & (t->nslots - 1);
  }
  if (t->seen.len > UINT32_MAX - len - 2) return 1;
  t->slots[h] = (uint32_t)t->seen.len;
  if (tbk_buf_append(&t->seen, tok, len + 1)) return 1; /* with its NUL */
  u->count++;
  return u->stop_at && u->count >= u->stop_at;
}

size_t tbk_unique_words_valid(tbk_tokenizer *t, const char *s, size_t n, size_t stop_at) {
  uniq_ctx u = {t, 0, stop_at};
  t->seen.len = 0;
  if (t->slots) memset(t->slots, 0xFF, t->nslots * sizeof *t->slots);
  tbk_tokenize_valid(t, s, n, uniq_add, &u);
  return u.count;
}

size_t tbk_unique_words(tbk_tokenizer *t, const char *s, size_t n, size_t stop_at) {
  if (!tbk_utf8_valid(s, n)) {
    tbk_buf fixed = {0};
    if (tbk_text_normalize(s, n, &fixed)) return 0;
    size_t c = tbk_unique_words_valid(t, fixed.data, fixed.len, stop_at);
    tbk_buf_free(&fixed);
    return c;
  }
  return tbk_unique_words_valid(t, s, n, stop_at);
}
