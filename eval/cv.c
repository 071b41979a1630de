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
#include "tbk_eval.h"

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
         "  -q, --quiet              no progress and no summary on stderr\n" CLI_PROGRESS_HELP
         "  -h, --help               show this help and exit\n\n"
         "%s\n"
         "Every row of a held-out site is scored (the caps and deduplication apply to\n"
         "training only).\n\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error\n"
         "  2  usage error (also: an output that is a file the run reads)\n"
         "  3  done, but malformed rows were skipped\n"
         "  4  an output could not be written\n"
         "  5  the data sets were made with different feature schemas\n",
         cli_train_options_help);
}

/* The run's progress (training steps of each variant's folds). */
static cli_progress meter;
static const char *meter_variant = "";

static void progress(void *ctx, const char *what) {
  (void)ctx;
  char note[96];
  snprintf(note, sizeof note, "%s: %s", meter_variant, what);
  cli_progress_note(&meter, note);
}

static const char *const VARIANT_NAMES[] = {"all", "text", "nontext"};
static const char *const VARIANT_LABELS[] = {"all features (NB text score + structure)", "text only (Naive Bayes)",
                                             "non-text only (structure)"};
/* The order the variants are run, plotted and reported in. */
static const int ORDER[3] = {TBK_PARTS_TEXT, TBK_PARTS_NONTEXT, TBK_PARTS_ALL};

typedef struct variant_result {
  tbk_ranking rank;
  tbk_operating_point op90, op95;
  int has90, has95;
  double seconds;
  double *scores; /* out-of-fold score of every row (owned) */
} variant_result;

/* One evaluation: its options, the rows and their sites, the results. */
typedef struct cv_run {
  tbk_train_options opt;
  unsigned folds;
  const char *outdir, *title;
  int quiet, want[3];
  int progress;  /* CLI_PROGRESS_AUTO, _ON or _OFF */
  char **inputs; /* the FEATURES WORDS META triples */
  int ninputs;
  size_t skipped_rows;
  tbk_dataset *ds;
  size_t rows, nsites, positives;
  tbk_cv_rows idx;       /* the rows' labels and sites */
  variant_result res[3]; /* by tbk_parts */
} cv_run;

enum { CV_OUT = CLI_OPT_FIRST_FREE, CV_VARIANTS, CV_TITLE };

/* --variants text,nontext,all (any subset, any order). */
static void parse_variants(cv_run *c, const char *arg) {
  char *list = strdup(arg), *save = NULL;
  int n = 0;
  if (!list) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    int v = strcmp(t, "all") == 0       ? TBK_PARTS_ALL
            : strcmp(t, "text") == 0    ? TBK_PARTS_TEXT
            : strcmp(t, "nontext") == 0 ? TBK_PARTS_NONTEXT
                                        : -1;
    if (v < 0) cli_usage_error("--variants: '%s' is not text, nontext or all", t);
    c->want[v] = 1;
    n++;
  }
  free(list);
  if (!n) cli_usage_error("--variants: empty list");
}

static void parse_options(cv_run *c, int argc, char **argv) {
  static const struct option longopts[] = {{"folds", required_argument, 0, 'k'},
                                           {"out", required_argument, 0, CV_OUT},
                                           {"variants", required_argument, 0, CV_VARIANTS},
                                           {"title", required_argument, 0, CV_TITLE},
                                           CLI_TRAIN_LONGOPTS,
                                           {"quiet", no_argument, 0, 'q'},
                                           {"help", no_argument, 0, 'h'},
                                           CLI_PROGRESS_LONGOPTS,
                                           {0, 0, 0, 0}};
  int ch;
  opterr = 0; /* our message format, not getopt's */
  while ((ch = getopt_long(argc, argv, ":k:C:qh", longopts, NULL)) != -1) {
    if (cli_train_option(&c->opt, ch, optarg) || cli_progress_option(&c->progress, ch)) continue;
    switch (ch) {
    case 'k': c->folds = (unsigned)cli_long("--folds", optarg, 2, 100000); break;
    case CV_OUT: c->outdir = optarg; break;
    case CV_TITLE: c->title = optarg; break;
    case CV_VARIANTS: parse_variants(c, optarg); break;
    case 'q':
      c->quiet = 1;
      c->progress = CLI_PROGRESS_OFF;
      break;
    case 'h': usage_cv(); exit(cli_exit(TBK_EXIT_OK));
    default: cli_bad_option(ch, argv);
    }
  }
  if (!c->want[0] && !c->want[1] && !c->want[2]) c->want[0] = c->want[1] = c->want[2] = 1;
  if (!*c->outdir) cli_usage_error("--out: an empty directory name names no directory");
  c->inputs = argv + optind;
  c->ninputs = argc - optind;
}

/* Cross-validate one variant and write its pr_<variant>.csv. */
static void run_variant(cv_run *c, int v) {
  variant_result *res = &c->res[v];
  tbk_train_options o = c->opt;
  o.parts = (tbk_parts)v;
  tbk_error err = {0};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  meter_variant = VARIANT_NAMES[v];
  tbk_status st = tbk_crossval(c->ds, &o, c->folds, progress, NULL, &res->scores, &err);
  if (st) cli_die(TBK_EXIT_FAIL, "cross-validation (%s) failed: %s", VARIANT_NAMES[v], err.msg);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  res->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  if (tbk_ranking_compute(res->scores, c->idx.label, c->rows, &res->rank, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  res->has90 = tbk_ranking_at_precision(&res->rank, 0.90, &res->op90) == 0;
  res->has95 = tbk_ranking_at_precision(&res->rank, 0.95, &res->op95) == 0;
  tbk_buf csv = {0};
  cli_mem(tbk_buf_puts(&csv, "threshold,precision,recall\n"));
  for (size_t i = 0; i < res->rank.ncurve; i++) {
    const tbk_eval_point *p = &res->rank.curve[i];
    cli_mem(tbk_buf_printf(&csv, "%.17g,%.6f,%.6f\n", p->threshold, p->precision, p->recall));
  }
  char name[64];
  snprintf(name, sizeof name, "pr_%s.csv", VARIANT_NAMES[v]);
  char *path = join(c->outdir, name);
  write_file(path, &csv);
  free(path);
  tbk_buf_free(&csv);
}

/* pr.svg: the curves of the variants run. */
static void write_plot(const cv_run *c) {
  tbk_plot_curve curves[3];
  char labels[3][160];
  size_t ncurves = 0;
  for (int vi = 0; vi < 3; vi++) {
    const variant_result *res = &c->res[ORDER[vi]];
    if (!c->want[ORDER[vi]]) continue;
    tbk_snprintf(labels[ncurves], sizeof labels[ncurves], "%s: AP %.3f", VARIANT_LABELS[ORDER[vi]],
                 res->rank.average_precision);
    curves[ncurves] = (tbk_plot_curve){labels[ncurves], res->rank.curve, res->rank.ncurve};
    ncurves++;
  }
  char full_title[512];
  snprintf(full_title, sizeof full_title, "%s (%zu sites, %u folds, %zu blocks)", c->title, c->nsites, c->folds,
           c->rows);
  tbk_buf svg = {0};
  tbk_error err = {0};
  if (tbk_pr_svg(curves, ncurves, full_title, c->rows ? (double)c->positives / (double)c->rows : NAN, &svg, &err))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  char *svg_path = join(c->outdir, "pr.svg");
  write_file(svg_path, &svg);
  free(svg_path);
  tbk_buf_free(&svg);
}

/* One per_site.csv line: site k's rows under variant v at threshold thr.
 * ss and sy are scratch for the site's scores and labels. */
static void site_line(const cv_run *c, int v, size_t k, double thr, double *ss, int *sy, tbk_buf *ps) {
  tbk_cv_site st;
  tbk_error err = {0};
  if (tbk_cv_site_at(&c->idx, c->res[v].scores, k, thr, ss, sy, &st, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  size_t m = st.rows, pos = st.templates, tp = st.tp, fp = st.fp;
  /* Site names are keys we wrote ourselves (host names); quote anyway. */
  cli_mem(tbk_buf_printf(ps, "%s,\"%s\",%zu,%zu,%.4f,", VARIANT_NAMES[v], c->idx.site_name[k], m, pos,
                         m ? (double)pos / (double)m : 0.0));
  if (isnan(st.rank.average_precision)) cli_mem(tbk_buf_puts(ps, ","));
  else cli_mem(tbk_buf_printf(ps, "%.4f,", st.rank.average_precision));
  cli_mem(tbk_buf_printf(ps, "%.6g,", thr));
  if (tp + fp) cli_mem(tbk_buf_printf(ps, "%.4f,", (double)tp / (double)(tp + fp)));
  else cli_mem(tbk_buf_puts(ps, ","));
  if (pos) cli_mem(tbk_buf_printf(ps, "%.4f\n", (double)tp / (double)pos));
  else cli_mem(tbk_buf_puts(ps, "\n"));
  tbk_ranking_free(&st.rank);
}

/* per_site.csv, at the global 0.90-precision threshold of each variant:
 * how evenly the operating point serves the sites. */
static void write_per_site(const cv_run *c) {
  tbk_buf ps = {0};
  cli_mem(
      tbk_buf_puts(&ps, "variant,site,rows,templates,template_share,ap,threshold90,precision_at_t90,recall_at_t90\n"));
  double *ss = malloc((c->rows ? c->rows : 1) * sizeof *ss);
  int *sy = malloc((c->rows ? c->rows : 1) * sizeof *sy);
  if (!ss || !sy) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (int vi = 0; vi < 3; vi++) {
    if (!c->want[ORDER[vi]]) continue;
    for (size_t k = 0; k < c->idx.nsites; k++)
      site_line(c, ORDER[vi], k, c->res[ORDER[vi]].op90.threshold, ss, sy, &ps);
  }
  char *ps_path = join(c->outdir, "per_site.csv");
  write_file(ps_path, &ps);
  free(ps_path);
  tbk_buf_free(&ps);
  free(ss);
  free(sy);
}

/* summary.json's head: the data and the training options. */
static void summary_head(const cv_run *c, tbk_buf *js) {
  const tbk_train_options *o = &c->opt;
  cli_mem(tbk_buf_printf(js, "{\"rows\": %zu, \"sites\": %zu, \"templates\": %zu, \"folds\": %u,\n", c->rows, c->nsites,
                         c->positives, c->folds));
  cli_mem(tbk_buf_puts(js, " \"schema\": "));
  cli_mem(tbk_buf_json_str(js, tbk_dataset_schema(c->ds), strlen(tbk_dataset_schema(c->ds))));
  cli_mem(tbk_buf_printf(js,
                         ",\n \"options\": {\"encoding\": \"%s\", \"C\": %g, \"auto_C\": %s, \"weight_template\": %g, "
                         "\"weight_content\": %g, \"nb_alpha\": %g, \"nb_folds\": %u, \"dedup\": %s, \"balance\": %s, "
                         "\"max_site_rows\": %zu},\n \"inputs\": [",
                         o->encoding == TBK_ENC_MDL   ? "mdl"
                         : o->encoding == TBK_ENC_RAW ? "raw"
                                                      : "both",
                         o->C, o->auto_C ? "true" : "false", o->weight_pos, o->weight_neg, o->nb_alpha, o->nb_folds,
                         o->dedup ? "true" : "false", o->balance ? "true" : "false", o->max_site_rows));
  for (int i = 0; i < c->ninputs; i += 3) {
    if (i > 0) cli_mem(tbk_buf_puts(js, ", "));
    cli_mem(tbk_buf_json_str(js, c->inputs[i], strlen(c->inputs[i])));
  }
  cli_mem(tbk_buf_puts(js, "],\n \"variants\": {"));
}

/* One variant's object in summary.json. */
static void summary_variant(const variant_result *r, const char *name, int first, tbk_buf *js) {
  cli_mem(tbk_buf_printf(js, "%s\n  \"%s\": {\"average_precision\": ", first ? "" : ",", name));
  cli_mem(json_num(js, r->rank.average_precision));
  cli_mem(tbk_buf_puts(js, ", \"roc_auc\": "));
  cli_mem(json_num(js, r->rank.roc_auc));
  const tbk_operating_point *ops[2] = {&r->op90, &r->op95};
  const int has[2] = {r->has90, r->has95};
  const char *keys[2] = {"at_precision_0.90", "at_precision_0.95"};
  for (int k = 0; k < 2; k++) {
    cli_mem(tbk_buf_printf(js, ", \"%s\": {\"recall\": ", keys[k]));
    cli_mem(json_num(js, has[k] ? ops[k]->recall : 0.0));
    cli_mem(tbk_buf_puts(js, ", \"precision\": "));
    cli_mem(json_num(js, has[k] ? ops[k]->precision : NAN));
    cli_mem(tbk_buf_puts(js, ", \"threshold\": "));
    if (has[k]) cli_mem(tbk_buf_printf(js, "%.6g", ops[k]->threshold));
    else cli_mem(tbk_buf_puts(js, "null"));
    cli_mem(tbk_buf_puts(js, "}"));
  }
  cli_mem(tbk_buf_printf(js, ", \"rows\": %zu, \"templates\": %zu, \"seconds\": %.1f}", r->rank.rows, r->rank.positives,
                         r->seconds));
}

/* summary.json, and the markdown table on stdout. */
static void write_summary(const cv_run *c) {
  tbk_buf js = {0};
  summary_head(c, &js);
  printf("| variant | PR-AUC (AP) | ROC-AUC | recall @ P≥0.90 | recall @ P≥0.95 | rows | templates | sites |\n"
         "|---|---|---|---|---|---|---|---|\n");
  int first = 1;
  for (int vi = 0; vi < 3; vi++) {
    int v = ORDER[vi];
    if (!c->want[v]) continue;
    const variant_result *r = &c->res[v];
    summary_variant(r, VARIANT_NAMES[v], first, &js);
    first = 0;
    char a[32], b[32], c90[32], c95[32];
    printf("| %s | %s | %s | %s | %s | %zu | %zu | %zu |\n", VARIANT_NAMES[v], fmt4(a, r->rank.average_precision),
           fmt4(b, r->rank.roc_auc), fmt4(c90, r->has90 ? r->op90.recall : 0.0),
           fmt4(c95, r->has95 ? r->op95.recall : 0.0), r->rank.rows, r->rank.positives, c->nsites);
  }
  cli_mem(tbk_buf_puts(&js, "\n }\n}\n"));
  char *js_path = join(c->outdir, "summary.json");
  write_file(js_path, &js);
  free(js_path);
  tbk_buf_free(&js);
}

int cmd_cv(int argc, char **argv) {
  cli_init("tbk-eval cv");
  cv_run c = {0};
  tbk_train_options_init(&c.opt);
  c.opt.cv_folds = 0; /* the evaluation's own CV replaces the operating points */
  c.folds = 10;
  c.outdir = "tbk-eval-cv";
  c.title = "Template blocks, cross-site CV";
  c.progress = CLI_PROGRESS_AUTO;
  parse_options(&c, argc, argv);
  c.ds = cli_read_dataset(argc, argv, optind, &c.skipped_rows);
  c.rows = tbk_dataset_rows(c.ds);
  c.nsites = tbk_dataset_sites(c.ds);
  if (c.nsites < 2) cli_die(TBK_EXIT_FAIL, "cross-site validation needs at least 2 sites (have %zu)", c.nsites);
  if (c.folds > c.nsites) {
    if (!c.quiet)
      fprintf(stderr, "%s: only %zu sites: %zu folds (leave one site out)\n", cli_prog(), c.nsites, c.nsites);
    c.folds = (unsigned)c.nsites;
  }
  if (!c.quiet)
    fprintf(stderr, "%s: %zu rows from %zu sites, %u folds (schema %s)\n", cli_prog(), c.rows, c.nsites, c.folds,
            tbk_dataset_schema(c.ds));
  const char *outdir = c.outdir;
  /* The files --out gets, none of them an input (they replace what is there). */
  static const char *const out_names[] = {"pr_all.csv", "pr_text.csv",  "pr_nontext.csv",
                                          "pr.svg",     "per_site.csv", "summary.json"};
  for (size_t k = 0; k < sizeof out_names / sizeof out_names[0]; k++) {
    char *p = join(outdir, out_names[k]);
    cli_output_check("--out", p);
    free(p);
  }
  /* --out is built beside it and moved into place only when every file is
   * written: a run that fails or is killed midway leaves no partial --out */
  cli_stage stage;
  cli_stage_open(&stage, outdir);
  c.outdir = stage.tmp;
  tbk_error err = {0};
  if (tbk_cv_rows_index(c.ds, &c.idx, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  c.positives = c.idx.positives;
  cli_progress_start(&meter, c.progress, NULL, 0);
  for (int vi = 0; vi < 3; vi++)
    if (c.want[ORDER[vi]]) run_variant(&c, ORDER[vi]);
  cli_progress_end(&meter);
  write_plot(&c);
  write_per_site(&c);
  write_summary(&c);
  /* The table on stdout is an output too: --out appears only if it went out. */
  int code = cli_exit(c.skipped_rows ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
  if (publish_files(code) != TBK_EXIT_WRITE) cli_stage_publish(&stage);
  else cli_stage_discard(&stage);
  c.outdir = outdir;
  for (int v = 0; v < 3; v++) {
    tbk_ranking_free(&c.res[v].rank);
    free(c.res[v].scores);
  }
  tbk_cv_rows_free(&c.idx);
  tbk_dataset_free(c.ds);
  return code;
}
