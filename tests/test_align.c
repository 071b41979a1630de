/* Gold alignment (core/label/align.c): hand-made pages with known answers, the
 * multiset fallback, errors, and the bit-parallel LCS against a plain
 * dynamic programme on random sequences. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "align_internal.h"
#include "check.h"
#include "tbk_internal.h"

#define MAXU 64

/* A page made of units joined by " | " (no token), with their ranges. */
typedef struct page {
  tbk_buf text;
  uint32_t start[MAXU], end[MAXU];
  uint32_t tokens[MAXU], matched[MAXU];
  size_t n;
} page;

static void page_make(page *p, const char *const *units, size_t n) {
  memset(p, 0, sizeof *p);
  for (size_t u = 0; u < n; u++) {
    if (u) CHECK_BUF(tbk_buf_puts(&p->text, " | "));
    p->start[u] = (uint32_t)p->text.len;
    CHECK_BUF(tbk_buf_puts(&p->text, units[u]));
    p->end[u] = (uint32_t)p->text.len;
  }
  p->n = n;
}

static tbk_status page_align(tbk_tokenizer *t, page *p, const char *gold, uint64_t budget, int *exact) {
  tbk_error err = {0};
  return tbk_align_gold_budget(t, p->text.data, p->text.len, p->start, p->end, p->n, gold, strlen(gold), p->tokens,
                               p->matched, budget, exact, &err);
}

static uint32_t sum(const uint32_t *v, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i < n; i++) s += v[i];
  return s;
}

static void test_story(tbk_tokenizer *t) {
  const char *units[] = {"Home News Sport", "Title of story", "Body sentence one two three.", "Share this",
                         "Related: other story"};
  page p;
  page_make(&p, units, 5);
  tbk_error err = {0};
  CHECK_INT(tbk_align_gold(t, p.text.data, p.text.len, p.start, p.end, 5,
                           "Title of story\nBody sentence one two three.", 44, p.tokens, p.matched, &err),
            TBK_OK);
  uint32_t tok[] = {3, 3, 5, 2, 3}, mat[] = {0, 3, 5, 0, 0};
  for (int u = 0; u < 5; u++) {
    CHECK_INT(p.tokens[u], tok[u]);
    CHECK_INT(p.matched[u], mat[u]);
  }
  /* The fallback gets this one right too: "story" is used up by the title
   * before "Related" comes. */
  int exact = -1;
  CHECK_INT(page_align(t, &p, "Title of story\nBody sentence one two three.", 0, &exact), TBK_OK);
  CHECK_INT(exact, 0);
  for (int u = 0; u < 5; u++) CHECK_INT(p.matched[u], mat[u]);
  tbk_buf_free(&p.text);
}

/* The trace from the end takes the latest "the story"; the cleanup must
 * move it back next to "about". */
static void test_runs_move_back(tbk_tokenizer *t) {
  const char *units[] = {"Body about the story", "Related: the other story"};
  page p;
  page_make(&p, units, 2);
  int exact = -1;
  CHECK_INT(page_align(t, &p, "Body about the story", TBK_ALIGN_MAX_BITS, &exact), TBK_OK);
  CHECK_INT(exact, 1);
  CHECK_INT(p.matched[0], 4);
  CHECK_INT(p.matched[1], 0);
  CHECK_INT(p.tokens[1], 4);

  /* A match whose run only continues into the next unit ("beta" next to
   * "gamma") joins its gold neighbour inside a unit instead. */
  const char *units2[] = {"alpha beta", "beta", "gamma"};
  tbk_buf_free(&p.text);
  page_make(&p, units2, 3);
  CHECK_INT(page_align(t, &p, "alpha beta gamma", TBK_ALIGN_MAX_BITS, NULL), TBK_OK);
  CHECK_INT(p.matched[0], 2);
  CHECK_INT(p.matched[1], 0);
  CHECK_INT(p.matched[2], 1);
  tbk_buf_free(&p.text);
}

/* A navigation unit repeating the gold's words in the wrong order: the
 * bag of words credits it, the LCS does not. */
static void test_order(tbk_tokenizer *t) {
  const char *units[] = {"four three two", "one two three four"};
  page p;
  page_make(&p, units, 2);
  int exact = -1;
  CHECK_INT(page_align(t, &p, "one two three four", TBK_ALIGN_MAX_BITS, &exact), TBK_OK);
  CHECK_INT(exact, 1);
  CHECK_INT(p.matched[0], 0);
  CHECK_INT(p.matched[1], 4);
  CHECK_INT(page_align(t, &p, "one two three four", 0, &exact), TBK_OK);
  CHECK_INT(exact, 0);
  CHECK_INT(p.matched[0], 3);
  CHECK_INT(p.matched[1], 1);
  tbk_buf_free(&p.text);
}

/* 200 gold tokens (four 64-bit words): matches must carry across words. */
static void test_long(tbk_tokenizer *t) {
  tbk_buf gold = {0}, content[4] = {{0}};
  for (int i = 0; i < 200; i++) {
    CHECK_BUF(tbk_buf_printf(&gold, "%sw%d", i ? " " : "", i));
    if (i % 7 == 3) continue; /* the page lacks some gold words */
    CHECK_BUF(tbk_buf_printf(&content[i / 50], "w%d ", i));
  }
  const char *units[] = {"w150 w199 w120 menu", content[0].data, content[1].data,
                         content[2].data,       content[3].data, "w0 w1 contact"};
  page p;
  page_make(&p, units, 6);
  int exact = -1;
  CHECK_INT(page_align(t, &p, gold.data, TBK_ALIGN_MAX_BITS, &exact), TBK_OK);
  CHECK_INT(exact, 1);
  CHECK_INT(p.matched[0], 0);
  for (int u = 1; u <= 4; u++) {
    CHECK(p.tokens[u] > 40);
    CHECK_INT(p.matched[u], p.tokens[u]);
  }
  CHECK_INT(p.matched[5], 0);
  tbk_buf_free(&p.text);
  tbk_buf_free(&gold);
  for (int i = 0; i < 4; i++) tbk_buf_free(&content[i]);
}

static void test_case_and_empty(tbk_tokenizer *t) {
  const char *units[] = {"THE Quick BROWN fox", " ,, -- ", "", "ÉCOLE élève"};
  page p;
  page_make(&p, units, 4);
  CHECK_INT(page_align(t, &p, "the quick brown FOX école ÉLÈVE", TBK_ALIGN_MAX_BITS, NULL), TBK_OK);
  CHECK_INT(p.tokens[0], 4);
  CHECK_INT(p.matched[0], 4);
  CHECK_INT(p.tokens[1], 0);
  CHECK_INT(p.matched[1], 0);
  CHECK_INT(p.tokens[2], 0);
  CHECK_INT(p.matched[2], 0);
  CHECK_INT(p.matched[3], 2);
  /* Empty gold (or one without tokens): nothing matches, tokens counted. */
  CHECK_INT(page_align(t, &p, "", TBK_ALIGN_MAX_BITS, NULL), TBK_OK);
  CHECK_INT(sum(p.matched, 4), 0);
  CHECK_INT(p.tokens[0], 4);
  CHECK_INT(page_align(t, &p, " !? ", TBK_ALIGN_MAX_BITS, NULL), TBK_OK);
  CHECK_INT(sum(p.matched, 4), 0);
  /* No units at all. */
  tbk_error err = {0};
  CHECK_INT(tbk_align_gold(t, NULL, 0, NULL, NULL, 0, "x", 1, NULL, NULL, &err), TBK_OK);
  /* Invalid UTF-8 and ranges cutting sequences: counted, never a crash. */
  const char bad[] = "caf\xC3 \xFF\xFEword word\xE2\x82";
  uint32_t s[] = {0, 4, 5}, e[] = {4, 5, sizeof bad - 1}, tk[3], mt[3];
  CHECK_INT(tbk_align_gold(t, bad, sizeof bad - 1, s, e, 3, "word", 4, tk, mt, &err), TBK_OK);
  CHECK(mt[2] >= 1 && mt[2] <= tk[2]);
  tbk_buf_free(&p.text);
}

static void test_budget(tbk_tokenizer *t) {
  /* 3 matchable page tokens, 3 gold tokens: 4 rows of one word. */
  const char *units[] = {"a b", "c"};
  page p;
  page_make(&p, units, 2);
  int exact = -1;
  CHECK_INT(page_align(t, &p, "a b c", 4 * 64, &exact), TBK_OK);
  CHECK_INT(exact, 1);
  CHECK_INT(page_align(t, &p, "a b c", 4 * 64 - 1, &exact), TBK_OK);
  CHECK_INT(exact, 0);
  CHECK_INT(p.matched[0], 2);
  CHECK_INT(p.matched[1], 1);
  tbk_buf_free(&p.text);
}

static void test_errors(tbk_tokenizer *t) {
  const char *text = "one two three four";
  uint32_t tk[2], mt[2] = {7, 7};
  tbk_error err = {0};
#define ALIGN(tt, s, e, n, g) tbk_align_gold(tt, text, strlen(text), s, e, n, g, strlen(g), tk, mt, &err)
  uint32_t s0[] = {0, 8}, e0[] = {7, 18};
  CHECK_INT(ALIGN(NULL, s0, e0, 2, "one"), TBK_ERR_ARG);
  CHECK_INT(ALIGN(t, s0, e0, 2, "one"), TBK_OK);
  CHECK_INT(mt[0], 1);
  uint32_t s1[] = {5, 8}, e1[] = {4, 18}; /* start after end */
  CHECK_INT(ALIGN(t, s1, e1, 2, "one"), TBK_ERR_ARG);
  CHECK(strstr(err.msg, "unit 0") != NULL);
  uint32_t s2[] = {0, 8}, e2[] = {7, 19}; /* past the text */
  CHECK_INT(ALIGN(t, s2, e2, 2, "one"), TBK_ERR_ARG);
  uint32_t s3[] = {0, 6}, e3[] = {7, 18}; /* overlapping */
  CHECK_INT(ALIGN(t, s3, e3, 2, "one"), TBK_ERR_ARG);
  uint32_t s4[] = {8, 0}, e4[] = {18, 7}; /* unordered */
  CHECK_INT(ALIGN(t, s4, e4, 2, "one"), TBK_ERR_ARG);
  CHECK_INT(ALIGN(t, NULL, e0, 2, "one"), TBK_ERR_ARG);
  CHECK_INT(tbk_align_gold(t, text, 18, s0, e0, 2, "x", 1, NULL, mt, &err), TBK_ERR_ARG);
  CHECK_INT(tbk_align_gold(t, NULL, 18, s0, e0, 2, "x", 1, tk, mt, &err), TBK_ERR_ARG);
  CHECK_INT(tbk_align_gold(t, text, 18, s0, e0, 2, NULL, 1, tk, mt, &err), TBK_ERR_ARG);
  CHECK_INT(err.code, TBK_ERR_ARG);
  /* Touching and empty ranges are fine. */
  uint32_t s5[] = {0, 3}, e5[] = {3, 3};
  CHECK_INT(ALIGN(t, s5, e5, 2, "one"), TBK_OK);
  CHECK_INT(mt[0], 1);
  CHECK_INT(tk[1], 0);
#undef ALIGN
}

/* ------------------------------------------------- random against DP */

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint32_t rnd(uint32_t n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng % n);
}

static size_t lcs_dp(const int *a, size_t n, const int *b, size_t m) {
  size_t *prev = calloc(m + 1, sizeof *prev), *cur = calloc(m + 1, sizeof *cur);
  for (size_t i = 1; i <= n; i++) {
    for (size_t j = 1; j <= m; j++)
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];
    size_t *x = prev;
    prev = cur;
    cur = x;
  }
  size_t r = prev[m];
  free(prev);
  free(cur);
  return r;
}

static size_t bag_common(const int *a, size_t n, const int *b, size_t m) {
  size_t ca[64] = {0}, cb[64] = {0}, c = 0;
  for (size_t i = 0; i < n; i++) ca[a[i]]++;
  for (size_t j = 0; j < m; j++) cb[b[j]]++;
  for (int w = 0; w < 64; w++) c += ca[w] < cb[w] ? ca[w] : cb[w];
  return c;
}

static void test_random(tbk_tokenizer *t) {
  static const char *words[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
  int a[400], b[400];
  char name[16];
  int bad_lcs = 0, bad_bag = 0, bad_units = 0;
  for (int iter = 0; iter < 400; iter++) {
    int vocab = 2 + (int)rnd(iter % 3 == 0 ? 40 : 6);
    size_t nu = 1 + rnd(8), n = 0, m = rnd(iter % 4 == 0 ? 330 : 90);
    tbk_buf text = {0}, gold = {0};
    uint32_t s[8], e[8], tk[8], mt[8], nt[8];
    for (size_t u = 0; u < nu; u++) {
      size_t k = rnd(iter % 4 == 0 ? 50 : 20);
      if (u) CHECK_BUF(tbk_buf_puts(&text, "\n"));
      s[u] = (uint32_t)text.len;
      for (size_t i = 0; i < k; i++) {
        a[n] = (int)rnd((uint32_t)vocab);
        if (a[n] < 8) snprintf(name, sizeof name, "%s", words[a[n]]);
        else snprintf(name, sizeof name, "W%d", a[n]); /* folded to w%d */
        CHECK_BUF(tbk_buf_printf(&text, "%s%s", i ? " " : "", name));
        n++;
      }
      e[u] = (uint32_t)text.len;
      nt[u] = (uint32_t)k;
    }
    for (size_t j = 0; j < m; j++) {
      b[j] = (int)rnd((uint32_t)vocab);
      if (b[j] < 8) CHECK_BUF(tbk_buf_printf(&gold, "%s ", words[b[j]]));
      else CHECK_BUF(tbk_buf_printf(&gold, "w%d. ", b[j]));
    }
    tbk_error err = {0};
    int exact = -1;
    CHECK_INT(tbk_align_gold_budget(t, text.data, text.len, s, e, nu, gold.data, gold.len, tk, mt, TBK_ALIGN_MAX_BITS,
                                    &exact, &err),
              TBK_OK);
    bad_lcs += sum(mt, nu) != lcs_dp(a, n, b, m) || exact != 1;
    for (size_t u = 0; u < nu; u++) bad_units += tk[u] != nt[u] || mt[u] > tk[u];
    CHECK_INT(tbk_align_gold_budget(t, text.data, text.len, s, e, nu, gold.data, gold.len, tk, mt, 0, &exact, &err),
              TBK_OK);
    size_t common = bag_common(a, n, b, m);
    bad_bag += sum(mt, nu) != common || (exact != 0 && common > 0);
    for (size_t u = 0; u < nu; u++) bad_units += mt[u] > tk[u];
    tbk_buf_free(&text);
    tbk_buf_free(&gold);
  }
  CHECK_INT(bad_lcs, 0);
  CHECK_INT(bad_bag, 0);
  CHECK_INT(bad_units, 0);
}

int main(void) {
  tbk_tokenizer *t;
  tbk_error err = {0};
  if (tbk_tokenizer_new(&t, &err) != TBK_OK) {
    fprintf(stderr, "tokenizer: %s\n", err.msg);
    return 1;
  }
  test_story(t);
  test_runs_move_back(t);
  test_order(t);
  test_long(t);
  test_case_and_empty(t);
  test_budget(t);
  test_errors(t);
  test_random(t);
  tbk_tokenizer_free(t);
  return check_report();
}
