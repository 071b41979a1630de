/* tbk-train: fit the site-independent template model on the pooled,
 * auto-labelled blocks of many sites (stage 3). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(void) {
  printf("Usage: tbk-train [OPTION]... -o MODEL FEATURES WORDS META [FEATURES WORDS META]...\n"
         "Fit a template-block model on what tbk-features wrote for labelled blocks:\n"
         "each data set is its features file, its words file and its meta file.\n"
         "Rows are deduplicated, every numeric feature is discretized by Fayyad-Irani\n"
         "MDL, a Naive-Bayes text score (out-of-fold, folds by site) joins them, and\n"
         "L2 logistic regression (LIBLINEAR) is fitted. Operating points for template\n"
         "precision 0.80/0.90/0.95 are measured by cross-site cross-validation.\n\n"
         "Options:\n"
         "  -o, --output MODEL       model file to write (required); appears when complete\n"
         "      --encoding E         mdl, raw or both (default both)\n"
         "      --parts P            all, text (NB only) or nontext (default all)\n"
         "  -C, --cost C             LIBLINEAR C (default 1)\n"
         "      --auto-C             choose C by cross-site CV in {0.03,0.1,0.3,1,3}\n"
         "      --weight-template W  class weight of template rows (default 1)\n"
         "      --weight-content W   class weight of content rows (default 1)\n"
         "      --nb-alpha A         Naive-Bayes smoothing (default 1)\n"
         "      --nb-folds K         folds of the out-of-fold NB score (default 5)\n"
         "      --cv-folds K         cross-site CV folds for operating points (default 5;\n"
         "                           0 = none)\n"
         "      --no-dedup           keep duplicate rows\n"
         "      --no-balance         do not reweight the classes to equal total weight\n"
         "      --max-site-rows N    cap rows per site, evenly spaced (default 3000;\n"
         "                           0 = no cap)\n"
         "  -q, --quiet              no progress on stderr\n"
         "  -h, --help               show this help and exit\n"
         "      --version            show the version and exit\n\n"
         "Exit status: 0 ok; 1 fatal error (including no usable data); 2 usage error;\n"
         "3 trained, but malformed rows were skipped; 4 model could not be written.\n");
}

enum { OPT_ENC = 1000, OPT_PARTS, OPT_AUTO_C, OPT_WT, OPT_WC, OPT_ALPHA, OPT_NB_FOLDS, OPT_CV_FOLDS,
       OPT_NO_DEDUP, OPT_NO_BALANCE, OPT_MAX_SITE_ROWS, OPT_VERSION };

static size_t skipped_rows;
static void warn_row(void *ctx, const char *file, const char *msg) {
  (void)ctx;
  skipped_rows++;
  if (skipped_rows <= 20) cli_warn("%s: %s", file, msg);
  else if (skipped_rows == 21) cli_warn("more malformed rows; only the count will be reported");
}

static void progress(void *ctx, const char *what) {
  (void)ctx;
  fprintf(stderr, "%s: %s\n", cli_prog(), what);
}

int main(int argc, char **argv) {
  cli_init("tbk-train");
  tbk_train_options opt;
  tbk_train_options_init(&opt);
  const char *output = NULL;
  int quiet = 0;
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},        {"encoding", required_argument, 0, OPT_ENC},
      {"parts", required_argument, 0, OPT_PARTS},   {"cost", required_argument, 0, 'C'},
      {"auto-C", no_argument, 0, OPT_AUTO_C},       {"weight-template", required_argument, 0, OPT_WT},
      {"weight-content", required_argument, 0, OPT_WC}, {"nb-alpha", required_argument, 0, OPT_ALPHA},
      {"nb-folds", required_argument, 0, OPT_NB_FOLDS}, {"cv-folds", required_argument, 0, OPT_CV_FOLDS},
      {"no-dedup", no_argument, 0, OPT_NO_DEDUP},   {"no-balance", no_argument, 0, OPT_NO_BALANCE},   {"max-site-rows", required_argument, 0, OPT_MAX_SITE_ROWS},
      {"quiet", no_argument, 0, 'q'},               {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, OPT_VERSION},     {0, 0, 0, 0}};
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":o:C:qh", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': output = optarg; break;
    case OPT_ENC:
      if (strcmp(optarg, "mdl") == 0) opt.encoding = TBK_ENC_MDL;
      else if (strcmp(optarg, "raw") == 0) opt.encoding = TBK_ENC_RAW;
      else if (strcmp(optarg, "both") == 0) opt.encoding = TBK_ENC_BOTH;
      else cli_usage_error("--encoding: '%s' is not mdl, raw or both", optarg);
      break;
    case OPT_PARTS:
      if (strcmp(optarg, "all") == 0) opt.parts = TBK_PARTS_ALL;
      else if (strcmp(optarg, "text") == 0) opt.parts = TBK_PARTS_TEXT;
      else if (strcmp(optarg, "nontext") == 0) opt.parts = TBK_PARTS_NONTEXT;
      else cli_usage_error("--parts: '%s' is not all, text or nontext", optarg);
      break;
    case 'C': opt.C = cli_double("--cost", optarg, 1e-6, 1e6); break;
    case OPT_AUTO_C: opt.auto_C = 1; break;
    case OPT_WT: opt.weight_pos = cli_double("--weight-template", optarg, 1e-6, 1e6); break;
    case OPT_WC: opt.weight_neg = cli_double("--weight-content", optarg, 1e-6, 1e6); break;
    case OPT_ALPHA: opt.nb_alpha = cli_double("--nb-alpha", optarg, 1e-9, 1e6); break;
    case OPT_NB_FOLDS: opt.nb_folds = (unsigned)cli_long("--nb-folds", optarg, 2, 100); break;
    case OPT_CV_FOLDS: opt.cv_folds = (unsigned)cli_long("--cv-folds", optarg, 0, 1000); break;
    case OPT_NO_DEDUP: opt.dedup = 0; break;
    case OPT_NO_BALANCE: opt.balance = 0; break;
    case OPT_MAX_SITE_ROWS: opt.max_site_rows = cli_size("--max-site-rows", optarg); break;
    case 'q': quiet = 1; break;
    case 'h': usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: printf("tbk-train %s\n", TBK_VERSION); return cli_exit(TBK_EXIT_OK);
    default: cli_bad_option(c, argv);
    }
  }
  if (opt.cv_folds == 1) cli_usage_error("--cv-folds: 1 fold cannot hold anything out (use 0 or >= 2)");
  if (!output) cli_usage_error("no model file given (-o MODEL)");
  int n = argc - optind;
  if (n == 0 || n % 3) cli_usage_error("expected FEATURES WORDS META triples, got %d file(s)", n);

  tbk_dataset *ds;
  tbk_error err = {0};
  if (tbk_dataset_new(NULL, 0, 0, &ds, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  for (int i = optind; i < argc; i += 3) {
    tbk_status st = tbk_dataset_read(ds, argv[i], argv[i + 1], argv[i + 2], warn_row, NULL, &err);
    if (st) cli_die(st == TBK_ERR_SCHEMA ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s", err.msg);
  }
  if (!quiet)
    fprintf(stderr, "%s: %zu rows from %zu sites (schema %s)\n", cli_prog(), tbk_dataset_rows(ds),
            tbk_dataset_sites(ds), tbk_dataset_schema(ds));
  if (skipped_rows) cli_warn("%zu malformed rows skipped", skipped_rows);
  tbk_model *model;
  tbk_status st = tbk_train(ds, &opt, quiet ? NULL : progress, NULL, &model, &err);
  if (st) cli_die(TBK_EXIT_FAIL, "training failed: %s", err.msg);
  tbk_buf text = {0};
  if (tbk_model_write(model, &text, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  cli_out out;
  cli_out_open(&out, output);
  if (fwrite(text.data, 1, text.len, out.f) != text.len) cli_die(TBK_EXIT_WRITE, "%s: cannot write", output);
  cli_out_commit(&out);
  if (!quiet) {
    const tbk_operating_point *ops;
    size_t nops = tbk_model_operating_points(model, &ops);
    for (size_t i = 0; i < nops; i++)
      fprintf(stderr, "%s: cross-site CV: precision %.2f -> threshold %.4f, template recall %.4f\n", cli_prog(),
              ops[i].precision, ops[i].threshold, ops[i].recall);
  }
  tbk_buf_free(&text);
  tbk_model_free(model);
  tbk_dataset_free(ds);
  return cli_exit(skipped_rows ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
}
