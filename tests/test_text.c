/* Text primitives: whitespace normalization, UTF-8 checks, the Unicode
 * tokenizer and unique-word counts, MD5 fingerprints and JSON string
 * escaping. Expected MD5 values were computed with coreutils md5sum. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"
#include "text_internal.h"

static tbk_tokenizer *tok;

/* Normalize s and compare with want. */
static void check_norm(const char *s, size_t n, const char *want, int line) {
  tbk_buf out = {0};
  int rc = tbk_text_normalize(s, n, &out);
  check_count++;
  const char *got = out.data ? out.data : "";
  if (rc != 0 || out.len != strlen(want) || memcmp(got, want, out.len) != 0) {
    check_failures++;
    fprintf(stderr, "%s:%d: normalize gave \"%s\" (rc %d), expected \"%s\"\n", __FILE__, line, got, rc, want);
  }
  tbk_buf_free(&out);
}
#define NORM(s, want) check_norm(s, sizeof(s) - 1, want, __LINE__)

static void test_normalize(void) {
  NORM("", "");
  NORM("   ", "");
  NORM("a", "a");
  NORM("  hello   world  ", "hello world");
  NORM("\t\tone\ttwo\n\nthree\r\nfour\f\vfive\n", "one two three four five");
  NORM("a\xC2\xA0\xC2\xA0"
       "b",
       "a b"); /* NBSP */
  NORM("\xE3\x80\x80"
       "日本\xE3\x80\x80語\xE3\x80\x80",
       "日本 語");                                             /* ideographic space */
  NORM("x\xE2\x80\x83y\xE2\x80\xA8z\xE2\x80\xAFw", "x y z w"); /* em space, line sep, narrow NBSP */
  NORM("\xC2\x85"
       "next\xC2\x85",
       "next"); /* NEL */
  NORM("Café  ", "Café");
  /* Not whitespace: zero-width space stays (it is not White_Space). */
  NORM("a\xE2\x80\x8B"
       "b",
       "a\xE2\x80\x8B"
       "b");
  /* Invalid bytes are kept as U+FFFD, and spacing around them survives. */
  NORM("a \xFF b", "a \xEF\xBF\xBD b");
  NORM("\xC3", "\xEF\xBF\xBD");
  /* Appends to what is already there. */
  tbk_buf out = {0};
  CHECK_BUF(tbk_buf_puts(&out, "pre:"));
  CHECK_INT(tbk_text_normalize(" x  y ", 6, &out), 0);
  CHECK_STR(out.data, "pre:x y");
  tbk_buf_free(&out);
  /* Embedded NUL is not whitespace: length-based, not C-string based. */
  const char nul[] = "a\0b";
  tbk_text_normalize(nul, 3, &out);
  CHECK_INT(out.len, 3);
  CHECK(memcmp(out.data, "a\0b", 3) == 0);
  tbk_buf_free(&out);
}

static void test_utf8(void) {
  CHECK_INT(tbk_utf8_length("", 0), 0);
  CHECK_INT(tbk_utf8_length("abc", 3), 3);
  CHECK_INT(tbk_utf8_length("Café", strlen("Café")), 4);
  CHECK_INT(tbk_utf8_length("日本語", strlen("日本語")), 3);
  CHECK_INT(tbk_utf8_length("\xF0\x9F\x98\x80", 4), 1); /* emoji, 4 bytes */
  /* Invalid bytes count one each (documented), stray continuations too. */
  CHECK_INT(tbk_utf8_length("\xFF", 1), 1);
  CHECK_INT(tbk_utf8_length("\x80", 1), 1);
  CHECK_INT(tbk_utf8_length("a\x80\x80"
                            "b",
                            4),
            4);
  CHECK_INT(tbk_utf8_length("\xC3", 1), 1); /* truncated */
  CHECK_INT(tbk_utf8_length("\xE6\x97"
                            "a",
                            3),
            3);                                 /* truncated 3-byte + a */
  CHECK_INT(tbk_utf8_length("\xC0\xAF", 2), 2); /* overlong '/' */

  CHECK(tbk_utf8_valid("", 0));
  CHECK(tbk_utf8_valid("plain ascii", 11));
  CHECK(tbk_utf8_valid("Café 日本語 \xF0\x9F\x98\x80", strlen("Café 日本語 \xF0\x9F\x98\x80")));
  CHECK(tbk_utf8_valid("\xEF\xBF\xBF", 3));     /* U+FFFF is valid */
  CHECK(tbk_utf8_valid("\xF4\x8F\xBF\xBF", 4)); /* U+10FFFF */
  CHECK(!tbk_utf8_valid("\xC0\xAF", 2));        /* overlong 2-byte */
  CHECK(!tbk_utf8_valid("\xC1\xBF", 2));
  CHECK(!tbk_utf8_valid("\xE0\x80\xAF", 3));     /* overlong 3-byte */
  CHECK(!tbk_utf8_valid("\xF0\x80\x80\xAF", 4)); /* overlong 4-byte */
  CHECK(!tbk_utf8_valid("\xED\xA0\x80", 3));     /* U+D800 surrogate */
  CHECK(!tbk_utf8_valid("\xED\xBF\xBF", 3));     /* U+DFFF surrogate */
  CHECK(tbk_utf8_valid("\xED\x9F\xBF", 3));      /* U+D7FF is fine */
  CHECK(!tbk_utf8_valid("\xF4\x90\x80\x80", 4)); /* > U+10FFFF */
  CHECK(!tbk_utf8_valid("\xF5\x80\x80\x80", 4));
  CHECK(!tbk_utf8_valid("\xFF", 1));
  CHECK(!tbk_utf8_valid("\x80", 1)); /* lone continuation */
  CHECK(!tbk_utf8_valid("\xC3", 1)); /* truncated at end */
  CHECK(!tbk_utf8_valid("\xE6\x97", 2));
  CHECK(!tbk_utf8_valid("\xF0\x9F\x98", 3));
  CHECK(!tbk_utf8_valid("\xC3"
                        "a",
                        2)); /* bad continuation */
  /* Validity is length-bound: a valid prefix of a longer string is valid. */
  CHECK(tbk_utf8_valid("ab\xFF", 2));
}

typedef struct collect {
  char toks[64][64];
  size_t n;
} collect;

static int collect_fn(void *ctx, const char *t, size_t len) {
  collect *c = ctx;
  if (c->n < 64 && len < 64) {
    memcpy(c->toks[c->n], t, len);
    c->toks[c->n][len] = '\0';
    /* The token is NUL-terminated as documented. */
    if (t[len] != '\0') c->toks[c->n][0] = '!';
  }
  c->n++;
  return 0;
}

/* Tokenize s and compare with the space-separated expected tokens. */
static void check_tokens(const char *s, const char *want, int line) {
  collect c = {0};
  size_t n = tbk_tokenize(tok, s, strlen(s), collect_fn, &c);
  char got[2048] = "";
  for (size_t i = 0; i < c.n && i < 64; i++) {
    if (i) strcat(got, " ");
    strcat(got, c.toks[i]);
  }
  check_count++;
  if (n != c.n || strcmp(got, want) != 0) {
    check_failures++;
    fprintf(stderr, "%s:%d: tokens of \"%s\" = [%s] (%zu), expected [%s]\n", __FILE__, line, s, got, n, want);
  }
}
#define TOKENS(s, want) check_tokens(s, want, __LINE__)

static size_t uniq(const char *s) { return tbk_unique_words(tok, s, strlen(s), 0); }

static int stop_after_two(void *ctx, const char *t, size_t len) {
  (void)t;
  (void)len;
  return ++*(int *)ctx >= 2;
}

/* tbk_utf8_valid and the decoder's cleaning read ASCII eight bytes at a
 * time: on random texts of ASCII (controls, DEL, TAB, line ends,
 * printable), valid and broken multibyte sequences, the answers must be
 * the byte-at-a-time ones: validity as tbk_utf8_seq says, and a UTF-8
 * page (BOM) decoded to its bytes without C0 controls other than TAB LF
 * CR FF and without DEL. */
static void test_utf8_words(void) {
  static const char *const pieces[] = {"a",
                                       "Z",
                                       " ",
                                       "~",
                                       "\t",
                                       "\n",
                                       "\r",
                                       "\f",
                                       "\x01",
                                       "\x1f",
                                       "\x7f",
                                       "\x0b",
                                       "word ",
                                       "0123456789",
                                       "\xC3\xA9",
                                       "\xE2\x80\x94",
                                       "\xF0\x9F\x98\x80",
                                       "\xC3",
                                       "\x80",
                                       "\xFF"};
  enum { NP = sizeof pieces / sizeof *pieces, BROKEN = NP - 3 };
  uint64_t st = 99;
  int bad_valid = 0, bad_clean = 0;
  tbk_buf in = {0}, out = {0}, want = {0};
  for (int trial = 0; trial < 3000; trial++) {
    in.len = 0;
    CHECK_BUF(tbk_buf_append(&in, "\xEF\xBB\xBFx", 4));
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    int len = (int)(st >> 58), broken = trial % 2 == 0; /* 0..63 pieces */
    for (int k = 0; k < len; k++) {
      st = st * 6364136223846793005ULL + 1442695040888963407ULL;
      /* mostly printable runs, so that whole words of eight occur */
      size_t p = st >> 61 ? (st >> 40) % 4 == 0 ? 12 : 0 : (st >> 32) % (broken ? NP : BROKEN);
      CHECK_BUF(tbk_buf_append(&in, pieces[p], strlen(pieces[p])));
      if (p == 0)
        for (int r = (int)(st >> 20 & 15); r-- > 0;) CHECK_BUF(tbk_buf_append(&in, "q", 1));
    }
    /* the byte-at-a-time answers, from the start (any offset mod 8) */
    for (size_t off = 0; off < 4 && off <= in.len; off++) {
      const unsigned char *u = (const unsigned char *)in.data + off;
      size_t n = in.len - off, i = 0;
      int valid = 1;
      while (i < n) {
        if (u[i] < 0x80) {
          i++;
          continue;
        }
        size_t k = tbk_utf8_seq(u + i, n - i);
        if (!k) {
          valid = 0;
          break;
        }
        i += k;
      }
      if (tbk_utf8_valid(in.data + off, n) != valid) bad_valid++;
    }
    if (broken) continue;
    want.len = 0;
    for (size_t i = 3; i < in.len; i++) {
      unsigned char c = (unsigned char)in.data[i];
      if (c >= 0x80 || (c >= 0x20 && c != 0x7F) || c == '\t' || c == '\n' || c == '\r' || c == '\f')
        CHECK_BUF(tbk_buf_append(&want, in.data + i, 1));
    }
    char cs[48];
    tbk_error e;
    if (tbk_decode_page(in.data, in.len, NULL, &out, cs, NULL, &e) != TBK_OK || out.len != want.len ||
        memcmp(out.data, want.data, want.len) != 0)
      bad_clean++;
  }
  CHECK_INT(bad_valid, 0);
  CHECK_INT(bad_clean, 0);
  tbk_buf_free(&in);
  tbk_buf_free(&out);
  tbk_buf_free(&want);
}

static void test_tokenize(void) {
  TOKENS("Hello, World!", "hello world");
  TOKENS("", "");
  TOKENS("  ... --- !!! ", "");
  TOKENS("Café CAFÉ café", "café café café");
  CHECK_INT(uniq("Café CAFÉ café"), 1);
  /* German: ẞ (U+1E9E) lowercases to ß; "SS" is not folded to ß. */
  TOKENS("Straße STRAẞE", "straße straße");
  CHECK_INT(uniq("Straße STRAẞE straße"), 1);
  CHECK_INT(uniq("Straße STRASSE"), 2);
  TOKENS("Äpfel ÖL über", "äpfel öl über");
  /* Greek, with tonos on a capital. */
  TOKENS("Αθήνα ΑΘΉΝΑ αθήνα", "αθήνα αθήνα αθήνα");
  CHECK_INT(uniq("Αθήνα ΑΘΉΝΑ αθήνα"), 1);
  /* Cyrillic. */
  TOKENS("Москва МОСКВА, ёлка ЁЛКА", "москва москва ёлка ёлка");
  CHECK_INT(uniq("Москва МОСКВА москва"), 1);
  /* Han and Kana: overlapping bigrams of letters in a row, a lone letter
   * alone; spaces and punctuation end a row. */
  TOKENS("日本語", "日本 本語");
  CHECK_INT(tbk_tokenize(tok, "日本語", strlen("日本語"), NULL, NULL), 2);
  CHECK_INT(uniq("日本語"), 2);
  CHECK_INT(uniq("日本日本"), 2);
  TOKENS("日", "日");
  TOKENS("日 本。東京、大阪", "日 本 東京 大阪");
  TOKENS("ひらがなカタカナ", "ひら らが がな なカ カタ タカ カナ");
  /* Mixed with Latin the Latin run stays one token. */
  TOKENS("東京Tower", "東京 tower");
  TOKENS("a日b", "a 日 b");
  /* The menu of the issue: twelve items, twelve distinct words or more. */
  CHECK_INT(uniq("首页 国内 国际 财经 体育 娱乐 科技 汽车 房产 教育 旅游 关于我们"), 14);
  /* Hangul is written with spaces: whole words, as before. */
  TOKENS("한국어 뉴스", "한국어 뉴스");
  /* Thai, Lao, Khmer, Myanmar: syllable runs (a leading vowel starts one,
   * a consonant with its own vowel after a vowelled syllable starts one;
   * a killed consonant or one stacked under a joiner does not). */
  TOKENS("ภาษาไทย", "ภา ษา ไทย");
  TOKENS("เด็กชาย เกิด", "เด็ก ชาย เกิด");
  TOKENS("ພາສາລາວ", "ພາ ສາ ລາວ");
  TOKENS("កម្ពុជា", "កម្ពុ ជា");
  TOKENS("မြန်မာ", "မြန် မာ");
  TOKENS("ไทย2024", "ไทย 2024");
  CHECK_INT(uniq("ภาษาไทย ภาษาไทย"), 3);
  /* Numbers keep inner '.' and ','; ordinals are one token. */
  TOKENS("pi is 3.14, about 1,000 or 1st", "pi is 3.14 about 1,000 or 1st");
  TOKENS("end. 3. x", "end 3 x");
  TOKENS("v2.0.1", "v2 0.1");
  /* Underscore is connector punctuation: part of the word. */
  TOKENS("snake_case __init__ a-b", "snake_case __init__ a b");
  /* Combining marks stay inside the word. */
  TOKENS("e\xCC\x81t\xC3\xA9", "e\xCC\x81t\xC3\xA9");
  /* Invalid UTF-8: repaired, does not crash, separates words. */
  TOKENS("ab\xFF"
         "cd \xC3",
         "ab cd");
  TOKENS("\xED\xA0\x80"
         "x\xC0\xAF"
         "y",
         "x y");
  CHECK_INT(uniq("bad\xFF"
                 "bad\xFE"
                 "BAD"),
            1);
  /* Early stop: the callback's non-zero return ends the walk. */
  int seen = 0;
  CHECK_INT(tbk_tokenize(tok, "one two three four", 18, stop_after_two, &seen), 2);
  CHECK_INT(seen, 2);
  /* stop_at caps the count. */
  CHECK_INT(tbk_unique_words(tok, "a b c d e f", 11, 3), 3);
  CHECK_INT(tbk_unique_words(tok, "a b c d e f", 11, 0), 6);
  CHECK_INT(tbk_unique_words(tok, "a a a a a a", 11, 3), 1);
  /* The 3-unique-word rule's classic failure case. */
  CHECK_INT(uniq("aaa aaa aaa aaa aaa aaa aaa aaa aaa aaa"), 1);
  /* Many distinct words: the internal hash set grows and stays exact. */
  tbk_buf big = {0};
  for (int i = 0; i < 5000; i++) CHECK_BUF(tbk_buf_printf(&big, "w%d ", i % 2500));
  CHECK_INT(tbk_unique_words(tok, big.data, big.len, 0), 2500);
  tbk_buf_free(&big);
  /* Repeated calls reuse scratch state without leaking counts. */
  CHECK_INT(uniq("x y"), 2);
  CHECK_INT(uniq("x y"), 2);
}

static void joined(const char *s, char out[2048]) {
  collect c = {0};
  tbk_tokenize(tok, s, strlen(s), collect_fn, &c);
  out[0] = '\0';
  for (size_t i = 0; i < c.n && i < 64; i++) {
    if (i) strcat(out, " ");
    strcat(out, c.toks[i]);
  }
}

/* ASCII words skip PCRE2; a word with any other byte goes to the
 * non-ASCII path whole (its classes, or PCRE2: test_tokenize_classes).
 * Appending "¿" (punctuation, never a token) to a random ASCII word sends
 * it there: the tokens must not change. And words of both kinds in one
 * text give the tokens of each word alone. */
static void test_tokenize_paths(void) {
  static const char alphabet[] = "aZ09_.,-'/:x7Qz";
  unsigned seed = 11;
  int bad = 0;
  char w[32], forced[40], a[2048], b[2048];
  for (int trial = 0; trial < 3000; trial++) {
    size_t n = 1 + trial % 12;
    for (size_t i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      w[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
    }
    w[n] = '\0';
    snprintf(forced, sizeof forced, "%s\xC2\xBF", w);
    joined(w, a);
    joined(forced, b);
    if (strcmp(a, b) != 0) {
      if (bad++ < 5) fprintf(stderr, "  \"%s\": ascii [%s], pcre2 [%s]\n", w, a, b);
    }
  }
  CHECK_INT(bad, 0);
  TOKENS("Ab 3.5 caf\xC3\xA9 1,000\xE2\x80\x99s x_y \xE6\x9D\xB1\xE4\xBA\xACTower end.",
         "ab 3.5 caf\xC3\xA9 1,000 s x_y \xE6\x9D\xB1\xE4\xBA\xAC tower end");
  TOKENS("one\ntwo\tthree \xC3\xA9\n4,5", "one two three \xC3\xA9 4,5");
}

/* Every code point the tokenizer classifies without PCRE2 is classified as
 * PCRE2 (with the Unicode tables this build links) would: a Han/Kana
 * letter matches alone by the pattern's first alternative, a no-token
 * code point matches nothing. */
static void test_tokenize_fast_classes(void) {
  int fast = 0, none = 0, bad = 0;
  for (uint32_t c = 0x80; c < 0x30000; c++) {
    int want = tbk_hk_fast(c) ? 1 : tbk_no_token(c) ? 0 : -1;
    if (want < 0) continue;
    fast += want == 1;
    none += want == 0;
    if (tbk_token_probe(tok, c) != want && bad++ < 5) fprintf(stderr, "  U+%04X: PCRE2 disagrees\n", (unsigned)c);
  }
  CHECK_INT(bad, 0);
  CHECK(fast > 27000);
  CHECK(none > 70);
  /* and the probe tells the cases apart */
  CHECK_INT(tbk_token_probe(tok, 0xE9), 2);   /* é: a word by the third alternative */
  CHECK_INT(tbk_token_probe(tok, 0x3002), 0); /* the CJK full stop */
  CHECK_INT(tbk_token_probe(tok, 0xD55C), 2); /* a Hangul syllable */
  CHECK_INT(tbk_token_probe(tok, 0x65E5), 1);
  /* モジュール (mod_ssl)。日 */
  TOKENS("\xE3\x83\xA2\xE3\x82\xB8\xE3\x83\xA5\xE3\x83\xBC\xE3\x83\xAB (mod_ssl)\xE3\x80\x82\xE6\x97\xA5",
         "\xE3\x83\xA2\xE3\x82\xB8 \xE3\x82\xB8\xE3\x83\xA5 \xE3\x83\xA5\xE3\x83\xBC "
         "\xE3\x83\xBC\xE3\x83\xAB mod_ssl \xE6\x97\xA5");
  /* 「東京」、“quoted”—dash：end */
  TOKENS("\xE3\x80\x8C\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x80\x8D\xE3\x80\x81\xE2\x80\x9Cquoted\xE2\x80\x9D"
         "\xE2\x80\x94"
         "dash\xEF\xBC\x9A"
         "end",
         "\xE6\x9D\xB1\xE4\xBA\xAC quoted dash end");
}

/* tbk_tokenize_hashed gives tbk_tokenize's tokens: the FNV-1a hashes and
 * tbk_text_length of each folded token (folding counts the length on the
 * way, and CJK letters skip the case table), at its start in the text.
 * Words are split at spaces and newlines eight bytes at a time, so texts
 * of every length around that word size are tried. */
typedef struct hashed_tok {
  uint64_t h64;
  uint32_t h32, cps;
  size_t at;
} hashed_tok;
typedef struct hashed_list {
  hashed_tok t[256];
  size_t n;
  const char *base;
} hashed_list;
static int on_plain(void *p, const char *tok, size_t len) {
  hashed_list *l = p;
  if (l->n >= 256) return 1;
  l->t[l->n++] = (hashed_tok){tbk_hash64(tok, len), tbk_hash32(tok, len), (uint32_t)tbk_text_length(tok, len), 0};
  return 0;
}
static int on_hashed(void *p, uint64_t h64, uint32_t h32, uint32_t cps, size_t at) {
  hashed_list *l = p;
  if (l->n >= 256) return 1;
  l->t[l->n++] = (hashed_tok){h64, h32, cps, at};
  return 0;
}
static void test_tokenize_hashed(void) {
  static const char *const words[] = {"Word",
                                      "\xC3\x89T\xC3\x89",
                                      "\xCE\xA3\xCE\xBF\xCF\x86\xCE\xAF\xCE\xB1",
                                      "\xE6\x9D\xB1\xE4\xBA\xAC\xE9\x83\xBD",
                                      "\xE3\x83\xA2\xE3\x82\xB8\xE3\x83\xA5",
                                      "3.14",
                                      "x_y",
                                      "\xEF\xBC\xA1\xEF\xBC\xA2",
                                      "\xE0\xB8\xA0\xE0\xB8\xB2\xE0\xB8\xA9\xE0\xB8\xB2",
                                      "\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0",
                                      "a",
                                      "\xF0\xA0\x80\x8B\xF0\xA0\x80\x8C",
                                      "ABCDEFGHIJKLMNOPQ",
                                      "caf\xC3\xA9-bar",
                                      "\xE3\x80\x82"};
  static const char *const seps[] = {" ", "\n", "  ", "", " \n"};
  unsigned seed = 7;
  int bad = 0;
  char text[512];
  for (int trial = 0; trial < 2000; trial++) {
    size_t n = 0, k = 1 + trial % 9;
    for (size_t i = 0; i < k; i++) {
      seed = seed * 1103515245u + 12345u;
      const char *w = words[(seed >> 16) % (sizeof words / sizeof *words)];
      const char *sp = seps[(seed >> 8) % (sizeof seps / sizeof *seps)];
      n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", w, sp);
    }
    hashed_list a = {.n = 0}, b = {.n = 0};
    tbk_tokenize(tok, text, n, on_plain, &a);
    tbk_tokenize_hashed(tok, text, n, on_hashed, &b);
    int same = a.n == b.n;
    for (size_t i = 0; same && i < a.n; i++)
      same = a.t[i].h64 == b.t[i].h64 && a.t[i].h32 == b.t[i].h32 && a.t[i].cps == b.t[i].cps && b.t[i].at < n;
    if (!same && bad++ < 5)
      fprintf(stderr, "  \"%s\": %zu plain tokens, %zu hashed, or a hash/length differs\n", text, a.n, b.n);
  }
  CHECK_INT(bad, 0);
  /* positions: where each token starts */
  hashed_list l = {.n = 0};
  const char *s = "Ab  \xE6\x9D\xB1\xE4\xBA\xAC x";
  tbk_tokenize_hashed(tok, s, strlen(s), on_hashed, &l);
  CHECK_INT(l.n, 3);
  CHECK_INT(l.t[0].at, 0);
  CHECK_INT(l.t[1].at, 4);
  CHECK_INT(l.t[1].cps, 7); /* two Han letters, 3.7 each, floored */
  CHECK_INT(l.t[2].at, 11);
}

/* Words of Latin, Greek, Cyrillic, Hebrew and Arabic letters, digits,
 * marks and general punctuation are tokenized from their classes
 * (tokenize_classes); the same texts with the classes turned off go to
 * PCRE2: every token (folded, and hashed with its length and start) must
 * be the same. Pieces: letters, digits of three scripts, superscripts and
 * fractions (numbers), a combining accent, connector punctuation (a word
 * character), separators, spaces; a Han letter and U+2070 are outside
 * the covered code points and send their run to PCRE2 either way. */
static void test_tokenize_classes(void) {
  static const char *const pieces[] = {"a",
                                       "Z",
                                       "0",
                                       "9",
                                       "_",
                                       ".",
                                       ",",
                                       " ",
                                       "-",
                                       "'",
                                       "\n",
                                       "\xC3\xA9",
                                       "\xC3\x9F",
                                       "\xC2\xB2",
                                       "\xC2\xBD",
                                       "\xC2\xB5",
                                       "\xC3\x97",
                                       "\xC2\xBF",
                                       "\xC2\xA0",
                                       "\xCC\x81",
                                       "\xCE\xB1",
                                       "\xD0\x94",
                                       "\xD7\x90",
                                       "\xD9\xA3",
                                       "\xD8\x8C",
                                       "\xD9\xAB",
                                       "\xC3\x89",
                                       "\xD0\xB4",
                                       "\xE2\x80\x99",
                                       "\xE2\x80\x9C",
                                       "\xE2\x80\x94",
                                       "\xE2\x80\xA6",
                                       "\xE2\x80\xBF",
                                       "\xE2\x81\x80",
                                       "\xE2\x81\x94",
                                       "\xE2\x80\x8D",
                                       "\xE2\x80\x89",
                                       "\xE6\x97\xA5",
                                       "\xE2\x81\xB0"};
  const size_t np = sizeof pieces / sizeof pieces[0];
  uint64_t r = 7;
  int bad = 0, covered = 0;
  char text[256], a[2048], b[2048];
  for (int trial = 0; trial < 20000; trial++) {
    text[0] = '\0';
    int outside = 0;
    for (int i = 0, n = 1 + trial % 24; i < n; i++) {
      r = r * 6364136223846793005ULL + 1442695040888963407ULL;
      size_t k = (size_t)(r >> 33) % np;
      outside |= k >= np - 2;
      strcat(text, pieces[k]);
    }
    covered += !outside;
    tbk_tokenizer_classes(tok, 1);
    joined(text, a);
    hashed_list ha = {.n = 0};
    tbk_tokenize_hashed(tok, text, strlen(text), on_hashed, &ha);
    tbk_tokenizer_classes(tok, 0);
    joined(text, b);
    hashed_list hb = {.n = 0};
    tbk_tokenize_hashed(tok, text, strlen(text), on_hashed, &hb);
    tbk_tokenizer_classes(tok, 1);
    int same = strcmp(a, b) == 0 && ha.n == hb.n;
    for (size_t i = 0; same && i < ha.n; i++)
      same = ha.t[i].h64 == hb.t[i].h64 && ha.t[i].h32 == hb.t[i].h32 && ha.t[i].cps == hb.t[i].cps &&
             ha.t[i].at == hb.t[i].at;
    if (!same && bad++ < 5) fprintf(stderr, "  \"%s\": classes [%s], pcre2 [%s]\n", text, a, b);
  }
  CHECK_INT(bad, 0);
  CHECK(covered > 5000);
  /* numbers of other scripts keep their separators; connector
   * punctuation joins a word; superscripts and fractions are numbers */
  TOKENS("\xD9\xA3,\xD9\xA3 x\xE2\x80\xBFy \xC2\xB2.\xC2\xBD \xE2\x80\x9C"
         "Caf\xC3\x89\xE2\x80\x9D",
         "\xD9\xA3,\xD9\xA3 x\xE2\x80\xBFy \xC2\xB2.\xC2\xBD caf\xC3\xA9");
}

static void md5_of(const char *s, size_t n, char hex[33]) {
  unsigned char d[16];
  tbk_md5(s, n, d);
  tbk_md5_hex(d, hex);
}

/* Latin-equivalent lengths: Han, Kana and fullwidth forms weigh 3.7,
 * everything else (Hangul and emoji included) one, so Latin and Korean
 * lengths are code point counts. */
static size_t len_of(const char *s) { return tbk_text_length(s, strlen(s)); }
static void test_measure(void) {
  CHECK_INT(len_of(""), 0);
  CHECK_INT(len_of("Home News World"), 15);
  CHECK_INT(len_of("Café"), 4);
  CHECK_INT(len_of("\xFF"
                   "a"),
            2); /* an invalid byte counts one */
  CHECK_INT(len_of("한국어 뉴스"), 6);
  CHECK_INT(len_of("\xF0\x9F\x98\x80"), 1);
  CHECK_INT(len_of("日"), 3);               /* 3.7, floored */
  CHECK_INT(len_of("日本"), 7);             /* 7.4 */
  CHECK_INT(len_of("東京タワー"), 18);      /* Kana and the long vowel mark too */
  CHECK_INT(len_of("ＡＢＣ"), 11);          /* fullwidth forms */
  CHECK_INT(len_of("、。「」"), 14);        /* CJK punctuation */
  CHECK_INT(len_of("\xF0\xA0\x80\x80"), 3); /* U+20000, plane 2 */
  CHECK_INT(len_of("ภาษาไทย"), 7);          /* Thai: code points */
  CHECK_INT(len_of("ພາສາລາວ"), 7);          /* Lao, Khmer, Myanmar too (with their */
  CHECK_INT(len_of("កម្ពុជា"), 7);            /* signs and joiners) */
  CHECK_INT(len_of("မြန်မာ"), 6);
  /* The menu: 37 code points, Latin-equivalent 107 (its English
   * twin is about 100 characters). */
  const char *menu = "首页 国内 国际 财经 体育 娱乐 科技 汽车 房产 教育 旅游 关于我们";
  CHECK_INT(tbk_utf8_length(menu, strlen(menu)), 37);
  CHECK_INT(len_of(menu), 107);
  size_t cps, wide;
  tbk_text_counts(menu, strlen(menu), &cps, &wide);
  CHECK_INT(cps, 37);
  CHECK_INT(wide, 26);
  CHECK_INT(tbk_length_of(cps, wide), 107);
  /* Wide classes at their edges. */
  CHECK_INT(tbk_cp_wide(0x2E7F), 0);
  CHECK_INT(tbk_cp_wide(0x2E80), 1);
  CHECK_INT(tbk_cp_wide(0x3131), 0); /* Hangul compatibility jamo */
  CHECK_INT(tbk_cp_wide(0x3190), 1);
  CHECK_INT(tbk_cp_wide(0xA4CF), 1); /* Yi */
  CHECK_INT(tbk_cp_wide(0xAC00), 0); /* Hangul syllable */
  CHECK_INT(tbk_cp_wide(0xFF01), 1);
  CHECK_INT(tbk_cp_wide(0xFF61), 0); /* halfwidth Katakana: narrow */
  CHECK_INT(tbk_cp_wide(0x1F600), 0);
  CHECK_INT(tbk_cp_wide(0x2FFFF), 1);
  CHECK_INT(tbk_cp_wide(0x40000), 0);
}

static void test_md5(void) {
  char hex[33];
  md5_of("", 0, hex);
  CHECK_STR(hex, "d41d8cd98f00b204e9800998ecf8427e");
  md5_of("abc", 3, hex);
  CHECK_STR(hex, "900150983cd24fb0d6963f7d28e17f72");
  md5_of("The quick brown fox jumps over the lazy dog", 43, hex);
  CHECK_STR(hex, "9e107d9d372bb6826bd81d3542a419d6");
  /* printf 'Caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e' | md5sum */
  md5_of("Café 日本語", strlen("Café 日本語"), hex);
  CHECK_STR(hex, "ccde93d2957ee9e0be5f66e53c21145f");
  CHECK_INT(strlen(hex), 32);
  /* RFC 1321's 80-byte vector crosses a 64-byte block. */
  const char *digits80 = "1234567890123456789012345678901234567890123456789012345678901234567890"
                         "1234567890";
  md5_of(digits80, 80, hex);
  CHECK_STR(hex, "57edf4a22be3c955ac49da2e2107b67a");
  /* One context reused for many texts (the block finder's way) gives each
   * text its own digest: lengths around the padding boundaries (55, 56,
   * 63, 64, 119, 120...) against the one-shot call. */
  unsigned char buf[700], want[16], got[16];
  uint64_t r = 0x9E3779B97F4A7C15ULL;
  tbk_md5_ctx *c = tbk_md5_ctx_new();
  CHECK(c != NULL);
  for (size_t n = 0; c && n < sizeof buf; n++) {
    for (size_t i = 0; i < n; i++) {
      r = r * 6364136223846793005ULL + 1442695040888963407ULL;
      buf[i] = (unsigned char)(r >> 56);
    }
    tbk_md5(buf, n, want);
    tbk_md5_with(c, buf, n, got);
    CHECK(memcmp(got, want, 16) == 0);
  }
  tbk_md5_ctx_free(c);
  /* A million 'a's (RFC 1321's test suite, via md5sum). */
  char *big = malloc(1000000);
  CHECK(big != NULL);
  if (big) {
    memset(big, 'a', 1000000);
    md5_of(big, 1000000, hex);
    CHECK_STR(hex, "7707d6ae4e027c70eea2a935c2296f21");
    free(big);
  }
}

static void check_json(const char *s, size_t n, const char *want, int line) {
  tbk_buf b = {0};
  int rc = tbk_buf_json_str(&b, s, n);
  check_count++;
  if (rc || !b.data || strcmp(b.data, want) != 0) {
    check_failures++;
    fprintf(stderr, "%s:%d: json_str gave %s, expected %s\n", __FILE__, line, b.data ? b.data : "(null)", want);
  }
  tbk_buf_free(&b);
}
#define JSON(s, want) check_json(s, sizeof(s) - 1, want, __LINE__)

static void test_json(void) {
  JSON("", "\"\"");
  JSON("plain", "\"plain\"");
  JSON("say \"hi\"", "\"say \\\"hi\\\"\"");
  JSON("back\\slash", "\"back\\\\slash\"");
  JSON("a\nb\tc\rd", "\"a\\nb\\tc\\rd\"");
  JSON("\x01\x1f\b\f", "\"\\u0001\\u001f\\u0008\\u000c\"");
  JSON("nul\0in", "\"nul\\u0000in\"");
  JSON("slash / stays", "\"slash / stays\"");
  JSON("DEL\x7f", "\"DEL\x7f\"");
  JSON("Café 日本語 \xF0\x9F\x98\x80", "\"Café 日本語 \xF0\x9F\x98\x80\"");
  JSON("bad\xFF"
       "byte",
       "\"bad\xEF\xBF\xBD"
       "byte\"");
  JSON("\xC3", "\"\xEF\xBF\xBD\"");
  JSON("\xED\xA0\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
  JSON("\xC0\xAF", "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
  /* Appends after existing content. */
  tbk_buf b = {0};
  CHECK_BUF(tbk_buf_puts(&b, "{\"k\":"));
  CHECK_BUF(tbk_buf_json_str(&b, "v", 1));
  CHECK_BUF(tbk_buf_puts(&b, "}"));
  CHECK_STR(b.data, "{\"k\":\"v\"}");
  tbk_buf_free(&b);
}

/* tbk_buf_fixed4 and tbk_buf_u64 write what printf writes, byte for byte:
 * on exact halves (1/32 = 0.03125: printf rounds to even), the ends, values
 * just around a rounding point, and a million pseudo-random ones. */
static void test_fixed4(void) {
  double special[] = {0.0,        1.0,    0.03125, 0.09375, 0.5,    0.99995, 0.00005, 0.00004999999, 0.12345,
                      0.99999999, 1e-300, -0.0,    0.25,    0.6875, 1.5,     -0.25,   0.1 + 0.2};
  unsigned long long x = 88172645463325252ULL;
  char want[64];
  int bad = 0;
  for (size_t i = 0; i < 1000000 + sizeof special / sizeof *special; i++) {
    double v;
    if (i < sizeof special / sizeof *special) v = special[i];
    else {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      v = (double)(x >> 11) / 9007199254740992.0;
    }
    tbk_buf b = {0};
    CHECK_BUF(tbk_buf_fixed4(&b, v));
    snprintf(want, sizeof want, "%.4f", v);
    if (!b.data || strcmp(b.data, want) != 0) bad++;
    tbk_buf_free(&b);
  }
  CHECK_INT(bad, 0);
  unsigned long long ns[] = {0, 7, 10, 99, 1234567890123ULL, 18446744073709551615ULL};
  for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
    tbk_buf b = {0};
    CHECK_BUF(tbk_buf_u64(&b, ns[i]));
    snprintf(want, sizeof want, "%llu", ns[i]);
    CHECK_STR(b.data, want);
    tbk_buf_free(&b);
  }
}

int main(void) {
  test_utf8_words();
  test_fixed4();
  tbk_error err = {0};
  CHECK_INT(tbk_tokenizer_new(&tok, &err), TBK_OK);
  if (!tok) return check_report();
  test_normalize();
  test_utf8();
  test_tokenize();
  test_tokenize_paths();
  test_tokenize_fast_classes();
  test_tokenize_hashed();
  test_tokenize_classes();
  test_measure();
  test_md5();
  test_json();
  tbk_tokenizer_free(tok);
  tbk_tokenizer_free(NULL);
  return check_report();
}
