/* The benchmark floor (tbk_bench_parse_walk) must do the same parse as
 * tbk_page_parse up to segmentation: same errors for the same bad input,
 * and a node count that matches the document. */
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

static tbk_status both(const char *s, size_t n, size_t *nodes, tbk_status *page_st) {
  tbk_page *p = NULL;
  tbk_error e1, e2;
  *page_st = tbk_page_parse(s, n, NULL, &p, &e1);
  tbk_page_free(p);
  return tbk_bench_parse_walk(s, n, NULL, nodes, &e2);
}

int main(void) {
  size_t nodes = 0;
  tbk_status ps;
  /* html, head, body, div, text, p, text = 7 nodes (plus the DTD). */
  const char *doc = "<!DOCTYPE html><html><head></head><body><div>hello</div><p>world</p></body></html>";
  CHECK_INT(both(doc, strlen(doc), &nodes, &ps), TBK_OK);
  CHECK_INT(ps, TBK_OK);
  CHECK_INT(nodes, 8);
  /* The same refusals as tbk_page_parse. */
  CHECK_INT(both("", 0, &nodes, &ps), TBK_ERR_EMPTY);
  CHECK_INT(ps, TBK_ERR_EMPTY);
  CHECK_INT(nodes, 0);
  CHECK_INT(both("  \n\t ", 5, &nodes, &ps), TBK_ERR_EMPTY);
  CHECK_INT(ps, TBK_ERR_EMPTY);
  static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
  CHECK_INT(both(png, sizeof png - 1, &nodes, &ps), TBK_ERR_BINARY);
  CHECK_INT(ps, TBK_ERR_BINARY);
  /* The size limit applies to both. */
  tbk_page_options o;
  tbk_page_options_init(&o);
  o.max_page_bytes = 10;
  tbk_error err;
  CHECK_INT(tbk_bench_parse_walk(doc, strlen(doc), &o, &nodes, &err), TBK_ERR_LIMIT);
  CHECK(strstr(err.msg, "max-page-bytes") != NULL);
  return check_report();
}
