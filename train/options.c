/* tbk-train's options: getopt_long, each value checked, then the
 * combinations the run cannot honour refused (exit 2). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "train_cli.h"
#include "usage.h"

// clang-format off
enum { OPT_PARTS = CLI_OPT_FIRST_FREE, OPT_CV_FOLDS, OPT_VERSION, OPT_TEMPLATE, OPT_CONTEXT, OPT_THREADS,
       OPT_SAMPLE_T, OPT_SAMPLE_C, OPT_STRICT, OPT_NONTEXT, OPT_KEEP_CONTENT };
// clang-format on

void train_parse_options(run *r, int argc, char **argv) {
  // clang-format off
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},           {"parts", required_argument, 0, OPT_PARTS},
      {"cv-folds", required_argument, 0, OPT_CV_FOLDS}, {"quiet", no_argument, 0, 'q'}, CLI_PROGRESS_LONGOPTS,
      {"help", no_argument, 0, 'h'},                    {"version", no_argument, 0, OPT_VERSION},
      {"template", required_argument, 0, OPT_TEMPLATE}, {"context", required_argument, 0, OPT_CONTEXT},
      {"threads", required_argument, 0, OPT_THREADS},  {"sample-template", required_argument, 0, OPT_SAMPLE_T},
      {"sample-content", required_argument, 0, OPT_SAMPLE_C}, {"strict", no_argument, 0, OPT_STRICT},
      {"nontext-stage", required_argument, 0, OPT_NONTEXT},
      {"keep-content", no_argument, 0, OPT_KEEP_CONTENT},
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
    case OPT_NONTEXT: r->nontext_lang = optarg; break;
    case OPT_KEEP_CONTENT: r->keep_content = 1; break;
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
  if (r->keep_content && !r->nontext_lang) cli_usage_error("--keep-content needs --nontext-stage");
  if (r->nontext_lang && (!r->template_path || r->context_folds || r->opt.parts != TBK_PARTS_ALL))
    cli_usage_error("--nontext-stage needs --template and --parts all, and not --context");
  if (r->nontext_lang && !tbk_model_lang_ok(r->nontext_lang, strlen(r->nontext_lang)))
    cli_usage_error("--nontext-stage: '%s' is not a language code (2-7 letters a-z, e.g. en)", r->nontext_lang);
}
