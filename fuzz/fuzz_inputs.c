/* Fuzz target: the line-oriented inputs users hand us. The bytes are
 * (1) a manifest .tsv, listed with tbk_page_list_add from a scratch
 * directory holding a few page files the rows may name, and (2) JSON Lines
 * (tbk-label's labels, tbk-features' meta): every line, and the whole input,
 * through tbk_jsonl_parse and its accessors. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tbk_internal.h"

static char dir[4096], manifest[4200];

static void put(const char *name, const char *text) {
  char p[4400];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "wb");
  if (!f || fputs(text, f) < 0 || fclose(f)) abort();
}

static void cleanup(void) {
  static const char *names[] = {"a.html", "s/b.html", "gold.txt", "m.tsv", "s", ""};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    remove(p); /* "" names the directory itself, emptied by then */
  }
}

static void init(void) {
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp) tmp = "/tmp";
  snprintf(dir, sizeof dir, "%s/tbk-fuzz-inputs-%ld", tmp, (long)getpid());
  char sub[4200];
  snprintf(sub, sizeof sub, "%s/s", dir);
  if ((mkdir(dir, 0700) && access(dir, W_OK)) || (mkdir(sub, 0700) && access(sub, W_OK))) abort();
  put("a.html", "<p>a page</p>");
  put("s/b.html", "<div>another page</div>");
  put("gold.txt", "gold text");
  snprintf(manifest, sizeof manifest, "%s/m.tsv", dir);
  atexit(cleanup);
}

static void quiet(void *ctx, const char *file, const char *msg) {
  (void)ctx;
  if (!file || !msg || !*msg || strchr(msg, '\n')) abort();
}

static void as_manifest(const uint8_t *data, size_t size) {
  FILE *f = fopen(manifest, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) abort();
  tbk_page_list l = {0};
  tbk_error err = {0};
  if (tbk_page_list_add(&l, manifest, NULL, quiet, NULL, &err) == TBK_OK) {
    tbk_page_list_sort(&l);
    for (size_t i = 0; i < l.n; i++)
      if (!l.refs[i].site[0] || !l.refs[i].page[0] || l.refs[i].is_warc || access(l.refs[i].file, F_OK)) abort();
  } else if (l.n) {
    abort();
  }
  tbk_page_list_free(&l);
}

static void as_json(const char *s, size_t n) {
  static const char *keys[] = {"site", "page", "path", "md5", "label", "df", "schema", "", "\xef\xbf\xbd"};
  tbk_jsonl_obj *o = NULL;
  tbk_error err = {0};
  if (tbk_jsonl_parse(s, n, &o, &err) == TBK_OK) {
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
      const char *v = tbk_jsonl_str(o, keys[k]);
      if (v && !tbk_utf8_valid(v, strlen(v))) abort();
      (void)tbk_jsonl_num(o, keys[k], 0.0);
      (void)tbk_jsonl_has(o, keys[k]);
    }
  } else if (o || strchr(err.msg, '\n')) {
    abort();
  }
  tbk_jsonl_free(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) init();
  as_manifest(data, size);
  const char *s = (const char *)data;
  for (size_t start = 0; start <= size;) {
    const char *nl = memchr(s + start, '\n', size - start);
    size_t end = nl ? (size_t)(nl - s) : size;
    /* An exact-size copy of the line, so a read past it is caught. */
    char *line = malloc(end - start + 1);
    if (!line) abort();
    memcpy(line, s + start, end - start);
    as_json(line, end - start);
    free(line);
    start = end + 1;
  }
  as_json(s, size);
  return 0;
}
