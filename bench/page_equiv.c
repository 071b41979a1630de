/* page-equiv: proves the streaming parse and the DOM parse give the same
 * page. Each file named (or each line of a list read with -l) is parsed
 * both ways with the default options and with the template stage's
 * (no fingerprints); the two dumps of the page's tables (tbk_page_dump)
 * must be byte-identical, the two parses must fail alike, and the HTML
 * of the streamed page (its DOM parsed again on demand) must be the DOM
 * page's. Prints one line per page that differs and a summary.
 *
 *   page-equiv [-v] [-d] [--parser tbk|libxml2] FILE...
 *   page-equiv [-v] [-d] [--parser tbk|libxml2] -l LIST
 *
 * -v: the first differing line of each page that differs, on stderr;
 * -d: the streamed page's dump (default options) on stdout;
 * --parser: tbk's parser where it takes the page (default), or libxml2's
 * alone for every page (tbk_page_options.parser), both ways.
 *
 * Exit 0: every page the same; 1: some differ; 2: usage or I/O error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbk_internal.h"

static int verbose, dump_out;
static tbk_parser parser = TBK_PARSER_TBK; /* every parse's, from --parser */
static size_t fast_pages;                  /* streamed pages the fast parser built */

/* The dump of one parse, or its error as the dump. */
static void parse_dump(const tbk_buf *raw, tbk_page_options o, int keep_dom, tbk_buf *dump, tbk_buf *html) {
  o.keep_dom = keep_dom;
  tbk_page *p = NULL;
  tbk_error err = {0};
  tbk_status st = tbk_page_parse(raw->data ? raw->data : "", raw->len, &o, &p, &err);
  if (st != TBK_OK) {
    if (tbk_buf_printf(dump, "error %d %s\n", (int)st, err.msg)) abort();
    return;
  }
  if (tbk_page_dump(p, dump)) abort();
  if (!keep_dom && o.fingerprints) fast_pages += p->arena.fast != 0;
  if (html) {
    tbk_status hs = tbk_page_html(p, NULL, html);
    if (hs != TBK_OK && tbk_buf_printf(html, "error %d\n", (int)hs)) abort();
  }
  tbk_page_free(p);
}

/* Two buffers with the same bytes (an empty one may have no storage). */
static int same(const tbk_buf *a, const tbk_buf *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static void first_difference(const char *path, const tbk_buf *a, const tbk_buf *b) {
  size_t i = 0, line = 1;
  while (i < a->len && i < b->len && a->data[i] == b->data[i]) line += a->data[i++] == '\n';
  size_t s = i;
  while (s > 0 && a->data[s - 1] != '\n') s--;
  fprintf(stderr, "  %s: line %zu\n    dom:    %.200s\n    stream: %.200s\n", path, line, s < a->len ? a->data + s : "",
          s < b->len ? b->data + s : "");
}

/* 0 same, 1 different, 2 unreadable. */
static int check(const char *path) {
  tbk_buf raw = {0};
  tbk_error err = {0};
  if (tbk_read_file(path, (size_t)1 << 30, &raw, &err) != TBK_OK) {
    fprintf(stderr, "page-equiv: error: %s: %s\n", path, err.msg);
    return 2;
  }
  int differ = 0;
  for (int fp = 1; fp >= 0 && !differ; fp--) {
    tbk_page_options o = tbk_page_options_default;
    o.fingerprints = fp;
    o.parser = parser;
    tbk_buf d1 = {0}, d2 = {0}, h1 = {0}, h2 = {0};
    parse_dump(&raw, o, 1, &d1, fp ? &h1 : NULL);
    parse_dump(&raw, o, 0, &d2, fp ? &h2 : NULL);
    if (dump_out && fp) fwrite(d2.data, 1, d2.len, stdout);
    if (!same(&d1, &d2)) {
      differ = 1;
      printf("differ %s\n", path);
      if (verbose) first_difference(path, &d1, &d2);
    } else if (!same(&h1, &h2)) {
      differ = 1;
      printf("differ-html %s\n", path);
      if (verbose) first_difference(path, &h1, &h2);
    }
    tbk_buf_free(&d1);
    tbk_buf_free(&d2);
    tbk_buf_free(&h1);
    tbk_buf_free(&h2);
  }
  tbk_buf_free(&raw);
  return differ;
}

int main(int argc, char **argv) {
  const char *list = NULL;
  int a = 1;
  for (; a < argc && argv[a][0] == '-'; a++) {
    if (strcmp(argv[a], "-v") == 0) verbose = 1;
    else if (strcmp(argv[a], "-d") == 0) dump_out = 1;
    else if (strcmp(argv[a], "-l") == 0 && a + 1 < argc) list = argv[++a];
    else if (strcmp(argv[a], "--parser") == 0 && a + 1 < argc &&
             (strcmp(argv[a + 1], "tbk") == 0 || strcmp(argv[a + 1], "libxml2") == 0))
      parser = strcmp(argv[++a], "tbk") == 0 ? TBK_PARSER_TBK : TBK_PARSER_LIBXML2;
    else {
      fprintf(stderr, "usage: page-equiv [-v] [-d] [--parser tbk|libxml2] FILE... | page-equiv [-v] [-d] "
                      "[--parser tbk|libxml2] -l LIST\n");
      return 2;
    }
  }
  size_t pages = 0, differ = 0, bad = 0;
  if (list) {
    FILE *f = strcmp(list, "-") == 0 ? stdin : fopen(list, "r");
    if (!f) {
      fprintf(stderr, "page-equiv: error: %s: cannot open\n", list);
      return 2;
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
      line[strcspn(line, "\r\n")] = '\0';
      if (!line[0]) continue;
      int r = check(line);
      pages++, differ += r == 1, bad += r == 2;
    }
    if (f != stdin) fclose(f);
  }
  for (; a < argc; a++) {
    int r = check(argv[a]);
    pages++, differ += r == 1, bad += r == 2;
  }
  printf("page-equiv: %zu pages, %zu differ, %zu unreadable\n", pages, differ, bad);
  printf("page-equiv: %zu streamed by the fast parser%s\n", fast_pages, parser == TBK_PARSER_LIBXML2 ? " (off)" : "");
  return bad ? 2 : differ ? 1 : 0;
}
