/* A page's gold text, as a manifest names it: the file in its gold column
 * and, for data sets that keep the page's user comments apart (Dragnet),
 * X.comments.txt beside gold file X.txt. */
#include <stdlib.h>
#include <string.h>

#include "io.h"

char *tbk_gold_comments_path(const char *gold) {
  size_t n = strlen(gold);
  if (n < 4 || strcmp(gold + n - 4, ".txt") != 0) return NULL;
  char *c = malloc(n + 10);
  if (!c) return NULL;
  memcpy(c, gold, n - 4);
  memcpy(c + n - 4, ".comments.txt", 14);
  return c;
}

tbk_status tbk_gold_read(const char *gold, int comments, size_t max_bytes, tbk_buf *out, tbk_error *err) {
  out->len = 0;
  if (!max_bytes) max_bytes = TBK_GOLD_MAX_BYTES;
  tbk_status st = tbk_read_file(gold, max_bytes, out, err);
  if (st == TBK_ERR_LIMIT) return tbk_fail(err, st, "gold file exceeds %zu bytes", max_bytes);
  /* No data set has an empty gold file, and a FIFO nobody writes to reads
   * as one: scoring it as "no content" would hide either. */
  if (st == TBK_OK && out->len == 0) return tbk_fail(err, TBK_ERR_EMPTY, "empty gold file (0 bytes)");
  /* UTF-16 (with its BOM) decoded, binary refused: never scored as text. */
  if (st == TBK_OK) st = tbk_side_text(out, 0, err);
  if (st || !comments) return st;
  char *cpath = tbk_gold_comments_path(gold);
  tbk_buf extra = {0};
  /* Most pages have no comments file: a missing or unreadable one adds
   * nothing. */
  if (cpath && tbk_read_file(cpath, max_bytes, &extra, NULL) == TBK_OK && tbk_side_text(&extra, 0, NULL) == TBK_OK &&
      (tbk_buf_append(out, "\n", 1) || tbk_buf_append(out, extra.data ? extra.data : "", extra.len)))
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_buf_free(&extra);
  free(cpath);
  return st;
}
