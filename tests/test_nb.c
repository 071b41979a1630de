/* Naive Bayes: hand-computed log-odds on a toy corpus (multinomial and
 * Bernoulli), symmetry, smoothing of unseen words, exact text round trip and
 * rejection of damaged model text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ml.h"
#include "util.h"

#define T(i, c) ((tbk_term){(i), (c)})

static tbk_nb *make(tbk_nb_kind kind, uint32_t dim, double alpha) {
  tbk_nb_options o;
  tbk_nb_options_init(&o);
  o.kind = kind;
  o.dim = dim;
  o.alpha = alpha;
  tbk_nb *nb = NULL;
  tbk_error e;
  CHECK_INT(tbk_nb_new(&o, &nb, &e), TBK_OK);
  return nb;
}

/* Toy corpus, 5 hashed words (word 4 never occurs), two documents a class:
 *   template  t1 = {0:2, 1:1}   t2 = {0:1, 2:1}   counts [3,1,1,0,0]  N_t = 5
 *   content   c1 = {2:1, 3:2}   c2 = {1:1, 3:3}   counts [0,1,1,5,0]  N_c = 7 */
static void add_corpus(tbk_nb *nb) {
  tbk_term t1[] = {T(0, 2), T(1, 1)}, t2[] = {T(0, 1), T(2, 1)};
  tbk_term c1[] = {T(2, 1), T(3, 2)}, c2[] = {T(1, 1), T(3, 3)};
  tbk_error e;
  CHECK_INT(tbk_nb_add(nb, 1, t1, 2, 1.0, &e), TBK_OK);
  CHECK_INT(tbk_nb_add(nb, 1, t2, 2, 1.0, &e), TBK_OK);
  CHECK_INT(tbk_nb_add(nb, -1, c1, 2, 1.0, &e), TBK_OK);
  CHECK_INT(tbk_nb_add(nb, -1, c2, 2, 1.0, &e), TBK_OK);
}

static double score(const tbk_nb *nb, const tbk_term *t, size_t n) {
  double s = NAN;
  tbk_error e;
  CHECK_INT(tbk_nb_score(nb, t, n, &s, &e), TBK_OK);
  return s;
}

static void test_multinomial_by_hand(void) {
  tbk_nb *nb = make(TBK_NB_MULTINOMIAL, 5, 1.0);
  add_corpus(nb);
  tbk_error e;
  CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
  /* alpha = 1, V = 5: theta_t = (n_t+1)/(5+5) = [4,2,2,1,1]/10
   *                   theta_c = (n_c+1)/(7+5) = [1,2,2,6,1]/12
   * priors 2/2: log ratio 0. */
  /* {0:1, 4:1}: ln((4/10)/(1/12)) + ln((1/10)/(1/12)) = ln 4.8 + ln 1.2
   *           = ln 5.76 = 1.7509374747 */
  tbk_term d1[] = {T(0, 1), T(4, 1)};
  CHECK_NEAR(score(nb, d1, 2), 1.7509374747, 1e-9);
  /* {3:2}: 2 ln((1/10)/(6/12)) = 2 ln 0.2 = -3.2188758249 */
  tbk_term d2[] = {T(3, 2)};
  CHECK_NEAR(score(nb, d2, 1), -3.2188758249, 1e-9);
  /* Unseen word 4, three times: only the smoothing speaks,
   * 3 ln((N_c + aV)/(N_t + aV)) = 3 ln(12/10) = 0.5469646704 */
  tbk_term d3[] = {T(4, 3)};
  CHECK_NEAR(score(nb, d3, 1), 0.5469646704, 1e-9);
  /* Words seen equally often in both classes (1 and 2) differ only by the
   * same normalization: ln((2/10)/(2/12)) = ln 1.2 each. */
  tbk_term d4[] = {T(1, 1), T(2, 1)};
  CHECK_NEAR(score(nb, d4, 2), 2 * log(1.2), 1e-12);
  /* Empty document: the prior only. */
  CHECK_NEAR(score(nb, NULL, 0), 0.0, 0);
  CHECK_NEAR(tbk_nb_docs(nb, 1), 2, 0);
  CHECK_NEAR(tbk_nb_docs(nb, -1), 2, 0);
  tbk_nb_free(nb);

  /* alpha = 0.5: {1:1} = ln(((1+.5)/(5+2.5)) / ((1+.5)/(7+2.5)))
   *                    = ln(9.5/7.5) = 0.2363887781 */
  nb = make(TBK_NB_MULTINOMIAL, 5, 0.5);
  add_corpus(nb);
  CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
  tbk_term d5[] = {T(1, 1)};
  CHECK_NEAR(score(nb, d5, 1), 0.2363887781, 1e-9);
  tbk_nb_free(nb);
}

static void test_prior(void) {
  /* One template document, three content documents, nothing in common:
   * the empty document scores the prior log-odds ln(1/3). */
  tbk_nb *nb = make(TBK_NB_MULTINOMIAL, 8, 1.0);
  tbk_term a[] = {T(0, 1)}, b[] = {T(1, 1)};
  tbk_error e;
  CHECK_INT(tbk_nb_add(nb, 1, a, 1, 1.0, &e), TBK_OK);
  for (int i = 0; i < 3; i++) CHECK_INT(tbk_nb_add(nb, -1, b, 1, 1.0, &e), TBK_OK);
  CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
  CHECK_NEAR(score(nb, NULL, 0), log(1.0 / 3.0), 1e-12);
  tbk_nb_free(nb);
  /* A document weight of 3 is three documents. */
  nb = make(TBK_NB_MULTINOMIAL, 8, 1.0);
  CHECK_INT(tbk_nb_add(nb, 1, a, 1, 1.0, &e), TBK_OK);
  CHECK_INT(tbk_nb_add(nb, -1, b, 1, 3.0, &e), TBK_OK);
  CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
  CHECK_NEAR(score(nb, NULL, 0), log(1.0 / 3.0), 1e-12);
  CHECK_NEAR(score(nb, b, 1), log(1.0 / 3.0) + log((1.0 / 9) / (4.0 / 11)), 1e-12);
  tbk_nb_free(nb);
}

static void test_bernoulli_by_hand(void) {
  tbk_nb *nb = make(TBK_NB_BERNOULLI, 5, 1.0);
  add_corpus(nb);
  tbk_error e;
  CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
  /* Document frequencies: template [2,1,1,0,0] of 2, content [0,1,1,2,0] of 2.
   * theta = (d+1)/(2+2): template [3,2,2,1,1]/4, content [1,2,2,3,1]/4.
   * Empty document: every word absent,
   *   sum ln((1-theta_t)/(1-theta_c)) = ln(1/3) + 0 + 0 + ln(3) + 0 = 0 */
  CHECK_NEAR(score(nb, NULL, 0), 0.0, 1e-12);
  /* {0}: ln(3/1) for presence of 0; absences of 1..4 give 0+0+ln3+0
   *    = 2 ln 3 = 2.1972245773; counts do not matter in Bernoulli mode. */
  tbk_term d1[] = {T(0, 5)};
  CHECK_NEAR(score(nb, d1, 1), 2.1972245773, 1e-9);
  /* {3, 4}: presence ln(1/3) + ln(1); absences of 0,1,2: ln(1/3) + 0 + 0
   *       = -2 ln 3 */
  tbk_term d2[] = {T(3, 1), T(4, 1)};
  CHECK_NEAR(score(nb, d2, 2), -2.1972245773, 1e-9);
  tbk_nb_free(nb);
}

static void test_symmetric(void) {
  /* The same documents in both classes: every document scores exactly 0. */
  for (int kind = 0; kind < 2; kind++) {
    tbk_nb *nb = make(kind ? TBK_NB_BERNOULLI : TBK_NB_MULTINOMIAL, 64, 1.0);
    tbk_term a[] = {T(1, 2), T(7, 1), T(30, 4)}, b[] = {T(7, 3), T(63, 1)};
    tbk_error e;
    for (int c = 1; c >= -1; c -= 2) {
      CHECK_INT(tbk_nb_add(nb, c, a, 3, 1.0, &e), TBK_OK);
      CHECK_INT(tbk_nb_add(nb, c, b, 2, 1.0, &e), TBK_OK);
    }
    CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
    tbk_term q[] = {T(0, 1), T(7, 2), T(30, 1), T(40, 9)};
    CHECK(score(nb, q, 4) == 0.0);
    CHECK(score(nb, a, 3) == 0.0);
    tbk_nb_free(nb);
  }
}

static void test_round_trip(void) {
  for (int kind = 0; kind < 2; kind++) {
    tbk_nb *nb = make(kind ? TBK_NB_BERNOULLI : TBK_NB_MULTINOMIAL, 1u << 18, 0.37);
    tbk_error e;
    /* Fractional weights make counts that need all 17 digits. */
    uint64_t st = 12345;
    for (int d = 0; d < 200; d++) {
      tbk_term t[10];
      uint32_t idx = 0;
      for (int k = 0; k < 10; k++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        idx += 1 + (uint32_t)(st >> 50);
        t[k] = T(idx % (1u << 18), 1 + (double)(st >> 60));
      }
      /* keep indices ascending after the modulo */
      size_t n = 0;
      for (int k = 0; k < 10; k++)
        if (k == 0 || t[k].index > t[n - 1].index) t[n++] = t[k];
      CHECK_INT(tbk_nb_add(nb, d % 3 ? -1 : 1, t, n, 0.1 + d / 7.0, &e), TBK_OK);
    }
    CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
    tbk_buf b1 = {0}, b2 = {0};
    CHECK_INT(tbk_nb_write(nb, &b1, &e), TBK_OK);
    /* Embedded in a larger file: reading stops after "end". */
    CHECK_INT(tbk_buf_puts(&b1, "next section\n"), 0);
    tbk_nb *back = NULL;
    size_t used = 0;
    CHECK_INT(tbk_nb_read(b1.data, b1.len, &back, &used, &e), TBK_OK);
    CHECK_INT(used, b1.len - strlen("next section\n"));
    if (back) {
      CHECK_INT(tbk_nb_write(back, &b2, &e), TBK_OK);
      CHECK_INT(b2.len, used);
      CHECK(b2.len == used && memcmp(b1.data, b2.data, used) == 0);
      CHECK_INT(tbk_nb_get_options(back)->kind, kind);
      CHECK_NEAR(tbk_nb_get_options(back)->alpha, 0.37, 0);
      tbk_term q[] = {T(3, 1), T(1000, 2), T(77777, 1), T(262143, 5)};
      CHECK(score(nb, q, 4) == score(back, q, 4));
      CHECK(score(nb, NULL, 0) == score(back, NULL, 0));
    }
    /* Only words with counts are written: 200 docs x <= 10 words. */
    size_t lines = 0;
    for (size_t i = 0; i < used; i++) lines += b1.data[i] == '\n';
    CHECK(lines <= 8 + 2000);
    tbk_nb_free(back);
    tbk_buf_free(&b1);
    tbk_buf_free(&b2);
    tbk_nb_free(nb);
  }
}

/* A word's counts are kept as an index into the model's distinct count
 * pairs, 16 bits wide until there are more than 65,535 pairs: 70,000
 * distinct pairs make them 32 bits, both in training and on reading, and
 * every word still scores its own counts' log ratio, exactly. */
static void test_many_count_pairs(void) {
  enum { WORDS = 70000 };
  const uint32_t dim = 1u << 17;
  const double a = 0.5;
  tbk_nb *nb = make(TBK_NB_MULTINOMIAL, dim, a);
  tbk_term *t = malloc(WORDS * sizeof *t);
  CHECK(t != NULL);
  if (!t) return;
  double tot = 0;
  for (uint32_t i = 0; i < WORDS; i++) {
    t[i] = T(i, 1.0 + i); /* word i: template count i + 1, content 0 */
    tot += 1.0 + i;
  }
  tbk_term c[] = {T(WORDS + 5, 3)};
  tbk_error e;
  CHECK_INT(tbk_nb_add(nb, 1, t, WORDS, 1.0, &e), TBK_OK);
  CHECK_INT(tbk_nb_add(nb, -1, c, 1, 1.0, &e), TBK_OK);
  CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
  tbk_buf b1 = {0}, b2 = {0};
  CHECK_INT(tbk_nb_write(nb, &b1, &e), TBK_OK);
  tbk_nb *back = NULL;
  CHECK_INT(tbk_nb_read(b1.data, b1.len, &back, NULL, &e), TBK_OK);
  if (back) {
    CHECK_INT(tbk_nb_write(back, &b2, &e), TBK_OK);
    CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
  }
  double norm = log(3 + a * dim) - log(tot + a * dim);
  uint32_t probe[] = {0, 1, 65534, 65535, 65536, 65537, WORDS - 1, WORDS, WORDS + 5, dim - 1};
  for (size_t k = 0; k < sizeof probe / sizeof *probe; k++) {
    uint32_t i = probe[k];
    double tc = i < WORDS ? 1.0 + i : 0, cc = i == WORDS + 5 ? 3 : 0;
    double want = tc == 0 && cc == 0 ? norm : log(tc + a) - log(cc + a) + norm;
    tbk_term q[] = {T(i, 2)};
    CHECK(score(nb, q, 1) == score(nb, NULL, 0) + 2 * want);
    if (back) CHECK(score(back, q, 1) == score(nb, q, 1));
  }
  tbk_nb_free(back);
  tbk_nb_free(nb);
  tbk_buf_free(&b1);
  tbk_buf_free(&b2);
  free(t);
}

static void expect_bad(const char *text) {
  tbk_nb *nb = (tbk_nb *)1;
  tbk_error e = {0};
  CHECK_INT(tbk_nb_read(text, strlen(text), &nb, NULL, &e), TBK_ERR_MODEL);
  CHECK(nb == NULL);
  CHECK(strstr(e.msg, "line") != NULL || strstr(e.msg, "totals") != NULL);
}

static void test_bad_text(void) {
  const char *good = "tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\ntotals 3 2\n"
                     "words 2\n0 3 0\n3 0 2\nend";
  tbk_nb *nb = NULL;
  size_t used;
  tbk_error e;
  CHECK_INT(tbk_nb_read(good, strlen(good), &nb, &used, &e), TBK_OK);
  CHECK_INT(used, strlen(good));
  /* {0:1}: ln((4/7)/(1/6)) = ln(24/7) */
  tbk_term q[] = {T(0, 1)};
  if (nb) CHECK_NEAR(score(nb, q, 1), log(24.0 / 7.0), 1e-12);
  tbk_nb_free(nb);

  expect_bad("");
  expect_bad("tbk-nb 2\n");
  expect_bad("tbk-nb 1\nkind gaussian\n");
  expect_bad("tbk-nb 1\nkind multinomial\ndim 0\n");
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha -1\n");
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 0\n"
             "totals 3 0\nwords 1\n0 3 0\nend\n");
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 3 2\nwords 2\n0 3 0\n4 0 2\nend\n"); /* index >= dim */
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 3 2\nwords 2\n3 0 2\n0 3 0\nend\n"); /* not ascending */
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 3 2\nwords 2\n0 3 0\n3 0 2.5\nend\n"); /* totals */
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 3 2\nwords 2\n0 3 0\n3 0 nan\nend\n");
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 3 2\nwords 2\n0 3 0\n"); /* truncated */
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 3 2\nwords 2\n0 3 0\n3 0 2\nfin\n");
  expect_bad("tbk-nb 1\nkind bernoulli\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 0 0\nwords 1\n0 3 0\nend\n"); /* df > docs */
  /* indices past 64 bits overflow, not wrap round to a small valid one */
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 3 2\nwords 2\n0 3 0\n18446744073709551619 0 2\nend\n");
  expect_bad("tbk-nb 1\nkind multinomial\ndim 18446744073709551620\n");
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 3 2\nwords 2\n0 3 0\n+3 0 2\nend\n");
  expect_bad("tbk-nb 1\nkind multinomial\ndim 4\nalpha 1\ndocs 2 2\n"
             "totals 3 2\nwords 2\n0 3 0\n3x 0 2\nend\n");
}

/* tbk_strtod reads whole numbers itself; every form must still come out as
 * strtod reads it (value and end), in and out of the fast path. */
static void test_whole_numbers(void) {
  const char *suffix[] = {"", " 7", "\n", ".5", ".", "e3", "E-2", "x1", "X", "abc", "-1", "0"};
  unsigned seed = 11;
  char text[64];
  for (int len = 1; len <= 20; len++)
    for (size_t k = 0; k < sizeof suffix / sizeof *suffix; k++) {
      int n = 0;
      for (int i = 0; i < len; i++) {
        seed = seed * 1103515245u + 12345u;
        text[n++] = (char)('0' + (seed >> 16) % 10);
      }
      snprintf(text + n, sizeof text - (size_t)n, "%s", suffix[k]);
      char *e1, *e2;
      double a = tbk_strtod(text, &e1), b = strtod(text, &e2);
      CHECK(a == b && e1 == e2);
    }
  char *e;
  CHECK(tbk_strtod("0x10", &e) == 16.0 && *e == 0);
  CHECK(tbk_strtod("999999999999999 ", &e) == 999999999999999.0 && *e == ' ');
  CHECK(tbk_strtod("9007199254740993", &e) == strtod("9007199254740993", NULL));
}

static void test_errors(void) {
  tbk_nb_options o;
  tbk_nb_options_init(&o);
  CHECK_INT(o.kind, TBK_NB_MULTINOMIAL);
  CHECK_INT(o.dim, 1u << 18);
  CHECK_NEAR(o.alpha, 1.0, 0);
  tbk_nb *nb = NULL;
  tbk_error e;
  o.alpha = 0;
  CHECK_INT(tbk_nb_new(&o, &nb, &e), TBK_ERR_ARG);
  o.alpha = 1;
  o.dim = 0;
  CHECK_INT(tbk_nb_new(&o, &nb, &e), TBK_ERR_ARG);
  o.dim = 16;
  CHECK_INT(tbk_nb_new(&o, &nb, &e), TBK_OK);
  tbk_term unsorted[] = {T(3, 1), T(2, 1)}, dup[] = {T(2, 1), T(2, 1)}, big[] = {T(16, 1)}, zero[] = {T(1, 0)},
           ok[] = {T(1, 1)};
  CHECK_INT(tbk_nb_add(nb, 1, unsorted, 2, 1, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_nb_add(nb, 1, dup, 2, 1, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_nb_add(nb, 1, big, 1, 1, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_nb_add(nb, 1, zero, 1, 1, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_nb_add(nb, 0, ok, 1, 1, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_nb_add(nb, 1, ok, 1, 0, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_nb_add(nb, 1, ok, 1, NAN, &e), TBK_ERR_ARG);
  double s;
  CHECK_INT(tbk_nb_score(nb, ok, 1, &s, &e), TBK_ERR_ARG); /* not finished */
  CHECK_INT(tbk_nb_add(nb, 1, ok, 1, 1, &e), TBK_OK);
  CHECK_INT(tbk_nb_finish(nb, &e), TBK_ERR_EMPTY); /* single class */
  CHECK_INT(e.code, TBK_ERR_EMPTY);
  CHECK_INT(tbk_nb_add(nb, -1, ok, 1, 1, &e), TBK_OK);
  CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
  CHECK_INT(tbk_nb_finish(nb, &e), TBK_OK);
  CHECK_INT(tbk_nb_add(nb, -1, ok, 1, 1, &e), TBK_ERR_ARG); /* frozen */
  CHECK_INT(tbk_nb_score(nb, big, 1, &s, &e), TBK_ERR_ARG);
  CHECK_INT(tbk_nb_score(nb, ok, 1, &s, &e), TBK_OK);
  CHECK_NEAR(s, 0.0, 0);
  tbk_nb_free(nb);
  tbk_nb_free(NULL);
}

int main(void) {
  test_multinomial_by_hand();
  test_prior();
  test_bernoulli_by_hand();
  test_symmetric();
  test_round_trip();
  test_many_count_pairs();
  test_bad_text();
  test_whole_numbers();
  test_errors();
  return check_report();
}
