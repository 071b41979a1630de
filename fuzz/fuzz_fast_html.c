/* Fuzz target: tbk's fast HTML parser against libxml2's. The bytes, made
 * clean UTF-8 the way a page's source is (tbk_decode_page), go through
 * both streaming parsers; when the fast one takes the page and the libxml2
 * loaded is 2.9.14, the one it reproduces, the two arenas must be the same
 * node for node (tbk_arena_diff) with the same error count, and a page it
 * refuses as quadratic libxml2's watch must refuse too; when it does not
 * take the page it must leave nothing behind. Inputs of odd length are
 * parsed keeping what HTML output reads (the DOCTYPE, comments, PIs and
 * all the text), which must be the same too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "arena.h"
#include "charset.h"
#include "fast_html.h"
#include "tbk_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tbk_buf src = {0};
  char charset[48];
  tbk_error err = {0};
  if (tbk_decode_page((const char *)data, size, NULL, &src, charset, NULL, &err) != TBK_OK) {
    tbk_buf_free(&src);
    return 0;
  }
  tbk_arena fa = {.keep = (int)(size % 2)}, la = {.keep = (int)(size % 2)};
  size_t fe = 0, le = 0, at = 0;
  const char *s = src.data ? src.data : "";
  int r = tbk_html_fast(s, src.len, &fa, &fe, NULL);
  tbk_status st = tbk_html_stream_libxml2(s, src.len, &la, &le, &err);
  if (r == TBK_FAST_OK && tbk_html_fast_oracle()) {
    const char *what = st == TBK_OK ? tbk_arena_diff(&fa, &la, &at) : "libxml2 refused the page";
    if (!what && fe != le) what = "error count";
    if (what) {
      fprintf(stderr, "fuzz_fast_html: %s differs at node %zu (errors %zu, libxml2 %zu)\n", what, at, fe, le);
      abort();
    }
  } else if (r == TBK_FAST_LIMIT && tbk_html_fast_oracle() && st != TBK_ERR_LIMIT) {
    fprintf(stderr, "fuzz_fast_html: refused as quadratic, which libxml2's watch did not\n");
    abort();
  } else if (r != TBK_FAST_OK && (fa.count || fa.dict)) {
    fprintf(stderr, "fuzz_fast_html: a declined page left its arena\n");
    abort();
  }
  tbk_arena_free(&fa);
  tbk_arena_free(&la);
  tbk_buf_free(&src);
  return 0;
}
