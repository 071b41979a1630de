/* Script end tags a browser does not see.
 *
 * HTML5 reads a <script>'s content with an escape rule older pages rely
 * on: after "<!--", a "<script" starts a nested script (document.write's
 * ad tags, a JSON state holding embed codes), and the "</script" that
 * closes it does not close the element. libxml2 2.9 ends the element at
 * the first "</script", so the rest of the script (often tens of
 * kilobytes of code or JSON) became page text that no browser shows: a
 * single 147,021-character unit on one msv_big9_chaos page, kept as its
 * article. Such an end tag is made inert before parsing, its '/' turned
 * into a space: the same length and lines, the script's text otherwise
 * as it was, and both parsers read the same bytes. */
#include <string.h>
#include <strings.h>

#include "page_internal.h"

static int tag_delim(char c) { return tbk_html_space((unsigned char)c) || c == '/' || c == '>'; }

/* "<script" (at) followed by a delimiter, ASCII case ignored; with end,
 * "</script". */
static int script_tag(const char *s, size_t n, size_t at, int end) {
  size_t name = at + 1 + (size_t)end;
  if (end && (name > n || s[at + 1] != '/')) return 0;
  return name + 7 <= n && strncasecmp(s + name, "script", 6) == 0 && tag_delim(s[name + 6]);
}

/* The script content from i: HTML5's script data, escaped and double
 * escaped states, the double-escaped end tags made inert (*fixed counts
 * them). Returns where the element's end tag starts (n: none). */
static size_t script_content(char *s, size_t n, size_t i, size_t *fixed) {
  enum { DATA, ESCAPED, DOUBLE } state = DATA;
  for (; i < n; i++) {
    if (state == DATA) { /* only a '<' can change anything: skip to it */
      const char *lt = memchr(s + i, '<', n - i);
      if (!lt) break;
      i = (size_t)(lt - s);
    }
    if (s[i] == '-' && state != DATA && i + 2 < n && s[i + 1] == '-' && s[i + 2] == '>') {
      state = DATA;
      i += 2;
    } else if (s[i] != '<') {
      continue;
    } else if (state == DATA && i + 3 < n && memcmp(s + i, "<!--", 4) == 0) {
      state = ESCAPED;
      i += 3;
    } else if (state == ESCAPED && script_tag(s, n, i, 0)) {
      state = DOUBLE;
    } else if (script_tag(s, n, i, 1)) {
      if (state != DOUBLE) return i;
      s[i + 1] = ' ';
      (*fixed)++;
      state = ESCAPED;
    }
  }
  return n;
}

size_t tbk_script_double_escapes(char *s, size_t n) {
  size_t fixed = 0;
  for (size_t i = 0; i < n;) {
    const char *lt = memchr(s + i, '<', n - i);
    if (!lt) break;
    i = (size_t)(lt - s);
    /* most tags are neither "<!-" nor "<sc": two bytes tell */
    char c = i + 2 < n ? s[i + 1] : 0, d = c ? s[i + 2] : 0;
    if (c == '!' ? d != '-' : ((c | 0x20) != 's' || (d | 0x20) != 'c')) {
      i++;
      continue;
    }
    if (i + 3 < n && memcmp(s + i, "<!--", 4) == 0) { /* a comment hides what looks like tags */
      const char *e = memmem(s + i + 4, n - i - 4, "-->", 3);
      i = e ? (size_t)(e - s) + 3 : n;
    } else if (script_tag(s, n, i, 0)) {
      const char *gt = memchr(s + i, '>', n - i);
      i = gt ? script_content(s, n, (size_t)(gt - s) + 1, &fixed) : n;
    } else {
      i++;
    }
  }
  return fixed;
}
