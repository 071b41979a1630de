/* A tbk_warn_fn for unit tests: counts the warnings and keeps their text
 * ("FILE: message" lines) for checks; TBK_TEST_VERBOSE=1 also prints them. */
#ifndef TBK_TEST_WARNS_H
#define TBK_TEST_WARNS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct warns {
  int n;
  char all[8192];
} warns;

static inline void on_warn(void *ctx, const char *file, const char *msg) {
  warns *w = ctx;
  w->n++;
  if (getenv("TBK_TEST_VERBOSE")) fprintf(stderr, "warning: %s: %s\n", file, msg);
  size_t used = strlen(w->all);
  snprintf(w->all + used, sizeof w->all - used, "%s: %s\n", file, msg);
}
#endif
