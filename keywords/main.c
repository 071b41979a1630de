/* tbk-keywords: the keywords of web pages after template removal (Kołcz &
 * Yih 2007, section 5); also builds the background document-frequency
 * table (--build-df) and trains the logistic ranker (--train-ranker). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(void) {
  printf("Usage: tbk-keywords [OPTION]... INPUT...\n"
         "  or:  tbk-keywords --build-df -o FILE [OPTION]... INPUT...\n"
         "  or:  tbk-keywords --train-ranker -o FILE [OPTION]... INPUT...\n"
         "Write the top keywords of each page: its words and phrases of one to three\n"
         "words, not starting or ending with a stop word, ranked by term frequency,\n"
         "document frequency in a background collection, first position, title,\n"
         "heading and anchor text, capitalization and length. The page's template\n"
         "blocks (or all its boilerplate) are removed first.\n"
         "INPUT is a page file ('-' = stdin), a directory, a manifest .tsv, or a\n"
         ".warc/.warc.gz file.\n\n"
         "Options:\n"
         "  -n, --top N            keywords per page (10)\n"
         "  -d, --denoise MODE     what is removed before extraction: none; template\n"
         "                         (the template stage's blocks, as in the paper);\n"
         "                         content (all but the content stage's kept units;\n"
         "                         the default with a two-stage model)\n"
         "  -m, --model FILE       template/content model (default: $TBK_MODEL, else\n"
         "                         the shipped default.model)\n"
         "      --df FILE          background document frequencies (from --build-df);\n"
         "                         without one every term has idf 1\n"
         "      --ranker FILE      a trained ranker (from --train-ranker); without one\n"
         "                         the ranking is TF-IDF\n"
         "      --text             inputs are plain text, one document per file (no\n"
         "                         page stages; a line is a paragraph)\n"
         "  -f, --format FMT       text (default): one 'SCORE<TAB>KEYWORD' line per\n"
         "                         keyword; jsonl: one JSON object per page (page,\n"
         "                         lang, tokens, keywords: [{term, score, tf}])\n"
         "  -o, --output FILE      write to FILE (default stdout); appears when complete\n"
         "  -h, --help             show this help and exit\n"
         "      --version          show the version and exit\n\n"
         "Building options:\n"
         "      --build-df         write the document frequencies of the inputs' keyword\n"
         "                         candidates (after --denoise) to -o\n"
         "      --min-df N         --build-df: keep terms found in N documents or more\n"
         "                         (2)\n"
         "      --train-ranker     train a logistic ranker on the inputs, the gold\n"
         "                         keywords being each page's <meta name=\"keywords\">\n"
         "                         (or news_keywords, article:tag), which is removed\n"
         "                         from the page before extraction; write it to -o\n"
         "  -C, --cost C           --train-ranker: inverse regularization (1)\n\n"
         "%s\n"
         "Segmentation options (--blocks, --min-chars, --min-words) come from the model.\n"
         "Several pages to one stream are separated by lines \"==> PAGE <==\" (text).\n"
         "Stop words: built-in lists for de, en, es, fr, it, nl, pt, sv; a page takes\n"
         "the list that covers most of its words.\n\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error\n"
         "  2  usage error\n"
         "  3  some pages were skipped (each reported)\n"
         "  4  output could not be written\n"
         "  5  model, ranker or document-frequency file refused (missing, corrupt,\n"
         "     truncated, or made for other features)\n",
         cli_input_options_help);
}

enum {
  OPT_DF = CLI_OPT_FIRST_FREE, OPT_RANKER, OPT_TEXT, OPT_BUILD_DF, OPT_MIN_DF, OPT_TRAIN, OPT_VERSION
};
enum mode { RUN, BUILD_DF, TRAIN };

/* The shipped model, relative to this program's directory first (as
 * tbk-predict finds it), so a moved installation and the build tree find
 * theirs. */
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

typedef struct run {
  cli_pages pages;
  int text;                 /* --text */
  tbk_kw_denoise denoise;
  tbk_predictor *pred;
  tbk_kw_extractor *x;
  unsigned char *keep;
  size_t keep_cap;
  tbk_buf raw, gold;
} run;

/* One input document into the extractor (and its meta keywords into
 * gold when asked); 0 when it was skipped. */
static int load(run *r, const tbk_page_ref *ref, int want_gold) {
  tbk_error err = {0};
  tbk_input_options in = r->pages.input;
  if (!ref->is_warc) in.max_record_bytes = r->pages.page.max_page_bytes;
  r->raw.len = 0;
  r->gold.len = 0;
  tbk_status st = tbk_page_ref_read(ref, &in, &r->raw, &err);
  cli_progress_step(&r->pages.meter, ++r->pages.loaded, r->raw.len);
  if (st) {
    cli_pages_skip(&r->pages, ref, err.msg);
    return 0;
  }
  tbk_kw_begin(r->x);
  if (r->text) {
    if (tbk_kw_add_text(r->x, r->raw.data ? r->raw.data : "", r->raw.len, 0)) cli_die(TBK_EXIT_FAIL, "out of memory");
  } else {
    tbk_page_options o = r->pages.page;
    if (ref->charset && *ref->charset) o.charset_hint = ref->charset;
    tbk_page *page;
    st = tbk_kw_page_parse(r->raw.data ? r->raw.data : "", r->raw.len, &o, &page, want_gold ? &r->gold : NULL, &err);
    if (st) {
      cli_pages_skip(&r->pages, ref, err.msg);
      return 0;
    }
    st = tbk_kw_page_keep(r->pred, page, r->denoise, NULL, &r->keep, &r->keep_cap, &err);
    if (st == TBK_ERR_LIMIT) {
      cli_pages_skip(&r->pages, ref, err.msg);
      tbk_page_free(page);
      return 0;
    }
    if (st) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
    if (tbk_kw_add_page(r->x, page, r->keep)) cli_die(TBK_EXIT_FAIL, "out of memory");
    tbk_page_free(page);
  }
  if (tbk_kw_finish(r->x, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  return 1;
}

static void write_page(tbk_buf *b, const char *page, tbk_kw_extractor *x, size_t top, int jsonl, int trained,
                       int several) {
  size_t n = tbk_kw_count(x);
  const tbk_kw_cand *c = tbk_kw_cands(x);
  if (n > top) n = top;
  int bad = 0;
  if (!jsonl) {
    if (several) bad |= tbk_buf_printf(b, "==> %s <==\n", page);
    for (size_t i = 0; i < n; i++) bad |= tbk_buf_printf(b, trained ? "%.4f\t%s\n" : "%.4g\t%s\n", c[i].score, c[i].text);
  } else {
    bad |= tbk_buf_puts(b, "{\"page\":") | tbk_buf_json_str(b, page, strlen(page)) | tbk_buf_puts(b, ",\"lang\":") |
           tbk_buf_json_str(b, tbk_kw_lang(x), strlen(tbk_kw_lang(x))) |
           tbk_buf_printf(b, ",\"tokens\":%zu,\"keywords\":[", tbk_kw_tokens(x));
    for (size_t i = 0; i < n; i++)
      bad |= tbk_buf_puts(b, i ? ",{\"term\":" : "{\"term\":") | tbk_buf_json_str(b, c[i].text, strlen(c[i].text)) |
             tbk_buf_printf(b, ",\"score\":%.6g,\"tf\":%u}", c[i].score, c[i].tf);
    bad |= tbk_buf_puts(b, "]}\n");
  }
  if (bad) cli_die(TBK_EXIT_FAIL, "out of memory");
}

int main(int argc, char **argv) {
  cli_init("tbk-keywords");
  run r = {0};
  cli_pages_init(&r.pages);
  const char *model_path = NULL, *output = NULL, *df_path = NULL, *ranker_path = NULL;
  size_t top = 10, min_df = 2;
  int jsonl = 0, denoise = -1;
  double cost = 1.0;
  enum mode mode = RUN;
  static const struct option longopts[] = {
      {"top", required_argument, 0, 'n'},     {"denoise", required_argument, 0, 'd'},
      {"model", required_argument, 0, 'm'},   {"df", required_argument, 0, OPT_DF},
      {"ranker", required_argument, 0, OPT_RANKER}, {"text", no_argument, 0, OPT_TEXT},
      {"format", required_argument, 0, 'f'},  {"output", required_argument, 0, 'o'},
      {"build-df", no_argument, 0, OPT_BUILD_DF}, {"min-df", required_argument, 0, OPT_MIN_DF},
      {"train-ranker", no_argument, 0, OPT_TRAIN}, {"cost", required_argument, 0, 'C'},
      {"help", no_argument, 0, 'h'},          {"version", no_argument, 0, OPT_VERSION},
      CLI_PAGE_LONGOPTS,                      {0, 0, 0, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":n:d:m:f:o:C:h", longopts, NULL)) != -1) {
    if (c == CLI_OPT_BLOCKS || c == CLI_OPT_MIN_CHARS || c == CLI_OPT_MIN_WORDS)
      cli_usage_error("segmentation options come from the model; --blocks, --min-chars and --min-words "
                      "apply to tbk-label and tbk-features");
    if (cli_pages_option(&r.pages, c, optarg)) continue;
    switch (c) {
    case 'n': top = (size_t)cli_long("--top", optarg, 1, 100000); break;
    case 'd':
      if (strcmp(optarg, "none") == 0) denoise = TBK_KW_DENOISE_NONE;
      else if (strcmp(optarg, "template") == 0) denoise = TBK_KW_DENOISE_TEMPLATE;
      else if (strcmp(optarg, "content") == 0) denoise = TBK_KW_DENOISE_CONTENT;
      else cli_usage_error("--denoise: '%s' is not none, template or content", optarg);
      break;
    case 'm': model_path = optarg; break;
    case OPT_DF: df_path = optarg; break;
    case OPT_RANKER: ranker_path = optarg; break;
    case OPT_TEXT: r.text = 1; break;
    case 'f':
      if (strcmp(optarg, "text") == 0) jsonl = 0;
      else if (strcmp(optarg, "jsonl") == 0) jsonl = 1;
      else cli_usage_error("--format: '%s' is not text or jsonl", optarg);
      break;
    case 'o': output = optarg; break;
    case OPT_BUILD_DF: mode = BUILD_DF; break;
    case OPT_MIN_DF: min_df = (size_t)cli_long("--min-df", optarg, 1, 1000000000); break;
    case OPT_TRAIN: mode = TRAIN; break;
    case 'C': cost = cli_double("--cost", optarg, 1e-6, 1e6); break;
    case 'h': usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: return cli_version();
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");
  if (mode != RUN && !output) cli_usage_error("--%s needs -o FILE", mode == BUILD_DF ? "build-df" : "train-ranker");
  if (mode == TRAIN && r.text) cli_usage_error("--train-ranker reads its gold keywords from pages, not --text");
  if (r.text && denoise > 0) cli_usage_error("--denoise applies to pages, not --text");

  tbk_error err = {0};
  tbk_kw_df *df = NULL;
  if (df_path && tbk_kw_df_load(df_path, &df, &err))
    cli_die(err.code == TBK_ERR_IO ? TBK_EXIT_FAIL : TBK_EXIT_MODEL, "%s: %s", df_path, err.msg);
  tbk_kw_ranker ranker, *rk = NULL;
  if (ranker_path) {
    tbk_status st = tbk_kw_ranker_load(ranker_path, &ranker, &err);
    if (st) cli_die(st == TBK_ERR_IO ? TBK_EXIT_FAIL : TBK_EXIT_MODEL, "%s: %s", ranker_path, err.msg);
    rk = &ranker;
  }
  tbk_model *model = NULL;
  if (!r.text) {
    const char *mp = find_model(model_path);
    r.pred = cli_predictor(mp, &model);
    if (denoise < 0) denoise = tbk_model_content(model) ? TBK_KW_DENOISE_CONTENT : TBK_KW_DENOISE_TEMPLATE;
    if (denoise == TBK_KW_DENOISE_CONTENT && !tbk_model_content(model))
      cli_die(TBK_EXIT_MODEL, "%s: the model has no content stage (--denoise content needs a two-stage model)", mp);
    r.denoise = (tbk_kw_denoise)denoise;
    cli_pages_segment_as(&r.pages, model);
  }
  if (tbk_kw_new(&r.x, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);

  tbk_page_list list;
  cli_pages_list(&r.pages, argv + optind, argc - optind, &list);
  cli_out out;
  cli_out_open(&out, output);
  tbk_buf b = {0};
  tbk_kw_df *built = NULL;
  tbk_kw_trainer *trainer = NULL;
  tbk_kw_gold *gold = NULL;
  if (mode == BUILD_DF && tbk_kw_df_new(&built, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  if (mode == TRAIN && (tbk_kw_trainer_new(&trainer, &err) || tbk_kw_gold_new(&gold, &err)))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  size_t with_gold = 0;
  cli_pages_progress_start(&r.pages, list.n);
  for (size_t i = 0; i < list.n; i++) {
    const tbk_page_ref *ref = &list.refs[i];
    if (!load(&r, ref, mode == TRAIN)) continue;
    if (mode == BUILD_DF) {
      if (tbk_kw_df_add(built, r.x, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
      continue;
    }
    if (mode == TRAIN) {
      tbk_kw_gold_clear(gold);
      if (tbk_kw_gold_add(gold, r.x, r.gold.data ? r.gold.data : "", r.gold.len) < 0)
        cli_die(TBK_EXIT_FAIL, "out of memory");
      if (!tbk_kw_gold_restrict(gold, r.x)) continue;
      with_gold++;
      if (tbk_kw_trainer_add(trainer, r.x, df, gold, 200, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
      continue;
    }
    tbk_kw_rank(r.x, df, rk);
    b.len = 0;
    write_page(&b, ref->page, r.x, top, jsonl, rk != NULL, list.n > 1);
    cli_out_put(&out, b.data, b.len);
  }
  cli_pages_progress_end(&r.pages);
  b.len = 0;
  if (mode == BUILD_DF && tbk_kw_df_write(built, min_df, &b, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  if (mode == TRAIN) {
    if (tbk_kw_trainer_fit(trainer, cost, &ranker, &err))
      cli_die(TBK_EXIT_FAIL, "%zu pages with gold keywords found in their text: %s", with_gold, err.msg);
    if (tbk_kw_ranker_write(&ranker, &b)) cli_die(TBK_EXIT_FAIL, "out of memory");
  }
  if (b.len) cli_out_put(&out, b.data, b.len);
  cli_out_commit(&out);
  tbk_buf_free(&b);
  tbk_buf_free(&r.raw);
  tbk_buf_free(&r.gold);
  free(r.keep);
  tbk_kw_df_free(built);
  tbk_kw_df_free(df);
  tbk_kw_trainer_free(trainer);
  tbk_kw_gold_free(gold);
  tbk_kw_free(r.x);
  tbk_page_list_free(&list);
  tbk_predictor_free(r.pred);
  tbk_model_free(model);
  return cli_exit(cli_pages_exit(&r.pages));
}
