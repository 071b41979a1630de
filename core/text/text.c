/* Text primitives: whitespace normalization, UTF-8 checks, the Unicode word
 * tokenizer (PCRE2) with simple case folding (MD5 fingerprints through OpenSSL: md5.c). */
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "measure.h"
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
      pending = 0;
      any = 1;
      if (tbk_buf_append(out, "\xEF\xBF\xBD", 3)) return -1;
      i++;
      continue;
    }
    if (tbk_is_space_cp(tbk_utf8_decode(u + i, k))) {
      pending = 1;
    } else {
      if (pending && any && tbk_buf_append(out, " ", 1)) return -1;
      pending = 0;
      any = 1;
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
    if (u[i] < 0x80) {
      i++;
      continue;
    }
    size_t k = tbk_utf8_seq(u + i, n - i);
    i += k ? k : 1;
  }
  return count;
}

/* Every page's source is checked here at decoding (a byte at a time it
 * was 5 instructions a byte): ASCII runs eight bytes at a time. */
int tbk_utf8_valid(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0;;) {
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      memcpy(&w, u + i, 8);
      if (w & 0x8080808080808080ULL) break;
    }
    while (i < n && u[i] < 0x80) i++;
    if (i >= n) return 1;
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (!k) return 0;
    i += k;
  }
}

/* ------------------------------------------------------------ tokenizer */

/* A Han or Kana letter matches alone (group 1; tokenize_pcre pairs the
 * adjacent ones into bigrams); numbers keep their inner separators;
 * everything else is a run of word characters (a Thai, Lao, Khmer or
 * Myanmar one is cut into syllables by split_sea). */
/* \p{Han} etc. match by script extension, which includes CJK punctuation
 * such as U+3002: punctuation and symbols are never tokens. */
static const char TOKEN_PATTERN[] = "((?![\\p{P}\\p{S}])[\\p{Han}\\p{Hiragana}\\p{Katakana}])"
                                    "|\\p{N}+(?:[.,]\\p{N}+)+"
                                    "|(?:(?![\\p{Han}\\p{Hiragana}\\p{Katakana}])[\\p{L}\\p{M}\\p{N}\\p{Pc}])+";

struct tbk_tokenizer {
  pcre2_code *code;        /* borrowed: the process-wide compiled pattern */
  pcre2_match_data *match; /* owned */
  int jit;                 /* JIT compiled successfully */
  int classes;             /* tokenize_classes may replace PCRE2 (1) */
  tbk_buf fold;            /* scratch: the folded token */
  tbk_buf seen;            /* scratch: distinct tokens, NUL-separated */
  uint32_t *slots;         /* scratch hash set of offsets into seen */
  size_t nslots;
  const char *emit_src; /* where the token being emitted starts */
  size_t emit_length;   /* its folded form's tbk_text_length */
};

static locale_t fold_locale;
static pthread_once_t fold_once = PTHREAD_ONCE_INIT;
static void fold_init(void) { fold_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0); }

/* The compiled pattern (and its JIT code) is read-only once built, so one
 * copy serves every tokenizer and thread; only match data is per tokenizer. */
static pcre2_code *shared_code;
static pcre2_code *word_code, *num_code; /* see cp_class */
static int shared_jit, shared_err;
static pthread_once_t code_once = PTHREAD_ONCE_INIT;
static void code_init(void) {
  PCRE2_SIZE off;
  shared_code = pcre2_compile((PCRE2_SPTR)TOKEN_PATTERN, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP, &shared_err,
                              &off, NULL);
  if (shared_code) shared_jit = pcre2_jit_compile(shared_code, PCRE2_JIT_COMPLETE) == 0;
  /* One code point of the pattern's last alternative, and a number's */
  int aux_err;
  word_code = pcre2_compile((PCRE2_SPTR) "(?![\\p{Han}\\p{Hiragana}\\p{Katakana}])[\\p{L}\\p{M}\\p{N}\\p{Pc}]",
                            PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED, &aux_err, &off, NULL);
  num_code = pcre2_compile((PCRE2_SPTR) "\\p{N}", PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED,
                           &aux_err, &off, NULL); /* NULL: every code point goes to PCRE2 */
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
  t->classes = 1;
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

/* UTF-8 of cp (tbk_buf_utf8's encoding) at o; returns its length. */
static size_t put_utf8(char *o, uint32_t cp) {
  size_t k = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  static const unsigned char lead[5] = {0, 0x00, 0xC0, 0xE0, 0xF0};
  o[0] = (char)(lead[k] | cp >> (6 * (k - 1)));
  for (size_t i = 1; i < k; i++) o[i] = (char)(0x80 | ((cp >> (6 * (k - 1 - i))) & 0x3F));
  return k;
}

/* Simple (1:1) lowercase folding, written straight into the scratch buffer
 * (appending byte by byte was most of a token's cost). A lowercase code
 * point needs at most 4 bytes and every input byte that is not ASCII is at
 * least half of its code point, so 2n bytes always hold the result; 4n is
 * kept for the bytes an invalid sequence could give. *length gets the
 * folded token's tbk_text_length, counted on the way (code points and
 * wide ones) instead of by a second decoding pass. */
static const char *fold_token(tbk_tokenizer *t, const char *s, size_t n, size_t *len, size_t *length) {
  t->fold.len = 0;
  if (n > SIZE_MAX / 4 - 1 || tbk_buf_reserve(&t->fold, 4 * n)) return NULL;
  const unsigned char *u = (const unsigned char *)s;
  char *o = t->fold.data;
  size_t j = 0, cps = 0, wide = 0;
  int exact = 1; /* no invalid byte met: the counts are the output's */
  for (size_t i = 0; i < n; cps++) {
    unsigned b = u[i];
    if (b < 0x80) {
      o[j++] = (char)(b >= 'A' && b <= 'Z' ? b + 32 : b);
      i++;
      continue;
    }
    size_t k = tbk_utf8_seq(u + i, n - i);
    int valid = k != 0;
    if (!valid) k = 1; /* cannot happen on validated input */
    uint32_t c = tbk_utf8_decode(u + i, k);
    /* Han and Kana letters have no case: skip the locale's table */
    uint32_t lc = tbk_hk_fast(c) || !fold_locale ? c : (uint32_t)towlower_l((wint_t)c, fold_locale);
    if (lc == c && valid) { /* a valid sequence re-encodes to itself */
      for (size_t q = 0; q < k; q++) o[j + q] = (char)u[i + q];
      j += k;
      wide += (size_t)tbk_cp_wide(c);
    } else {
      j += put_utf8(o + j, lc);
      wide += (size_t)tbk_cp_wide(lc);
      exact &= valid;
    }
    i += k;
  }
  o[j] = '\0';
  t->fold.len = j;
  *len = j;
  *length = exact ? tbk_length_of(cps, wide) : tbk_text_length(o, j);
  return o;
}

// clang-format off
const unsigned char tbk_ascii_word_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    /* 0x80..0xFF: no ASCII word byte */
};
// clang-format on

/* Nothing in the pattern looks behind or past a space, so an ASCII word can
 * be tokenized here and the words around it by PCRE2 with the same result.
 * 1 = stopped (fn asked, or out of memory). */
static int tokenize_ascii(tbk_tokenizer *t, const unsigned char *s, size_t n, tbk_token_fn fn, void *ctx,
                          size_t *count) {
  for (size_t i = 0; i < n;) {
    if (!tbk_ascii_word(s[i])) {
      i++;
      continue;
    }
    size_t j = tbk_ascii_token_end(s, i, n);
    size_t flen, length;
    const char *tok = fold_token(t, (const char *)s + i, j - i, &flen, &length);
    if (!tok) return 1;
    (*count)++;
    if (fn && fn(ctx, tok, flen)) return 1;
    i = j;
  }
  return 0;
}

typedef struct hashed_ctx {
  tbk_hashed_token_fn fn;
  void *ctx;
  tbk_tokenizer *t;
  const char *s; /* the text tbk_tokenize_hashed was given */
} hashed_ctx;
static int hash_token(void *vc, const char *tok, size_t len);

static int emit(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn, void *ctx, size_t *count) {
  if (fn == hash_token) {
    /* An ASCII token of a non-ASCII run (a word in typographic quotes,
     * beside a dash) hashed as tbk_tokenize_hashed's ASCII runs are: its
     * folded form is its bytes lower-cased and its length its bytes, so
     * the folding buffer is skipped. */
    const unsigned char *u = (const unsigned char *)s;
    unsigned char any = 0;
    for (size_t k = 0; k < n; k++) any |= u[k];
    if (any < 0x80) {
      hashed_ctx *c = ctx;
      uint64_t h64;
      uint32_t h32;
      tbk_hash_ascii_folded(u, n, &h64, &h32);
      (*count)++;
      return c->fn(c->ctx, h64, h32, (uint32_t)n, (size_t)(s - c->s));
    }
  }
  size_t flen;
  const char *tok = fold_token(t, s, n, &flen, &t->emit_length);
  if (!tok) return 1;
  (*count)++;
  t->emit_src = s;
  return fn && fn(ctx, tok, flen);
}

/* Syllable runs of Thai, Lao, Myanmar and Khmer, which separate phrases,
 * not words, with spaces. Each code point is a consonant (or independent
 * vowel), a dependent vowel or sign, a leading vowel (written before its
 * consonant), a joiner (Khmer coeng, Myanmar virama: the next consonant
 * stacks under this one) or other (digits). A leading vowel starts a
 * syllable; a consonant starts one when the current one already has its
 * vowel and a vowel or sign follows the consonant, unless that sign kills
 * it (a final consonant: Thai thanthakhat, Myanmar asat, ...) or a joiner
 * precedes it. */
enum { SEA_C, SEA_V, SEA_L, SEA_J, SEA_O };
static int sea_class(uint32_t c) {
  if (c >= 0x0E01 && c <= 0x0E2E) return SEA_C; /* Thai */
  if (c >= 0x0E40 && c <= 0x0E44) return SEA_L;
  if (c >= 0x0E30 && c <= 0x0E4E && c != 0x0E46) return SEA_V;
  if ((c >= 0x0E81 && c <= 0x0EAE) || (c >= 0x0EDC && c <= 0x0EDF)) return SEA_C; /* Lao */
  if (c >= 0x0EC0 && c <= 0x0EC4) return SEA_L;
  if (c >= 0x0EB0 && c <= 0x0ECE && c != 0x0EC6) return SEA_V;
  if (c == 0x1039 || c == 0x17D2) return SEA_J;                                   /* virama, coeng */
  if ((c >= 0x1000 && c <= 0x102A) || (c >= 0x1050 && c <= 0x1055)) return SEA_C; /* Myanmar */
  if ((c >= 0x102B && c <= 0x103E) || (c >= 0x1056 && c <= 0x109D && (c < 0x1090 || c > 0x1099))) return SEA_V;
  if (c >= 0x1780 && c <= 0x17B3) return SEA_C; /* Khmer */
  if (c >= 0x17B4 && c <= 0x17DD && (c < 0x17D4 || c > 0x17DA)) return SEA_V;
  return SEA_O;
}
static int sea_killer(uint32_t c) { return c == 0x0E4C || c == 0x0ECC || c == 0x103A || c == 0x17CD; }

static int split_sea(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn, void *ctx, size_t *count) {
  const unsigned char *u = (const unsigned char *)s;
  size_t a = 0;  /* start of the current token */
  int kind = -1; /* of the current token: 0 other script, 1 SEA */
  int has_v = 0, prev = SEA_O;
  for (size_t i = 0; i < n;) {
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (!k) k = 1;
    uint32_t c = tbk_utf8_decode(u + i, k);
    int sea = tbk_cp_sea(c), cl = sea ? sea_class(c) : SEA_O;
    int brk = i > a && kind != sea;
    if (sea && i > a && !brk) {
      if (cl == SEA_L) brk = 1;
      else if (cl == SEA_O) brk = prev != SEA_O;
      else if (prev == SEA_O) brk = 1;
      else if (cl == SEA_C && has_v && prev != SEA_J && i + k < n) {
        size_t k2 = tbk_utf8_seq(u + i + k, n - i - k);
        uint32_t nx = k2 ? tbk_utf8_decode(u + i + k, k2) : 0;
        brk = tbk_cp_sea(nx) && sea_class(nx) == SEA_V && !sea_killer(nx);
      }
    }
    if (brk) {
      if (emit(t, s + a, i - a, fn, ctx, count)) return 1;
      a = i;
      has_v = 0;
    }
    kind = sea;
    if (cl == SEA_V) has_v = 1;
    prev = cl;
    i += k;
  }
  return n > a && emit(t, s + a, n - a, fn, ctx, count);
}

static int has_sea(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i + 1 < n; i++) {
    unsigned a = u[i], b = u[i + 1];
    if ((a == 0xE0 && b >= 0xB8 && b <= 0xBB) ||                             /* U+0E00..0EFF */
        (a == 0xE1 && (b <= 0x82 || b == 0x9E || b == 0x9F || b == 0xA7)) || /* 1000..10BF, 1780..17FF, 19C0.. */
        (a == 0xEA && (b == 0xA7 || b == 0xA9)))                             /* A9C0..A9FF, AA40..AA7F */
      return 1;
  }
  return 0;
}

/* Code points the pattern's first alternative (a Han or Kana letter)
 * matches whatever surrounds them: Hiragana and Katakana letters, the
 * prolonged sound mark and the CJK ideograph blocks as assigned since
 * Unicode 13. At a position where one of them starts, PCRE2's leftmost
 * match is that letter alone (the first alternative is tried first), so
 * tokenize_pcre takes it without a PCRE2 call: in Chinese and Japanese
 * text that was one call per letter. tbk_hk_fast_matches checks every
 * one of them against PCRE2 (test_text, tbk_token_probe). */
int tbk_hk_fast(uint32_t c) {
  return (c >= 0x3041 && c <= 0x3096) || (c >= 0x30A1 && c <= 0x30FA) || c == 0x30FC || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFC);
}

/* Code points that start no match (punctuation and spaces of the general,
 * CJK and fullwidth blocks): PCRE2 would only scan past them, and at the
 * end of a Chinese or Japanese run it scanned them to fail. Checked
 * against PCRE2 like tbk_hk_fast. */
int tbk_no_token(uint32_t c) {
  return (c >= 0x2010 && c <= 0x2027) || (c >= 0x3000 && c <= 0x3003) || (c >= 0x3008 && c <= 0x3011) ||
         (c >= 0x3014 && c <= 0x301F) || c == 0x30FB || (c >= 0xFF01 && c <= 0xFF0F) || (c >= 0xFF1A && c <= 0xFF20);
}

/* The first match of TOKEN_PATTERN in s[start, n) as [*m0, *m1), *hk when
 * by the first alternative; 0 when none. */
static int next_match(tbk_tokenizer *t, const char *s, size_t n, size_t start, size_t *m0, size_t *m1, int *hk) {
  const unsigned char *u = (const unsigned char *)s;
  for (;;) {
    /* An ASCII byte other than [A-Za-z0-9_] starts no alternative. */
    while (start < n && u[start] < 0x80 && !tbk_ascii_word(u[start])) start++;
    if (start >= n) return 0;
    if (u[start] < 0xE2 || u[start] > 0xEF || start + 3 > n || tbk_utf8_seq(u + start, n - start) != 3) break;
    uint32_t c = tbk_utf8_decode(u + start, 3);
    if (tbk_hk_fast(c)) {
      *m0 = start;
      *m1 = start + 3;
      *hk = 1;
      return 1;
    }
    if (!tbk_no_token(c)) break;
    start += 3;
  }
  int rc = t->jit ? pcre2_jit_match(t->code, (PCRE2_SPTR)s, n, start, PCRE2_NO_UTF_CHECK, t->match, NULL)
                  : pcre2_match(t->code, (PCRE2_SPTR)s, n, start, PCRE2_NO_UTF_CHECK, t->match, NULL);
  if (rc < 0) return 0;
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(t->match);
  if (ov[1] <= ov[0]) return 0; /* pattern cannot match empty; be safe */
  *m0 = ov[0];
  *m1 = ov[1];
  *hk = rc >= 2 && ov[2] != PCRE2_UNSET;
  return 1;
}

int tbk_token_probe(tbk_tokenizer *t, uint32_t c) {
  char e[4];
  if (c < 0x80) return -1;
  size_t k = c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  for (size_t i = k; i-- > 1; c >>= 6) e[i] = (char)(0x80 | (c & 0x3F));
  e[0] = (char)((k == 2 ? 0xC0 : k == 3 ? 0xE0 : 0xF0) | c);
  int rc = t->jit ? pcre2_jit_match(t->code, (PCRE2_SPTR)e, k, 0, PCRE2_NO_UTF_CHECK, t->match, NULL)
                  : pcre2_match(t->code, (PCRE2_SPTR)e, k, 0, PCRE2_NO_UTF_CHECK, t->match, NULL);
  if (rc < 0) return 0;
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(t->match);
  return rc >= 2 && ov[0] == 0 && ov[1] == k && ov[2] == 0 && ov[3] == k ? 1 : 2;
}

/* The code points most non-ASCII words of Latin, Greek, Cyrillic, Hebrew
 * and Arabic text are made of (U+0080..07FF) and the general punctuation
 * block (U+2000..206F: typographic quotes, dashes, ellipses) are classified
 * once per process by PCRE2 itself: W, the pattern's last alternative
 * matches it alone; N, \p{N}. The pattern reads nothing else of a code
 * point there (its first alternative, a Han or Kana letter, matches none
 * of them: such a code point is marked CL_OTHER), so a word made of them
 * and ASCII is tokenized from these classes (tokenize_classes) exactly as
 * PCRE2 would, without one PCRE2 call per match: documentation pages with
 * a typographic quote in every other sentence made that most of their
 * tokenizing. Any other code point sends its whole run to PCRE2. */
enum { CL_KNOWN = 1, CL_W = 2, CL_N = 4, CL_OTHER = 8 };
static unsigned char cl_table[0x800 + 0x70]; /* 0 = not asked yet */

static inline int cl_index(uint32_t c) {
  return c < 0x800 ? (int)c : c >= 0x2000 && c < 0x2070 ? (int)(0x800 + c - 0x2000) : -1;
}

static int aux_match(tbk_tokenizer *t, const pcre2_code *code, const char *e, size_t k) {
  if (!code) return -1;
  int rc = pcre2_match(code, (PCRE2_SPTR)e, k, 0, PCRE2_NO_UTF_CHECK, t->match, NULL);
  if (rc < 0) return 0;
  return pcre2_get_ovector_pointer(t->match)[1] == k;
}

/* The class of c (cl_index(c) >= 0), asked of PCRE2 the first time. The
 * table is shared by every tokenizer and thread: an entry is one byte,
 * always the same value, written and read atomically. */
static unsigned cp_class(tbk_tokenizer *t, uint32_t c) {
  int idx = cl_index(c);
  if (idx < 0) return CL_KNOWN | CL_OTHER;
  unsigned char *e = &cl_table[idx];
  unsigned v = __atomic_load_n(e, __ATOMIC_RELAXED);
  if (v) return v;
  char u[4];
  size_t k = c < 0x800 ? 2 : 3;
  if (k == 2) {
    u[0] = (char)(0xC0 | c >> 6);
    u[1] = (char)(0x80 | (c & 0x3F));
  } else {
    u[0] = (char)(0xE0 | c >> 12);
    u[1] = (char)(0x80 | (c >> 6 & 0x3F));
    u[2] = (char)(0x80 | (c & 0x3F));
  }
  int w = aux_match(t, word_code, u, k), n = aux_match(t, num_code, u, k);
  v = CL_KNOWN | (w > 0 ? CL_W : 0) | (n > 0 ? CL_N : 0);
  if (w < 0 || n < 0 || (n > 0 && w <= 0) || tbk_token_probe(t, c) == 1) v = CL_KNOWN | CL_OTHER;
  __atomic_store_n(e, (unsigned char)v, __ATOMIC_RELAXED);
  return v;
}

/* The class of the code point at s[i] (valid UTF-8 of a covered run) and
 * its length in *k. */
static inline unsigned class_at(tbk_tokenizer *t, const unsigned char *u, size_t n, size_t i, size_t *k) {
  if (u[i] < 0x80) {
    *k = 1;
    return tbk_ascii_word(u[i]) ? CL_KNOWN | CL_W | (u[i] >= '0' && u[i] <= '9' ? CL_N : 0) : CL_KNOWN;
  }
  *k = tbk_utf8_seq(u + i, n - i);
  return cp_class(t, tbk_utf8_decode(u + i, *k));
}

/* 1 when every code point of s[0, n) has a class, none CL_OTHER. */
static int classes_cover(tbk_tokenizer *t, const unsigned char *u, size_t n) {
  for (size_t i = 0; i < n;) {
    if (u[i] < 0x80) {
      i++;
      continue;
    }
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (!k) return 0;
    uint32_t c = tbk_utf8_decode(u + i, k);
    if (cl_index(c) < 0 || (cp_class(t, c) & CL_OTHER)) return 0;
    i += k;
  }
  return 1;
}

/* TOKEN_PATTERN's matches in s[0, n), a run classes_cover accepts, from
 * the classes: at each position the second alternative (digits with
 * [.,]digit groups) is tried first, then the third (a run of W); the
 * greedy repetitions of both have nothing after them, so their longest
 * match is PCRE2's. */
static int tokenize_classes(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn, void *ctx, size_t *count) {
  const unsigned char *u = (const unsigned char *)s;
  size_t p = 0, k, k2;
  while (p < n) {
    unsigned cl = class_at(t, u, n, p, &k);
    if (!(cl & CL_W)) {
      p += k;
      continue;
    }
    size_t q = p + k;
    int number = 0;
    if (cl & CL_N) {
      while (q < n && (class_at(t, u, n, q, &k2) & CL_N)) q += k2;
      while (q + 1 < n && (u[q] == '.' || u[q] == ',') && (class_at(t, u, n, q + 1, &k2) & CL_N)) {
        q += 1 + k2;
        while (q < n && (class_at(t, u, n, q, &k2) & CL_N)) q += k2;
        number = 1;
      }
      if (!number) q = p + k;
    }
    if (!number)
      while (q < n && (class_at(t, u, n, q, &k2) & CL_W)) q += k2;
    if (emit(t, s + p, q - p, fn, ctx, count)) return 1;
    p = q;
  }
  return 0;
}

void tbk_tokenizer_classes(tbk_tokenizer *t, int on) { t->classes = on != 0; }

/* Han and Kana letters in a row (no space or punctuation between) become
 * overlapping bigrams, a lone one a token of its own: a bigram is as often
 * a word or inside one as Chinese words are mostly two characters, and it
 * needs no dictionary. */
static int tokenize_pcre(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn, void *ctx, size_t *count) {
  if (t->classes && classes_cover(t, (const unsigned char *)s, n)) return tokenize_classes(t, s, n, fn, ctx, count);
  size_t start = 0;
  size_t run_prev = SIZE_MAX, run_end = 0; /* the last Han/Kana letter of an open run */
  int paired = 0;                          /* the open run has emitted a bigram */
  size_t m0, m1;
  int hk;
  while (start < n && next_match(t, s, n, start, &m0, &m1, &hk)) {
    if (run_prev != SIZE_MAX && !(hk && m0 == run_end)) {
      if (!paired && emit(t, s + run_prev, run_end - run_prev, fn, ctx, count)) return 1;
      run_prev = SIZE_MAX;
    }
    start = m1;
    if (hk) {
      if (run_prev != SIZE_MAX) {
        if (emit(t, s + run_prev, m1 - run_prev, fn, ctx, count)) return 1;
        paired = 1;
      } else {
        paired = 0;
      }
      run_prev = m0;
      run_end = m1;
    } else if (has_sea(s + m0, m1 - m0)) {
      if (split_sea(t, s + m0, m1 - m0, fn, ctx, count)) return 1;
    } else if (emit(t, s + m0, m1 - m0, fn, ctx, count)) {
      return 1;
    }
  }
  if (run_prev != SIZE_MAX && !paired) return emit(t, s + run_prev, run_end - run_prev, fn, ctx, count);
  return 0;
}

/* The end of the word that starts at e (the first ' ' or '\n' at or after
 * it, or n), eight bytes at a time; *ascii &= whether it is all ASCII. */
static inline size_t word_end(const unsigned char *u, size_t e, size_t n, int *ascii) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  for (; e + 8 <= n; e += 8) {
    uint64_t w, sp, nl;
    memcpy(&w, u + e, 8);
    sp = w ^ (ones * ' ');
    nl = w ^ (ones * '\n');
    /* a zero byte's high bit (bytes above the first zero may be false
     * hits; only the first is read) */
    uint64_t hit = ((sp - ones) & ~sp & highs) | ((nl - ones) & ~nl & highs);
    if (hit) {
      unsigned at = (unsigned)__builtin_ctzll(hit) / 8; /* little-endian lanes */
      uint64_t before = at ? w & (~0ULL >> (64 - 8 * at)) : 0;
      if (before & highs) *ascii = 0;
      return e + at;
    }
    if (w & highs) *ascii = 0;
  }
#endif
  while (e < n && u[e] != ' ' && u[e] != '\n') *ascii &= u[e++] < 0x80;
  return e;
}

/* Text is cut into runs of whole space-separated words that are all ASCII
 * or all not: ASCII runs (most of any page) skip PCRE2 and its per-match
 * call; a word with any other byte goes to PCRE2 whole. The run from i
 * ends where script_run_end says; *ascii tells which kind it is. A run
 * also ends at the first word boundary past cap bytes (RUN_BYTES, or
 * less for tbk_tokenize_valid's first runs): a space cuts no token, so
 * the tokens are the same, and a caller that stops after a few tokens (a
 * block's "three distinct words" test, once per nested block) no longer
 * scans all of the text for the end of its first run. */
enum { RUN_BYTES = 256, FIRST_RUN_BYTES = 32 };
static inline size_t script_run_end(const unsigned char *u, size_t i, size_t n, size_t cap, int *ascii) {
  size_t j = i;
  int run_ascii = -1;
  while (j < n && j - i < cap) {
    int word_ascii = 1;
    size_t e = word_end(u, j, n, &word_ascii);
    if (run_ascii < 0) run_ascii = word_ascii;
    else if (word_ascii != run_ascii) break;
    j = e;
    while (j < n && (u[j] == ' ' || u[j] == '\n')) j++;
  }
  *ascii = run_ascii;
  return j;
}

size_t tbk_tokenize_valid(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn, void *ctx) {
  const unsigned char *u = (const unsigned char *)s;
  size_t count = 0;
  /* The runs start short and grow to RUN_BYTES: a caller that wants a
   * block's first three distinct words (tbk_unique_words_valid, once per
   * candidate block) scanned 256 bytes for the end of the first run. */
  size_t cap = FIRST_RUN_BYTES;
  for (size_t i = 0; i < n;) {
    int run_ascii;
    size_t j = script_run_end(u, i, n, cap, &run_ascii);
    int stop = run_ascii ? tokenize_ascii(t, u + i, j - i, fn, ctx, &count)
                         : tokenize_pcre(t, s + i, j - i, fn, ctx, &count);
    if (stop) break;
    i = j;
    if (cap < RUN_BYTES) cap *= 2;
  }
  return count;
}

static int hash_token(void *vc, const char *tok, size_t len) {
  hashed_ctx *c = vc;
  const unsigned char *u = (const unsigned char *)tok;
  uint64_t h64 = TBK_FNV64_INIT;
  uint32_t h32 = TBK_FNV32_INIT;
  for (size_t k = 0; k < len; k++) {
    h64 = tbk_fnv64_step(h64, u[k]);
    h32 = tbk_fnv32_step(h32, u[k]);
  }
  return c->fn(c->ctx, h64, h32, (uint32_t)c->t->emit_length, (size_t)(c->t->emit_src - c->s));
}

size_t tbk_tokenize_hashed(tbk_tokenizer *t, const char *s, size_t n, tbk_hashed_token_fn fn, void *ctx) {
  const unsigned char *u = (const unsigned char *)s;
  hashed_ctx hc = {fn, ctx, t, s};
  size_t count = 0;
  for (size_t i = 0; i < n;) {
    int run_ascii; /* the runs tbk_tokenize_valid cuts */
    size_t j = script_run_end(u, i, n, RUN_BYTES, &run_ascii);
    if (!run_ascii) {
      if (tokenize_pcre(t, s + i, j - i, hash_token, &hc, &count)) return count;
      i = j;
      continue;
    }
    /* tokenize_ascii's tokens, folded and hashed in place */
    for (size_t a = i; a < j;) {
      if (!tbk_ascii_word(u[a])) {
        a++;
        continue;
      }
      size_t b = tbk_ascii_token_end(u, a, j);
      uint64_t h64;
      uint32_t h32;
      tbk_hash_ascii_folded(u + a, b - a, &h64, &h32);
      count++;
      if (fn(ctx, h64, h32, (uint32_t)(b - a), a)) return count;
      a = b;
    }
    i = j;
  }
  return count;
}

size_t tbk_tokenize(tbk_tokenizer *t, const char *s, size_t n, tbk_token_fn fn, void *ctx) {
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
