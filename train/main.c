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
         "      --parts P            all, text (NB only) or nontext (default all)\n"
         "      --cv-folds K         cross-site CV folds for operating points (default 5;\n"
         "                           0 = none)\n"
         "      --template MODEL     the rows are the content stage's (tbk-features --units\n"
         "                           -m MODEL): write a two-stage model, MODEL's template\n"
         "                           stage with the content stage fitted here\n"
         "      --context K          with --template: add the contextual pass, trained on\n"
         "                           K-fold (by site) out-of-fold first-pass probabilities\n"
         "                           (0 = none, the default)\n"
         "  -q, --quiet              no progress and no summary on stderr\n"
         CLI_PROGRESS_HELP
         "  -h, --help               show this help and exit\n"
         "      --version            show the version and exit\n\n"
         "%s\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error (including no usable data)\n"
         "  2  usage error\n"
         "  3  trained, but malformed rows were skipped\n"
         "  4  model could not be written\n"
         "  5  the data sets were made with different feature schemas, or the --template\n"
         "     model was refused (missing, corrupt, truncated, or of another schema)\n",
         cli_train_options_help);
}

enum { OPT_PARTS = CLI_OPT_FIRST_FREE, OPT_CV_FOLDS, OPT_VERSION, OPT_TEMPLATE, OPT_CONTEXT };

static size_t skipped_rows;

static void progress(void *ctx, const char *what) { cli_progress_note(ctx, what); }

int main(int argc, char **argv) {
  cli_init("tbk-train");
  tbk_train_options opt;
  tbk_train_options_init(&opt);
  const char *output = NULL, *template_path = NULL;
  int quiet = 0, want_progress = CLI_PROGRESS_AUTO;
  unsigned context_folds = 0;
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},           {"parts", required_argument, 0, OPT_PARTS},
      {"cv-folds", required_argument, 0, OPT_CV_FOLDS}, {"quiet", no_argument, 0, 'q'}, CLI_PROGRESS_LONGOPTS,
      {"help", no_argument, 0, 'h'},                    {"version", no_argument, 0, OPT_VERSION},
      {"template", required_argument, 0, OPT_TEMPLATE}, {"context", required_argument, 0, OPT_CONTEXT},
      CLI_TRAIN_LONGOPTS,
      {0, 0, 0, 0}};
  static const char *const part_names[] = {"all", "text", "nontext", NULL};
  static const tbk_parts parts[] = {TBK_PARTS_ALL, TBK_PARTS_TEXT, TBK_PARTS_NONTEXT};
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":o:C:qh", longopts, NULL)) != -1) {
    if (cli_train_option(&opt, c, optarg)) continue;
    switch (c) {
    case 'o': output = optarg; break;
    case OPT_PARTS: opt.parts = parts[cli_choice("--parts", optarg, part_names, "all, text or nontext")]; break;
    case OPT_CV_FOLDS: opt.cv_folds = (unsigned)cli_long("--cv-folds", optarg, 0, 1000); break;
    case OPT_TEMPLATE: template_path = optarg; break;
    case OPT_CONTEXT: context_folds = (unsigned)cli_long("--context", optarg, 0, 100); break;
    case 'q': quiet = 1; want_progress = CLI_PROGRESS_OFF; break;
    case CLI_OPT_PROGRESS:
    case CLI_OPT_NO_PROGRESS: cli_progress_option(&want_progress, c); break;
    case 'h': usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: return cli_version();
    default: cli_bad_option(c, argv);
    }
  }
  if (opt.cv_folds == 1) cli_usage_error("--cv-folds: 1 fold cannot hold anything out (use 0 or >= 2)");
  if (!output) cli_usage_error("no model file given (-o MODEL)");
  if (context_folds == 1) cli_usage_error("--context: 1 fold cannot hold anything out (use 0 or >= 2)");
  if (context_folds && !template_path) cli_usage_error("--context needs --template");
  cli_reads_argv(argv + optind, argc - optind);
  cli_reads_add(template_path);
  cli_output_check("-o", output);
  tbk_error err = {0};
  tbk_model *tmpl = NULL;
  if (template_path) {
    if (tbk_model_load(template_path, &tmpl, &err)) cli_die(TBK_EXIT_MODEL, "%s: %s", template_path, err.msg);
    /* a two-stage file gives its template stage; its content stage is replaced */
    tbk_model_drop_content(tmpl);
  }
  tbk_dataset *ds = cli_read_dataset(argc, argv, optind, &skipped_rows);
  /* Block rows would be fitted first and refused only when attached, with
   * the template model blamed for the rows' schema: say so up front. */
  if (tmpl && strncmp(tbk_dataset_schema(ds), "tbk-units-", 10) != 0)
    cli_die(TBK_EXIT_FAIL, "--template needs the content stage's rows (tbk-features --units), not rows of schema %s",
            tbk_dataset_schema(ds));
  /* A content stage alone is no model any program reads: it needs the
   * template stage it was featurized with. */
  if (!tmpl && strncmp(tbk_dataset_schema(ds), "tbk-units-", 10) == 0)
    cli_usage_error("rows of the content stage (schema %s) need --template MODEL", tbk_dataset_schema(ds));
  if (!quiet)
    fprintf(stderr, "%s: %zu rows from %zu sites (schema %s)\n", cli_prog(), tbk_dataset_rows(ds),
            tbk_dataset_sites(ds), tbk_dataset_schema(ds));
  tbk_model *model;
  cli_progress meter;
  cli_progress_start(&meter, want_progress, NULL, 0);
  tbk_status st = context_folds
                      ? tbk_train_context(ds, &opt, context_folds, progress, &meter, &model, &err)
                      : tbk_train(ds, &opt, progress, &meter, &model, &err);
  cli_progress_end(&meter);
  if (st) cli_die(TBK_EXIT_FAIL, "training failed: %s", err.msg);
  if (tmpl) {
    if ((st = tbk_model_attach_content(tmpl, model, &err)))
      cli_die(st == TBK_ERR_SCHEMA ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", template_path, err.msg);
    model = tmpl; /* owns the content stage now */
  }
  tbk_buf text = {0};
  if (tbk_model_write(model, &text, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  cli_out out;
  cli_out_open(&out, output);
  if (fwrite(text.data, 1, text.len, out.f) != text.len) cli_die(TBK_EXIT_WRITE, "%s: cannot write", output);
  cli_out_commit(&out);
  if (!quiet) {
    const tbk_operating_point *ops;
    size_t nops = tbk_model_operating_points(tmpl ? tbk_model_content(tmpl) : model, &ops);
    for (size_t i = 0; i < nops; i++)
      fprintf(stderr, "%s: cross-site CV: %s precision %.2f -> threshold %.4f, %s recall %.4f\n", cli_prog(),
              tmpl ? "kept-unit" : "template", ops[i].precision, ops[i].threshold, tmpl ? "content" : "template",
              ops[i].recall);
  }
  tbk_buf_free(&text);
  tbk_model_free(model);
  tbk_dataset_free(ds);
  return cli_exit(skipped_rows ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
}
