/* tbk-predict's options, and what its page loop needs set up: the model
 * and the history store (main.c runs the loop). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict_cli.h"
#include "shard.h"
#include "usage.h"

enum {
  OPT_ANNOTATE = CLI_OPT_FIRST_FREE,
  OPT_OUTPUT_DIR,
  OPT_SUMMARY,
  OPT_VERSION,
  OPT_STAGE,
  OPT_KEEP,
  OPT_NO_TITLE,
  OPT_BODY,
  OPT_MIN_KEPT,
  OPT_PROSE_SHARE,
  OPT_TEXT_SHARE,
  OPT_SHARD,
  OPT_EXPLAIN,
  OPT_HISTORY,
  OPT_HISTORY_ONLY,
  OPT_HISTORY_COUNT,
  OPT_HISTORY_ROWS,
  OPT_HISTORY_COMMIT
};

/* --explain without K: the inputs shown per stage. */
enum { EXPLAIN_DEFAULT = 5, EXPLAIN_MAX = 1000 };

void predict_parse_options(run *r, int argc, char **argv) {
  static const struct option longopts[] = {{"model", required_argument, 0, 'm'},
                                           {"format", required_argument, 0, 'f'},
                                           {"annotate", no_argument, 0, OPT_ANNOTATE},
                                           {"threshold", required_argument, 0, 't'},
                                           {"precision", required_argument, 0, 'p'},
                                           {"output", required_argument, 0, 'o'},
                                           {"output-dir", required_argument, 0, OPT_OUTPUT_DIR},
                                           {"summary", no_argument, 0, OPT_SUMMARY},
                                           {"help", no_argument, 0, 'h'},
                                           {"version", no_argument, 0, OPT_VERSION},
                                           {"stage", required_argument, 0, OPT_STAGE},
                                           {"keep", required_argument, 0, OPT_KEEP},
                                           {"no-title", no_argument, 0, OPT_NO_TITLE},
                                           {"body", no_argument, 0, OPT_BODY},
                                           {"min-kept-words", required_argument, 0, OPT_MIN_KEPT},
                                           {"min-prose-share", required_argument, 0, OPT_PROSE_SHARE},
                                           {"min-text-share", required_argument, 0, OPT_TEXT_SHARE},
                                           {"shard", required_argument, 0, OPT_SHARD},
                                           {"explain", optional_argument, 0, OPT_EXPLAIN},
                                           {"history", required_argument, 0, OPT_HISTORY},
                                           {"history-only", no_argument, 0, OPT_HISTORY_ONLY},
                                           {"history-count", no_argument, 0, OPT_HISTORY_COUNT},
                                           {"history-rows", required_argument, 0, OPT_HISTORY_ROWS},
                                           {"history-commit", required_argument, 0, OPT_HISTORY_COMMIT},
                                           CLI_PAGE_LONGOPTS,
                                           {0, 0, 0, 0}};
  static const char *const formats[] = {"text", "jsonl", "html", NULL}; /* TBK_FORMAT_* order */
  static const char *const stages[] = {"template", "combined", "content", NULL};
  static const char *const keeps[] = {"comments", NULL};
  tbk_content_options *copt = &r->ro.content;
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":m:f:t:p:o:h", longopts, NULL)) != -1) {
    if (c == CLI_OPT_BLOCKS || c == CLI_OPT_MIN_CHARS || c == CLI_OPT_MIN_WORDS)
      cli_usage_error("segmentation options come from the model; --blocks, --min-chars and --min-words "
                      "apply to tbk-label and tbk-features");
    if (cli_pages_option(&r->pages, c, optarg)) continue;
    switch (c) {
    case 'm': r->model = optarg; break;
    case 'f': r->ro.fmt = (tbk_format)cli_choice("--format", optarg, formats, "text, jsonl or html"); break;
    case OPT_ANNOTATE: r->annotate = 1; break;
    case 't': r->threshold = cli_double("--threshold", optarg, 0.0, 1.0); break;
    case 'p': r->precision = cli_double("--precision", optarg, 0.0, 1.0); break;
    case 'o': r->output = optarg; break;
    case OPT_OUTPUT_DIR: r->output_dir = optarg; break;
    case OPT_SUMMARY: r->summary = r->pages.warc_summary = 1; break;
    case OPT_SHARD: cli_shard_set("--shard", optarg); break;
    case OPT_EXPLAIN:
      r->ro.explain = optarg ? (size_t)cli_long("--explain", optarg, 1, EXPLAIN_MAX) : EXPLAIN_DEFAULT;
      break;
    case OPT_STAGE: r->stage = cli_choice("--stage", optarg, stages, "template, combined or content"); break;
    case OPT_KEEP: copt->keep_comments = cli_choice("--keep", optarg, keeps, "comments") == 0; break;
    case OPT_NO_TITLE: copt->title = 0; break;
    case OPT_BODY: copt->body = 1; break;
    case OPT_MIN_KEPT:
      copt->min_kept_words = (size_t)cli_long("--min-kept-words", optarg, 0, 1000000);
      r->combined_only = 1;
      break;
    case OPT_PROSE_SHARE:
      copt->prose_share = cli_double("--min-prose-share", optarg, 0, 1);
      r->combined_only = 1;
      break;
    case OPT_TEXT_SHARE:
      copt->text_share = cli_double("--min-text-share", optarg, 0, 1);
      r->combined_only = 1;
      break;
    case OPT_HISTORY: r->history = optarg; break;
    case OPT_HISTORY_ONLY: r->history_only = 1; break;
    case OPT_HISTORY_COUNT: r->history_count = 1; break;
    case OPT_HISTORY_ROWS: r->history_rows = optarg; break;
    case OPT_HISTORY_COMMIT: r->history_commit = (size_t)cli_long("--history-commit", optarg, 1, 1000000); break;
    case 'h': predict_usage(); exit(cli_exit(TBK_EXIT_OK));
    case OPT_VERSION: exit(cli_version());
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");
  if (!isnan(r->threshold) && !isnan(r->precision)) cli_usage_error("--threshold and --precision exclude each other");
  if (r->output && r->output_dir) cli_usage_error("--output and --output-dir exclude each other");
  if (r->annotate && r->ro.fmt != TBK_FORMAT_HTML) cli_usage_error("--annotate needs --format html");
  if (r->ro.explain && r->ro.fmt == TBK_FORMAT_HTML) cli_usage_error("--explain needs --format text or jsonl");
  if (r->output_dir && !*r->output_dir) cli_usage_error("--output-dir: an empty directory name names no directory");
  if ((r->history_only || r->history_count || r->history_rows || r->history_commit) && !r->history)
    cli_usage_error("--history-only, --history-count, --history-rows and --history-commit need --history DB");
  if (r->history && !*r->history) cli_usage_error("--history: an empty name names no store");
  if (r->history_only && r->history_count) cli_usage_error("--history-only and --history-count exclude each other");
  if (r->history_count && (r->output || r->output_dir || r->history_rows))
    cli_usage_error("--history-count writes no output: it only counts the pages into the store");
  cli_output_check("-o", r->output);
  cli_output_check("--history", r->history);
  cli_output_check("--history-rows", r->history_rows);
  if (r->annotate) r->ro.fmt = TBK_FORMAT_HTML_ANNOTATED;
}

tbk_predictor *predict_load_model(run *r, const char *mp, tbk_model **model) {
  tbk_error err = {0};
  cli_reads_add(mp);
  if (tbk_model_load(mp, model, &err)) cli_die(TBK_EXIT_MODEL, "%s: %s", mp, err.msg);
  const tbk_content_options *copt = &r->ro.content;
  int units = r->stage < 0 ? tbk_model_content(*model) != NULL : r->stage != 0;
  if (!units && (copt->keep_comments || !copt->title || copt->body || r->combined_only))
    cli_usage_error("--keep, --no-title, --body, --min-kept-words, --min-prose-share and --min-text-share apply to "
                    "--stage combined");
  if (tbk_render_options_for(*model, r->stage, r->threshold, r->precision, &r->ro, &err))
    cli_die(TBK_EXIT_MODEL, "%s: %s", mp, err.msg);
  tbk_predictor *pred;
  tbk_status st = tbk_predictor_new(*model, &pred, &err);
  if (st) cli_die(st == TBK_ERR_SCHEMA ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", mp, err.msg);
  if (r->stage == 2) tbk_predictor_template_inputs(pred, 0);
  cli_pages_segment_as(&r->pages, *model);
  r->pages.page.fingerprints = r->history != NULL; /* the store counts blocks by them */
  /* HTML output renders libxml2's tree: kept from the one parse, rather
   * than the page streamed and parsed again on its first rendering. Text
   * and JSONL never render HTML: the page keeps no source for it. */
  r->pages.page.keep_dom = r->ro.fmt == TBK_FORMAT_HTML || r->ro.fmt == TBK_FORMAT_HTML_ANNOTATED ? 1 : -1;
  return pred;
}

tbk_history *predict_open_history(const run *r, const tbk_model *model, tbk_predictor *pred, cli_out *rows_out,
                                  tbk_buf *rows) {
  if (!r->history) return NULL;
  cli_output_check("--history", r->history); /* now that the inputs are known */
  tbk_history_options ho = tbk_history_options_default;
  char id[256];
  tbk_history_identity(model, id, sizeof id);
  ho.identity = id;
  ho.read_only = r->history_only;
  if (r->history_commit) ho.commit_pages = r->history_commit;
  tbk_history *hist;
  tbk_error err = {0};
  tbk_status hs = tbk_history_open(r->history, &ho, &hist, &err);
  if (hs) cli_die(hs == TBK_ERR_MODEL ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", r->history, err.msg);
  if (r->history_rows) cli_out_open(rows_out, r->history_rows);
  tbk_predictor_use_history(pred, hist, r->history_rows ? rows : NULL);
  return hist;
}

void predict_print_summary(const run *r, const char *page, const tbk_page_summary *s) {
  fprintf(stderr,
          r->ro.units ? "%s\tunits=%zu\tremoved_units=%zu\tchars=%zu\tremoved_chars=%zu\tremoved_share=%.3f\n"
                      : "%s\tblocks=%zu\ttemplate_blocks=%zu\tchars=%zu\ttemplate_chars=%zu\ttemplate_share=%.3f\n",
          page, s->blocks, s->template_blocks, s->chars, s->template_chars,
          s->chars ? (double)s->template_chars / (double)s->chars : 0.0);
}
