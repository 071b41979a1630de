/* tbk-eval chunks: Ma et al.'s metrics for tbk-label --method chunks, per
 * site (atf, ttdr against a known template, agreement with the blocks
 * labeller), and the paper's two experiments: ttdr and run time against
 * the pages sampled per site (its figure 4), and ttdr against the df
 * threshold (its figure 3). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eval_cli.h"
#include "tbk_eval.h"

static void usage_chunks(void) {
  printf("Usage: tbk-eval chunks [OPTION]... INPUT...\n"
         "Label every site of INPUT by its table text chunks (as tbk-label --method\n"
         "chunks) and measure, per site (TSV, one line each):\n"
         "  atf            average template fraction (Ma et al.): words of the distinct\n"
         "                 template chunks / mean words per page\n"
         "  template_share words in template chunks / all words\n"
         "  ttdr           template table discovery ratio: nd / nt, nt = the template\n"
         "                 nodes of --truth, nd = those discovered (found) + discovered\n"
         "                 places the truth lacks (extra); a place is a chunk's text at\n"
         "                 its tag path. 1: all found, nothing more\n"
         "  ttdr_keys      distinct template keys / nt: the paper's count, which one key\n"
         "                 for a chunk repeated at two places undercounts\n"
         "  agree_*        with --blocks-labels: text the chunks call template that the\n"
         "                 blocks labeller calls template too (precision), and the\n"
         "                 reverse (recall), Jaccard; in characters\n\n"
         "Options:\n"
         "  -o, --output FILE      the per-site table (default: stdout)\n"
         "      --truth FILE       known template nodes (datasets/synth_table_sites.py's\n"
         "                         chunk_truth.tsv: site md5 tpath columns)\n"
         "      --blocks-labels FILE  tbk-label (--method blocks) labels of the same\n"
         "                         inputs, for the agreement columns (labels of none\n"
         "                         of the pages read, spelt otherwise: exit 1)\n"
         "      --sample LIST      experiment: ttdr and run time for LIST pages drawn per\n"
         "                         site (e.g. 2,4,8,16); the reference is --truth, else\n"
         "                         what all of the site's pages find\n"
         "      --reps N           draws per sample size (5)\n"
         "      --seed N           of the draws (1)\n"
         "      --df-curve LIST    experiment: ttdr for each df threshold of LIST\n"
         "      --csv FILE         the experiment's rows\n"
         "      --svg FILE         the experiment's plot (mean ttdr per site)\n"
         "      --time-svg FILE    --sample: mean run time per site\n"
         "      --min-pages N      skip sites with fewer pages (10)\n"
         "  -q, --quiet            no progress on stderr\n"
         "  -h, --help             show this help and exit\n\n"
         "Chunk options (as tbk-label --method chunks):\n"
         "      --chunk-tags LIST  tags that close a chunk (" TBK_CHUNK_TAGS_DEFAULT ")\n"
         "      --df N             template if df >= N\n"
         "      --df-frac F        template if df >= max(ceil(F x pages), 3) (0.10)\n"
         "      --key K            text (default) or text+path\n\n"
         "%s\n" CLI_EXIT_STATUS_HELP "  3  done, but some input or label lines were skipped (each reported)\n"
         "  4  an output could not be written\n",
         cli_page_options_help);
}

enum {
  O_TRUTH = CLI_OPT_FIRST_FREE,
  O_BLOCKS,
  O_SAMPLE,
  O_REPS,
  O_SEED,
  O_CURVE,
  O_CSV,
  O_SVG,
  O_TIME_SVG,
  O_MIN_PAGES,
  O_TAGS,
  O_DF,
  O_FRAC,
  O_KEY
};

/* A comma-separated list of positive integers, increasing. */
static size_t parse_list(const char *opt, const char *s, size_t **out) {
  size_t n = 0, cap = 0;
  *out = NULL;
  for (const char *p = s; *p;) {
    char *e;
    errno = 0;
    unsigned long v = strtoul(p, &e, 10);
    if (e == p || errno || v == 0 || v > 1000000 || (*e && *e != ',') || (n && v <= (*out)[n - 1]))
      cli_usage_error("%s: '%s' is not a list of increasing positive integers", opt, s);
    if (tbk_grow(out, &cap, n + 1, sizeof **out)) cli_die(TBK_EXIT_FAIL, "out of memory");
    (*out)[n++] = v;
    p = *e ? e + 1 : e;
  }
  if (!n) cli_usage_error("%s: empty list", opt);
  return n;
}

typedef struct run_opts {
  cli_pages *pages;
  const tbk_page_list *list;
  tbk_chunk_options copt;
  tbk_label_set *blocks;
} run_opts;

/* A site's run over the pages idx[0..n) of the list, timed into *ms. */
static void run_site(const run_opts *o, const char *site, const size_t *idx, size_t n, int agree, tbk_chunk_run *r,
                     double *ms) {
  tbk_error err = {0};
  double t0 = cli_now();
  if (tbk_chunk_run_new(r, site, &o->copt, agree ? o->blocks : NULL, &err))
    cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
  for (size_t k = 0; k < n; k++) {
    const tbk_page_ref *ref = &o->list->refs[idx[k]];
    tbk_page *page = cli_pages_load(o->pages, ref);
    if (!page) continue;
    if (tbk_chunk_run_add(r, ref, page, &err)) cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
    tbk_page_free(page);
  }
  if (tbk_chunk_run_finish(r, &err)) cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
  *ms = (cli_now() - t0) * 1e3;
}

static uint64_t xorshift(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

/* Series of the plots: one per site, a point per x. */
typedef struct series_set {
  tbk_line_series *s;
  double *xs, *ys, *ys2; /* ns x npts */
  size_t ns, npts;
} series_set;

static void plot(const char *path, series_set *ss, const double *ys, const char *title, const char *xl,
                 const char *yl) {
  if (!path) return;
  for (size_t k = 0; k < ss->ns; k++) ss->s[k].y = ys + k * ss->npts;
  tbk_buf b = {0};
  tbk_error err = {0};
  if (tbk_line_svg(ss->s, ss->ns, title, xl, yl, &b, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  write_file(path, &b);
  tbk_buf_free(&b);
}

int cmd_chunks(int argc, char **argv) {
  cli_init("tbk-eval chunks");
  cli_pages pages;
  cli_pages_init(&pages);
  run_opts ro = {.pages = &pages};
  tbk_chunk_options_init(&ro.copt);
  const char *output = NULL, *truth_path = NULL, *blocks_path = NULL, *csv = NULL, *svg = NULL, *time_svg = NULL;
  const char *sample_arg = NULL, *curve_arg = NULL;
  size_t reps = 5, min_pages = 10;
  uint64_t seed = 1;
  int quiet = 0;
  static const struct option longopts[] = {{"output", required_argument, 0, 'o'},
                                           {"truth", required_argument, 0, O_TRUTH},
                                           {"blocks-labels", required_argument, 0, O_BLOCKS},
                                           {"sample", required_argument, 0, O_SAMPLE},
                                           {"reps", required_argument, 0, O_REPS},
                                           {"seed", required_argument, 0, O_SEED},
                                           {"df-curve", required_argument, 0, O_CURVE},
                                           {"csv", required_argument, 0, O_CSV},
                                           {"svg", required_argument, 0, O_SVG},
                                           {"time-svg", required_argument, 0, O_TIME_SVG},
                                           {"min-pages", required_argument, 0, O_MIN_PAGES},
                                           {"chunk-tags", required_argument, 0, O_TAGS},
                                           {"df", required_argument, 0, O_DF},
                                           {"df-frac", required_argument, 0, O_FRAC},
                                           {"key", required_argument, 0, O_KEY},
                                           {"quiet", no_argument, 0, 'q'},
                                           {"help", no_argument, 0, 'h'},
                                           CLI_PAGE_LONGOPTS,
                                           {0, 0, 0, 0}};
  int c;
  opterr = 0;
  tbk_error err = {0};
  while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
    if (cli_pages_option(&pages, c, optarg)) continue;
    switch (c) {
    case 'o': output = optarg; break;
    case O_TRUTH: truth_path = optarg; break;
    case O_BLOCKS: blocks_path = optarg; break;
    case O_SAMPLE: sample_arg = optarg; break;
    case O_REPS: reps = (size_t)cli_long("--reps", optarg, 1, 10000); break;
    case O_SEED: seed = (uint64_t)cli_long("--seed", optarg, 0, 2147483647); break;
    case O_CURVE: curve_arg = optarg; break;
    case O_CSV: csv = optarg; break;
    case O_SVG: svg = optarg; break;
    case O_TIME_SVG: time_svg = optarg; break;
    case O_MIN_PAGES: min_pages = (size_t)cli_long("--min-pages", optarg, 1, 1000000000); break;
    case O_TAGS:
      if (tbk_chunk_tags_parse(&ro.copt, optarg, &err)) cli_usage_error("--chunk-tags: %s", err.msg);
      break;
    case O_DF: ro.copt.df = (size_t)cli_long("--df", optarg, 1, 1000000000); break;
    case O_FRAC:
      ro.copt.df_frac = cli_double("--df-frac", optarg, 0.0, 1.0);
      ro.copt.df = 0;
      break;
    case O_KEY:
      if (strcmp(optarg, "text") == 0) ro.copt.key = TBK_CHUNK_KEY_TEXT;
      else if (strcmp(optarg, "text+path") == 0) ro.copt.key = TBK_CHUNK_KEY_TEXT_PATH;
      else cli_usage_error("--key: '%s' is neither text nor text+path", optarg);
      break;
    case 'q': quiet = 1; break;
    case 'h': usage_chunks(); return cli_exit(TBK_EXIT_OK);
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");
  if (sample_arg && curve_arg) cli_usage_error("--sample and --df-curve are two experiments: run one at a time");
  if ((csv || svg) && !sample_arg && !curve_arg) cli_usage_error("--csv and --svg need --sample or --df-curve");
  if (time_svg && !sample_arg) cli_usage_error("--time-svg needs --sample");
  size_t *xs_list = NULL, nx = 0;
  if (sample_arg) nx = parse_list("--sample", sample_arg, &xs_list);
  if (curve_arg) nx = parse_list("--df-curve", curve_arg, &xs_list);

  tbk_chunk_truth truth = {0};
  if (truth_path && tbk_chunk_truth_read(truth_path, &truth, &err))
    cli_die(err.code == TBK_ERR_NOMEM ? TBK_EXIT_FAIL : TBK_EXIT_FAIL, "%s: %s", truth_path, err.msg);
  size_t bad_labels = 0;
  if (blocks_path) {
    ro.blocks = cli_labels_read(blocks_path, pages.strict, &bad_labels);
    if (bad_labels) cli_warn("%s: %zu label lines skipped", blocks_path, bad_labels);
  }
  tbk_page_list list;
  cli_pages_list(&pages, argv + optind, argc - optind, &list);
  ro.list = &list;
  if (ro.blocks) cli_labels_check_pages(blocks_path, ro.blocks, &list, 1);
  cli_reads_add(truth_path); /* --blocks-labels: cli_labels_read */
  cli_output_check("-o", output);
  cli_output_check("--csv", csv);
  cli_output_check("--svg", svg);
  cli_output_check("--time-svg", time_svg);

  tbk_buf table = {0}, rows = {0};
  cli_mem(tbk_buf_puts(&table, "site\tpages\tchunks\tkeys\tthreshold\ttemplate_keys\tatf\ttemplate_share\tnt\tfound\t"
                               "extra\tttdr\tttdr_keys\tagree_precision\tagree_recall\tagree_jaccard\tms\n"));
  if (sample_arg) cli_mem(tbk_buf_puts(&rows, "site,pages,sampled,rep,template_keys,nt,found,extra,ttdr,ms\n"));
  if (curve_arg) cli_mem(tbk_buf_puts(&rows, "site,pages,df,template_keys,nt,found,extra,ttdr\n"));
  series_set ss = {0};
  size_t *idx = malloc((list.n ? list.n : 1) * sizeof *idx);
  if (!idx) cli_die(TBK_EXIT_FAIL, "out of memory");
  size_t skipped = 0;
  /* The sampling experiment reads pages again: no total to count down. */
  cli_pages_progress_start(&pages, 0);
  for (size_t i = 0; i < list.n;) {
    size_t j = i;
    while (j < list.n && strcmp(list.refs[j].site, list.refs[i].site) == 0) j++;
    const char *site = list.refs[i].site;
    size_t n = j - i;
    if (n < min_pages) {
      cli_warn("site %s: %zu pages < --min-pages %zu (skipped)", site, n, min_pages);
      skipped++;
      i = j;
      continue;
    }
    for (size_t k = 0; k < n; k++) idx[k] = i + k;
    const tbk_chunk_node *tn = NULL;
    size_t nt = truth.n ? tbk_chunk_truth_site(&truth, site, &tn) : 0;
    tbk_chunk_run full;
    double full_ms;
    run_site(&ro, site, idx, n, ro.blocks != NULL, &full, &full_ms);
    tbk_ttdr t = tbk_chunk_run_ttdr(&full, tn, nt, NULL);
    double ap = NAN, ar = NAN, aj = NAN;
    if (ro.blocks) tbk_agreement_rates(&full.agree, &ap, &ar, &aj);
    char b[8][32];
    cli_mem(tbk_buf_printf(&table, "%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%s\t%s\t", site, full.st.pages, full.st.chunks,
                           full.st.keys, full.st.threshold, full.st.template_keys, fmt4(b[0], full.st.atf),
                           fmt4(b[1], full.st.template_share)));
    if (nt)
      cli_mem(tbk_buf_printf(&table, "%zu\t%zu\t%zu\t%s\t%s\t", t.nt, t.found, t.extra, fmt4(b[2], t.ttdr),
                             fmt4(b[3], (double)full.st.template_keys / (double)nt)));
    else cli_mem(tbk_buf_puts(&table, "-\t-\t-\t-\t-\t"));
    cli_mem(tbk_buf_printf(&table, "%s\t%s\t%s\t%.1f\n", fmt4(b[4], ap), fmt4(b[5], ar), fmt4(b[6], aj), full_ms));
    if (!quiet) {
      cli_progress_clear(); /* the line is redrawn at the next page */
      fprintf(stderr, "%s: %s: %zu pages, atf %s, ttdr %s, %.0f ms\n", cli_prog(), site, full.st.pages,
              fmt4(b[0], full.st.atf), fmt4(b[2], nt ? t.ttdr : NAN), full_ms);
    }

    if (sample_arg || curve_arg) {
      size_t k = ss.ns++;
      cli_mem(tbk_resize(&ss.s, ss.ns, sizeof *ss.s) || tbk_resize(&ss.xs, ss.ns * nx, sizeof *ss.xs) ||
              tbk_resize(&ss.ys, ss.ns * nx, sizeof *ss.ys) || tbk_resize(&ss.ys2, ss.ns * nx, sizeof *ss.ys2));
      ss.npts = nx;
      ss.s[k].name = site;
      ss.s[k].x = NULL;
      ss.s[k].n = 0;
      for (size_t x = 0; x < nx; x++) ss.ys[k * nx + x] = ss.ys2[k * nx + x] = NAN;
    }
    if (sample_arg) {
      /* The reference without a truth: what every page of the site finds. */
      size_t k = ss.ns - 1, np = 0;
      for (size_t x = 0; x < nx && xs_list[x] <= n; x++) {
        double sum_t = 0, sum_ms = 0;
        for (size_t rep = 0; rep < reps; rep++) {
          uint64_t st = seed * 0x9E3779B97F4A7C15ULL ^ tbk_hash64(site, strlen(site)) ^ (xs_list[x] << 20) ^ rep;
          if (!st) st = 1;
          for (size_t q = 0; q < n; q++) idx[q] = i + q;
          for (size_t q = 0; q < xs_list[x]; q++) { /* partial Fisher-Yates */
            size_t w = q + (size_t)(xorshift(&st) % (n - q));
            size_t tmp = idx[q];
            idx[q] = idx[w];
            idx[w] = tmp;
          }
          tbk_chunk_run sr;
          double ms;
          run_site(&ro, site, idx, xs_list[x], 0, &sr, &ms);
          tbk_ttdr ts = tbk_chunk_run_ttdr(&sr, tn, nt, nt ? NULL : full.places);
          sum_t += ts.ttdr;
          sum_ms += ms;
          cli_mem(tbk_buf_printf(&rows, "%s,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%s,%.2f\n", site, n, xs_list[x], rep,
                                 sr.st.template_keys, ts.nt, ts.found, ts.extra, fmt4(b[0], ts.ttdr), ms));
          tbk_chunk_run_free(&sr);
        }
        ss.xs[k * nx + x] = (double)xs_list[x];
        ss.ys[k * nx + x] = sum_t / (double)reps;
        ss.ys2[k * nx + x] = sum_ms / (double)reps;
        np = x + 1;
      }
      ss.s[k].n = np;
    }
    if (curve_arg) {
      size_t k = ss.ns - 1;
      tbk_chunk_places *ref = NULL;
      if (!nt) { /* the reference: the places at the chosen threshold */
        ref = full.places;
        full.places = tbk_chunk_places_new();
        if (!full.places) cli_die(TBK_EXIT_FAIL, "out of memory");
      }
      for (size_t x = 0; x < nx; x++) {
        tbk_error err = {0};
        if (tbk_chunk_run_again(&full, xs_list[x], &err)) cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
        tbk_ttdr tc = tbk_chunk_run_ttdr(&full, tn, nt, ref);
        cli_mem(tbk_buf_printf(&rows, "%s,%zu,%zu,%zu,%zu,%zu,%zu,%s\n", site, n, xs_list[x], full.st.template_keys,
                               tc.nt, tc.found, tc.extra, fmt4(b[0], tc.ttdr)));
        ss.xs[k * nx + x] = (double)xs_list[x];
        ss.ys[k * nx + x] = tc.ttdr;
      }
      ss.s[k].n = nx;
      tbk_chunk_places_free(ref);
    }
    tbk_chunk_run_free(&full);
    i = j;
  }
  cli_pages_progress_end(&pages);
  /* x arrays are set only now: the series arrays moved while growing. */
  for (size_t k = 0; k < ss.ns; k++) ss.s[k].x = ss.xs + k * ss.npts;
  if (output) write_file(output, &table);
  else if (table.len && fwrite(table.data, 1, table.len, stdout) != table.len)
    cli_die(TBK_EXIT_WRITE, "standard output: cannot write");
  if (csv) write_file(csv, &rows);
  if (sample_arg) {
    plot(svg, &ss, ss.ys, "Template table discovery ratio against pages sampled per site", "pages sampled",
         "ttdr (mean of draws)");
    plot(time_svg, &ss, ss.ys2, "Run time against pages sampled per site", "pages sampled",
         "milliseconds (read, parse, both passes)");
  }
  if (curve_arg)
    plot(svg, &ss, ss.ys, "Template table discovery ratio against the df threshold", "df threshold", "ttdr");
  free(ss.s);
  free(ss.xs);
  free(ss.ys);
  free(ss.ys2);
  free(idx);
  free(xs_list);
  tbk_buf_free(&table);
  tbk_buf_free(&rows);
  tbk_page_list_free(&list);
  tbk_label_set_free(ro.blocks);
  tbk_chunk_truth_free(&truth);
  int code = cli_pages_exit(&pages);
  if (code == TBK_EXIT_OK && (skipped || bad_labels)) code = TBK_EXIT_PARTIAL;
  return cli_exit(code);
}
