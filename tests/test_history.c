/* The site-history store's API (core/history): counts of a site's other
 * pages, pages seen in this run visible before they are committed, a
 * page already counted seeing the others only, read-only handles, two
 * handles on one store, and stores refused by name. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tbk_internal.h"

#define DIR TBK_TEST_TMP "/history"

static void remove_store(const char *path) {
  char b[512];
  unlink(path);
  snprintf(b, sizeof b, "%s-wal", path);
  unlink(b);
  snprintf(b, sizeof b, "%s-shm", path);
  unlink(b);
}

static tbk_history *open_store(const char *path, int read_only, size_t commit, const char *identity) {
  tbk_history_options o = tbk_history_options_default;
  o.read_only = read_only;
  o.commit_pages = commit;
  o.identity = identity;
  tbk_history *h = NULL;
  tbk_error err = {0};
  tbk_status st = tbk_history_open(path, &o, &h, &err);
  if (st) fprintf(stderr, "open %s: %s\n", path, err.msg);
  return h;
}

/* Page `key` of `site` with fingerprints fp[0..n): its counts into df. */
static uint32_t page(tbk_history *h, const char *site, const char *key, const uint64_t *fp, size_t n, uint32_t *df,
                     int add) {
  tbk_error err = {0};
  CHECK_INT(tbk_history_begin(h, site, key, &err), TBK_OK);
  CHECK_INT(tbk_history_lookup(h, fp, n, df, &err), TBK_OK);
  if (add) CHECK_INT(tbk_history_add(h, fp, n, &err), TBK_OK);
  return tbk_history_pages(h);
}

static void test_counts(void) {
  const char *path = DIR "/counts.db";
  remove_store(path);
  tbk_history *h = open_store(path, 0, 100, "id-a");
  CHECK(h != NULL);
  if (!h) return;
  uint64_t nav = 11, foot = 12, a = 21, b = 22, c = 23;
  uint32_t df[4];
  /* a site's first page: no history */
  CHECK_INT(page(h, "s", "p1", (uint64_t[]){nav, foot, a, a}, 4, df, 1), 0);
  CHECK_INT(df[0], 0);
  /* the second sees the first at once (not committed yet) */
  CHECK_INT(page(h, "s", "p2", (uint64_t[]){nav, foot, b}, 3, df, 1), 1);
  CHECK_INT(df[0], 1);
  CHECK_INT(df[1], 1);
  CHECK_INT(df[2], 0);
  /* another site's pages are not this site's history */
  CHECK_INT(page(h, "t", "p1", (uint64_t[]){nav}, 1, df, 1), 0);
  CHECK_INT(df[0], 0);
  tbk_error err = {0};
  CHECK_INT(tbk_history_commit(h, &err), TBK_OK);
  /* a repeat within a page counts once; after the commit the same */
  CHECK_INT(page(h, "s", "p3", (uint64_t[]){nav, a, c}, 3, df, 1), 2);
  CHECK_INT(df[0], 2);
  CHECK_INT(df[1], 1);
  CHECK_INT(df[2], 0);
  /* a page seen before sees the other pages only, and is not added again */
  CHECK_INT(page(h, "s", "p1", (uint64_t[]){nav, foot, a}, 3, df, 1), 2);
  CHECK_INT(df[0], 2); /* p2, p3 */
  CHECK_INT(df[1], 1); /* p2 */
  CHECK_INT(df[2], 1); /* p3 */
  CHECK_INT(tbk_history_close(h, &err), TBK_OK);

  uint64_t sites, pages, fps;
  h = open_store(path, 1, 0, "id-a");
  CHECK(h != NULL);
  if (!h) return;
  CHECK_INT(tbk_history_totals(h, &sites, &pages, &fps, &err), TBK_OK);
  CHECK_INT(sites, 2);
  CHECK_INT(pages, 4);
  CHECK_INT(fps, 6); /* s: nav foot a b c; t: nav */
  /* read-only: a new page sees the counts and adds nothing */
  CHECK_INT(page(h, "s", "p4", (uint64_t[]){nav, b}, 2, df, 1), 3);
  CHECK_INT(df[0], 3);
  CHECK_INT(df[1], 1);
  CHECK_INT(page(h, "u", "p1", (uint64_t[]){nav}, 1, df, 1), 0); /* a site it has not seen */
  CHECK_INT(tbk_history_close(h, &err), TBK_OK);
  h = open_store(path, 1, 0, "id-a");
  if (!h) return;
  CHECK_INT(tbk_history_totals(h, &sites, &pages, &fps, &err), TBK_OK);
  CHECK_INT(pages, 4);
  tbk_history_free(h);
}

/* Two handles adding the same page: the second commit finds it counted. */
static void test_two_writers(void) {
  const char *path = DIR "/two.db";
  remove_store(path);
  tbk_history *x = open_store(path, 0, 100, "id-a"), *y = open_store(path, 0, 100, "id-a");
  CHECK(x && y);
  if (!x || !y) return;
  uint32_t df[2];
  page(x, "s", "p1", (uint64_t[]){1, 2}, 2, df, 1);
  page(y, "s", "p1", (uint64_t[]){1, 2}, 2, df, 1);
  page(y, "s", "p2", (uint64_t[]){1, 3}, 2, df, 1);
  tbk_error err = {0};
  CHECK_INT(tbk_history_close(x, &err), TBK_OK);
  CHECK_INT(tbk_history_close(y, &err), TBK_OK);
  tbk_history *h = open_store(path, 1, 0, "id-a");
  if (!h) return;
  CHECK_INT(page(h, "s", "p9", (uint64_t[]){1, 2}, 2, df, 0), 2);
  CHECK_INT(df[0], 2);
  CHECK_INT(df[1], 1);
  tbk_history_free(h);
}

static void test_refused(void) {
  const char *path = DIR "/refused.db";
  remove_store(path);
  tbk_history *h = open_store(path, 0, 1, "id-a");
  tbk_history_free(h);
  tbk_history_options o = tbk_history_options_default;
  o.identity = "id-b";
  tbk_error err = {0};
  CHECK_INT(tbk_history_open(path, &o, &h, &err), TBK_ERR_MODEL);
  CHECK(h == NULL);
  CHECK(strstr(err.msg, "(id-a; this run makes id-b)") != NULL);
  FILE *f = fopen(DIR "/text.db", "w");
  for (int i = 0; f && i < 100; i++) fputs("plain text, not a database\n", f);
  if (f) fclose(f);
  CHECK_INT(tbk_history_open(DIR "/text.db", &o, &h, &err), TBK_ERR_MODEL);
  CHECK_STR(err.msg, "not a tbk history store (not an SQLite database)");
  o.read_only = 1;
  CHECK_INT(tbk_history_open(DIR "/absent.db", &o, &h, &err), TBK_ERR_IO);
  o.identity = NULL;
  CHECK_INT(tbk_history_open(path, &o, &h, &err), TBK_ERR_ARG);
}

int main(void) {
  mkdir(TBK_TEST_TMP, 0777);
  mkdir(DIR, 0777);
  test_counts();
  test_two_writers();
  test_refused();
  return check_report();
}
