/* The page layer's own view of libxml2: the one parse every page-reading
 * path shares. Only code in core/page includes this header. */
#ifndef TBK_PAGE_XML_H
#define TBK_PAGE_XML_H
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/globals.h>

#include "page_internal.h"

/* libxml2 2.12 made the error const. */
#if LIBXML_VERSION >= 21200
typedef const xmlError tbk_xml_error;
#else
typedef xmlError tbk_xml_error;
#endif

/* libxml2's messages on this thread caught between tbk_xml_quiet_begin and
 * tbk_xml_quiet_end (xml_quiet.c), which puts back the handlers there were.
 * fn, when given, takes the structured ones (ctx its data) and is then the
 * one to count; else they are counted here. */
typedef struct tbk_xml_quiet {
  xmlGenericErrorFunc generic;
  void *generic_ctx;
  xmlStructuredErrorFunc structured;
  void *structured_ctx;
  size_t messages; /* caught, of either kind */
} tbk_xml_quiet;
void tbk_xml_quiet_begin(tbk_xml_quiet *q, xmlStructuredErrorFunc fn, void *ctx);
void tbk_xml_quiet_end(tbk_xml_quiet *q);

/* The parse every page-reading path shares (tbk_page_parse and the
 * benchmark floor): size limit, charset decoding, source line count, and
 * libxml2's HTML parser with errors counted. */
typedef struct tbk_html {
  xmlDoc *doc;                         /* owned by the caller (xmlFreeDoc) */
  size_t errors;                       /* recovered parse errors */
  uint32_t lines;                      /* lines of the decoded source */
  char charset[48];                    /* charset the bytes were decoded from */
  char charset_note[TBK_CHARSET_NOTE]; /* the declared charset overruled ("" none) */
} tbk_html;
tbk_status tbk_html_load(const char *data, size_t len, const tbk_page_options *opt, tbk_html *out, tbk_error *err);
/* The same, handing the decoded source to *source (caller frees) for a
 * second parse by tbk_html_parse_utf8. */
tbk_status tbk_html_load_source(const char *data, size_t len, const tbk_page_options *opt, tbk_html *out,
                                tbk_buf *source, tbk_error *err);
/* libxml2's parse of clean UTF-8, errors counted; a page whose parse would
 * take quadratic time (see html_parse.c) is refused with TBK_ERR_LIMIT. */
tbk_status tbk_html_parse_utf8(const char *s, size_t n, xmlDoc **doc, size_t *errors, tbk_error *err);

/* The same parse with the SAX events that build going to build's
 * handlers instead of libxml2's tree (stream.c): startElement, endElement,
 * characters and processingInstruction under the watch, startDocument,
 * endDocument, internalSubset, cdataBlock, comment and ignorableWhitespace
 * as they are. *doc is then NULL. user is the builder's state, which its
 * handlers get from their context with tbk_html_sax_user. */
tbk_status tbk_html_parse_sax(const char *s, size_t n, const xmlSAXHandler *build, void *user, xmlDoc **doc,
                              size_t *errors, tbk_error *err);
void *tbk_html_sax_user(void *ctx);
/* The refusal of a page the watch stops for its stack scans (html_parse.c),
 * by libxml2's parse or by tbk's (fast_html.c), which counts the same. */
tbk_status tbk_html_refuse_quadratic(tbk_error *err);
/* libxml2 initialized, once per process (before threads race to it). */
void tbk_xml_init(void);
/* An error libxml2's tree builder would have reported, counted and
 * watched as the parser's own. */
void tbk_html_sax_error(void *ctx);

/* The start tag with more than max_attrs attributes (libxml2 checks
 * attributes pairwise: quadratic in their number), if any: returns how many
 * were counted (max_attrs + 1) and its source line in *line; 0 when every
 * start tag is within the limit. Reads each start tag once. */
long tbk_attr_guard(const char *src, size_t n, size_t max_attrs, uint32_t *line);

#endif
