/* tbk-eval snippets: trafilatura's must-have / must-not-have snippets. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "eval_cli.h"
#include "tbk_eval.h"

/* --------------------------------------------------------------- snippets */

static void usage_snippets(void) {
  printf("Usage: tbk-eval snippets [OPTION]... EVALDATA_JSON PAGES_TSV [PRED_DIR]\n"
         "trafilatura's evaluation: EVALDATA_JSON (trafilatura's evaldata.json) lists for\n"
         "each page snippets that must be extracted (\"with\") and snippets that must not\n"
         "(\"without\"); PAGES_TSV (header key, file, page) maps each evaldata key to its\n"
         "page path, relative to the TSV's directory. Text and snippets are\n"
         "whitespace-normalized and a snippet counts as present when it is a\n"
         "case-sensitive substring (trafilatura's tests/eval_common.py). TP = \"with\" found,\n"
         "FN = \"with\" missing, FP = \"without\" found, TN = \"without\" absent, summed\n"
         "over the pages: precision TP/(TP+FP), recall TP/(TP+FN), accuracy\n"
         "(TP+TN)/all, F1 2TP/(2TP+FP+FN). Prints one JSON line.\n\n"
         "The extraction of page \"pages/S/ID.html\" is PRED_DIR/pages/S/ID.txt or\n"
         "PRED_DIR/S/ID.txt, as for 'tbk-eval gold'; missing = nothing extracted.\n\n"
         "Options:\n"
         "      --baseline         no PRED_DIR: use each page's whole visible text\n"
         "      --per-page FILE    also write per-page counts (TSV: key, page, tp, fn,\n"
         "                         fp, tn)\n"
         "      --name NAME        the \"name\" field of the JSON line\n"
         "  -h, --help             show this help and exit\n\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error\n"
         "  2  usage error (also: an output that is a file the run reads)\n"
         "  3  done, but some pages were unmapped or unreadable (each reported; scored\n"
         "     as nothing extracted)\n"
         "  4  the --per-page file could not be written\n");
}

typedef struct page_map {
  char **key, **page; /* owned */
  size_t n;
} page_map;

static int cmp_keyp(const void *a, const void *b) {
  return strcmp(**(char *const *const *)a, **(char *const *const *)b);
}

static void read_page_map(const char *path, page_map *m, size_t **sorted) {
  tbk_buf b = {0};
  tbk_error err = {0};
  if (tbk_read_file(path, 0, &b, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", path, err.msg);
  memset(m, 0, sizeof *m);
  size_t cap = 0, line = 0;
  int ck = -1, cp = -1;
  char *save = NULL;
  for (char *l = b.len ? strtok_r(b.data, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
    line++;
    char *f[8];
    int nf = cli_tsv_split(l, f, 8);
    if (line == 1) {
      static const char *const names[] = {"key", "page"};
      int at[2];
      cli_tsv_columns(f, nf, names, 2, at);
      ck = at[0], cp = at[1];
      if (ck < 0 || cp < 0) cli_die(TBK_EXIT_FAIL, "%s: header needs \"key\" and \"page\" columns", path);
      continue;
    }
    if (ck >= nf || cp >= nf) {
      cli_warn("%s: line %zu: too few columns (skipped)", path, line);
      continue;
    }
    if (m->n == cap) {
      cap = cap ? cap * 2 : 256;
      m->key = realloc(m->key, cap * sizeof *m->key);
      m->page = realloc(m->page, cap * sizeof *m->page);
      if (!m->key || !m->page) cli_die(TBK_EXIT_FAIL, "out of memory");
    }
    m->key[m->n] = strdup(f[ck]);
    m->page[m->n] = strdup(f[cp]);
    if (!m->key[m->n] || !m->page[m->n]) cli_die(TBK_EXIT_FAIL, "out of memory");
    m->n++;
  }
  tbk_buf_free(&b);
  /* Sorted index of pointers to keys, for bsearch. */
  char ***idx = malloc((m->n ? m->n : 1) * sizeof *idx);
  if (!idx) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < m->n; i++) idx[i] = &m->key[i];
  qsort(idx, m->n, sizeof *idx, cmp_keyp);
  size_t *s = malloc((m->n ? m->n : 1) * sizeof *s);
  if (!s) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < m->n; i++) s[i] = (size_t)(idx[i] - m->key);
  free(idx);
  *sorted = s;
}

static const char *map_find(const page_map *m, const size_t *sorted, const char *key) {
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(m->key[sorted[mid]], key);
    if (c == 0) return m->page[sorted[mid]];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

static char *dir_of(const char *path) {
  const char *s = strrchr(path, '/');
  if (!s) return strdup(".");
  if (s == path) return strdup("/");
  char *d = malloc((size_t)(s - path) + 1);
  if (!d) return NULL;
  memcpy(d, path, (size_t)(s - path));
  d[s - path] = '\0';
  return d;
}

enum { SN_BASELINE = CLI_OPT_FIRST_FREE, SN_PER_PAGE, SN_NAME };

int cmd_snippets(int argc, char **argv) {
  cli_init("tbk-eval snippets");
  int baseline = 0;
  const char *per_page = NULL, *name = NULL;
  static const struct option longopts[] = {{"baseline", no_argument, 0, SN_BASELINE},
                                           {"per-page", required_argument, 0, SN_PER_PAGE},
                                           {"name", required_argument, 0, SN_NAME},
                                           {"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    switch (c) {
    case SN_BASELINE: baseline = 1; break;
    case SN_PER_PAGE: per_page = optarg; break;
    case SN_NAME: name = optarg; break;
    case 'h': usage_snippets(); return cli_exit(TBK_EXIT_OK);
    default: cli_bad_option(c, argv);
    }
  }
  int n = argc - optind;
  if (baseline ? n != 2 : n != 3)
    cli_usage_error(baseline ? "expected EVALDATA_JSON PAGES_TSV (and no PRED_DIR with --baseline)"
                             : "expected EVALDATA_JSON PAGES_TSV PRED_DIR");
  const char *json_path = argv[optind], *tsv_path = argv[optind + 1], *pred_dir = baseline ? NULL : argv[optind + 2];
  cli_reads_add(json_path);
  cli_reads_add(tsv_path);
  tbk_error err = {0};
  tbk_buf json = {0};
  if (tbk_read_file(json_path, 0, &json, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", json_path, err.msg);
  tbk_snippet_set *set;
  if (tbk_snippets_parse(json.data ? json.data : "", json.len, &set, &err))
    cli_die(TBK_EXIT_FAIL, "%s: %s", json_path, err.msg);
  tbk_buf_free(&json);
  page_map map;
  size_t *sorted;
  read_page_map(tsv_path, &map, &sorted);
  char *base = dir_of(tsv_path);
  if (!base) cli_die(TBK_EXIT_FAIL, "out of memory");
  /* Every page or prediction file the scoring reads. */
  for (size_t i = 0; i < map.n; i++) {
    char *file = baseline ? join(base, map.page[i]) : find_prediction(pred_dir, map.page[i]);
    cli_reads_add(file);
    free(file);
  }
  cli_output_check("--per-page", per_page);
  tbk_page_options popt;
  tbk_page_options_init(&popt);

  cli_out pp;
  if (per_page) {
    cli_out_open(&pp, per_page);
    fputs("key\tpage\ttp\tfn\tfp\ttn\n", pp.f);
  }
  tbk_snippet_counts total = {0};
  size_t unmapped = 0, missing = 0, problems = 0, nwith = 0, nwithout = 0;
  tbk_buf text = {0};
  for (size_t i = 0; i < set->n; i++) {
    const tbk_snippet_page *p = &set->pages[i];
    nwith += p->nwith;
    nwithout += p->nwithout;
    const char *page = map_find(&map, sorted, p->key);
    char *file = NULL, *path = NULL;
    if (!page) {
      if (++unmapped <= 10) cli_warn("%s: key not in %s (scored as nothing extracted)", p->key, tsv_path);
    } else if (baseline) {
      file = join(base, page);
    } else if (!(path = find_prediction(pred_dir, page))) {
      missing++;
    }
    tbk_snippet_counts pc = {0};
    if (tbk_snippets_page_counts(p, file, path, &popt, &text, &pc, &problems, cli_warn_file, NULL, &err))
      cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    free(file);
    free(path);
    total.tp += pc.tp;
    total.fn += pc.fn;
    total.fp += pc.fp;
    total.tn += pc.tn;
    if (per_page) fprintf(pp.f, "%s\t%s\t%zu\t%zu\t%zu\t%zu\n", p->key, page ? page : "", pc.tp, pc.fn, pc.fp, pc.tn);
  }
  if (unmapped > 10) cli_warn("%zu keys in all are not in %s", unmapped, tsv_path);
  if (per_page) cli_out_finish(&pp); /* renamed into place once stdout is written too */
  double prec, rec, acc, f1;
  tbk_snippet_rates(&total, &prec, &rec, &acc, &f1);
  tbk_buf js = {0};
  const char *nm = name ? name : baseline ? "baseline" : pred_dir;
  cli_mem(tbk_buf_puts(&js, "{\"name\": "));
  cli_mem(tbk_buf_json_str(&js, nm, strlen(nm)));
  cli_mem(tbk_buf_printf(
      &js,
      ", \"pages\": %zu, \"with\": %zu, \"without\": %zu, \"unmapped\": %zu, \"missing_outputs\": %zu, "
      "\"tp\": %zu, \"fn\": %zu, \"fp\": %zu, \"tn\": %zu, \"precision\": %.4f, \"recall\": %.4f, "
      "\"accuracy\": %.4f, \"f1\": %.4f}\n",
      set->n, nwith, nwithout, unmapped, missing, total.tp, total.fn, total.fp, total.tn, prec, rec, acc, f1));
  fwrite(js.data, 1, js.len, stdout);
  tbk_buf_free(&js);
  tbk_buf_free(&text);
  for (size_t i = 0; i < map.n; i++) {
    free(map.key[i]);
    free(map.page[i]);
  }
  free(map.key);
  free(map.page);
  free(sorted);
  free(base);
  tbk_snippets_free(set);
  int code = cli_exit(problems || unmapped ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
  return per_page ? cli_out_settle(&pp, code) : code;
}
