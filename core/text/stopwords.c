/* Reading the function-word lists (the .txt files of core/text/stopwords, compiled in
 * as tbk_stop_lists): one reader for every layer that uses them. */
#include "text.h"

static int list_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

const char *tbk_stop_next(const char **s, size_t *len) {
  const char *p = *s;
  for (;;) {
    while (list_space(*p)) p++;
    if (*p != '#') break;
    while (*p && *p != '\n') p++; /* a comment line */
  }
  const char *e = p;
  while (*e && !list_space(*e)) e++;
  *s = e;
  *len = (size_t)(e - p);
  return e > p ? p : NULL;
}
