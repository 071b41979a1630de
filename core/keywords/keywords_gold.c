/* Gold keywords from a page's own <meta> elements, removed from the page
 * (keywords.h): the answer must not be in what the extractor reads. A
 * byte scan of the raw page, so it works before any parse and on any
 * ASCII-compatible charset; the tags are overwritten with spaces of the
 * same length so the rest of the page is byte for byte as it was. */
#include <string.h>

#include "charset.h"
#include "keywords.h"

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int ieq(const char *s, size_t n, const char *lit) {
  size_t l = strlen(lit);
  if (n != l) return 0;
  for (size_t i = 0; i < n; i++)
    if (lower((unsigned char)s[i]) != lit[i]) return 0;
  return 1;
}

static int html_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

/* Append s[0..n) with the character references a keywords list uses
 * decoded (named: amp lt gt quot apos nbsp; numeric: decimal and hex). */
static int append_decoded(tbk_buf *out, const char *s, size_t n) {
  static const struct {
    const char *name;
    uint32_t cp;
  } named[] = {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}, {"nbsp", ' '}};
  for (size_t i = 0; i < n;) {
    if (s[i] == '&') {
      const char *semi = memchr(s + i, ';', n - i < 12 ? n - i : 12);
      if (semi) {
        const char *ref = s + i + 1;
        size_t rl = (size_t)(semi - ref);
        uint32_t cp = 0;
        int ok = 0;
        if (rl > 1 && ref[0] == '#') {
          int hex = ref[1] == 'x' || ref[1] == 'X';
          ok = rl > (size_t)(1 + hex);
          for (size_t k = 1 + (size_t)hex; k < rl && ok; k++) {
            int c = lower((unsigned char)ref[k]), d = c >= '0' && c <= '9'          ? c - '0'
                                                      : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                                                    : -1;
            if (d < 0 || cp > 0x10FFFF) ok = 0;
            else cp = cp * (hex ? 16u : 10u) + (uint32_t)d;
          }
          if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) ok = 0;
        } else {
          for (size_t k = 0; k < sizeof named / sizeof named[0] && !ok; k++)
            if (ieq(ref, rl, named[k].name)) cp = named[k].cp, ok = 1;
        }
        if (ok) {
          if (tbk_buf_utf8(out, cp)) return -1;
          i = (size_t)(semi - s) + 1;
          continue;
        }
      }
    }
    if (tbk_buf_append(out, s + i, 1)) return -1;
    i++;
  }
  return 0;
}

long tbk_kw_meta_strip(char *html, size_t n, tbk_buf *gold) {
  long removed = 0;
  for (size_t i = 0; i + 5 < n; i++) {
    if (html[i] != '<' || !ieq(html + i + 1, 4, "meta") || !(html_space(html[i + 5]) || html[i + 5] == '/')) continue;
    /* The attributes, quoted values honoured, up to the closing '>'. */
    size_t j = i + 5, end = n;
    const char *content = NULL;
    size_t content_len = 0;
    int wanted = 0;
    while (j < n) {
      while (j < n && (html_space(html[j]) || html[j] == '/')) j++;
      if (j >= n) break;
      if (html[j] == '>') {
        end = j + 1;
        break;
      }
      size_t ns = j;
      while (j < n && !html_space(html[j]) && html[j] != '=' && html[j] != '>' && html[j] != '/') j++;
      size_t nl = j - ns;
      while (j < n && html_space(html[j])) j++;
      const char *val = "";
      size_t vl = 0;
      if (j < n && html[j] == '=') {
        j++;
        while (j < n && html_space(html[j])) j++;
        if (j < n && (html[j] == '"' || html[j] == '\'')) {
          char q = html[j++];
          val = html + j;
          while (j < n && html[j] != q) j++;
          vl = (size_t)(html + j - val);
          if (j < n) j++;
        } else {
          val = html + j;
          while (j < n && !html_space(html[j]) && html[j] != '>') j++;
          vl = (size_t)(html + j - val);
        }
      }
      if (!nl) {
        j++; /* a stray byte: step over it */
        continue;
      }
      if (ieq(html + ns, nl, "name") || ieq(html + ns, nl, "property") || ieq(html + ns, nl, "itemprop")) {
        if (ieq(val, vl, "keywords") || ieq(val, vl, "news_keywords") || ieq(val, vl, "article:tag")) wanted = 1;
      } else if (ieq(html + ns, nl, "content")) {
        content = val;
        content_len = vl;
      }
    }
    if (end == n && (end == i || html[end - 1] != '>')) break; /* unclosed: the rest is no tag */
    if (!wanted) continue;
    if (gold && content && (append_decoded(gold, content, content_len) || tbk_buf_append(gold, "\n", 1))) return -1;
    for (size_t k = i; k < end; k++)
      if (html[k] != '\n' && html[k] != '\r') html[k] = ' ';
    removed++;
    i = end - 1;
  }
  return removed;
}

tbk_status tbk_kw_page_parse(const char *raw, size_t n, const tbk_page_options *o, tbk_page **out, tbk_buf *gold,
                             tbk_error *err) {
  *out = NULL;
  tbk_buf copy = {0};
  if (n && tbk_buf_append(&copy, raw, n)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_status st = TBK_OK;
  if (gold && n) {
    /* The contents as the parse would decode them: a windows-1252 page's
     * keywords come out as UTF-8 like its text. */
    tbk_buf utf = {0};
    char charset[48];
    tbk_error derr;
    if (tbk_decode_page(raw, n, o ? o->charset_hint : NULL, &utf, charset, NULL, &derr) == TBK_OK &&
        tbk_kw_meta_strip(utf.data, utf.len, gold) < 0)
      st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    tbk_buf_free(&utf);
  }
  if (!st && n && tbk_kw_meta_strip(copy.data, copy.len, NULL) < 0) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (!st) st = tbk_page_parse(copy.data ? copy.data : "", copy.len, o, out, err);
  tbk_buf_free(&copy);
  return st;
}
