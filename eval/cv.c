/* tbk-eval cv: cross-site cross-validation with the text / non-text ablation. */
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

/* --------------------------------------------------------------------- cv */

static void usage_cv(void) {
  printf("Usage: tbk-eval cv [OPTION]... FEATURES WORDS META [FEATURES WORDS META]...\n"
         "Cross-site k-fold cross-validation: the sites are split into K folds and the\n"
         "whole training procedure (the same as tbk-train's, with the same options) is\n"
         "refitted without each fold's sites, which it then scores. Runs the paper's\n"
         "ablation: text (Naive-Bayes text score only), nontext (every other feature)\n"
         "and all.\n\n"
         "Writes into DIR: pr_<variant>.csv (threshold,precision,recall), pr.svg (the\n"
         "three curves), per_site.csv (variant, site, rows, template share, AP, and\n"
         "precision/recall at the global threshold of the 0.90-precision point) and\n"
         "summary.json; prints a markdown table: PR-AUC (average precision), ROC-AUC,\n"
         "template recall at precision 0.90 and 0.95, rows and sites.\n\n"
         "Options:\n"
         "  -k, --folds K            folds (default 10; at most the number of sites)\n"
         "      --out DIR            output directory (default tbk-eval-cv)\n"
         "      --variants LIST      comma-separated subset of text,nontext,all\n"
         "                           (default text,nontext,all)\n"
         "      --title TEXT         title of the plot\n"
         "  -q, --quiet              no progress on stderr\n"
         "  -h, --help               show this help and exit\n\n"
         "%s\n"
         "Every row of a held-out site is scored (the caps and deduplication apply to\n"
         "training only).\n\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error\n"
         "  2  usage error\n"
         "  3  done, but malformed rows were skipped\n"
         "  4  an output could not be written\n"
         "  5  the data sets were made with different feature schemas\n",
         cli_train_options_help);
}

static size_t skipped_rows;

static void progress(void *ctx, const char *what) {
  fprintf(stderr, "%s: %s: %s\n", cli_prog(), (const char *)ctx, what);
}

static const char *const VARIANT_NAMES[] = {"all", "text", "nontext"};
static const char *const VARIANT_LABELS[] = {"all features (NB text score + structure)", "text only (Naive Bayes)",
                                             "non-text only (structure)"};

typedef struct variant_result {
  int parts; /* tbk_parts */
  tbk_ranking rank;
  tbk_operating_point op90, op95;
  int has90, has95;
  double seconds;
} variant_result;

enum { CV_OUT = CLI_OPT_FIRST_FREE, CV_VARIANTS, CV_TITLE };

int cmd_cv(int argc, char **argv) {
  cli_init("tbk-eval cv");
  tbk_train_options opt;
  tbk_train_options_init(&opt);
  opt.cv_folds = 0; /* the evaluation's own CV replaces the operating points */
  unsigned folds = 10;
  const char *outdir = "tbk-eval-cv", *title = "Template blocks, cross-site CV";
  int quiet = 0, want[3] = {0, 0, 0}, nwant = 0;
  static const struct option longopts[] = {
      {"folds", required_argument, 0, 'k'},           {"out", required_argument, 0, CV_OUT},
      {"variants", required_argument, 0, CV_VARIANTS}, {"title", required_argument, 0, CV_TITLE},
      CLI_TRAIN_LONGOPTS,
      {"quiet", no_argument, 0, 'q'},                  {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":k:C:qh", longopts, NULL)) != -1) {
    if (cli_train_option(&opt, c, optarg)) continue;
    switch (c) {
    case 'k': folds = (unsigned)cli_long("--folds", optarg, 2, 100000); break;
    case CV_OUT: outdir = optarg; break;
    case CV_TITLE: title = optarg; break;
    case CV_VARIANTS: {
      char *list = strdup(optarg), *save = NULL;
      if (!list) cli_die(TBK_EXIT_FAIL, "out of memory");
      for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int v = strcmp(t, "all") == 0 ? TBK_PARTS_ALL
                : strcmp(t, "text") == 0 ? TBK_PARTS_TEXT
                : strcmp(t, "nontext") == 0 ? TBK_PARTS_NONTEXT
                : -1;
        if (v < 0) cli_usage_error("--variants: '%s' is not text, nontext or all", t);
        if (!want[v]) nwant++;
        want[v] = 1;
      }
      free(list);
      if (!nwant) cli_usage_error("--variants: empty list");
      break;
    }
    case 'q': quiet = 1; break;
    case 'h': usage_cv(); return cli_exit(TBK_EXIT_OK);
    default: cli_bad_option(c, argv);
    }
  }
  if (!nwant) want[0] = want[1] = want[2] = 1;
  if (!*outdir) cli_usage_error("--out: an empty directory name names no directory");
  tbk_dataset *ds = cli_read_dataset(argc, argv, optind, &skipped_rows);
  tbk_error err = {0};
  size_t rows = tbk_dataset_rows(ds), nsites = tbk_dataset_sites(ds);
  if (nsites < 2) cli_die(TBK_EXIT_FAIL, "cross-site validation needs at least 2 sites (have %zu)", nsites);
  if (folds > nsites) {
    if (!quiet) fprintf(stderr, "%s: only %zu sites: %zu folds (leave one site out)\n", cli_prog(), nsites, nsites);
    folds = (unsigned)nsites;
  }
  if (!quiet)
    fprintf(stderr, "%s: %zu rows from %zu sites, %u folds (schema %s)\n", cli_prog(), rows, nsites, folds,
            tbk_dataset_schema(ds));
  if (cli_mkdirs(outdir)) cli_die(TBK_EXIT_WRITE, "%s: cannot create directory: %s", outdir, strerror(errno));

  int *label = malloc((rows ? rows : 1) * sizeof *label);
  if (!label) cli_die(TBK_EXIT_FAIL, "out of memory");
  size_t positives = 0;
  for (size_t r = 0; r < rows; r++) positives += (label[r] = tbk_dataset_label(ds, r)) == 1;

  /* Sites in first-seen order, with their rows (site strings are interned,
   * so pointer identity is site identity). */
  const char **site_name = malloc(nsites * sizeof *site_name);
  size_t *site_of = malloc((rows ? rows : 1) * sizeof *site_of), found = 0;
  if (!site_name || !site_of) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (size_t r = 0; r < rows; r++) {
    const char *s = tbk_dataset_site(ds, r);
    size_t k = 0;
    if (r > 0 && s == tbk_dataset_site(ds, r - 1)) k = site_of[r - 1];
    else {
      while (k < found && site_name[k] != s) k++;
      if (k == found) site_name[found++] = s;
    }
    site_of[r] = k;
  }

  variant_result res[3];
  double *scores[3] = {NULL, NULL, NULL};
  int order[3] = {TBK_PARTS_TEXT, TBK_PARTS_NONTEXT, TBK_PARTS_ALL};
  for (int vi = 0; vi < 3; vi++) {
    int v = order[vi];
    memset(&res[v], 0, sizeof res[v]);
    if (!want[v]) continue;
    tbk_train_options o = opt;
    o.parts = (tbk_parts)v;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tbk_status st = tbk_crossval(ds, &o, folds, quiet ? NULL : progress, (void *)VARIANT_NAMES[v], &scores[v], &err);
    if (st) cli_die(TBK_EXIT_FAIL, "cross-validation (%s) failed: %s", VARIANT_NAMES[v], err.msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    res[v].seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    res[v].parts = v;
    if (tbk_ranking_compute(scores[v], label, rows, &res[v].rank, &err))
      cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    res[v].has90 = tbk_ranking_at_precision(&res[v].rank, 0.90, &res[v].op90) == 0;
    res[v].has95 = tbk_ranking_at_precision(&res[v].rank, 0.95, &res[v].op95) == 0;
    tbk_buf csv = {0};
    cli_mem(tbk_buf_puts(&csv, "threshold,precision,recall\n"));
    for (size_t i = 0; i < res[v].rank.ncurve; i++) {
      const tbk_eval_point *p = &res[v].rank.curve[i];
      cli_mem(tbk_buf_printf(&csv, "%.17g,%.6f,%.6f\n", p->threshold, p->precision, p->recall));
    }
    char name[64];
    snprintf(name, sizeof name, "pr_%s.csv", VARIANT_NAMES[v]);
    char *path = join(outdir, name);
    write_file(path, &csv);
    free(path);
    tbk_buf_free(&csv);
  }

  /* The plot. */
  tbk_plot_curve curves[3];
  char labels[3][160];
  size_t ncurves = 0;
  for (int vi = 0; vi < 3; vi++) {
    int v = order[vi];
    if (!want[v]) continue;
    tbk_snprintf(labels[ncurves], sizeof labels[ncurves], "%s: AP %.3f", VARIANT_LABELS[v],
             res[v].rank.average_precision);
    curves[ncurves] = (tbk_plot_curve){labels[ncurves], res[v].rank.curve, res[v].rank.ncurve};
    ncurves++;
  }
  char full_title[512];
  snprintf(full_title, sizeof full_title, "%s (%zu sites, %u folds, %zu blocks)", title, nsites, folds, rows);
  tbk_buf svg = {0};
  if (tbk_pr_svg(curves, ncurves, full_title, rows ? (double)positives / (double)rows : NAN, &svg, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  char *svg_path = join(outdir, "pr.svg");
  write_file(svg_path, &svg);
  free(svg_path);
  tbk_buf_free(&svg);

  /* Per-site figures, at the global 0.90-precision threshold of each
   * variant: how evenly the operating point serves the sites. */
  tbk_buf ps = {0};
  cli_mem(tbk_buf_puts(&ps, "variant,site,rows,templates,template_share,ap,threshold90,precision_at_t90,recall_at_t90\n"));
  double *ss = malloc((rows ? rows : 1) * sizeof *ss);
  int *sy = malloc((rows ? rows : 1) * sizeof *sy);
  if (!ss || !sy) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (int vi = 0; vi < 3; vi++) {
    int v = order[vi];
    if (!want[v]) continue;
    double thr = res[v].op90.threshold;
    for (size_t k = 0; k < found; k++) {
      size_t m = 0, pos = 0, tp = 0, fp = 0;
      for (size_t r = 0; r < rows; r++) {
        if (site_of[r] != k || isnan(scores[v][r])) continue;
        ss[m] = scores[v][r];
        sy[m] = label[r];
        pos += sy[m] == 1;
        if (ss[m] >= thr) { tp += sy[m] == 1; fp += sy[m] != 1; }
        m++;
      }
      tbk_ranking sr;
      if (tbk_ranking_compute(ss, sy, m, &sr, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
      /* Site names are keys we wrote ourselves (host names); quote anyway. */
      cli_mem(tbk_buf_printf(&ps, "%s,\"%s\",%zu,%zu,%.4f,", VARIANT_NAMES[v], site_name[k], m, pos,
                             m ? (double)pos / (double)m : 0.0));
      if (isnan(sr.average_precision)) cli_mem(tbk_buf_puts(&ps, ","));
      else cli_mem(tbk_buf_printf(&ps, "%.4f,", sr.average_precision));
      cli_mem(tbk_buf_printf(&ps, "%.6g,", thr));
      if (tp + fp) cli_mem(tbk_buf_printf(&ps, "%.4f,", (double)tp / (double)(tp + fp)));
      else cli_mem(tbk_buf_puts(&ps, ","));
      if (pos) cli_mem(tbk_buf_printf(&ps, "%.4f\n", (double)tp / (double)pos));
      else cli_mem(tbk_buf_puts(&ps, "\n"));
      tbk_ranking_free(&sr);
    }
  }
  char *ps_path = join(outdir, "per_site.csv");
  write_file(ps_path, &ps);
  free(ps_path);
  tbk_buf_free(&ps);
  free(ss);
  free(sy);

  /* summary.json and the table. */
  tbk_buf js = {0};
  cli_mem(tbk_buf_printf(&js, "{\"rows\": %zu, \"sites\": %zu, \"templates\": %zu, \"folds\": %u,\n", rows, nsites, positives,
                         folds));
  cli_mem(tbk_buf_puts(&js, " \"schema\": "));
  cli_mem(tbk_buf_json_str(&js, tbk_dataset_schema(ds), strlen(tbk_dataset_schema(ds))));
  cli_mem(tbk_buf_printf(&js,
                         ",\n \"options\": {\"encoding\": \"%s\", \"C\": %g, \"auto_C\": %s, \"weight_template\": %g, "
                         "\"weight_content\": %g, \"nb_alpha\": %g, \"nb_folds\": %u, \"dedup\": %s, \"balance\": %s, "
                         "\"max_site_rows\": %zu},\n \"inputs\": [",
                         opt.encoding == TBK_ENC_MDL ? "mdl" : opt.encoding == TBK_ENC_RAW ? "raw" : "both", opt.C,
                         opt.auto_C ? "true" : "false", opt.weight_pos, opt.weight_neg, opt.nb_alpha, opt.nb_folds,
                         opt.dedup ? "true" : "false", opt.balance ? "true" : "false", opt.max_site_rows));
  for (int i = optind; i < argc; i += 3) {
    if (i > optind) cli_mem(tbk_buf_puts(&js, ", "));
    cli_mem(tbk_buf_json_str(&js, argv[i], strlen(argv[i])));
  }
  cli_mem(tbk_buf_puts(&js, "],\n \"variants\": {"));
  printf("| variant | PR-AUC (AP) | ROC-AUC | recall @ P≥0.90 | recall @ P≥0.95 | rows | templates | sites |\n"
         "|---|---|---|---|---|---|---|---|\n");
  int first = 1;
  for (int vi = 0; vi < 3; vi++) {
    int v = order[vi];
    if (!want[v]) continue;
    const variant_result *r = &res[v];
    cli_mem(tbk_buf_printf(&js, "%s\n  \"%s\": {\"average_precision\": ", first ? "" : ",", VARIANT_NAMES[v]));
    first = 0;
    cli_mem(json_num(&js, r->rank.average_precision));
    cli_mem(tbk_buf_puts(&js, ", \"roc_auc\": "));
    cli_mem(json_num(&js, r->rank.roc_auc));
    const tbk_operating_point *ops[2] = {&r->op90, &r->op95};
    const int has[2] = {r->has90, r->has95};
    const char *keys[2] = {"at_precision_0.90", "at_precision_0.95"};
    for (int k = 0; k < 2; k++) {
      cli_mem(tbk_buf_printf(&js, ", \"%s\": {\"recall\": ", keys[k]));
      cli_mem(json_num(&js, has[k] ? ops[k]->recall : 0.0));
      cli_mem(tbk_buf_puts(&js, ", \"precision\": "));
      cli_mem(json_num(&js, has[k] ? ops[k]->precision : NAN));
      cli_mem(tbk_buf_puts(&js, ", \"threshold\": "));
      if (has[k]) cli_mem(tbk_buf_printf(&js, "%.6g", ops[k]->threshold));
      else cli_mem(tbk_buf_puts(&js, "null"));
      cli_mem(tbk_buf_puts(&js, "}"));
    }
    cli_mem(tbk_buf_printf(&js, ", \"rows\": %zu, \"templates\": %zu, \"seconds\": %.1f}", r->rank.rows, r->rank.positives,
                           r->seconds));
    char a[32], b[32], c90[32], c95[32];
    printf("| %s | %s | %s | %s | %s | %zu | %zu | %zu |\n", VARIANT_NAMES[v], fmt4(a, r->rank.average_precision),
           fmt4(b, r->rank.roc_auc), fmt4(c90, r->has90 ? r->op90.recall : 0.0),
           fmt4(c95, r->has95 ? r->op95.recall : 0.0), r->rank.rows, r->rank.positives, nsites);
  }
  cli_mem(tbk_buf_puts(&js, "\n }\n}\n"));
  char *js_path = join(outdir, "summary.json");
  write_file(js_path, &js);
  free(js_path);
  tbk_buf_free(&js);

  for (int v = 0; v < 3; v++) {
    tbk_ranking_free(&res[v].rank);
    free(scores[v]);
  }
  free(label);
  free(site_name);
  free(site_of);
  tbk_dataset_free(ds);
  return cli_exit(skipped_rows ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
}

