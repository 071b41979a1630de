/* Labelling with template clusters (tbk-label --clusters): the cluster
 * threshold, and a hand-built site of 25 pages, 20 articles (cluster 5), 4
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
  /* The site's rule, raised to min(min_pages 10, ceil(pages / 4)). */
  CHECK_INT(tbk_cluster_template_df(&o, 0), 3);
  CHECK_INT(tbk_cluster_template_df(&o, 1), 3);
  CHECK_INT(tbk_cluster_template_df(&o, 4), 3);
  CHECK_INT(tbk_cluster_template_df(&o, 12), 3); /* a quarter: 3 */
  CHECK_INT(tbk_cluster_template_df(&o, 13), 4); /* ceil(3.25) */
  CHECK_INT(tbk_cluster_template_df(&o, 20), 5); /* the site's rule gives 3 */
  CHECK_INT(tbk_cluster_template_df(&o, 31), 8);
  CHECK_INT(tbk_cluster_template_df(&o, 36), 9);
  CHECK_INT(tbk_cluster_template_df(&o, 37), 10); /* min_pages from here */
  CHECK_INT(tbk_cluster_template_df(&o, 100), 10);
  CHECK_INT(tbk_cluster_template_df(&o, 101), 11); /* the site's rule from here on */
  CHECK_INT(tbk_cluster_template_df(&o, 342), 35);
  o.min_pages = 1; /* no raise beyond the site's rule */
  CHECK_INT(tbk_cluster_template_df(&o, 20), 3);
  o.template_min_df = 2;
  CHECK_INT(tbk_cluster_template_df(&o, 2), 2);
  o.min_pages = 10;
  o.template_share = 0.5; /* the site's rule is never lowered */
  CHECK_INT(tbk_cluster_template_df(&o, 30), 15);
  CHECK_INT(tbk_cluster_template_df(&o, 4), 2);
}

/* ------------------------------------------------------------ the site */

#define NPAGES 25
#define NAV "Home News Sports Weather Opinion Archive Contact About us and more"
#define SIDE "Sidebar note that four articles and the unclustered page happen to share"
#define RELATED "Related articles box shown on exactly five of the twenty article pages"
#define ITEM "Listing item teaser shown on the first two of the four listing pages"
#define TEASER "Teaser text shared by one article page and one listing page only here"

static uint32_t cluster_of(int i) { return i < 20 ? 5 : i < 24 ? 40 : TBK_NO_CLUSTER; }

static void page_html(int i, tbk_buf *b) {
  b->len = 0;
  CHECK_BUF(tbk_buf_puts(b, "<html><body>\n<div id=nav>" NAV "</div>\n"));
  if (i < 4 || i == 24) CHECK_BUF(tbk_buf_puts(b, "<div>" SIDE "</div>\n"));
  else CHECK_BUF(tbk_buf_printf(b, "<div>Own second block of page %d with words a%d b%d c%d.</div>\n", i, i, i, i));
  if (i < 5) CHECK_BUF(tbk_buf_puts(b, "<div>" RELATED "</div>\n"));
  else if (i == 20 || i == 21) CHECK_BUF(tbk_buf_puts(b, "<div>" ITEM "</div>\n"));
  else CHECK_BUF(tbk_buf_printf(b, "<div>Own third block of page %d with words d%d e%d f%d.</div>\n", i, i, i, i));
  if (i == 19 || i == 20) CHECK_BUF(tbk_buf_puts(b, "<div>" TEASER "</div>\n"));
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
static void expect(const tbk_buf *out, int i, int k, int df, const char *label, int cdf, int cpages, const char *reason,
                   int line_no) {
  char line[2048], want[192], tail[96] = "";
  check_count++;
  if (!find_line(out, i, k, line, sizeof line)) {
    check_failures++;
    fprintf(stderr, "%s:%d: page %d div[%d]: no output line\n", __FILE__, line_no, i, k);
    return;
  }
  if (reason) snprintf(tail, sizeof tail, ",\"reason\":\"%s\"", reason);
  if (cpages)
    snprintf(want, sizeof want, "\"df\":%d,\"pages\":%d,\"label\":\"%s\",\"cluster_df\":%d,\"cluster_pages\":%d%s,", df,
             NPAGES, label, cdf, cpages, tail);
  else snprintf(want, sizeof want, "\"df\":%d,\"pages\":%d,\"label\":\"%s\"%s,\"chars\"", df, NPAGES, label, tail);
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

  /* Articles: 20 pages, threshold 5 (a quarter); listings: 4 pages,
   * threshold 3 (min df); the unclustered page: the site's rule, 3 of 25. */
  for (int i = 0; i < 20; i++) {
    EXPECT(i, 1, 25, "template", 20, 20, NULL);
    /* On 4 articles: a chance repeat below a quarter (the site's rule
     * alone would make it template, 5 >= 3). */
    if (i < 4) EXPECT(i, 2, 5, "ignored", 4, 20, "infrequent");
    else EXPECT(i, 2, 1, "content", 1, 20, NULL);
    if (i < 5) EXPECT(i, 3, 5, "template", 5, 20, NULL);
    else EXPECT(i, 3, 1, "content", 1, 20, NULL);
    /* Once in this cluster, but the site holds it twice: no clean content. */
    if (i == 19) EXPECT(i, 4, 2, "ignored", 1, 20, "infrequent");
    else EXPECT(i, 4, 1, "content", 1, 20, NULL);
  }
  for (int i = 20; i < 24; i++) {
    EXPECT(i, 1, 25, "template", 4, 4, NULL);
    EXPECT(i, 2, 1, "content", 1, 4, NULL);
    if (i < 22) EXPECT(i, 3, 2, "ignored", 2, 4, "infrequent");
    else EXPECT(i, 3, 1, "content", 1, 4, NULL);
    if (i == 20) EXPECT(i, 4, 2, "ignored", 1, 4, "infrequent");
    else EXPECT(i, 4, 1, "content", 1, 4, NULL);
  }
  EXPECT(24, 1, 25, "template", 0, 0, NULL);
  EXPECT(24, 2, 5, "template", 0, 0, NULL);
  EXPECT(24, 3, 1, "content", 0, 0, NULL);
  EXPECT(24, 4, 1, "content", 0, 0, NULL);
  /* 25 navs, 5 related boxes, the unclustered page's sidebar note. */
  CHECK_INT(st.pages, NPAGES);
  CHECK_INT(st.candidates, 4 * NPAGES);
  CHECK_INT(st.templates, 25 + 5 + 1);
  CHECK_INT(st.contents, (16 + 4) + (15 + 2 + 1) + (23));
  CHECK_INT(st.ignored, 4 + 2 + 2);
  tbk_buf_free(&html);
  tbk_buf_free(&out);
}

int main(void) {
  test_cluster_template_df();
  test_clustered_site();
  return check_report();
}
