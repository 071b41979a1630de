/* libxml2's HTML parser under a watch that stops a page whose parse would
 * cost more than linear time. Two shapes are quadratic in libxml2 2.9 and
 * pass every size limit:
 *  - end tags (and misplaced <body> tags) that match nothing
 *    open: each is looked up through the whole stack of open elements, so
 *    a page 90,000 elements deep with as many stray end tags takes minutes;
 *  - distinct names: element and attribute names are interned in a
 *    dictionary whose table stops growing at 16,384 buckets, after which
 *    every lookup walks chains as long as the names are many (16 MiB of
 *    distinct attribute names take 100 s).
 * Every such scan reports a recovered error, so the error handler charges
 * the stack's depth to a budget proportional to the page's size; the
 * dictionary's size is polled at every element, text and error. Either
 * bound stops the parser, and the page is refused with a limit error. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <libxml/dict.h>

#include "page_xml.h"

/* Stack entries a parse may look through in its recovered errors: per byte
 * of page, and at least. An ordinary page with 30 open elements and an
 * error every 20 bytes uses 1.5 a byte. */
enum { TBK_SCAN_PER_BYTE = 64 };
#define TBK_SCAN_FLOOR ((uint64_t)16 << 20)
/* Distinct names the dictionary may hold: chains of about six entries.
 * Pages use a few hundred; a page of Han characters each in its own
 * made-up element would use some thousands. */
enum { TBK_MAX_NAMES = 100000 };

typedef struct parse_watch {
  htmlParserCtxtPtr ctxt;
  const xmlSAXHandler *sax; /* the handlers that build: libxml2's tree or stream.c's arena */
  void *user;               /* the builder's state (tbk_html_sax_user) */
  size_t errors;
  uint64_t scanned, scan_budget;
  size_t max_names;
  int stopped;     /* 1: stack scans over budget; 2: too many names; 3: libxml2's own limit */
  char limit[160]; /* libxml2's words for its limit (3) */
} parse_watch;

static void stop(parse_watch *w, int why) {
  if (w->stopped) return;
  w->stopped = why;
  xmlStopParser(w->ctxt);
}

static void check_names(parse_watch *w) {
  if (w->max_names && (size_t)xmlDictSize(w->ctxt->dict) > w->max_names) stop(w, 2);
}

/* libxml2 2.14 marks the context's fields deprecated yet offers no call
 * for the depth of the open-element stack, which its HTML parser still
 * keeps in nameNr and still scans for every stray end tag (2.15 too). */
static int stack_depth(htmlParserCtxtPtr ctxt) {
#if LIBXML_VERSION >= 21400
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
  return ctxt->nameNr;
#if LIBXML_VERSION >= 21400
#pragma GCC diagnostic pop
#endif
}

/* libxml2 2.13 caps the tree at 2048 levels even with XML_PARSE_HUGE and
 * drops what lies deeper with a resource-limit error: the page would lose
 * its text silently, so it is refused like one deeper than max-depth (any
 * other resource limit of libxml2's is refused in its own words). */
enum { TBK_XML_MAX_DEPTH = 2048 };

static void on_error(void *data, tbk_xml_error *e) {
  parse_watch *w = data;
  w->errors++;
  if (w->stopped) return;
#if LIBXML_VERSION >= 21300
  if (e && e->code == XML_ERR_RESOURCE_LIMIT) {
    snprintf(w->limit, sizeof w->limit, "%s", e->message ? e->message : "");
    w->limit[strcspn(w->limit, "\n")] = '\0';
    stop(w, 3);
    return;
  }
#else
  (void)e;
#endif
  int depth = stack_depth(w->ctxt);
  w->scanned += (uint64_t)(depth > 0 ? depth : 0) + 1;
  if (w->scanned > w->scan_budget) stop(w, 1);
  else check_names(w);
}

/* The SAX events come with the parser context as their user data; the
 * watch rides in its _private field, which libxml2 leaves alone. */
static parse_watch *watch_of(void *ctx) { return ((htmlParserCtxtPtr)ctx)->_private; }

void *tbk_html_sax_user(void *ctx) { return watch_of(ctx)->user; }

void tbk_html_sax_error(void *ctx) { on_error(watch_of(ctx), NULL); }

static void on_start(void *ctx, const xmlChar *name, const xmlChar **atts) {
  parse_watch *w = watch_of(ctx);
  w->sax->startElement(ctx, name, atts);
  check_names(w);
}

static void on_end(void *ctx, const xmlChar *name) {
  parse_watch *w = watch_of(ctx);
  w->sax->endElement(ctx, name);
  check_names(w);
}

static void on_text(void *ctx, const xmlChar *s, int len) {
  parse_watch *w = watch_of(ctx);
  w->sax->characters(ctx, s, len);
  check_names(w);
}

static void on_pi(void *ctx, const xmlChar *target, const xmlChar *data) {
  parse_watch *w = watch_of(ctx);
  if (w->sax->processingInstruction) w->sax->processingInstruction(ctx, target, data);
  check_names(w);
}

/* libxml2's global state (its dictionary's lock above all) is made on
 * first use, racily: made once here before any thread parses. */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;
static void xml_init(void) { xmlInitParser(); }
void tbk_xml_init(void) { pthread_once(&xml_once, xml_init); }

tbk_status tbk_html_refuse_quadratic(tbk_error *err) {
  return tbk_fail(err, TBK_ERR_LIMIT,
                  "too many parse errors under deeply nested elements: parsing would take quadratic time");
}

tbk_status tbk_html_parse_sax(const char *s, size_t n, const xmlSAXHandler *build, void *user, xmlDoc **doc,
                              size_t *errors, tbk_error *err) {
  *doc = NULL;
  tbk_xml_init();
  *errors = 0;
  if (n > INT32_MAX) return tbk_fail(err, TBK_ERR_LIMIT, "decoded page exceeds 2 GiB");
  tbk_xml_quiet q0;
  tbk_xml_quiet_begin(&q0, NULL, NULL); /* its own out-of-memory message */
  htmlParserCtxtPtr ctxt = htmlNewParserCtxt();
  tbk_xml_quiet_end(&q0);
  if (!ctxt) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory creating parser");
  xmlSAXHandler own = build ? *build : *ctxt->sax;
  parse_watch w = {.ctxt = ctxt,
                   .sax = &own,
                   .user = user,
                   .max_names = TBK_MAX_NAMES,
                   .scan_budget = TBK_SCAN_FLOOR + (uint64_t)n * TBK_SCAN_PER_BYTE};
  ctxt->_private = &w;
  if (build) {
    /* The events the watch does not look at go straight to the builder. */
    ctxt->sax->startDocument = own.startDocument;
    ctxt->sax->endDocument = own.endDocument;
    ctxt->sax->internalSubset = own.internalSubset;
    ctxt->sax->cdataBlock = own.cdataBlock;
    ctxt->sax->comment = own.comment;
    ctxt->sax->ignorableWhitespace = own.ignorableWhitespace;
  }
  ctxt->sax->startElement = on_start;
  ctxt->sax->endElement = on_end;
  ctxt->sax->characters = on_text;
  ctxt->sax->processingInstruction = on_pi;
  tbk_xml_quiet q;
#if LIBXML_VERSION >= 21300
  /* The parser context's own handler, which takes precedence over every
   * other one for the parser's errors; the thread's catch the rest. */
  xmlCtxtSetErrorHandler(ctxt, on_error, &w);
  tbk_xml_quiet_begin(&q, NULL, NULL);
#else
  /* Before 2.13, libxml2 only consults sax->serror for SAX2 contexts, so
   * errors are caught with the thread's structured handler. */
  tbk_xml_quiet_begin(&q, on_error, &w);
#endif
  *doc = htmlCtxtReadMemory(ctxt, s, (int)n, NULL, "UTF-8",
                            HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOWARNING | HTML_PARSE_COMPACT |
                                HTML_PARSE_IGNORE_ENC | XML_PARSE_HUGE);
  *errors = w.errors;
  ctxt->_private = NULL;
  htmlFreeParserCtxt(ctxt);
  tbk_xml_quiet_end(&q);
  if (w.stopped) {
    if (*doc) xmlFreeDoc(*doc);
    *doc = NULL;
    if (w.stopped == 1) return tbk_html_refuse_quadratic(err);
    if (w.stopped == 3 && strstr(w.limit, "depth"))
      return tbk_fail(err, TBK_ERR_LIMIT, "elements nested deeper than libxml2 builds trees (%d)", TBK_XML_MAX_DEPTH);
    if (w.stopped == 3) return tbk_fail(err, TBK_ERR_LIMIT, "libxml2's limit: %s", w.limit);
    return tbk_fail(err, TBK_ERR_LIMIT, "more than %d distinct element and attribute names", TBK_MAX_NAMES);
  }
  if (build) {
    /* A builder of its own leaves libxml2 no tree to build. */
    if (*doc) xmlFreeDoc(*doc);
    *doc = NULL;
    return TBK_OK;
  }
  return *doc ? TBK_OK : tbk_fail(err, TBK_ERR_FORMAT, "HTML parser produced no document");
}

tbk_status tbk_html_parse_utf8(const char *s, size_t n, xmlDoc **doc, size_t *errors, tbk_error *err) {
  return tbk_html_parse_sax(s, n, NULL, NULL, doc, errors, err);
}
