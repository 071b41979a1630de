/* The HTML writer (html_write.h). What it reproduces of libxml2 2.9.14
 * (HTMLtree.c, entities.c, uri.c, encoding.c, xmlIO.c), learnt from its
 * source and checked against it by tests/test_html_write.c:
 *  - the DOCTYPE first (intSubset), then the document's nodes, then "\n";
 *  - an element: its name, its attributes, then ">" alone when
 *    HTML calls it empty, or when it has no children and HTML saves its
 *    end tag (empty elements and <li>) unless it is <html> or <body>
 *    (an element is named by its local name: an HTML tree has no
 *    namespaces);
 *  - an attribute: its name alone when it has no value or HTML calls it
 *    boolean; else its value with &, <, > escaped (but "<!--...-->" and
 *    "&{...}" kept), URI-escaped after its leading blanks for href, src,
 *    action and <a name>, quoted with " unless it
 *    holds " but no ' (then '), else with " and &quot;;
 *  - text escaped as an attribute value is but without the two
 *    exceptions, control characters but tab, CR and LF left out; raw in
 *    <script> and <style>, as CDATA always is;
 *  - comments and PIs as <!--content--> and <?target content>;
 *  - the output buffer: writes of up to 16,000 bytes gathered until 4,000
 *    wait, then encoded at once; a character the charset lacks becomes a
 *    character reference, or when that cannot be written either it is
 *    left out, unless it was the first of its batch: then the output is
 *    given up. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "charset.h"
#include "html_tables.h"
#include "html_write.h"

/* ---- the output buffer and its encoder ---- */

enum { ENC_NONE, ENC_HTML, ENC_LATIN1, ENC_ASCII, ENC_UTF16LE, ENC_UTF16BE, ENC_UTF16, ENC_ICONV };
enum { MINLEN = 4000, CHUNK = 4 * MINLEN, CONV_MAX = 64 * 1024 };

typedef struct sink {
  tbk_buf *out;      /* borrowed: where the encoded bytes go */
  int enc;           /* ENC_* */
  tbk_encoder *cd;   /* with ENC_ICONV, owned */
  tbk_buf raw;       /* owned: written, not yet encoded */
  size_t raw_at;     /* encoded bytes at the start of raw */
  tbk_buf conv;      /* owned: encoded, not yet handed to out */
  int gave_up;       /* the charset gave the output up */
  int nomem;         /* out of memory */
  size_t unwritable; /* characters left out */
} sink;

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
static void w_write(sink *s, const char *p, size_t len) {
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
static void w_puts(sink *s, const char *p) { w_write(s, p, strlen(p)); }

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
static void w_quoted(sink *s, const char *v) {
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
}

/* ---- the view ---- */

#define FRAG 0x80000000u /* a node reference into the fragment's arena */

static int is_dropped(const tbk_html_view *v, uint32_t i) { return v->dropped && (v->dropped[i / 64] >> (i % 64) & 1); }
static uint32_t kept_from(const tbk_html_view *v, uint32_t i) {
  while (i != TBK_ANONE && is_dropped(v, i)) i = v->a->n[i].next;
  return i;
}
static const tbk_arena *arena_of(const tbk_html_view *v, uint32_t r) { return r & FRAG ? v->frag : v->a; }
static const tbk_anode *node_of(const tbk_html_view *v, uint32_t r) { return &arena_of(v, r)->n[r & ~FRAG]; }

static uint32_t frag_first(const tbk_html_view *v, uint32_t e) {
  uint32_t f = e == TBK_ANONE ? TBK_ANONE : v->frag->n[e].first;
  return f == TBK_ANONE ? TBK_ANONE : f | FRAG;
}
/* The first added child of page element p. */
static uint32_t added_first(const tbk_html_view *v, uint32_t p) {
  if (!v->frag) return TBK_ANONE;
  uint32_t f = p == v->to_head ? frag_first(v, v->frag_head) : TBK_ANONE;
  if (f == TBK_ANONE && p == v->to_body) f = frag_first(v, v->frag_body);
  return f;
}
static uint32_t first_child(const tbk_html_view *v, uint32_t r) {
  if (r & FRAG) return frag_first(v, r & ~FRAG);
  uint32_t c = kept_from(v, v->a->n[r].first);
  return c != TBK_ANONE ? c : added_first(v, r);
}
static uint32_t next_sibling(const tbk_html_view *v, uint32_t r, uint32_t parent) {
  if (r & FRAG) {
    const tbk_anode *n = &v->frag->n[r & ~FRAG];
    if (n->next != TBK_ANONE) return n->next | FRAG;
    /* the head's additions end: the body's follow when both go to one element */
    return n->parent == v->frag_head && parent == v->to_body ? frag_first(v, v->frag_body) : TBK_ANONE;
  }
  uint32_t s = kept_from(v, v->a->n[r].next);
  return s != TBK_ANONE || parent == TBK_ANONE ? s : added_first(v, parent);
}

static int named(const tbk_html_view *v, uint32_t r, const char *name) {
  const tbk_anode *n = node_of(v, r);
  return n->type == TBK_AN_ELEMENT && strcasecmp(n->name, name) == 0;
}

uint32_t tbk_html_child(const tbk_html_view *v, uint32_t x, const char *name) {
  for (uint32_t c = first_child(v, x); c != TBK_ANONE; c = next_sibling(v, c, x))
    if (node_of(v, c)->type == TBK_AN_ELEMENT && (!name || named(v, c, name))) return c;
  return TBK_ANONE;
}

static const char *attrs_of(const tbk_html_view *v, uint32_t r) {
  if (!(r & FRAG) && v->n_marked) {
    size_t lo = 0, hi = v->n_marked;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (v->marked[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    if (lo < v->n_marked && v->marked[lo] == r) return v->mark_buf + v->mark_at[lo];
  }
  return tbk_arena_attrs(arena_of(v, r), r & ~FRAG);
}

/* The content of a <meta http-equiv="Content-Type" content=...>: 1 when
 * meta is one, *content set. */
static int content_type(const tbk_html_view *v, uint32_t meta, const char **content) {
  const char *p = attrs_of(v, meta), *name, *value;
  int http = 0;
  *content = NULL;
  while ((name = tbk_attr_next(&p, &value))) {
    if (!value) continue;
    if (strcasecmp(name, "http-equiv") == 0 && strcasecmp(value, "Content-Type") == 0) http = 1;
    else if (strcasecmp(name, "content") == 0) *content = value;
    if (http && *content) return 1;
  }
  return 0;
}

/* The charset a Content-Type's content names, NULL if none. */
static const char *charset_in(const char *content) {
  static const char *const keys[] = {"charset=", "Charset=", "CHARSET=", "charset =", "Charset =", "CHARSET ="};
  const char *e = NULL;
  for (int k = 0; k < 6 && !e; k++)
    if ((e = strstr(content, keys[k]))) e += strlen(keys[k]);
  if (e)
    while (*e == ' ' || *e == '\t') e++;
  return e;
}

static int element_named(const tbk_html_view *v, uint32_t r, const char *name) {
  const tbk_anode *n = node_of(v, r);
  return n->type == TBK_AN_ELEMENT && strcmp(n->name, name) == 0;
}

/* htmlGetMetaEncoding over the view: <html> (or <head>, or a <meta>) at
 * the top, then <head> (or a <meta>) in it, then the first <meta> with a
 * Content-Type among the head's children from there: the charset it
 * names, with the first such element answering even when it names none
 * ("charset" absent). NULL when none is found. */
static const char *meta_charset(const tbk_html_view *v) {
  uint32_t parent = 0, cur = first_child(v, 0);
  while (cur != TBK_ANONE && !element_named(v, cur, "html") && !element_named(v, cur, "head") &&
         !element_named(v, cur, "meta"))
    cur = next_sibling(v, cur, parent);
  if (cur == TBK_ANONE) return NULL;
  if (element_named(v, cur, "html")) {
    parent = cur;
    cur = first_child(v, cur);
    while (cur != TBK_ANONE && !element_named(v, cur, "head") && !element_named(v, cur, "meta"))
      cur = next_sibling(v, cur, parent);
    if (cur == TBK_ANONE) return NULL;
  }
  if (element_named(v, cur, "head")) {
    parent = cur;
    cur = first_child(v, cur);
  }
  const char *content;
  for (; cur != TBK_ANONE; cur = next_sibling(v, cur, parent))
    if (element_named(v, cur, "meta") && content_type(v, cur, &content)) return charset_in(content);
  return NULL;
}

/* ---- the serializer ---- */

typedef struct writer {
  const tbk_html_view *v;
  sink s;
  tbk_buf tmp; /* owned: an escaped string */
} writer;

/* xmlEncodeEntitiesInternal for an HTML document into w->tmp. */
static void escape(writer *w, const char *in, int attr) {
  tbk_buf *t = &w->tmp;
  t->len = 0;
  const char *cur = in, *end;
  int bad = 0;
  while (*cur && !bad) {
    unsigned char c = (unsigned char)*cur;
    if (c == '<' && attr && cur[1] == '!' && cur[2] == '-' && cur[3] == '-' && (end = strstr(cur, "-->"))) {
      bad = tbk_buf_append(t, cur, (size_t)(end + 3 - cur));
      cur = end + 3;
      continue;
    }
    if (c == '&' && attr && cur[1] == '{' && (end = strchr(cur, '}'))) {
      bad = tbk_buf_append(t, cur, (size_t)(end + 1 - cur));
      cur = end + 1;
      continue;
    }
    if (c == '<') bad = tbk_buf_puts(t, "&lt;");
    else if (c == '>') bad = tbk_buf_puts(t, "&gt;");
    else if (c == '&') bad = tbk_buf_puts(t, "&amp;");
    else if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') bad = tbk_buf_append(t, cur, 1);
    cur++;
  }
  if (bad || tbk_buf_reserve(t, 1)) w->s.nomem = 1;
  else t->data[t->len] = '\0';
}

static int uri_keeps(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-_.!~*'()", c) ||
         strchr("@/:=?;#%&,+<>", c);
}

/* xmlURIEscapeStr(value after its blanks, "@/:=?;#%&,+<>"), quoted. */
static void write_uri(writer *w, const char *v) {
  while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
  tbk_buf e = {0};
  int bad = 0;
  for (const unsigned char *p = (const unsigned char *)v; *p && !bad; p++) {
    if (uri_keeps(*p)) bad = tbk_buf_append(&e, p, 1);
    else bad = tbk_buf_printf(&e, "%%%02X", *p);
  }
  if (bad || tbk_buf_reserve(&e, 1)) w->s.nomem = 1;
  else e.data[e.len] = '\0', w_quoted(&w->s, e.data);
  tbk_buf_free(&e);
}

static void write_attrs(writer *w, uint32_t r, const char *elem) {
  const char *p = attrs_of(w->v, r), *name, *value;
  while ((name = tbk_attr_next(&p, &value))) {
    w_puts(&w->s, " ");
    w_puts(&w->s, name);
    if (!value || tbk_html_boolean_attr(name)) continue;
    escape(w, value, 1);
    if (w->s.nomem) return;
    w_puts(&w->s, "=");
    int uri = strcasecmp(name, "href") == 0 || strcasecmp(name, "action") == 0 || strcasecmp(name, "src") == 0 ||
              (strcasecmp(name, "name") == 0 && strcasecmp(elem, "a") == 0);
    if (uri) write_uri(w, w->tmp.data);
    else w_quoted(&w->s, w->tmp.data);
  }
}

static void end_tag(writer *w, uint32_t r) {
  w_puts(&w->s, "</");
  w_puts(&w->s, node_of(w->v, r)->name);
  w_puts(&w->s, ">");
}

/* Element r's start tag; 1 when its children follow. */
static int start_tag(writer *w, uint32_t r) {
  const tbk_anode *n = node_of(w->v, r);
  const tbk_html_elem *info = tbk_html_elem_lookup(n->name);
  w_puts(&w->s, "<");
  w_puts(&w->s, n->name);
  write_attrs(w, r, n->name);
  if (info && info->empty) {
    w_puts(&w->s, ">");
    return 0;
  }
  if (first_child(w->v, r) != TBK_ANONE) {
    w_puts(&w->s, ">");
    return 1;
  }
  /* HTML saves the end tag of the empty elements and of <li> */
  if (info && strcmp(info->name, "li") == 0) w_puts(&w->s, ">");
  else w_puts(&w->s, ">"), end_tag(w, r);
  return 0;
}

static void write_leaf(writer *w, uint32_t r, uint32_t parent) {
  const tbk_arena *a = arena_of(w->v, r);
  const tbk_anode *n = node_of(w->v, r);
  const char *s = a->strs.data + n->str;
  if (n->type == TBK_AN_TEXT) {
    const char *pn = parent != 0 ? node_of(w->v, parent)->name : NULL;
    if (pn && (strcasecmp(pn, "script") == 0 || strcasecmp(pn, "style") == 0)) {
      w_puts(&w->s, s);
    } else {
      escape(w, s, 0);
      if (!w->s.nomem) w_puts(&w->s, w->tmp.data);
    }
  } else if (n->type == TBK_AN_CDATA) {
    w_puts(&w->s, s);
  } else if (n->type == TBK_AN_COMMENT) {
    w_puts(&w->s, "<!--"), w_puts(&w->s, s), w_puts(&w->s, "-->");
  } else if (n->type == TBK_AN_PI) {
    w_puts(&w->s, "<?");
    w_puts(&w->s, s);
    if (n->attrs != TBK_ANONE) w_puts(&w->s, " "), w_puts(&w->s, a->strs.data + n->attrs);
    w_puts(&w->s, ">");
  }
}

static void write_doctype(writer *w) {
  const tbk_arena *a = w->v->a;
  if (!a->has_doctype) return;
  const char *s = a->strs.data;
  w_puts(&w->s, "<!DOCTYPE ");
  if (a->dt_name != TBK_ANONE) w_puts(&w->s, s + a->dt_name);
  if (a->dt_ext != TBK_ANONE) {
    w_puts(&w->s, " PUBLIC ");
    w_quoted(&w->s, s + a->dt_ext);
    if (a->dt_sys != TBK_ANONE) w_puts(&w->s, " "), w_quoted(&w->s, s + a->dt_sys);
  } else if (a->dt_sys != TBK_ANONE && strcmp(s + a->dt_sys, "about:legacy-compat") != 0) {
    w_puts(&w->s, " SYSTEM ");
    w_quoted(&w->s, s + a->dt_sys);
  }
  w_puts(&w->s, ">\n");
}

/* The document depth-first without recursion; open holds the elements
 * entered. */
static void write_doc(writer *w) {
  write_doctype(w);
  uint32_t *open = NULL, parent = 0;
  size_t depth = 0, cap = 0;
  uint32_t cur = first_child(w->v, 0);
  while (cur != TBK_ANONE && !w->s.nomem && !w->s.gave_up) {
    if (node_of(w->v, cur)->type == TBK_AN_ELEMENT) {
      if (start_tag(w, cur)) {
        if (tbk_grow(&open, &cap, depth + 1, sizeof *open)) {
          w->s.nomem = 1;
          break;
        }
        open[depth++] = parent;
        parent = cur;
        cur = first_child(w->v, cur);
        continue;
      }
    } else {
      write_leaf(w, cur, parent);
    }
    uint32_t next;
    while ((next = next_sibling(w->v, cur, parent)) == TBK_ANONE && depth > 0) {
      end_tag(w, parent);
      cur = parent;
      parent = open[--depth];
    }
    cur = next;
  }
  free(open);
  w_puts(&w->s, "\n");
}

tbk_status tbk_html_write(const tbk_html_view *v, tbk_buf *out, char *declared, size_t n, size_t *unwritable) {
  writer w = {.v = v, .s = {.out = out}};
  const char *enc = meta_charset(v);
  snprintf(declared, n, "%s", enc ? enc : "");
  if (!enc) find_encoder(&w.s, "HTML", 0);
  else if (!canonical(enc) || strcmp(canonical(enc), "UTF-8") != 0) find_encoder(&w.s, enc, 0);
  /* UTF-16 starts with its byte order mark */
  if (w.s.enc == ENC_UTF16 && tbk_buf_append(&w.s.conv, "\xFF\xFE", 2)) w.s.nomem = 1;
  write_doc(&w);
  w_flush(&w.s);
  if (w.s.enc == ENC_ICONV) tbk_encoder_close(w.s.cd);
  tbk_buf_free(&w.s.raw);
  tbk_buf_free(&w.s.conv);
  tbk_buf_free(&w.tmp);
  *unwritable = w.s.unwritable;
  return w.s.nomem ? TBK_ERR_NOMEM : w.s.gave_up ? TBK_ERR_FORMAT : TBK_OK;
}
