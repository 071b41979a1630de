/* A site's hyperlink graph (Alarte et al. 2015, section 4.1): every
 * <a href> of every page resolved against the page's URL (or its <base>,
 * or its path in a mirror directory), normalized, and mapped to the pages
 * present in the input, so that the menu's complete subdigraph can be
 * searched without loading a page twice. */
#ifndef TBK_LINKS_H
#define TBK_LINKS_H
#include "page_view.h"
#include "util.h"

/* Resolve href (n bytes, as written in the page) against base, an absolute
 * http(s) URL, by RFC 3986 section 5.2, and append the normalized result to
 * out: scheme and host in lower case, the default port (80, 443) dropped,
 * dot segments removed, an empty path made "/", a trailing index file
 * (index.html, index.htm, index.php, index.shtml, default.htm(l),
 * default.asp(x)) dropped, the fragment and an empty query dropped, bytes
 * outside printable ASCII and spaces percent-encoded, percent escapes in
 * upper case and those of unreserved characters decoded. Returns 0, 1 when
 * the link leads to no page (empty, a bare fragment, a scheme other than
 * http or https, or a relative link without a usable base; out is then
 * left as it was), -1 out of memory. base NULL or "": only absolute links
 * resolve. */
int tbk_url_resolve(const char *base, const char *href, size_t n, tbk_buf *out) TBK_MUST_CHECK;

/* The key a site's pages and links are matched by: the normalized URL
 * without its scheme (http and https are one page) and without a leading
 * "www." of the host, appended to out. url must be tbk_url_resolve's
 * output. -1 out of memory. */
int tbk_url_key(const char *url, tbk_buf *out) TBK_MUST_CHECK;

/* The base every relative link of a page is resolved against, appended to
 * out: the page's <base href> resolved against its URL, else its URL,
 * else, for a page with no URL (a mirror on disk), "http://SITE/" followed
 * by the page's path below the directory named SITE in page_id (the whole
 * id when no component is named so). Returns 0, 1 when there is none (out
 * as it was), -1 out of memory. */
int tbk_page_link_base(const tbk_page *page, const char *site, const char *page_id, const char *url,
                       tbk_buf *out) TBK_MUST_CHECK;

/* Builds the graph of one site: pages are added one at a time (so only
 * one parsed page need be held), then finished into the graph. */
typedef struct tbk_link_builder tbk_link_builder;

typedef struct tbk_link_graph {
  size_t n;         /* pages, in the order added */
  uint32_t *off;    /* n + 1 entries: page i's links are [off[i], off[i+1]) */
  uint32_t *dst;    /* the pages linked to, in document order of their first
                        link, each once, never the page itself */
  uint32_t *sorted; /* the same ranges sorted, for tbk_link_graph_has */
  size_t n_links;   /* <a href> resolved to a page link (any site) */
} tbk_link_graph;

tbk_status tbk_link_builder_new(tbk_link_builder **out, tbk_error *err);
void tbk_link_builder_free(tbk_link_builder *b);
/* Add the next page (index = the number added before): its key from its
 * URL or mirror path (tbk_page_link_base), its links in document order.
 * When two pages have the same key, links to it go to the first.
 * Errors: TBK_ERR_NOMEM. */
tbk_status tbk_link_builder_add(tbk_link_builder *b, const tbk_page *page, const char *site, const char *page_id,
                                const char *url, tbk_error *err);
/* The graph of the pages added: links to pages not added are dropped.
 * The builder can then only be freed. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_link_builder_finish(tbk_link_builder *b, tbk_link_graph *g, tbk_error *err);
void tbk_link_graph_free(tbk_link_graph *g);
/* Whether page a links to page b. */
int tbk_link_graph_has(const tbk_link_graph *g, uint32_t a, uint32_t b);
#endif
