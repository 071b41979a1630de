/* The page layer's own header: struct tbk_page, whose fields only
 * core/page reads (the layers above and the programs read a page through
 * tbk_page_view_of, page_view.h), and what the layer's files share. */
#ifndef TBK_PAGE_INTERNAL_H
#define TBK_PAGE_INTERNAL_H
#include "page_view.h"

struct tbk_page {
  tbk_arena arena;   /* owned: what the tables were made from; after the
                      walk only its attributes and names, unless it keeps
                      its tree for HTML output (arena.keep: keep_dom) */
  tbk_buf title;     /* owned: the raw text of the <title>, when
                           has_title (dom.c: the arena's nodes are gone) */
  tbk_buf base_href; /* owned: the first <base>'s href, when has_base */
  uint8_t has_title, has_base;
  uint8_t no_html;      /* keep_dom < 0: no source kept, no HTML rendering */
  tbk_buf source;       /* owned, streamed pages only: the (repaired)
                           decoded source, parsed again keeping its tree on
                           the first tbk_page_html */
  struct tbk_page *dom; /* owned: that parse, the same tables */
  tbk_page_options opt; /* as parsed (charset_hint not kept) */
  tbk_node *nodes;      /* owned, n_nodes entries */
  size_t n_nodes;
  tbk_run *runs; /* owned */
  size_t n_runs, cap_runs;
  /* With arena.keep only (NULL when streamed), apart from the tables
   * every page has: the arena node of each node's element and of each
   * run's text */
  uint32_t *node_at; /* owned, n_nodes entries */
  uint32_t *run_at;  /* owned, n_runs entries */
  tbk_buf text;      /* owned: the page's visible text, collapsed */
  tbk_buf recipe;    /* owned: the recipe's text its JSON-LD declares
                        (tbk_jsonld_recipe), NUL-terminated strings */
  tbk_block *blocks; /* owned; text/path point into text/paths */
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

/* The ingredients and steps of a schema.org Recipe the decoded source
 * src declares in JSON-LD, each a NUL-terminated string with its
 * whitespace collapsed, appended to out; a page that names neither is
 * not scanned. Returns -1 out of memory (metadata.c). */
int tbk_jsonld_recipe(const char *src, size_t n, tbk_buf *out);
/* A repaired copy of the decoded source src in *out when the page looks
 * like one whose text libxml2 lost (visible bytes of text far below what
 * the source holds) and a shape that loses text is found: returns the
 * number of repairs, 0 (out untouched) when there is nothing to do, -1 out
 * of memory. Costs one comparison unless visible is under 1/20 of n. */
long tbk_recover_source(const char *src, size_t n, size_t visible, tbk_buf *out);
/* HTML's ASCII whitespace, as the byte scanners of the source read it
 * (attr_guard.c, page_recover.c, script_escape.c). */
static inline int tbk_html_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
/* The script end tags of the decoded source s a browser reads as a nested
 * script's (HTML5's double-escaped script data) made inert in place, '/'
 * becoming ' ': returns how many (script_escape.c). */
size_t tbk_script_double_escapes(char *s, size_t n);

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
/* A page's tables (no blocks) from clean UTF-8 source, the page's own
 * parse without decoding or repair: for the tree of a streamed page. */
tbk_status tbk_page_reparse(const char *s, size_t n, const tbk_page_options *opt, tbk_page **out);
/* The page itself when it keeps its tree (arena.keep), else that parse of
 * its source keeping it (made once and kept with the page). */
tbk_status tbk_page_tree(const tbk_page *page, const tbk_page **with);
/* The title and base of the page's head kept from its arena (dom.c),
 * before the walk's nodes go: 0 ok, -1 out of memory. */
int tbk_page_keep_head(struct tbk_page *p);
#endif
