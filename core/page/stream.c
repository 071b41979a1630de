/* The streaming parse: the page's arena (arena.h) built from parser events
 * by the builder (build.h), without libxml2's tree. The events come from
 * tbk's parser (fast_html.c) when it takes the page, with any libxml2;
 * else, with libxml2 before 2.12, from libxml2's HTML parser under the same
 * watch, options and input as libxml2's DOM parse, through SAX handlers of our
 * own. What the builder makes of them is what libxml2 2.9's tree builder
 * (SAX2.c) makes: see build.h.
 *
 * The HTML parser itself reads the tree in one place (areBlanks, whether
 * blank text is "ignorable"): with blanks kept (the default) both answers
 * send the text to characters(), and the implied <p> it may add depends
 * only on the parser's own name stack, so the events are the same.
 *
 * libxml2 2.12 and later read the tree during the parse in more places
 * (misplaced <html> attributes are merged into the root), so there a page
 * tbk's parser declines takes the DOM parse, copied into the arena: slower,
 * and from 2.14 on (an HTML5 tokenizer) possibly another tree. */
#include <stdlib.h>

#include "page_xml.h"

#include <libxml/dict.h>

#include "arena.h"
#include "build.h"
#include "fast_html.h"

#if LIBXML_VERSION < 21200

/* The builder, told the parser context its error and stop calls take
 * (made inside tbk_html_parse_sax, so known only from its events). */
static tbk_build *builder_of(void *ctx) {
  tbk_build *b = tbk_html_sax_user(ctx);
  b->ctx = ctx;
  return b;
}

static uint32_t line_of(void *ctx) {
  htmlParserCtxtPtr ctxt = ctx;
  if (!ctxt->linenumbers || !ctxt->input) return 0;
  return ctxt->input->line < TBK_AN_LINE_MAX ? (uint32_t)ctxt->input->line : TBK_AN_LINE_MAX;
}

static void on_start(void *ctx, const xmlChar *name, const xmlChar **atts) {
  tbk_build *b = builder_of(ctx);
  xmlDictPtr dict = ((htmlParserCtxtPtr)ctx)->dict;
  /* The names are the dictionary's: it outlives the parser with the page. */
  if (!b->a->dict && dict && xmlDictReference(dict) == 0) b->a->dict = dict;
  tbk_build_start(b, (const char *)name, -1, (const char **)atts, line_of(ctx));
}

static void on_end(void *ctx, const xmlChar *name) {
  (void)name;
  tbk_build_end(builder_of(ctx));
}

static void on_text(void *ctx, const xmlChar *s, int len) {
  if (len >= 0) tbk_build_text(builder_of(ctx), (const char *)s, (size_t)len, TBK_AN_TEXT, line_of(ctx));
}
static void on_cdata(void *ctx, const xmlChar *s, int len) {
  if (len >= 0) tbk_build_text(builder_of(ctx), (const char *)s, (size_t)len, TBK_AN_CDATA, 0);
}

static size_t len_of(const xmlChar *s) { return s ? strlen((const char *)s) : 0; }

static void on_comment(void *ctx, const xmlChar *s) {
  tbk_build_comment(builder_of(ctx), s ? (const char *)s : "", len_of(s), line_of(ctx));
}

static void on_pi(void *ctx, const xmlChar *target, const xmlChar *data) {
  tbk_build_pi(builder_of(ctx), target ? (const char *)target : "", len_of(target), (const char *)data, len_of(data),
               line_of(ctx));
}

static void on_doctype(void *ctx, const xmlChar *name, const xmlChar *ext, const xmlChar *sys) {
  tbk_build_doctype(builder_of(ctx), (const char *)name, len_of(name), (const char *)ext, len_of(ext),
                    (const char *)sys, len_of(sys));
}

static void on_nothing(void *ctx) { (void)ctx; }
static void on_blank(void *ctx, const xmlChar *s, int len) { (void)ctx, (void)s, (void)len; }
static void stop(void *ctx) { xmlStopParser(ctx); }

tbk_status tbk_html_stream_libxml2(const char *s, size_t n, tbk_arena *a, size_t *errors, tbk_error *err) {
  tbk_build b;
  if (tbk_build_begin(&b, a, n)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  b.error = tbk_html_sax_error;
  b.stop = stop;
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
  if (st == TBK_OK) tbk_build_finish(&b);
  int failed = b.failed;
  tbk_build_end_all(&b);
  if (st == TBK_OK && failed) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (st) tbk_arena_free(a);
  return st;
}

#else

tbk_status tbk_html_stream_libxml2(const char *s, size_t n, tbk_arena *a, size_t *errors, tbk_error *err) {
  xmlDoc *doc;
  tbk_status st = tbk_html_parse_utf8(s, n, &doc, errors, err);
  if (st) return st;
  int bad = tbk_arena_from_doc(a, doc);
  /* The arena keeps nothing of the tree once it is gone but the
   * dictionary of its names: the document's, or, when its names are its
   * own (libxml2 2.13 and later give an HTML document no dictionary), a
   * dictionary of copies. */
  if (!bad && doc->dict && xmlDictReference(doc->dict) == 0) {
    a->dict = doc->dict;
  } else if (!bad && !(a->dict = xmlDictCreate())) {
    bad = 1;
  } else {
    for (size_t i = 0; !bad && i < a->count; i++) {
      if (a->n[i].type != TBK_AN_ELEMENT) continue;
      const xmlChar *d = xmlDictLookup(a->dict, (const xmlChar *)a->n[i].name, -1);
      if (d) a->n[i].name = (const char *)d;
      else bad = 1;
    }
  }
  xmlFreeDoc(doc);
  return bad ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory") : TBK_OK;
}

#endif

tbk_status tbk_html_stream(const char *s, size_t n, tbk_arena *a, size_t *errors, tbk_error *err) {
  int r = tbk_html_fast(s, n, a, errors, NULL);
  if (r == TBK_FAST_OK) return TBK_OK;
  if (r == TBK_FAST_NOMEM) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (r == TBK_FAST_LIMIT) return tbk_html_refuse_quadratic(err);
  return tbk_html_stream_libxml2(s, n, a, errors, err);
}
