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
tbk_status tbk_jsonl_parse(const char *s, size_t n, tbk_jsonl_obj **out,
                           tbk_error *err);
void tbk_jsonl_free(tbk_jsonl_obj *o);
/* Value of a string member (decoded UTF-8, borrowed), NULL when absent or
 * not a string. With duplicate keys the first one wins. */
const char *tbk_jsonl_str(const tbk_jsonl_obj *o, const char *key);
/* Value of a number member, or dflt when absent or not a number. */
double tbk_jsonl_num(const tbk_jsonl_obj *o, const char *key, double dflt);
/* 1 when the member exists (any type). */
int tbk_jsonl_has(const tbk_jsonl_obj *o, const char *key);
#endif
