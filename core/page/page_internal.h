/* The page model every stage shares: a flat table of the visible elements
 * in document order (a subtree is the contiguous range [i, end)), the page's
 * visible text as one whitespace-collapsed buffer, the text runs (one per
 * text node) that fill it, and the candidate blocks. Features, labelling
 * and prediction all read this, never libxml2 directly, so they cannot
 * disagree about what a block is. */
#ifndef TBK_PAGE_INTERNAL_H
#define TBK_PAGE_INTERNAL_H
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/globals.h>

#include "tags.h"
#include "tbk.h"

#define TBK_NONE UINT32_MAX

typedef struct tbk_node {
  xmlNode *xml;        /* borrowed from tbk_page.doc */
  uint32_t parent;     /* index of the parent element, TBK_NONE for roots */
  uint32_t end;        /* one past the last descendant */
  uint32_t depth;      /* root element = 1 */
  uint32_t line;       /* source line of the start tag */
  uint32_t text_start; /* [text_start, text_end): untrimmed range in text */
  uint32_t text_end;
  uint32_t sib_index;  /* 0-based among the parent's element children */
  uint32_t sib_count;  /* the parent's element children (>= 1) */
  uint32_t nth;        /* 1-based among same-name element siblings */
  uint32_t child_elems;/* element children in the DOM */
  uint32_t cand_anc;   /* nearest ancestor element that is a candidate */
  int32_t block;       /* block this element is (or folds into), else -1 */
  uint16_t tag;        /* tbk_tag */
  uint8_t in_anchor;   /* inside an <a> (itself included) */
} tbk_node;

typedef struct tbk_run {
  uint32_t start, end; /* range of page text produced by one text node */
  uint32_t node;       /* element that holds the text node */
  xmlNode *xml;        /* the text node itself (borrowed from the doc) */
} tbk_run;

struct tbk_page {
  xmlDoc *doc;          /* owned; kept for HTML output */
  tbk_node *nodes;      /* owned, n_nodes entries */
  size_t n_nodes;
  tbk_run *runs;        /* owned */
  size_t n_runs, cap_runs;
  tbk_buf text;         /* owned: the page's visible text, collapsed */
  tbk_block *blocks;    /* owned; text/path point into text/paths */
  size_t n_blocks;
  tbk_buf paths;        /* owned: NUL-separated block locators */
  size_t parse_errors;
  int recovered;        /* repairs behind the text (page_recover.c), 0: as parsed */
  char charset[48];
  uint32_t max_depth;   /* deepest element */
  uint32_t n_lines;     /* lines of the (decoded) source */
  size_t raw_bytes;     /* size of the raw input */
};

/* The parse every page-reading path shares (tbk_page_parse and the
 * benchmark floor): size limit, charset decoding, source line count, and
 * libxml2's HTML parser with errors counted. */
typedef struct tbk_html {
  xmlDoc *doc;        /* owned by the caller (xmlFreeDoc) */
  size_t errors;      /* recovered parse errors */
  uint32_t lines;     /* lines of the decoded source */
  char charset[48];   /* charset the bytes were decoded from */
} tbk_html;
tbk_status tbk_html_load(const char *data, size_t len, const tbk_page_options *opt, tbk_html *out,
                         tbk_error *err);
/* The same, handing the decoded source to *source (caller frees) for a
 * second parse by tbk_html_parse_utf8. */
tbk_status tbk_html_load_source(const char *data, size_t len, const tbk_page_options *opt, tbk_html *out,
                                tbk_buf *source, tbk_error *err);
tbk_status tbk_html_parse_utf8(const char *s, size_t n, xmlDoc **doc, size_t *errors, tbk_error *err);

/* A repaired copy of the decoded source src in *out when the page looks
 * like one whose text libxml2 lost (visible bytes of text far below what
 * the source holds) and a shape that loses text is found: returns the
 * number of repairs, 0 (out untouched) when there is nothing to do, -1 out
 * of memory. Costs one comparison unless visible is under 1/20 of n. */
long tbk_recover_source(const char *src, size_t n, size_t visible, tbk_buf *out);

/* The page's (possibly edited) DOM serialized as HTML, appended to out. */
tbk_status tbk_page_dump_html(const tbk_page *page, tbk_buf *out);

/* Trimmed text range of an element. */
static inline void tbk_node_text(const struct tbk_page *p, const tbk_node *n,
                                 uint32_t *s, uint32_t *e) {
  uint32_t a = n->text_start, b = n->text_end;
  while (a < b && p->text.data[a] == ' ') a++;
  while (b > a && p->text.data[b - 1] == ' ') b--;
  *s = a;
  *e = b;
}
#endif
