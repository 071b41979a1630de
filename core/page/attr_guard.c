/* libxml2's HTML parser checks each attribute of a start tag against all
 * the attributes before it, so one element with n attributes costs n^2/2
 * string comparisons: 40,000 attributes (400 KB) take 14 s, and nothing
 * else bounds it (the page is small, shallow and has one element). The
 * guard counts attributes per start tag before the parse and refuses a
 * page whose element carries more than max_attrs: a cost of a few
 * comparisons a byte of markup, and quadratic work bounded per element. */
#include <string.h>

#include "page_internal.h"

/* Attributes of the start tag whose name begins at s[i]; *end receives the
 * index just past it (its '>' or the end of the text). Counts as libxml2
 * reads a tag: a name starts after white space (or after a quoted value),
 * quotes open only as a value after '=', and '>' outside quotes ends it. */
static size_t count_tag_attrs(const unsigned char *s, size_t i, size_t n, size_t stop, size_t *end) {
  size_t attrs = 0;
  int after_space = 0, after_eq = 0;
  while (i < n && !tbk_html_space(s[i]) && s[i] != '>') i++; /* the tag name */
  while (i < n && s[i] != '>') {
    unsigned char c = s[i];
    if (tbk_html_space(c)) {
      after_space = 1;
      i++;
      continue;
    }
    if ((c == '"' || c == '\'') && after_eq) {
      const unsigned char *q = memchr(s + i + 1, c, n - i - 1);
      i = q ? (size_t)(q - s) + 1 : n;
      after_eq = 0;
      after_space = 1; /* a name may follow a quoted value directly */
      continue;
    }
    if (c == '=') {
      after_eq = 1;
    } else {
      if (after_space && !after_eq && c != '/' && ++attrs > stop) break;
      after_eq = 0;
    }
    after_space = 0;
    i++;
  }
  *end = i;
  return attrs;
}

long tbk_attr_guard(const char *src, size_t n, size_t max_attrs, uint32_t *line) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  while (i < n) {
    const unsigned char *lt = memchr(s + i, '<', n - i);
    if (!lt) break;
    i = (size_t)(lt - s) + 1;
    if (i >= n || !((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')) continue; /* not a start tag */
    size_t end, start = i;
    size_t attrs = count_tag_attrs(s, i, n, max_attrs, &end);
    if (attrs > max_attrs) {
      uint32_t l = 1;
      for (const unsigned char *q = s; (q = memchr(q, '\n', start - (size_t)(q - s))); q++) l++;
      *line = l;
      return (long)attrs;
    }
    i = end;
  }
  return 0;
}
