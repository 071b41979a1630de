/* The page model every stage shares: a flat table of the visible elements
 * in document order (a subtree is the contiguous range [i, end)), the page's
 * visible text as one whitespace-collapsed buffer, the text runs (one per
 * text node) that fill it, and the candidate blocks. Features, labelling
 * and prediction all read this, never libxml2 directly, so they cannot
 * disagree about what a block is. The layers above and the programs read
 * the tables through tbk_page_view_of: struct tbk_page is the page layer's
 * own (page_internal.h). */
#ifndef TBK_PAGE_VIEW_H
#define TBK_PAGE_VIEW_H
#include "arena.h"
#include "tags.h"
#include "text.h"
#include "charset.h"

#define TBK_NONE UINT32_MAX

typedef struct tbk_node {
  const char *name;    /* tag name as parsed (lower case), borrowed */
  const char *attrs;   /* packed attributes (arena.h), borrowed */
  uint32_t parent;     /* index of the parent element, TBK_NONE for roots */
  uint32_t end;        /* one past the last descendant */
  uint32_t depth;      /* root element = 1 */
  uint32_t line;       /* source line of the start tag */
  uint32_t text_start; /* [text_start, text_end): untrimmed range in text */
  uint32_t text_end;
  uint32_t sib_index;   /* 0-based among the parent's element children */
  uint32_t sib_count;   /* the parent's element children (>= 1) */
  uint32_t nth;         /* 1-based among same-name element siblings */
  uint32_t child_elems; /* element children in the DOM */
  uint32_t cand_anc;    /* nearest ancestor element that is a candidate */
  int32_t block;        /* block this element is (or folds into), else -1 */
  uint16_t tag;         /* tbk_tag */
  uint8_t in_anchor;    /* inside an <a> (itself included) */
} tbk_node;

typedef struct tbk_run {
  uint32_t start, end; /* range of page text produced by one text node */
  uint32_t node;       /* element that holds the text node */
} tbk_run;

/* What the layers above read of a page, all at once and read-only: the
 * tables of struct tbk_page (page_internal.h, the page layer's own), whose
 * fields nothing outside core/page reads. Take it once per page (or per
 * function) and index it: it costs one call, not one per node. The
 * pointers are the page's (borrowed): valid while the page lives. */
typedef struct tbk_page_view {
  const tbk_node *nodes; /* n_nodes entries, in document order */
  size_t n_nodes;
  const tbk_run *runs; /* n_runs entries, in text order */
  size_t n_runs;
  const char *text; /* the page's visible text, collapsed; NULL
                              when empty */
  size_t text_len;
  const tbk_block *blocks; /* n_blocks entries */
  size_t n_blocks;
  uint32_t max_depth; /* deepest element */
  uint32_t n_lines;   /* lines of the (decoded) source */
  size_t text_chars;  /* tbk_text_length of text */
  /* a Recipe's ingredients and steps the page declares in JSON-LD:
   * recipe_len bytes of NUL-terminated strings, whitespace collapsed */
  const char *recipe;
  size_t recipe_len;
} tbk_page_view;
/* p NULL: an empty view. */
tbk_page_view tbk_page_view_of(const tbk_page *p);
/* Whether element k lies in element a's subtree (a itself included). */
static inline int tbk_view_holds(const tbk_page_view *v, uint32_t a, uint32_t k) {
  return k >= a && k < v->nodes[a].end;
}
/* The innermost block that holds element i (itself, else its nearest
 * candidate ancestor), or -1: how the renderings decide a run's block. */
static inline int32_t tbk_view_block_of(const tbk_page_view *v, uint32_t i) {
  const tbk_node *n = &v->nodes[i];
  if (n->block >= 0) return n->block;
  return n->cand_anc == TBK_NONE ? -1 : v->nodes[n->cand_anc].block;
}

/* An edit of the page's HTML for one serialization (tbk_page_html): text
 * nodes of runs or whole elements left out, elements marked with up to
 * TBK_HTML_ATTRS attributes, and a fragment of HTML added. */
typedef struct tbk_html_drop {
  uint32_t index; /* a run (is_run) or an element */
  int is_run;
} tbk_html_drop;
#define TBK_HTML_ATTRS 3
typedef struct tbk_html_mark {
  uint32_t node;                     /* element */
  const char *value[TBK_HTML_ATTRS]; /* of the edit's attr[k] (borrowed;
                                        NULL: attr[k] not set) */
} tbk_html_mark;
typedef struct tbk_html_edit {
  const tbk_html_drop *drop; /* borrowed, n_drop entries */
  size_t n_drop;
  const char *attr[TBK_HTML_ATTRS]; /* attributes set on the marked elements
                                       (NULL: unused) */
  const char *join[TBK_HTML_ATTRS]; /* non-NULL: a value the element has of
                                       attr[k] is kept after the new one,
                                       joined by this */
  const tbk_html_mark *mark;        /* borrowed, n_mark entries (of an element
                                marked twice the later mark wins; with a
                                join, mark each element once) */
  size_t n_mark;
  const char *inject; /* NULL, or an HTML fragment (UTF-8) added for the
                         serialization: what HTML puts in a head (style,
                         meta...) last in the page's head (else its body),
                         the rest last in its body (else its root) */
} tbk_html_edit;
/* The page serialized as HTML with the edit applied (e NULL: as parsed),
 * appended to out, in the charset the page declares, byte for byte as
 * libxml2 2.9.14 wrote it (html_write.h), with any libxml2. The page's
 * tree is not changed, but its note is, and a page without its tree keeps
 * the parse it makes on the first call: not to be rendered from two
 * threads at once.
 * Characters that charset cannot write are left out, counted in
 * tbk_page_html_note. Errors: TBK_ERR_ARG (an index out of range),
 * TBK_ERR_FORMAT (the declared charset gave up: tbk_page_html_note says
 * so; out may hold part of the page), TBK_ERR_NOMEM. */
tbk_status tbk_page_html(const tbk_page *page, const tbk_html_edit *e, tbk_buf *out);

/* Every table of the page as text (page_dump.c): two pages with the same
 * dump are the same to every stage. 0 ok, -1 out of memory. */
int tbk_page_dump(const tbk_page *p, tbk_buf *out);

/* Why the declared charset was overruled, naming both ("" when it was not). */
const char *tbk_page_charset_note(const tbk_page *p);
/* What the page's last HTML rendering (tbk_page_html) left out for its
 * declared charset, or why that charset wrote nothing ("" neither). */
const char *tbk_page_html_note(const tbk_page *p);
/* The element's tag name as the parser wrote it (lower case). */
const char *tbk_node_name(const tbk_node *nd);

/* Every attribute of an element, in source order: fn(ctx, name, chunk) with
 * its value (entities decoded; none for an attribute without one), then
 * fn(ctx, name, NULL) once the attribute is done. */
typedef void (*tbk_attr_fn)(void *ctx, const char *name, const char *chunk);
void tbk_node_attrs(const tbk_node *nd, tbk_attr_fn fn, void *ctx);

/* The text of the page's <title> (a bounded search of the head: the first
 * 400 nodes), its first max_bytes bytes appended to out, whitespace-
 * normalized. 0 ok (out untouched when there is no title), -1 out of
 * memory. */
int tbk_page_title(const tbk_page *p, size_t max_bytes, tbk_buf *out);
/* The href of the page's first <base> with one (in the head or at the top
 * of the root), appended to out as written. 0 ok (out untouched when there
 * is none), -1 out of memory. */
int tbk_page_base_href(const tbk_page *p, tbk_buf *out);
#endif
