/* Minimal assertion helpers for unit tests: every failed check prints
 * file:line and the expression, and the program exits 1 at the end. */
#ifndef TBK_TEST_CHECK_H
#define TBK_TEST_CHECK_H
#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                            \
  do {                                                                         \
    check_count++;                                                             \
    if (!(cond)) {                                                             \
      check_failures++;                                                        \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/* A tbk_buf_* append in a test's setup: out of memory fails the test. */
#define CHECK_BUF(call) CHECK((call) == 0)

#define CHECK_INT(a, b)                                                                                \
  do {                                                                                                 \
    long long a_ = (long long)(a), b_ = (long long)(b);                                                \
    check_count++;                                                                                     \
    if (a_ != b_) {                                                                                    \
      check_failures++;                                                                                \
      fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, a_, #b, b_); \
    }                                                                                                  \
  } while (0)

#define CHECK_STR(a, b)                                                                                     \
  do {                                                                                                      \
    const char *a_ = (a), *b_ = (b);                                                                        \
    check_count++;                                                                                          \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                                                \
      check_failures++;                                                                                     \
      fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, a_ ? a_ : "(null)", \
              b_ ? b_ : "(null)");                                                                          \
    }                                                                                                       \
  } while (0)

#define CHECK_NEAR(a, b, eps)                                                                \
  do {                                                                                       \
    double a_ = (a), b_ = (b);                                                               \
    check_count++;                                                                           \
    if (!(fabs(a_ - b_) <= (eps))) {                                                         \
      check_failures++;                                                                      \
      fprintf(stderr, "%s:%d: %s == %.9g, expected %.9g\n", __FILE__, __LINE__, #a, a_, b_); \
    }                                                                                        \
  } while (0)

static int check_report(void) {
  if (check_count == 0) {
    fprintf(stderr, "no checks ran\n");
    return 1;
  }
  fprintf(stderr, "%d checks, %d failed\n", check_count, check_failures);
  return check_failures ? 1 : 0;
}
#endif
