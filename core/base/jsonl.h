/* The JSON Lines object reader (jsonl.c): labels, meta files, anything
 * the programs read one flat JSON object a line. */
#ifndef TBK_JSONL_H
#define TBK_JSONL_H
#include "util.h"
/* A small reader for the flat JSON objects of JSON Lines files (tbk-label's
 * labels, tbk-features' meta sidecar): one object per line; top-level
 * string, number, boolean and null members are kept, nested arrays and
 * objects are validated and skipped. Never recursive, never crashes on
 * junk: a broken line is TBK_ERR_FORMAT ("invalid JSON at byte N") and the
 * caller warns with the line number and skips it. */
typedef struct tbk_jsonl_obj tbk_jsonl_obj;
/* Parse one line (a JSON object; surrounding whitespace allowed). */
tbk_status tbk_jsonl_parse(const char *s, size_t n, tbk_jsonl_obj **out, tbk_error *err);
void tbk_jsonl_free(tbk_jsonl_obj *o);
/* Value of a string member (decoded UTF-8, borrowed), NULL when absent or
 * not a string. With duplicate keys the first one wins. */
const char *tbk_jsonl_str(const tbk_jsonl_obj *o, const char *key);
/* Value of a number member, or dflt when absent or not a number. */
double tbk_jsonl_num(const tbk_jsonl_obj *o, const char *key, double dflt);
/* 1 when the member exists (any type). */
int tbk_jsonl_has(const tbk_jsonl_obj *o, const char *key);

/* The one JSON string decoder (RFC 8259), for this reader and the snippet
 * file's streaming parser: decodes the string at s[*pos] (its opening
 * quote) and appends it to out (NUL-terminated, the NUL not counted);
 * *pos moves past the closing quote, or to where it failed, *why then
 * naming what is wrong. Strict (lenient 0), for tbk's own files: invalid
 * UTF-8 and lone surrogates are errors, \u0000 becomes U+FFFD. Lenient,
 * for files other tools wrote (Python's json writes lone surrogates):
 * bytes are copied unchecked, lone surrogates become U+FFFD, \u0000 a NUL.
 * TBK_OK, TBK_ERR_FORMAT or TBK_ERR_NOMEM. */
tbk_status tbk_json_read_str(const char *s, size_t n, size_t *pos, tbk_buf *out, int lenient, const char **why);
#endif
