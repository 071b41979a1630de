/* tbk-eval: measure the model. Cross-site cross-validation of the whole
 * training procedure (with the paper's text / non-text ablation), the token
 * overlap of extracted text with human gold text, and trafilatura's
 * must-have / must-not-have snippets. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static void usage(void) {
  printf("Usage: tbk-eval COMMAND [OPTION]... ARG...\n"
         "Evaluate template-block detection.\n\n"
         "Commands:\n"
         "  cv        cross-site k-fold cross-validation of the training procedure on\n"
         "            labelled blocks, with the text / non-text ablation\n"
         "  gold      token precision/recall/F1 of extracted text against gold text\n"
         "  snippets  trafilatura's must-have / must-not-have snippet evaluation\n\n"
         "Run 'tbk-eval COMMAND --help' for the options of each command.\n"
         "  -h, --help     show this help and exit\n"
         "      --version  show the version and exit\n");
}

/* ------------------------------------------------------------ shared bits */

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int mkdir_p(const char *dir) {
  char *p = strdup(dir);
  if (!p) return -1;
  for (char *s = p + 1;; s++) {
    if (*s != '/' && *s != '\0') continue;
    char c = *s;
    *s = '\0';
    if (mkdir(p, 0777) && errno != EEXIST) { free(p); return -1; }
    *s = c;
    if (!c) break;
  }
  free(p);
  return 0;
}

static char *join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (!s) cli_die(TBK_EXIT_FAIL, "out of memory");
  snprintf(s, n, "%s/%s", a, b);
  return s;
}


/* The prediction of a page in DIR: the tbk-predict layout
 * (DIR/pages/<site>/<id>.txt for a manifest row "pages/<site>/<id>.html"),
 * else the bench/peers layout, which drops the leading "pages/". NULL when
 * neither exists. */
static char *find_prediction(const char *dir, const char *page) {
  char *p = cli_output_name(dir, page, ".txt");
  if (file_exists(p)) return p;
  free(p);
  if (strncmp(page, "pages/", 6) == 0) {
    p = cli_output_name(dir, page + 6, ".txt");
    if (file_exists(p)) return p;
    free(p);
  }
  return NULL;
}

static void json_num(tbk_buf *b, double v) {
  if (isnan(v) || isinf(v)) tbk_buf_puts(b, "null");
  else tbk_buf_printf(b, "%.4f", v);
}

static void write_file(const char *path, const tbk_buf *b) {
  cli_out o;
  cli_out_open(&o, path);
  if (b->len && fwrite(b->data, 1, b->len, o.f) != b->len) cli_die(TBK_EXIT_WRITE, "%s: cannot write", path);
  cli_out_commit(&o);
}

static const char *fmt4(char *buf, double v) {
  if (isnan(v)) return "-";
  snprintf(buf, 32, "%.4f", v);
  return buf;
}

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
         "training only).\n"
         "Exit status: 0 ok; 1 fatal error; 2 usage error; 3 done, but malformed rows\n"
         "were skipped; 4 an output could not be written.\n",
         cli_train_options_help);
}

static size_t skipped_rows;
static void warn_row(void *ctx, const char *file, const char *msg) {
  (void)ctx;
  skipped_rows++;
  if (skipped_rows <= 20) cli_warn("%s: %s", file, msg);
  else if (skipped_rows == 21) cli_warn("more malformed rows; only the count will be reported");
}

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

static int cmd_cv(int argc, char **argv) {
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
  int n = argc - optind;
  if (n == 0 || n % 3) cli_usage_error("expected FEATURES WORDS META triples, got %d file(s)", n);

  tbk_dataset *ds;
  tbk_error err = {0};
  if (tbk_dataset_new(NULL, 0, 0, &ds, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  for (int i = optind; i < argc; i += 3) {
    tbk_status st = tbk_dataset_read(ds, argv[i], argv[i + 1], argv[i + 2], warn_row, NULL, &err);
    if (st) cli_die(st == TBK_ERR_SCHEMA ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", argv[i], err.msg);
  }
  size_t rows = tbk_dataset_rows(ds), nsites = tbk_dataset_sites(ds);
  if (skipped_rows) cli_warn("%zu malformed rows skipped", skipped_rows);
  if (nsites < 2) cli_die(TBK_EXIT_FAIL, "cross-site validation needs at least 2 sites (have %zu)", nsites);
  if (folds > nsites) {
    if (!quiet) fprintf(stderr, "%s: only %zu sites: %zu folds (leave one site out)\n", cli_prog(), nsites, nsites);
    folds = (unsigned)nsites;
  }
  if (!quiet)
    fprintf(stderr, "%s: %zu rows from %zu sites, %u folds (schema %s)\n", cli_prog(), rows, nsites, folds,
            tbk_dataset_schema(ds));
  if (mkdir_p(outdir)) cli_die(TBK_EXIT_WRITE, "%s: cannot create directory: %s", outdir, strerror(errno));

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
    tbk_buf_puts(&csv, "threshold,precision,recall\n");
    for (size_t i = 0; i < res[v].rank.ncurve; i++) {
      const tbk_eval_point *p = &res[v].rank.curve[i];
      tbk_buf_printf(&csv, "%.17g,%.6f,%.6f\n", p->threshold, p->precision, p->recall);
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
    snprintf(labels[ncurves], sizeof labels[ncurves], "%s: AP %.3f", VARIANT_LABELS[v],
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
  tbk_buf_puts(&ps, "variant,site,rows,templates,template_share,ap,threshold90,precision_at_t90,recall_at_t90\n");
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
      tbk_buf_printf(&ps, "%s,\"%s\",%zu,%zu,%.4f,", VARIANT_NAMES[v], site_name[k], m, pos,
                     m ? (double)pos / (double)m : 0.0);
      if (isnan(sr.average_precision)) tbk_buf_puts(&ps, ",");
      else tbk_buf_printf(&ps, "%.4f,", sr.average_precision);
      tbk_buf_printf(&ps, "%.6g,", thr);
      if (tp + fp) tbk_buf_printf(&ps, "%.4f,", (double)tp / (double)(tp + fp));
      else tbk_buf_puts(&ps, ",");
      if (pos) tbk_buf_printf(&ps, "%.4f\n", (double)tp / (double)pos);
      else tbk_buf_puts(&ps, "\n");
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
  tbk_buf_printf(&js, "{\"rows\": %zu, \"sites\": %zu, \"templates\": %zu, \"folds\": %u,\n", rows, nsites, positives,
                 folds);
  tbk_buf_puts(&js, " \"schema\": ");
  tbk_buf_json_str(&js, tbk_dataset_schema(ds), strlen(tbk_dataset_schema(ds)));
  tbk_buf_printf(&js,
                 ",\n \"options\": {\"encoding\": \"%s\", \"C\": %g, \"auto_C\": %s, \"weight_template\": %g, "
                 "\"weight_content\": %g, \"nb_alpha\": %g, \"nb_folds\": %u, \"dedup\": %s, \"balance\": %s, "
                 "\"max_site_rows\": %zu},\n \"inputs\": [",
                 opt.encoding == TBK_ENC_MDL ? "mdl" : opt.encoding == TBK_ENC_RAW ? "raw" : "both", opt.C,
                 opt.auto_C ? "true" : "false", opt.weight_pos, opt.weight_neg, opt.nb_alpha, opt.nb_folds,
                 opt.dedup ? "true" : "false", opt.balance ? "true" : "false", opt.max_site_rows);
  for (int i = optind; i < argc; i += 3) {
    if (i > optind) tbk_buf_puts(&js, ", ");
    tbk_buf_json_str(&js, argv[i], strlen(argv[i]));
  }
  tbk_buf_puts(&js, "],\n \"variants\": {");
  printf("| variant | PR-AUC (AP) | ROC-AUC | recall @ P≥0.90 | recall @ P≥0.95 | rows | templates | sites |\n"
         "|---|---|---|---|---|---|---|---|\n");
  int first = 1;
  for (int vi = 0; vi < 3; vi++) {
    int v = order[vi];
    if (!want[v]) continue;
    const variant_result *r = &res[v];
    tbk_buf_printf(&js, "%s\n  \"%s\": {\"average_precision\": ", first ? "" : ",", VARIANT_NAMES[v]);
    first = 0;
    json_num(&js, r->rank.average_precision);
    tbk_buf_puts(&js, ", \"roc_auc\": ");
    json_num(&js, r->rank.roc_auc);
    const tbk_operating_point *ops[2] = {&r->op90, &r->op95};
    const int has[2] = {r->has90, r->has95};
    const char *keys[2] = {"at_precision_0.90", "at_precision_0.95"};
    for (int k = 0; k < 2; k++) {
      tbk_buf_printf(&js, ", \"%s\": {\"recall\": ", keys[k]);
      json_num(&js, has[k] ? ops[k]->recall : 0.0);
      tbk_buf_puts(&js, ", \"precision\": ");
      json_num(&js, has[k] ? ops[k]->precision : NAN);
      tbk_buf_puts(&js, ", \"threshold\": ");
      if (has[k]) tbk_buf_printf(&js, "%.6g", ops[k]->threshold);
      else tbk_buf_puts(&js, "null");
      tbk_buf_puts(&js, "}");
    }
    tbk_buf_printf(&js, ", \"rows\": %zu, \"templates\": %zu, \"seconds\": %.1f}", r->rank.rows, r->rank.positives,
                   r->seconds);
    char a[32], b[32], c90[32], c95[32];
    printf("| %s | %s | %s | %s | %s | %zu | %zu | %zu |\n", VARIANT_NAMES[v], fmt4(a, r->rank.average_precision),
           fmt4(b, r->rank.roc_auc), fmt4(c90, r->has90 ? r->op90.recall : 0.0),
           fmt4(c95, r->has95 ? r->op95.recall : 0.0), r->rank.rows, r->rank.positives, nsites);
  }
  tbk_buf_puts(&js, "\n }\n}\n");
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

/* ------------------------------------------------------------------- gold */

static void usage_gold(void) {
  printf("Usage: tbk-eval gold [OPTION]... MANIFEST [PRED_DIR]\n"
         "Score extracted text against human gold text, page by page: both are cut into\n"
         "case-folded Unicode word tokens (the library tokenizer) and compared as\n"
         "multisets: P = common/extracted, R = common/gold, F1 = 2PR/(P+R); both empty\n"
         "= 1/1/1, one empty = 0/0/0. Reports the mean and median over the pages as one\n"
         "JSON line.\n\n"
         "Pages are the MANIFEST rows with a gold file. The extraction of page\n"
         "\"pages/S/ID.html\" is PRED_DIR/pages/S/ID.txt (tbk-predict --output-dir) or\n"
         "else PRED_DIR/S/ID.txt (bench/peers/run_peers.sh); a missing file is an empty\n"
         "extraction (counted in missing_outputs).\n\n"
         "Options:\n"
         "      --baseline         no PRED_DIR: score each page's whole visible text\n"
         "                         (no removal at all)\n"
         "      --comments         gold = the gold file plus, when it exists, the\n"
         "                         file beside it with .comments.txt for .txt (Dragnet\n"
         "                         and synth_sites.py keep user comments there): the\n"
         "                         whole non-template text of the page\n"
         "      --per-page FILE    also write per-page figures (TSV: site, page,\n"
         "                         precision, recall, f1, pred_tokens, gold_tokens)\n"
         "      --name NAME        the \"name\" field of the JSON line (default: PRED_DIR,\n"
         "                         or \"baseline\")\n"
         "  -h, --help             show this help and exit\n\n"
         "Exit status: 0 ok; 1 fatal error; 2 usage error; 3 done, but some gold or\n"
         "page files could not be read (each reported; scored as empty).\n");
}

enum { GOLD_BASELINE = CLI_OPT_FIRST_FREE, GOLD_PER_PAGE, GOLD_NAME, GOLD_COMMENTS };

/* X.comments.txt for gold file X.txt (NULL when the name does not end in
 * .txt or no such file exists). */
static char *comments_file(const char *gold) {
  size_t n = strlen(gold);
  if (n < 4 || strcmp(gold + n - 4, ".txt") != 0) return NULL;
  char *c = malloc(n + 16);
  if (!c) cli_die(TBK_EXIT_FAIL, "out of memory");
  memcpy(c, gold, n - 4);
  strcpy(c + n - 4, ".comments.txt");
  if (file_exists(c)) return c;
  free(c);
  return NULL;
}

static int cmd_gold(int argc, char **argv) {
  cli_init("tbk-eval gold");
  int baseline = 0, comments = 0;
  const char *per_page = NULL, *name = NULL;
  static const struct option longopts[] = {{"baseline", no_argument, 0, GOLD_BASELINE},
                                           {"comments", no_argument, 0, GOLD_COMMENTS},
                                           {"per-page", required_argument, 0, GOLD_PER_PAGE},
                                           {"name", required_argument, 0, GOLD_NAME},
                                           {"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    switch (c) {
    case GOLD_BASELINE: baseline = 1; break;
    case GOLD_COMMENTS: comments = 1; break;
    case GOLD_PER_PAGE: per_page = optarg; break;
    case GOLD_NAME: name = optarg; break;
    case 'h': usage_gold(); return cli_exit(TBK_EXIT_OK);
    default: cli_bad_option(c, argv);
    }
  }
  int n = argc - optind;
  if (baseline ? n != 1 : n != 2)
    cli_usage_error(baseline ? "expected MANIFEST (and no PRED_DIR with --baseline)" : "expected MANIFEST PRED_DIR");
  const char *manifest = argv[optind], *pred_dir = baseline ? NULL : argv[optind + 1];
  if (pred_dir) {
    struct stat st;
    if (stat(pred_dir, &st) || !S_ISDIR(st.st_mode)) cli_die(TBK_EXIT_FAIL, "%s: not a directory", pred_dir);
  }
  tbk_page_list list = {0};
  tbk_input_options iopt;
  tbk_input_options_init(&iopt);
  tbk_error err = {0};
  tbk_status st = tbk_page_list_add(&list, manifest, &iopt, NULL, NULL, &err);
  if (st) cli_die(TBK_EXIT_FAIL, "%s: %s", manifest, err.msg);
  tbk_page_list_sort(&list);
  tbk_tokenizer *tok;
  if (tbk_tokenizer_new(&tok, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  tbk_page_options popt;
  tbk_page_options_init(&popt);

  size_t npages = 0, missing = 0, empty = 0, problems = 0;
  double *P = malloc((list.n ? list.n : 1) * sizeof *P), *R = malloc((list.n ? list.n : 1) * sizeof *R),
         *F = malloc((list.n ? list.n : 1) * sizeof *F);
  if (!P || !R || !F) cli_die(TBK_EXIT_FAIL, "out of memory");
  cli_out pp;
  if (per_page) {
    cli_out_open(&pp, per_page);
    fputs("site\tpage\tprecision\trecall\tf1\tpred_tokens\tgold_tokens\n", pp.f);
  }
  tbk_buf gold = {0}, pred = {0};
  for (size_t i = 0; i < list.n; i++) {
    const tbk_page_ref *ref = &list.refs[i];
    if (!ref->gold[0]) continue;
    gold.len = 0;
    if (tbk_read_file(ref->gold, 0, &gold, &err)) {
      cli_warn("%s: %s (scored as empty gold)", ref->gold, err.msg);
      problems++;
      gold.len = 0;
    }
    char *cfile = comments ? comments_file(ref->gold) : NULL;
    if (cfile) {
      tbk_buf more = {0};
      if (tbk_read_file(cfile, 0, &more, &err)) {
        cli_warn("%s: %s (comments left out)", cfile, err.msg);
        problems++;
      } else if (tbk_buf_append(&gold, "\n", 1) || tbk_buf_append(&gold, more.data ? more.data : "", more.len)) {
        cli_die(TBK_EXIT_FAIL, "out of memory");
      }
      tbk_buf_free(&more);
      free(cfile);
    }
    pred.len = 0;
    const char *ptext = "";
    size_t plen = 0;
    tbk_page *page = NULL;
    if (baseline) {
      st = tbk_page_ref_read(ref, &iopt, &pred, &err);
      if (st == TBK_OK) st = tbk_page_parse(pred.data, pred.len, &popt, &page, &err);
      if (st == TBK_OK) ptext = tbk_page_text(page, &plen);
      else if (st != TBK_ERR_EMPTY) {
        cli_warn("%s: %s (scored as empty text)", ref->file, err.msg);
        problems++;
      }
    } else {
      char *path = find_prediction(pred_dir, ref->page);
      if (!path) missing++;
      else if (tbk_read_file(path, 0, &pred, &err)) {
        cli_warn("%s: %s (scored as empty)", path, err.msg);
        problems++;
      } else {
        ptext = pred.data ? pred.data : "";
        plen = pred.len;
      }
      free(path);
    }
    tbk_overlap ov;
    if (tbk_token_overlap(tok, ptext, plen, gold.data ? gold.data : "", gold.len, &ov, &err))
      cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    tbk_page_free(page);
    P[npages] = ov.precision;
    R[npages] = ov.recall;
    F[npages] = ov.f1;
    npages++;
    empty += ov.pred_tokens == 0;
    if (per_page)
      fprintf(pp.f, "%s\t%s\t%.4f\t%.4f\t%.4f\t%zu\t%zu\n", ref->site, ref->page, ov.precision, ov.recall, ov.f1,
              ov.pred_tokens, ov.gold_tokens);
  }
  if (per_page) cli_out_commit(&pp);
  if (npages == 0) cli_die(TBK_EXIT_FAIL, "%s: no page has a gold file", manifest);
  double pm, pmed, rm, rmed, fm, fmed;
  tbk_mean_median(P, npages, &pm, &pmed);
  tbk_mean_median(R, npages, &rm, &rmed);
  tbk_mean_median(F, npages, &fm, &fmed);
  tbk_buf js = {0};
  tbk_buf_puts(&js, "{\"name\": ");
  const char *nm = name ? name : baseline ? "baseline" : pred_dir;
  tbk_buf_json_str(&js, nm, strlen(nm));
  tbk_buf_puts(&js, ", \"manifest\": ");
  tbk_buf_json_str(&js, manifest, strlen(manifest));
  tbk_buf_printf(&js, ", \"gold\": \"%s\", \"pages\": %zu, \"missing_outputs\": %zu, \"empty_outputs\": %zu",
                 comments ? "main+comments" : "main", npages, missing, empty);
  const char *keys[6] = {"precision_mean", "recall_mean", "f1_mean", "precision_median", "recall_median", "f1_median"};
  double vals[6] = {pm, rm, fm, pmed, rmed, fmed};
  for (int k = 0; k < 6; k++) {
    tbk_buf_printf(&js, ", \"%s\": ", keys[k]);
    json_num(&js, vals[k]);
  }
  tbk_buf_puts(&js, "}\n");
  fwrite(js.data, 1, js.len, stdout);
  tbk_buf_free(&js);
  tbk_buf_free(&gold);
  tbk_buf_free(&pred);
  free(P);
  free(R);
  free(F);
  tbk_tokenizer_free(tok);
  tbk_page_list_free(&list);
  return cli_exit(problems ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
}

/* --------------------------------------------------------------- snippets */

static void usage_snippets(void) {
  printf("Usage: tbk-eval snippets [OPTION]... EVALDATA_JSON PAGES_TSV [PRED_DIR]\n"
         "trafilatura's evaluation: EVALDATA_JSON (trafilatura's evaldata.json) lists for\n"
         "each page snippets that must be extracted (\"with\") and snippets that must not\n"
         "(\"without\"); PAGES_TSV (header key, file, page) maps each evaldata key to its\n"
         "page path, relative to the TSV's directory. Text and snippets are whitespace-\n"
         "normalized and a snippet counts as present when it is a case-sensitive\n"
         "substring (trafilatura's tests/eval_common.py). TP = \"with\" found,\n"
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
         "Exit status: 0 ok; 1 fatal error; 2 usage error; 3 done, but some pages were\n"
         "unmapped or unreadable (each reported; scored as nothing extracted).\n");
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
    size_t ll = strlen(l);
    if (ll && l[ll - 1] == '\r') l[--ll] = '\0';
    char *f[8];
    int nf = 0;
    for (char *p = l; nf < 8;) {
      f[nf++] = p;
      char *t = strchr(p, '\t');
      if (!t) break;
      *t = '\0';
      p = t + 1;
    }
    if (line == 1) {
      for (int i = 0; i < nf; i++) {
        if (strcmp(f[i], "key") == 0) ck = i;
        if (strcmp(f[i], "page") == 0) cp = i;
      }
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

static int cmd_snippets(int argc, char **argv) {
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
  tbk_page_options popt;
  tbk_page_options_init(&popt);
  tbk_input_options iopt;
  tbk_input_options_init(&iopt);

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
    const char *t = NULL;
    size_t tl = 0;
    tbk_page *parsed = NULL;
    text.len = 0;
    if (!page) {
      if (++unmapped <= 10) cli_warn("%s: key not in %s (scored as nothing extracted)", p->key, tsv_path);
    } else if (baseline) {
      char *file = join(base, page);
      tbk_status st = tbk_read_file(file, popt.max_page_bytes, &text, &err);
      if (st == TBK_OK) st = tbk_page_parse(text.data, text.len, &popt, &parsed, &err);
      if (st == TBK_OK) t = tbk_page_text(parsed, &tl);
      else {
        cli_warn("%s: %s (scored as nothing extracted)", file, err.msg);
        problems++;
      }
      free(file);
    } else {
      char *path = find_prediction(pred_dir, page);
      if (!path) missing++;
      else if (tbk_read_file(path, 0, &text, &err)) {
        cli_warn("%s: %s (scored as nothing extracted)", path, err.msg);
        problems++;
      } else {
        t = text.data ? text.data : "";
        tl = text.len;
      }
      free(path);
    }
    tbk_snippet_counts pc = {0};
    if (tbk_snippets_count(p, t, tl, &pc)) cli_die(TBK_EXIT_FAIL, "out of memory");
    tbk_page_free(parsed);
    total.tp += pc.tp;
    total.fn += pc.fn;
    total.fp += pc.fp;
    total.tn += pc.tn;
    if (per_page)
      fprintf(pp.f, "%s\t%s\t%zu\t%zu\t%zu\t%zu\n", p->key, page ? page : "", pc.tp, pc.fn, pc.fp, pc.tn);
  }
  if (unmapped > 10) cli_warn("%zu keys in all are not in %s", unmapped, tsv_path);
  if (per_page) cli_out_commit(&pp);
  double tp = (double)total.tp, fn = (double)total.fn, fp = (double)total.fp, tn = (double)total.tn;
  double prec = tp + fp > 0 ? tp / (tp + fp) : 0, rec = tp + fn > 0 ? tp / (tp + fn) : 0;
  double acc = tp + fn + fp + tn > 0 ? (tp + tn) / (tp + fn + fp + tn) : 0;
  double f1 = 2 * tp + fp + fn > 0 ? 2 * tp / (2 * tp + fp + fn) : 0;
  tbk_buf js = {0};
  const char *nm = name ? name : baseline ? "baseline" : pred_dir;
  tbk_buf_puts(&js, "{\"name\": ");
  tbk_buf_json_str(&js, nm, strlen(nm));
  tbk_buf_printf(&js,
                 ", \"pages\": %zu, \"with\": %zu, \"without\": %zu, \"unmapped\": %zu, \"missing_outputs\": %zu, "
                 "\"tp\": %zu, \"fn\": %zu, \"fp\": %zu, \"tn\": %zu, \"precision\": %.4f, \"recall\": %.4f, "
                 "\"accuracy\": %.4f, \"f1\": %.4f}\n",
                 set->n, nwith, nwithout, unmapped, missing, total.tp, total.fn, total.fp, total.tn, prec, rec, acc, f1);
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
  return cli_exit(problems || unmapped ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
}

int main(int argc, char **argv) {
  cli_init("tbk-eval");
  if (argc < 2) cli_usage_error("no command given (cv, gold or snippets)");
  const char *cmd = argv[1];
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) { usage(); return cli_exit(TBK_EXIT_OK); }
  if (strcmp(cmd, "--version") == 0) { printf("tbk-eval %s\n", TBK_VERSION); return cli_exit(TBK_EXIT_OK); }
  if (strcmp(cmd, "cv") == 0) return cmd_cv(argc - 1, argv + 1);
  if (strcmp(cmd, "gold") == 0) return cmd_gold(argc - 1, argv + 1);
  if (strcmp(cmd, "snippets") == 0) return cmd_snippets(argc - 1, argv + 1);
  cli_usage_error("unknown command '%s' (cv, gold or snippets)", cmd);
}
