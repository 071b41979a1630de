/* tbk-label: auto-label template and content blocks of crawl samples
 * grouped by site (stage 1 of the pipeline). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

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
         "  -h, --help               show this help and exit\n"
         "      --version            show the version and exit\n\n"
         "%s\n"
         "Exit status: 0 ok; 1 fatal error; 2 usage error; 3 some pages or sites\n"
         "were skipped (each reported); 4 output could not be written.\n",
         cli_page_options_help);
}

enum { OPT_STATS = CLI_OPT_FIRST_FREE, OPT_SHARE, OPT_MIN_DF, OPT_MIN_PAGES, OPT_ALL, OPT_VERSION };

static int write_stats(cli_out *o, const char *site, const tbk_site_stats *s, const char *status) {
  return fprintf(o->f, "%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%.4f\t%s\n", site, s->pages, s->bad_pages,
                 s->candidates, s->templates, s->contents, s->ignored, s->template_text_share, status) < 0;
}

int main(int argc, char **argv) {
  cli_init("tbk-label");
  cli_pages pages;
  cli_pages_init(&pages);
  tbk_label_options lopt;
  tbk_label_options_init(&lopt);
  const char *output = NULL, *stats_path = NULL;
  int quiet = 0;
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},
      {"stats", required_argument, 0, OPT_STATS},
      {"template-share", required_argument, 0, OPT_SHARE},
      {"template-min-df", required_argument, 0, OPT_MIN_DF},
      {"min-pages", required_argument, 0, OPT_MIN_PAGES},
      {"all", no_argument, 0, OPT_ALL},
      {"quiet", no_argument, 0, 'q'},
      {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, OPT_VERSION},
      CLI_PAGE_LONGOPTS,
      {0, 0, 0, 0}};
  int c;
  opterr = 0; /* getopt's own message has neither our prefix nor our form */
  while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
    if (cli_pages_option(&pages, c, optarg)) continue;
    switch (c) {
    case 'o': output = optarg; break;
    case OPT_STATS: stats_path = optarg; break;
    case OPT_SHARE: lopt.template_share = cli_double("--template-share", optarg, 0.0, 1.0); break;
    case OPT_MIN_DF: lopt.template_min_df = (size_t)cli_long("--template-min-df", optarg, 2, 1000000000); break;
    case OPT_MIN_PAGES: lopt.min_pages = (size_t)cli_long("--min-pages", optarg, 1, 1000000000); break;
    case OPT_ALL: lopt.emit_ignored = 1; break;
    case 'q': quiet = 1; break;
    case 'h': usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: printf("tbk-label %s\n", TBK_VERSION); return cli_exit(TBK_EXIT_OK);
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");

  tbk_page_list list;
  cli_pages_list(&pages, argv + optind, argc - optind, &list);
  cli_out out, stats;
  cli_out_open(&out, output);
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
    if (!quiet)
      fprintf(stderr, "%-32s %6zu %6zu %9zu %8zu %8zu %8zu %6.3f\n", site, s.pages, s.bad_pages, s.candidates,
              s.templates, s.contents, s.ignored, s.template_text_share);
    if (stats_path && write_stats(&stats, site, &s, status)) cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
    if (ferror(out.f)) cli_die(TBK_EXIT_WRITE, "%s: cannot write output", output ? output : "standard output");
    i = j;
  }
  tbk_page_list_free(&list);
  cli_out_commit(&out);
  if (stats_path) cli_out_commit(&stats);
  int code = cli_pages_exit(&pages);
  if (code == TBK_EXIT_OK && skipped_sites) code = TBK_EXIT_PARTIAL;
  return cli_exit(code);
}
