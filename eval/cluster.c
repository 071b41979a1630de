/* tbk-eval cluster: a tbk-cluster assignment against a reference grouping
 * (adjusted Rand index, purity, the splits of each reference group), and
 * the scale curve: the clustering's cost and time against the number of
 * pages, pages replicated with perturbed path sets up to the largest size. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli.h"
#include "tbk_label.h"
#include "tbk_eval.h"
#include "eval_cli.h"

static void usage_cluster(void) {
  printf("Usage: tbk-eval cluster [OPTION]... ASSIGNMENT\n"
         "  or:  tbk-eval cluster --curve SIZES [OPTION]... INPUT...\n"
         "Score a tbk-cluster assignment (TSV: page, site, cluster, size) against a\n"
         "reference grouping: the adjusted Rand index (1 = the same partition, 0 =\n"
         "chance), purity (share of pages in their cluster's most common group) and\n"
         "inverse purity (the same with the roles swapped: low when groups split).\n"
         "The reference is the assignment's site column, or --reference. An empty\n"
         "assignment (no rows) is an error, exit 1, not a perfect score. Prints one\n"
         "JSON line.\n\n"
         "With --curve, cluster the pages of INPUT (read as tbk-cluster reads them)\n"
         "replicated up to each size of SIZES (comma-separated, ascending): each copy\n"
         "of a page keeps its paths but each with probability 0.005 and gains three\n"
         "paths of its own, as pages of one template differ; one CSV row per size:\n"
         "pages, clusters, CPU seconds clustering, start and end cost in bits, ARI\n"
         "against the sites, peak RSS in MiB.\n\n"
         "Options:\n"
         "      --reference FILE   TSV with \"page\" and \"site\" columns (a manifest):\n"
         "                         each page's reference group; may be repeated (one\n"
         "                         naming none of the assignment's pages: exit 1)\n"
         "      --splits FILE      write each reference group's clusters (TSV: site,\n"
         "                         cluster, pages, example page), for inspection\n"
         "      --curve SIZES      the scale curve (e.g. 1000,10000,100000)\n"
         "      --global           --curve: cluster all pages together (default: by\n"
         "                         site, as tbk-cluster --sites)\n"
         "      --csv FILE         --curve: the rows (default: stdout)\n"
         "      --svg FILE         --curve: plot of seconds and cost (Mbit) against pages\n"
         "  -h, --help             show this help and exit\n\n" CLI_EXIT_STATUS_HELP
         "  3  some pages were skipped (each reported)\n"
         "  4  an output could not be written\n");
}

/* A TSV with a header: each row's cells under the named columns. */
typedef struct table {
  tbk_buf b;
  char **cell; /* rows x cols, into b */
  size_t rows, cols;
} table;

static void read_table(const char *path, const char *const *names, size_t cols, table *t) {
  tbk_error err = {0};
  memset(t, 0, sizeof *t);
  t->cols = cols;
  if (tbk_read_file(path, 0, &t->b, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", path, err.msg);
  int at[4] = {-1, -1, -1, -1};
  size_t cap = 0, line = 0;
  char *save = NULL;
  for (char *l = t->b.len ? strtok_r(t->b.data, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
    line++;
    char *f[16];
    int nf = cli_tsv_split(l, f, 16);
    if (line == 1) {
      cli_tsv_columns(f, nf, names, cols, at);
      for (size_t c = 0; c < cols; c++) {
        if (at[c] < 0) cli_die(TBK_EXIT_FAIL, "%s: header has no \"%s\" column", path, names[c]);
      }
      continue;
    }
    if (tbk_grow(&t->cell, &cap, (t->rows + 1) * cols, sizeof *t->cell)) cli_die(TBK_EXIT_FAIL, "out of memory");
    for (size_t c = 0; c < cols; c++) {
      if (at[c] >= nf) cli_die(TBK_EXIT_FAIL, "%s:%zu: no \"%s\" cell", path, line, names[c]);
      t->cell[t->rows * cols + c] = f[at[c]];
    }
    t->rows++;
  }
  if (!line) cli_die(TBK_EXIT_FAIL, "%s: empty file (%zu bytes, no header line)", path, t->b.len);
  if (!t->rows) cli_die(TBK_EXIT_FAIL, "%s: no rows below the header (nothing to score)", path);
}

static void table_free(table *t) {
  tbk_buf_free(&t->b);
  free(t->cell);
}

/* Process CPU time: on a shared machine the clustering's own cost, which
 * wall time is not. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int curve(cli_pages *pages, char **inputs, int n_inputs, const char *sizes, int global, const char *csv,
                 const char *svg) {
  size_t want[32], n_sizes = 0;
  for (const char *p = sizes; *p && n_sizes < 32;) {
    char num[32];
    size_t l = strcspn(p, ",");
    if (l == 0 || l >= sizeof num) cli_usage_error("--curve: '%s' is not a list of sizes", sizes);
    memcpy(num, p, l);
    num[l] = '\0';
    want[n_sizes] = (size_t)cli_long("--curve", num, 2, 10000000);
    if (n_sizes && want[n_sizes] <= want[n_sizes - 1]) cli_usage_error("--curve: sizes must ascend");
    n_sizes++;
    p += l + (p[l] == ',');
  }
  tbk_page_list list;
  cli_pages_list(pages, inputs, n_inputs, &list);
  cli_output_check("--csv", csv); /* now against every page read */
  cli_output_check("--svg", svg);
  uint64_t **set = calloc(list.n + 1, sizeof *set);
  size_t *len = calloc(list.n + 1, sizeof *len), n = 0;
  uint32_t *site = calloc(list.n + 1, sizeof *site);
  if (!set || !len || !site) cli_die(TBK_EXIT_FAIL, "out of memory");
  tbk_error err = {0};
  uint32_t s = 0;
  cli_pages_progress_start(pages, list.n);
  for (size_t i = 0; i < list.n; i++) {
    if (i && strcmp(list.refs[i].site, list.refs[i - 1].site)) s++;
    tbk_page *page = cli_pages_load(pages, &list.refs[i]);
    if (!page) continue;
    if (tbk_cluster_page_paths(page, 0, &set[n], &len[n], &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    site[n++] = s;
    tbk_page_free(page);
  }
  cli_pages_progress_end(pages);
  if (!n) cli_die(TBK_EXIT_FAIL, "no page could be read");
  tbk_buf rows = {0};
  cli_mem(tbk_buf_puts(&rows, "pages,clusters,cpu_seconds,cost_start_bits,cost_end_bits,ari_sites,rss_mib\n"));
  double xs[32], secs[32], mbit[32];
  uint64_t *tmp = NULL;
  size_t tmp_cap = 0;
  for (size_t k = 0; k < n_sizes; k++) {
    size_t m = want[k];
    tbk_clusterer *cl;
    if (tbk_clusterer_new(NULL, &cl, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    uint32_t *ref = malloc(m * sizeof *ref);
    if (!ref) cli_die(TBK_EXIT_FAIL, "out of memory");
    for (size_t i = 0; i < m; i++) {
      size_t src = i % n;
      if (tbk_grow(&tmp, &tmp_cap, len[src] + 4, sizeof *tmp)) cli_die(TBK_EXIT_FAIL, "out of memory");
      size_t t = tbk_cluster_scaled_paths(set[src], len[src], i, n, tmp);
      ref[i] = site[src];
      if (tbk_clusterer_add(cl, global ? 0 : site[src], tmp, t, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    }
    double t0 = now();
    tbk_cluster_result res;
    if (tbk_clusterer_run(cl, &res, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    secs[k] = now() - t0;
    double ari, purity;
    if (tbk_cluster_agreement(res.cluster, ref, m, &ari, &purity, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    xs[k] = (double)m;
    mbit[k] = res.merge.cost_end / 1e6;
    cli_mem(tbk_buf_printf(&rows, "%zu,%zu,%.3f,%.0f,%.0f,%.4f,%.1f\n", m, res.n_clusters, secs[k],
                           res.merge.cost_start, res.merge.cost_end, ari, ru.ru_maxrss / 1024.0));
    tbk_cluster_result_free(&res);
    tbk_clusterer_free(cl);
    free(ref);
  }
  free(tmp);
  if (csv) write_file(csv, &rows);
  else fwrite(rows.data, 1, rows.len, stdout);
  if (svg) {
    tbk_line_series ls[2] = {{"CPU seconds", xs, secs, n_sizes}, {"cost (Mbit)", xs, mbit, n_sizes}};
    tbk_buf b = {0};
    if (tbk_line_svg(ls, 2, "MDL clustering: time and cost against pages", "pages", "CPU seconds / Mbit", &b, &err))
      cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    write_file(svg, &b);
    tbk_buf_free(&b);
  }
  tbk_buf_free(&rows);
  for (size_t i = 0; i < n; i++) free(set[i]);
  free(set);
  free(len);
  free(site);
  tbk_page_list_free(&list);
  return cli_exit(cli_pages_exit(pages));
}

typedef struct triple {
  uint32_t g, c, i; /* group, cluster, page */
} triple;

static int cmp_triple(const void *a, const void *b) {
  const triple *x = a, *y = b;
  if (x->g != y->g) return x->g < y->g ? -1 : 1;
  if (x->c != y->c) return x->c < y->c ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

static int score(const char *path, char **refs, size_t n_refs, const char *splits) {
  static const char *const names[] = {"page", "site", "cluster"};
  table a;
  read_table(path, names, 3, &a);
  size_t n = a.rows;
  const char **group = malloc((n + 1) * sizeof *group), **cluster = malloc((n + 1) * sizeof *cluster);
  uint32_t *gid = malloc((n + 1) * sizeof *gid), *cid = malloc((n + 1) * sizeof *cid);
  uint32_t *order = malloc((n + 1) * sizeof *order);
  if (!group || !cluster || !gid || !cid || !order) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < n; i++) {
    group[i] = a.cell[i * 3 + 1];
    cluster[i] = a.cell[i * 3 + 2];
  }
  table r[8];
  for (size_t k = 0; k < n_refs; k++) read_table(refs[k], names, 2, &r[k]);
  if (n_refs) {
    /* Each page's group from the references, found by page. */
    const char **pg = malloc((n + 1) * sizeof *pg);
    if (!pg) cli_die(TBK_EXIT_FAIL, "out of memory");
    for (size_t i = 0; i < n; i++) pg[i] = a.cell[i * 3];
    tbk_number_strings(pg, n, gid, order);
    for (size_t k = 0; k < n_refs; k++) {
      size_t found = 0;
      for (size_t j = 0; j < r[k].rows; j++) {
        const char *p = r[k].cell[j * 2];
        size_t lo = 0, hi = n;
        while (lo < hi) {
          size_t mid = (lo + hi) / 2;
          if (strcmp(pg[order[mid]], p) < 0) lo = mid + 1;
          else hi = mid;
        }
        for (; lo < n && strcmp(pg[order[lo]], p) == 0; lo++, found++) group[order[lo]] = r[k].cell[j * 2 + 1];
      }
      /* A reference of other pages (or spelt otherwise) would leave the
       * score the assignment's own sites'. */
      if (!found)
        cli_die(TBK_EXIT_FAIL, "%s: names none of the %zu pages of %s (pages match by name: it names %s, %s %s)",
                refs[k], n, path, r[k].cell[0], path, pg[0]);
    }
    for (size_t i = 0; i < n; i++)
      if (group[i] == a.cell[i * 3 + 1] && strcmp(group[i], "-") == 0)
        cli_die(TBK_EXIT_FAIL, "%s: page %s is in no --reference", path, pg[i]);
    free(pg);
  }
  size_t groups = tbk_number_strings(group, n, gid, order), clusters = tbk_number_strings(cluster, n, cid, order);
  double ari, purity, inv_purity;
  tbk_error err = {0};
  if (tbk_cluster_agreement(cid, gid, n, &ari, &purity, &err) ||
      tbk_cluster_agreement(gid, cid, n, &ari, &inv_purity, &err))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  if (splits) {
    /* Rows by (group, cluster), each with its pages and its first page. */
    tbk_buf b = {0};
    cli_mem(tbk_buf_puts(&b, "site\tcluster\tpages\texample\n"));
    triple *t = malloc((n + 1) * sizeof *t);
    if (!t) cli_die(TBK_EXIT_FAIL, "out of memory");
    for (size_t i = 0; i < n; i++) t[i] = (triple){gid[i], cid[i], (uint32_t)i};
    qsort(t, n, sizeof *t, cmp_triple);
    for (size_t i = 0, j; i < n; i = j) {
      for (j = i; j < n && t[j].g == t[i].g && t[j].c == t[i].c;) j++;
      cli_mem(tbk_buf_printf(&b, "%s\t%s\t%zu\t%s\n", group[t[i].i], cluster[t[i].i], j - i, a.cell[t[i].i * 3]));
    }
    free(t);
    write_file(splits, &b);
    tbk_buf_free(&b);
  }
  char f1[32], f2[32], f3[32];
  printf("{\"pages\":%zu,\"clusters\":%zu,\"groups\":%zu,\"ari\":%s,\"purity\":%s,\"inverse_purity\":%s}\n", n,
         clusters, groups, fmt4(f1, ari), fmt4(f2, purity), fmt4(f3, inv_purity));
  for (size_t k = 0; k < n_refs; k++) table_free(&r[k]);
  table_free(&a);
  free(group);
  free(cluster);
  free(gid);
  free(cid);
  free(order);
  return cli_exit(TBK_EXIT_OK);
}

int cmd_cluster(int argc, char **argv) {
  cli_init("tbk-eval cluster");
  enum { O_REF = CLI_OPT_FIRST_FREE, O_SPLITS, O_CURVE, O_GLOBAL, O_CSV, O_SVG };
  cli_pages pages;
  cli_pages_init(&pages);
  char *refs[8];
  size_t n_refs = 0;
  const char *splits = NULL, *sizes = NULL, *csv = NULL, *svg = NULL;
  int global = 0;
  static const struct option longopts[] = {{"reference", required_argument, 0, O_REF},
                                           {"splits", required_argument, 0, O_SPLITS},
                                           {"curve", required_argument, 0, O_CURVE},
                                           {"global", no_argument, 0, O_GLOBAL},
                                           {"csv", required_argument, 0, O_CSV},
                                           {"svg", required_argument, 0, O_SVG},
                                           {"help", no_argument, 0, 'h'},
                                           CLI_PAGE_LONGOPTS,
                                           {0, 0, 0, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    if (cli_pages_option(&pages, c, optarg)) continue;
    switch (c) {
    case O_REF:
      if (n_refs == 8) cli_usage_error("--reference: at most 8 files");
      refs[n_refs++] = optarg;
      break;
    case O_SPLITS: splits = optarg; break;
    case O_CURVE: sizes = optarg; break;
    case O_GLOBAL: global = 1; break;
    case O_CSV: csv = optarg; break;
    case O_SVG: svg = optarg; break;
    case 'h': usage_cluster(); return cli_exit(TBK_EXIT_OK);
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error(sizes ? "no input given" : "no assignment given");
  if (sizes) {
    if (n_refs || splits) cli_usage_error("--reference and --splits score an assignment, not --curve");
    cli_output_check("--csv", csv);
    cli_output_check("--svg", svg);
    return curve(&pages, argv + optind, argc - optind, sizes, global, csv, svg);
  }
  if (csv || svg || global) cli_usage_error("--csv, --svg and --global go with --curve");
  if (optind + 1 != argc) cli_usage_error("one assignment file, not %d", argc - optind);
  cli_reads_argv(argv + optind, 1);
  for (size_t k = 0; k < n_refs; k++) cli_reads_add(refs[k]);
  cli_output_check("--splits", splits);
  return score(argv[optind], refs, n_refs, splits);
}
