/* Per-site auto-labelling: the template threshold, and a hand-built site of
 * twelve pages whose every block has a known label: template (df >=
 * threshold), content (top-most block whose blocks below are all unique),
 * or ignored with its reason. */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

#define NPAGES 12

static void test_template_df(void) {
  tbk_label_options o;
  tbk_label_options_init(&o);
  CHECK_NEAR(o.template_share, 0.10, 1e-12);
  CHECK_INT(o.template_min_df, 3);
  CHECK_INT(o.min_pages, 10);
  CHECK_INT(o.emit_ignored, 0);
  CHECK_INT(tbk_template_df(&o, 30), 3);
  CHECK_INT(tbk_template_df(&o, 31), 4);
  CHECK_INT(tbk_template_df(&o, 10), 3);
  CHECK_INT(tbk_template_df(&o, 1), 3);
  CHECK_INT(tbk_template_df(&o, 0), 3);
  CHECK_INT(tbk_template_df(&o, 40), 4);
  CHECK_INT(tbk_template_df(&o, 41), 5);
  CHECK_INT(tbk_template_df(&o, 200), 20);
  CHECK_INT(tbk_template_df(&o, 201), 21);
  CHECK_INT(tbk_template_df(&o, 1000), 100);
  o.template_share = 0.25;
  o.template_min_df = 2;
  CHECK_INT(tbk_template_df(&o, 10), 3); /* ceil(2.5) */
  CHECK_INT(tbk_template_df(&o, 4), 2);  /* ceil(1.0) = 1 < min 2 */
  CHECK_INT(tbk_template_df(&o, 12), 3);
  CHECK_INT(tbk_template_df(&o, 13), 4);
  o.template_share = 0.5;
  o.template_min_df = 5;
  CHECK_INT(tbk_template_df(&o, 20), 10);
  CHECK_INT(tbk_template_df(&o, 6), 5);
  o.template_share = 0.0;
  CHECK_INT(tbk_template_df(&o, 500), 5);
  o.template_share = 1.0;
  o.template_min_df = 2;
  CHECK_INT(tbk_template_df(&o, 7), 7);
}

/* ------------------------------------------------------------ the site */

#define NAV "Home News Sports Weather Opinion Archive Contact About us"
#define BOX "Subscribe to our newsletter for weekly updates and special offers"
#define FOOT "Copyright example site, all rights reserved, privacy and terms"
#define THREE "Seasonal notice shown on three pages of this site only for testing"
#define TWO "Special announcement shown on exactly two pages of this small site"

static void page_html(int i, tbk_buf *b) {
  b->len = 0;
  CHECK_BUF(tbk_buf_puts(b, "<html><body>\n"));
  /* div[1]: navigation, every page. */
  CHECK_BUF(tbk_buf_puts(
      b, "<div id=nav><ul><li>" NAV "</li><li>Login Register Help Sitemap Search the site</li></ul></div>\n"));
  /* div[2]: the article: unique title and paragraphs in a unique div. */
  CHECK_BUF(tbk_buf_printf(b,
                           "<div id=article><h1>Article number %d about topic t%d with headline words</h1>\n"
                           "<div class=p>First paragraph of article %d speaks of q%d r%d s%d at length.</div>\n"
                           "<div class=p>Second paragraph of article %d adds u%d v%d w%d and more.</div></div>\n",
                           i, i, i, i, i, i, i, i, i, i));
  /* div[3]: unique text next to a template box: the container is not
   * content, its unique child is. */
  CHECK_BUF(tbk_buf_printf(b,
                           "<div id=mixed><div>Mixed unique remark %d: x%d y%d z%d are only here.</div>"
                           "<div>" BOX "</div></div>\n",
                           i, i, i, i));
  /* div[4]: one unique text twice on the page. */
  CHECK_BUF(tbk_buf_printf(b,
                           "<div id=dup><div>Repeated line of page %d printed twice on purpose.</div>"
                           "<div>Repeated line of page %d printed twice on purpose.</div></div>\n",
                           i, i));
  /* div[5]: on three pages (df 3 = threshold) or two pages (df 2), else
   * page-specific. */
  if (i < 3) CHECK_BUF(tbk_buf_puts(b, "<div id=three>" THREE "</div>\n"));
  else if (i < 5) CHECK_BUF(tbk_buf_puts(b, "<div id=two>" TWO "</div>\n"));
  else
    CHECK_BUF(tbk_buf_printf(b, "<div id=own>Own sidebar note written for page %d, m%d n%d o%d.</div>\n", i, i, i, i));
  /* div[6]: footer; page 7 prints it twice (header and footer). */
  CHECK_BUF(tbk_buf_puts(b, "<div id=foot>" FOOT "</div>\n"));
  if (i == 7) CHECK_BUF(tbk_buf_puts(b, "<div id=foot2>" FOOT "</div>\n"));
  CHECK_BUF(tbk_buf_puts(b, "</body></html>\n"));
}

typedef struct sink {
  tbk_buf out;
  int fail_after; /* fail the n-th write (1-based), 0 = never */
  int calls;
} sink;

static int sink_write(void *ctx, const char *data, size_t n) {
  sink *s = ctx;
  s->calls++;
  if (s->fail_after && s->calls >= s->fail_after) return 1;
  return tbk_buf_append(&s->out, data, n);
}

typedef struct run_result {
  tbk_status st;
  tbk_site_stats stats;
  size_t blocks; /* candidates the pages had */
  double page_chars;
  double template_chars; /* outermost template blocks, by design */
} run_result;

static run_result run_site(const char *site, int emit_ignored, sink *s, int npages) {
  run_result r = {0};
  tbk_label_options lo;
  tbk_label_options_init(&lo);
  lo.emit_ignored = emit_ignored;
  tbk_labeler *lab = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_labeler_new(site, &lo, &lab, &err), TBK_OK);
  if (!lab) {
    r.st = err.code;
    return r;
  }
  tbk_page_options po;
  tbk_page_options_init(&po);
  tbk_buf html = {0};
  for (int i = 0; i < npages; i++) {
    page_html(i, &html);
    tbk_page *p = NULL;
    CHECK_INT(tbk_page_parse(html.data, html.len, &po, &p, &err), TBK_OK);
    if (!p) continue;
    char id[64], url[96];
    snprintf(id, sizeof id, "pages/%02d.html", i);
    snprintf(url, sizeof url, "http://example.org/%02d", i);
    tbk_page_ref ref = {0};
    ref.site = (char *)site;
    ref.page = id;
    ref.url = url;
    ref.file = id;
    ref.gold = "";
    CHECK_INT(tbk_labeler_add_page(lab, &ref, p, &err), TBK_OK);
    r.blocks += tbk_page_block_count(p);
    size_t tl;
    const char *t = tbk_page_text(p, &tl);
    r.page_chars += (double)tbk_utf8_length(t, tl);
    for (size_t k = 0; k < tbk_page_block_count(p); k++) {
      const tbk_block *b = tbk_page_block(p, k);
      if (b->text_len >= 5 &&
          ((!memcmp(b->text, "Home ", 5) && !strcmp(b->tag, "div")) || !memcmp(b->text, "Subsc", 5) ||
           (i != 7 && !memcmp(b->text, "Copyr", 5)) || !memcmp(b->text, "Seaso", 5)))
        r.template_chars += (double)b->text_chars;
    }
    tbk_page_free(p);
  }
  tbk_buf_free(&html);
  r.st = tbk_labeler_finish(lab, sink_write, s, &r.stats, &err);
  tbk_labeler_free(lab);
  return r;
}

/* The JSON line of block PATH on page I (NULL if not emitted). */
static const char *find_line(const tbk_buf *out, int i, const char *path, char *line, size_t cap) {
  char key[256];
  snprintf(key, sizeof key, "\"page\":\"pages/%02d.html\",\"url\":\"http://example.org/%02d\",\"path\":\"%s\",", i, i,
           path);
  const char *hit = out->data ? strstr(out->data, key) : NULL;
  if (!hit) return NULL;
  const char *start = hit;
  while (start > out->data && start[-1] != '\n') start--;
  const char *end = strchr(hit, '\n');
  size_t n = (size_t)(end - start);
  if (n >= cap) n = cap - 1;
  memcpy(line, start, n);
  line[n] = '\0';
  return line;
}

static void expect(const tbk_buf *out, int page, const char *path, const char *label, const char *reason, int df,
                   int line_no) {
  char line[4096], want[128];
  check_count++;
  if (!find_line(out, page, path, line, sizeof line)) {
    check_failures++;
    fprintf(stderr, "%s:%d: page %d %s: no output line\n", __FILE__, line_no, page, path);
    return;
  }
  snprintf(want, sizeof want, "\"df\":%d,\"pages\":%d,\"label\":\"%s\"%s%s%s,", df, NPAGES, label,
           reason ? ",\"reason\":\"" : "", reason ? reason : "", reason ? "\"" : "");
  if (!strstr(line, want)) {
    check_failures++;
    fprintf(stderr, "%s:%d: page %d %s: want %s in\n  %s\n", __FILE__, line_no, page, path, want, line);
  }
}
#define EXPECT(page, path, label, reason, df) expect(&s.out, page, path, label, reason, df, __LINE__)
#define BODY "/html[1]/body[1]"

static size_t count_lines(const tbk_buf *b, const char *needle) {
  size_t n = 0;
  for (const char *p = b->data; p && (p = strstr(p, needle)); p++) n++;
  return n;
}

static void test_site(void) {
  sink s = {0};
  run_result r = run_site("example.org", 1, &s, NPAGES);
  CHECK_INT(r.st, TBK_OK);
  for (int i = 0; i < NPAGES; i++) {
    EXPECT(i, BODY "/div[1]", "template", NULL, NPAGES); /* nav (div > ul folded) */
    EXPECT(i, BODY "/div[1]/ul[1]/li[1]", "template", NULL, NPAGES);
    EXPECT(i, BODY "/div[1]/ul[1]/li[2]", "template", NULL, NPAGES);
    EXPECT(i, BODY "/div[2]", "content", NULL, 1); /* the article */
    EXPECT(i, BODY "/div[2]/h1[1]", "ignored", "not-top-most", 1);
    EXPECT(i, BODY "/div[2]/div[1]", "ignored", "not-top-most", 1);
    EXPECT(i, BODY "/div[2]/div[2]", "ignored", "not-top-most", 1);
    EXPECT(i, BODY "/div[3]", "ignored", "non-unique-below", 1);
    EXPECT(i, BODY "/div[3]/div[1]", "content", NULL, 1);
    EXPECT(i, BODY "/div[3]/div[2]", "template", NULL, NPAGES);
    EXPECT(i, BODY "/div[4]", "ignored", "non-unique-below", 1);
    EXPECT(i, BODY "/div[4]/div[1]", "ignored", "duplicate-in-page", 1);
    EXPECT(i, BODY "/div[4]/div[2]", "ignored", "duplicate-in-page", 1);
    if (i < 3) EXPECT(i, BODY "/div[5]", "template", NULL, 3);
    else if (i < 5) EXPECT(i, BODY "/div[5]", "ignored", "infrequent", 2);
    else EXPECT(i, BODY "/div[5]", "content", NULL, 1);
    if (i == 7) {
      EXPECT(i, BODY "/div[6]", "ignored", "duplicate-in-page", NPAGES);
      EXPECT(i, BODY "/div[7]", "ignored", "duplicate-in-page", NPAGES);
    } else {
      EXPECT(i, BODY "/div[6]", "template", NULL, NPAGES);
    }
  }
  /* Counts: per page nav(3) article(4) mixed(3) dup(3) div5(1) foot(1), plus
   * the second footer on page 7; templates: nav(3) box foot per page, the
   * three-page notice, less page 7's footer. */
  size_t templates = NPAGES * 5 + 3 - 1, contents = NPAGES * 2 + (NPAGES - 5);
  CHECK_INT(r.blocks, NPAGES * 15 + 1);
  CHECK_INT(r.stats.pages, NPAGES);
  CHECK_INT(r.stats.bad_pages, 0);
  CHECK_INT(r.stats.candidates, r.blocks);
  CHECK_INT(r.stats.templates, templates);
  CHECK_INT(r.stats.contents, contents);
  CHECK_INT(r.stats.ignored, r.blocks - templates - contents);
  CHECK_INT(count_lines(&s.out, "\n"), r.blocks); /* --all: every block */
  CHECK_INT(count_lines(&s.out, "\"label\":\"template\""), templates);
  CHECK_INT(count_lines(&s.out, "\"label\":\"content\""), contents);
  CHECK_NEAR(r.stats.template_text_share, r.template_chars / r.page_chars, 1e-9);
  /* Every line is one JSON object with the fields in a fixed order. */
  for (const char *p = s.out.data; p && *p;) {
    const char *nl = strchr(p, '\n');
    CHECK(nl != NULL);
    if (!nl) break;
    CHECK(strncmp(p, "{\"site\":\"example.org\",\"page\":\"pages/", 36) == 0);
    CHECK(nl[-1] == '}');
    CHECK(memmem(p, (size_t)(nl - p), "\"md5\":\"", 7) != NULL);
    CHECK(memmem(p, (size_t)(nl - p), ",\"chars\":", 9) != NULL);
    CHECK(memmem(p, (size_t)(nl - p), ",\"text\":\"", 9) != NULL);
    p = nl + 1;
  }
  /* The md5 field is the fingerprint of the full text. */
  char line[4096], hex[33];
  unsigned char d[16];
  tbk_md5(FOOT, strlen(FOOT), d);
  tbk_md5_hex(d, hex);
  CHECK(find_line(&s.out, 0, BODY "/div[6]", line, sizeof line) && strstr(line, hex));
  CHECK(strstr(line, "\"text\":\"" FOOT "\"}") != NULL);
  /* Long texts are cut to a short snippet (at a character boundary). */
  CHECK(find_line(&s.out, 0, BODY "/div[2]", line, sizeof line) != NULL);
  const char *snip = strstr(line, "\"text\":\"");
  CHECK(snip && strlen(snip) <= 8 + 80 + 2);

  /* Same input, same order: byte-identical output. */
  sink s2 = {0};
  run_result r2 = run_site("example.org", 1, &s2, NPAGES);
  CHECK_INT(r2.st, TBK_OK);
  CHECK(s.out.len == s2.out.len && memcmp(s.out.data, s2.out.data, s.out.len) == 0);
  tbk_buf_free(&s2.out);

  /* Without emit_ignored only template and content lines, and no reason. */
  sink s3 = {0};
  run_result r3 = run_site("example.org", 0, &s3, NPAGES);
  CHECK_INT(r3.st, TBK_OK);
  CHECK_INT(count_lines(&s3.out, "\n"), templates + contents);
  CHECK_INT(count_lines(&s3.out, "\"reason\""), 0);
  CHECK_INT(r3.stats.ignored, r.stats.ignored); /* still counted */
  tbk_buf_free(&s3.out);
  tbk_buf_free(&s.out);

  /* A failing writer is an I/O error, and writing stops. */
  sink s4 = {.fail_after = 5};
  run_result r4 = run_site("example.org", 0, &s4, NPAGES);
  CHECK_INT(r4.st, TBK_ERR_IO);
  CHECK_INT(s4.calls, 5);
  tbk_buf_free(&s4.out);

  /* The site name is JSON-escaped. */
  sink s5 = {0};
  run_result r5 = run_site("we\"ird\\site\x01é", 0, &s5, 3);
  CHECK_INT(r5.st, TBK_OK);
  CHECK(s5.out.data && strncmp(s5.out.data, "{\"site\":\"we\\\"ird\\\\site\\u0001é\",", 30) == 0);
  /* Three pages: threshold is the minimum df 3, so nav is template. */
  CHECK(s5.out.data && strstr(s5.out.data, "\"df\":3,\"pages\":3,\"label\":\"template\""));
  tbk_buf_free(&s5.out);
}

/* One page alone: nothing repeats, the top-level blocks are content. */
static void test_single_page(void) {
  sink s = {0};
  run_result r = run_site("one", 1, &s, 1);
  CHECK_INT(r.st, TBK_OK);
  CHECK_INT(r.stats.pages, 1);
  CHECK_INT(r.stats.templates, 0);
  /* nav, article, mixed, div5 and foot are top-most unique; dup is not. */
  CHECK_INT(r.stats.contents, 5);
  CHECK_NEAR(r.stats.template_text_share, 0.0, 1e-12);
  tbk_buf_free(&s.out);
}

/* Pages without any block before the others (a site's error pages, say):
 * nothing to sort or write for them, and the rest is labelled as usual. */
static void test_blockless_pages(void) {
  tbk_labeler *lab = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_labeler_new("sparse", NULL, &lab, &err), TBK_OK);
  if (!lab) return;
  tbk_buf html = {0};
  for (int i = 0; i < 5; i++) {
    if (i < 2) {
      html.len = 0;
      CHECK_BUF(tbk_buf_puts(&html, "<html><body><p>Not found.</p></body></html>"));
    } else {
      page_html(i, &html);
    }
    tbk_page *p = NULL;
    CHECK_INT(tbk_page_parse(html.data, html.len, NULL, &p, &err), TBK_OK);
    if (!p) continue;
    CHECK_INT(tbk_page_block_count(p), i < 2 ? 0 : 15);
    char id[32];
    snprintf(id, sizeof id, "p%d", i);
    tbk_page_ref ref = {.site = "sparse", .page = id, .url = "", .file = id, .gold = ""};
    CHECK_INT(tbk_labeler_add_page(lab, &ref, p, &err), TBK_OK);
    tbk_page_free(p);
  }
  sink s = {0};
  tbk_site_stats st;
  CHECK_INT(tbk_labeler_finish(lab, sink_write, &s, &st, &err), TBK_OK);
  CHECK_INT(st.pages, 5);
  CHECK_INT(st.candidates, 45);
  CHECK_INT(st.templates, 3 * 5); /* nav(3), box, footer on all three pages */
  CHECK(s.out.data && !strstr(s.out.data, "\"page\":\"p0\""));
  tbk_buf_free(&s.out);
  tbk_buf_free(&html);
  tbk_labeler_free(lab);
}

static void test_empty(void) {
  tbk_labeler *lab = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_labeler_new("empty", NULL, &lab, &err), TBK_OK);
  sink s = {0};
  tbk_site_stats st;
  memset(&st, 0xAB, sizeof st);
  CHECK_INT(tbk_labeler_finish(lab, sink_write, &s, &st, &err), TBK_OK);
  CHECK_INT(st.pages, 0);
  CHECK_INT(st.candidates, 0);
  CHECK_INT(s.out.len, 0);
  tbk_labeler_free(lab);
  tbk_labeler_free(NULL);
}

int main(void) {
  test_template_df();
  test_site();
  test_single_page();
  test_blockless_pages();
  test_empty();
  return check_report();
}
