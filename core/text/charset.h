/* Turning raw page bytes of any charset into clean UTF-8 for the parser. */
#ifndef TBK_CHARSET_H
#define TBK_CHARSET_H
#include "util.h"

/* Decode data to UTF-8 into out (replacing it). The charset comes from, in
 * order: a BOM, hint (HTTP Content-Type), a <meta> prescan of the first
 * 4 KiB, then UTF-8 when the bytes are valid UTF-8, then the charset
 * uchardet detects when it is an East Asian multibyte one (GB18030, Big5,
 * Shift_JIS, EUC-JP, EUC-KR, ISO-2022-JP, EUC-TW), else windows-1252 (what
 * browsers assume for undeclared Western pages). Undeclared text of mostly
 * non-ASCII bytes that no detector recognizes fails with TBK_ERR_FORMAT. Undecodable bytes become
 * U+FFFD; NUL and other C0 controls (but TAB, LF, CR, FF) are dropped because
 * libxml2 treats them as fatal in places. charset (48 bytes) receives the
 * name used. Errors: TBK_ERR_EMPTY, TBK_ERR_BINARY, TBK_ERR_FORMAT,
 * TBK_ERR_NOMEM.
 *
 * A declared charset (hint or meta) that decodes the page's text to mostly
 * U+FFFD is overruled by the next candidate that does not (the meta
 * charset after the hint, then uchardet's), as is declared UTF-8 on East
 * Asian bytes; note (TBK_CHARSET_NOTE bytes, NULL: not wanted) then says
 * which charset was declared and which was used, else it is "". */
#define TBK_CHARSET_NOTE 256
tbk_status tbk_decode_page(const char *data, size_t len, const char *hint, tbk_buf *out, char charset[48], char *note,
                           tbk_error *err);

/* A converter from UTF-8 to a charset, as libxml2 2.9.14's output buffers
 * use glibc's iconv (encoder.c): for tbk's HTML writer. */
typedef struct tbk_encoder tbk_encoder;
/* The converter to the charset called name (else upper, the name in
 * upper case), when iconv has one both ways; NULL when not. */
tbk_encoder *tbk_encoder_open(const char *name, const char *upper);
/* in[0..*inlen) converted and appended to out, *inlen set to the bytes
 * read: 0 all of them, -2 up to a character the charset cannot write, -3
 * up to a character cut by the end, -9 out of memory. */
int tbk_encoder_run(tbk_encoder *e, const char *in, size_t *inlen, tbk_buf *out);
void tbk_encoder_close(tbk_encoder *e);

/* Canonical charset name for a label ("latin1" -> "windows-1252"), or NULL
 * when the label is unknown. */
const char *tbk_charset_canonical(const char *label);
#endif
