/* Reading tbk-features' three aligned files into a training dataset: good
 * rows, skipped malformed rows, and headers that declare absurd sizes (which
 * must be refused before anything is allocated by them: a declared dim of
 * 2^32 - 1 once wrapped dim + 1 to 0 and overflowed a zero-byte buffer). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "tbk_internal.h"
#include "warns.h"

#define TMP TBK_TEST_TMP "/dataset"
#define HEADER_REST "\"attr_dims\":128,\"bigrams\":0,\"blocks\":\"paper\",\"min_chars\":40,\"min_words\":3}\n"

static void put(const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof path, TMP "/%s", name);
  FILE *f = fopen(path, "wb");
  if (!f || fputs(text, f) < 0 || fclose(f)) {
    fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
    exit(1);
  }
}

/* Read f.svm, f.words and the given meta text into ds (a new dataset when
 * *ds is NULL). */
static tbk_status read_with(tbk_dataset **ds, const char *meta, warns *w, tbk_error *err) {
  put("f.meta", meta);
  memset(w, 0, sizeof *w);
  memset(err, 0, sizeof *err);
  if (!*ds && tbk_dataset_new(NULL, 0, 0, ds, err) != TBK_OK) return err->code;
  return tbk_dataset_read(*ds, TMP "/f.svm", TMP "/f.words", TMP "/f.meta", on_warn, w, err);
}

static void test_good_rows(void) {
  put("f.svm", "1 1:0.5 3:2\n-1 2:1\n# a comment line is aligned too\n1 1:1 5:1\n-1 2:1 2:3\n0 1:1\n");
  put("f.words", "1 7:2 9:1\n-1 4:1\n#\n1 3:1\n-1 1:1\n0 1:1\n");
  const char *meta = "{\"schema\":\"s:1\",\"dim\":4,\"word_dims\":16," HEADER_REST
                     "{\"site\":\"a\"}\n{\"site\":\"b\"}\n{}\n{\"site\":\"a\"}\n{\"site\":\"a\"}\n{\"site\":\"b\"}\n";
  tbk_dataset *ds = NULL;
  warns w;
  tbk_error err;
  CHECK_INT(read_with(&ds, meta, &w, &err), TBK_OK);
  CHECK_INT(tbk_dataset_rows(ds), 2);
  CHECK_INT(tbk_dataset_sites(ds), 2);
  CHECK_STR(tbk_dataset_schema(ds), "s:1");
  CHECK_INT(tbk_dataset_label(ds, 0), 1);
  CHECK_STR(tbk_dataset_site(ds, 1), "b");
  /* Index 5 > dim 4, indices not ascending, label 0: each row skipped by line. */
  CHECK_INT(w.n, 3);
  CHECK(strstr(w.all, "f.svm: line 4: malformed feature line (skipped)") != NULL);
  CHECK(strstr(w.all, "f.svm: line 5: malformed feature line (skipped)") != NULL);
  CHECK(strstr(w.all, "f.svm: line 6: label 0 is not +1 or -1 (unlabelled data?) (skipped)") != NULL);

  /* The same files again: appended. Another schema or dimension: refused. */
  CHECK_INT(read_with(&ds, meta, &w, &err), TBK_OK);
  CHECK_INT(tbk_dataset_rows(ds), 4);
  CHECK_INT(read_with(&ds, "{\"schema\":\"s:2\",\"dim\":4,\"word_dims\":16}\n", &w, &err), TBK_ERR_SCHEMA);
  CHECK_INT(read_with(&ds, "{\"schema\":\"s:1\",\"dim\":5,\"word_dims\":16}\n", &w, &err), TBK_ERR_SCHEMA);
  CHECK(strstr(err.msg, "schema s:1 (dim 5) is not s:1 (dim 4)") != NULL);
  CHECK_INT(tbk_dataset_rows(ds), 4);
  tbk_dataset_free(ds);
}

static void test_bad_headers(void) {
  put("f.svm", "1 1:1\n");
  put("f.words", "1 1:1\n");
  static const struct {
    const char *header, *key;
  } bad[] = {
      {"{\"schema\":\"s\",\"dim\":4294967295,\"word_dims\":16}", "dim"},
      {"{\"schema\":\"s\",\"dim\":100001,\"word_dims\":16}", "dim"},
      {"{\"schema\":\"s\",\"dim\":0,\"word_dims\":16}", "dim"},
      {"{\"schema\":\"s\",\"dim\":-1,\"word_dims\":16}", "dim"},
      {"{\"schema\":\"s\",\"dim\":4.5,\"word_dims\":16}", "dim"},
      {"{\"schema\":\"s\",\"dim\":\"4\",\"word_dims\":16}", "dim"},
      {"{\"schema\":\"s\",\"word_dims\":16}", "dim"},
      {"{\"schema\":\"s\",\"dim\":4,\"word_dims\":0}", "word_dims"},
      {"{\"schema\":\"s\",\"dim\":4,\"word_dims\":1e300}", "word_dims"},
      {"{\"schema\":\"s\",\"dim\":4}", "word_dims"},
      {"{\"schema\":\"s\",\"dim\":4,\"word_dims\":16,\"attr_dims\":1e9}", "attr_dims"},
      {"{\"schema\":\"s\",\"dim\":4,\"word_dims\":16,\"attr_dims\":null}", "attr_dims"},
      {"{\"schema\":\"s\",\"dim\":4,\"word_dims\":16,\"bigrams\":2}", "bigrams"},
      {"{\"schema\":\"s\",\"dim\":4,\"word_dims\":16,\"min_chars\":-40}", "min_chars"},
      {"{\"schema\":\"s\",\"dim\":4,\"word_dims\":16,\"min_words\":1e12}", "min_words"},
      {"{\"schema\":\"s\",\"dim\":4,\"word_dims\":16,\"blocks\":\"all\"}", "blocks"},
      {"{\"schema\":\"s\\u007f\",\"dim\":4,\"word_dims\":16}", "schema"},
      {"{\"schema\":\"tbk features\",\"dim\":4,\"word_dims\":16}", "schema"},
      {"{\"schema\":\"caf\u00e9\",\"dim\":4,\"word_dims\":16}", "schema"},
      {"{\"schema\":\"\",\"dim\":4,\"word_dims\":16}", "schema"},
      {"{\"schema\":"
       "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
       "xxxxxxxxxxxxxxxxxxx\",\"dim\":4,\"word_dims\":16}",
       "schema"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char meta[512], want[128];
    snprintf(meta, sizeof meta, "%s\n{\"site\":\"a\"}\n", bad[i].header);
    snprintf(want, sizeof want, "f.meta: schema header has a missing or bad \"%s\"", bad[i].key);
    tbk_dataset *ds = NULL;
    warns w;
    tbk_error err;
    CHECK_INT(read_with(&ds, meta, &w, &err), TBK_ERR_FORMAT);
    if (!strstr(err.msg, want)) fprintf(stderr, "  header %s: %s\n", bad[i].header, err.msg);
    CHECK(strstr(err.msg, want) != NULL);
    CHECK_INT(tbk_dataset_rows(ds), 0);
    tbk_dataset_free(ds);
  }
  /* The largest sizes allowed are read (and the row within them kept). */
  tbk_dataset *ds = NULL;
  warns w;
  tbk_error err;
  CHECK_INT(read_with(&ds, "{\"schema\":\"s\",\"dim\":100000,\"word_dims\":16777216}\n{\"site\":\"a\"}\n", &w, &err),
            TBK_OK);
  CHECK_INT(tbk_dataset_rows(ds), 1);
  tbk_dataset_free(ds);
  /* No header, and files of different lengths. */
  ds = NULL;
  CHECK_INT(read_with(&ds, "{\"site\":\"a\"}\n", &w, &err), TBK_ERR_FORMAT);
  CHECK(strstr(err.msg, "first line has no \"schema\"") != NULL);
  tbk_dataset_free(ds);
  ds = NULL;
  CHECK_INT(
      read_with(&ds, "{\"schema\":\"s\",\"dim\":4,\"word_dims\":16}\n{\"site\":\"a\"}\n{\"site\":\"a\"}\n", &w, &err),
      TBK_ERR_FORMAT);
  CHECK(strstr(err.msg, "do not have the same number of lines") != NULL);
  tbk_dataset_free(ds);
}

int main(void) {
  mkdir(TBK_TEST_TMP, 0777);
  mkdir(TMP, 0777);
  test_good_rows();
  test_bad_headers();
  return check_report();
}
