/* tbk-keywords: the keywords of web pages after template removal (Kołcz &
 * Yih 2007, section 5); also builds the background document-frequency
 * table (--build-df) and trains the logistic ranker (--train-ranker). */
#include <string.h>

#include "kw_cli.h"
#include "usage.h"

enum { OPT_DF = CLI_OPT_FIRST_FREE, OPT_RANKER, OPT_TEXT, OPT_BUILD_DF, OPT_MIN_DF, OPT_TRAIN, OPT_RW, OPT_VERSION };
enum mode { RUN, BUILD_DF, TRAIN };

int main(int argc, char **argv) {
  cli_init("tbk-keywords");
  run r = {0};
  cli_pages_init(&r.pages);
  const char *model_path = NULL, *output = NULL, *df_path = NULL, *ranker_path = NULL;
  static const char *const denoise_names[] = {"none", "template", "content", NULL}, *const formats[] = {"text", "jsonl",
                                                                                                        NULL};
  size_t top = 10, min_df = 2;
  int jsonl = 0, denoise = -1, c;
  double cost = 1.0, removed = TBK_KW_REMOVED_WEIGHT;
  enum mode mode = RUN;
  static const struct option longopts[] = {{"top", required_argument, 0, 'n'},
                                           {"denoise", required_argument, 0, 'd'},
                                           {"model", required_argument, 0, 'm'},
                                           {"df", required_argument, 0, OPT_DF},
                                           {"ranker", required_argument, 0, OPT_RANKER},
                                           {"text", no_argument, 0, OPT_TEXT},
                                           {"format", required_argument, 0, 'f'},
                                           {"output", required_argument, 0, 'o'},
                                           {"build-df", no_argument, 0, OPT_BUILD_DF},
                                           {"min-df", required_argument, 0, OPT_MIN_DF},
                                           {"train-ranker", no_argument, 0, OPT_TRAIN},
                                           {"cost", required_argument, 0, 'C'},
                                           {"removed-weight", required_argument, 0, OPT_RW},
                                           {"help", no_argument, 0, 'h'},
                                           {"version", no_argument, 0, OPT_VERSION},
                                           CLI_PAGE_LONGOPTS,
                                           {0, 0, 0, 0}};
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":n:d:m:f:o:C:h", longopts, NULL)) != -1) {
    if (c == CLI_OPT_BLOCKS || c == CLI_OPT_MIN_CHARS || c == CLI_OPT_MIN_WORDS)
      cli_usage_error("segmentation options come from the model; --blocks, --min-chars and --min-words "
                      "apply to tbk-label and tbk-features");
    if (cli_pages_option(&r.pages, c, optarg)) continue;
    switch (c) {
    case 'n': top = (size_t)cli_long("--top", optarg, 1, 100000); break;
    case 'd': denoise = cli_choice("--denoise", optarg, denoise_names, "none, template or content"); break;
    case 'm': model_path = optarg; break;
    case OPT_DF: df_path = optarg; break;
    case OPT_RANKER: ranker_path = optarg; break;
    case OPT_TEXT: r.text = 1; break;
    case 'f': jsonl = cli_choice("--format", optarg, formats, "text or jsonl"); break;
    case 'o': output = optarg; break;
    case OPT_BUILD_DF: mode = BUILD_DF; break;
    case OPT_MIN_DF: min_df = (size_t)cli_long("--min-df", optarg, 1, 1000000000); break;
    case OPT_TRAIN: mode = TRAIN; break;
    case 'C': cost = cli_double("--cost", optarg, 1e-6, 1e6); break;
    case OPT_RW: removed = cli_double("--removed-weight", optarg, 0, 1); break;
    case 'h': kw_usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: return cli_version();
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");
  if (mode != RUN && !output) cli_usage_error("--%s needs -o FILE", mode == BUILD_DF ? "build-df" : "train-ranker");
  if (mode == TRAIN && r.text) cli_usage_error("--train-ranker reads its gold keywords from pages, not --text");
  if (r.text && denoise > 0) cli_usage_error("--denoise applies to pages, not --text");

  const char *mp = cli_model_path(model_path); /* the model, and the shipped table beside it */
  if (!df_path && mode != BUILD_DF) df_path = kw_shipped_df(mp);
  if (df_path && strcmp(df_path, "none") == 0) df_path = NULL;
  tbk_error err = {0};
  tbk_kw_df *df = NULL, *built = NULL;
  tbk_kw_ranker ranker;
  const char *df_id = kw_load_tables(df_path, ranker_path, &df, &ranker);
  tbk_model *model = NULL;
  if (!r.text) {
    r.pred = cli_predictor(mp, &model);
    if (denoise < 0) denoise = tbk_model_content(model) ? TBK_KW_DENOISE_CONTENT : TBK_KW_DENOISE_TEMPLATE;
    if (denoise == TBK_KW_DENOISE_CONTENT && !tbk_model_content(model))
      cli_die(TBK_EXIT_MODEL, "%s: the model has no content stage (--denoise content needs a two-stage model)", mp);
    r.denoise = (tbk_kw_denoise)denoise;
    cli_pages_segment_as(&r.pages, model);
  }
  tbk_kw_trainer *trainer = NULL;
  if (tbk_kw_new(&r.x, &err) || (mode == BUILD_DF && tbk_kw_df_new(&built, &err)) ||
      (mode == TRAIN && tbk_kw_trainer_new(&trainer, &err)))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  /* A ranker learns from the kept text's features and TF-IDF order. */
  tbk_kw_set_removed_weight(r.x, mode == TRAIN ? 0 : removed);
  tbk_page_list list;
  cli_pages_list(&r.pages, argv + optind, argc - optind, &list);
  if (mode == RUN) tbk_page_list_sort_records(&list); /* a page's keywords in record order, as tbk-predict's */
  if (!r.text) cli_reads_add(mp);
  cli_out out;
  cli_out_open(&out, output);
  tbk_buf b = {0}, trace = {0};
  tbk_status st = TBK_OK;
  cli_pages_progress_start(&r.pages, list.n);
  for (size_t i = 0; i < list.n && !st; i++) {
    const tbk_page_ref *ref = &list.refs[i];
    if (!kw_load_page(&r, ref, mode == TRAIN)) continue;
    if (mode == BUILD_DF) st = tbk_kw_df_add(built, r.x, &err);
    if (mode == TRAIN) st = tbk_kw_trainer_add_meta(trainer, r.x, df, r.gold.data, r.gold.len, 200, &err);
    if (mode != RUN) continue;
    tbk_kw_rank(r.x, df, ranker_path ? &ranker : NULL);
    b.len = 0;
    cli_mem(jsonl ? tbk_kw_write_jsonl(&b, r.x, ref->page, top)
                  : tbk_kw_write_text(&b, r.x, list.n > 1 ? ref->page : NULL, top, ranker_path != NULL));
    trace.len = 0; /* the record's keys after "page", as tbk-predict's */
    if (jsonl && ref->is_warc && tbk_page_ref_trace(ref, &trace, &err))
      cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
    cli_trace_sink ts = {cli_out_put, &out, &trace};
    cli_trace_put(&ts, b.data, b.len);
  }
  if (st) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  cli_pages_progress_end(&r.pages);
  b.len = 0;
  if (mode == BUILD_DF && tbk_kw_df_write(built, min_df, &b, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  if (mode == TRAIN && tbk_kw_trainer_fit(trainer, cost, &ranker, &err))
    cli_die(TBK_EXIT_FAIL, "%zu pages with gold keywords found in their text: %s", tbk_kw_trainer_pages(trainer),
            err.msg);
  if (mode == TRAIN) {
    snprintf(ranker.df_id, sizeof ranker.df_id, "%s", df_id); /* the table it goes with */
    cli_mem(tbk_kw_ranker_write(&ranker, &b));
  }
  if (b.len) cli_out_put(&out, b.data, b.len);
  cli_out_commit(&out);
  tbk_buf_free(&b);
  tbk_buf_free(&trace);
  tbk_buf_free(&r.raw);
  tbk_buf_free(&r.gold);
  tbk_kw_df_free(built);
  tbk_kw_df_free(df);
  tbk_kw_trainer_free(trainer);
  tbk_kw_free(r.x);
  tbk_page_list_free(&list);
  tbk_predictor_free(r.pred);
  tbk_model_free(model);
  return cli_exit(cli_pages_exit(&r.pages));
}
