/* The page layer's own header: struct tbk_page, whose fields only
 * core/page reads (the layers above and the programs read a page through
 * tbk_page_view_of, page_view.h), and what the layer's files share. */
#ifndef TBK_PAGE_INTERNAL_H
#define TBK_PAGE_INTERNAL_H
#include "page_view.h"

/* libxml2's node types, declared only: the layers above read the page's
 * tables (page_view.h), never libxml2 itself (page_xml.h is the page
 * layer's own view with libxml2's headers). */
struct _xmlNode;
struct _xmlDoc;

struct tbk_page {
  struct _xmlDoc *doc; /* owned; kept for HTML output (keep_dom), else NULL */
  tbk_arena arena;     /* owned: what the tables were made from; after
                           the walk only its attributes and names */
  tbk_buf title;       /* owned: the raw text of the <title>, when
                           has_title (dom.c: the arena's nodes are gone) */
  tbk_buf base_href;   /* owned: the first <base>'s href, when has_base */
  uint8_t has_title, has_base;
  uint8_t no_html;      /* keep_dom < 0: no source kept, no HTML rendering */
  tbk_buf source;       /* owned, streamed pages only: the (repaired)
                           decoded source, parsed again into a DOM on the
                           first tbk_page_html */
  struct tbk_page *dom; /* owned: that DOM parse, the same tables */
  tbk_page_options opt; /* as parsed (charset_hint not kept) */
  tbk_node *nodes;      /* owned, n_nodes entries */
  size_t n_nodes;
  tbk_run *runs; /* owned */
  size_t n_runs, cap_runs;
  /* With doc only (NULL when streamed), apart from the tables every page
   * has: the libxml2 element of each node and text node of each run
   * (borrowed from doc) */
  struct _xmlNode **node_xml; /* owned, n_nodes entries */
  struct _xmlNode **run_xml;  /* owned, n_runs entries */
  tbk_buf text;               /* owned: the page's visible text, collapsed */
  tbk_block *blocks;          /* owned; text/path point into text/paths */
  size_t n_blocks;
  tbk_buf paths; /* owned: NUL-separated block locators */
  size_t parse_errors;
  int recovered; /* repairs behind the text (page_recover.c), 0: as parsed */
  char charset[48];
  char charset_note[TBK_CHARSET_NOTE]; /* the declared charset overruled, and by what ("" none) */
  char html_note[224];                 /* what the last tbk_page_html lost or why it failed ("" nothing) */
  uint32_t max_depth;                  /* deepest element */
  uint32_t n_lines;                    /* lines of the (decoded) source */
  size_t raw_bytes;                    /* size of the raw input */
  size_t text_chars;                   /* tbk_text_length of text, counted while finding
                           the blocks (the labeller needs it per page) */
};

/* A repaired copy of the decoded source src in *out when the page looks
 * like one whose text libxml2 lost (visible bytes of text far below what
 * the source holds) and a shape that loses text is found: returns the
 * number of repairs, 0 (out untouched) when there is nothing to do, -1 out
 * of memory. Costs one comparison unless visible is under 1/20 of n. */
long tbk_recover_source(const char *src, size_t n, size_t visible, tbk_buf *out);

/* Trimmed text range of an element. */
static inline void tbk_node_text(const struct tbk_page *p, const tbk_node *n, uint32_t *s, uint32_t *e) {
  uint32_t a = n->text_start, b = n->text_end;
  while (a < b && p->text.data[a] == ' ') a++;
  while (b > a && p->text.data[b - 1] == ' ') b--;
  *s = a;
  *e = b;
}
/* The baseline tbk-bench measures every stage against: exactly what
 * tbk_page_parse does before segmentation (size limit, charset decoding,
 * libxml2 parse with the same flags), then one bare walk counting every DOM
 * node into *nodes; no segmentation, nothing kept. Errors as for
 * tbk_page_parse. */
tbk_status tbk_bench_parse_walk(const char *data, size_t len, const tbk_page_options *opt, size_t *nodes,
                                tbk_error *err);
/* The title and base of the page's head kept from its arena (dom.c),
 * before the walk's nodes go: 0 ok, -1 out of memory. */
int tbk_page_keep_head(struct tbk_page *p);
#endif
