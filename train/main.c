/* tbk-train: fit the site-independent template model on the pooled,
 * auto-labelled blocks of many sites (stage 3). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "usage.h"
#include "tbk_model.h"

// clang-format off
enum { OPT_PARTS = CLI_OPT_FIRST_FREE, OPT_CV_FOLDS, OPT_VERSION, OPT_TEMPLATE, OPT_CONTEXT, OPT_THREADS,
       OPT_SAMPLE_T, OPT_SAMPLE_C, OPT_STRICT };
// clang-format on

typedef struct run {
  tbk_train_options opt;
  const char *output, *template_path;
  int quiet, want_progress, strict;
  unsigned context_folds;
} run;

static void parse_options(run *r, int argc, char **argv) {
  // clang-format off
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},           {"parts", required_argument, 0, OPT_PARTS},
      {"cv-folds", required_argument, 0, OPT_CV_FOLDS}, {"quiet", no_argument, 0, 'q'}, CLI_PROGRESS_LONGOPTS,
      {"help", no_argument, 0, 'h'},                    {"version", no_argument, 0, OPT_VERSION},
      {"template", required_argument, 0, OPT_TEMPLATE}, {"context", required_argument, 0, OPT_CONTEXT},
      {"threads", required_argument, 0, OPT_THREADS},  {"sample-template", required_argument, 0, OPT_SAMPLE_T},
      {"sample-content", required_argument, 0, OPT_SAMPLE_C}, {"strict", no_argument, 0, OPT_STRICT},
      CLI_TRAIN_LONGOPTS,
      {0, 0, 0, 0}};
  // clang-format on
  static const char *const part_names[] = {"all", "text", "nontext", NULL};
  static const tbk_parts parts[] = {TBK_PARTS_ALL, TBK_PARTS_TEXT, TBK_PARTS_NONTEXT};
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":o:C:qh", longopts, NULL)) != -1) {
    if (cli_train_option(&r->opt, c, optarg)) continue;
    switch (c) {
    case 'o': r->output = optarg; break;
    case OPT_PARTS: r->opt.parts = parts[cli_choice("--parts", optarg, part_names, "all, text or nontext")]; break;
    case OPT_CV_FOLDS: r->opt.cv_folds = (unsigned)cli_long("--cv-folds", optarg, 0, 1000); break;
    case OPT_TEMPLATE: r->template_path = optarg; break;
    case OPT_SAMPLE_T: r->opt.sample_pos = cli_double("--sample-template", optarg, 1e-6, 1.0); break;
    case OPT_SAMPLE_C: r->opt.sample_neg = cli_double("--sample-content", optarg, 1e-6, 1.0); break;
    case OPT_THREADS: r->opt.threads = (unsigned)cli_long("--threads", optarg, 1, 256); break;
    case OPT_CONTEXT: r->context_folds = (unsigned)cli_long("--context", optarg, 0, 100); break;
    case OPT_STRICT: r->strict = 1; break;
    case 'q':
      r->quiet = 1;
      r->want_progress = CLI_PROGRESS_OFF;
      break;
    case CLI_OPT_PROGRESS:
    case CLI_OPT_NO_PROGRESS: cli_progress_option(&r->want_progress, c); break;
    case 'h': train_usage(); exit(cli_exit(TBK_EXIT_OK));
    case OPT_VERSION: exit(cli_version());
    default: cli_bad_option(c, argv);
    }
  }
  if (r->opt.cv_folds == 1) cli_usage_error("--cv-folds: 1 fold cannot hold anything out (use 0 or >= 2)");
  if (!r->output) cli_usage_error("no model file given (-o MODEL)");
  if (r->context_folds == 1) cli_usage_error("--context: 1 fold cannot hold anything out (use 0 or >= 2)");
  if (r->context_folds && !r->template_path) cli_usage_error("--context needs --template");
}

static void progress(void *ctx, const char *what) { cli_progress_note(ctx, what); }

/* The model fitted on ds, with its progress on stderr. */
static tbk_model *fit(const run *r, tbk_dataset *ds) {
  tbk_model *model;
  tbk_error err = {0};
  cli_progress meter;
  cli_progress_start(&meter, r->want_progress, NULL, 0);
  tbk_status st = r->context_folds
                      ? tbk_train_context(ds, &r->opt, r->context_folds, progress, &meter, &model, &err)
                      : tbk_train_consume(ds, &r->opt, progress, &meter, &model, &err); /* ds: only freed after */
  cli_progress_end(&meter);
  if (st) cli_die(TBK_EXIT_FAIL, "training failed: %s", err.msg);
  return model;
}

int main(int argc, char **argv) {
  cli_init("tbk-train");
  run r = {.want_progress = CLI_PROGRESS_AUTO};
  tbk_train_options_init(&r.opt);
  parse_options(&r, argc, argv);
  cli_reads_argv(argv + optind, argc - optind);
  cli_reads_add(r.template_path);
  cli_output_check("-o", r.output);
  tbk_error err = {0};
  tbk_model *tmpl = NULL;
  if (r.template_path) {
    if (tbk_model_load(r.template_path, &tmpl, &err)) cli_die(TBK_EXIT_MODEL, "%s: %s", r.template_path, err.msg);
    /* a two-stage file gives its template stage; its content stage is replaced */
    tbk_model_drop_content(tmpl);
  }
  size_t skipped_rows = 0;
  tbk_dataset *ds = cli_read_dataset(argc, argv, optind, &skipped_rows);
  /* Block rows would be fitted first and refused only when attached, with
   * the template model blamed for the rows' schema: say so up front. */
  if (tmpl && tbk_schema_stage(tbk_dataset_schema(ds)) != TBK_STAGE_UNITS)
    cli_die(TBK_EXIT_FAIL, "--template needs the content stage's rows (tbk-features --units), not rows of schema %s",
            tbk_dataset_schema(ds));
  /* A content stage alone is no model any program reads: it needs the
   * template stage it was featurized with. */
  if (!tmpl && tbk_schema_stage(tbk_dataset_schema(ds)) == TBK_STAGE_UNITS)
    cli_usage_error("rows of the content stage (schema %s) need --template MODEL", tbk_dataset_schema(ds));
  if (!r.quiet)
    fprintf(stderr, "%s: %zu rows from %zu sites (schema %s)\n", cli_prog(), tbk_dataset_rows(ds),
            tbk_dataset_sites(ds), tbk_dataset_schema(ds));
  /* Cross-site CV (cv_pr_auc, the operating points -p reads, --auto-C)
   * needs two sites: say so now, not when tbk-predict -p refuses the model. */
  if (r.strict && skipped_rows) cli_die(TBK_EXIT_FAIL, "%zu malformed rows (--strict)", skipped_rows);
  /* Named by the meta file (the sites' column) and the one site. */
  const char *meta_file = argv[argc - 1], *only = tbk_dataset_rows(ds) ? tbk_dataset_site(ds, 0) : "none";
  if (tbk_dataset_sites(ds) < 2 && r.strict)
    cli_die(TBK_EXIT_FAIL, "%s: rows from %zu site (%s): no cross-site CV, so no operating points (--strict)",
            meta_file, tbk_dataset_sites(ds), only);
  if (tbk_dataset_sites(ds) < 2)
    cli_warn("%s: rows from %zu site (%s): no cross-site CV, so the model gets no operating points (tbk-predict -p "
             "will refuse it; -t works)",
             meta_file, tbk_dataset_sites(ds), only);
  tbk_model *model = fit(&r, ds);
  if (tmpl) {
    tbk_status st = tbk_model_attach_content(tmpl, model, &err);
    if (st) cli_die(st == TBK_ERR_SCHEMA ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", r.template_path, err.msg);
    model = tmpl; /* owns the content stage now */
  }
  tbk_buf text = {0};
  if (tbk_model_write(model, &text, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  cli_out out;
  cli_out_open(&out, r.output);
  if (fwrite(text.data, 1, text.len, out.f) != text.len) cli_die(TBK_EXIT_WRITE, "%s: cannot write", r.output);
  cli_out_commit(&out);
  if (!r.quiet) {
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
