#define _GNU_SOURCE /* memmem */
/* Renderings leave the page as it was: the HTML renderings (template
 * blocks or content units removed, or every one annotated) can be called
 * again on the same page, in any order with the other renderings, and
 * give the same bytes every time. They once freed the removed DOM nodes
 * that the page's tables still pointed at: a second rendering read freed
 * memory and freed it again. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

static const char PAGE[] =
    "<html><head><title>River library reopens - Millbrook Gazette</title></head><body>"
    "<div id=\"top\"><ul class=\"main-nav\"><li title=\"Front page\"><a href=\"/\">Home</a></li><li><a "
    "href=\"/local\">Local news</a></li>"
    "<li><a href=\"/sports\">Sports and weather</a></li><li><a href=\"/opinion\">Opinion</a></li></ul></div>"
    "<div class=\"article\"><h1>River library reopens after flood</h1>"
    "<p>The Riverside branch of the library reopened on Friday morning, eight months after the river "
    "spilled into its basement.</p>"
    "<div class=\"box\">Related reading from the newsroom archive this week"
    "<div>Volunteers moved forty thousand books back to the shelves, the director said.</div></div>"
    "</div>"
    "<div class=\"footer\"><p>&copy; 2026 Millbrook Gazette. All rights reserved, every one of them.</p></div>"
    "</body></html>";

static int contains(const tbk_buf *b, const char *s) {
  return b->data && memmem(b->data, b->len, s, strlen(s)) != NULL;
}

static int same(const tbk_buf *a, const tbk_buf *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static size_t count(const tbk_buf *b, const char *s) {
  size_t n = 0, k = strlen(s);
  for (const char *p = b->data; p && (p = memmem(p, b->len - (size_t)(p - b->data), s, k)); p += k) n++;
  return n;
}

static int block_has(const tbk_page *p, size_t i, const char *s) {
  const tbk_block *k = tbk_page_block(p, i);
  return memmem(k->text, k->text_len, s, strlen(s)) != NULL;
}

/* Template stage: the navigation, the footer and the box's own lead are
 * template; the box keeps its nested story, so only the box's own
 * text goes. */
static void test_blocks(const tbk_page *p) {
  size_t nb = tbk_page_block_count(p);
  double *probs = calloc(nb ? nb : 1, sizeof *probs);
  for (size_t i = 0; i < nb; i++)
    probs[i] = block_has(p, i, "Sports") || block_has(p, i, "rights reserved") ||
                       (block_has(p, i, "Related reading") && !block_has(p, i, "River library"))
                   ? 0.9
                   : 0.1;
  tbk_buf text1 = {0}, text2 = {0}, html1 = {0}, html2 = {0}, ann1 = {0}, ann2 = {0};
  CHECK_INT(tbk_render_text(p, probs, 0.5, &text1, NULL), TBK_OK);
  CHECK_INT(tbk_render_html(p, probs, 0.5, 0, &html1), TBK_OK);
  CHECK(contains(&html1, "The Riverside branch"));
  CHECK(contains(&html1, "Volunteers moved"));
  CHECK(contains(&html1, "<div class=\"box\"><div>Volunteers"));
  CHECK(!contains(&html1, "Related reading"));
  CHECK(!contains(&html1, "Sports"));
  CHECK(!contains(&html1, "rights reserved"));
  CHECK(!contains(&html1, "data-tbk-template"));
  /* html then html, then text: the same bytes */
  CHECK_INT(tbk_render_html(p, probs, 0.5, 0, &html2), TBK_OK);
  CHECK(same(&html1, &html2));
  CHECK_INT(tbk_render_text(p, probs, 0.5, &text2, NULL), TBK_OK);
  CHECK(same(&text1, &text2));
  CHECK(contains(&text2, "Volunteers moved") && !contains(&text2, "Sports"));
  /* annotated: every block marked, nothing removed, the marks do not
   * stay behind for the next rendering */
  CHECK_INT(tbk_render_html(p, probs, 0.5, 1, &ann1), TBK_OK);
  CHECK_INT(count(&ann1, "data-tbk-template=\""), nb);
  CHECK(contains(&ann1, "data-tbk-template=\"0.900\""));
  CHECK(contains(&ann1, "data-tbk-template=\"0.100\""));
  CHECK(contains(&ann1, "Sports") && contains(&ann1, "Related reading"));
  /* ... and shown (#32): each block's decision, a tooltip, one style (in
   * the head) and one legend (whose two swatches are marked as well) */
  size_t n_tmpl = 0;
  for (size_t i = 0; i < nb; i++) n_tmpl += probs[i] >= 0.5;
  CHECK(n_tmpl > 0 && n_tmpl < nb);
  CHECK_INT(count(&ann1, "data-tbk-decision=\"removed\""), n_tmpl + 1);
  CHECK_INT(count(&ann1, "data-tbk-decision=\"kept\""), nb - n_tmpl + 1);
  CHECK(contains(&ann1,
                 "data-tbk-template=\"0.900\" data-tbk-decision=\"removed\" title=\"tbk: removed, p_template 0.900\""));
  CHECK(
      contains(&ann1, "data-tbk-template=\"0.100\" data-tbk-decision=\"kept\" title=\"tbk: kept, p_template 0.100\""));
  CHECK_INT(count(&ann1, "<style id=\"tbk-annotate-style\">"), 1);
  CHECK(contains(&ann1, "</style></head>"));
  CHECK_INT(count(&ann1, "<div id=\"tbk-legend\""), 1);
  CHECK(contains(&ann1, "template stage"));
  CHECK(!contains(&html1, "tbk-legend") && !contains(&html1, "tbk-annotate") && !contains(&html1, "title=\"tbk"));
  CHECK_INT(tbk_render_html(p, probs, 0.5, 1, &ann2), TBK_OK);
  CHECK(same(&ann1, &ann2));
  html2.len = 0;
  CHECK_INT(tbk_render_html(p, probs, 0.5, 0, &html2), TBK_OK);
  CHECK(same(&html1, &html2));
  /* the page's text and blocks are still the page's */
  size_t len;
  const char *t = tbk_page_text(p, &len);
  CHECK(memmem(t, len, "Sports and weather", 18) != NULL);
  tbk_buf_free(&text1);
  tbk_buf_free(&text2);
  tbk_buf_free(&html1);
  tbk_buf_free(&html2);
  tbk_buf_free(&ann1);
  tbk_buf_free(&ann2);
  free(probs);
}

/* Content stage: the navigation's and the footer's units are removed. */
static void test_units(const tbk_page *p) {
  tbk_units *ux = NULL;
  CHECK_INT(tbk_units_new(NULL, &ux, NULL), TBK_OK);
  if (!ux) return;
  CHECK_INT(tbk_units_page(ux, p, NULL, NULL), TBK_OK);
  size_t n = tbk_units_count(ux);
  CHECK(n > 4);
  unsigned char *keep = malloc(n ? n : 1);
  double *up = malloc((n ? n : 1) * sizeof *up);
  for (size_t i = 0; i < n; i++) {
    tbk_unit u;
    CHECK_INT(tbk_units_get(ux, p, i, &u), 0);
    int nav = memmem(u.text, u.text_len, "Home", 4) || memmem(u.text, u.text_len, "Local", 5) ||
              memmem(u.text, u.text_len, "Sports", 6) || memmem(u.text, u.text_len, "rights", 6);
    keep[i] = !nav;
    up[i] = nav ? 0.8 : 0.2;
  }
  tbk_content_options co;
  tbk_content_options_init(&co);
  tbk_buf text1 = {0}, text2 = {0}, html1 = {0}, html2 = {0}, ann1 = {0}, ann2 = {0};
  CHECK_INT(tbk_render_units_text(p, ux, keep, &co, &text1, NULL), TBK_OK);
  CHECK_INT(tbk_render_units_html(p, ux, keep, up, 0, &html1), TBK_OK);
  CHECK(contains(&html1, "The Riverside branch") && contains(&html1, "Related reading"));
  CHECK(!contains(&html1, "Sports") && !contains(&html1, "Local news") && !contains(&html1, "rights reserved"));
  CHECK(contains(&html1, "<a href=\"/sports\"></a>")); /* the text goes, the element stays */
  CHECK_INT(tbk_render_units_html(p, ux, keep, up, 0, &html2), TBK_OK);
  CHECK(same(&html1, &html2));
  CHECK_INT(tbk_render_units_text(p, ux, keep, &co, &text2, NULL), TBK_OK);
  CHECK(same(&text1, &text2));
  CHECK_INT(tbk_render_units_html(p, ux, keep, up, 1, &ann1), TBK_OK);
  CHECK(contains(&ann1, "data-tbk-content=\"0.200\"") && contains(&ann1, "data-tbk-content=\"0.800\""));
  CHECK(contains(&ann1, "Sports"));
  /* the decisions shown: a title of the element's own is kept after the
   * tooltip's; the legend names the stage */
  CHECK(contains(&ann1, "<li title=\"tbk: removed, p_content 0.200 | Front page\" data-tbk-content=\"0.200\" "
                        "data-tbk-decision=\"removed\">"));
  CHECK(contains(&ann1, "data-tbk-decision=\"kept\" title=\"tbk: kept, p_content 0.800\""));
  CHECK(contains(&ann1, "content stage") && count(&ann1, "<div id=\"tbk-legend\"") == 1);
  CHECK(contains(&html1, "<li title=\"Front page\">") && !contains(&html1, "tbk-legend"));
  CHECK_INT(tbk_render_units_html(p, ux, keep, up, 1, &ann2), TBK_OK);
  CHECK(same(&ann1, &ann2));
  html2.len = 0;
  CHECK_INT(tbk_render_units_html(p, ux, keep, up, 0, &html2), TBK_OK);
  CHECK(same(&html1, &html2));
  /* the units of the page, segmented again after the renderings: the same */
  CHECK_INT(tbk_units_page(ux, p, NULL, NULL), TBK_OK);
  CHECK_INT(tbk_units_count(ux), n);
  tbk_buf_free(&text1);
  tbk_buf_free(&text2);
  tbk_buf_free(&html1);
  tbk_buf_free(&html2);
  tbk_buf_free(&ann1);
  tbk_buf_free(&ann2);
  free(keep);
  free(up);
  tbk_units_free(ux);
}

/* What a sink received: the bytes, and how many writes brought them. */
typedef struct received {
  tbk_buf all;
  size_t writes, partial; /* partial: writes not ending a line */
  int fail;               /* make the next write fail */
} received;

static int receive(void *ctx, const char *data, size_t n) {
  received *r = ctx;
  if (r->fail) return 1;
  r->writes++;
  r->partial += !n || data[n - 1] != '\n';
  return tbk_buf_append(&r->all, data, n);
}

/* One rendering into a buffer with a sink that writes at every line end it
 * can, then the rest: the same bytes as into a plain buffer, in more than
 * one write, each of whole lines. The text rendering once kept an offset
 * into its output across such writes. */
static void check_sunk(const tbk_page *p, const tbk_units *ux, const unsigned char *keep, const double *probs,
                       int fmt) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  received r = {{0}, 0, 0, 0};
  tbk_buf_sink sink = {receive, &r, 1};
  tbk_buf plain = {0}, sunk = {.sink = &sink};
  for (int k = 0; k < 2; k++) {
    tbk_buf *b = k ? &sunk : &plain;
    /* a header that fills the buffer: the rendering's first line finds it
     * full, so the sink is used from the start */
    CHECK_INT(tbk_buf_puts(b, "==> page"), 0);
    while (b->len + 2 < b->cap) CHECK_INT(tbk_buf_append(b, " ", 1), 0);
    CHECK_INT(tbk_buf_append(b, "\n", 1), 0);
    tbk_status st = fmt == TBK_FORMAT_TEXT ? (ux ? tbk_render_units_text(p, ux, keep, &co, b, NULL)
                                                 : tbk_render_text(p, probs, 0.5, b, NULL))
                                           : (ux ? tbk_render_units_jsonl(p, ux, "pg", probs, keep, b)
                                                 : tbk_render_jsonl(p, "pg", probs, 0.5, b));
    CHECK_INT(st, TBK_OK);
  }
  CHECK(r.writes > 1);
  CHECK(sunk.len < plain.len);
  CHECK_INT(tbk_buf_drain(&sunk), 0);
  CHECK_INT(sunk.len, 0);
  CHECK(same(&r.all, &plain));
  CHECK_INT(r.partial, 0);
  /* a write that fails fails the append that made it */
  r.fail = 1;
  CHECK_INT(tbk_buf_puts(&sunk, "line\n"), 0);
  sunk.len = sunk.cap - 1;
  sunk.data[sunk.len - 1] = '\n';
  CHECK_INT(tbk_buf_puts(&sunk, "more"), -1);
  tbk_buf_free(&plain);
  tbk_buf_free(&sunk);
  tbk_buf_free(&r.all);
}

static void test_sink(const tbk_page *p) {
  size_t nb = tbk_page_block_count(p);
  double *probs = calloc(nb ? nb : 1, sizeof *probs);
  for (size_t i = 0; i < nb; i++)
    probs[i] = block_has(p, i, "Sports") || block_has(p, i, "rights reserved") ? 0.9 : 0.1;
  check_sunk(p, NULL, NULL, probs, TBK_FORMAT_TEXT);
  check_sunk(p, NULL, NULL, probs, TBK_FORMAT_JSONL);
  tbk_units *ux = NULL;
  CHECK_INT(tbk_units_new(NULL, &ux, NULL), TBK_OK);
  if (ux && tbk_units_page(ux, p, NULL, NULL) == TBK_OK) {
    size_t n = tbk_units_count(ux);
    unsigned char *keep = malloc(n ? n : 1);
    double *up = malloc((n ? n : 1) * sizeof *up);
    for (size_t i = 0; i < n; i++) {
      keep[i] = i % 3 != 0;
      up[i] = keep[i] ? 0.2 : 0.8;
    }
    check_sunk(p, ux, keep, up, TBK_FORMAT_TEXT);
    check_sunk(p, ux, keep, up, TBK_FORMAT_JSONL);
    free(keep);
    free(up);
  }
  tbk_units_free(ux);
  free(probs);
}

/* Lines that end in spaces the text rendering trims, and runs that meet
 * with two spaces: the sink writes many times in the middle of a line, and
 * the rendering must still trim the line it is making. */
static void test_sink_lines(void) {
  tbk_buf html = {0};
  CHECK_INT(tbk_buf_puts(&html, "<html><body><ul>"), 0);
  for (int i = 0; i < 300; i++)
    CHECK_INT(tbk_buf_printf(&html, "<li>Line %d of the list has a few words <b> and </b> a tail </li>\n", i), 0);
  CHECK_INT(tbk_buf_puts(&html, "</ul></body></html>"), 0);
  tbk_page *p = NULL;
  CHECK_INT(tbk_page_parse(html.data, html.len, NULL, &p, NULL), TBK_OK);
  if (p) {
    size_t nb = tbk_page_block_count(p);
    CHECK(nb > 100);
    double *probs = calloc(nb, sizeof *probs);
    check_sunk(p, NULL, NULL, probs, TBK_FORMAT_TEXT);
    free(probs);
  }
  tbk_page_free(p);
  tbk_buf_free(&html);
}

int main(void) {
  tbk_page *p = NULL;
  CHECK_INT(tbk_page_parse(PAGE, sizeof PAGE - 1, NULL, &p, NULL), TBK_OK);
  if (!p) return check_report();
  test_blocks(p);
  test_units(p);
  /* one page, both stages' renderings in turn */
  test_blocks(p);
  test_sink(p);
  test_sink_lines();
  tbk_page_free(p);
  return check_report();
}
