/* Charset sniffing and conversion (glibc iconv). WHATWG's encoding rules are
 * the model: latin1 and ascii labels mean windows-1252, a meta "utf-16"
 * means UTF-8, a BOM beats everything. */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <uchardet.h>

#include "charset.h"
#include "text.h"
#include "util.h"

// clang-format off
static const struct { const char *label, *name; } aliases[] = {
    {"utf-8", "UTF-8"}, {"utf8", "UTF-8"}, {"unicode-1-1-utf-8", "UTF-8"},
    {"utf-16", "UTF-8"}, {"utf-16le", "UTF-8"}, {"utf-16be", "UTF-8"},
    {"us-ascii", "WINDOWS-1252"}, {"ascii", "WINDOWS-1252"},
    {"iso-8859-1", "WINDOWS-1252"}, {"iso8859-1", "WINDOWS-1252"},
    {"iso_8859-1", "WINDOWS-1252"}, {"latin1", "WINDOWS-1252"}, {"l1", "WINDOWS-1252"},
    {"windows-1252", "WINDOWS-1252"}, {"cp1252", "WINDOWS-1252"}, {"x-cp1252", "WINDOWS-1252"},
    {"iso-8859-15", "ISO-8859-15"}, {"latin9", "ISO-8859-15"},
    {"iso-8859-2", "ISO-8859-2"}, {"windows-1250", "WINDOWS-1250"},
    {"windows-1251", "WINDOWS-1251"}, {"cp1251", "WINDOWS-1251"}, {"koi8-r", "KOI8-R"},
    {"koi8-u", "KOI8-U"}, {"iso-8859-5", "ISO-8859-5"}, {"windows-1253", "WINDOWS-1253"},
    {"iso-8859-7", "ISO-8859-7"}, {"windows-1254", "WINDOWS-1254"}, {"iso-8859-9", "WINDOWS-1254"},
    {"windows-1255", "WINDOWS-1255"}, {"iso-8859-8", "ISO-8859-8"}, {"windows-1256", "WINDOWS-1256"},
    {"windows-1257", "WINDOWS-1257"}, {"windows-1258", "WINDOWS-1258"}, {"windows-874", "CP874"},
    {"tis-620", "CP874"}, {"gb2312", "GB18030"}, {"gbk", "GB18030"}, {"x-gbk", "GB18030"},
    {"gb18030", "GB18030"}, {"big5", "BIG5-HKSCS"}, {"big5-hkscs", "BIG5-HKSCS"},
    {"shift_jis", "CP932"}, {"shift-jis", "CP932"}, {"sjis", "CP932"}, {"x-sjis", "CP932"},
    {"windows-31j", "CP932"}, {"euc-jp", "EUC-JP"}, {"iso-2022-jp", "ISO-2022-JP"}, {"csiso2022jp", "ISO-2022-JP"},
    {"iso-2022-jp-2", "ISO-2022-JP-2"}, {"iso-2022-jp-3", "ISO-2022-JP-3"}, {"iso-2022-kr", "ISO-2022-KR"},
    {"csiso2022kr", "ISO-2022-KR"}, {"iso-2022-cn", "ISO-2022-CN"}, {"iso-2022-cn-ext", "ISO-2022-CN-EXT"},
    {"utf-7", "UTF-7"}, {"unicode-1-1-utf-7", "UTF-7"}, {"csunicode11utf7", "UTF-7"},
    {"hz-gb-2312", "HZ-GB-2312"}, {"hz", "HZ-GB-2312"},
    {"euc-kr", "CP949"}, {"uhc", "CP949"}, {"ks_c_5601-1987", "CP949"}, {"windows-949", "CP949"},
    {"macintosh", "MACINTOSH"}, {"mac", "MACINTOSH"}, {"x-mac-roman", "MACINTOSH"}, {"csmacintosh", "MACINTOSH"},
    {"iso-8859-8-i", "ISO-8859-8"}, {"csiso88598i", "ISO-8859-8"}, {"logical", "ISO-8859-8"},
};
// clang-format on

const char *tbk_charset_canonical(const char *label) {
  char low[40];
  size_t n = 0;
  while (label[n] && n + 1 < sizeof low) {
    low[n] = (char)tolower((unsigned char)label[n]);
    n++;
  }
  low[n] = '\0';
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (strcmp(low, aliases[i].label) == 0) return aliases[i].name;
  return NULL;
}

static const char *binary_kind(const unsigned char *s, size_t n) {
  static const struct {
    const char *magic;
    size_t len;
    const char *what;
  } magics[] = {
      {"\x89PNG\r\n\x1a\n", 8, "PNG image"},
      {"\x7f"
       "ELF",
       4, "ELF executable"},
      {"GIF87a", 6, "GIF image"},
      {"GIF89a", 6, "GIF image"},
      {"\xff\xd8\xff", 3, "JPEG image"},
      {"%PDF-", 5, "PDF document"},
      {"\x1f\x8b", 2, "gzip data"},
      {"PK\x03\x04", 4, "ZIP archive"},
      {"\x28\xb5\x2f\xfd", 4, "zstd data"},
      {"\xfd"
       "7zXZ",
       5, "xz data"},
      {"BZh", 3, "bzip2 data"},
      {"\0asm", 4, "WebAssembly"},
      {"\xca\xfe\xba\xbe", 4, "Java class"},
      {"MZ", 2, "DOS/Windows executable"},
  };
  for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
    if (n >= magics[i].len && memcmp(s, magics[i].magic, magics[i].len) == 0) return magics[i].what;
  if (n >= 12 && memcmp(s, "RIFF", 4) == 0) return "RIFF media";
  return NULL;
}

/* UTF-16 without a BOM shows as NULs in every other byte: the high bytes
 * of its ASCII markup, which in Han or Kana text may be a tenth of the
 * bytes; binary data has NULs at both parities. Returns
 * "UTF-16LE"/"UTF-16BE", or NULL. */
static const char *utf16_guess(const unsigned char *s, size_t n, size_t *nuls) {
  size_t even = 0, odd = 0, m = n < 4096 ? n : 4096;
  for (size_t i = 0; i < m; i++) {
    if (s[i]) continue;
    if (i & 1) odd++;
    else even++;
  }
  *nuls = even + odd;
  if (m >= 16 && odd * 10 > m && even * 20 < odd) return "UTF-16LE";
  if (m >= 16 && even * 10 > m && odd * 20 < even) return "UTF-16BE";
  return NULL;
}

/* Look for charset=NAME inside the first <meta> tags (both the HTML5
 * charset attribute and http-equiv content="...; charset=NAME"). */
static int meta_charset(const char *s, size_t n, char *out, size_t outsz) {
  size_t m = n < 4096 ? n : 4096;
  for (size_t i = 0; i + 5 < m; i++) {
    if (s[i] != '<' || strncasecmp(s + i + 1, "meta", 4) != 0) continue;
    size_t end = i + 5;
    while (end < m && s[end] != '>') end++;
    for (size_t j = i + 5; j + 7 < end; j++) {
      if (strncasecmp(s + j, "charset", 7) != 0) continue;
      size_t k = j + 7;
      while (k < end && isspace((unsigned char)s[k])) k++;
      if (k >= end || s[k] != '=') continue;
      k++;
      while (k < end && (isspace((unsigned char)s[k]) || s[k] == '"' || s[k] == '\'')) k++;
      size_t o = 0;
      while (k < end && o + 1 < outsz && (isalnum((unsigned char)s[k]) || strchr("-_.:", s[k]))) out[o++] = s[k++];
      out[o] = '\0';
      if (o) return 1;
    }
  }
  return 0;
}

/* Keep only what libxml2 takes without complaint: drop C0 controls (but
 * TAB LF CR FF), DEL, and repair invalid UTF-8 with U+FFFD. */
static inline int kept_ascii(unsigned char c) {
  return (c >= 0x20 && c < 0x7F) || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* The end of the run of kept ASCII bytes from i: eight printable bytes
 * (0x20..0x7E) at a time, a word with any other byte (a TAB, a line end)
 * a byte at a time, which for all of it cost 14 instructions a byte of
 * every page. Each test below is exact for the word as a whole (a borrow
 * reaches a lane only from a lower lane that is a hit already). */
static inline size_t kept_run_end(const unsigned char *u, size_t i, size_t n) {
  const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  for (;;) {
    for (; i + 8 <= n; i += 8) {
      uint64_t w, del;
      memcpy(&w, u + i, 8);
      del = w ^ (ones * 0x7F);
      if ((w & highs) | ((w - ones * 0x20) & ~w & highs) | ((del - ones) & ~del & highs)) break;
    }
    size_t stop = n - i > 8 ? i + 8 : n; /* the word that was not all printable */
    while (i < stop && kept_ascii(u[i])) i++;
    if (i < stop || i == n) return i;
  }
}

static int clean_utf8(const char *s, size_t n, tbk_buf *out) {
  const unsigned char *u = (const unsigned char *)s;
  out->len = 0;
  if (tbk_buf_reserve(out, n)) return -1;
  size_t i = 0;
  while (i < n) {
    size_t run = kept_run_end(u, i, n);
    if (run > i && tbk_buf_append(out, s + i, run - i)) return -1;
    i = run;
    if (i >= n) break;
    if (u[i] < 0x80) {
      i++;
      continue;
    } /* control char or DEL: dropped */
    size_t k = tbk_buf_utf8_copy(out, s + i, n - i);
    if (!k) return -1;
    i += k;
  }
  return tbk_buf_reserve(out, 0);
}

static int iconv_to_utf8(const char *from, const char *s, size_t n, tbk_buf *out) {
  iconv_t cd = iconv_open("UTF-8", from);
  if (cd == (iconv_t)-1) return 1; /* unknown charset: caller falls back */
  tbk_buf tmp = {0};
  if (tbk_buf_reserve(&tmp, n * 2 + 16)) {
    iconv_close(cd);
    return -1;
  }
  char *in = (char *)s;
  size_t inleft = n;
  while (inleft > 0) {
    if (tbk_buf_reserve(&tmp, inleft * 2 + 16)) {
      iconv_close(cd);
      tbk_buf_free(&tmp);
      return -1;
    }
    char *o = tmp.data + tmp.len;
    size_t oleft = tmp.cap - tmp.len - 1;
    size_t r = iconv(cd, &in, &inleft, &o, &oleft);
    tmp.len = (size_t)(o - tmp.data);
    if (r != (size_t)-1) break;
    if (errno == E2BIG) continue;
    /* EILSEQ or a truncated sequence at the end: mark it and move on. */
    if (tbk_buf_append(&tmp, "\xEF\xBF\xBD", 3)) {
      iconv_close(cd);
      tbk_buf_free(&tmp);
      return -1;
    }
    in++;
    inleft--;
    iconv(cd, NULL, NULL, NULL, NULL);
  }
  iconv_close(cd);
  int rc = clean_utf8(tmp.data ? tmp.data : "", tmp.len, out);
  tbk_buf_free(&tmp);
  return rc;
}

/* East Asian multibyte charsets, whose byte pairs a detector tells apart
 * from Western text reliably. */
static int east_asian(const char *cs) {
  static const char *const names[] = {"GB18030",     "BIG5-HKSCS", "CP932",       "EUC-JP",      "CP949",
                                      "ISO-2022-JP", "EUC-TW",     "ISO-2022-KR", "ISO-2022-CN", "ISO-2022-JP-2"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(cs, names[i]) == 0) return 1;
  return 0;
}

/* The charset uchardet finds in s[0..n), as our canonical name; "" when it
 * finds none or one we cannot decode, NULL when out of memory. */
static const char *detect(const char *s, size_t n) {
  uchardet_t ud = uchardet_new();
  if (!ud) return NULL;
  /* 256 KiB decide as well as the whole page on the pages we have */
  size_t m = n < (256u << 10) ? n : (256u << 10);
  const char *name = NULL;
  if (uchardet_handle_data(ud, s, m) == 0) {
    uchardet_data_end(ud);
    const char *got = uchardet_get_charset(ud);
    name = !got || !*got ? NULL : strcasecmp(got, "EUC-TW") == 0 ? "EUC-TW" : tbk_charset_canonical(got);
    if (!name) name = "";
  }
  uchardet_delete(ud);
  return name;
}

/* Bytes >= 0x80 among the first 64 KiB: undeclared text that is mostly
 * such bytes and matches no charset would only decode to mojibake. */
static int mostly_high(const unsigned char *s, size_t n) {
  size_t m = n < 65536 ? n : 65536, high = 0, text = 0;
  int in_tag = 0;
  for (size_t i = 0; i < m; i++) {
    if (s[i] == '<') in_tag = 1;
    else if (s[i] == '>') in_tag = 0;
    else if (!in_tag && !isspace(s[i])) {
      text++;
      high += s[i] >= 0x80;
    }
  }
  return text >= 64 && high * 2 > text;
}

static int only_space(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isspace((unsigned char)s[i])) return 0;
  return 1;
}

/* Text outside tags, in code points that are not whitespace, and how many
 * of them are U+FFFD: a page decoded with the wrong charset. The walk
 * stops once the text passes text_limit. */
static void count_replacements(const tbk_buf *b, size_t text_limit, size_t *text, size_t *fffd) {
  const unsigned char *s = (const unsigned char *)(b->data ? b->data : "");
  size_t n = b->len;
  int in_tag = 0;
  *text = *fffd = 0;
  for (size_t i = 0; i < n && *text <= text_limit; i++) {
    unsigned char c = s[i];
    if (c == '<') in_tag = 1;
    else if (c == '>') in_tag = 0;
    /* isspace's locale lookup was most of this walk */
    else if (in_tag || c == ' ' || (c >= '\t' && c <= '\r') || (c & 0xC0) == 0x80) continue;
    else {
      (*text)++;
      if (c == 0xEF && i + 2 < n && s[i + 1] == 0xBF && s[i + 2] == 0xBD) (*fffd)++;
    }
  }
}

/* U+FFFD anywhere in b, counted up to `enough`. */
static size_t count_fffd_upto(const tbk_buf *b, size_t enough) {
  size_t n = 0;
  const char *s = b->data, *end = b->data ? b->data + b->len : NULL;
  /* 0xEF leads only U+F000..U+FFFF: rare, so memchr's vectorized scan
   * does nearly all the work (glibc's memmem does not, for 3 bytes) */
  while (s && n < enough && (s = memchr(s, 0xEF, (size_t)(end - s)))) {
    if (end - s >= 3 && (unsigned char)s[1] == 0xBF && (unsigned char)s[2] == 0xBD) n++;
    s++;
  }
  return n;
}

static int mostly_replacement(const tbk_buf *b, size_t *fffd_out) {
  /* Almost every page has no U+FFFD at all: one memchr scan decides them,
   * and only a page with 8 or more walks its text (the walk alone cost
   * 9 % of tbk-predict's instructions on a WARC crawl). Fewer than 8 in
   * all is fewer than 8 outside tags, so the answer is the same. */
  size_t any = count_fffd_upto(b, fffd_out ? 8 : SIZE_MAX);
  if (any < 8) {
    if (fffd_out) *fffd_out = any;
    return 0;
  }
  /* Text past twice every U+FFFD in the page cannot be mostly U+FFFD: a
   * page that carries a few dozen literally (a mirror's saved pages)
   * stops there, not at its end (6.5 % of the combined stage's
   * instructions on site_mirrors' benchmark sample). Who wants the count
   * walks it all. */
  size_t text, fffd;
  count_replacements(b, fffd_out ? SIZE_MAX : 2 * any, &text, &fffd);
  if (fffd_out) *fffd_out = fffd;
  return fffd >= 8 && fffd * 2 > text;
}

/* The page decoded with declared charset cs (from `from`) reads as mostly
 * U+FFFD: try the meta charset (when the hint was the declaration), then
 * the detected one; the first that does not replace most of the text wins
 * and is named in note. 1 when one did, 0 when none did, -1 out of
 * memory. */
static int overrule(const char *body, size_t blen, const char *data, size_t len, const char **cs, const char *from,
                    tbk_buf *out, char *note) {
  size_t bad_text, bad;
  count_replacements(out, SIZE_MAX, &bad_text, &bad);
  const char *tried[2] = {NULL, NULL};
  const char *kinds[2] = {"<meta>", "detected"};
  char declared[40] = "";
  if (strcmp(from, "HTTP header") == 0 && meta_charset(data, len, declared, sizeof declared))
    tried[0] = tbk_charset_canonical(declared);
  const char *det = detect(body, blen);
  if (!det) return -1;
  /* windows-1252 is what a detector says of anything: mojibake, not text */
  int high = mostly_high((const unsigned char *)body, blen);
  if (*det && !(high && (strcmp(det, "WINDOWS-1252") == 0 || strcmp(det, "ISO-8859-15") == 0))) tried[1] = det;
  tbk_buf alt = {0};
  for (int k = 0; k < 2; k++) {
    const char *c = tried[k];
    if (!c || strcmp(c, *cs) == 0 || (k == 1 && tried[0] && strcmp(c, tried[0]) == 0)) continue;
    int rc = strcmp(c, "UTF-8") == 0 ? clean_utf8(body, blen, &alt) : iconv_to_utf8(c, body, blen, &alt);
    if (rc < 0) {
      tbk_buf_free(&alt);
      return -1;
    }
    size_t fffd;
    if (rc == 0 && !mostly_replacement(&alt, &fffd) && fffd < bad) {
      if (note)
        snprintf(note, TBK_CHARSET_NOTE,
                 "charset %s (%s) decodes %zu of %zu characters to U+FFFD; read as %s (%s) instead", *cs, from, bad,
                 bad_text, c, kinds[k]);
      tbk_buf t = *out;
      *out = alt;
      tbk_buf_free(&t);
      *cs = c;
      return 1;
    }
  }
  tbk_buf_free(&alt);
  return 0;
}

tbk_status tbk_decode_page(const char *data, size_t len, const char *hint, tbk_buf *out, char charset[48], char *note,
                           tbk_error *err) {
  const unsigned char *u = (const unsigned char *)data;
  if (note) *note = '\0';
  if (len == 0) return tbk_fail(err, TBK_ERR_EMPTY, "empty page (0 bytes)");
  const char *cs = NULL;
  size_t skip = 0;
  if (len >= 3 && memcmp(u, "\xEF\xBB\xBF", 3) == 0) {
    cs = "UTF-8";
    skip = 3;
  } else if (len >= 2 && u[0] == 0xFF && u[1] == 0xFE) {
    cs = "UTF-16LE";
    skip = 2;
  } else if (len >= 2 && u[0] == 0xFE && u[1] == 0xFF) {
    cs = "UTF-16BE";
    skip = 2;
  }
  if (!cs) {
    const char *kind = binary_kind(u, len);
    if (kind) return tbk_fail(err, TBK_ERR_BINARY, "not HTML: looks like %s", kind);
    size_t nuls;
    cs = utf16_guess(u, len, &nuls);
    if (!cs) {
      /* ESC, SO and SI are the shifts of the 7-bit ISO-2022 charsets
       * (Korean text shifts at every word): text, not binary. */
      size_t m = len < 4096 ? len : 4096, ctl = 0;
      for (size_t i = 0; i < m; i++)
        if (u[i] < 0x20 && (!u[i] || !strchr("\t\n\r\f\x1b\x0e\x0f", u[i]))) ctl++; /* strchr finds NUL */
      if (ctl * 10 > m)
        return tbk_fail(err, TBK_ERR_BINARY, "not HTML: %zu of the first %zu bytes are control bytes", ctl, m);
    }
  }
  char declared[40] = "";
  const char *from = NULL; /* where a declared charset came from */
  if (!cs && hint && *hint && (cs = tbk_charset_canonical(hint))) from = "HTTP header";
  if (!cs && meta_charset(data, len, declared, sizeof declared) && (cs = tbk_charset_canonical(declared)))
    from = "<meta>";
  const char *body = data + skip;
  size_t blen = len - skip;
  int rc;
  const char *det;
  if (cs && strcmp(cs, "UTF-8") == 0 && !skip && !tbk_utf8_valid(body, blen) && (det = detect(body, blen)) &&
      east_asian(det)) {
    /* declared UTF-8 (the default of many templates) but written in an
     * East Asian charset: the declaration is wrong */
    if (note && from)
      snprintf(note, TBK_CHARSET_NOTE,
               "charset UTF-8 (%s) does not fit the bytes (not UTF-8); read as %s (detected) instead", from, det);
    cs = det;
    rc = iconv_to_utf8(cs, body, blen, out);
  } else if (cs && strcmp(cs, "UTF-8") == 0) {
    rc = clean_utf8(body, blen, out);
    if (rc == 0 && from && mostly_replacement(out, NULL) && overrule(body, blen, data, len, &cs, from, out, note) < 0)
      rc = -1;
  } else if (cs && strcmp(cs, "WINDOWS-1252") == 0 && mostly_high((const unsigned char *)body, blen) &&
             (det = detect(body, blen)) && east_asian(det)) {
    /* declared Western (ISO-8859-1, a template's default) but its text is
     * mostly East Asian byte pairs: Western text is mostly ASCII, so the
     * declaration is wrong */
    if (note && from)
      snprintf(note, TBK_CHARSET_NOTE,
               "charset windows-1252 (%s) does not fit the bytes (mostly East Asian byte pairs); read as %s "
               "(detected) instead",
               from, det);
    cs = det;
    rc = iconv_to_utf8(cs, body, blen, out);
  } else if (cs) {
    rc = iconv_to_utf8(cs, body, blen, out);
    /* A stateful charset read as windows-1252 would keep its shift
     * sequences as text: refused by name instead. */
    if (rc == 1 && (strncmp(cs, "ISO-2022", 8) == 0 || strncmp(cs, "HZ", 2) == 0 || strcmp(cs, "UTF-7") == 0))
      return tbk_fail(err, TBK_ERR_FORMAT, "charset %s is not supported (no converter for it on this system)", cs);
    if (rc == 1) {
      cs = "WINDOWS-1252";
      rc = iconv_to_utf8(cs, body, blen, out);
    } else if (rc == 0 && from && mostly_replacement(out, NULL) &&
               overrule(body, blen, data, len, &cs, from, out, note) < 0)
      rc = -1;
  } else if (tbk_utf8_valid(body, blen) && !memmem(body, blen, "\x1b$", 2)) {
    cs = "UTF-8";
    rc = clean_utf8(body, blen, out);
  } else {
    /* Undeclared and not UTF-8 (or with ISO-2022-JP's escapes): the
     * detector's charset when it is East Asian, or when the text is mostly
     * non-ASCII bytes (Cyrillic, Greek, Thai... in a single-byte charset)
     * and it names one other than windows-1252; else windows-1252 as
     * browsers do, unless the text is mostly non-ASCII bytes: those would
     * only be mojibake, so the page is refused. */
    det = detect(body, blen);
    if (!det) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory decoding page");
    int high = mostly_high((const unsigned char *)body, blen);
    if (*det && (east_asian(det) || (high && strcmp(det, "WINDOWS-1252") != 0 && strcmp(det, "ISO-8859-15") != 0)))
      cs = det;
    else if (high)
      return tbk_fail(
          err, TBK_ERR_FORMAT,
          "cannot tell the charset: none declared, not UTF-8, none detected (not decoded, to avoid mojibake)");
    else if (tbk_utf8_valid(body, blen)) cs = "UTF-8";
    else cs = "WINDOWS-1252";
    rc = strcmp(cs, "UTF-8") == 0 ? clean_utf8(body, blen, out) : iconv_to_utf8(cs, body, blen, out);
    if (rc == 1) {
      cs = "WINDOWS-1252";
      rc = iconv_to_utf8(cs, body, blen, out);
    }
  }
  if (rc) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory decoding page");
  snprintf(charset, 48, "%s", cs);
  if (only_space(out->data ? out->data : "", out->len)) return tbk_fail(err, TBK_ERR_EMPTY, "page has only whitespace");
  return TBK_OK;
}
