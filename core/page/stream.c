/* The streaming parse: libxml2's HTML parser under the same watch, options
 * and input as the DOM parse, with SAX handlers of our own that build the
 * page's arena (arena.h) instead of libxml2's tree. They reproduce what
 * libxml2 2.9's tree builder (SAX2.c) makes of the same events:
 *  - an element goes under the innermost open element; with none open it
 *    goes to the document's top level, except that once the document's
 *    first node is an element (no DOCTYPE, comment or PI before it), a
 *    later top-level element becomes that element's last child;
 *  - adjacent characters() calls in one element are one text node, and so
 *    are adjacent cdataBlock() calls; any other node between them, a
 *    comment included, starts a new one; text outside every element is
 *    dropped, comments and PIs there go to the top level;
 *  - an attribute without a value gets its own name as value when HTML
 *    calls it boolean (checked, selected, ...), else none;
 *  - elements, text, comments and PIs note the parser's line (at most
 *    65535), CDATA none, as libxml2's nodes do;
 *  - an element's name is split at its first colon as a QName (xmlSplitQName:
 *    the node is named by the local part, and a local part starting with
 *    no letter is an error), unless it starts with one or ends with it;
 *  - a non-empty id attribute, or name on <a>, whose value an earlier one
 *    had is an error ("ID already defined", counted with the parser's).
 * Text under an element whose subtree is never visible (a dropped tag such
 * as <script>, or hidden) is not kept, only its node: nothing reads it
 * (the walk does not enter such a subtree, and the title is looked for
 * under <html> and <head> alone, which never start one; nor does anything
 * inside <title>).
 *
 * The HTML parser itself reads the tree in one place (areBlanks, whether
 * blank text is "ignorable"): with blanks kept (the default) both answers
 * send the text to characters(), and the implied <p> it may add depends
 * only on the parser's own name stack, so the events are the same.
 *
 * libxml2 2.12 and later read the tree during the parse in more places
 * (misplaced <html> attributes are merged into the root), so there the
 * page takes the DOM parse and copies it into the arena: slower, the same
 * tables. */
#include <stdlib.h>

#include <libxml/HTMLtree.h>
#include <libxml/dict.h>
#include <libxml/parserInternals.h>

#include "arena.h"
#include "page_xml.h"

#if LIBXML_VERSION < 21200

typedef struct builder {
  tbk_arena *a;
  uint32_t *open; /* open elements, innermost last */
  size_t depth, cap;
  uint32_t first_root; /* the document's first node when an element */
  int doc_used;        /* the document has a first node (or a DOCTYPE) */
  int failed;          /* out of memory */
  size_t unseen;       /* depth of the element that hides its text, 0: none */
  size_t in_title;     /* open <title> elements */
  tbk_buf ids;         /* the IDs seen, NUL-terminated */
  uint32_t *id_at;     /* open addressing: offset in ids + 1, 0 = free */
  size_t id_cap, id_used;
} builder;

/* 1 when value was an ID already, 0 when it is added, -1 out of memory. */
static int seen_id(builder *b, const char *value) {
  if ((b->id_used + 1) * 2 > b->id_cap) {
    size_t cap = b->id_cap ? b->id_cap * 2 : 64;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t) return -1;
    for (size_t k = 0; k < b->id_cap; k++) {
      if (!b->id_at[k]) continue;
      const char *v = b->ids.data + b->id_at[k] - 1;
      size_t j = tbk_hash64(v, strlen(v)) & (cap - 1);
      while (t[j]) j = (j + 1) & (cap - 1);
      t[j] = b->id_at[k];
    }
    free(b->id_at);
    b->id_at = t;
    b->id_cap = cap;
  }
  size_t n = strlen(value), j = tbk_hash64(value, n) & (b->id_cap - 1);
  for (; b->id_at[j]; j = (j + 1) & (b->id_cap - 1))
    if (strcmp(b->ids.data + b->id_at[j] - 1, value) == 0) return 1;
  if (b->ids.len >= UINT32_MAX - n - 1) return -1;
  b->id_at[j] = (uint32_t)b->ids.len + 1;
  b->id_used++;
  return tbk_buf_append(&b->ids, value, n + 1) ? -1 : 0;
}

/* libxml2's tree builder registers the IDs of an HTML document (xmlIsID:
 * id on any element, name on <a>) and reports a value seen before. */
static int check_ids(void *ctx, builder *b, const xmlChar *elem, const xmlChar **atts) {
  for (size_t k = 0; atts && atts[k]; k += 2) {
    const char *name = (const char *)atts[k], *value = (const char *)atts[k + 1];
    if (!value || !value[0] || (name[0] != 'i' && name[0] != 'n')) continue;
    if (strcmp(name, "id") != 0 && (strcmp(name, "name") != 0 || strcmp((const char *)elem, "a") != 0)) continue;
    int r = seen_id(b, value);
    if (r < 0) return -1;
    if (r) tbk_html_sax_error(ctx);
  }
  return 0;
}

static void oom(void *ctx, builder *b) {
  b->failed = 1;
  xmlStopParser(ctx);
}

static uint32_t line_of(void *ctx) {
  htmlParserCtxtPtr ctxt = ctx;
  if (!ctxt->linenumbers || !ctxt->input) return 0;
  return ctxt->input->line < TBK_AN_LINE_MAX ? (uint32_t)ctxt->input->line : TBK_AN_LINE_MAX;
}

static uint32_t top(const builder *b) { return b->depth ? b->open[b->depth - 1] : TBK_ANONE; }

/* A node outside every element: at the top level (node 0). */
static uint32_t add_top(builder *b, int type, uint32_t line) {
  uint32_t i = tbk_arena_add(b->a, 0, type, line);
  if (i != TBK_ANONE && !b->doc_used) {
    b->doc_used = 1;
    if (type == TBK_AN_ELEMENT) b->first_root = i;
  }
  return i;
}

/* Room for n more bytes (and a NUL) in s: the call only when it grows. */
static inline int room(tbk_buf *s, size_t n) {
  return s->cap > s->len && s->cap - s->len > n ? 0 : tbk_buf_reserve(s, n);
}

/* n bytes of p appended to s: one reservation, one copy. */
static int put(tbk_buf *s, const void *p, size_t n) {
  if (room(s, n)) return -1;
  memcpy(s->data + s->len, p, n);
  s->len += n;
  return 0;
}

static int pack_attrs(tbk_buf *s, const xmlChar **atts) {
  for (size_t k = 0; atts && atts[k]; k += 2) {
    const char *name = (const char *)atts[k], *value = (const char *)atts[k + 1];
    if (!value && htmlIsBooleanAttr(atts[k])) value = name;
    size_t nl = strlen(name) + 1, vl = value ? strlen(value) + 1 : 0;
    if (room(s, nl + 1 + vl)) return -1;
    char *o = s->data + s->len;
    memcpy(o, name, nl);
    o[nl] = value ? 1 : 0;
    if (value) memcpy(o + nl + 1, value, vl);
    s->len += nl + 1 + vl;
  }
  return put(s, "", 1);
}

/* The name xmlSplitQName gives the element, the error it reports counted. */
static const char *local_name(void *ctx, const char *name) {
  const char *colon = name[0] == ':' ? NULL : strchr(name, ':');
  if (!colon || !colon[1]) return name;
  unsigned char c = (unsigned char)colon[1];
  if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':')) {
    int len = 4;
    int cp = xmlGetUTF8Char((const unsigned char *)colon + 1, &len);
    if (cp < 0 || (!IS_LETTER(cp) && cp != '_')) tbk_html_sax_error(ctx);
  }
  return colon + 1;
}

static void on_start(void *ctx, const xmlChar *name, const xmlChar **atts) {
  builder *b = tbk_html_sax_user(ctx);
  tbk_arena *a = b->a;
  if (b->failed) return;
  xmlDictPtr dict = ((htmlParserCtxtPtr)ctx)->dict;
  /* The names are the dictionary's: it outlives the parser with the page. */
  if (!a->dict && dict && xmlDictReference(dict) == 0) a->dict = dict;
  uint32_t parent = top(b), line = line_of(ctx), i;
  if (parent != TBK_ANONE) i = tbk_arena_add(a, parent, TBK_AN_ELEMENT, line);
  else if (b->first_root != TBK_ANONE) i = tbk_arena_add(a, b->first_root, TBK_AN_ELEMENT, line);
  else i = add_top(b, TBK_AN_ELEMENT, line);
  if (i == TBK_ANONE || tbk_grow(&b->open, &b->cap, b->depth + 1, sizeof *b->open)) return oom(ctx, b);
  a->n[i].name = local_name(ctx, (const char *)name);
  a->n[i].attrs = (uint32_t)a->attrs.len;
  if (pack_attrs(&a->attrs, atts)) return oom(ctx, b);
  b->open[b->depth++] = i;
  if (atts && check_ids(ctx, b, name, atts)) return oom(ctx, b);
  tbk_arena_classify(a, i);
  const tbk_anode *n = &a->n[i];
  if (n->tag == TBK_TAG_TITLE) b->in_title++;
  if (!b->unseen && !b->in_title && n->unseen && n->tag != TBK_TAG_HTML && n->tag != TBK_TAG_HEAD)
    b->unseen = b->depth;
}

static void on_end(void *ctx, const xmlChar *name) {
  (void)name;
  builder *b = tbk_html_sax_user(ctx);
  if (!b->depth) return;
  if (b->unseen == b->depth) b->unseen = 0;
  if (b->in_title && b->a->n[b->open[b->depth - 1]].tag == TBK_TAG_TITLE) b->in_title--;
  b->depth--;
}

/* Text or CDATA: appended to the open element's last child when that is
 * of the same type, else a new node. The content being appended to ends
 * the string buffer (nothing was added since it was), so it grows in
 * place. */
static void add_text(void *ctx, const xmlChar *s, int len, int type) {
  builder *b = tbk_html_sax_user(ctx);
  tbk_arena *a = b->a;
  uint32_t parent = top(b);
  if (b->failed || parent == TBK_ANONE || len < 0) return;
  uint32_t last = a->n[parent].last, i = last;
  if (b->unseen) {
    /* the node alone, its content the empty string at offset 0 */
    if ((last == TBK_ANONE || a->n[last].type != type) && tbk_arena_add(a, parent, type, type == TBK_AN_TEXT ? line_of(ctx) : 0) == TBK_ANONE)
      oom(ctx, b);
    return;
  }
  if (last == TBK_ANONE || a->n[last].type != type) {
    i = tbk_arena_add(a, parent, type, type == TBK_AN_TEXT ? line_of(ctx) : 0);
    if (i == TBK_ANONE) return oom(ctx, b);
    a->n[i].str = (uint32_t)a->strs.len;
  } else if (a->n[i].str + a->n[i].len + 1 == a->strs.len) {
    a->strs.len--; /* its NUL */
  } else {
    return oom(ctx, b); /* cannot happen: see above */
  }
  if (room(&a->strs, (size_t)len + 1)) return oom(ctx, b);
  memcpy(a->strs.data + a->strs.len, s, (size_t)len);
  a->strs.len += (size_t)len;
  a->strs.data[a->strs.len++] = '\0';
  a->n[i].len += (uint32_t)len;
}

static void on_text(void *ctx, const xmlChar *s, int len) { add_text(ctx, s, len, TBK_AN_TEXT); }
static void on_cdata(void *ctx, const xmlChar *s, int len) { add_text(ctx, s, len, TBK_AN_CDATA); }

static void add_other(void *ctx, int type) {
  builder *b = tbk_html_sax_user(ctx);
  if (b->failed) return;
  uint32_t parent = top(b), line = line_of(ctx);
  uint32_t i = parent != TBK_ANONE ? tbk_arena_add(b->a, parent, type, line) : add_top(b, type, line);
  if (i == TBK_ANONE) oom(ctx, b);
}

static void on_comment(void *ctx, const xmlChar *s) {
  (void)s;
  add_other(ctx, TBK_AN_COMMENT);
}

static void on_pi(void *ctx, const xmlChar *target, const xmlChar *data) {
  (void)target, (void)data;
  add_other(ctx, TBK_AN_PI);
}

/* libxml2 puts the DOCTYPE first among the document's nodes, wherever it
 * appears: the document's first node is then no element. */
static void on_doctype(void *ctx, const xmlChar *name, const xmlChar *ext, const xmlChar *sys) {
  (void)name, (void)ext, (void)sys;
  builder *b = tbk_html_sax_user(ctx);
  b->doc_used = 1;
  b->first_root = TBK_ANONE;
}

static void on_nothing(void *ctx) { (void)ctx; }
static void on_blank(void *ctx, const xmlChar *s, int len) { (void)ctx, (void)s, (void)len; }

tbk_status tbk_html_stream(const char *s, size_t n, tbk_arena *a, size_t *errors, tbk_error *err) {
  tbk_arena_free(a);
  builder b = {.a = a, .first_root = TBK_ANONE};
  /* Sized for a typical page up front (a node per 40 bytes of source, text
   * and attributes a quarter of it each): a few reallocations at most. The
   * strings start with the empty string that text not kept points at. */
  size_t guess = n / 40 + 16;
  if (tbk_grow(&a->n, &a->cap, guess, sizeof *a->n) || tbk_buf_reserve(&a->strs, n / 4 + 64) ||
      tbk_buf_reserve(&a->attrs, n / 4 + 64) ||
      put(&a->strs, "", 1) || tbk_arena_add(a, TBK_ANONE, TBK_AN_DOC, 0) == TBK_ANONE) {
    tbk_arena_free(a);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  xmlSAXHandler h;
  memset(&h, 0, sizeof h);
  h.startDocument = on_nothing;
  h.endDocument = on_nothing;
  h.internalSubset = on_doctype;
  h.startElement = on_start;
  h.endElement = on_end;
  h.characters = on_text;
  h.cdataBlock = on_cdata;
  h.comment = on_comment;
  h.processingInstruction = on_pi;
  h.ignorableWhitespace = on_blank;
  xmlDoc *doc;
  tbk_status st = tbk_html_parse_sax(s, n, &h, &b, &doc, errors, err);
  free(b.open);
  free(b.id_at);
  tbk_buf_free(&b.ids);
  if (st == TBK_OK && b.failed) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (st) tbk_arena_free(a);
  return st;
}

#else

tbk_status tbk_html_stream(const char *s, size_t n, tbk_arena *a, size_t *errors, tbk_error *err) {
  xmlDoc *doc;
  tbk_status st = tbk_html_parse_utf8(s, n, &doc, errors, err);
  if (st) return st;
  int bad = tbk_arena_from_doc(a, doc);
  /* The arena keeps no libxml2 node once the tree is gone, only the
   * dictionary of its names. */
  free(a->xml);
  a->xml = NULL;
  if (!bad && doc->dict && xmlDictReference(doc->dict) == 0) a->dict = doc->dict;
  xmlFreeDoc(doc);
  return bad ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory") : TBK_OK;
}

#endif
