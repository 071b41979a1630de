/* What tbk-features does through the library: the labels read back
 * (tbk_label_set: valid lines, broken lines warned with their line number,
 * duplicates, labels that match no block) and the rows written (tbk_rows:
 * the three aligned files, labelled or not, read back by tbk_dataset_read). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "tbk_internal.h"
#include "warns.h"

#define TMP TBK_TEST_TMP "/rows"
#define MD5A "0123456789abcdef0123456789abcdef"
#define MD5B "fedcba9876543210fedcba9876543210"

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs(text, f);
  fclose(f);
}

static tbk_label_set *read_labels(const char *text, warns *w, size_t *bad) {
  write_text(TMP "/labels.jsonl", text);
  tbk_label_set *s = NULL;
  tbk_error err = {0};
  memset(w, 0, sizeof *w);
  tbk_status st = tbk_label_set_read(TMP "/labels.jsonl", on_warn, w, &s, bad, &err);
  CHECK_INT(st, TBK_OK);
  if (st) fprintf(stderr, "read: %s\n", err.msg);
  return s;
}

static int label_of(tbk_label_set *s, const char *page, const char *path, const char *md5, const char **want) {
  int label = 0;
  const char *w = NULL;
  tbk_label_match m = tbk_label_set_match(s, page, path, md5, &label, &w);
  if (want) *want = w;
  return m == TBK_MATCH_OK ? label : m == TBK_MATCH_CHANGED ? 100 + label : 0;
}

static void test_valid_lines(void) {
  warns w;
  size_t bad = 99;
  tbk_label_set *s = read_labels(
      "{\"site\":\"s\",\"page\":\"p1\",\"path\":\"/a\",\"md5\":\"" MD5A "\",\"label\":\"template\"}\n"
      "{\"page\":\"p1\",\"path\":\"/b\",\"md5\":\"" MD5B "\",\"label\":\"content\"}\r\n"
      "\n"
      "{\"page\":\"p1\",\"path\":\"/c\",\"md5\":\"" MD5A "\",\"label\":\"ignored\",\"reason\":\"x\"}\n"
      "{\"page\":\"p2\",\"path\":\"/u#1\",\"md5\":\"" MD5A "\",\"label\":\"boilerplate\"}\n"
      "{\"page\":\"p2\",\"path\":\"/u#2\",\"md5\":\"" MD5B "\",\"label\":-1}\n"
      "{\"page\":\"p2\",\"path\":\"/u#3\",\"md5\":\"" MD5B "\",\"label\":1}\n"
      "{\"page\":\"p2\",\"path\":\"/u#3\",\"md5\":\"" MD5B "\",\"label\":\"template\"}\n"
      "{\"page\":\"p2\",\"path\":\"/u#4\",\"md5\":\"" MD5B "\",\"label\":1}\n"
      "{\"page\":\"p2\",\"path\":\"/u#4\",\"md5\":\"" MD5A "\",\"label\":-1}\n"
      "{\"page\":\"p2\",\"path\":\"/u#5\",\"md5\":\"" MD5B "\",\"label\":0}\n",
      &w, &bad);
  if (!s) return;
  /* only the second label of /u#4 is bad: /u#3's lines agree */
  CHECK_INT(bad, 1);
  CHECK_INT(w.n, 1);
  CHECK_STR(w.all, TMP "/labels.jsonl:10: conflicts with the label of line 9 for the same block (skipped)\n");
  CHECK(tbk_label_set_has_page(s, "p1"));
  CHECK(tbk_label_set_has_page(s, "p2"));
  CHECK(!tbk_label_set_has_page(s, "p3"));
  CHECK(!tbk_label_set_has_page(s, "p"));
  const char *want = NULL;
  CHECK_INT(label_of(s, "p1", "/a", MD5A, &want), 1);
  CHECK_STR(want, MD5A);
  CHECK_INT(label_of(s, "p1", "/b", MD5B, NULL), -1);
  CHECK_INT(label_of(s, "p1", "/c", MD5A, NULL), 0); /* ignored: left out */
  CHECK_INT(label_of(s, "p2", "/u#1", MD5A, NULL), 1);
  CHECK_INT(label_of(s, "p2", "/u#2", MD5B, NULL), -1);
  /* two lines alike for one block: the label stands */
  CHECK_INT(label_of(s, "p2", "/u#3", MD5B, NULL), 1);
  /* labelled both ways: which is right is not known, so neither counts */
  CHECK_INT(label_of(s, "p2", "/u#4", MD5B, NULL), 0);
  CHECK_INT(label_of(s, "p2", "/u#5", MD5B, NULL), 0);
  /* a block of a labelled page without a label of its own */
  CHECK_INT(label_of(s, "p1", "/d", MD5A, NULL), 0);
  /* the same path on another page is another block */
  CHECK_INT(label_of(s, "p2", "/a", MD5A, NULL), 0);
  /* text changed since labelling: the labelled md5 comes back */
  CHECK_INT(label_of(s, "p1", "/b", MD5A, &want), 100 - 1);
  CHECK_STR(want, MD5B);
  size_t unread = 99;
  CHECK_INT(tbk_label_set_unmatched(s, on_warn, &w, &unread), 0);
  CHECK_INT(unread, 0);
  tbk_label_set_free(s);
}

static void test_broken_lines(void) {
  warns w;
  size_t bad = 0;
  tbk_label_set *s = read_labels(
      "{\"page\":\"p1\",\"path\":\"/a\",\"md5\":\"" MD5A "\",\"label\":\"template\"}\n"
      "{\"page\":\"p1\",\"path\":\n"                                               /* 2: not JSON */
      "{\"page\":\"p1\",\"path\":\"/b\",\"label\":\"content\"}\n"                  /* 3: no md5 */
      "{\"page\":\"p1\",\"path\":\"/b\",\"md5\":\"0123\",\"label\":\"content\"}\n" /* 4: short md5 */
      "{\"page\":\"p1\",\"path\":\"/b\",\"md5\":\""
      "0123456789ABCDEF0123456789ABCDEF"
      "\",\"label\":1}\n"                                        /* 5 */
      "{\"page\":\"p1\",\"path\":\"/b\",\"md5\":\"" MD5B "\"}\n" /* 6: no label */
      "[1,2]\n"                                                  /* 7 */
      "{\"page\":\"p1\",\"path\":\"/c\",\"md5\":\"" MD5B "\",\"label\":\"content\"}\n"
      "{\"page\":\"p1\",\"path\":\"/d\",\"md5\":\"" MD5B "\",\"label\":\"templat\"}\n" /* 9 */
      "{\"page\":\"p1\",\"path\":\"/d\",\"md5\":\"" MD5B "\",\"label\":2}\n"           /* 10 */
      "{\"page\":\"p1\",\"path\":\"/d\",\"md5\":\"" MD5B "\",\"label\":null}\n",       /* 11 */
      &w, &bad);
  if (!s) return;
  CHECK_INT(bad, 9);
  CHECK_INT(w.n, 9);
  for (int line = 9; line <= 11; line++) {
    char want[200];
    snprintf(want, sizeof want,
             TMP "/labels.jsonl:%d: invalid label (not template, boilerplate, content, ignored, "
                 "1, -1 or 0) (skipped)",
             line);
    CHECK(strstr(w.all, want) != NULL);
  }
  CHECK_INT(label_of(s, "p1", "/d", MD5B, NULL), 0);
  CHECK(strstr(w.all, TMP "/labels.jsonl:2: ") != NULL);
  CHECK(strstr(w.all, TMP "/labels.jsonl:3: not a label line (needs page, path, md5 and label) (skipped)") != NULL);
  CHECK(strstr(w.all, TMP "/labels.jsonl:4: not a label line") != NULL);
  CHECK(strstr(w.all, TMP "/labels.jsonl:5: not a label line") != NULL);
  CHECK(strstr(w.all, TMP "/labels.jsonl:6: not a label line") != NULL);
  CHECK(strstr(w.all, TMP "/labels.jsonl:7: ") != NULL);
  CHECK(strstr(w.all, ":1: ") == NULL && strstr(w.all, ":8: ") == NULL);
  /* the good lines around the broken ones are kept */
  CHECK_INT(label_of(s, "p1", "/a", MD5A, NULL), 1);
  CHECK_INT(label_of(s, "p1", "/c", MD5B, NULL), -1);
  CHECK_INT(label_of(s, "p1", "/b", MD5B, NULL), 0);
  tbk_label_set_free(s);

  tbk_error err = {0};
  s = (tbk_label_set *)1;
  CHECK_INT(tbk_label_set_read(TMP "/no-such-file", on_warn, &w, &s, &bad, &err), TBK_ERR_IO);
  CHECK(s == NULL);
  CHECK_STR(err.msg, "cannot open: No such file or directory");
}

static void test_unmatched(void) {
  warns w;
  size_t bad = 0;
  tbk_label_set *s = read_labels("{\"page\":\"read\",\"path\":\"/a\",\"md5\":\"" MD5A "\",\"label\":1}\n"
                                 "{\"page\":\"read\",\"path\":\"/gone\",\"md5\":\"" MD5A "\",\"label\":1}\n"
                                 "{\"page\":\"read\",\"path\":\"/a\",\"md5\":\"" MD5A
                                 "\",\"label\":1}\n" /* duplicate: not missing */
                                 "{\"page\":\"notread\",\"path\":\"/a\",\"md5\":\"" MD5A "\",\"label\":1}\n"
                                 "{\"page\":\"notread\",\"path\":\"/b\",\"md5\":\"" MD5A "\",\"label\":1}\n"
                                 "{\"page\":\"read\",\"path\":\"/changed\",\"md5\":\"" MD5A "\",\"label\":1}\n"
                                 "{\"page\":\"read\",\"path\":\"/gone2\",\"md5\":\"" MD5A "\",\"label\":-1}\n",
                                 &w, &bad);
  if (!s) return;
  tbk_label_set_page_read(s, "read");
  tbk_label_set_page_read(s, "not a labelled page"); /* harmless */
  CHECK_INT(label_of(s, "read", "/a", MD5A, NULL), 1);
  CHECK_INT(label_of(s, "read", "/changed", MD5B, NULL), 101); /* used, if refused */
  size_t unread = 0;
  CHECK_INT(tbk_label_set_unmatched(s, on_warn, &w, &unread), 2);
  CHECK_INT(unread, 2);
  CHECK_INT(w.n, 2);
  CHECK_STR(w.all, TMP "/labels.jsonl:2: labelled block /gone of read not found on that page (skipped)\n" TMP
                       "/labels.jsonl:7: labelled block /gone2 of read not found on that page (skipped)\n");
  tbk_label_set_free(s);
}

/* ------------------------------------------------------------------ rows */

typedef struct sink {
  tbk_buf b;
  int fail;
} sink;

static int to_sink(void *ctx, const char *data, size_t n) {
  sink *s = ctx;
  return s->fail || tbk_buf_append(&s->b, data, n);
}

static size_t count_lines(const tbk_buf *b) {
  size_t n = 0;
  for (size_t i = 0; i < b->len; i++) n += b->data[i] == '\n';
  return n;
}

static const char PAGE_HTML[] =
    "<html><head><title>T</title></head><body>"
    "<div id=nav><a href=/>Home page link</a> <a href=/x>Another section here</a> <a href=/y>Third one</a></div>"
    "<div id=main><p>The article text has plenty of distinct words, enough for a block.</p>"
    "<p>A second paragraph follows the first one with more words than needed.</p></div>"
    "<div id=foot>Copyright notice of the site, all rights reserved, contact us</div>"
    "</body></html>";

static void test_rows(void) {
  tbk_page *page = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_page_parse(PAGE_HTML, strlen(PAGE_HTML), NULL, &page, &err), TBK_OK);
  if (!page) return;
  size_t nb = tbk_page_block_count(page);
  CHECK(nb >= 3);
  tbk_feature_options fo;
  tbk_feature_options_init(&fo);
  fo.word_dims = 1024;
  tbk_rows *rows = NULL;
  CHECK_INT(tbk_rows_new(&fo, 0, &rows, &err), TBK_OK);
  if (!rows) return;
  tbk_features *fx = NULL;
  CHECK_INT(tbk_features_new(&fo, &fx, &err), TBK_OK);
  CHECK_STR(tbk_rows_schema_id(rows), tbk_features_schema_id(fx));
  CHECK_INT(tbk_rows_dim(rows), tbk_features_dim(fx));

  char *site = "site", *pg = "pages/site/a.html";
  tbk_page_ref ref = {.site = site, .page = pg, .url = "", .file = pg, .gold = ""};
  sink f = {{0}, 0}, wd = {{0}, 0}, m = {{0}, 0};
  tbk_rows_out out = {to_sink, &f, &wd, &m};
  tbk_page_options po;
  tbk_page_options_init(&po);
  CHECK_INT(tbk_rows_meta_header(rows, &po, &out, &err), TBK_OK);
  size_t written = 0, changed = 0;
  CHECK_INT(tbk_rows_write_page(rows, &ref, page, NULL, NULL, &out, on_warn, NULL, &written, &changed, &err), TBK_OK);
  CHECK_INT(written, nb);
  CHECK_INT(changed, 0);
  CHECK_INT(count_lines(&f.b), nb);
  CHECK_INT(count_lines(&wd.b), nb);
  CHECK_INT(count_lines(&m.b), nb + 1);
  /* the features line is the extractor's own, with label 0 */
  tbk_buf line = {0};
  CHECK_INT(tbk_features_page(fx, page, &err), TBK_OK);
  CHECK_INT(tbk_features_format(fx, 0, 0, 0, &line), 0);
  CHECK(f.b.len >= line.len && memcmp(f.b.data, line.data, line.len) == 0);
  /* the meta header records the schema and options, each row its block */
  char head[256];
  snprintf(head, sizeof head,
           "{\"schema\":\"%s\",\"dim\":%zu,\"word_dims\":1024,\"attr_dims\":128,\"bigrams\":0,\"blocks\":\"paper\","
           "\"min_chars\":40,\"min_words\":3}\n",
           tbk_features_schema_id(fx), tbk_features_dim(fx));
  CHECK(m.b.len > strlen(head) && memcmp(m.b.data, head, strlen(head)) == 0);
  const tbk_block *b0 = tbk_page_block(page, 0), *b1 = tbk_page_block(page, 1);
  char hex0[33], hex1[33], want[512];
  tbk_md5_hex(b0->md5, hex0);
  tbk_md5_hex(b1->md5, hex1);
  snprintf(want, sizeof want,
           "{\"site\":\"site\",\"page\":\"pages/site/"
           "a.html\",\"path\":\"%s\",\"tag\":\"%s\",\"md5\":\"%s\",\"label\":0,\"block\":0}\n",
           b0->path, b0->tag, hex0);
  CHECK(strstr(m.b.data ? m.b.data : "", want) != NULL);

  /* Labelled: block 0 template, block 1 content but its text changed, a
   * label for a block the page does not have; the other blocks unlabelled. */
  char labels[1024];
  snprintf(labels, sizeof labels,
           "{\"page\":\"%s\",\"path\":\"%s\",\"md5\":\"%s\",\"label\":\"template\"}\n"
           "{\"page\":\"%s\",\"path\":\"%s\",\"md5\":\"%s\",\"label\":\"content\"}\n"
           "{\"page\":\"%s\",\"path\":\"/html[1]/body[1]/div[9]\",\"md5\":\"%s\",\"label\":\"content\"}\n",
           pg, b0->path, hex0, pg, b1->path, MD5A, pg, MD5A);
  warns w;
  size_t bad = 0;
  tbk_label_set *ls = read_labels(labels, &w, &bad);
  if (ls) {
    f.b.len = wd.b.len = m.b.len = 0;
    CHECK_INT(tbk_rows_write_page(rows, &ref, page, NULL, ls, &out, on_warn, &w, &written, &changed, &err), TBK_OK);
    CHECK_INT(written, 1);
    CHECK_INT(changed, 1);
    CHECK(f.b.len > 2 && strncmp(f.b.data, "1 ", 2) == 0);
    CHECK_INT(count_lines(&f.b), 1);
    CHECK(strstr(m.b.data ? m.b.data : "", "\"label\":1,\"block\":0}") != NULL);
    char msg[512];
    snprintf(msg, sizeof msg,
             "pages/site/a.html: block %s: text changed since labelling (md5 %s, labels say %s) (skipped)\n", b1->path,
             hex1, MD5A);
    CHECK_STR(w.all, msg);
    tbk_label_set_page_read(ls, pg);
    size_t unread = 0;
    w.all[0] = '\0';
    CHECK_INT(tbk_label_set_unmatched(ls, on_warn, &w, &unread), 1);
    CHECK(strstr(w.all, "labelled block /html[1]/body[1]/div[9] of ") != NULL);
    tbk_label_set_free(ls);
  }

  /* A write that fails stops the page with TBK_ERR_IO. */
  f.fail = 1;
  CHECK_INT(tbk_rows_write_page(rows, &ref, page, NULL, NULL, &out, on_warn, NULL, &written, &changed, &err),
            TBK_ERR_IO);
  CHECK_INT(written, 0);
  tbk_buf_free(&line);
  tbk_buf_free(&f.b);
  tbk_buf_free(&wd.b);
  tbk_buf_free(&m.b);
  tbk_features_free(fx);
  tbk_rows_free(rows);
  tbk_page_free(page);
}

/* Labelled rows written to files are what tbk_dataset_read takes. */
static void test_rows_read_back(void) {
  tbk_page *page = NULL;
  tbk_error err = {0};
  if (tbk_page_parse(PAGE_HTML, strlen(PAGE_HTML), NULL, &page, &err)) return;
  tbk_feature_options fo;
  tbk_feature_options_init(&fo);
  tbk_rows *rows = NULL;
  CHECK_INT(tbk_rows_new(&fo, 0, &rows, &err), TBK_OK);
  char labels[2048] = "";
  for (size_t i = 0; i < tbk_page_block_count(page); i++) {
    const tbk_block *b = tbk_page_block(page, i);
    char hex[33];
    tbk_md5_hex(b->md5, hex);
    size_t used = strlen(labels);
    snprintf(labels + used, sizeof labels - used, "{\"page\":\"p\",\"path\":\"%s\",\"md5\":\"%s\",\"label\":%d}\n",
             b->path, hex, i == 0 ? 1 : -1);
  }
  warns w;
  size_t bad = 0, written = 0, changed = 0;
  tbk_label_set *ls = read_labels(labels, &w, &bad);
  FILE *ff = fopen(TMP "/f.svm", "w"), *fw = fopen(TMP "/w.svm", "w"), *fm = fopen(TMP "/m.jsonl", "w");
  if (!rows || !ls || !ff || !fw || !fm) return;
  tbk_page_ref ref = {.site = "s", .page = "p", .url = "", .file = "p", .gold = ""};
  sink f = {{0}, 0}, wd = {{0}, 0}, m = {{0}, 0};
  tbk_rows_out out = {to_sink, &f, &wd, &m};
  tbk_page_options po;
  tbk_page_options_init(&po);
  CHECK_INT(tbk_rows_meta_header(rows, &po, &out, &err), TBK_OK);
  CHECK_INT(tbk_rows_write_page(rows, &ref, page, NULL, ls, &out, on_warn, &w, &written, &changed, &err), TBK_OK);
  CHECK_INT(written, tbk_page_block_count(page));
  fwrite(f.b.data, 1, f.b.len, ff);
  fwrite(wd.b.data, 1, wd.b.len, fw);
  fwrite(m.b.data, 1, m.b.len, fm);
  fclose(ff);
  fclose(fw);
  fclose(fm);
  tbk_dataset *ds = NULL;
  CHECK_INT(tbk_dataset_new(NULL, 0, 0, &ds, &err), TBK_OK);
  size_t skipped = 0;
  CHECK_INT(tbk_dataset_read(ds, TMP "/f.svm", TMP "/w.svm", TMP "/m.jsonl", on_warn, &w, &err), TBK_OK);
  CHECK_INT(skipped, 0);
  CHECK_INT(tbk_dataset_rows(ds), written);
  CHECK_INT(tbk_dataset_sites(ds), 1);
  CHECK_STR(tbk_dataset_schema(ds), tbk_rows_schema_id(rows));
  CHECK_INT(tbk_dataset_label(ds, 0), 1);
  CHECK_INT(tbk_dataset_label(ds, 1), -1);
  tbk_dataset_free(ds);
  tbk_label_set_free(ls);
  tbk_buf_free(&f.b);
  tbk_buf_free(&wd.b);
  tbk_buf_free(&m.b);
  tbk_rows_free(rows);
  tbk_page_free(page);
}

int main(void) {
  mkdir(TBK_TEST_TMP, 0777);
  mkdir(TMP, 0777);
  test_valid_lines();
  test_broken_lines();
  test_unmatched();
  test_rows();
  test_rows_read_back();
  return check_report();
}
