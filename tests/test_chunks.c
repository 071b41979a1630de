/* Table text chunks (Ma et al. 2003): where a page's text is cut, how keys
 * are counted once per page, the thresholds, the labels, --key text+path
 * and the strip pass, on small pages whose answers are worked out by hand
 * in the comments. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

typedef struct got {
  char text[16][64];
  char path[16][96];
  int block[16];
  int n;
} got;

static int collect(void *ctx, const tbk_chunk_span *s) {
  got *g = ctx;
  if (g->n < 16) {
    const tbk_page *p = NULL;
    (void)p;
    snprintf(g->path[g->n], sizeof g->path[0], "%s", s->path);
    g->block[g->n] = s->block;
    g->n++;
  }
  return 0;
}

typedef struct walk_ctx {
  got g;
  const tbk_page *page;
} walk_ctx;

static int collect_text(void *ctx, const tbk_chunk_span *s) {
  walk_ctx *w = ctx;
  if (w->g.n < 16)
    snprintf(w->g.text[w->g.n], sizeof w->g.text[0], "%.*s", (int)(s->end - s->start), w->page->text.data + s->start);
  return collect(&w->g, s);
}

static tbk_page *parse(const char *html) {
  tbk_page *p = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_page_parse(html, strlen(html), NULL, &p, &err), TBK_OK);
  return p;
}

static void walk_page(const char *html, const char *tags, walk_ctx *w) {
  tbk_chunk_options o;
  tbk_chunk_options_init(&o);
  tbk_error err = {0};
  if (tags) CHECK_INT(tbk_chunk_tags_parse(&o, tags, &err), TBK_OK);
  memset(w, 0, sizeof *w);
  w->page = parse(html);
  if (!w->page) return;
  CHECK_INT(tbk_page_chunks(w->page, &o, collect_text, w), 0);
  tbk_page_free((tbk_page *)w->page);
}

#define PAGE                                                                                 \
  "<html><body>Intro <table><tr><td>A b</td><td> C <b>d</b> </td></tr></table> between "     \
  "<table><caption>Cap</caption><tr><th>H</th><td>x<table><tr><td>y</td></tr></table>z</td>" \
  "</tr></table> outro<div>more</div></body></html>"

static void test_boundaries(void) {
  walk_ctx w;
  /* Every start and end of a table element cuts: text outside any table
   * belongs to the root; a nested table splits its cell in three. */
  walk_page(PAGE, NULL, &w);
  static const char *want[] = {"Intro", "A b", "C d", "between", "Cap", "H", "x", "y", "z", "outro more"};
  CHECK_INT(w.g.n, 10);
  for (int i = 0; i < 10 && i < w.g.n; i++) CHECK_STR(w.g.text[i], want[i]);
  CHECK_STR(w.g.path[0], "/html[1]");
  CHECK_STR(w.g.path[1], "/html[1]/body[1]/table[1]/tr[1]/td[1]");
  CHECK_STR(w.g.path[2], "/html[1]/body[1]/table[1]/tr[1]/td[2]");
  CHECK_STR(w.g.path[3], "/html[1]");
  CHECK_STR(w.g.path[4], "/html[1]/body[1]/table[2]/caption[1]");
  CHECK_STR(w.g.path[5], "/html[1]/body[1]/table[2]/tr[1]/th[1]");
  CHECK_STR(w.g.path[6], "/html[1]/body[1]/table[2]/tr[1]/td[1]");
  CHECK_STR(w.g.path[7], "/html[1]/body[1]/table[2]/tr[1]/td[1]/table[1]/tr[1]/td[1]");
  CHECK_STR(w.g.path[8], "/html[1]/body[1]/table[2]/tr[1]/td[1]");
  CHECK_STR(w.g.path[9], "/html[1]");
  for (int i = 0; i < w.g.n; i++) CHECK_INT(w.g.block[i], -1); /* all under 40 chars */

  /* td alone: the caption and the th no longer cut, the tables neither. */
  walk_page(PAGE, "td", &w);
  static const char *want_td[] = {"Intro", "A b", "C d", "between Cap H", "x", "y", "z", "outro more"};
  CHECK_INT(w.g.n, 8);
  for (int i = 0; i < 8 && i < w.g.n; i++) CHECK_STR(w.g.text[i], want_td[i]);

  /* With div, the div's text is a chunk of its own. */
  walk_page(PAGE, "TD, div", &w);
  CHECK_INT(w.g.n, 9);
  if (w.g.n == 9) {
    CHECK_STR(w.g.text[7], "outro");
    CHECK_STR(w.g.text[8], "more");
    CHECK_STR(w.g.path[8], "/html[1]/body[1]/div[1]");
  }

  /* A cell that is a candidate block (>= 40 chars, 3 words) is reported as
   * that block, with the block's locator. */
  walk_page("<html><body><table><tr><td><div>The quick brown fox jumps over the lazy dog twice</div></td>"
            "<td>short</td></tr></table></body></html>",
            NULL, &w);
  CHECK_INT(w.g.n, 2);
  CHECK(w.g.block[0] >= 0);
  CHECK_STR(w.g.path[0], "/html[1]/body[1]/table[1]/tr[1]/td[1]");
  CHECK_INT(w.g.block[1], -1);

  /* A page without text has no chunk; a page without tables one. */
  walk_page("<html><body><table><tr><td> </td></tr></table></body></html>", NULL, &w);
  CHECK_INT(w.g.n, 0);
  walk_page("<html><body><p>one</p><p>two</p></body></html>", NULL, &w);
  CHECK_INT(w.g.n, 1);
  CHECK_STR(w.g.text[0], "one two");
}

static void test_tags_option(void) {
  tbk_chunk_options o;
  tbk_chunk_options_init(&o);
  tbk_buf b = {0};
  CHECK_INT(tbk_chunk_tags_format(&o, &b), 0);
  CHECK_STR(b.data, "caption,table,tbody,td,tfoot,th,thead,tr");
  tbk_error err = {0};
  CHECK_INT(tbk_chunk_tags_parse(&o, "td,blink", &err), TBK_ERR_ARG);
  CHECK(strstr(err.msg, "blink") != NULL);
  CHECK_INT(tbk_chunk_tags_parse(&o, "script", &err), TBK_ERR_ARG); /* never visible */
  CHECK_INT(tbk_chunk_tags_parse(&o, " , ", &err), TBK_ERR_ARG);
  b.len = 0;
  CHECK_INT(tbk_chunk_tags_format(&o, &b), 0); /* a refused list changes nothing */
  CHECK_STR(b.data, "caption,table,tbody,td,tfoot,th,thead,tr");
  tbk_buf_free(&b);
}

static void test_threshold(void) {
  tbk_chunk_options o;
  tbk_chunk_options_init(&o);
  CHECK_INT(tbk_chunk_threshold(&o, 5), 3);  /* ceil(0.5) < 3 */
  CHECK_INT(tbk_chunk_threshold(&o, 30), 3); /* ceil(3.0), not 4 */
  CHECK_INT(tbk_chunk_threshold(&o, 31), 4);
  CHECK_INT(tbk_chunk_threshold(&o, 200), 20);
  o.df_frac = 0.8;
  CHECK_INT(tbk_chunk_threshold(&o, 5), 4);
  o.df = 2; /* absolute wins */
  CHECK_INT(tbk_chunk_threshold(&o, 500), 2);
}

/* ------------------------------------------------------------ a site */

/* Five pages, every text in a cell:
 *   Menu   all five pages, twice on page 1 (the second copy in a nested
 *          table at the bottom)               df 5
 *   Three  pages 1-3                          df 3
 *   Opt    pages 1-2                          df 2
 *   Body i one page each (3 words)            df 1
 *   Twice  twice on page 4                    df 1, repeated on its page
 * Words per page: 7 6 5 6 4 = 28, mean 5.6. */
static void site_page(int i, tbk_buf *b) {
  b->len = 0;
  CHECK_BUF(tbk_buf_puts(b, "<html><body><table><tr><td>Menu</td>"));
  if (i <= 2) CHECK_BUF(tbk_buf_puts(b, "<td>Opt</td>"));
  if (i <= 3) CHECK_BUF(tbk_buf_puts(b, "<td>Three</td>"));
  CHECK_BUF(tbk_buf_printf(b, "<td>Body %d text</td>", i));
  if (i == 4) CHECK_BUF(tbk_buf_puts(b, "<td>Twice</td><td>Twice</td>"));
  CHECK_BUF(tbk_buf_puts(b, "</tr></table>"));
  if (i == 1) CHECK_BUF(tbk_buf_puts(b, "<table><tr><td><table><tr><td>Menu</td></tr></table></td></tr></table>"));
  CHECK_BUF(tbk_buf_puts(b, "</body></html>"));
}

typedef struct run {
  tbk_chunk_stats st;
  tbk_buf jsonl, strip1;
  char labels[5][8][24]; /* label of chunk k of page i, "" beyond */
  int dup[5][8];
} run;

static int sink(void *ctx, const char *d, size_t n) { return tbk_buf_append(ctx, d, n); }

static int page_cb(void *ctx, const tbk_chunk_page *p) {
  run *r = ctx;
  for (size_t k = 0; k < p->n && k < 8; k++) {
    const tbk_chunk *x = &p->chunks[k];
    snprintf(r->labels[p->index][k], 24, "%s",
             x->label == TBK_LABEL_TEMPLATE  ? "template"
             : x->label == TBK_LABEL_CONTENT ? "content"
                                             : x->reason);
    r->dup[p->index][k] = x->dup;
  }
  if (p->index == 0) return tbk_chunk_page_strip(p, &r->strip1);
  return 0;
}

static void run_site(const tbk_chunk_options *o, run *r) {
  memset(r, 0, sizeof *r);
  tbk_chunker *c;
  tbk_error err = {0};
  CHECK_INT(tbk_chunker_new("s", o, &c, &err), TBK_OK);
  tbk_buf html = {0};
  for (int i = 1; i <= 5; i++) {
    site_page(i, &html);
    tbk_page *p = parse(html.data);
    char id[16]; /* room for any int: gcc checks the bound, not the loop */
    snprintf(id, sizeof id, "p%d", i);
    tbk_page_ref ref = {.site = "s", .page = id, .url = ""};
    CHECK_INT(tbk_chunker_add_page(c, &ref, p, &err), TBK_OK);
    tbk_page_free(p);
  }
  CHECK_INT(tbk_chunker_finish(c, sink, &r->jsonl, page_cb, r, &r->st, &err), TBK_OK);
  tbk_chunker_free(c);
  tbk_buf_free(&html);
}

static void test_site(void) {
  tbk_chunk_options o;
  tbk_chunk_options_init(&o);
  o.keep_text = 1;
  run r;
  run_site(&o, &r);
  CHECK_INT(r.st.pages, 5);
  CHECK_INT(r.st.chunks, 5 + 4 + 3 + 4 + 2); /* occurrences, pages 1-5 */
  CHECK_INT(r.st.keys, 3 + 5 + 1);           /* Menu Three Opt, 5 bodies, Twice; the nested Menu is Menu */
  CHECK_INT(r.st.threshold, 3);
  CHECK_INT(r.st.template_keys, 2); /* Menu, Three */
  CHECK_INT(r.st.templates, 6 + 3);
  CHECK_INT(r.st.contents, 5);
  CHECK_INT(r.st.ignored, 2 + 2); /* Opt twice (infrequent), Twice twice */
  CHECK_INT(r.st.words, 28);
  CHECK_INT(r.st.template_words, 9);
  CHECK_NEAR(r.st.atf, 2 / 5.6, 1e-12);
  CHECK_NEAR(r.st.template_share, 9 / 28.0, 1e-12);
  /* page 1: Menu Opt Three Body Menu */
  CHECK_STR(r.labels[0][0], "template");
  CHECK_STR(r.labels[0][1], "infrequent");
  CHECK_STR(r.labels[0][2], "template");
  CHECK_STR(r.labels[0][3], "content");
  CHECK_STR(r.labels[0][4], "template"); /* repeated on its page, still template */
  CHECK_INT(r.dup[0][0], 1);
  CHECK_INT(r.dup[0][4], 1);
  CHECK_INT(r.dup[0][2], 0);
  /* page 4: Menu Body Twice Twice */
  CHECK_STR(r.labels[3][2], "duplicate-in-page");
  CHECK_STR(r.labels[3][3], "duplicate-in-page");
  CHECK_STR(r.labels[3][1], "content");
  /* The strip pass keeps what is not template. */
  CHECK_STR(r.strip1.data, "Opt\nBody 1 text\n");
  /* Without --all the ignored chunks are left out: 9 + 5 lines. */
  size_t lines = 0;
  for (size_t i = 0; i < r.jsonl.len; i++) lines += r.jsonl.data[i] == '\n';
  CHECK_INT(lines, 14);
  CHECK(strstr(r.jsonl.data,
               "{\"site\":\"s\",\"page\":\"p1\",\"url\":\"\",\"method\":\"chunks\",\"chunk\":0,"
               "\"path\":\"/html[1]/body[1]/table[1]/tr[1]/td[1]\",\"tag\":\"td\",\"block\":0,") == r.jsonl.data);
  CHECK(
      strstr(r.jsonl.data, "\"df\":5,\"pages\":5,\"label\":\"template\",\"chars\":4,\"words\":1,\"text\":\"Menu\"}\n"));
  tbk_buf_free(&r.jsonl);
  tbk_buf_free(&r.strip1);

  /* --df 2: Opt joins the template; the strip of page 1 is its body. */
  o.df = 2;
  run_site(&o, &r);
  CHECK_INT(r.st.template_keys, 3);
  CHECK_STR(r.labels[0][1], "template");
  CHECK_STR(r.strip1.data, "Body 1 text\n");
  tbk_buf_free(&r.jsonl);
  tbk_buf_free(&r.strip1);

  /* --df-frac 0.8: ceil(4) = 4, Menu alone. */
  o.df = 0;
  o.df_frac = 0.8;
  run_site(&o, &r);
  CHECK_INT(r.st.template_keys, 1);
  CHECK_STR(r.labels[0][2], "infrequent");
  tbk_buf_free(&r.jsonl);
  tbk_buf_free(&r.strip1);

  /* --key text+path: the nested Menu of page 1 (html/body/table/tr/td/
   * table/tr/td) is its own key, on one page, once: content. */
  o.df_frac = 0.10;
  o.key = TBK_CHUNK_KEY_TEXT_PATH;
  o.emit_ignored = 1;
  run_site(&o, &r);
  CHECK_INT(r.st.keys, 10);
  CHECK_INT(r.st.template_keys, 2);
  CHECK_STR(r.labels[0][0], "template");
  CHECK_STR(r.labels[0][4], "content");
  CHECK_INT(r.dup[0][0], 0);
  lines = 0;
  for (size_t i = 0; i < r.jsonl.len; i++) lines += r.jsonl.data[i] == '\n';
  CHECK_INT(lines, 18); /* --all: every chunk */
  tbk_buf_free(&r.jsonl);
  tbk_buf_free(&r.strip1);
}

static void test_empty(void) {
  tbk_chunker *c;
  tbk_error err = {0};
  CHECK_INT(tbk_chunker_new("none", NULL, &c, &err), TBK_OK);
  tbk_chunk_stats st;
  memset(&st, 0xAB, sizeof st);
  CHECK_INT(tbk_chunker_finish(c, NULL, NULL, NULL, NULL, &st, &err), TBK_OK);
  CHECK_INT(st.pages, 0);
  CHECK_INT(st.chunks, 0);
  CHECK_NEAR(st.atf, 0, 0);
  tbk_chunker_free(c);
  tbk_chunker_free(NULL);
}

/* ttdr by hand: truth nodes A@p, A@q (the same text at two places), B@p;
 * discovered A@p, B@p, C@p: found 2 of 3, one extra place: (2 + 1) / 3. */
static void test_ttdr(void) {
  tbk_chunk_node ref[3];
  memset(ref, 0, sizeof ref);
  tbk_md5("A", 1, ref[0].md5);
  ref[0].tpath = "p";
  tbk_md5("A", 1, ref[1].md5);
  ref[1].tpath = "q";
  tbk_md5("B", 1, ref[2].md5);
  ref[2].tpath = "p";
  tbk_chunk_places *d = tbk_chunk_places_new();
  unsigned char m[16];
  tbk_md5("A", 1, m);
  CHECK_INT(tbk_chunk_places_add(d, m, "p"), 0);
  CHECK_INT(tbk_chunk_places_add(d, m, "p"), 0); /* once */
  tbk_md5("B", 1, m);
  CHECK_INT(tbk_chunk_places_add(d, m, "p"), 0);
  tbk_md5("C", 1, m);
  CHECK_INT(tbk_chunk_places_add(d, m, "p"), 0);
  CHECK_INT(tbk_chunk_places_count(d), 3);
  tbk_ttdr t = tbk_chunk_ttdr_nodes(d, ref, 3);
  CHECK_INT(t.nt, 3);
  CHECK_INT(t.found, 2);
  CHECK_INT(t.extra, 1);
  CHECK_NEAR(t.ttdr, 1.0, 1e-12);
  /* Against the places themselves: all found, nothing extra. */
  t = tbk_chunk_ttdr_places(d, d);
  CHECK_INT(t.found, 3);
  CHECK_INT(t.extra, 0);
  CHECK_NEAR(t.ttdr, 1.0, 1e-12);
  t = tbk_chunk_ttdr_nodes(d, ref, 0);
  CHECK(isnan(t.ttdr));
  tbk_chunk_places_free(d);

  tbk_agreement g = {.a = 40, .b = 50, .both = 30};
  double p, r, j;
  tbk_agreement_rates(&g, &p, &r, &j);
  CHECK_NEAR(p, 0.75, 1e-12);
  CHECK_NEAR(r, 0.6, 1e-12);
  CHECK_NEAR(j, 0.5, 1e-12); /* 30 / (40 + 50 - 30) */
  g = (tbk_agreement){0};
  tbk_agreement_rates(&g, &p, &r, &j);
  CHECK(isnan(p) && isnan(r) && isnan(j));

  double x[3] = {1, 2, 4}, y[3] = {0.5, NAN, 1.0};
  tbk_line_series ls = {.name = "a<b", .x = x, .y = y, .n = 3};
  tbk_buf svg = {0};
  tbk_error err = {0};
  CHECK_INT(tbk_line_svg(&ls, 1, "T & t", "x", "y", &svg, &err), TBK_OK);
  CHECK(strstr(svg.data, "a&lt;b") && strstr(svg.data, "T &amp; t") && strstr(svg.data, "</svg>"));
  /* two points drawn (the NaN is skipped) */
  const char *pl = strstr(svg.data, "points=\"");
  CHECK(pl != NULL);
  if (pl) {
    int spaces = 0;
    for (pl += 8; *pl != '"'; pl++) spaces += *pl == ' ';
    CHECK_INT(spaces, 2);
  }
  tbk_buf_free(&svg);
}

int main(void) {
  test_ttdr();
  test_boundaries();
  test_tags_option();
  test_threshold();
  test_site();
  test_empty();
  return check_report();
}
