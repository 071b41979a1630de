/* Benchmark support: the floor every page-reading stage stands on.
 *
 * tbk_bench_parse_walk does what tbk_page_parse does before segmentation
 * (tbk_html_load: size limit, charset decoding, line count, libxml2's parse)
 * and then only visits every DOM node once. tbk-bench divides each stage's
 * throughput by this one, so the ratio shows what our own work on top of
 * libxml2 costs. */
#include <stdlib.h>
#include <string.h>

#include "charset.h"
#include "page_xml.h"
#include "util.h"

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
  /* The floor is libxml2's own parse: the attribute guard before it is
   * tbk's work, which the stages pay and the floor does not. */
  tbk_page_options floor = *opt;
  floor.max_attrs = 0;
  opt = &floor;
  tbk_html html;
  tbk_status st = tbk_html_load(data, len, opt, &html, err);
  if (st) return st;
  size_t n = count_nodes(html.doc);
  xmlFreeDoc(html.doc);
  if (nodes) *nodes = n;
  return TBK_OK;
}
