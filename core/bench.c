/* Benchmark support: the floor every page-reading stage stands on.
 *
 * tbk_bench_parse_walk does what tbk_page_parse does before segmentation —
 * the same size limit, the same charset decoding (tbk_decode_page), the same
 * line count, the same libxml2 error hook and parse flags — and then only
 * visits every DOM node once. tbk-bench divides each stage's throughput by
 * this one, so the ratio shows what our own work on top of libxml2 costs.
 * Keep it in step with page.c: if tbk_page_parse changes what it does before
 * its walk, change this too. */
#include <stdlib.h>
#include <string.h>

#include "charset.h"
#include "page_internal.h"
#include "util.h"

static _Thread_local size_t bench_error_count;
static void bench_count_error(void *ctx, xmlErrorPtr e) {
  (void)ctx;
  (void)e;
  bench_error_count++;
}

/* Every node, attributes excluded (tbk_page_parse's walk reads them only
 * on elements it keeps), depth-first without recursion. */
static size_t count_nodes(xmlDoc *doc) {
  size_t n = 0;
  xmlNode *x = doc->children;
  while (x) {
    n++;
    if (x->children && x->type != XML_ENTITY_REF_NODE) {
      x = x->children;
      continue;
    }
    while (x && !x->next) {
      x = x->parent;
      if (x == (xmlNode *)doc) x = NULL;
    }
    if (x) x = x->next;
  }
  return n;
}

tbk_status tbk_bench_parse_walk(const char *data, size_t len, const tbk_page_options *opt, size_t *nodes,
                                tbk_error *err) {
  tbk_page_options defaults;
  if (!opt) {
    tbk_page_options_init(&defaults);
    opt = &defaults;
  }
  if (nodes) *nodes = 0;
  if (opt->max_page_bytes && len > opt->max_page_bytes)
    return tbk_fail(err, TBK_ERR_LIMIT, "page of %zu bytes exceeds max-page-bytes (%zu)", len, opt->max_page_bytes);
  char charset[48];
  tbk_buf utf8 = {0};
  tbk_status st = tbk_decode_page(data, len, opt->charset_hint, &utf8, charset, err);
  if (st) goto done;
  if (utf8.len > INT32_MAX) { st = tbk_fail(err, TBK_ERR_LIMIT, "decoded page exceeds 2 GiB"); goto done; }
  /* tbk_page_parse counts source lines here; so do we, to match its cost. */
  volatile uint32_t lines = 1;
  for (const char *q = utf8.data; (q = memchr(q, '\n', utf8.len - (size_t)(q - utf8.data))); q++) lines++;

  htmlParserCtxtPtr ctxt = htmlNewParserCtxt();
  if (!ctxt) { st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory creating parser"); goto done; }
  xmlStructuredErrorFunc saved_fn = xmlStructuredError;
  void *saved_ctx = xmlStructuredErrorContext;
  xmlSetStructuredErrorFunc(NULL, bench_count_error);
  bench_error_count = 0;
  xmlDoc *doc = htmlCtxtReadMemory(ctxt, utf8.data, (int)utf8.len, NULL, "UTF-8",
                                   HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOWARNING |
                                       HTML_PARSE_COMPACT | HTML_PARSE_IGNORE_ENC | XML_PARSE_HUGE);
  xmlSetStructuredErrorFunc(saved_ctx, saved_fn);
  htmlFreeParserCtxt(ctxt);
  if (!doc) { st = tbk_fail(err, TBK_ERR_FORMAT, "HTML parser produced no document"); goto done; }
  size_t n = count_nodes(doc);
  xmlFreeDoc(doc);
  if (nodes) *nodes = n;
done:
  tbk_buf_free(&utf8);
  return st;
}
