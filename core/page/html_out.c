/* The output side of tbk's HTML writer (html_out.h): libxml2 2.9.14's
 * output buffer (xmlIO.c: xmlOutputBufferWrite, xmlOutputBufferFlush,
 * xmlBufWriteQuotedString), its encoding step (encoding.c:
 * xmlCharEncOutput and its character references) and the encoder it
 * finds for a charset (xmlParseCharEncoding, xmlFindCharEncodingHandler:
 * its built-in UTF-16, ISO-8859-1, ASCII and HTML encoders, then iconv,
 * then the charset's canonical name). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "html_out.h"
#include "html_tables.h"

enum { ENC_NONE, ENC_HTML, ENC_LATIN1, ENC_ASCII, ENC_UTF16LE, ENC_UTF16BE, ENC_UTF16, ENC_ICONV };
enum { MINLEN = 4000, CHUNK = 4 * MINLEN, CONV_MAX = 64 * 1024 };

typedef tbk_html_out sink;

/* The named entity UTF8ToHtml writes for code point c: the first of
 * HTML 4's with that value, NULL when none. By value through an index
 * made once. */
static uint16_t by_value[TBK_HTML_ENTITIES];
static pthread_once_t by_value_once = PTHREAD_ONCE_INIT;
static void make_by_value(void) {
  for (size_t k = 0; k < TBK_HTML_ENTITIES; k++) by_value[k] = (uint16_t)k;
  /* insertion sort by value, then name order: the table is small */
  for (size_t k = 1; k < TBK_HTML_ENTITIES; k++)
    for (size_t j = k; j > 0 && tbk_html_entities[by_value[j - 1]].value > tbk_html_entities[by_value[j]].value; j--) {
      uint16_t t = by_value[j];
      by_value[j] = by_value[j - 1];
      by_value[j - 1] = t;
    }
}
static const char *entity_of(uint32_t c) {
  pthread_once(&by_value_once, make_by_value);
  size_t lo = 0, hi = TBK_HTML_ENTITIES;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (tbk_html_entities[by_value[mid]].value < c) lo = mid + 1;
    else hi = mid;
  }
  return lo < TBK_HTML_ENTITIES && tbk_html_entities[by_value[lo]].value == c ? tbk_html_entities[by_value[lo]].name
                                                                              : NULL;
}

/* The code point of the UTF-8 sequence at in (n bytes there), its length
 * in *len; 0 when incomplete (*len 0) or malformed (*len -1). */
static uint32_t utf8_at(const unsigned char *in, size_t n, int *len) {
  unsigned d = in[0];
  int trail = d < 0x80 ? 0 : d < 0xC0 ? -1 : d < 0xE0 ? 1 : d < 0xF0 ? 2 : d < 0xF8 ? 3 : -1;
  if (trail < 0) {
    *len = -1;
    return 0;
  }
  if (n < (size_t)trail + 1) {
    *len = 0;
    return 0;
  }
  uint32_t c = trail ? d & (0x3F >> trail) : d;
  for (int k = 1; k <= trail; k++) {
    if ((in[k] & 0xC0) != 0x80) {
      *len = -1;
      return 0;
    }
    c = c << 6 | (in[k] & 0x3F);
  }
  *len = trail + 1;
  return c;
}

static int put16(tbk_buf *o, uint32_t u, int be) {
  unsigned char b[2] = {be ? (unsigned char)(u >> 8) : (unsigned char)u,
                        be ? (unsigned char)u : (unsigned char)(u >> 8)};
  return tbk_buf_append(o, b, 2);
}

/* One call of the charset's output function on in[0..*inlen): what it
 * wrote appended to o, what it read in *inlen; 0, -2 at a character it
 * cannot write (read up to it), -3 an incomplete sequence at the end,
 * -9 out of memory. */
static int encode(sink *s, const unsigned char *in, size_t *inlen, tbk_buf *o) {
  size_t n = *inlen, i = 0;
  if (s->enc == ENC_ICONV) return tbk_encoder_run(s->cd, (const char *)in, inlen, o);
  while (i < n) {
    int len;
    uint32_t c = utf8_at(in + i, n - i, &len);
    if (len == 0) break;
    if (len < 0) {
      *inlen = i;
      return -2;
    }
    int bad = 0;
    if (s->enc == ENC_HTML) {
      const char *name = c < 0x80 ? NULL : entity_of(c);
      if (c < 0x80) bad = tbk_buf_append(o, &(char){(char)c}, 1);
      else if (name) bad = tbk_buf_printf(o, "&%s;", name);
      else bad = tbk_buf_printf(o, "&#%u;", c);
    } else if (s->enc == ENC_LATIN1 || s->enc == ENC_ASCII) {
      if (c > (s->enc == ENC_ASCII ? 0x7Fu : 0xFFu)) {
        *inlen = i;
        return -2;
      }
      bad = tbk_buf_append(o, &(char){(char)c}, 1);
    } else {
      int be = s->enc == ENC_UTF16BE;
      if (c >= 0x10000) bad = put16(o, 0xD800 | ((c - 0x10000) >> 10), be) || put16(o, 0xDC00 | (c & 0x3FF), be);
      else bad = put16(o, c, be);
    }
    if (bad) return -9;
    i += (size_t)len;
  }
  *inlen = i;
  return 0;
}

/* xmlCharEncOutput: what raw holds encoded into conv. Returns the bytes
 * encoded, or a negative code when none were (-3 the input ran out, -2
 * the charset gave up, -9 out of memory). */
static int convert(sink *s) {
  size_t total = 0;
  for (;;) {
    size_t toconv = s->raw.len - s->raw_at;
    if (!toconv) return (int)total;
    if (toconv > CONV_MAX) toconv = CONV_MAX;
    size_t before = s->conv.len, used = toconv;
    int r = encode(s, (const unsigned char *)s->raw.data + s->raw_at, &used, &s->conv);
    if (r == -9) return -9;
    s->raw_at += used;
    total += s->conv.len - before;
    if (r != -2) return total ? (int)total : r;
    int len;
    const unsigned char *at = (const unsigned char *)s->raw.data + s->raw_at;
    uint32_t c = utf8_at(at, s->raw.len - s->raw_at, &len);
    if (len <= 0 || c == 0) return total ? (int)total : -2;
    char ref[20];
    size_t rl = (size_t)snprintf(ref, sizeof ref, "&#%u;", c), got = rl;
    s->raw_at += (size_t)len;
    before = s->conv.len;
    r = encode(s, (const unsigned char *)ref, &got, &s->conv);
    if (r == -9) return -9;
    if (r < 0 || got != rl) {
      s->conv.len = before; /* what the reference's partial encoding wrote is not kept */
      s->unwritable++;
      return total ? (int)total : -2;
    }
    total += s->conv.len - before;
  }
}

static void drop_encoded(sink *s) {
  if (s->raw_at == s->raw.len) s->raw.len = s->raw_at = 0;
  else if (s->raw_at > MINLEN * 4) {
    memmove(s->raw.data, s->raw.data + s->raw_at, s->raw.len - s->raw_at);
    s->raw.len -= s->raw_at;
    s->raw_at = 0;
  }
}

static void hand_over(sink *s) {
  if (s->conv.len && tbk_buf_append(s->out, s->conv.data, s->conv.len)) s->nomem = 1;
  s->conv.len = 0;
}

/* xmlOutputBufferWrite. */
void tbk_html_out_write(sink *s, const char *p, size_t len) {
  if (s->gave_up || s->nomem) return;
  if (s->enc == ENC_NONE) {
    if (tbk_buf_append(s->out, p, len)) s->nomem = 1;
    return;
  }
  while (len > 0) {
    size_t chunk = len > CHUNK ? CHUNK : len;
    if (tbk_buf_append(&s->raw, p, chunk)) {
      s->nomem = 1;
      return;
    }
    if (s->raw.len - s->raw_at < MINLEN && chunk == len) return;
    int r = convert(s);
    drop_encoded(s);
    if (r == -9) s->nomem = 1;
    if (r < 0 && r != -3) {
      s->gave_up = r != -9;
      return;
    }
    p += chunk;
    len -= chunk;
    if (s->conv.len >= MINLEN || len > 0) hand_over(s);
  }
}
void tbk_html_out_puts(sink *s, const char *p) { tbk_html_out_write(s, p, strlen(p)); }

/* Bytes added to the output buffer as they are, not a write: no encoding
 * happens before the next write (xmlBufWriteQuotedString's way). */
static void w_raw(sink *s, const char *p, size_t len) {
  if (s->gave_up || s->nomem) return;
  if (tbk_buf_append(s->enc == ENC_NONE ? s->out : &s->raw, p, len)) s->nomem = 1;
}

/* xmlOutputBufferFlush. */
static void w_flush(sink *s) {
  if (s->gave_up || s->nomem || s->enc == ENC_NONE) return;
  int r;
  while ((r = convert(s)) > 0) drop_encoded(s);
  if (r == -9) s->nomem = 1;
  else if (r < 0) s->gave_up = 1;
  else hand_over(s);
}

/* xmlBufWriteQuotedString. */
void tbk_html_out_quoted(sink *s, const char *v) {
  if (!strchr(v, '"')) {
    w_raw(s, "\"", 1), w_raw(s, v, strlen(v)), w_raw(s, "\"", 1);
  } else if (!strchr(v, '\'')) {
    w_raw(s, "'", 1), w_raw(s, v, strlen(v)), w_raw(s, "'", 1);
  } else {
    w_raw(s, "\"", 1);
    for (const char *q; (q = strchr(v, '"')); v = q + 1) w_raw(s, v, (size_t)(q - v)), w_raw(s, "&quot;", 6);
    w_raw(s, v, strlen(v)), w_raw(s, "\"", 1);
  }
}

/* ---- the charset (xmlParseCharEncoding, xmlFindCharEncodingHandler) ---- */

static void upper_of(const char *name, char *up, size_t cap) {
  size_t k = 0;
  for (; k + 1 < cap && name[k]; k++) up[k] = (char)(name[k] >= 'a' && name[k] <= 'z' ? name[k] - 32 : name[k]);
  up[k] = '\0';
}

/* The canonical name of a charset libxml2 knows by name, NULL if none. */
static const char *canonical(const char *name) {
  static const char *const known[][2] = {
      {"UTF-8", "UTF-8"},
      {"UTF8", "UTF-8"},
      {"UTF-16", "UTF-16"},
      {"UTF16", "UTF-16"},
      {"ISO-10646-UCS-2", "ISO-10646-UCS-2"},
      {"UCS-2", "ISO-10646-UCS-2"},
      {"UCS2", "ISO-10646-UCS-2"},
      {"ISO-10646-UCS-4", "ISO-10646-UCS-4"},
      {"UCS-4", "ISO-10646-UCS-4"},
      {"UCS4", "ISO-10646-UCS-4"},
      {"ISO-8859-1", "ISO-8859-1"},
      {"ISO-LATIN-1", "ISO-8859-1"},
      {"ISO LATIN 1", "ISO-8859-1"},
      {"ISO-8859-2", "ISO-8859-2"},
      {"ISO-LATIN-2", "ISO-8859-2"},
      {"ISO LATIN 2", "ISO-8859-2"},
      {"ISO-8859-3", "ISO-8859-3"},
      {"ISO-8859-4", "ISO-8859-4"},
      {"ISO-8859-5", "ISO-8859-5"},
      {"ISO-8859-6", "ISO-8859-6"},
      {"ISO-8859-7", "ISO-8859-7"},
      {"ISO-8859-8", "ISO-8859-8"},
      {"ISO-8859-9", "ISO-8859-9"},
      {"ISO-2022-JP", "ISO-2022-JP"},
      {"SHIFT_JIS", "Shift-JIS"},
      {"EUC-JP", "EUC-JP"},
  };
  char up[500];
  upper_of(name, up, sizeof up);
  for (size_t k = 0; k < sizeof known / sizeof *known; k++)
    if (strcmp(up, known[k][0]) == 0) return known[k][1];
  return NULL;
}

/* The encoder libxml2 2.9.14 finds for name (s->enc, s->cd), ENC_NONE
 * when it finds none: the output is then UTF-8, as without a charset. */
static void find_encoder(sink *s, const char *name, int depth) {
  static const struct {
    const char *name;
    int enc;
  } builtin[] = {{"UTF-8", ENC_NONE},     {"UTF-16LE", ENC_UTF16LE},  {"UTF-16BE", ENC_UTF16BE},
                 {"UTF-16", ENC_UTF16},   {"ISO-8859-1", ENC_LATIN1}, {"ASCII", ENC_ASCII},
                 {"US-ASCII", ENC_ASCII}, {"HTML", ENC_HTML}};
  s->enc = ENC_NONE;
  if (!name[0]) return;
  char up[100];
  upper_of(name, up, sizeof up);
  for (size_t k = 0; k < sizeof builtin / sizeof *builtin; k++)
    if (strcmp(up, builtin[k].name) == 0) {
      s->enc = builtin[k].enc;
      return;
    }
  if ((s->cd = tbk_encoder_open(name, up))) {
    s->enc = ENC_ICONV;
    return;
  }
  const char *canon = canonical(name);
  if (canon && strcmp(name, canon) != 0 && depth < 2) find_encoder(s, canon, depth + 1);
  /* A label only ICU knows (ks_c_5601-1987, x-sjis, x-mac-roman): the
   * converter the page was read with (tbk_charset_canonical), so that the
   * bytes are what the page's declaration says, where libxml2 without a
   * converter would write UTF-8 under it. */
  const char *read_as = depth ? NULL : tbk_charset_canonical(name);
  if (s->enc == ENC_NONE && read_as && (s->cd = tbk_encoder_open(read_as, read_as))) s->enc = ENC_ICONV;
}

void tbk_html_out_begin(sink *s, tbk_buf *out, const char *charset) {
  memset(s, 0, sizeof *s);
  s->out = out;
  if (!charset) find_encoder(s, "HTML", 0);
  else if (!canonical(charset) || strcmp(canonical(charset), "UTF-8") != 0) find_encoder(s, charset, 0);
  /* UTF-16 starts with its byte order mark */
  if (s->enc == ENC_UTF16 && tbk_buf_append(&s->conv, "\xFF\xFE", 2)) s->nomem = 1;
}

tbk_status tbk_html_out_end(sink *s, size_t *unwritable) {
  w_flush(s);
  if (s->enc == ENC_ICONV) tbk_encoder_close(s->cd);
  tbk_buf_free(&s->raw);
  tbk_buf_free(&s->conv);
  *unwritable = s->unwritable;
  return s->nomem ? TBK_ERR_NOMEM : s->gave_up ? TBK_ERR_FORMAT : TBK_OK;
}
