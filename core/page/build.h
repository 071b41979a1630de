/* The arena builder: what libxml2 2.9's tree builder (SAX2.c) makes of the
 * parser's events, made into the page's arena (arena.h) instead. Two
 * parsers feed it the same events: libxml2's own HTML parser through SAX
 * handlers (stream.c), and tbk's fast parser (fast_html.c), which
 * reproduces libxml2's events for the pages it can. Rules:
 *  - an element goes under the innermost open element; with none open it
 *    goes to the document's top level, except that once the document's
 *    first node is an element (no DOCTYPE, comment or PI before it), a
 *    later top-level element becomes that element's last child;
 *  - adjacent text events in one element are one text node, and so are
 *    adjacent CDATA events; any other node between them, a comment
 *    included, starts a new one; text outside every element is dropped,
 *    comments and PIs there go to the top level;
 *  - an attribute without a value gets its own name as value when HTML
 *    calls it boolean (checked, selected, ...), else none;
 *  - elements, text, comments and PIs note the line they are given (at
 *    most 65535), CDATA none, as libxml2's nodes do;
 *  - an element's name is split at its first colon as a QName (xmlSplitQName:
 *    the node is named by the local part, and a local part starting with
 *    no letter is an error), unless it starts with one or ends with it;
 *  - a non-empty id attribute, or name on <a>, whose value an earlier one
 *    had is an error ("ID already defined").
 * Unless the arena keeps what HTML output reads (keep, arena.h), text under
 * an element whose subtree is never visible (a dropped tag such
 * as <script>, or hidden) is not kept, only its node: nothing else reads it
 * (the walk does not enter such a subtree, and the title is looked for
 * under <html> and <head> alone, which never start one; nor does anything
 * inside <title>). */
#ifndef TBK_BUILD_H
#define TBK_BUILD_H
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct tbk_build {
  tbk_arena *a;   /* borrowed: the arena filled */
  uint32_t *open; /* owned: open elements, innermost last */
  size_t depth, cap;
  uint32_t first_root; /* the document's first node when an element */
  int doc_used;        /* the document has a first node (or a DOCTYPE) */
  int failed;          /* out of memory: every later event is ignored */
  size_t unseen;       /* depth of the element that hides its text, 0: none */
  size_t in_title;     /* open <title> elements */
  tbk_buf ids;         /* owned: the IDs seen, NUL-terminated */
  uint32_t *id_at;     /* owned: open addressing: offset in ids + 1, 0 = free */
  size_t id_cap, id_used;
  void (*error)(void *ctx); /* an error the tree builder reports: counted by the parser */
  void (*stop)(void *ctx);  /* out of memory: the parser should stop */
  void *ctx;                /* borrowed: the parser's, for both */
} tbk_build;

/* The arena emptied and sized for n bytes of source, node 0 the document;
 * b set to fill it. -1 out of memory. */
int tbk_build_begin(tbk_build *b, tbk_arena *a, size_t n);
/* The document parsed: what libxml2's parser adds at its end (without a
 * DOCTYPE, HTML 4.0 Transitional's), with keep. */
void tbk_build_finish(tbk_build *b);
/* Frees what b owns (not the arena). */
void tbk_build_end_all(tbk_build *b);

/* The events. name must live as long as the arena (its dictionary's);
 * tag is its tbk_tag when the parser knows it, else -1; atts is a
 * NULL-terminated list of name, value pairs, a value NULL when the
 * attribute has none. */
void tbk_build_start(tbk_build *b, const char *name, int tag, const char **atts, uint32_t line);
void tbk_build_end(tbk_build *b);
void tbk_build_text(tbk_build *b, const char *s, size_t len, int type, uint32_t line);
void tbk_build_comment(tbk_build *b, const char *s, size_t len, uint32_t line);
/* data NULL: a PI without content (<?target>). */
void tbk_build_pi(tbk_build *b, const char *target, size_t tlen, const char *data, size_t dlen, uint32_t line);
/* Each NULL when the DOCTYPE has none; only the first DOCTYPE is kept. */
void tbk_build_doctype(tbk_build *b, const char *name, size_t nlen, const char *ext, size_t elen, const char *sys,
                       size_t slen);
#endif
