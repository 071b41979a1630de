/* A small reader for the flat JSON objects of JSON Lines files (labels,
 * meta sidecars): top-level string, number, boolean and null members are
 * kept; nested arrays/objects are validated and skipped. Strict enough to
 * reject broken lines, never recursive, never crashes on junk. */
#ifndef TBK_JSONL_H
#define TBK_JSONL_H
#include <stddef.h>
#include "tbk.h"

typedef struct tbk_jsonl_obj tbk_jsonl_obj;

/* Parse one line (a JSON object, trailing whitespace allowed). Errors are
 * TBK_ERR_FORMAT with the byte offset of the problem. */
tbk_status tbk_jsonl_parse(const char *s, size_t n, tbk_jsonl_obj **out,
                           tbk_error *err);
void tbk_jsonl_free(tbk_jsonl_obj *o);
/* Value of a string member (decoded UTF-8, borrowed), NULL when absent or
 * not a string. */
const char *tbk_jsonl_str(const tbk_jsonl_obj *o, const char *key);
/* Value of a number member, or dflt when absent or not a number. */
double tbk_jsonl_num(const tbk_jsonl_obj *o, const char *key, double dflt);
/* 1 when the member exists (any type). */
int tbk_jsonl_has(const tbk_jsonl_obj *o, const char *key);
#endif
