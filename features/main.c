/* tbk-features: feature vectors of page blocks (stage 2 of the pipeline),
 * for training (--labels: only auto-labelled blocks, +1/-1) or for any
 * page (every candidate block, label 0). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "shard.h"
#include "usage.h"
#include "tbk_features.h"
#include "tbk_rows.h"

// clang-format off
enum {
  OPT_WORDS = CLI_OPT_FIRST_FREE, OPT_META, OPT_LABELS, OPT_ATTR_DIMS, OPT_WORD_DIMS, OPT_BIGRAMS,
  OPT_SCHEMA, OPT_SCHEMA_ID, OPT_VERSION, OPT_UNITS, OPT_SHARD
};
// clang-format on

typedef struct run {
  cli_pages pages;
  tbk_feature_options fopt;
  const char *output, *words, *meta, *labels, *model;
  int want_schema, want_id, units;
} run;

static void parse_options(run *r, int argc, char **argv) {
  // clang-format off
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},         {"words", required_argument, 0, OPT_WORDS},
      {"meta", required_argument, 0, OPT_META},       {"labels", required_argument, 0, OPT_LABELS},
      {"attr-dims", required_argument, 0, OPT_ATTR_DIMS}, {"word-dims", required_argument, 0, OPT_WORD_DIMS},
      {"bigrams", no_argument, 0, OPT_BIGRAMS},        {"schema", no_argument, 0, OPT_SCHEMA},
      {"schema-id", no_argument, 0, OPT_SCHEMA_ID},   {"shard", required_argument, 0, OPT_SHARD},
      {"units", no_argument, 0, OPT_UNITS},            {"model", required_argument, 0, 'm'},
      {"help", no_argument, 0, 'h'},                   {"version", no_argument, 0, OPT_VERSION},
      CLI_PAGE_LONGOPTS,                               {0, 0, 0, 0}};
  // clang-format on
  int c, attr_dims = -1, word_dims = -1;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":o:m:h", longopts, NULL)) != -1) {
    if (cli_pages_option(&r->pages, c, optarg)) continue;
    switch (c) {
    case 'o': r->output = optarg; break;
    case OPT_WORDS: r->words = optarg; break;
    case OPT_META: r->meta = optarg; break;
    case OPT_LABELS: r->labels = optarg; break;
    case OPT_ATTR_DIMS: attr_dims = (int)cli_long("--attr-dims", optarg, 0, 65536); break;
    case OPT_WORD_DIMS: word_dims = (int)cli_long("--word-dims", optarg, 1, 1L << 24); break;
    case OPT_BIGRAMS: r->fopt.bigrams = 1; break;
    case OPT_SCHEMA: r->want_schema = 1; break;
    case OPT_SCHEMA_ID: r->want_id = 1; break;
    case OPT_UNITS: r->units = 1; break;
    case OPT_SHARD: cli_shard_set("--shard", optarg); break;
    case 'm': r->model = optarg; break;
    case 'h': features_usage(); exit(cli_exit(TBK_EXIT_OK));
    case OPT_VERSION: exit(cli_version());
    default: cli_bad_option(c, argv);
    }
  }
  /* Units have their own defaults (tbk_units_new), measured as accurate
   * as the blocks' and making a smaller model (EVALUATION.md). */
  if (attr_dims >= 0 || r->units) r->fopt.attr_dims = attr_dims >= 0 ? (uint32_t)attr_dims : TBK_UNITS_ATTR_DIMS;
  if (word_dims >= 0 || r->units) r->fopt.word_dims = word_dims >= 0 ? (uint32_t)word_dims : TBK_UNITS_WORD_DIMS;
  if (r->model && !r->units) cli_usage_error("--model applies to --units");
}

/* Every page's rows; the number of rows skipped for a changed text. */
static size_t write_rows(run *r, tbk_rows *rows, tbk_predictor *pred, tbk_label_set *labels, const tbk_page_list *list,
                         const tbk_rows_out *out) {
  size_t changed = 0, n = 0;
  tbk_error err = {0};
  cli_pages_progress_start(&r->pages, list->n);
  for (size_t i = 0; i < list->n; i++) {
    const tbk_page_ref *ref = &list->refs[i];
    if (labels && !tbk_label_set_has_page(labels, ref->page)) continue;
    tbk_page *page = cli_pages_load(&r->pages, ref);
    if (!page) continue;
    if (labels) tbk_label_set_page_read(labels, ref->page);
    const double *bp = NULL;
    tbk_status st = pred ? tbk_predict_page(pred, page, &bp, &err) : TBK_OK;
    if (!st) st = tbk_rows_write_page(rows, ref, page, bp, labels, out, cli_warn_file, NULL, &n, &changed, &err);
    tbk_page_free(page);
    if (st && (err.code == TBK_ERR_NOMEM || r->pages.strict)) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
    if (st) cli_warn("%s: %s (skipped)", ref->page, err.msg);
    r->pages.bad_pages += st != TBK_OK;
  }
  cli_pages_progress_end(&r->pages);
  return changed;
}

int main(int argc, char **argv) {
  cli_init("tbk-features");
  run r = {0};
  cli_pages_init(&r.pages);
  tbk_feature_options_init(&r.fopt);
  parse_options(&r, argc, argv);
  cli_reads_add(r.labels);
  cli_output_check("-o", r.output);
  cli_output_check("--words", r.words);
  cli_output_check("--meta", r.meta);
  tbk_rows *rows;
  tbk_error err = {0};
  if (tbk_rows_new(&r.fopt, r.units, &rows, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  if (r.want_schema || r.want_id) {
    tbk_buf text = {0};
    cli_mem(tbk_rows_schema_write(rows, r.want_id, r.want_schema, &text));
    fwrite(text.data ? text.data : "", 1, text.len, stdout);
    tbk_buf_free(&text);
    tbk_rows_free(rows);
    return cli_exit(TBK_EXIT_OK);
  }
  tbk_model *model = NULL;
  tbk_predictor *pred = r.model ? cli_predictor(r.model, &model) : NULL;
  if (model) cli_pages_segment_as(&r.pages, model); /* as the template model was trained */
  if (optind >= argc) cli_usage_error("no input given");
  if (r.labels && r.output && strcmp(r.labels, r.output) == 0) cli_usage_error("--labels and -o name the same file");

  /* Block fingerprints go into the meta file and check the labels. */
  r.pages.page.fingerprints = r.labels || r.meta;
  tbk_label_set *labels = NULL;
  size_t bad_lines = 0, changed, missing = 0;
  if (r.labels) labels = cli_labels_read(r.labels, r.pages.strict, &bad_lines);
  tbk_page_list list;
  cli_shard_list(&r.pages, argv + optind, argc - optind, &list);
  if (labels) {
    size_t lo, hi;
    cli_shard_pages(2, &lo, &hi); /* all pages (0..2) without --shard */
    cli_labels_check_pages(r.labels, labels, &list, lo == 0 && hi == 2);
  }
  cli_out out, words, meta;
  tbk_rows_out ro = {cli_out_put, &out, r.words ? &words : NULL, r.meta ? &meta : NULL};
  cli_out_open(&out, r.output);
  if (r.words) cli_out_open(&words, r.words);
  if (r.meta) cli_out_open(&meta, r.meta);
  if (r.meta && cli_shard_headers() && tbk_rows_meta_header(rows, &r.pages.page, &ro, &err))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  changed = write_rows(&r, rows, pred, labels, &list, &ro);
  if (labels) missing = cli_labels_report(r.labels, labels, r.pages.strict, bad_lines);
  tbk_label_set_free(labels);
  tbk_page_list_free(&list);
  tbk_rows_free(rows);
  tbk_predictor_free(pred);
  tbk_model_free(model);
  cli_out *const outs[] = {&out, r.words ? &words : NULL, r.meta ? &meta : NULL};
  cli_out_commit_all(outs, 3);
  int code = cli_pages_exit(&r.pages);
  if (code == TBK_EXIT_OK && (bad_lines || changed || missing)) code = TBK_EXIT_PARTIAL;
  return cli_exit(code);
}
