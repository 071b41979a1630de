/* tbk's HTML writer: a page's tree (its arena, kept for HTML output:
 * arena.h) written as libxml2 2.9.14's htmlDocContentDumpFormatOutput
 * (format 0) writes the same tree, byte for byte, in the charset the
 * page's <meta http-equiv="Content-Type"> declares (htmlGetMetaEncoding),
 * encoded as that version's output buffer and encoders do it, with glibc's
 * iconv for the charsets libxml2 hands to iconv. A rendering's edit is a
 * view of the arena (what is left out, what is marked, what is added),
 * so the arena is never changed and a page renders any number of times. */
#ifndef TBK_HTML_WRITE_H
#define TBK_HTML_WRITE_H
#include "arena.h"

typedef struct tbk_html_view {
  const tbk_arena *a;      /* borrowed: the page's tree (keep) */
  const uint64_t *dropped; /* borrowed: bit i set: arena node i left out,
                              with its subtree (NULL: none) */
  const uint32_t *marked;  /* borrowed, n_marked arena elements, ascending,
                              written with attributes of their own: */
  const uint32_t *mark_at; /* borrowed: each one's packed attributes (as
                              arena.h packs them), offsets in mark_buf */
  size_t n_marked;
  const char *mark_buf;          /* borrowed */
  const tbk_arena *frag;         /* borrowed: a fragment's tree (keep), NULL: none */
  uint32_t frag_head, frag_body; /* its head and body elements: their children
                                     are added (TBK_ANONE: none) */
  uint32_t to_head, to_body;     /* the page's elements they are added to,
                                     after their own children (TBK_ANONE: none) */
} tbk_html_view;

/* The first element child of page node x named name (any case) that the
 * view keeps, TBK_ANONE if none; x 0: the root element
 * (xmlDocGetRootElement) with name NULL. */
uint32_t tbk_html_child(const tbk_html_view *v, uint32_t x, const char *name);

/* The view written, appended to out. The charset the page declares is
 * copied to declared (n bytes; "" none); *unwritable counts the characters
 * it could not write, not even as character references, left out.
 * TBK_ERR_FORMAT: that charset gave up the output (out holds what was
 * written before); TBK_ERR_NOMEM. */
tbk_status tbk_html_write(const tbk_html_view *v, tbk_buf *out, char *declared, size_t n, size_t *unwritable);
#endif
