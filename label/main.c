/* tbk-label: auto-label template and content blocks of crawl samples
 * grouped by site (stage 1 of the pipeline). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "chunks_cli.h"
#include "cli.h"

static void usage(void) {
  printf("Usage: tbk-label [OPTION]... INPUT...\n"
         "Auto-label the blocks of every site's pages: blocks on many of a site's\n"
         "pages are template, blocks on exactly one page (top-most) are content.\n"
         "INPUT is a directory ROOT/<site>/.../*.html, a manifest .tsv (site page url\n"
         "gold), a .warc or .warc.gz file, or a single page ('-' = stdin).\n"
         "Writes one JSON object per labelled block (JSON Lines).\n\n"
         "Options:\n"
         "  -o, --output FILE        write labels to FILE (default: stdout); FILE appears\n"
         "                           only when complete\n"
         "      --stats FILE         write the per-site summary (TSV) to FILE\n"
         "      --template-share F   template if df >= ceil(F x pages) ... (0.10)\n"
         "      --template-min-df N  ... and df >= N (3)\n"
         "      --min-pages N        skip sites with fewer pages (10)\n"
         "      --all                also emit ignored blocks, with a reason\n"
         "  -q, --quiet              no per-site summary on stderr\n"
         "      --gold               label the content stage's units from human gold text\n"
         "                           instead (a manifest's gold column): a unit whose\n"
         "                           tokens align with the gold is content, else\n"
         "                           boilerplate; pages without gold are skipped\n"
         "      --gold-share F       content when >= F of a unit's tokens align (0.5)\n"
         "      --gold-comments      the gold also holds the page's user comments\n"
         "                           (GOLD.comments.txt next to GOLD.txt, when present)\n"
         "  -h, --help               show this help and exit\n"
         "      --version            show the version and exit\n\n"
         "%s\n"
         "%s\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error\n"
         "  2  usage error\n"
         "  3  some pages or sites were skipped (each reported)\n"
         "  4  output could not be written\n",
         label_chunks_help, cli_page_options_help);
}

enum {
  OPT_STATS = CLI_OPT_FIRST_FREE, OPT_SHARE, OPT_MIN_DF, OPT_MIN_PAGES, OPT_ALL, OPT_VERSION, OPT_GOLD,
  OPT_GOLD_SHARE, OPT_GOLD_COMMENTS
};

/* The gold of a page, and with comments the GOLD.comments.txt beside it. */
static int read_gold(const tbk_page_ref *ref, int comments, tbk_buf *gold) {
  tbk_error err = {0};
  gold->len = 0;
  if (tbk_read_file(ref->gold, (size_t)64 << 20, gold, &err)) {
    cli_warn("%s: gold %s: %s (skipped)", ref->page, ref->gold, err.msg);
    return -1;
  }
  size_t n = strlen(ref->gold);
  if (comments && n > 4 && strcmp(ref->gold + n - 4, ".txt") == 0) {
    char *cpath = malloc(n + 16);
    if (!cpath) cli_die(TBK_EXIT_FAIL, "out of memory");
    snprintf(cpath, n + 16, "%.*s.comments.txt", (int)(n - 4), ref->gold);
    tbk_buf extra = {0};
    if (tbk_read_file(cpath, (size_t)64 << 20, &extra, &err) == TBK_OK &&
        (tbk_buf_append(gold, "\n", 1) || tbk_buf_append(gold, extra.data ? extra.data : "", extra.len)))
      cli_die(TBK_EXIT_FAIL, "out of memory");
    tbk_buf_free(&extra);
    free(cpath);
  }
  return 0;
}

/* --gold: one line per unit of every page that has gold text. */
static int label_gold(cli_pages *pages, const tbk_page_list *list, cli_out *out, double share, int comments,
                      int quiet) {
  tbk_units *ux;
  tbk_error err = {0};
  if (tbk_units_new(NULL, &ux, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  tbk_buf gold = {0}, line = {0};
  signed char *labels = NULL;
  double *shares = NULL;
  size_t cap = 0, no_gold = 0, pages_done = 0, nc = 0, nb = 0;
  cli_pages_progress_start(pages, list->n);
  for (size_t i = 0; i < list->n; i++) {
    const tbk_page_ref *ref = &list->refs[i];
    if (!ref->gold[0]) { no_gold++; continue; }
    if (read_gold(ref, comments, &gold)) { pages->bad_pages++; continue; }
    tbk_page *page = cli_pages_load(pages, ref);
    if (!page) continue;
    /* a unit holds at least one byte of the page text: a bound on units */
    size_t n;
    tbk_page_text(page, &n);
    if (n + 1 > cap) {
      cap = (n + 1) * 2;
      labels = realloc(labels, cap * sizeof *labels);
      shares = realloc(shares, cap * sizeof *shares);
      if (!labels || !shares) cli_die(TBK_EXIT_FAIL, "out of memory");
    }
    if (tbk_units_gold_labels(ux, page, gold.data ? gold.data : "", gold.len, share, labels, shares, &err)) {
      if (err.code == TBK_ERR_NOMEM) cli_die(TBK_EXIT_FAIL, "out of memory");
      cli_warn("%s: %s (skipped)", ref->page, err.msg);
      pages->bad_pages++;
      tbk_page_free(page);
      continue;
    }
    pages_done++;
    n = tbk_units_count(ux);
    for (size_t u = 0; u < n; u++) {
      if (!labels[u]) continue;
      tbk_unit un;
      tbk_units_get(ux, page, u, &un);
      char hex[33];
      tbk_md5_hex(un.md5, hex);
      /* at most 200 bytes of text, cut at a character boundary (a cut
       * inside a UTF-8 sequence would come out as U+FFFD) */
      size_t sn = un.text_len < 200 ? un.text_len : 200;
      while (sn > 0 && sn < un.text_len && ((unsigned char)un.text[sn] & 0xC0) == 0x80) sn--;
      line.len = 0;
      if (tbk_buf_puts(&line, "{\"site\":") || tbk_buf_json_str(&line, ref->site, strlen(ref->site)) ||
          tbk_buf_puts(&line, ",\"page\":") || tbk_buf_json_str(&line, ref->page, strlen(ref->page)) ||
          tbk_buf_puts(&line, ",\"url\":") || tbk_buf_json_str(&line, ref->url, strlen(ref->url)) ||
          tbk_buf_puts(&line, ",\"path\":") || tbk_buf_json_str(&line, un.path, strlen(un.path)) ||
          tbk_buf_puts(&line, ",\"tag\":") || tbk_buf_json_str(&line, un.tag, strlen(un.tag)) ||
          tbk_buf_printf(&line, ",\"md5\":\"%s\",\"label\":\"%s\",\"aligned\":%.3f,\"words\":%u,\"chars\":%zu,\"text\":",
                         hex, labels[u] < 0 ? "content" : "boilerplate", shares[u], un.words, un.text_chars) ||
          tbk_buf_json_str(&line, un.text, sn) || tbk_buf_puts(&line, "}\n"))
        cli_die(TBK_EXIT_FAIL, "out of memory");
      if (cli_out_write(out, line.data, line.len)) cli_die(TBK_EXIT_WRITE, "cannot write output");
      if (labels[u] < 0) nc++;
      else nb++;
    }
    tbk_page_free(page);
  }
  cli_pages_progress_end(pages);
  if (!quiet)
    fprintf(stderr, "tbk-label: gold: %zu pages, %zu content units, %zu boilerplate units%s\n", pages_done, nc, nb,
            no_gold ? " (pages without gold left out)" : "");
  free(labels);
  free(shares);
  tbk_buf_free(&gold);
  tbk_buf_free(&line);
  tbk_units_free(ux);
  if (pages_done) return 0;
  return no_gold == list->n ? -2 : -1; /* -2: not one page names a gold file */
}

static int write_stats(cli_out *o, const char *site, const tbk_site_stats *s, const char *status) {
  char share[32];
  tbk_snprintf(share, sizeof share, "%.4f", s->template_text_share);
  return fprintf(o->f, "%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%s\t%s\n", site, s->pages, s->bad_pages,
                 s->candidates, s->templates, s->contents, s->ignored, share, status) < 0;
}

int main(int argc, char **argv) {
  cli_init("tbk-label");
  cli_pages pages;
  cli_pages_init(&pages);
  tbk_label_options lopt;
  tbk_label_options_init(&lopt);
  const char *output = NULL, *stats_path = NULL;
  int quiet = 0, gold = 0, gold_comments = 0;
  double gold_share = 0.5;
  label_chunks chunks;
  label_chunks_init(&chunks);
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},
      {"stats", required_argument, 0, OPT_STATS},
      {"template-share", required_argument, 0, OPT_SHARE},
      {"template-min-df", required_argument, 0, OPT_MIN_DF},
      {"min-pages", required_argument, 0, OPT_MIN_PAGES},
      {"all", no_argument, 0, OPT_ALL},
      {"gold", no_argument, 0, OPT_GOLD},
      {"gold-share", required_argument, 0, OPT_GOLD_SHARE},
      {"gold-comments", no_argument, 0, OPT_GOLD_COMMENTS},
      {"quiet", no_argument, 0, 'q'},
      {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, OPT_VERSION},
      CLI_PAGE_LONGOPTS,
      LABEL_CHUNK_LONGOPTS,
      {0, 0, 0, 0}};
  int c;
  opterr = 0; /* getopt's own message has neither our prefix nor our form */
  while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
    if (cli_pages_option(&pages, c, optarg) || label_chunks_option(&chunks, c, optarg)) continue;
    switch (c) {
    case 'o': output = optarg; break;
    case OPT_STATS: stats_path = optarg; break;
    case OPT_SHARE: lopt.template_share = cli_double("--template-share", optarg, 0.0, 1.0); break;
    case OPT_MIN_DF: lopt.template_min_df = (size_t)cli_long("--template-min-df", optarg, 2, 1000000000); break;
    case OPT_MIN_PAGES: lopt.min_pages = (size_t)cli_long("--min-pages", optarg, 1, 1000000000); break;
    case OPT_ALL: lopt.emit_ignored = 1; break;
    case OPT_GOLD: gold = 1; break;
    case OPT_GOLD_SHARE: gold_share = cli_double("--gold-share", optarg, 0.0, 1.0); break;
    case OPT_GOLD_COMMENTS: gold_comments = 1; break;
    case 'q': quiet = 1; pages.progress = CLI_PROGRESS_OFF; break;
    case 'h': usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: return cli_version();
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");
  cli_output_check("-o", output);
  cli_output_check("--stats", stats_path);
  if (chunks.strip_dir && !*chunks.strip_dir) cli_usage_error("--strip needs a directory");
  label_chunks_check(&chunks);
  if (chunks.on && gold) cli_usage_error("--gold labels units from gold text, not --method chunks");

  tbk_page_list list;
  cli_pages_list(&pages, argv + optind, argc - optind, &list);
  cli_out out, stats;
  cli_out_open(&out, output);
  if (gold) {
    if (stats_path) cli_usage_error("--stats applies to auto-labelling, not --gold");
    int r = label_gold(&pages, &list, &out, gold_share, gold_comments, quiet);
    if (r == -2) cli_die(TBK_EXIT_FAIL, "no page has gold text: --gold needs a manifest whose gold column names each page's gold file");
    if (r) cli_die(TBK_EXIT_FAIL, "no page with gold text could be labelled");
    tbk_page_list_free(&list);
    cli_out_commit(&out);
    return cli_exit(cli_pages_exit(&pages));
  }
  if (chunks.on) {
    int code = label_chunks_run(&chunks, &pages, &list, &out, output, stats_path, lopt.min_pages, lopt.emit_ignored, quiet);
    tbk_page_list_free(&list);
    return cli_exit(code);
  }
  if (stats_path) {
    cli_out_open(&stats, stats_path);
    if (fputs("site\tpages\tbad_pages\tcandidates\ttemplate\tcontent\tignored\ttemplate_text_share\tstatus\n",
              stats.f) < 0)
      cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
  }
  if (!quiet)
    fprintf(stderr, "%-32s %6s %6s %9s %8s %8s %8s %6s\n", "site", "pages", "bad", "blocks", "template",
            "content", "ignored", "tshare");
  size_t skipped_sites = 0;
  cli_pages_progress_start(&pages, list.n);
  for (size_t i = 0; i < list.n;) {
    size_t j = i;
    while (j < list.n && strcmp(list.refs[j].site, list.refs[i].site) == 0) j++;
    const char *site = list.refs[i].site;
    tbk_site_stats s = {0};
    if (j - i < lopt.min_pages) {
      s.pages = j - i;
      /* A skip is a warning like any other: --quiet only drops the table. */
      cli_warn("site %s: %zu pages < --min-pages %zu (skipped)", site, j - i, lopt.min_pages);
      if (stats_path && write_stats(&stats, site, &s, "too-few-pages")) cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
      skipped_sites++;
      i = j;
      continue;
    }
    tbk_labeler *lab;
    tbk_error err = {0};
    if (tbk_labeler_new(site, &lopt, &lab, &err)) cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
    size_t bad_before = pages.bad_pages;
    for (size_t k = i; k < j; k++) {
      tbk_page *page = cli_pages_load(&pages, &list.refs[k]);
      if (!page) continue;
      if (tbk_labeler_add_page(lab, &list.refs[k], page, &err)) cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
      tbk_page_free(page);
    }
    size_t bad = pages.bad_pages - bad_before;
    const char *status = "labelled";
    if (j - i - bad < lopt.min_pages) {
      /* Unreadable pages pushed the site below the minimum. */
      cli_warn("site %s: only %zu readable pages < --min-pages %zu (skipped)", site, j - i - bad, lopt.min_pages);
      s.pages = j - i - bad;
      status = "too-few-pages";
      skipped_sites++;
    } else if (tbk_labeler_finish(lab, cli_out_write, &out, &s, &err)) {
      if (ferror(out.f))
        cli_die(TBK_EXIT_WRITE, "%s: cannot write output: %s", output ? output : "standard output", strerror(errno));
      cli_die(err.code == TBK_ERR_IO ? TBK_EXIT_WRITE : TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
    }
    s.bad_pages = bad;
    tbk_labeler_free(lab);
    cli_progress_clear();
    if (!quiet)
      fprintf(stderr, "%-32s %6zu %6zu %9zu %8zu %8zu %8zu %6.3f\n", site, s.pages, s.bad_pages, s.candidates,
              s.templates, s.contents, s.ignored, s.template_text_share);
    if (stats_path && write_stats(&stats, site, &s, status)) cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
    if (ferror(out.f)) cli_die(TBK_EXIT_WRITE, "%s: cannot write output", output ? output : "standard output");
    i = j;
  }
  cli_pages_progress_end(&pages);
  tbk_page_list_free(&list);
  cli_out_commit(&out);
  if (stats_path) cli_out_commit(&stats);
  int code = cli_pages_exit(&pages);
  if (code == TBK_EXIT_OK && skipped_sites) code = TBK_EXIT_PARTIAL;
  return cli_exit(code);
}
