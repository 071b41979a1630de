/* Output converters (charset.h): glibc's iconv from UTF-8, opened and run
 * as libxml2 2.9.14 opens and runs it for its output buffers, so that tbk's
 * HTML writer (page/html_write.c) writes what that version wrote. */
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>

#include "charset.h"

struct tbk_encoder {
  iconv_t cd; /* owned: UTF-8 to the charset */
};

tbk_encoder *tbk_encoder_open(const char *name, const char *upper) {
  /* libxml2 wants a converter both ways, each by the name or else by the
   * name in upper case; it keeps the one from UTF-8. */
  iconv_t in = iconv_open("UTF-8", name), out = iconv_open(name, "UTF-8");
  if (in == (iconv_t)-1) in = iconv_open("UTF-8", upper);
  if (out == (iconv_t)-1) out = iconv_open(upper, "UTF-8");
  if (in != (iconv_t)-1) iconv_close(in);
  tbk_encoder *e = in != (iconv_t)-1 && out != (iconv_t)-1 ? malloc(sizeof *e) : NULL;
  if (!e) {
    if (out != (iconv_t)-1) iconv_close(out);
    return NULL;
  }
  e->cd = out;
  return e;
}

int tbk_encoder_run(tbk_encoder *e, const char *in, size_t *inlen, tbk_buf *out) {
  size_t n = *inlen, i = 0;
  for (;;) {
    if (tbk_buf_reserve(out, (n - i) * 4 + 16)) return -9;
    char *ip = (char *)in + i, *op = out->data + out->len;
    size_t il = n - i, ol = out->cap - out->len - 1;
    size_t r = iconv(e->cd, &ip, &il, &op, &ol);
    int err = errno;
    out->len = (size_t)(op - out->data);
    i = (size_t)(ip - in);
    *inlen = i;
    if (r != (size_t)-1 && il == 0) return 0;
    if (err == E2BIG) continue; /* libxml2 goes on with more room: the same bytes */
    return err == EILSEQ ? -2 : -3;
  }
}

void tbk_encoder_close(tbk_encoder *e) {
  if (!e) return;
  iconv_close(e->cd);
  free(e);
}
