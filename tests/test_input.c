/* Input listing: directory trees, manifests, single files, stdin and site
 * keys. Fixtures are written at run time under TBK_TEST_TMP/input. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tbk_internal.h"
#include "warns.h"

#define TMP TBK_TEST_TMP "/input"

static void mkdir_p(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(buf, 0777);
      *p = '/';
    }
  mkdir(buf, 0777);
}

static void write_file(const char *path, const char *text) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash) {
    *slash = '\0';
    mkdir_p(dir);
  }
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
    exit(1);
  }
  fputs(text, f);
  fclose(f);
}

static void rm_rf(const char *path) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
  if (system(cmd) != 0) exit(1);
}

static tbk_status list_one(const char *path, tbk_page_list *l, const tbk_input_options *o, warns *w, tbk_error *err) {
  memset(l, 0, sizeof *l);
  memset(w, 0, sizeof *w);
  memset(err, 0, sizeof *err);
  return tbk_page_list_add(l, path, o, on_warn, w, err);
}

/* The tree's files, in the order they are created (forward or backward). */
static const char *tree_files[][2] = {
    {"top.html", "<p>top</p>"},
    {"siteB/a.HTML", "<p>b a</p>"},
    {"siteB/notes.txt", "not a page"},
    {"siteB/deep/er/b.htm", "<p>b deep</p>"},
    {"siteA/index.html", "<p>a index</p>"},
    {"siteA/img.png", "\x89PNG"},
    {"siteA/x/y.html", "<p>a y</p>"},
    {"siteA/x/html", "no extension"},
    {"siteA/x/page.html.bak", "backup"},
    {"siteA/empty/.keep", ""},
};
enum { NTREE = sizeof tree_files / sizeof tree_files[0] };

static void make_tree(const char *root, int backward) {
  rm_rf(root);
  mkdir_p(root);
  char path[4096];
  for (int k = 0; k < NTREE; k++) {
    int i = backward ? NTREE - 1 - k : k;
    snprintf(path, sizeof path, "%s/%s", root, tree_files[i][0]);
    write_file(path, tree_files[i][1]);
  }
  /* A loop back up the tree, a link to a page, and a dangling link. */
  snprintf(path, sizeof path, "%s/siteA/x/loop", root);
  if (symlink("..", path) != 0) exit(1);
  snprintf(path, sizeof path, "%s/siteA/link.html", root);
  if (symlink("../siteB/a.HTML", path) != 0) exit(1);
  snprintf(path, sizeof path, "%s/siteB/dangling.html", root);
  if (symlink("nowhere.html", path) != 0) exit(1);
}

static const char *tree_expect[][3] = {
    {"-", "top.html", "<p>top</p>"},
    {"siteA", "siteA/index.html", "<p>a index</p>"},
    {"siteA", "siteA/link.html", "<p>b a</p>"},
    {"siteA", "siteA/x/y.html", "<p>a y</p>"},
    {"siteB", "siteB/a.HTML", "<p>b a</p>"},
    {"siteB", "siteB/deep/er/b.htm", "<p>b deep</p>"},
};
enum { NEXPECT = sizeof tree_expect / sizeof tree_expect[0] };

static void check_tree(const char *root, const char *given) {
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(given, &l, &o, &w, &err), TBK_OK);
  /* The dangling link is warned about and counted (#34 item 9). */
  CHECK_INT(w.n, 1);
  CHECK_INT(l.skipped, 1);
  CHECK(strstr(w.all, "siteB/dangling.html: dangling symbolic link (skipped)") != NULL);
  tbk_page_list_sort(&l);
  CHECK_INT(l.n, NEXPECT);
  tbk_buf body = {0};
  char want[4096];
  for (size_t i = 0; i < l.n && i < NEXPECT; i++) {
    snprintf(want, sizeof want, "%s/%s", root, tree_expect[i][1]);
    CHECK_STR(l.refs[i].site, tree_expect[i][0]);
    CHECK_STR(l.refs[i].page, want);
    CHECK_STR(l.refs[i].file, want);
    CHECK_STR(l.refs[i].url, "");
    CHECK_STR(l.refs[i].gold, "");
    CHECK(l.refs[i].charset == NULL);
    CHECK(!l.refs[i].is_warc);
    CHECK_INT(tbk_page_ref_read(&l.refs[i], &o, &body, &err), TBK_OK);
    CHECK_STR(body.data, tree_expect[i][2]);
  }
  tbk_buf_free(&body);
  tbk_page_list_free(&l);

  o.single_site = 1;
  CHECK_INT(list_one(given, &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, NEXPECT);
  for (size_t i = 0; i < l.n; i++) CHECK_STR(l.refs[i].site, "-");
  tbk_page_list_free(&l);
}

static void test_directory(void) {
  make_tree(TMP "/tree1", 0);
  make_tree(TMP "/tree2", 1);
  check_tree(TMP "/tree1", TMP "/tree1");
  check_tree(TMP "/tree2", TMP "/tree2");
  check_tree(TMP "/tree1", TMP "/tree1/"); /* no doubled slash */

  /* Sorting is a total order: any permutation sorts to the same list. */
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list a, b;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/tree1", &a, &o, &w, &err), TBK_OK);
  CHECK_INT(list_one(TMP "/tree1", &b, &o, &w, &err), TBK_OK);
  for (size_t i = 0; i + 1 < b.n; i += 2) {
    tbk_page_ref t = b.refs[i];
    b.refs[i] = b.refs[b.n - 1 - i];
    b.refs[b.n - 1 - i] = t;
  }
  tbk_page_list_sort(&a);
  tbk_page_list_sort(&b);
  CHECK_INT(a.n, b.n);
  for (size_t i = 0; i < a.n && i < b.n; i++) CHECK_STR(a.refs[i].page, b.refs[i].page);
  tbk_page_list_free(&a);
  tbk_page_list_free(&b);

  /* Nothing to list. */
  mkdir_p(TMP "/nohtml/site/sub");
  write_file(TMP "/nohtml/site/sub/readme.txt", "text");
  CHECK_INT(list_one(TMP "/nohtml", &a, &o, &w, &err), TBK_ERR_EMPTY);
  CHECK(strstr(err.msg, "no HTML files") != NULL);
  CHECK_INT(a.n, 0);

  CHECK_INT(list_one(TMP "/no/such/dir", &a, &o, &w, &err), TBK_ERR_IO);
  CHECK(strstr(err.msg, strerror(ENOENT)) != NULL);
}

static void test_depth_limit(void) {
  rm_rf(TMP "/deep");
  char path[4096] = TMP "/deep/site";
  write_file(TMP "/deep/site/shallow.html", "<p>s</p>");
  for (int i = 0; i < 70; i++) strcat(path, "/d");
  strcat(path, "/bottom.html");
  write_file(path, "<p>b</p>");
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/deep", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 1);
  CHECK_INT(l.skipped, 1);
  CHECK_INT(w.n, 1);
  CHECK(strstr(w.all, "deeper than 64 levels") != NULL);
  tbk_page_list_free(&l);
}

static void test_manifest(void) {
  rm_rf(TMP "/man");
  write_file(TMP "/man/pages/s1/1.html", "<p>one</p>");
  write_file(TMP "/man/pages/s1/2.html", "<p>two</p>");
  write_file(TMP "/man/pages/s2/3.html", "<p>three</p>");
  /* Columns reordered, an extra one, CRLF on one row, a blank line, a
   * missing file, a row without url/gold cells. */
  write_file(TMP "/man/manifest.tsv", "id\tpage\tsite\tgold\turl\textra\n"
                                      "1\tpages/s1/1.html\ts1\tgold/s1/1.txt\thttp://s1.example/1\tx\n"
                                      "2\tpages/s1/missing.html\ts1\t\t\t\n"
                                      "3\tpages/s1/2.html\ts1\t\thttp://s1.example/2\ty\r\n"
                                      "\n"
                                      "4\tpages/s2/3.html\ts2\n");
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/man/manifest.tsv", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 3);
  CHECK_INT(l.skipped, 1);
  CHECK_INT(w.n, 1);
  CHECK_STR(w.all, TMP "/man/pages/s1/missing.html: manifest row 2: no such file\n");
  tbk_page_list_sort(&l);
  if (l.n == 3) {
    CHECK_STR(l.refs[0].site, "s1");
    CHECK_STR(l.refs[0].page, "pages/s1/1.html");
    CHECK_STR(l.refs[0].file, TMP "/man/pages/s1/1.html");
    CHECK_STR(l.refs[0].url, "http://s1.example/1");
    CHECK_STR(l.refs[0].gold, TMP "/man/gold/s1/1.txt");
    CHECK_STR(l.refs[1].page, "pages/s1/2.html");
    CHECK_STR(l.refs[1].url, "http://s1.example/2");
    CHECK_STR(l.refs[1].gold, "");
    CHECK_STR(l.refs[2].site, "s2");
    CHECK_STR(l.refs[2].url, "");
    tbk_buf body = {0};
    CHECK_INT(tbk_page_ref_read(&l.refs[2], &o, &body, &err), TBK_OK);
    CHECK_STR(body.data, "<p>three</p>");
    tbk_buf_free(&body);
  }
  /* A second input appends to the same list. */
  CHECK_INT(tbk_page_list_add(&l, TMP "/man/pages/s2/3.html", &o, on_warn, &w, &err), TBK_OK);
  CHECK_INT(l.n, 4);
  tbk_page_list_free(&l);

  write_file(TMP "/man/bad.tsv", "site\tfile\turl\npages/s1/1.html\ts1\t\n");
  CHECK_INT(list_one(TMP "/man/bad.tsv", &l, &o, &w, &err), TBK_ERR_FORMAT);
  CHECK(strstr(err.msg, "\"page\"") != NULL && strstr(err.msg, "\"site\"") == NULL);
  write_file(TMP "/man/bad2.tsv", "a\tb\n");
  CHECK_INT(list_one(TMP "/man/bad2.tsv", &l, &o, &w, &err), TBK_ERR_FORMAT);
  CHECK(strstr(err.msg, "\"site\" and \"page\"") != NULL);
  write_file(TMP "/man/empty.tsv", "");
  CHECK_INT(list_one(TMP "/man/empty.tsv", &l, &o, &w, &err), TBK_ERR_FORMAT);
  write_file(TMP "/man/none.tsv", "site\tpage\ns\tpages/gone.html\n");
  CHECK_INT(list_one(TMP "/man/none.tsv", &l, &o, &w, &err), TBK_ERR_EMPTY);
  CHECK_INT(l.skipped, 1);
  CHECK_INT(l.n, 0);
}

static void test_single_and_stdin(void) {
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  write_file(TMP "/one.htm", "<html>single</html>");
  CHECK_INT(list_one(TMP "/one.htm", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 1);
  CHECK_STR(l.refs[0].site, "-");
  CHECK_STR(l.refs[0].page, TMP "/one.htm");
  CHECK_STR(l.refs[0].file, TMP "/one.htm");
  CHECK(!l.refs[0].is_temp);
  tbk_page_list_free(&l);
  CHECK(access(TMP "/one.htm", F_OK) == 0); /* only temporaries are removed */

  CHECK_INT(list_one(TMP "/missing.html", &l, &o, &w, &err), TBK_ERR_IO);
  CHECK(strstr(err.msg, strerror(ENOENT)) != NULL);

  /* The file limit applies to plain pages too. */
  o.max_record_bytes = 8;
  tbk_buf body = {0};
  CHECK_INT(list_one(TMP "/one.htm", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(tbk_page_ref_read(&l.refs[0], &o, &body, &err), TBK_ERR_LIMIT);
  tbk_page_list_free(&l);
  tbk_input_options_init(&o);

  write_file(TMP "/stdin.html", "<html>from stdin</html>");
  if (!freopen(TMP "/stdin.html", "rb", stdin)) exit(1);
  setenv("TMPDIR", TMP, 1);
  CHECK_INT(list_one("-", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 1);
  char *tmpfile = NULL;
  if (l.n == 1) {
    CHECK_STR(l.refs[0].site, "-");
    CHECK_STR(l.refs[0].page, "-");
    CHECK(l.refs[0].is_temp);
    /* Unlinked at once where /proc is mounted: nothing in TMPDIR to leave. */
    CHECK(strncmp(l.refs[0].file, "/proc/self/fd/", 14) == 0 ||
          strncmp(l.refs[0].file, TMP "/tbk-stdin-", strlen(TMP "/tbk-stdin-")) == 0);
    if (l.refs[0].is_temp == 2) {
      DIR *d = opendir(TMP);
      struct dirent *e;
      while (d && (e = readdir(d))) CHECK(strncmp(e->d_name, "tbk-stdin-", 10) != 0);
      if (d) closedir(d);
    }
    tmpfile = strdup(l.refs[0].file);
    /* Read twice: the copy stays until the list is freed. */
    for (int k = 0; k < 2; k++) {
      CHECK_INT(tbk_page_ref_read(&l.refs[0], &o, &body, &err), TBK_OK);
      CHECK_STR(body.data, "<html>from stdin</html>");
    }
  }
  tbk_page_list_free(&l);
  CHECK(tmpfile && (strncmp(tmpfile, "/proc/", 6) == 0 || access(tmpfile, F_OK) != 0));
  free(tmpfile);

  /* Standard input larger than the limit. */
  if (!freopen(TMP "/stdin.html", "rb", stdin)) exit(1);
  o.max_record_bytes = 10;
  CHECK_INT(list_one("-", &l, &o, &w, &err), TBK_ERR_LIMIT);
  CHECK_INT(l.n, 0);
  tbk_page_list_free(&l); /* a failed add leaves the list valid, to be freed */
  tbk_buf_free(&body);
}

static void check_site(const char *url, const char *domain, const char *host) {
  char *d = tbk_site_of_url(url, TBK_SITE_DOMAIN);
  char *h = tbk_site_of_url(url, TBK_SITE_HOST);
  if (domain) {
    CHECK_STR(d, domain);
    CHECK_STR(h, host);
  } else {
    CHECK(d == NULL);
    CHECK(h == NULL);
  }
  free(d);
  free(h);
}

static void test_site_keys(void) {
  check_site("http://www.example.co.uk/a", "example.co.uk", "example.co.uk");
  check_site("https://www.news.bbc.co.uk/x", "bbc.co.uk", "news.bbc.co.uk");
  check_site("http://news.bbc.co.uk", "bbc.co.uk", "news.bbc.co.uk");
  check_site("HTTP://User:Pass@Sub.Example.COM:8080/p?q=a@b#f", "example.com", "sub.example.com");
  check_site("http://example.com./", "example.com", "example.com");
  check_site("//cdn.example.net/lib.js", "example.net", "cdn.example.net");
  check_site("https://foo.blogspot.com/2012/11/x.html", "foo.blogspot.com", "foo.blogspot.com");
  check_site("http://192.168.1.10:8000/", "192.168.1.10", "192.168.1.10");
  check_site("http://[2001:DB8::1]:8080/", "2001:db8::1", "2001:db8::1");
  check_site("http://localhost/x", "localhost", "localhost");
  check_site("http://www/", "www", "www");
  check_site("mailto:someone@example.com", NULL, NULL);
  check_site("/relative/path.html", NULL, NULL);
  check_site("http:///no-host", NULL, NULL);
  check_site("", NULL, NULL);
  CHECK(tbk_site_of_url(NULL, TBK_SITE_DOMAIN) == NULL);
}

int main(void) {
  mkdir_p(TMP);
  test_directory();
  test_depth_limit();
  test_manifest();
  test_single_and_stdin();
  test_site_keys();
  return check_report();
}
