/* The page's tree as tbk reads it: a compact arena of the nodes libxml2's
 * tree would hold (elements with their tag name and attributes, text,
 * CDATA, comments, processing instructions), filled either straight from
 * the parser's SAX events (build.h: tbk's parser's, or libxml2's before
 * 2.12) or copied from a libxml2 tree (dom_arena.c: libxml2's from 2.12
 * on). The walk that fills the page's tables (page.c) reads only this,
 * so both paths give the same tables when they give the same arena.
 *
 * Node 0 is the document; every array grows by doubling, so a page costs a
 * handful of allocations whatever its size, and freeing it is as many
 * frees. Once the walk has made the page's tables, only the attributes
 * (which the tables point at) and the names' dictionary are kept: the
 * nodes and their text go (tbk_arena_drop_tree), unless the page is to be
 * written as HTML (keep: then the arena also holds what only the output
 * reads, and stays with the page for html_write.c). Only code in core/page
 * reads it (the layers above see the type through page_internal.h, never
 * its fields). */
#ifndef TBK_ARENA_H
#define TBK_ARENA_H
#include <stdint.h>
#include <string.h>

#include "tags.h"
#include "util.h"

enum {
  TBK_AN_DOC = 0,
  TBK_AN_ELEMENT = 1,
  TBK_AN_TEXT = 3, /* the values of libxml2's node types */
  TBK_AN_CDATA = 4,
  TBK_AN_PI = 7,
  TBK_AN_COMMENT = 8,
};

/* libxml2 keeps a node's line in 16 bits: 65535 means "this or later". */
enum { TBK_AN_LINE_MAX = 65535 };

typedef struct tbk_anode {
  uint32_t parent, first, last, next, prev; /* TBK_ANONE when absent */
  uint32_t line;                            /* as libxml2 stores it (at most TBK_AN_LINE_MAX) */
  uint32_t str;                             /* text, CDATA: offset of the content in strs; with keep
                                               also a comment's content, a PI's target (see attrs) */
  uint32_t len;                             /* its length in bytes */
  uint32_t attrs;                           /* element: offset of its packed attributes in attrs;
                                               PI with keep: offset of its content in strs,
                                               TBK_ANONE when it has none (<?target>) */
  uint32_t kids;                            /* element children */
  uint8_t type;                             /* TBK_AN_* */
  uint8_t unseen;                           /* element: dropped by its tag or hidden (tbk_arena_classify) */
  uint16_t tag;                             /* element: its tbk_tag */
  const char *name;                         /* element: tag name (the parser's dictionary) */
} tbk_anode;

#define TBK_ANONE UINT32_MAX

/* Attributes are packed in attrs, in source order: per attribute its name,
 * NUL, a byte 1 (a value follows, NUL-terminated) or 0 (no value); an
 * empty name ends the list. An element without attributes points at a
 * lone NUL. */
typedef struct tbk_arena {
  tbk_anode *n;
  size_t count, cap;
  tbk_buf strs;                     /* contents of text and CDATA */
  tbk_buf attrs;                    /* attributes, apart: they outlive the nodes */
  struct _xmlDict *dict;            /* owned reference to the names' dictionary */
  int lines_resolved;               /* line holds xmlGetLineNo's answer already */
  int fast;                         /* built by the fast parser (fast_html.h), not libxml2's */
  int keep;                         /* the caller's request, kept by tbk_arena_free: fill
                            what HTML output reads (see str, attrs), the text
                            of unseen elements included, and the DOCTYPE */
  int has_doctype;                  /* with keep: the page has a DOCTYPE (its first is
                            libxml2's intSubset; without one libxml2 adds
                            HTML 4.0 Transitional's) */
  uint32_t dt_name, dt_ext, dt_sys; /* with has_doctype: offsets in strs of its
                            name, public and system IDs (TBK_ANONE: none) */
} tbk_arena;

/* Everything freed and zeroed but keep. */
void tbk_arena_free(tbk_arena *a);
/* The nodes and their text freed, the attributes and
 * the dictionary kept (the page's tables point into both): after the walk. */
void tbk_arena_drop_tree(tbk_arena *a);
/* The attributes' buffer cut to its size: before anything points into it. */
void tbk_arena_fit_attrs(tbk_arena *a);

/* What first differs between two arenas (node count, type, links, line,
 * name, tag, attributes, text), NULL when nothing does; *at is the node.
 * For the tests that hold the fast parser to libxml2's. */
const char *tbk_arena_diff(const tbk_arena *a, const tbk_arena *b, size_t *at);

/* The line libxml2's xmlGetLineNo gives node i: its own when below 65535,
 * else looked up through the neighbours as libxml2 does. */
long tbk_arena_line_lookup(const tbk_arena *a, uint32_t i);
static inline long tbk_arena_line(const tbk_arena *a, uint32_t i) {
  return a->lines_resolved || a->n[i].line < TBK_AN_LINE_MAX ? (long)a->n[i].line : tbk_arena_line_lookup(a, i);
}

/* The content of text/CDATA node i (with keep: comment, PI target),
 * NUL-terminated (borrowed). */
static inline const char *tbk_arena_text(const tbk_arena *a, uint32_t i) { return a->strs.data + a->n[i].str; }

/* The packed attributes of element i (see above), borrowed. */
static inline const char *tbk_arena_attrs(const tbk_arena *a, uint32_t i) { return a->attrs.data + a->n[i].attrs; }

/* Next attribute of a packed list: returns the name (NULL at the end),
 * its value in *value (NULL: none) and moves *p past it. */
static inline const char *tbk_attr_next(const char **p, const char **value) {
  const char *s = *p;
  if (!*s) return NULL;
  const char *name = s;
  s += strlen(s) + 1;
  if (*s++) {
    *value = s;
    s += strlen(s) + 1;
  } else {
    *value = NULL;
  }
  *p = s;
  return name;
}

/* Element i's tag id and whether its subtree is never visible text (a
 * dropped tag, or hidden by an attribute: see tbk_attrs_hidden), from its
 * name and attributes. */
void tbk_arena_classify(tbk_arena *a, uint32_t i);
/* The same with the tag id of its name already known. */
void tbk_arena_classify_as(tbk_arena *a, uint32_t i, tbk_tag tag);
/* Statically invisible: the hidden attribute, or an inline style that
 * hides it, in packed attributes. */
int tbk_attrs_hidden(const char *attrs);

/* Appends node of type t under parent (TBK_ANONE: none, a node of its own
 * list) and returns its index, TBK_ANONE out of memory. Inline: it runs
 * once for every node of every page. */
static inline uint32_t tbk_arena_add(tbk_arena *a, uint32_t parent, int type, uint32_t line) {
  if (a->count >= TBK_ANONE - 1 || tbk_grow(&a->n, &a->cap, a->count + 1, sizeof *a->n)) return TBK_ANONE;
  uint32_t i = (uint32_t)a->count++;
  tbk_anode *n = &a->n[i];
  *n = (tbk_anode){.parent = parent,
                   .first = TBK_ANONE,
                   .last = TBK_ANONE,
                   .next = TBK_ANONE,
                   .prev = TBK_ANONE,
                   .line = line,
                   .type = (uint8_t)type};
  if (parent != TBK_ANONE) {
    tbk_anode *up = &a->n[parent];
    n->prev = up->last;
    if (up->last != TBK_ANONE) a->n[up->last].next = i;
    else up->first = i;
    up->last = i;
    up->kids += type == TBK_AN_ELEMENT;
  }
  return i;
}

/* The streaming parse of clean UTF-8 into a (emptied first): the parse
 * tbk_html_parse_utf8 makes, under the same watch and with the same
 * errors, building the arena instead of a tree (stream.c): by tbk's fast
 * parser when it takes the page (fast_html.h), else libxml2's. */
tbk_status tbk_html_stream(const char *s, size_t n, tbk_arena *a, size_t *errors, tbk_error *err);
/* The same from libxml2's events alone, never the fast parser's: what
 * the fast parser is held to (tests). */
tbk_status tbk_html_stream_libxml2(const char *s, size_t n, tbk_arena *a, size_t *errors, tbk_error *err);

/* The libxml2 tree under doc copied into a (emptied first): the same
 * nodes (and with a->keep, what HTML output reads). 0 ok, -1 out of
 * memory. */
struct _xmlDoc;
int tbk_arena_from_doc(tbk_arena *a, struct _xmlDoc *doc);
#endif
