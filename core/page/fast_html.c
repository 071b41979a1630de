/* tbk's HTML parser (fast_html.h), the same with every libxml2: what it
 * knows of HTML is tbk's tables (html_tables.h), frozen from 2.9.14; of
 * libxml2 it uses the dictionary that interns the names alone.
 *
 * It follows htmlParseDocument of libxml2 2.9.14 (HTMLparser.c) step by
 * step, in SAX mode with blanks kept and recovery on, as html_parse.c runs
 * it: the same name stack, implied and auto-closed elements, misplaced
 * <html>/<head>/<body>, end tags matched by priority, script and style
 * content, references, comments, PIs and DOCTYPEs, and the same errors
 * counted the way the watch (html_parse.c) counts them. It reads bytes,
 * and characters where libxml2's reading depends on them (names it reads
 * by characters); the source is clean UTF-8. A page holding anything it
 * does not reproduce (a character that is not an XML Char, a tag name
 * longer than libxml2's buffer, 65535 lines or more, ...) is declined
 * whole, before the builder has been given anything it would keep: see
 * tests/compat/README.md for the reasons and how often they come.
 *
 * Lines: libxml2 counts every newline it reads, so the line of an event is
 * one plus the newlines before the point the parser has reached when it
 * sends it. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* xmlChar first: 2.9.14's dict.h uses it without including it */
#include <libxml/xmlstring.h>

#include <libxml/dict.h>

#include "build.h"
#include "fast_html.h"
#include "html_tables.h"
#include "page_xml.h"
#include "tags.h"

/* What the name stack needs to know of a name: one per distinct name. */
enum {
  K_OTHER,
  K_HTML,
  K_HEAD,
  K_BODY,
  K_P,
  K_SCRIPT,
  K_STYLE,
  K_FRAMES, /* noframes, frame, frameset */
};

typedef struct name_ent {
  const char *name;          /* the dictionary's */
  const tbk_html_elem *info; /* HTML 4's description, NULL for a tag libxml2 does not know */
  uint64_t key[2];           /* the name's first 16 bytes, zero-padded: most names are shorter */
  uint32_t hash, len;
  uint16_t cid;    /* 1 + its closer id (html_tables.h), 0: in no auto-close */
  int tag;         /* its tbk_tag */
  uint8_t kind;    /* K_* */
  uint8_t headish; /* in htmlCheckImplied's head list */
  int prio;        /* htmlGetEndPriority */
} name_ent;

/* Names of one page, interned: element and attribute names lowercased as
 * htmlParseHTMLName makes them. More than this many distinct names and the
 * page is declined (libxml2 refuses a page only past 100,000; tbk's watch
 * in html_parse.c then decides). */
enum { MAX_NAMES = 4096, CHUNK = 128, MAX_NAME = 100 };

typedef struct fp {
  const unsigned char *s;
  size_t n, i;     /* the source and the parser's position */
  size_t line_pos; /* newlines counted up to here */
  uint32_t line;   /* 1 + newlines before line_pos */
  tbk_build b;
  int declined, nomem;
  const char *why; /* the first reason it declined (static) */
  size_t errors;
  uint64_t scanned, budget; /* the watch's stack scans (html_parse.c) */
  /* libxml2's parser state */
  const name_ent **stack; /* owned: the name stack (nameTab) */
  size_t nstack, cap_stack;
  int html_level;          /* ctxt->html: 3 once a head was pushed, 10 once a body */
  int discard_depth;       /* ctxt->depth: misplaced tags skipped */
  const name_ent *current; /* htmlParseContentInternal's currentNode */
  size_t current_depth;
  /* names */
  xmlDictPtr dict;                     /* owned until handed to the arena */
  name_ent *chunks[MAX_NAMES / CHUNK]; /* owned: the names, CHUNK at a time (entries never move) */
  uint32_t *slots;                     /* owned, n_slots: index + 1, 0 free */
  size_t n_names, n_slots;
  const name_ent *n_html, *n_head, *n_body, *n_p;
  /* scratch */
  tbk_buf vals;               /* attribute values, NUL-separated */
  size_t *val_off;            /* owned: offsets in vals, per attribute (SIZE_MAX: no value) */
  const name_ent **att_names; /* owned: per attribute */
  size_t cap_off, cap_names;
  const char **atts; /* owned: the list given to the builder */
  size_t cap_atts;
  tbk_buf text; /* a reference's text */
} fp;

static void decline(fp *f, const char *why) {
  if (!f->declined) f->why = why;
  f->declined = 1;
}

static const char over_budget[] = "over the watch's budget of stack scans";

/* The watch's count of a recovered error (html_parse.c on_error): libxml2
 * would be stopped at the same error. */
static void error(fp *f) {
  f->errors++;
  f->scanned += (uint64_t)f->nstack + 1;
  if (f->scanned > f->budget) decline(f, over_budget);
}

static void build_error(void *ctx) { error(ctx); }

/* The line at pos: the events come in source order, so the newlines are
 * counted once, from the last event on. */
static uint32_t line_at(fp *f, size_t pos) {
  const unsigned char *p = f->s + f->line_pos, *e = f->s + pos;
  if (pos <= f->line_pos) return f->line;
  while ((p = memchr(p, '\n', (size_t)(e - p)))) {
    f->line++;
    p++;
  }
  f->line_pos = pos;
  return f->line;
}

static int cur(const fp *f) { return f->i < f->n ? f->s[f->i] : 0; }
static int nxt(const fp *f, size_t k) { return f->i + k < f->n ? f->s[f->i + k] : 0; }
static int blank(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static int letter(int c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
static int digit(int c) { return c >= '0' && c <= '9'; }

/* Eight bytes at a time: a word with a byte equal to c's (a spread byte)
 * sets that byte's high bit; bytes after a match may be set too, never one
 * before (haszero). */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
static inline uint64_t word_at(const unsigned char *p) {
  uint64_t x;
  memcpy(&x, p, sizeof x);
  return x;
}
static inline uint64_t has_byte(uint64_t x, uint64_t spread) {
  uint64_t y = x ^ spread;
  return (y - ONES) & ~y & HIGHS;
}

/* The first of '<' and '&' at or after k, else n. */
static size_t find_markup(const unsigned char *s, size_t k, size_t n) {
  for (; k + 8 <= n; k += 8) {
    uint64_t x = word_at(s + k);
    if (has_byte(x, '<' * ONES) | has_byte(x, '&' * ONES)) break;
  }
  while (k < n && s[k] != '<' && s[k] != '&') k++;
  return k;
}

static void skip_blanks(fp *f) {
  while (f->i < f->n && blank(f->s[f->i])) f->i++;
}

/* ---- names ---- */

static int end_priority(const char *name) {
  static const struct {
    const char *name;
    int prio;
  } table[] = {
      {"div", 150},   {"td", 160},    {"th", 160},   {"tr", 170},   {"thead", 180}, {"tbody", 180},
      {"tfoot", 180}, {"table", 190}, {"head", 200}, {"body", 200}, {"html", 220},
  };
  for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
    if (strcmp(table[k].name, name) == 0) return table[k].prio;
  return 100;
}

static name_ent *entry(const fp *f, size_t k) { return &f->chunks[k / CHUNK][k % CHUNK]; }

/* The slots doubled, when half full. -1 out of memory. */
static int grow_slots(fp *f) {
  size_t n = f->n_slots * 2;
  uint32_t *t = calloc(n, sizeof *t);
  if (!t) return -1;
  for (size_t k = 0; k < f->n_names; k++) {
    size_t j = entry(f, k)->hash & (n - 1);
    while (t[j]) j = (j + 1) & (n - 1);
    t[j] = (uint32_t)k + 1;
  }
  free(f->slots);
  f->slots = t;
  f->n_slots = n;
  return 0;
}

/* lower: len bytes, then zeros up to 16 at least. */
static const name_ent *intern(fp *f, const char *lower, size_t len, uint32_t h) {
  uint64_t k0, k1;
  memcpy(&k0, lower, 8);
  memcpy(&k1, lower + 8, 8);
  size_t mask = f->n_slots - 1, j = h & mask;
  for (uint32_t k; (k = f->slots[j]); j = (j + 1) & mask) {
    const name_ent *e = entry(f, k - 1);
    if (e->key[0] == k0 && e->key[1] == k1 && e->len == len && (len <= 16 || memcmp(e->name, lower, len) == 0))
      return e;
  }
  if (f->n_names >= MAX_NAMES) {
    decline(f, "too many distinct names");
    return NULL;
  }
  const char *d = (const char *)xmlDictLookup(f->dict, (const xmlChar *)lower, (int)len);
  if (!d || (!f->chunks[f->n_names / CHUNK] && !(f->chunks[f->n_names / CHUNK] = malloc(CHUNK * sizeof(name_ent))))) {
    f->nomem = 1;
    return NULL;
  }
  name_ent *e = entry(f, f->n_names);
  *e = (name_ent){.name = d, .key = {k0, k1}, .hash = h, .len = (uint32_t)len};
  e->info = tbk_html_elem_lookup(d);
  e->cid = (uint16_t)(tbk_html_closer_id(d, e->info) + 1);
  e->tag = (int)tbk_tag_lookup(d);
  e->prio = end_priority(d);
  static const struct {
    const char *name;
    uint8_t kind, headish;
  } kinds[] = {
      {"html", K_HTML, 0},       {"head", K_HEAD, 0},   {"body", K_BODY, 0},       {"p", K_P, 0},
      {"script", K_SCRIPT, 1},   {"style", K_STYLE, 1}, {"meta", K_OTHER, 1},      {"link", K_OTHER, 1},
      {"title", K_OTHER, 1},     {"base", K_OTHER, 1},  {"noframes", K_FRAMES, 0}, {"frame", K_FRAMES, 0},
      {"frameset", K_FRAMES, 0},
  };
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    if (strcmp(kinds[k].name, d) == 0) {
      e->kind = kinds[k].kind;
      e->headish = kinds[k].headish;
    }
  f->slots[j] = (uint32_t)++f->n_names;
  if (f->n_names * 2 > f->n_slots && grow_slots(f)) {
    f->nomem = 1;
    return NULL;
  }
  return e;
}

static uint32_t hash_step(uint32_t h, unsigned c) { return (h ^ c) * 16777619u; }

/* htmlParseHTMLName at f->i: letters, digits, ':', '-', '_' and '.',
 * lowercased; NULL (nothing read) when the first is none of letter, '_',
 * ':' or '.'. A name libxml2 would cut at its buffer's size declines.
 * With peek, htmlParseHTMLName_nonInvasive's reading at f->i + 1 instead:
 * no '.', and nothing consumed. */
static const name_ent *name_at(fp *f, int peek, int *has_dot) {
  /* per byte: 1 a name's byte (letters, digits, ':', '-', '_'), 2 '.',
   * 4 an upper-case letter */
  static const uint8_t cls[256] = {
      ['-'] = 1, ['.'] = 2, [':'] = 1, ['_'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
      ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
#define L(c) [c] = 1, [c - 32] = 5
      L('a'),    L('b'),    L('c'),    L('d'),    L('e'),    L('f'),    L('g'),    L('h'),    L('i'),
      L('j'),    L('k'),    L('l'),    L('m'),    L('n'),    L('o'),    L('p'),    L('q'),    L('r'),
      L('s'),    L('t'),    L('u'),    L('v'),    L('w'),    L('x'),    L('y'),    L('z'),
#undef L
  };
  const unsigned stop = peek ? 1 : 3; /* peek: no '.' */
  size_t k = f->i + (peek != 0);
  int c = k < f->n ? f->s[k] : 0;
  if (!letter(c) && c != '_' && c != ':' && (peek || c != '.')) return NULL;
  char lower[MAX_NAME + 16];
  size_t len = 0;
  uint32_t h = 2166136261u;
  unsigned seen = 0;
  for (; k < f->n; k++) {
    c = f->s[k];
    unsigned t = cls[c];
    if (!(t & stop)) break;
    if (len == MAX_NAME) {
      if (peek) break; /* cut, as libxml2 cuts it */
      decline(f, "a name longer than libxml2's buffer");
      return NULL;
    }
    c |= (int)(t & 4) << 3; /* to lower case */
    seen |= t;
    lower[len++] = (char)c;
    h = hash_step(h, (unsigned)c);
  }
  if (!peek) f->i = k;
  if (has_dot) *has_dot = (seen & 2) != 0;
  memset(lower + len, 0, 16);
  return intern(f, lower, len, h);
}

static const name_ent *html_name(fp *f, int *has_dot) { return name_at(f, 0, has_dot); }

static const name_ent *literal(fp *f, const char *name) {
  char lower[MAX_NAME + 16] = {0};
  size_t len = strlen(name);
  memcpy(lower, name, len);
  uint32_t h = 2166136261u;
  for (size_t k = 0; k < len; k++) h = hash_step(h, (unsigned char)lower[k]);
  return intern(f, lower, len, h);
}

/* htmlCheckAutoClose(newtag, oldtag): the start of newtag closes oldtag. */
static int closes(const name_ent *newtag, const name_ent *oldtag) {
  if (!newtag->cid || !oldtag->cid) return 0;
  unsigned old = oldtag->cid - 1u;
  return (int)(tbk_html_closes[newtag->cid - 1u][old / 64] >> (old % 64)) & 1;
}

/* ---- the name stack and its events ---- */

static const name_ent *top(const fp *f) { return f->nstack ? f->stack[f->nstack - 1] : NULL; }

static void push(fp *f, const name_ent *e) {
  if (e == f->n_head && f->html_level < 3) f->html_level = 3;
  if (e == f->n_body && f->html_level < 10) f->html_level = 10;
  if (tbk_grow(&f->stack, &f->cap_stack, f->nstack + 1, sizeof *f->stack)) {
    f->nomem = 1;
    return;
  }
  f->stack[f->nstack++] = e;
}

static void pop(fp *f) {
  if (f->nstack) f->nstack--;
}

static void start_event(fp *f, const name_ent *e, const char **atts, uint32_t line) {
  tbk_build_start(&f->b, e->name, e->tag, atts, line);
}

static void end_top(fp *f) {
  tbk_build_end(&f->b);
  pop(f);
}

/* htmlAutoClose(newtag) */
static void auto_close(fp *f, const name_ent *newtag) {
  const name_ent *t;
  while ((t = top(f)) && closes(newtag, t) && !f->declined) end_top(f);
}

/* htmlCheckImplied(newtag), at the given line. */
static void check_implied(fp *f, const name_ent *newtag, uint32_t line) {
  if (newtag->kind == K_HTML) return;
  if (f->nstack == 0) {
    push(f, f->n_html);
    start_event(f, f->n_html, NULL, line);
  }
  if (newtag->kind == K_BODY || newtag->kind == K_HEAD) return;
  if (f->nstack <= 1 && newtag->headish) {
    if (f->html_level >= 3) return;
    push(f, f->n_head);
    start_event(f, f->n_head, NULL, line);
  } else if (newtag->kind != K_FRAMES) {
    if (f->html_level >= 10) return;
    for (size_t k = 0; k < f->nstack; k++)
      if (f->stack[k] == f->n_body || f->stack[k] == f->n_head) return;
    push(f, f->n_body);
    start_event(f, f->n_body, NULL, line);
  }
}

/* htmlCheckParagraph, at the given line. */
static void check_paragraph(fp *f, uint32_t line) {
  const name_ent *t = top(f);
  if (t && t->kind != K_HTML && t->kind != K_HEAD) return;
  if (t) auto_close(f, f->n_p);
  check_implied(f, f->n_p, line);
  push(f, f->n_p);
  start_event(f, f->n_p, NULL, line);
}

/* characters() of text read up to pos. */
static void characters(fp *f, const char *s, size_t len, size_t pos) {
  tbk_build_text(&f->b, s, len, TBK_AN_TEXT, line_at(f, pos));
}

/* ---- references ---- */

/* n bytes appended to t, or the parse marked out of memory. */
static void put(fp *f, tbk_buf *t, const void *p, size_t n) {
  if (tbk_buf_append(t, p, n)) f->nomem = 1;
}

static void utf8_put(fp *f, tbk_buf *t, unsigned c) {
  if (tbk_buf_utf8(t, c)) f->nomem = 1;
}

static int xml_char(unsigned c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

/* htmlParseCharRef at "&#": the character, or 0 for none, with libxml2's
 * errors (a missing ';' ends the digits; a value that is no Char gives 0). */
static unsigned char_ref(fp *f) {
  size_t k = f->i + 2;
  unsigned val = 0;
  int hex = k < f->n && (f->s[k] == 'x' || f->s[k] == 'X');
  k += hex;
  for (;; k++) {
    int c = k < f->n ? f->s[k] : 0, d;
    if (c == ';') {
      k++;
      break;
    }
    if (digit(c)) d = c - '0';
    else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f') d = (c | 0x20) - 'a' + 10;
    else {
      error(f); /* "missing semicolon" */
      break;
    }
    if (val < 0x110000) val = val * (hex ? 16 : 10) + (unsigned)d;
  }
  f->i = k;
  if (xml_char(val)) return val;
  error(f); /* "value too large" or "invalid xmlChar value" */
  return 0;
}

/* The code point of the character at k (the source is clean UTF-8) and its
 * length in *len. */
static uint32_t char_at(const fp *f, size_t k, size_t *len) {
  *len = tbk_utf8_seq(f->s + k, f->n - k);
  if (!*len) *len = 1; /* cannot happen: clean UTF-8 */
  return tbk_utf8_decode(f->s + k, *len);
}

/* htmlParseName at f->i: the length of the name it reads, 0 for none. Its
 * fast path takes an ASCII name followed by an ASCII byte, and none that
 * runs to the page's end; anything else is read again from the start by
 * htmlParseNameComplex, by characters: a Letter, '_' or ':', then name
 * characters. That one GROWs its input every 100 characters and, when the
 * buffer has moved, starts again where it stands, mid-name: what it reads
 * of a longer name depends on libxml2's allocator (ASan's moves it, glibc's
 * mostly not; found by fuzz_fast_html), so such a page is declined. */
static size_t parse_name(fp *f) {
  size_t k = f->i;
  int c = k < f->n ? f->s[k] : 0;
  if (letter(c) || c == '_' || c == ':') {
    for (k++; k < f->n; k++) {
      c = f->s[k];
      if (!letter(c) && !digit(c) && c != '_' && c != '-' && c != ':' && c != '.') break;
    }
    if (k >= f->n) return 0;
    if (f->s[k] < 0x80) return k - f->i;
  }
  k = f->i;
  if (k >= f->n) return 0;
  size_t len;
  uint32_t cp = char_at(f, k, &len);
  if (!tbk_xml_letter(cp) && cp != '_' && cp != ':') return 0;
  size_t chars = 1;
  for (k += len; k < f->n && tbk_xml_name_char(char_at(f, k, &len)); k += len) chars++;
  if (chars > 101) {
    decline(f, "a name libxml2 reads by characters past its 100-character grow");
    return 0;
  }
  return k - f->i;
}

/* htmlParseEntityRef's reading at '&' into t, as htmlParseHTMLAttribute
 * or htmlParseReference use it: the decoded character, or "&"
 * and the name when it is none, with libxml2's errors. */
static void entity_ref(fp *f, tbk_buf *t) {
  f->i++; /* '&' */
  size_t len = parse_name(f);
  if (len == 0) {
    error(f); /* "no name" */
    put(f, t, "&", 1);
    return;
  }
  const char *name = (const char *)f->s + f->i;
  f->i += len;
  int value = 0;
  if (cur(f) == ';') {
    value = (int)tbk_html_entity_value(name, len);
    if (value > 0) f->i++;
  } else {
    error(f); /* "expecting ';'" */
  }
  if (value > 0) {
    utf8_put(f, t, (unsigned)value);
  } else {
    put(f, t, "&", 1);
    put(f, t, name, len);
  }
}

/* htmlParseReference at '&' in content. */
static void reference(fp *f) {
  f->text.len = 0;
  if (nxt(f, 1) == '#') {
    unsigned c = char_ref(f);
    if (!c || f->declined) return; /* htmlParseReference sends nothing */
    utf8_put(f, &f->text, c);
  } else {
    entity_ref(f, &f->text);
  }
  if (f->declined || f->nomem) return;
  check_paragraph(f, line_at(f, f->i));
  characters(f, f->text.data, f->text.len, f->i);
}

/* ---- markup ---- */

static int at(const fp *f, const char *lit) {
  size_t len = strlen(lit);
  return f->n - f->i >= len && memcmp(f->s + f->i, lit, len) == 0;
}

static int at_doctype(const fp *f) {
  return f->n - f->i >= 9 && f->s[f->i] == '<' && f->s[f->i + 1] == '!' &&
         strncasecmp((const char *)f->s + f->i + 2, "DOCTYPE", 7) == 0;
}

/* htmlParseComment at "<!--": it ends at the first "-->" or, with an
 * error, "--!>"; unterminated, it takes the rest of the page with an
 * error, and no comment. */
static void comment(fp *f) {
  const unsigned char *from = f->s + f->i + 4, *end = f->s + f->n;
  const unsigned char *close = memmem(from, (size_t)(end - from), "-->", 3);
  const unsigned char *bang = memmem(from, (size_t)((close ? close : end) - from), "--!>", 4);
  const unsigned char *end_of_content = bang ? bang : close;
  if (bang) {
    error(f);
    close = bang + 1;
  }
  if (!close) {
    error(f);
    f->i = f->n;
    return;
  }
  f->i = (size_t)(close + 3 - f->s);
  tbk_build_comment(&f->b, (const char *)from, (size_t)(end_of_content - from), line_at(f, f->i));
}

/* htmlParsePI at "<?": without a target, an error and nothing more read;
 * unterminated, the rest of the page taken with an error, and no PI. */
static void pi(fp *f) {
  f->i += 2;
  size_t len = parse_name(f);
  if (!len) {
    error(f); /* "PI is not started correctly" */
    return;
  }
  const char *target = (const char *)f->s + f->i, *data = NULL;
  size_t dlen = 0;
  f->i += len;
  if (cur(f) != '>') {
    if (!blank(cur(f))) error(f); /* "space expected" */
    skip_blanks(f);
    const unsigned char *gt = memchr(f->s + f->i, '>', f->n - f->i);
    if (!gt) {
      error(f); /* "PI never end" */
      f->i = f->n;
      return;
    }
    data = (const char *)f->s + f->i;
    dlen = (size_t)(gt - f->s) - f->i;
    f->i = (size_t)(gt - f->s);
  }
  f->i++;
  tbk_build_pi(&f->b, target, len, data, dlen, line_at(f, f->i));
}

/* A quoted literal of a DOCTYPE; pubid: only PubidChars. Its value in
 * *v, *vlen as libxml2 2.9.14 keeps it: htmlParseSystemLiteral counts the
 * characters it steps over but copies that many bytes, so a system literal
 * with characters beyond ASCII is cut short. */
static int doctype_literal(fp *f, int pubid, const char **v, size_t *vlen) {
  int q = cur(f);
  if (q != '"' && q != '\'') return -1;
  size_t k = f->i + 1, chars = 0;
  for (; k < f->n && f->s[k] != q; k++) {
    if (pubid && !tbk_html_pubid_char(f->s[k])) return -1;
    chars += (f->s[k] & 0xC0) != 0x80;
  }
  if (k >= f->n) return -1;
  *v = (const char *)f->s + f->i + 1;
  *vlen = chars;
  f->i = k + 1;
  return 0;
}

/* htmlParseDocTypeDecl at "<!DOCTYPE". */
static void doctype(fp *f) {
  f->i += 9;
  skip_blanks(f);
  size_t len = parse_name(f);
  if (!len) return decline(f, "a DOCTYPE without a name");
  const char *name = (const char *)f->s + f->i, *ext = NULL, *sysid = NULL;
  size_t elen = 0, slen = 0;
  f->i += len;
  skip_blanks(f);
  int sys = f->n - f->i >= 6 && strncasecmp((const char *)f->s + f->i, "SYSTEM", 6) == 0;
  int pub = f->n - f->i >= 6 && strncasecmp((const char *)f->s + f->i, "PUBLIC", 6) == 0;
  if (sys || pub) {
    f->i += 6;
    if (!blank(cur(f))) error(f); /* "Space required" */
    skip_blanks(f);
    if (doctype_literal(f, pub, pub ? &ext : &sysid, pub ? &elen : &slen))
      return decline(f, "a DOCTYPE literal libxml2 reports");
    if (pub) {
      skip_blanks(f);
      if ((cur(f) == '"' || cur(f) == '\'') && doctype_literal(f, 0, &sysid, &slen))
        return decline(f, "a DOCTYPE literal libxml2 reports");
    }
  }
  skip_blanks(f);
  if (cur(f) != '>') {
    error(f); /* "DOCTYPE improperly terminated": the rest skipped */
    const unsigned char *gt = memchr(f->s + f->i, '>', f->n - f->i);
    f->i = gt ? (size_t)(gt - f->s) : f->n;
  }
  if (cur(f) == '>') f->i++;
  tbk_build_doctype(&f->b, name, len, ext, elen, sysid, slen);
}

/* htmlParseHTMLAttribute: the value up to stop (0: a blank or '>'),
 * references decoded, appended to vals with its NUL. */
static void att_value(fp *f, int stop) {
  tbk_buf *v = &f->vals;
  for (;;) {
    size_t k = f->i;
    if (stop) {
      for (uint64_t spread = (uint64_t)stop * ONES; k + 8 <= f->n; k += 8) {
        uint64_t x = word_at(f->s + k);
        if (has_byte(x, spread) | has_byte(x, '&' * ONES)) break;
      }
      while (k < f->n && f->s[k] != stop && f->s[k] != '&') k++;
    } else {
      while (k < f->n) {
        int c = f->s[k];
        if (c == '&' || c == '>' || blank(c)) break;
        k++;
      }
    }
    if (k > f->i) put(f, v, f->s + f->i, k - f->i);
    f->i = k;
    if (k >= f->n || f->s[k] != '&' || f->nomem) break;
    if (nxt(f, 1) == '#') {
      /* no character (0) is written as a NUL, as libxml2 writes it: the
       * value, a C string, ends there */
      unsigned c = char_ref(f);
      if (f->declined) return;
      utf8_put(f, v, c);
    } else {
      entity_ref(f, v);
      if (f->declined) return;
    }
  }
  put(f, v, "", 1);
}

/* htmlParseStartTag and the rest of htmlParseElementInternal, at '<' and
 * an ASCII letter; looked_ahead: htmlParseContentInternal read the name
 * ahead at this point (not when a misplaced DOCTYPE came first). */
static void element(fp *f, int looked_ahead) {
  size_t lt = f->i++;
  int dot;
  const name_ent *name = html_name(f, &dot);
  if (!name) return;
  if (dot && looked_ahead) {
    /* htmlParseContentInternal auto-closed with the name read up to the
     * dot before the tag was parsed (see content()) */
    size_t after = f->i;
    f->i = lt;
    const name_ent *before_dot = name_at(f, 1, NULL);
    f->i = after;
    if (!before_dot) return;
    auto_close(f, before_dot);
  }
  auto_close(f, name);
  check_implied(f, name, line_at(f, f->i));
  int discard = 0;
  if (f->nstack > 0 && name->kind == K_HTML) {
    error(f);
    discard = 1;
    f->discard_depth++;
  }
  if (f->nstack != 1 && name->kind == K_HEAD) {
    error(f);
    discard = 1;
    f->discard_depth++;
  }
  if (name->kind == K_BODY)
    for (size_t k = 0; k < f->nstack; k++)
      if (f->stack[k] == f->n_body) {
        error(f);
        discard = 1;
        f->discard_depth++;
      }
  skip_blanks(f);
  size_t natts = 0;
  f->vals.len = 0;
  while (f->i < f->n && f->s[f->i] != '>' && !(f->s[f->i] == '/' && nxt(f, 1) == '>') && !f->declined) {
    const name_ent *att = html_name(f, NULL);
    if (f->declined || f->nomem) return;
    if (!att) {
      error(f); /* "error parsing attribute name" */
      while (f->i < f->n && !blank(f->s[f->i]) && f->s[f->i] != '>' && !(f->s[f->i] == '/' && nxt(f, 1) == '>')) f->i++;
    } else {
      size_t mark = f->vals.len;
      int has_value = 0;
      skip_blanks(f);
      if (cur(f) == '=') {
        f->i++;
        skip_blanks(f);
        int q = cur(f);
        if (q == '"' || q == '\'') {
          f->i++;
          att_value(f, q);
          if (cur(f) == q) f->i++;
          else error(f); /* "AttValue: \" expected": the value runs to the page's end */
        } else {
          att_value(f, 0);
        }
        if (f->declined || f->nomem) return;
        has_value = 1;
      }
      int dup = 0;
      for (size_t k = 0; k < natts; k++)
        if (f->att_names[k] == att) dup = 1;
      if (dup) {
        error(f); /* "Attribute redefined" */
        f->vals.len = mark;
      } else {
        if (tbk_grow(&f->att_names, &f->cap_names, natts + 1, sizeof *f->att_names) ||
            tbk_grow(&f->val_off, &f->cap_off, natts + 1, sizeof *f->val_off)) {
          f->nomem = 1;
          return;
        }
        f->att_names[natts] = att;
        f->val_off[natts++] = has_value ? mark : SIZE_MAX;
      }
    }
    skip_blanks(f);
  }
  if (f->declined) return;
  if (!discard) {
    const char **atts = NULL;
    if (natts) {
      if (tbk_grow(&f->atts, &f->cap_atts, 2 * natts + 2, sizeof *f->atts)) {
        f->nomem = 1;
        return;
      }
      for (size_t k = 0; k < natts; k++) {
        f->atts[2 * k] = f->att_names[k]->name;
        f->atts[2 * k + 1] = f->val_off[k] == SIZE_MAX ? NULL : f->vals.data + f->val_off[k];
      }
      f->atts[2 * natts] = f->atts[2 * natts + 1] = NULL;
      atts = f->atts;
    }
    push(f, name);
    start_event(f, name, atts, line_at(f, f->i));
  }
  /* htmlParseElementInternal goes on with the top of the stack, which is
   * the element unless it was discarded. */
  const name_ent *t = top(f);
  if (!t) {
    if (cur(f) == '>') f->i++;
    return;
  }
  if (!t->info) error(f); /* "Tag invalid" */
  if (cur(f) == '/' && nxt(f, 1) == '>') {
    f->i += 2;
    end_top(f);
    return;
  }
  if (cur(f) != '>') {
    /* "Couldn't find end of Start Tag", at the page's end: the open
     * element leaves the name stack without an end event */
    error(f);
    pop(f);
    return;
  }
  f->i++;
  if (t->info && t->info->empty) end_top(f);
}

/* htmlParseEndTag at "</": 1 when it closed the current level. */
static int end_tag(fp *f) {
  f->i += 2;
  const name_ent *name = html_name(f, NULL);
  if (!name) return 0;
  skip_blanks(f);
  if (cur(f) != '>') {
    error(f); /* "expected '>'" */
    const unsigned char *gt = memchr(f->s + f->i, '>', f->n - f->i);
    f->i = gt ? (size_t)(gt - f->s) : f->n;
  }
  if (cur(f) == '>') f->i++;
  if (f->discard_depth > 0 && (name->kind == K_HTML || name->kind == K_BODY || name->kind == K_HEAD)) {
    f->discard_depth--;
    return 0;
  }
  size_t k = f->nstack;
  while (k > 0 && f->stack[k - 1] != name) k--;
  if (k == 0) {
    error(f); /* "Unexpected end tag" */
    return 0;
  }
  /* htmlAutoCloseOnClose */
  int blocked = 0;
  for (size_t j = f->nstack; j > k; j--)
    if (f->stack[j - 1]->prio > name->prio) blocked = 1;
  if (!blocked)
    while (top(f) != name) {
      const name_ent *t = top(f);
      if (t->info && t->info->end_tag == 3) error(f); /* "Opening and ending tag mismatch" */
      end_top(f);
    }
  if (top(f) != name) {
    error(f); /* "Opening and ending tag mismatch" */
    return 0;
  }
  end_top(f);
  return 1;
}

/* htmlParseScript: raw content up to "</" and the open element's name. */
static void script(fp *f) {
  const name_ent *t = top(f);
  if (!t) return decline(f, "script content with no open element");
  size_t from = f->i, k = f->i;
  for (;;) {
    const unsigned char *lt = memchr(f->s + k, '<', f->n - k);
    if (!lt) {
      k = f->n;
      break;
    }
    k = (size_t)(lt - f->s);
    if (k + 1 < f->n && f->s[k + 1] == '/') {
      if (f->n - k - 2 >= t->len && strncasecmp((const char *)f->s + k + 2, t->name, t->len) == 0) break;
      error(f); /* "Element embeds close tag" */
    }
    k++;
  }
  f->i = k;
  if (k > from) tbk_build_text(&f->b, (const char *)f->s + from, k - from, TBK_AN_CDATA, 0);
}

/* htmlParseCharData: text up to '<', '&' or the end. */
static void char_data(fp *f) {
  size_t from = f->i, k = find_markup(f->s, f->i, f->n);
  f->i = k;
  size_t len = k - from;
  /* libxml2 sends text in chunks of 1000 bytes and more, each once the
   * character completing it is read (not yet passed): the node's line is
   * the first chunk's. */
  size_t flush = k;
  if (len >= 1000) {
    flush = from + 999;
    while ((f->s[flush] & 0xC0) == 0x80) flush--;
  }
  const name_ent *t = top(f);
  if (!t || t->kind == K_HTML || t->kind == K_HEAD) {
    /* Where text may imply a <p>: unless areBlanks calls the first chunk
     * blanks, which needs it blank and followed by '<' or the end (a chunk
     * cut short is followed by its own last character). */
    int blanks = len < 1000;
    for (size_t j = from; j < k && blanks; j++) blanks = blank(f->s[j]);
    if (!blanks || (k < f->n && f->s[k] != '<')) check_paragraph(f, line_at(f, flush));
  }
  characters(f, (const char *)f->s + from, len, flush);
}

/* htmlParseContentInternal. */
static void content(fp *f) {
  f->current = top(f);
  f->current_depth = f->nstack;
  while (!f->declined && !f->nomem && !f->b.failed) {
    int c = cur(f), c1 = nxt(f, 1);
    if (c == '<' && c1 == '/') {
      if (end_tag(f) && (f->current || f->nstack == 0)) {
        f->current = top(f);
        f->current_depth = f->nstack;
      }
      continue;
    }
    /* htmlParseContentInternal reads ahead the name of a start tag and
     * auto-closes with it before anything else: element() does it for
     * the tags it parses, to the same effect, so here only where script
     * content would be read instead (a tag right after <script>). */
    int raw = f->current && (f->current->kind == K_SCRIPT || f->current->kind == K_STYLE);
    if (raw && c == '<' && (letter(c1) || c1 == '_' || c1 == ':') && top(f)) {
      const name_ent *ahead = name_at(f, 1, NULL);
      if (!ahead) return;
      if (closes(ahead, top(f))) {
        auto_close(f, ahead);
        continue;
      }
    }
    if (f->nstack > 0 && f->current_depth >= f->nstack && f->current != top(f)) {
      f->current = top(f);
      f->current_depth = f->nstack;
      continue;
    }
    if (c != 0 && raw) {
      script(f);
      continue;
    }
    int looked_ahead = 1;
    if (c == '<' && at_doctype(f)) {
      error(f); /* "Misplaced DOCTYPE declaration" */
      doctype(f);
      if (f->declined) return;
      c = cur(f);
      c1 = nxt(f, 1);
      looked_ahead = 0;
    }
    if (c == '<' && c1 == '!' && nxt(f, 2) == '-' && nxt(f, 3) == '-') {
      comment(f);
    } else if (c == '<' && c1 == '?') {
      pi(f);
    } else if (c == '<' && letter(c1)) {
      element(f, looked_ahead);
      f->current = top(f);
      f->current_depth = f->nstack;
    } else if (c == '<') {
      characters(f, "<", 1, f->i);
      f->i++;
    } else if (c == '&') {
      reference(f);
    } else if (f->i >= f->n) {
      while (f->nstack) end_top(f);
      return;
    } else {
      char_data(f);
    }
  }
}

/* htmlParseDocument. */
static void document(fp *f) {
  skip_blanks(f);
  if (f->i >= f->n) error(f); /* "Document is empty" */
  for (int pass = 0; pass < 2 && !f->declined; pass++) {
    if (pass == 1) {
      if (at_doctype(f)) doctype(f);
      skip_blanks(f);
    }
    while (!f->declined && (at(f, "<!--") || at(f, "<?"))) {
      if (at(f, "<!--")) comment(f);
      if (!f->declined && at(f, "<?")) pi(f);
      skip_blanks(f);
    }
  }
  if (!f->declined) content(f);
}

/* Bytes libxml2 reads to another end than the fast parser: characters that
 * are not XML Chars (controls, U+FFFE, U+FFFF, surrogates), a byte order
 * mark, and 65535 lines or more (nodes past them take their lines from
 * their neighbours). */
static const char *unreadable(const unsigned char *s, size_t n) {
  if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) return "a byte order mark";
  size_t lines = 0;
  for (size_t i = 0; i < n;) {
    /* eight bytes of 0x20..0x7F: nothing to look at */
    if (i + 8 <= n) {
      uint64_t x = word_at(s + i);
      if (!(((x - 0x20 * ONES) | x) & HIGHS)) {
        i += 8;
        continue;
      }
    }
    for (size_t end = i + 8 < n ? i + 8 : n; i < end; i++) {
      unsigned c = s[i];
      if (c >= 0x20 && c < 0x80) continue;
      if (c == '\n') {
        if (++lines >= TBK_AN_LINE_MAX - 1) return "65534 lines or more";
      } else if (c < 0x20) {
        if (c != '\t' && c != '\r') return "a control character";
      } else if (c == 0xEF) {
        if (i + 2 < n && s[i + 1] == 0xBF && (s[i + 2] == 0xBE || s[i + 2] == 0xBF)) return "U+FFFE or U+FFFF";
      } else if (c == 0xED) {
        if (i + 1 < n && s[i + 1] >= 0xA0) return "a surrogate";
      } else if (c >= 0xF4) {
        if (c > 0xF4 || (i + 1 < n && s[i + 1] >= 0x90)) return "a code point past U+10FFFF";
      }
    }
  }
  return NULL;
}

int tbk_html_fast_oracle(void) { return atoi(xmlParserVersion) == 20914; }

/* The stack scans the watch allows (html_parse.c). */
#define SCAN_FLOOR ((uint64_t)16 << 20)
enum { SCAN_PER_BYTE = 64 };

int tbk_html_fast(const char *src, size_t n, tbk_arena *a, size_t *errors, const char **why) {
  *errors = 0;
  /* the dictionary below is libxml2's, whose global state is made once
   * before any thread parses */
  tbk_xml_init();
  const char *no = n > INT32_MAX ? "over 2 GiB" : unreadable((const unsigned char *)src, n);
  if (why) *why = no;
  if (no) return TBK_FAST_DECLINED;
  fp *f = calloc(1, sizeof *f);
  int r = TBK_FAST_NOMEM;
  if (!f) goto out;
  f->s = (const unsigned char *)src;
  f->n = n;
  f->line = 1;
  f->html_level = 1;
  f->budget = SCAN_FLOOR + (uint64_t)n * SCAN_PER_BYTE;
  f->dict = xmlDictCreate();
  f->n_slots = 256;
  f->slots = calloc(f->n_slots, sizeof *f->slots);
  if (!f->dict || !f->slots || tbk_build_begin(&f->b, a, n)) goto out;
  f->b.error = build_error;
  f->b.ctx = f;
  if (!(f->n_html = literal(f, "html")) || !(f->n_head = literal(f, "head")) || !(f->n_body = literal(f, "body")) ||
      !(f->n_p = literal(f, "p")))
    goto out;
  document(f);
  if (!f->declined) tbk_build_finish(&f->b);
  if (f->nomem || f->b.failed) goto out;
  if (f->declined) {
    if (why) *why = f->why;
    r = f->why == over_budget ? TBK_FAST_LIMIT : TBK_FAST_DECLINED;
    goto out;
  }
  a->dict = f->dict; /* the names' owner from now on */
  f->dict = NULL;
  a->fast = 1;
  *errors = f->errors;
  r = TBK_FAST_OK;
out:
  if (f) {
    if (r != TBK_FAST_OK) tbk_arena_free(a);
    tbk_build_end_all(&f->b);
    if (f->dict) xmlDictFree(f->dict);
    for (size_t k = 0; k < MAX_NAMES / CHUNK; k++) free(f->chunks[k]);
    free(f->slots);
    free(f->stack);
    free(f->val_off);
    free(f->atts);
    free(f->att_names);
    tbk_buf_free(&f->vals);
    tbk_buf_free(&f->text);
    free(f);
  }
  return r;
}
