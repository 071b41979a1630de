/* Alarte et al. 2015: URL resolution and normalization, the link graph,
 * Algorithm 1's n-CS on hand-made graphs, the exact top-down mapping on
 * hand-made trees (the expected pairs worked out in the comments), and
 * the block labels a node-level template gives. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "etdm.h"
#include "tbk_internal.h"

static const char *resolve(const char *base, const char *href) {
  static tbk_buf b;
  b.len = 0;
  int r = tbk_url_resolve(base, href, strlen(href), &b);
  if (r < 0) return "(nomem)";
  if (r > 0) return "(none)";
  return b.data;
}

static void test_urls(void) {
  /* RFC 3986 section 5.4.1's normal examples (the base's ";p" is a path
   * character like any other). */
  const char *base = "http://a/b/c/d;p?q";
  CHECK_STR(resolve(base, "g"), "http://a/b/c/g");
  CHECK_STR(resolve(base, "./g"), "http://a/b/c/g");
  CHECK_STR(resolve(base, "g/"), "http://a/b/c/g/");
  CHECK_STR(resolve(base, "/g"), "http://a/g");
  CHECK_STR(resolve(base, "//g"), "http://g/");
  CHECK_STR(resolve(base, "?y"), "http://a/b/c/d;p?y");
  CHECK_STR(resolve(base, "g?y"), "http://a/b/c/g?y");
  CHECK_STR(resolve(base, "g#s"), "http://a/b/c/g");
  CHECK_STR(resolve(base, "."), "http://a/b/c/");
  CHECK_STR(resolve(base, ".."), "http://a/b/");
  CHECK_STR(resolve(base, "../g"), "http://a/b/g");
  CHECK_STR(resolve(base, "../.."), "http://a/");
  CHECK_STR(resolve(base, "../../../g"), "http://a/g");
  CHECK_STR(resolve(base, "/./g"), "http://a/g");
  CHECK_STR(resolve(base, "g;x=1/../y"), "http://a/b/c/y");
  /* No page: empty, a bare fragment, other schemes, no base. */
  CHECK_STR(resolve(base, ""), "(none)");
  CHECK_STR(resolve(base, "  #top"), "(none)");
  CHECK_STR(resolve(base, "mailto:x@a.org"), "(none)");
  CHECK_STR(resolve(base, "javascript:void(0)"), "(none)");
  CHECK_STR(resolve(NULL, "g.html"), "(none)");
  CHECK_STR(resolve("", "/g.html"), "(none)");
  CHECK_STR(resolve(NULL, "HTTP://Ex.COM"), "http://ex.com/");
  /* Normalization: case of scheme and host (not path), default ports,
   * index files, fragments, empty queries, percent escapes, whitespace. */
  CHECK_STR(resolve(NULL, "HTTP://WWW.Ex.COM:80/A/index.html#x"), "http://www.ex.com/A/");
  CHECK_STR(resolve(NULL, "https://ex.com:443/d/Default.aspx?"), "https://ex.com/d/");
  CHECK_STR(resolve(NULL, "https://ex.com:80/"), "https://ex.com:80/");
  CHECK_STR(resolve(NULL, "http://ex.com:8080"), "http://ex.com:8080/");
  CHECK_STR(resolve(NULL, "http://user:pw@ex.com/x"), "http://ex.com/x");
  CHECK_STR(resolve(NULL, "http://ex.com/index.php?page=2"), "http://ex.com/?page=2");
  CHECK_STR(resolve(NULL, "http://ex.com/index.html.bak"), "http://ex.com/index.html.bak");
  CHECK_STR(resolve(NULL, "http://ex.com/%7euser/%2f%zz"), "http://ex.com/~user/%2F%25zz");
  CHECK_STR(resolve("http://ex.com/a/", " b c/\xc3\xa9\t.html \n"), "http://ex.com/a/b%20c/%C3%A9.html");
  CHECK_STR(resolve("http://ex.com/a/b.html", "..\\c.html"), "http://ex.com/c.html");
  CHECK_STR(resolve("https://ex.com/a/b", "//cdn.ex.com/x"), "https://cdn.ex.com/x");
  CHECK_STR(resolve("https://ex.com/a/b", "http:c"), "(none)");
  CHECK_STR(resolve("http://ex.com/a/b", "http:c"), "http://ex.com/a/c");
  CHECK_STR(resolve(NULL, "http://[::1]:80/x"), "http://[::1]/x");

  tbk_buf k = {0};
  CHECK_BUF(tbk_url_key("https://www.ex.com/a?b", &k));
  CHECK_STR(k.data, "ex.com/a?b");
  k.len = 0;
  CHECK_BUF(tbk_url_key("http://ex.com/", &k));
  CHECK_STR(k.data, "ex.com/");
  tbk_buf_free(&k);
}

static tbk_page *parse(const char *html) {
  tbk_page *p = NULL;
  tbk_page_options o;
  tbk_page_options_init(&o);
  CHECK(tbk_page_parse(html, strlen(html), &o, &p, NULL) == TBK_OK);
  return p;
}

static void test_page_base(void) {
  tbk_page *p = parse("<html><head><base href='/docs/v2/'></head><body><a href='x'>x</a></body></html>");
  tbk_buf b = {0};
  CHECK_INT(tbk_page_link_base(p, "ex.com", "pages/ex.com/a.html", "http://ex.com/other/a.html", &b), 0);
  CHECK_STR(b.data, "http://ex.com/docs/v2/");
  b.len = 0;
  /* No URL: the path below the directory named after the site. */
  CHECK_INT(tbk_page_link_base(NULL, "ex.com", "mirror/ex.com/a/b.html", "", &b), 0);
  CHECK_STR(b.data, "http://ex.com/a/b.html");
  b.len = 0;
  CHECK_INT(tbk_page_link_base(NULL, "", "a.html", "", &b), 1);
  tbk_buf_free(&b);
  tbk_page_free(p);
}

static void test_graph(void) {
  /* Four pages of one site: p0 links to p1 (twice, once via its index
   * file), p2, itself, an outside page and a mailto; p1 links to p0 by a
   * relative link from its mirror path; p2 links to a missing page; p3 has
   * the same URL as p1 apart from www. and the scheme, so links go to p1. */
  const char *html[4] = {"<html><body><a href='/a/'>1</a><a href='/a/index.html'>1b</a><a href='b.html'>2</a>"
                         "<a href='#top'>self</a><a href='/'>self</a><a href='http://other.org/'>o</a>"
                         "<a href='mailto:x@ex.com'>m</a></body></html>",
                         "<html><body><a href='../index.html'>home</a></body></html>",
                         "<html><body><a href='/missing.html'>?</a></body></html>",
                         "<html><body><a href='/b.html'>2</a></body></html>"};
  const char *ids[4] = {"m/ex.com/index.html", "m/ex.com/a/index.html", "m/ex.com/b.html", "m/ex.com/c.html"};
  const char *urls[4] = {"http://ex.com/", "", "http://ex.com/b.html", "https://www.ex.com/a/"};
  tbk_link_builder *lb;
  CHECK(tbk_link_builder_new(&lb, NULL) == TBK_OK);
  for (int i = 0; i < 4; i++) {
    tbk_page *p = parse(html[i]);
    CHECK(tbk_link_builder_add(lb, p, "ex.com", ids[i], urls[i], NULL) == TBK_OK);
    tbk_page_free(p);
  }
  tbk_link_graph g;
  CHECK(tbk_link_builder_finish(lb, &g, NULL) == TBK_OK);
  tbk_link_builder_free(lb);
  CHECK_INT(g.n, 4);
  CHECK_INT(g.off[1] - g.off[0], 2);
  CHECK_INT(g.dst[g.off[0]], 1);
  CHECK_INT(g.dst[g.off[0] + 1], 2);
  CHECK_INT(g.off[2] - g.off[1], 1);
  CHECK_INT(g.dst[g.off[1]], 0);
  CHECK_INT(g.off[3] - g.off[2], 0);
  CHECK_INT(g.off[4] - g.off[3], 1);
  CHECK_INT(g.dst[g.off[3]], 2);
  CHECK(tbk_link_graph_has(&g, 0, 2));
  CHECK(!tbk_link_graph_has(&g, 2, 0));
  CHECK(!tbk_link_graph_has(&g, 0, 3));
  tbk_link_graph_free(&g);
}

/* A graph from an adjacency list: row i lists page i's links in order. */
static void make_graph(tbk_link_graph *g, size_t n, const int rows[][8]) {
  memset(g, 0, sizeof *g);
  g->n = n;
  g->off = calloc(n + 1, sizeof *g->off);
  g->dst = calloc(n * 8 + 1, sizeof *g->dst);
  g->sorted = calloc(n * 8 + 1, sizeof *g->sorted);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    g->off[i] = (uint32_t)m;
    for (int k = 0; k < 8 && rows[i][k] >= 0; k++) g->dst[m++] = (uint32_t)rows[i][k];
    memcpy(g->sorted + g->off[i], g->dst + g->off[i], (m - g->off[i]) * sizeof *g->dst);
    for (size_t a = g->off[i]; a < m; a++) /* tiny rows: insertion sort */
      for (size_t b = a; b > g->off[i] && g->sorted[b - 1] > g->sorted[b]; b--) {
        uint32_t t = g->sorted[b];
        g->sorted[b] = g->sorted[b - 1];
        g->sorted[b - 1] = t;
      }
  }
  g->off[n] = (uint32_t)m;
}

static void test_ncs(void) {
  uint32_t cs[8];
  size_t loads;
  {
    /* Complete: the key page 0 links to 1..5, which all link to each
     * other: the first four processed form the 4-CS, after four loads. */
    const int rows[6][8] = {{1, 2, 3, 4, 5, -1}, {0, 2, 3, 4, 5, -1}, {0, 1, 3, 4, 5, -1},
                            {0, 1, 2, 4, 5, -1}, {0, 1, 2, 3, 5, -1}, {0, 1, 2, 3, 4, -1}};
    tbk_link_graph g;
    make_graph(&g, 6, rows);
    CHECK_INT(tbk_ncs_find(&g, 0, 4, cs, &loads), 4);
    CHECK_INT(loads, 4);
    CHECK_INT(cs[0], 1);
    CHECK_INT(cs[1], 2);
    CHECK_INT(cs[2], 3);
    CHECK_INT(cs[3], 4);
    /* n = 1: the first link; n larger than the menu: all five, the
     * largest, after every link is loaded. */
    CHECK_INT(tbk_ncs_find(&g, 0, 1, cs, &loads), 1);
    CHECK_INT(cs[0], 1);
    CHECK_INT(loads, 1);
    CHECK_INT(tbk_ncs_find(&g, 0, 8, cs, &loads), 5);
    CHECK_INT(loads, 5);
    CHECK_INT(cs[4], 5);
    tbk_link_graph_free(&g);
  }
  {
    /* One edge missing (2 -> 3): after 3, {1, 3} (2 is not mutual with
     * it); after 4, {1, 2, 4} (the first of the largest); after 5,
     * {1, 2, 4, 5}. */
    const int rows[6][8] = {{1, 2, 3, 4, 5, -1}, {0, 2, 3, 4, 5, -1}, {0, 1, 4, 5, -1},
                            {0, 1, 2, 4, 5, -1}, {0, 1, 2, 3, 5, -1}, {0, 1, 2, 3, 4, -1}};
    tbk_link_graph g;
    make_graph(&g, 6, rows);
    CHECK_INT(tbk_ncs_find(&g, 0, 4, cs, &loads), 4);
    CHECK_INT(loads, 5);
    CHECK_INT(cs[0], 1);
    CHECK_INT(cs[1], 2);
    CHECK_INT(cs[2], 4);
    CHECK_INT(cs[3], 5);
    tbk_link_graph_free(&g);
  }
  {
    /* Smaller than n: only 1, 2, 3 are mutual (4 links to none of them),
     * so the largest, a 3-CS, comes back after all four loads; page 5
     * links to nothing, page 6 to pages 0 and 5 only (no pair mutual). */
    const int rows[7][8] = {{1, 2, 3, 4, -1}, {2, 3, -1}, {1, 3, -1}, {1, 2, 4, -1}, {-1}, {-1}, {0, 5, -1}};
    tbk_link_graph g;
    make_graph(&g, 7, rows);
    CHECK_INT(tbk_ncs_find(&g, 0, 4, cs, &loads), 3);
    CHECK_INT(loads, 4);
    CHECK_INT(cs[0], 1);
    CHECK_INT(cs[1], 2);
    CHECK_INT(cs[2], 3);
    CHECK_INT(tbk_ncs_find(&g, 5, 4, cs, &loads), 0);
    CHECK_INT(loads, 0);
    CHECK_INT(tbk_ncs_find(&g, 6, 4, cs, &loads), 1);
    CHECK_INT(cs[0], 0);
    CHECK_INT(loads, 2);
    tbk_link_graph_free(&g);
  }
}

/* The node of page at locator path, TBK_NONE when none. */
static uint32_t node_at(const tbk_page *p, const char *path) {
  tbk_buf arena = {0};
  size_t *off = NULL;
  uint32_t found = TBK_NONE;
  if (tbk_etdm_xpaths(p, &arena, &off, NULL) == TBK_OK)
    for (size_t i = 0; i < p->n_nodes; i++)
      if (strcmp(arena.data + off[i], path) == 0) found = (uint32_t)i;
  free(off);
  tbk_buf_free(&arena);
  return found;
}

static int mapped_to(const tbk_page *k, const uint32_t *map, const tbk_page *o, const char *kp, const char *op) {
  uint32_t a = node_at(k, kp);
  if (a == TBK_NONE) return 0;
  return op ? map[a] != TBK_NONE && map[a] == node_at(o, op) : map[a] == TBK_NONE;
}

static void test_etdm(void) {
  /* Key: a menu of two links, a main div of two paragraphs, a footer.
   * Other: a menu of three links, a main div of a heading and a paragraph,
   * the same footer. */
  tbk_page *k = parse("<html><body><div id='menu' class='nav top'><a href='/1'>1</a><a href='/2'>2</a></div>"
                      "<div id='main'><p>x</p><p>y</p></div><div id='foot'>f</div></body></html>");
  tbk_page *o = parse("<html><body><div id='menu' class='top nav'><a href='/1'>1</a><a href='/2'>2</a>"
                      "<a href='/3'>3</a></div><div id='main'><h1>t</h1><p>z</p></div><div id='foot'>g</div>"
                      "</body></html>");
  tbk_etdm_tree *tk, *to;
  CHECK(tbk_etdm_tree_new(k, &tk, NULL) == TBK_OK);
  CHECK(tbk_etdm_tree_new(o, &to, NULL) == TBK_OK);
  CHECK_INT(tbk_etdm_tree_size(tk), 9);
  uint32_t map[16];
  for (int e = 0; e < 3; e++) {
    CHECK(tbk_etdm_map(tk, NULL, to, (tbk_node_eq)e, map, NULL) == TBK_OK);
    /* Under every relation: the roots, body, the menu and its two links in
     * order (classes compare as sets), the main div, the footer; of the
     * paragraphs only the second, paired with the one paragraph (common
     * suffix); the first has nothing equal left (h1 is not p). */
    CHECK(mapped_to(k, map, o, "/html[1]", "/html[1]"));
    CHECK(mapped_to(k, map, o, "/html[1]/body[1]", "/html[1]/body[1]"));
    CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[1]", "/html[1]/body[1]/div[1]"));
    CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[1]/a[1]", "/html[1]/body[1]/div[1]/a[1]"));
    CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[1]/a[2]", "/html[1]/body[1]/div[1]/a[2]"));
    CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[2]", "/html[1]/body[1]/div[2]"));
    CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[2]/p[1]", NULL));
    CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[2]/p[2]", "/html[1]/body[1]/div[2]/p[1]"));
    CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[3]", "/html[1]/body[1]/div[3]"));
  }
  tbk_etdm_tree_free(to);
  tbk_page_free(o);

  /* Ids and classes: the other page's main div has another id, its footer
   * another class. tag maps both; tag+id+class neither; weighted (id 0.30
   * lost: 0.70 < 0.80) not the main div, but the footer (classes 0.25 lost,
   * and class is then an attribute only one has: 0.20 x 1/2 lost: 0.65),
   * neither. A menu link with an extra attribute: weighted keeps it
   * (attribute names 1/2: 0.90). */
  o = parse("<html><body><div id='menu' class='nav top'><a href='/1' title='t'>1</a><a href='/2'>2</a></div>"
            "<div id='article'><p>x</p><p>y</p></div><div id='foot' class='wide'>f</div></body></html>");
  CHECK(tbk_etdm_tree_new(o, &to, NULL) == TBK_OK);
  CHECK(tbk_etdm_map(tk, NULL, to, TBK_NODE_EQ_TAG, map, NULL) == TBK_OK);
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[2]/p[1]", "/html[1]/body[1]/div[2]/p[1]"));
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[3]", "/html[1]/body[1]/div[3]"));
  CHECK(tbk_etdm_map(tk, NULL, to, TBK_NODE_EQ_TAG_ID_CLASS, map, NULL) == TBK_OK);
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[2]", NULL));
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[2]/p[1]", NULL)); /* top-down: parent unmapped */
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[3]", NULL));
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[1]/a[1]", "/html[1]/body[1]/div[1]/a[1]"));
  CHECK(tbk_etdm_map(tk, NULL, to, TBK_NODE_EQ_WEIGHTED, map, NULL) == TBK_OK);
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[2]", NULL));
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[3]", NULL));
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[1]/a[1]", "/html[1]/body[1]/div[1]/a[1]"));

  /* Algorithm 2: the template refined by this page under tag+id+class
   * keeps html, body, the menu div and its two links (5 of 9); hits
   * counts the page for them. A page whose root differs is skipped. */
  uint8_t keep[16];
  uint32_t hits[16] = {0};
  memset(keep, 1, sizeof keep);
  size_t kept;
  int skipped;
  CHECK(tbk_etdm_refine(tk, keep, hits, to, TBK_NODE_EQ_TAG_ID_CLASS, &kept, &skipped, NULL) == TBK_OK);
  CHECK_INT(skipped, 0);
  CHECK_INT(kept, 5);
  CHECK_INT(hits[node_at(k, "/html[1]/body[1]/div[1]/a[2]")], 1);
  CHECK_INT(hits[node_at(k, "/html[1]/body[1]/div[2]")], 0);

  /* The blocks, on a page with nested candidates, the template set by
   * hand: the menu div all template; the main div has none (content, the
   * top-most), its two inner divs are below it (not-top-most); the side
   * div has one of its two links out (partly-template). */
  tbk_page *bp = parse("<html><body><div id='menu'><a href='/1'>The first section of this site, and more</a></div>"
                       "<div id='main'><div>A first paragraph of some length here, forty characters.</div>"
                       "<div>A second paragraph, long enough too, over forty characters.</div></div>"
                       "<div id='side'><a href='/x'>Some link on the side bar</a>"
                       "<a href='/y'>Another link on the side bar</a></div></body></html>");
  uint8_t bkeep[16];
  memset(bkeep, 1, sizeof bkeep);
  bkeep[node_at(bp, "/html[1]/body[1]/div[2]")] = 0;
  bkeep[node_at(bp, "/html[1]/body[1]/div[2]/div[1]")] = 0;
  bkeep[node_at(bp, "/html[1]/body[1]/div[2]/div[2]")] = 0;
  bkeep[node_at(bp, "/html[1]/body[1]/div[3]/a[2]")] = 0;
  tbk_label labels[16];
  const char *reasons[16];
  CHECK(tbk_etdm_block_labels(bp, bkeep, labels, reasons, NULL) == TBK_OK);
  int seen = 0;
  for (size_t b = 0; b < bp->n_blocks; b++) {
    const char *path = bp->blocks[b].path;
    if (strcmp(path, "/html[1]/body[1]/div[1]") == 0) {
      CHECK_INT(labels[b], TBK_LABEL_TEMPLATE);
      CHECK(reasons[b] == NULL);
      seen |= 1;
    } else if (strcmp(path, "/html[1]/body[1]/div[2]") == 0) {
      CHECK_INT(labels[b], TBK_LABEL_CONTENT);
      seen |= 2;
    } else if (strcmp(path, "/html[1]/body[1]/div[2]/div[1]") == 0) {
      CHECK_INT(labels[b], TBK_LABEL_IGNORED);
      CHECK_STR(reasons[b], "not-top-most");
      seen |= 4;
    } else if (strcmp(path, "/html[1]/body[1]/div[3]") == 0) {
      CHECK_INT(labels[b], TBK_LABEL_IGNORED);
      CHECK_STR(reasons[b], "partly-template");
      seen |= 8;
    }
  }
  CHECK_INT(seen, 15);
  tbk_page_free(bp);
  tbk_etdm_tree_free(to);
  tbk_page_free(o);

  /* Roots that differ (tag+id+class: another id and classes): the page is
   * skipped and the template left as it was. The weighted relation
   * compares html and body by their tags alone (their classes name the
   * page), so it maps them; not the menu div, though its id is the same:
   * 0.30 + 0 (classes) + 0 (2 children against none) + 0.10 (position) +
   * 0.20 x 1/2 (attribute names) = 0.50. */
  o = parse("<html id='x' class='y' lang='en'><body class='page-7'><div id='menu'>m</div></body></html>");
  CHECK(tbk_etdm_tree_new(o, &to, NULL) == TBK_OK);
  memset(keep, 1, sizeof keep);
  CHECK(tbk_etdm_refine(tk, keep, NULL, to, TBK_NODE_EQ_TAG_ID_CLASS, &kept, &skipped, NULL) == TBK_OK);
  CHECK_INT(skipped, 1);
  CHECK_INT(kept, 9);
  CHECK(tbk_etdm_map(tk, NULL, to, TBK_NODE_EQ_WEIGHTED, map, NULL) == TBK_OK);
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]", "/html[1]/body[1]"));
  CHECK(mapped_to(k, map, o, "/html[1]/body[1]/div[1]", NULL));
  CHECK(tbk_etdm_refine(tk, keep, NULL, to, TBK_NODE_EQ_TAG, &kept, &skipped, NULL) == TBK_OK);
  CHECK_INT(skipped, 0);
  CHECK_INT(kept, 3); /* html, body, div */
  tbk_etdm_tree_free(to);
  tbk_page_free(o);
  tbk_etdm_tree_free(tk);
  tbk_page_free(k);
}

/* A page of 48 sections, each a heading and a list of items links and
 * spans: 3,026 elements; short, the lists of every eighth section hold
 * `short_items` items instead of 20. */
static char *big_page(int short_items) {
  tbk_buf b = {0};
  CHECK_BUF(tbk_buf_puts(&b, "<html><body>"));
  for (int s = 0; s < 48; s++) {
    CHECK_BUF(tbk_buf_printf(&b, "<div class='s'><h2>Section %d</h2><ul>", s));
    int items = s % 8 == 0 ? short_items : 20;
    for (int i = 0; i < items; i++)
      CHECK_BUF(tbk_buf_printf(&b, "<li><a href='/p%d/%d'>Item %d</a><span>note %d</span></li>", s, i, i, s));
    CHECK_BUF(tbk_buf_puts(&b, "</ul></div>"));
  }
  CHECK_BUF(tbk_buf_puts(&b, "</body></html>"));
  return b.data;
}

/* The mapping of two 3,000-node pages (BENCHMARKS.md counts its
 * instructions with valgrind --toggle-collect=map_big). */
__attribute__((noinline)) static size_t map_big(const tbk_etdm_tree *a, const tbk_etdm_tree *b, tbk_node_eq e,
                                                uint32_t *map) {
  size_t n = 0;
  CHECK(tbk_etdm_map(a, NULL, b, e, map, NULL) == TBK_OK);
  for (size_t i = 0; i < tbk_etdm_tree_size(a); i++) n += map[i] != TBK_NONE;
  return n;
}

static void test_big(void) {
  char *ha = big_page(20), *hb = big_page(10);
  tbk_page *a = parse(ha), *b = parse(hb);
  tbk_etdm_tree *ta, *tb;
  CHECK(tbk_etdm_tree_new(a, &ta, NULL) == TBK_OK);
  CHECK(tbk_etdm_tree_new(b, &tb, NULL) == TBK_OK);
  CHECK_INT(tbk_etdm_tree_size(ta), 3026);
  uint32_t *map = malloc(3026 * sizeof *map);
  /* html, body, then 42 whole sections of 63 nodes and 6 of which the
   * div, heading, list and 10 items (3 nodes each) map: 2 + 2646 + 198. */
  for (int e = 0; e < 3; e++) CHECK_INT(map_big(ta, tb, (tbk_node_eq)e, map), 2846);
  free(map);
  tbk_etdm_tree_free(ta);
  tbk_etdm_tree_free(tb);
  tbk_page_free(a);
  tbk_page_free(b);
  free(ha);
  free(hb);
}

static void test_eq_names(void) {
  tbk_node_eq e;
  CHECK_INT(tbk_node_eq_parse("tag+id+class", &e), 0);
  CHECK_INT(e, TBK_NODE_EQ_TAG_ID_CLASS);
  CHECK_STR(tbk_node_eq_name(e), "tag+id+class");
  CHECK_INT(tbk_node_eq_parse("weighted", &e), 0);
  CHECK_STR(tbk_node_eq_name(e), "weighted");
  CHECK_INT(tbk_node_eq_parse("Tag", &e), -1);
}

/* A page's mark of its own menu entry (#32): classes with an active,
 * current or selected part and aria-current / aria-selected are left out
 * of both relations; a class of marks alone is no class. Nodes in
 * document order: html 0, body 1, ul 2, then li, a pairs from 3. */
static void test_state_marks(void) {
  tbk_page *k = parse("<html><body><ul><li class='active'><a href='/1' aria-current='page'>1</a></li>"
                      "<li class='nav'><a href='/2'>2</a></li><li class='interactive'><a href='/3'>3</a></li>"
                      "<li><a href='/4' class='x current_page_item'>4</a></li></ul></body></html>");
  tbk_page *o = parse("<html><body><ul><li><a href='/1'>1</a></li>"
                      "<li class='nav menu-item--active-trail'><a href='/2' class='is-Active'>2</a></li>"
                      "<li><a href='/3'>3</a></li><li><a href='/4' class='x'>4</a></li></ul></body></html>");
  tbk_etdm_tree *tk, *to;
  CHECK(tbk_etdm_tree_new(k, &tk, NULL) == TBK_OK);
  CHECK(tbk_etdm_tree_new(o, &to, NULL) == TBK_OK);
  CHECK_INT(tbk_etdm_tree_size(tk), 11);
  for (int e = TBK_NODE_EQ_TAG_ID_CLASS; e <= TBK_NODE_EQ_WEIGHTED; e++) {
    CHECK(tbk_etdm_equal(tk, 3, to, 3, (tbk_node_eq)e));   /* li.active = li */
    CHECK(tbk_etdm_equal(tk, 4, to, 4, (tbk_node_eq)e));   /* a[aria-current] = a */
    CHECK(tbk_etdm_equal(tk, 5, to, 5, (tbk_node_eq)e));   /* li.nav = li.nav.menu-item--active-trail */
    CHECK(tbk_etdm_equal(tk, 6, to, 6, (tbk_node_eq)e));   /* a = a.is-Active */
    CHECK(tbk_etdm_equal(tk, 10, to, 10, (tbk_node_eq)e)); /* a.x.current_page_item = a.x */
  }
  /* "interactive" is a class like any other */
  CHECK(!tbk_etdm_equal(tk, 7, to, 7, TBK_NODE_EQ_TAG_ID_CLASS));
  CHECK(!tbk_etdm_equal(tk, 7, to, 7, TBK_NODE_EQ_WEIGHTED));
  uint32_t map[16];
  CHECK(tbk_etdm_map(tk, NULL, to, TBK_NODE_EQ_WEIGHTED, map, NULL) == TBK_OK);
  size_t mapped = 0;
  for (size_t i = 0; i < tbk_etdm_tree_size(tk); i++) mapped += map[i] != TBK_NONE;
  CHECK_INT(mapped, 9); /* all but li.interactive and its link */
  tbk_etdm_tree_free(tk);
  tbk_etdm_tree_free(to);
  tbk_page_free(k);
  tbk_page_free(o);
}

int main(void) {
  test_urls();
  test_state_marks();
  test_page_base();
  test_graph();
  test_ncs();
  test_etdm();
  test_eq_names();
  test_big();
  return check_report();
}
