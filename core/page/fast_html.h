/* tbk's HTML parser: the SAX events libxml2 2.9.14's HTML parser
 * (recover mode, as html_parse.c runs it) sends for a page, made straight
 * from the bytes without libxml2's per-character reading, into the arena
 * builder (build.h). It takes the pages whose every construct it
 * reproduces exactly (events, their lines, and the recovered errors
 * libxml2 counts) and declines the rest, which then take the installed
 * libxml2's parse. Its HTML facts are tbk's own (html_tables.h), so a page
 * it takes is the same with every libxml2. */
#ifndef TBK_FAST_HTML_H
#define TBK_FAST_HTML_H
#include <stddef.h>

#include "arena.h"

enum {
  TBK_FAST_OK = 0,       /* the arena is built, *errors set */
  TBK_FAST_DECLINED = 1, /* not this page: parse it with libxml2 (arena emptied) */
  TBK_FAST_LIMIT = 2,    /* refused as libxml2 2.9.14's parse is under the watch (html_parse.c): its
                            recovered errors under deep nesting would take quadratic time (arena emptied) */
  TBK_FAST_NOMEM = -1,   /* out of memory (arena emptied) */
};

/* The arena of clean UTF-8 source s[0..n) (emptied first). Declined, *why
 * (when why is not NULL) says why, in a few static words. Whether a page is
 * offered to it at all is the page options' alone (tbk_page_options.parser,
 * page.c), so that the API is the one switch between the two parsers. */
int tbk_html_fast(const char *s, size_t n, tbk_arena *a, size_t *errors, const char **why);

/* 1 when the libxml2 loaded is 2.9.14, whose parse this one reproduces:
 * its SAX parse (tbk_html_stream_libxml2) is then the oracle the tests and
 * the fuzzer hold this parser to. */
int tbk_html_fast_oracle(void);
#endif
