/* tbk-eval keywords: Kołcz & Yih's section 5 on our data sets. Keyword
 * rankers are trained on some sets and tested on others (cross-domain, as
 * the paper's IA -> MSN); the gold keywords of a page are its own <meta>
 * keywords, removed from the page before anything reads it; each setting
 * is scored with the paper's top-N score and compared with a paired
 * t-test. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eval_cli.h"
#include "tbk_keywords.h"
#include "tbk_eval.h"

static void usage(void) {
  printf("Usage: tbk-eval keywords [OPTION]... [--train INPUT] --test INPUT\n"
         "Keyword extraction with and without template removal (Kolcz & Yih 2007,\n"
         "section 5): a logistic ranker is trained on the --train pages, then every\n"
         "--test page is ranked from its whole text (ORD), without its template blocks\n"
         "(DN), with the content stage's text only (DN-content) and from the human\n"
         "gold text where the manifest has one (GOLD), each with document frequencies\n"
         "from the training pages only and from training and test pages (-DF). Gold\n"
         "keywords: the page's <meta name=\"keywords\"> (or news_keywords, article:tag),\n"
         "removed from the page before extraction; only those among the candidates of\n"
         "the page's whole text count, and pages with none are left out. A keyword in\n"
         "the meta of half the pages of a site (of 4 or more) names the site, not the\n"
         "page, and is left out too (--all-gold keeps it; --page-specific keeps only\n"
         "the keywords no other page of the site lists, on sites of 4 or more pages\n"
         "with meta keywords). The score of a page at N is |A and K_N| / min(|A|, N),\n"
         "averaged over pages (x 100). Without --train no ranker is trained: the\n"
         "TF-IDF rows only, with the --df table (tbk-keywords' own ranking) or none.\n"
         "INPUT is a manifest .tsv, a directory or a WARC file; both options may be\n"
         "repeated.\n\n"
         "Options:\n"
         "      --train INPUT      pages to train the ranker on (and their DF table)\n"
         "      --test INPUT       pages to evaluate on\n"
         "  -m, --model FILE       template/content model (default: $TBK_MODEL)\n"
         "      --max-pages N      read at most N pages of each input (0 = all)\n"
         "  -C, --cost C           the ranker's inverse regularization (1)\n"
         "      --ranker-out FILE  write the ranker trained with the training DF table\n"
         "      --df-out FILE      write the training pages' DF table (terms in 2+ pages)\n"
         "      --df FILE          use this DF table (tbk-keywords --build-df, e.g. the\n"
         "                         shipped keywords.df) as the training table\n"
         "      --all-gold         keep the site-wide meta keywords as gold\n"
         "      --page-specific    gold: only the meta keywords no other page of the\n"
         "                         site lists (sites of 4+ pages with meta keywords)\n"
         "      --removed-weight W DN-content's TF-IDF counts an occurrence in removed\n"
         "                         text as W of one in kept text (0.1, as tbk-keywords)\n"
         "  -o, --output FILE      the report as JSON (every setting's means and the\n"
         "                         tests); the table goes to stdout\n"
         "      --per-page FILE    also every test page's scores (TSV: site, page,\n"
         "                         gold_keys, ranker, setting, top1, top2, top3, top5,\n"
         "                         top10; a row per setting the page has)\n" CLI_PROGRESS_HELP
         "  -h, --help             show this help and exit\n\n" CLI_EXIT_STATUS_HELP
         "  3  done, but some page was skipped (each reported)\n"
         "  4  an output could not be written\n"
         "  5  model refused\n");
}

enum {
  OPT_TRAIN = 2000,
  OPT_TEST,
  OPT_MAX_PAGES,
  OPT_RANKER_OUT,
  OPT_DF_OUT,
  OPT_DF_IN,
  OPT_ALL_GOLD,
  OPT_PAGE_SPECIFIC,
  OPT_REMOVED,
  OPT_PER_PAGE
};

#define NN 5
static const size_t TOPS[NN] = {1, 2, 3, 5, 10};
/* Texts a test page is ranked from. */
enum { T_ORD, T_DN, T_CONTENT, T_GOLD, NTEXT };
static const char *const TEXT_NAME[NTEXT] = {"ORD", "DN", "DN-content", "GOLD"};
/* Ranker x DF table. */
enum { R_TRAINED, R_TRAINED_DF, R_TFIDF, R_TFIDF_DF, NRANK };
static const char *const RANK_SUFFIX[NRANK] = {"", "-DF", "", "-DF"};

typedef struct kw_eval {
  cli_pages pages;
  tbk_predictor *pred;
  int has_content;
  tbk_kw_extractor *x;
  tbk_kw_gold *gold;
  tbk_buf raw, meta, goldtext, scratch;
  tbk_kw_sites *sites;   /* every page's meta keys, per site */
  tbk_kw_gold_rule rule; /* which of a page's meta keys are gold */
} kw_eval;

static void list_inputs(kw_eval *e, char **inputs, size_t n, size_t max_pages, tbk_page_list *out) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < n; i++) {
    tbk_page_list one;
    cli_pages_list(&e->pages, inputs + i, 1, &one);
    for (size_t k = 0; k < one.n && (!max_pages || k < max_pages); k++) {
      const tbk_page_ref *r = &one.refs[k];
      if (tbk_page_list_push_copy(out, r)) cli_die(TBK_EXIT_FAIL, "out of memory");
    }
    tbk_page_list_free(&one);
  }
}

/* Parse a page with its keyword <meta> removed (its contents into e->meta). */
static tbk_page *load(kw_eval *e, const tbk_page_ref *ref) {
  tbk_error err = {0};
  tbk_page *page;
  tbk_status st = tbk_kw_page_read(ref, &e->pages.input, &e->pages.page, &e->raw, &page, &e->meta, &err);
  cli_progress_step(&e->pages.meter, ++e->pages.loaded, e->raw.len);
  if (st) cli_pages_skip(&e->pages, ref, err.msg);
  return page;
}

/* The extractor holds the page's candidates after mode. 0: skipped. */
static int extract(kw_eval *e, const tbk_page_ref *ref, tbk_page *page, tbk_kw_denoise mode) {
  tbk_error err = {0};
  tbk_status st = tbk_kw_extract_page(e->x, e->pred, page, mode, &err);
  if (st == TBK_ERR_LIMIT) cli_pages_skip(&e->pages, ref, err.msg);
  else if (st) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
  return !st;
}

/* Count the page's meta keywords for its site. */
static void count_site_gold(kw_eval *e, const tbk_page_ref *ref) {
  tbk_error err = {0};
  tbk_kw_gold_clear(e->gold);
  if (tbk_kw_gold_add(e->gold, e->x, e->meta.data, e->meta.len) < 0) cli_die(TBK_EXIT_FAIL, "out of memory");
  if (tbk_kw_sites_add(e->sites, ref->site, e->gold, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
}

/* The page's gold keys among its whole text's candidates (the extractor
 * holds ORD), filtered by the site rule (tbk_kw_gold_site_rule); their
 * number. */
static size_t gold_of(kw_eval *e, const tbk_page_ref *ref) {
  tbk_kw_gold_clear(e->gold);
  if (tbk_kw_gold_add(e->gold, e->x, e->meta.data ? e->meta.data : "", e->meta.len) < 0)
    cli_die(TBK_EXIT_FAIL, "out of memory");
  if (!tbk_kw_gold_restrict(e->gold, e->x)) return 0;
  return tbk_kw_gold_site_rule(e->gold, e->sites, ref->site, e->rule);
}

/* The document frequencies of the pages' whole text. */
static void build_df(kw_eval *e, const tbk_page_list *l, tbk_kw_df *df) {
  tbk_error err = {0};
  for (size_t i = 0; i < l->n; i++) {
    tbk_page *page = load(e, &l->refs[i]);
    if (!page) continue;
    if (extract(e, &l->refs[i], page, TBK_KW_DENOISE_NONE) && tbk_kw_df_add(df, e->x, &err))
      cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    if (e->meta.len) count_site_gold(e, &l->refs[i]);
    tbk_page_free(page);
  }
}

typedef struct series {
  double *v[NTEXT][NRANK][NN]; /* per test page; NaN: no such text */
  size_t *test;                /* per test page: its index in the test list */
  size_t *keys;                /* per test page: its gold keys */
  size_t n, cap;
} series;

static void push(series *s, size_t test, size_t keys) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 256;
    for (int t = 0; t < NTEXT; t++)
      for (int r = 0; r < NRANK; r++)
        for (int k = 0; k < NN; k++)
          if (!(s->v[t][r][k] = realloc(s->v[t][r][k], s->cap * sizeof(double))))
            cli_die(TBK_EXIT_FAIL, "out of memory");
    if (!(s->test = realloc(s->test, s->cap * sizeof *s->test)) ||
        !(s->keys = realloc(s->keys, s->cap * sizeof *s->keys)))
      cli_die(TBK_EXIT_FAIL, "out of memory");
  }
  for (int t = 0; t < NTEXT; t++)
    for (int r = 0; r < NRANK; r++)
      for (int k = 0; k < NN; k++) s->v[t][r][k][s->n] = NAN;
  s->test[s->n] = test;
  s->keys[s->n] = keys;
  s->n++;
}

/* The scores of every test page, a row per setting it has (ranker r0
 * and after), to find which pages a change moves. */
static void write_per_page(const char *path, const series *s, const tbk_page_list *te, int r0) {
  tbk_buf b = {0};
  int bad = tbk_buf_puts(&b, "site\tpage\tgold_keys\tranker\tsetting\ttop1\ttop2\ttop3\ttop5\ttop10\n");
  for (size_t i = 0; i < s->n; i++) {
    const tbk_page_ref *ref = &te->refs[s->test[i]];
    for (int r = r0; r < NRANK; r++)
      for (int t = 0; t < NTEXT; t++) {
        if (isnan(s->v[t][r][0][i])) continue;
        /* file names may hold tabs: escaped as tbk-predict's index does */
        bad |= cli_tsv_field(&b, ref->site ? ref->site : "") || tbk_buf_puts(&b, "\t") ||
               cli_tsv_field(&b, ref->page ? ref->page : "");
        bad |= tbk_buf_printf(&b, "\t%zu\t%s\t%s%s", s->keys[i], r >= R_TFIDF ? "tfidf" : "trained", TEXT_NAME[t],
                              RANK_SUFFIX[r]);
        for (int k = 0; k < NN; k++) bad |= tbk_buf_printf(&b, "\t%.2f", 100.0 * s->v[t][r][k][i]);
        bad |= tbk_buf_puts(&b, "\n");
      }
  }
  if (bad) cli_die(TBK_EXIT_FAIL, "out of memory");
  write_file(path, &b);
  tbk_buf_free(&b);
}

/* tbk_paired_compare, dying on out of memory. */
static void compare(const double *a, const double *b, size_t n, double *ma, double *mb, size_t *np, double *p) {
  tbk_error err = {0};
  if (tbk_paired_compare(a, b, n, ma, mb, np, p, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
}

int cmd_keywords(int argc, char **argv) {
  cli_init("tbk-eval keywords");
  kw_eval e = {0};
  cli_pages_init(&e.pages);
  const char *model_path = getenv("TBK_MODEL"), *output = NULL, *ranker_out = NULL, *df_out = NULL, *df_in = NULL,
             *per_page = NULL;
  char **train = calloc((size_t)argc, sizeof *train), **test = calloc((size_t)argc, sizeof *test);
  if (!train || !test) cli_die(TBK_EXIT_FAIL, "out of memory");
  size_t ntrain = 0, ntest = 0, max_pages = 0;
  double cost = 1.0, removed = TBK_KW_REMOVED_WEIGHT;
  int rule_opt = 0;
  e.rule = TBK_KW_GOLD_NOT_SITE_WIDE;
  static const struct option longopts[] = {{"train", required_argument, 0, OPT_TRAIN},
                                           {"test", required_argument, 0, OPT_TEST},
                                           {"model", required_argument, 0, 'm'},
                                           {"max-pages", required_argument, 0, OPT_MAX_PAGES},
                                           {"cost", required_argument, 0, 'C'},
                                           {"ranker-out", required_argument, 0, OPT_RANKER_OUT},
                                           {"df-out", required_argument, 0, OPT_DF_OUT},
                                           {"df", required_argument, 0, OPT_DF_IN},
                                           {"output", required_argument, 0, 'o'},
                                           {"all-gold", no_argument, 0, OPT_ALL_GOLD},
                                           {"page-specific", no_argument, 0, OPT_PAGE_SPECIFIC},
                                           {"removed-weight", required_argument, 0, OPT_REMOVED},
                                           {"per-page", required_argument, 0, OPT_PER_PAGE},
                                           {"help", no_argument, 0, 'h'},
                                           CLI_PROGRESS_LONGOPTS,
                                           {0, 0, 0, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":m:C:o:h", longopts, NULL)) != -1) {
    switch (c) {
    case OPT_TRAIN: train[ntrain++] = optarg; break;
    case OPT_TEST: test[ntest++] = optarg; break;
    case 'm': model_path = optarg; break;
    case OPT_MAX_PAGES: max_pages = (size_t)cli_long("--max-pages", optarg, 0, 100000000); break;
    case 'C': cost = cli_double("--cost", optarg, 1e-6, 1e6); break;
    case OPT_RANKER_OUT: ranker_out = optarg; break;
    case OPT_DF_OUT: df_out = optarg; break;
    case OPT_DF_IN: df_in = optarg; break;
    case OPT_ALL_GOLD:
    case OPT_PAGE_SPECIFIC:
      if (rule_opt && rule_opt != c) cli_usage_error("--all-gold and --page-specific exclude each other");
      rule_opt = c;
      e.rule = c == OPT_ALL_GOLD ? TBK_KW_GOLD_ALL : TBK_KW_GOLD_PAGE_SPECIFIC;
      break;
    case 'o': output = optarg; break;
    case OPT_REMOVED: removed = cli_double("--removed-weight", optarg, 0, 1); break;
    case OPT_PER_PAGE: per_page = optarg; break;
    case 'h':
      free(train);
      free(test);
      usage();
      return cli_exit(TBK_EXIT_OK);
    default:
      if (!cli_progress_option(&e.pages.progress, c)) cli_bad_option(c, argv);
    }
  }
  if (optind < argc) cli_usage_error("unexpected argument '%s' (inputs go after --train or --test)", argv[optind]);
  if (!ntest) cli_usage_error("--test is needed");
  if (!ntrain && ranker_out) cli_usage_error("--ranker-out needs --train");
  if (!model_path || !*model_path) cli_usage_error("no model: give -m FILE or set TBK_MODEL");

  tbk_model *model;
  e.pred = cli_predictor(model_path, &model);
  e.has_content = tbk_model_content(model) != NULL;
  cli_pages_segment_as(&e.pages, model);
  tbk_error err = {0};
  if (tbk_kw_new(&e.x, &err) || tbk_kw_gold_new(&e.gold, &err) || tbk_kw_sites_new(&e.sites, &err))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  tbk_kw_set_removed_weight(e.x, removed); /* DN-content's TF-IDF rows (training reads ORD) */

  tbk_page_list tr, te;
  list_inputs(&e, train, ntrain, max_pages, &tr);
  list_inputs(&e, test, ntest, max_pages, &te);
  cli_reads_add(df_in);
  cli_output_check("-o", output);
  cli_output_check("--ranker-out", ranker_out);
  cli_output_check("--df-out", df_out);
  cli_output_check("--per-page", per_page);

  /* Document frequencies: the training pages (the paper's IA), and those
   * with the test pages added (its DF setting). */
  /* Each page is read twice: for the DF tables, then to train or test. */
  cli_pages_progress_start(&e.pages, 2 * (tr.n + te.n));
  tbk_kw_df *df_train, *df_test, *df_all;
  if (tbk_kw_df_new(&df_train, &err) || tbk_kw_df_new(&df_test, &err) || tbk_kw_df_new(&df_all, &err))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  build_df(&e, &tr, df_train);
  build_df(&e, &te, df_test);
  if (df_in) { /* the pages were still read: their meta decides the site-wide gold */
    tbk_kw_df_free(df_train);
    tbk_status st = tbk_kw_df_load(df_in, &df_train, &err);
    if (st) cli_die(st == TBK_ERR_IO ? TBK_EXIT_FAIL : TBK_EXIT_MODEL, "%s: %s", df_in, err.msg);
  }
  if (tbk_kw_df_merge(df_all, df_train, &err) || tbk_kw_df_merge(df_all, df_test, &err))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);

  /* Rankers trained on the training pages' whole text (ORD), one per table. */
  tbk_kw_trainer *trainer[2];
  if (tbk_kw_trainer_new(&trainer[0], &err) || tbk_kw_trainer_new(&trainer[1], &err))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  size_t train_pages = 0;
  for (size_t i = 0; i < tr.n; i++) {
    tbk_page *page = load(&e, &tr.refs[i]);
    if (!page) continue;
    if (e.meta.len && extract(&e, &tr.refs[i], page, TBK_KW_DENOISE_NONE) && gold_of(&e, &tr.refs[i])) {
      train_pages++;
      if (tbk_kw_trainer_add(trainer[0], e.x, df_train, e.gold, 200, &err) ||
          tbk_kw_trainer_add(trainer[1], e.x, df_all, e.gold, 200, &err))
        cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    }
    tbk_page_free(page);
  }
  tbk_kw_ranker ranker[2];
  memset(ranker, 0, sizeof ranker);
  for (int k = 0; k < 2 && ntrain; k++)
    if (tbk_kw_trainer_fit(trainer[k], cost, &ranker[k], &err))
      cli_die(TBK_EXIT_FAIL, "training on %zu pages with gold keywords: %s", train_pages, err.msg);

  /* Every test page with gold, every text, every ranker. */
  series s = {0};
  size_t gold_keys = 0;
  for (size_t i = 0; i < te.n; i++) {
    const tbk_page_ref *ref = &te.refs[i];
    tbk_page *page = load(&e, ref);
    if (!page) continue;
    if (!e.meta.len || !extract(&e, ref, page, TBK_KW_DENOISE_NONE) || !gold_of(&e, ref)) {
      tbk_page_free(page);
      continue;
    }
    gold_keys += tbk_kw_gold_count(e.gold);
    push(&s, i, tbk_kw_gold_count(e.gold));
    for (int t = 0; t < NTEXT; t++) {
      if (t == T_CONTENT && !e.has_content) continue;
      if (t == T_GOLD) {
        if (!ref->gold || !*ref->gold) continue;
        e.goldtext.len = 0;
        if (tbk_gold_read(ref->gold, 0, 0, &e.goldtext, &err)) {
          cli_warn("%s: %s (GOLD left out for this page)", ref->gold, err.msg);
          continue;
        }
        /* The same title as the page's other texts: gold text has none. */
        if (tbk_kw_extract_titled(e.x, page, e.goldtext.data ? e.goldtext.data : "", e.goldtext.len, &err))
          cli_die(TBK_EXIT_FAIL, "out of memory");
      } else if (t != T_ORD && !extract(&e, ref, page, t == T_DN ? TBK_KW_DENOISE_TEMPLATE : TBK_KW_DENOISE_CONTENT)) {
        continue;
      }
      for (int r = ntrain ? 0 : R_TFIDF; r < NRANK; r++) {
        const tbk_kw_df *df = r == R_TRAINED || r == R_TFIDF ? df_train : df_all;
        const tbk_kw_ranker *rk = r == R_TRAINED ? &ranker[0] : r == R_TRAINED_DF ? &ranker[1] : NULL;
        tbk_kw_rank(e.x, df, rk);
        for (int k = 0; k < NN; k++)
          s.v[t][r][k][s.n - 1] = tbk_kw_topn(tbk_kw_cands(e.x), tbk_kw_count(e.x), e.gold, TOPS[k]);
      }
    }
    tbk_page_free(page);
  }
  cli_pages_progress_end(&e.pages);
  if (!s.n) cli_die(TBK_EXIT_FAIL, "no test page has gold keywords among its candidates");

  /* The tables: means over the pages each text exists for; the tests pair
   * a row with its baseline over the pages both exist for. */
  tbk_buf b = {0}, js = {0};
  int bad = tbk_buf_printf(&b,
                           "training pages with gold: %zu; DF tables: %zu training, %zu all documents\n"
                           "test pages with gold: %zu (%.2f gold keywords among the candidates a page)\n",
                           train_pages, tbk_kw_df_docs(df_train), tbk_kw_df_docs(df_all), s.n,
                           (double)gold_keys / (double)s.n);
  bad |= tbk_buf_printf(&js,
                        "{\"train_pages\":%zu,\"test_pages\":%zu,\"df_train_docs\":%zu,\"df_all_docs\":%zu,"
                        "\"gold_keys\":%zu,\"gold_keys_per_page\":%.4f,\"rows\":[",
                        train_pages, s.n, tbk_kw_df_docs(df_train), tbk_kw_df_docs(df_all), gold_keys,
                        (double)gold_keys / (double)s.n);
  int first_row = 1;
  for (int pass = ntrain ? 0 : 1; pass < 2; pass++) {
    int r0 = pass ? R_TFIDF : R_TRAINED;
    bad |= tbk_buf_printf(&b, "\n%s ranker\n%-16s %6s %7s %7s %7s %7s %7s\n", pass ? "TF-IDF (untrained)" : "trained",
                          "setting", "pages", "Top1", "Top2", "Top3", "Top5", "Top10");
    for (int rr = 0; rr < 2; rr++)
      for (int t = 0; t < NTEXT; t++) {
        int r = r0 + rr;
        char name[32];
        snprintf(name, sizeof name, "%s%s", TEXT_NAME[t], RANK_SUFFIX[r]);
        double m[NN], dummy, p;
        size_t np = 0;
        for (int k = 0; k < NN; k++) compare(s.v[t][r][k], NULL, s.n, &m[k], &dummy, &np, &p);
        if (!np) continue;
        bad |= tbk_buf_printf(&b, "%-16s %6zu %7.2f %7.2f %7.2f %7.2f %7.2f\n", name, np, m[0], m[1], m[2], m[3], m[4]);
        bad |= tbk_buf_printf(
            &js, "%s{\"ranker\":\"%s\",\"setting\":\"%s\",\"pages\":%zu,\"top\":[%.4f,%.4f,%.4f,%.4f,%.4f]}",
            first_row ? "" : ",", pass ? "tfidf" : "trained", name, np, m[0], m[1], m[2], m[3], m[4]);
        first_row = 0;
      }
    /* The paper's comparisons: denoised against ORD, with either table,
     * and GOLD against DN on the pages with gold text. */
    static const int pairs[][2] = {{T_DN, T_ORD}, {T_CONTENT, T_ORD}, {T_GOLD, T_DN}, {T_GOLD, T_CONTENT}};
    bad |= tbk_buf_printf(&b, "paired t-test, two-tailed (mean difference, p)\n");
    for (int rr = 0; rr < 2; rr++)
      for (size_t q = 0; q < sizeof pairs / sizeof pairs[0]; q++) {
        int r = r0 + rr, a = pairs[q][0], z = pairs[q][1];
        char name[48];
        snprintf(name, sizeof name, "%s%s vs %s%s", TEXT_NAME[a], RANK_SUFFIX[r], TEXT_NAME[z], RANK_SUFFIX[r]);
        size_t np = 0;
        double ma[NN], mb[NN], p[NN];
        for (int k = 0; k < NN; k++) compare(s.v[a][r][k], s.v[z][r][k], s.n, &ma[k], &mb[k], &np, &p[k]);
        if (np < 2) continue;
        bad |= tbk_buf_printf(&b, "%-24s %5zu", name, np);
        for (int k = 0; k < NN; k++) bad |= tbk_buf_printf(&b, "  %+6.2f p=%.3g", ma[k] - mb[k], p[k]);
        bad |= tbk_buf_puts(&b, "\n");
        bad |= tbk_buf_printf(&js, ",{\"ranker\":\"%s\",\"test\":\"%s\",\"pages\":%zu,\"diff\":[",
                              pass ? "tfidf" : "trained", name, np);
        for (int k = 0; k < NN; k++) bad |= tbk_buf_printf(&js, "%s%.4f", k ? "," : "", ma[k] - mb[k]);
        bad |= tbk_buf_puts(&js, "],\"p\":[");
        for (int k = 0; k < NN; k++) {
          if (k) bad |= tbk_buf_puts(&js, ",");
          bad |= json_num(&js, p[k]);
        }
        bad |= tbk_buf_puts(&js, "]}");
      }
  }
  if (ntrain) {
    bad |= tbk_buf_puts(&js, "],\"ranker\":{");
    for (size_t j = 0; j < TBK_KW_NFEAT; j++)
      bad |= tbk_buf_printf(&js, "%s\"%s\":%.6f", j ? "," : "", tbk_kw_feature_names[j], ranker[0].w[j]);
    bad |= tbk_buf_printf(&js, ",\"bias\":%.6f}}\n", ranker[0].bias);
  } else {
    bad |= tbk_buf_puts(&js, "],\"ranker\":null}\n");
  }
  if (bad) cli_die(TBK_EXIT_FAIL, "out of memory");
  fwrite(b.data, 1, b.len, stdout);
  if (output) write_file(output, &js);
  if (ranker_out) {
    tbk_buf rb = {0};
    if (tbk_kw_ranker_write(&ranker[0], &rb)) cli_die(TBK_EXIT_FAIL, "out of memory");
    write_file(ranker_out, &rb);
    tbk_buf_free(&rb);
  }
  if (per_page) write_per_page(per_page, &s, &te, ntrain ? 0 : R_TFIDF);
  if (df_out) {
    tbk_buf db = {0};
    if (tbk_kw_df_write(df_train, 2, &db, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    write_file(df_out, &db);
    tbk_buf_free(&db);
  }
  for (int t = 0; t < NTEXT; t++)
    for (int r = 0; r < NRANK; r++)
      for (int k = 0; k < NN; k++) free(s.v[t][r][k]);
  free(s.test);
  free(s.keys);
  tbk_buf_free(&b);
  tbk_buf_free(&js);
  tbk_buf_free(&e.raw);
  tbk_buf_free(&e.meta);
  tbk_buf_free(&e.goldtext);
  tbk_buf_free(&e.scratch);
  tbk_kw_sites_free(e.sites);
  free(train);
  free(test);
  tbk_kw_trainer_free(trainer[0]);
  tbk_kw_trainer_free(trainer[1]);
  tbk_kw_df_free(df_train);
  tbk_kw_df_free(df_test);
  tbk_kw_df_free(df_all);
  tbk_kw_gold_free(e.gold);
  tbk_kw_free(e.x);
  tbk_page_list_free(&tr);
  tbk_page_list_free(&te);
  tbk_predictor_free(e.pred);
  tbk_model_free(model);
  return cli_exit(cli_pages_exit(&e.pages));
}
