/* tbk-predict: score the blocks (template stage) and text units (content
 * stage) of unseen pages and write their clean text (stage 4). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void usage(void) {
  printf("Usage: tbk-predict [OPTION]... INPUT...\n"
         "Write each page's clean text (or HTML, or per-unit JSON) with no site history:\n"
         "with a two-stage model, the template stage scores every candidate block and\n"
         "the content stage every text unit; with a template-only model, the page\n"
         "without its template blocks.\n"
         "INPUT is a page file ('-' = stdin), a directory, a manifest .tsv, or a\n"
         ".warc/.warc.gz file.\n\n"
         "Options:\n"
         "  -m, --model FILE       model (default: $TBK_MODEL, else the shipped\n"
         "                         default.model in the installation's share/tbk/)\n"
         "  -f, --format FMT       text (default): the headline, then the kept text in\n"
         "                         reading order, one line per unit (template stage: per\n"
         "                         paragraph-level element);\n"
         "                         jsonl: one JSON object per unit (page, path, tag,\n"
         "                         p_template, p_content, content, chars, text), or per\n"
         "                         block in the template stage (p, template);\n"
         "                         html: the page without what was removed\n"
         "      --annotate         with -f html: keep everything, add\n"
         "                         data-tbk-content=\"P\" to every unit's line element\n"
         "                         (template stage: data-tbk-template to every block)\n"
         "      --stage S          combined (default with a two-stage model): the\n"
         "                         content stage decides every text unit of the page,\n"
         "                         with the template stage's probabilities among its\n"
         "                         inputs; template: the paper's block-level output;\n"
         "                         content: the content stage without template inputs\n"
         "                         (for a content stage trained on such rows)\n"
         "      --keep comments    combined stage: keep user comments as content\n"
         "      --no-title         combined stage, text: no headline first line\n"
         "      --min-kept-words N\n"
         "                         combined stage: a page keeping fewer words keeps\n"
         "                         every unit below 0.95 (60; 0 = never)\n"
         "  -t, --threshold P      remove a block (template stage) or unit (combined)\n"
         "                         when its probability >= P\n"
         "  -p, --precision X      use the stage's operating point for precision X (0.8,\n"
         "                         0.9 or 0.95) of the removed blocks (template stage) or\n"
         "                         of the kept units (combined), measured by\n"
         "                         cross-site CV on the training data\n"
         "                         (default: threshold 0.5)\n"
         "  -o, --output FILE      write to FILE (default stdout); appears when complete\n"
         "      --output-dir DIR   one output file per page under DIR, named after the\n"
         "                         page (.txt, .jsonl or .html)\n"
         "      --summary          per-page summary on stderr (units or blocks, and the\n"
         "                         share of the text removed)\n"
         "  -h, --help             show this help and exit\n"
         "      --version          show the version and exit\n\n"
         "%s\n"
         "Segmentation options (--blocks, --min-chars, --min-words) come from the model.\n"
         "Several pages to one stream are separated by lines \"==> PAGE <==\" (text,\n"
         "html).\n\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error\n"
         "  2  usage error\n"
         "  3  some pages were skipped (each reported)\n"
         "  4  output could not be written\n"
         "  5  model refused (missing, corrupt, truncated, or built for another feature\n"
         "     schema)\n",
         cli_input_options_help);
}

enum { OPT_ANNOTATE = CLI_OPT_FIRST_FREE, OPT_OUTPUT_DIR, OPT_SUMMARY, OPT_VERSION, OPT_STAGE, OPT_KEEP, OPT_NO_TITLE, OPT_MIN_KEPT };
enum format { FMT_TEXT, FMT_JSONL, FMT_HTML };

/* The shipped model is looked for relative to this program's directory
 * first, so a moved installation and the build tree (which keeps a copy at
 * the same relative place) find theirs; no build path is compiled in. */
static const char *find_model(const char *given) {
  if (given) return given;
  const char *env = getenv("TBK_MODEL");
  if (env && *env) return env;
  static char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path);
  char *slash = NULL;
  if (n > 0 && (size_t)n < sizeof path) {
    path[n] = '\0';
    slash = strrchr(path, '/');
  }
  size_t rel = strlen(TBK_MODEL_FROM_BIN);
  if (slash && (size_t)(slash + 1 - path) + rel < sizeof path) {
    memcpy(slash + 1, TBK_MODEL_FROM_BIN, rel + 1);
    if (access(path, R_OK) == 0) return path;
  }
  return TBK_INSTALLED_MODEL;
}


int main(int argc, char **argv) {
  cli_init("tbk-predict");
  cli_pages pages;
  cli_pages_init(&pages);
  const char *model_path = NULL, *output = NULL, *output_dir = NULL;
  enum format fmt = FMT_TEXT;
  int annotate = 0, summary = 0, stage = -1; /* -1 = the model's best, 0 template, 1 combined */
  tbk_content_options copt;
  tbk_content_options_init(&copt);
  int combined_only = 0; /* an option of the combined stage was given */
  double threshold = NAN, precision = NAN;
  static const struct option longopts[] = {
      {"model", required_argument, 0, 'm'},     {"format", required_argument, 0, 'f'},
      {"annotate", no_argument, 0, OPT_ANNOTATE}, {"threshold", required_argument, 0, 't'},
      {"precision", required_argument, 0, 'p'}, {"output", required_argument, 0, 'o'},
      {"output-dir", required_argument, 0, OPT_OUTPUT_DIR}, {"summary", no_argument, 0, OPT_SUMMARY},
      {"help", no_argument, 0, 'h'},            {"version", no_argument, 0, OPT_VERSION},
      {"stage", required_argument, 0, OPT_STAGE}, {"keep", required_argument, 0, OPT_KEEP},
      {"no-title", no_argument, 0, OPT_NO_TITLE}, {"min-kept-words", required_argument, 0, OPT_MIN_KEPT},
      CLI_PAGE_LONGOPTS,                        {0, 0, 0, 0}};
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":m:f:t:p:o:h", longopts, NULL)) != -1) {
    if (c == CLI_OPT_BLOCKS || c == CLI_OPT_MIN_CHARS || c == CLI_OPT_MIN_WORDS)
      cli_usage_error("segmentation options come from the model; --blocks, --min-chars and --min-words "
                      "apply to tbk-label and tbk-features");
    if (cli_pages_option(&pages, c, optarg)) continue;
    switch (c) {
    case 'm': model_path = optarg; break;
    case 'f':
      if (strcmp(optarg, "text") == 0) fmt = FMT_TEXT;
      else if (strcmp(optarg, "jsonl") == 0) fmt = FMT_JSONL;
      else if (strcmp(optarg, "html") == 0) fmt = FMT_HTML;
      else cli_usage_error("--format: '%s' is not text, jsonl or html", optarg);
      break;
    case OPT_ANNOTATE: annotate = 1; break;
    case 't': threshold = cli_double("--threshold", optarg, 0.0, 1.0); break;
    case 'p': precision = cli_double("--precision", optarg, 0.0, 1.0); break;
    case 'o': output = optarg; break;
    case OPT_OUTPUT_DIR: output_dir = optarg; break;
    case OPT_SUMMARY: summary = 1; break;
    case OPT_STAGE:
      if (strcmp(optarg, "template") == 0) stage = 0;
      else if (strcmp(optarg, "combined") == 0) stage = 1;
      else if (strcmp(optarg, "content") == 0) stage = 2;
      else cli_usage_error("--stage: '%s' is not template, combined or content", optarg);
      break;
    case OPT_KEEP:
      if (strcmp(optarg, "comments") != 0) cli_usage_error("--keep: '%s' is not comments", optarg);
      copt.keep_comments = 1;
      break;
    case OPT_NO_TITLE: copt.title = 0; break;
    case OPT_MIN_KEPT:
      copt.min_kept_words = (size_t)cli_long("--min-kept-words", optarg, 0, 1000000);
      combined_only = 1;
      break;
    case 'h': usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: return cli_version();
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");
  if (!isnan(threshold) && !isnan(precision)) cli_usage_error("--threshold and --precision exclude each other");
  if (output && output_dir) cli_usage_error("--output and --output-dir exclude each other");
  if (annotate && fmt != FMT_HTML) cli_usage_error("--annotate needs --format html");
  if (output_dir && !*output_dir) cli_usage_error("--output-dir: an empty directory name names no directory");
  cli_output_check("-o", output);

  const char *mp = find_model(model_path);
  tbk_model *model;
  tbk_error err = {0};
  cli_reads_add(mp);
  if (tbk_model_load(mp, &model, &err)) cli_die(TBK_EXIT_MODEL, "%s: %s", mp, err.msg);
  if (stage >= 1 && !tbk_model_content(model))
    cli_die(TBK_EXIT_MODEL, "%s: the model has no content stage (--stage %s needs a two-stage model)", mp,
            stage == 1 ? "combined" : "content");
  if (stage < 0) stage = tbk_model_content(model) != NULL;
  if (!stage && (copt.keep_comments || !copt.title || combined_only))
    cli_usage_error("--keep, --no-title and --min-kept-words apply to --stage combined");
  const tbk_model *sm = stage ? tbk_model_content(model) : model;
  if (isnan(threshold)) {
    threshold = isnan(precision) ? tbk_model_default_threshold(sm) : tbk_model_threshold_for(sm, precision);
    if (isnan(threshold)) cli_die(TBK_EXIT_MODEL, "%s: the model stores no operating point for precision %g", mp, precision);
  }
  copt.threshold = threshold;
  unsigned char *keep = NULL;
  size_t keep_cap = 0;
  tbk_predictor *pred;
  tbk_status st = tbk_predictor_new(model, &pred, &err);
  if (st) cli_die(st == TBK_ERR_SCHEMA ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", mp, err.msg);
  if (stage == 2) tbk_predictor_template_inputs(pred, 0);
  /* Segmentation comes from the model; the resource limits stay the user's
   * (tbk_model_page_options resets them to the defaults). */
  tbk_page_options limits = pages.page;
  tbk_model_page_options(model, &pages.page);
  pages.page.max_page_bytes = limits.max_page_bytes;
  pages.page.max_depth = limits.max_depth;
  pages.page.max_blocks = limits.max_blocks;
  pages.page.max_nodes = limits.max_nodes;
  pages.page.fingerprints = 0;

  tbk_page_list list;
  cli_pages_list(&pages, argv + optind, argc - optind, &list);
  const char *ext = fmt == FMT_TEXT ? ".txt" : fmt == FMT_JSONL ? ".jsonl" : ".html";
  cli_out out;
  char **names = output_dir ? cli_output_names(output_dir, &list, ext) : NULL;
  if (!output_dir) cli_out_open(&out, output);
  tbk_buf buf = {0};
  cli_pages_progress_start(&pages, list.n);
  for (size_t i = 0; i < list.n; i++) {
    const tbk_page_ref *ref = &list.refs[i];
    tbk_page *page = cli_pages_load(&pages, ref);
    if (!page) continue;
    const double *probs, *uprobs = NULL;
    const tbk_units *ux = tbk_predictor_units(pred);
    tbk_status ps = stage ? tbk_predict_units(pred, page, &probs, &uprobs, &err)
                          : tbk_predict_page(pred, page, &probs, &err);
    if (ps == TBK_ERR_LIMIT) {
      cli_pages_skip(&pages, ref, err.msg);
      tbk_page_free(page);
      continue;
    }
    if (ps) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
    if (stage) {
      size_t nu = tbk_units_count(ux);
      if (nu > keep_cap && !(keep = realloc(keep, keep_cap = nu * 2))) cli_die(TBK_EXIT_FAIL, "out of memory");
      tbk_content_decide(page, ux, uprobs, &copt, keep);
    }
    buf.len = 0;
    tbk_page_summary sum = {0};
    if (!output_dir && list.n > 1 && fmt != FMT_JSONL) cli_mem(tbk_buf_printf(&buf, "==> %s <==\n", ref->page));
    tbk_status rs;
    if (fmt == FMT_TEXT || summary) {
      size_t before = buf.len;
      rs = stage ? tbk_render_units_text(page, ux, keep, &copt, &buf, &sum)
                 : tbk_render_text(page, probs, threshold, &buf, &sum);
      if (fmt != FMT_TEXT) buf.len = before;
      if (rs) cli_die(TBK_EXIT_FAIL, "out of memory");
    }
    if (fmt == FMT_JSONL)
      rs = stage ? tbk_render_units_jsonl(page, ux, ref->page, uprobs, keep, &buf)
                 : tbk_render_jsonl(page, ref->page, probs, threshold, &buf);
    else if (fmt == FMT_HTML)
      rs = stage ? tbk_render_units_html(page, ux, keep, uprobs, annotate, &buf)
                 : tbk_render_html(page, probs, threshold, annotate, &buf);
    else rs = TBK_OK;
    if (rs) cli_die(TBK_EXIT_FAIL, "out of memory");
    if (summary)
      fprintf(stderr, stage ? "%s\tunits=%zu\tremoved_units=%zu\tchars=%zu\tremoved_chars=%zu\tremoved_share=%.3f\n"
                            : "%s\tblocks=%zu\ttemplate_blocks=%zu\tchars=%zu\ttemplate_chars=%zu\ttemplate_share=%.3f\n",
              ref->page, sum.blocks, sum.template_blocks, sum.chars, sum.template_chars,
              sum.chars ? (double)sum.template_chars / (double)sum.chars : 0.0);
    if (output_dir) {
      char *name = names[i];
      char *slash = strrchr(name, '/');
      if (slash) *slash = '\0';
      int bad = slash && cli_mkdirs(name);
      if (slash) *slash = '/';
      if (bad) cli_die(TBK_EXIT_WRITE, "%s: cannot create directory: %s", name, strerror(errno));
      cli_out po;
      cli_out_open(&po, name);
      if (buf.len && fwrite(buf.data, 1, buf.len, po.f) != buf.len) cli_die(TBK_EXIT_WRITE, "%s: cannot write", name);
      cli_out_commit(&po);
      free(name);
      names[i] = NULL;
    } else if (buf.len && fwrite(buf.data, 1, buf.len, out.f) != buf.len) {
      cli_die(TBK_EXIT_WRITE, "%s: cannot write output", output ? output : "standard output");
    }
    tbk_page_free(page);
  }
  cli_pages_progress_end(&pages);
  if (!output_dir) cli_out_commit(&out);
  for (size_t i = 0; output_dir && i < list.n; i++) free(names[i]);
  free(names);
  tbk_buf_free(&buf);
  free(keep);
  tbk_page_list_free(&list);
  tbk_predictor_free(pred);
  tbk_model_free(model);
  return cli_exit(cli_pages_exit(&pages));
}
