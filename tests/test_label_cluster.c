/* Labelling with template clusters (tbk-label --clusters): the cluster
 * threshold, and a hand-built site of 17 pages, 12 articles (cluster 5), 4
 * listings (cluster 40) and one page given no cluster, whose every block
 * has a known label: template by its df within its cluster, content only
 * when unique over the whole site. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

static void test_cluster_template_df(void) {
  tbk_label_options o;
  tbk_label_options_init(&o); /* share 0.10, min df 3, min pages 10 */
  /* Raised to min_pages (10), capped at a majority, at least min df. */
  CHECK_INT(tbk_cluster_template_df(&o, 0), 3);
  CHECK_INT(tbk_cluster_template_df(&o, 1), 3);   /* majority 1 < min df 3 */
  CHECK_INT(tbk_cluster_template_df(&o, 4), 3);   /* majority 3 */
  CHECK_INT(tbk_cluster_template_df(&o, 12), 7);  /* majority 7 < 10 */
  CHECK_INT(tbk_cluster_template_df(&o, 13), 7);
  CHECK_INT(tbk_cluster_template_df(&o, 17), 9);
  CHECK_INT(tbk_cluster_template_df(&o, 18), 10); /* majority 10 */
  CHECK_INT(tbk_cluster_template_df(&o, 20), 10); /* a site's rule gives 3 */
  CHECK_INT(tbk_cluster_template_df(&o, 100), 10);
  CHECK_INT(tbk_cluster_template_df(&o, 101), 11); /* the site's rule from here on */
  CHECK_INT(tbk_cluster_template_df(&o, 342), 35);
  o.min_pages = 1; /* no raise: the site's rule, capped at a majority */
  CHECK_INT(tbk_cluster_template_df(&o, 20), 3);
  CHECK_INT(tbk_cluster_template_df(&o, 4), 3);
  o.template_min_df = 2;
  CHECK_INT(tbk_cluster_template_df(&o, 2), 2);
  o.min_pages = 10;
  o.template_share = 0.5;
  CHECK_INT(tbk_cluster_template_df(&o, 30), 15); /* 15 > 10, < majority 16 */
}

/* ------------------------------------------------------------ the site */

#define NPAGES 17
#define NAV "Home News Sports Weather Opinion Archive Contact About us and more"
#define SIDE "Sidebar note that six articles and the unclustered page happen to share"
#define RELATED "Related articles box shown on exactly seven of the twelve article pages"
#define ITEM "Listing item teaser shown on the first two of the four listing pages"
#define TEASER "Teaser text shared by one article page and one listing page only here"

static uint32_t cluster_of(int i) { return i < 12 ? 5 : i < 16 ? 40 : TBK_NO_CLUSTER; }

static void page_html(int i, tbk_buf *b) {
  b->len = 0;
  CHECK_BUF(tbk_buf_puts(b, "<html><body>\n<div id=nav>" NAV "</div>\n"));
  if (i < 6 || i == 16) CHECK_BUF(tbk_buf_puts(b, "<div>" SIDE "</div>\n"));
  else CHECK_BUF(tbk_buf_printf(b, "<div>Own second block of page %d with words a%d b%d c%d.</div>\n", i, i, i, i));
  if (i < 7) CHECK_BUF(tbk_buf_puts(b, "<div>" RELATED "</div>\n"));
  else if (i == 12 || i == 13) CHECK_BUF(tbk_buf_puts(b, "<div>" ITEM "</div>\n"));
  else CHECK_BUF(tbk_buf_printf(b, "<div>Own third block of page %d with words d%d e%d f%d.</div>\n", i, i, i, i));
  if (i == 11 || i == 12) CHECK_BUF(tbk_buf_puts(b, "<div>" TEASER "</div>\n"));
  else CHECK_BUF(tbk_buf_printf(b, "<div>Own fourth block of page %d with words g%d h%d k%d.</div>\n", i, i, i, i));
  CHECK_BUF(tbk_buf_puts(b, "</body></html>\n"));
}

static int sink_write(void *ctx, const char *data, size_t n) { return tbk_buf_append(ctx, data, n); }

/* The JSON line of page i's div[k], or NULL. */
static const char *find_line(const tbk_buf *out, int i, int k, char *line, size_t cap) {
  char key[160];
  snprintf(key, sizeof key, "\"page\":\"p/%02d.html\",\"url\":\"\",\"path\":\"/html[1]/body[1]/div[%d]\",", i, k);
  const char *hit = out->data ? strstr(out->data, key) : NULL;
  if (!hit) return NULL;
  const char *start = hit;
  while (start > out->data && start[-1] != '\n') start--;
  size_t n = (size_t)(strchr(hit, '\n') - start);
  if (n >= cap) n = cap - 1;
  memcpy(line, start, n);
  line[n] = '\0';
  return line;
}

/* Page i's div[k] has df (over the site), label, and (clustered pages)
 * cluster_df within its cluster of cpages pages, then reason or nothing. */
static void expect(const tbk_buf *out, int i, int k, int df, const char *label, int cdf, int cpages,
                   const char *reason, int line_no) {
  char line[2048], want[192], tail[96] = "";
  check_count++;
  if (!find_line(out, i, k, line, sizeof line)) {
    check_failures++;
    fprintf(stderr, "%s:%d: page %d div[%d]: no output line\n", __FILE__, line_no, i, k);
    return;
  }
  if (reason) snprintf(tail, sizeof tail, ",\"reason\":\"%s\"", reason);
  if (cpages)
    snprintf(want, sizeof want, "\"df\":%d,\"pages\":%d,\"label\":\"%s\",\"cluster_df\":%d,\"cluster_pages\":%d%s,",
             df, NPAGES, label, cdf, cpages, tail);
  else
    snprintf(want, sizeof want, "\"df\":%d,\"pages\":%d,\"label\":\"%s\"%s,\"chars\"", df, NPAGES, label, tail);
  if (!strstr(line, want)) {
    check_failures++;
    fprintf(stderr, "%s:%d: page %d div[%d]: want %s in\n  %s\n", __FILE__, line_no, i, k, want, line);
  }
}
#define EXPECT(i, k, df, label, cdf, cpages, reason) expect(&out, i, k, df, label, cdf, cpages, reason, __LINE__)

static void test_clustered_site(void) {
  tbk_label_options lo;
  tbk_label_options_init(&lo);
  lo.emit_ignored = 1;
  tbk_labeler *lab = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_labeler_new("site", &lo, &lab, &err), TBK_OK);
  if (!lab) return;
  tbk_page_options po;
  tbk_page_options_init(&po);
  tbk_buf html = {0}, out = {0};
  for (int i = 0; i < NPAGES; i++) {
    page_html(i, &html);
    tbk_page *p = NULL;
    CHECK_INT(tbk_page_parse(html.data, html.len, &po, &p, &err), TBK_OK);
    if (!p) continue;
    CHECK_INT(tbk_page_block_count(p), 4);
    char id[32];
    snprintf(id, sizeof id, "p/%02d.html", i);
    tbk_page_ref ref = {.site = "site", .page = id, .url = "", .file = id, .gold = ""};
    CHECK_INT(tbk_labeler_add_clustered(lab, &ref, p, cluster_of(i), &err), TBK_OK);
    tbk_page_free(p);
  }
  tbk_site_stats st;
  CHECK_INT(tbk_labeler_finish(lab, sink_write, &out, &st, &err), TBK_OK);
  tbk_labeler_free(lab);

  /* Articles: 12 pages, threshold 7 (the majority); listings: 4 pages,
   * threshold 3; the unclustered page: the site's rule, 3 of 17. */
  for (int i = 0; i < 12; i++) {
    EXPECT(i, 1, 17, "template", 12, 12, NULL);
    /* On 6 articles: a chance repeat below the majority (the site's rule
     * alone would make it template, 7 >= 3). */
    if (i < 6) EXPECT(i, 2, 7, "ignored", 6, 12, "infrequent");
    else EXPECT(i, 2, 1, "content", 1, 12, NULL);
    if (i < 7) EXPECT(i, 3, 7, "template", 7, 12, NULL);
    else EXPECT(i, 3, 1, "content", 1, 12, NULL);
    /* Once in this cluster, but the site holds it twice: no clean content. */
    if (i == 11) EXPECT(i, 4, 2, "ignored", 1, 12, "infrequent");
    else EXPECT(i, 4, 1, "content", 1, 12, NULL);
  }
  for (int i = 12; i < 16; i++) {
    EXPECT(i, 1, 17, "template", 4, 4, NULL);
    EXPECT(i, 2, 1, "content", 1, 4, NULL);
    if (i < 14) EXPECT(i, 3, 2, "ignored", 2, 4, "infrequent");
    else EXPECT(i, 3, 1, "content", 1, 4, NULL);
    if (i == 12) EXPECT(i, 4, 2, "ignored", 1, 4, "infrequent");
    else EXPECT(i, 4, 1, "content", 1, 4, NULL);
  }
  EXPECT(16, 1, 17, "template", 0, 0, NULL);
  EXPECT(16, 2, 7, "template", 0, 0, NULL);
  EXPECT(16, 3, 1, "content", 0, 0, NULL);
  EXPECT(16, 4, 1, "content", 0, 0, NULL);
  /* 17 navs, 7 related boxes, the unclustered page's sidebar note. */
  CHECK_INT(st.pages, NPAGES);
  CHECK_INT(st.templates, 17 + 7 + 1);
  CHECK_INT(st.contents, 6 + 5 + 11 + 4 + 2 + 3 + 2);
  CHECK_INT(st.ignored, 6 + 1 + 2 + 1);
  CHECK_INT(st.candidates, 4 * NPAGES);
  tbk_buf_free(&html);
  tbk_buf_free(&out);
}

int main(void) {
  test_cluster_template_df();
  test_clustered_site();
  return check_report();
}
