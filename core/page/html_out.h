/* The output side of tbk's HTML writer (html_write.h): the bytes it
 * writes gathered and encoded as libxml2 2.9.14's output buffer gathers
 * and encodes them for the charset a page declares: writes of up to
 * 16,000 bytes gathered until 4,000 wait, then encoded at once; a
 * character the charset lacks becomes a character reference, or when that
 * cannot be written either it is left out, unless it was the first of its
 * batch: then the output is given up (html_out.c). */
#ifndef TBK_HTML_OUT_H
#define TBK_HTML_OUT_H
#include "charset.h"
#include "util.h"

typedef struct tbk_html_out {
  tbk_buf *out;      /* borrowed: where the encoded bytes go */
  int enc;           /* the encoder (html_out.c's ENC_*) */
  tbk_encoder *cd;   /* owned: iconv's, when it is the encoder */
  tbk_buf raw;       /* owned: written, not yet encoded */
  size_t raw_at;     /* encoded bytes at the start of raw */
  tbk_buf conv;      /* owned: encoded, not yet handed to out */
  int gave_up;       /* the charset gave the output up: nothing more is written */
  int nomem;         /* out of memory: nothing more is written */
  size_t unwritable; /* characters left out */
} tbk_html_out;

/* s set to write to out in charset (NULL: none declared, which writes
 * characters beyond ASCII as HTML's named entities or references). */
void tbk_html_out_begin(tbk_html_out *s, tbk_buf *out, const char *charset);
/* xmlOutputBufferWrite, xmlOutputBufferWriteString. */
void tbk_html_out_write(tbk_html_out *s, const char *p, size_t len);
void tbk_html_out_puts(tbk_html_out *s, const char *p);
/* xmlBufWriteQuotedString: v quoted with " unless it holds " but no '
 * (then '), else with " and &quot;; added to what waits, not written. */
void tbk_html_out_quoted(tbk_html_out *s, const char *v);
/* Everything written encoded and handed to out, s's own freed: TBK_OK,
 * TBK_ERR_FORMAT (given up), TBK_ERR_NOMEM; *unwritable the characters
 * left out. */
tbk_status tbk_html_out_end(tbk_html_out *s, size_t *unwritable);
#endif
