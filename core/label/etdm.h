/* Template extraction by hyperlink analysis (Alarte, Insa, Silva and Tamarit
 * 2015): the n-complete subdigraph of the pages a key page links to
 * (Algorithm 1, etdm_cs.c), the exact top-down mapping of the key page's
 * DOM with theirs (Definition 3.2 and Algorithm 2, etdm.c), and what the
 * resulting node-level template says of the page's blocks (etdm_label.c);
 * the two passes over a site that drive them (etdm_site.c). */
#ifndef TBK_ETDM_H
#define TBK_ETDM_H
#include "label.h"
#include "links.h"

/* ----- Algorithm 1: the n-CS */

/* Budget of clique-search steps per key page: a page with hundreds of
 * links that are mutual in pairs but never n at once would otherwise cost
 * binomial(links, n - 1) per link. When it runs out, the largest CS found
 * so far is returned. */
#define TBK_NCS_MAX_STEPS 2000000u

/* The key page's links (graph order: document order, each page once, never
 * itself) are taken one at a time as the paper's loop loads them; after
 * each, the largest set of processed pages that holds the new one and whose
 * members all link to each other both ways is found: n of them are
 * returned at once, else the largest seen over all links (the first found
 * among equals). cs receives the members (up to n, n >= 1) in the order
 * they were processed; returns their count (0: the key page links to no
 * page of the input). *loads (may be NULL) gets the pages the loop
 * processed, the paper's "Loads" less the key page. */
size_t tbk_ncs_find(const tbk_link_graph *g, uint32_t key, size_t n, uint32_t *cs, size_t *loads);

/* ----- the equality relation and the mapping */

typedef enum tbk_node_eq {
  TBK_NODE_EQ_TAG = 0,      /* same tag name */
  TBK_NODE_EQ_TAG_ID_CLASS, /* same tag name, id and set of classes */
  TBK_NODE_EQ_WEIGHTED      /* the paper's: same tag name, and a weighted
                                 similarity of id, classes, child count,
                                 position among siblings and attribute names
                                 of at least TBK_NODE_EQ_THRESHOLD (html and
                                 body: the tag name alone) */
  /* The last two leave out the classes and attributes by which a page
   * marks its own menu entry (active, current-menu-item, aria-current...:
   * etdm.c's state_class and STATE_ATTRS), a class of them alone being
   * no class at all. */
} tbk_node_eq;
#define TBK_NODE_EQ_THRESHOLD 0.8
/* "tag", "tag+id+class", "weighted"; parsing: 0 ok, -1 unknown name. */
const char *tbk_node_eq_name(tbk_node_eq e);
int tbk_node_eq_parse(const char *s, tbk_node_eq *out);

/* A page's element tree as the mapping reads it: the page's node table
 * (visible elements; head, scripts and hidden elements are not in it),
 * children in document order, and each node's id, classes and attribute
 * names hashed. Borrows nothing from the page once made. */
typedef struct tbk_etdm_tree tbk_etdm_tree;
tbk_status tbk_etdm_tree_new(const tbk_page *page, tbk_etdm_tree **out, tbk_error *err);
void tbk_etdm_tree_free(tbk_etdm_tree *t);
size_t tbk_etdm_tree_size(const tbk_etdm_tree *t);
/* Whether nodes a of ta and b of tb are equal under e. */
int tbk_etdm_equal(const tbk_etdm_tree *ta, uint32_t a, const tbk_etdm_tree *tb, uint32_t b, tbk_node_eq e);

/* An exact top-down mapping of the template (the nodes i of key with
 * keep[i] != 0; keep NULL: all of key) onto other: map[i] gets the node of
 * other that node i is paired with, TBK_NONE when none. Pairs are equal
 * under e, and a pair's parents are a pair (the roots, the document's
 * top-level elements, are aligned like children). One-to-one and order-keeping: under each pair the children are
 * aligned by a longest common subsequence of equal nodes (a common prefix
 * and suffix first; when the two child lists' product exceeds
 * TBK_ETDM_MAX_CELLS, in-order greedy pairing instead), which makes it a
 * largest such mapping when equal children are not nested differently.
 * Errors: TBK_ERR_NOMEM. */
#define TBK_ETDM_MAX_CELLS (1u << 22)
tbk_status tbk_etdm_map(const tbk_etdm_tree *key, const uint8_t *keep, const tbk_etdm_tree *other, tbk_node_eq e,
                        uint32_t *map, tbk_error *err);

/* Algorithm 2's step: the template keep[] of key refined by a mapping with
 * other (nodes left unmapped are cleared; hits[i], when hits is not NULL,
 * counts the pages that mapped node i). When no root is equal (nothing
 * maps) the page is skipped (*skipped = 1, keep untouched), as the paper
 * does.
 * *kept gets the nodes left. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_etdm_refine(const tbk_etdm_tree *key, uint8_t *keep, uint32_t *hits, const tbk_etdm_tree *other,
                           tbk_node_eq e, size_t *kept, int *skipped, tbk_error *err);

/* ----- the template's outputs (etdm_label.c) */

/* The locator of every node of page, /html[1]/body[1]/div[2] as block
 * paths are written: offsets[i] into arena (NUL-terminated). Errors:
 * TBK_ERR_NOMEM. */
tbk_status tbk_etdm_xpaths(const tbk_page *page, tbk_buf *arena, size_t **offsets, tbk_error *err);

/* What a node-level template says of the page's candidate blocks, for
 * each block: template when its element and every element inside it are in
 * the template; content when no element at or inside it is, and its nearest
 * candidate ancestor has one (the top-most such block); else ignored, with
 * reasons[b] "partly-template" or "not-top-most" (NULL for the others).
 * Errors: TBK_ERR_NOMEM. */
tbk_status tbk_etdm_block_labels(const tbk_page *page, const uint8_t *keep, tbk_label *labels, const char **reasons,
                                 tbk_error *err);

/* ----- a site at a time (etdm_site.c) */

/* Page i of the caller's list, or NULL when it cannot be had (the caller
 * reports it); the driver frees the pages it is given. */
typedef tbk_page *(*tbk_etdm_load_fn)(void *ctx, size_t i);

/* One site's two passes: its pages' links into the site's graph (pass 1:
 * tbk_etdm_site_add, then tbk_etdm_site_finish), then each page of the
 * graph as the key page (pass 2: tbk_etdm_site_key), its CS found with
 * cs_size pages and mapped onto it under eq. The CS pages come from load
 * (with ctx), their trees cached. */
typedef struct tbk_etdm_site tbk_etdm_site;
tbk_status tbk_etdm_site_new(size_t cs_size, tbk_node_eq eq, tbk_etdm_load_fn load, void *ctx, tbk_etdm_site **out,
                             tbk_error *err);
void tbk_etdm_site_free(tbk_etdm_site *s);
/* Pass 1: page index of the caller's list, the next page of the graph.
 * Errors: TBK_ERR_NOMEM. */
tbk_status tbk_etdm_site_add(tbk_etdm_site *s, size_t index, const tbk_page *page, const char *site,
                             const char *page_id, const char *url, tbk_error *err);
/* The end of pass 1: *keys gets the graph's pages (the key pages 0..keys-1
 * of pass 2), *links its page links. Errors: TBK_ERR_NOMEM. */
tbk_status tbk_etdm_site_finish(tbk_etdm_site *s, size_t *keys, size_t *links, tbk_error *err);

/* One key page's template (tbk_etdm_key_clear frees it). */
typedef struct tbk_etdm_key {
  size_t index;   /* the key page in the caller's list */
  tbk_page *page; /* owned; NULL: load could not give it (nothing below set) */
  uint8_t *keep;  /* owned, a byte per node: in the template (1) or not */
  uint32_t *hits; /* owned, per node: the CS pages that mapped it */
  size_t cs_n;    /* the CS's pages (0: the page links to none of the site's) */
  size_t loads;   /* pages Algorithm 1 processed */
  size_t kept;    /* nodes in the template */
} tbk_etdm_key;
/* Pass 2 for key page q: its CS, then the template refined by each CS page
 * load gives (tbk_etdm_refine). Errors: TBK_ERR_NOMEM. */
tbk_status tbk_etdm_site_key(tbk_etdm_site *s, size_t q, tbk_etdm_key *k, tbk_error *err);
void tbk_etdm_key_clear(tbk_etdm_key *k);
#endif
