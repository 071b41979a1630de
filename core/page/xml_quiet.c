/* libxml2 reports through handlers it keeps per thread and, when none is
 * set, prints to stderr ("encoding error : output conversion failed...",
 * "I/O error : encoder error", "Memory allocation failed : ..."). The
 * library never prints, so each call it makes into libxml2 that can report
 * runs between tbk_xml_quiet_begin and tbk_xml_quiet_end, which catch
 * both channels and then put back the handlers there were (an
 * application's own, say): tbk's handlers are never left installed. */
#include "page_xml.h"

/* Messages that reach the generic channel come from libxml2's own code
 * paths, not from the page: nothing of the output depends on them, so
 * they are only counted. */
static void quiet_generic(void *ctx, const char *msg, ...) {
  (void)msg;
  ((tbk_xml_quiet *)ctx)->messages++;
}

static void quiet_structured(void *ctx, tbk_xml_error *e) {
  (void)e;
  ((tbk_xml_quiet *)ctx)->messages++;
}

/* Newer libxml2 may mark these globals deprecated (as the context's fields
 * html_parse.c reads), yet they are the only way to read the handlers a
 * thread has, which putting them back needs. */
#if LIBXML_VERSION >= 21400
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
void tbk_xml_quiet_begin(tbk_xml_quiet *q, xmlStructuredErrorFunc fn, void *ctx) {
  q->generic = xmlGenericError;
  q->generic_ctx = xmlGenericErrorContext;
  q->structured = xmlStructuredError;
  q->structured_ctx = xmlStructuredErrorContext;
  q->messages = 0;
  xmlSetGenericErrorFunc(q, quiet_generic);
  if (fn) xmlSetStructuredErrorFunc(ctx, fn);
  else xmlSetStructuredErrorFunc(q, quiet_structured);
}
#if LIBXML_VERSION >= 21400
#pragma GCC diagnostic pop
#endif

void tbk_xml_quiet_end(tbk_xml_quiet *q) {
  xmlSetGenericErrorFunc(q->generic_ctx, q->generic);
  xmlSetStructuredErrorFunc(q->structured_ctx, q->structured);
}
