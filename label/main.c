/* tbk-label: auto-label template and content blocks of crawl samples
 * grouped by site (stage 1 of the pipeline). */
#include <getopt.h>
#include <stdlib.h>

#include "chunks_cli.h"
#include "clusters_cli.h"
#include "etdm_cli.h"
#include "shard.h"
#include "label_cli.h"
#include "usage.h"

enum {
  OPT_STATS = CLI_OPT_FIRST_FREE,
  OPT_SHARE,
  OPT_MIN_DF,
  OPT_MIN_PAGES,
  OPT_ALL,
  OPT_VERSION,
  OPT_GOLD,
  OPT_GOLD_SHARE,
  OPT_GOLD_COMMENTS,
  OPT_SHARD,
  OPT_CLUSTERS,
  OPT_HISTORY,
  OPT_HISTORY_ONLY
};

int main(int argc, char **argv) {
  cli_init("tbk-label");
  cli_pages pages;
  cli_pages_init(&pages);
  pages.captures = 1;
  tbk_label_options lopt;
  tbk_label_options_init(&lopt);
  const char *output = NULL, *stats_path = NULL, *clusters = NULL;
  label_history hist = {0};
  int quiet = 0, gold = 0, gold_comments = 0;
  double gold_share = 0.5;
  label_chunks chunks;
  label_chunks_init(&chunks);
  label_etdm etdm;
  label_etdm_init(&etdm);
  static const struct option longopts[] = {{"output", required_argument, 0, 'o'},
                                           {"stats", required_argument, 0, OPT_STATS},
                                           {"template-share", required_argument, 0, OPT_SHARE},
                                           {"template-min-df", required_argument, 0, OPT_MIN_DF},
                                           {"min-pages", required_argument, 0, OPT_MIN_PAGES},
                                           {"all", no_argument, 0, OPT_ALL},
                                           {"gold", no_argument, 0, OPT_GOLD},
                                           {"gold-share", required_argument, 0, OPT_GOLD_SHARE},
                                           {"gold-comments", no_argument, 0, OPT_GOLD_COMMENTS},
                                           {"shard", required_argument, 0, OPT_SHARD},
                                           {"clusters", required_argument, 0, OPT_CLUSTERS},
                                           {"history", required_argument, 0, OPT_HISTORY},
                                           {"history-only", no_argument, 0, OPT_HISTORY_ONLY},
                                           {"quiet", no_argument, 0, 'q'},
                                           {"help", no_argument, 0, 'h'},
                                           {"version", no_argument, 0, OPT_VERSION},
                                           CLI_PAGE_LONGOPTS,
                                           LABEL_CHUNK_LONGOPTS,
                                           LABEL_ETDM_LONGOPTS,
                                           {0, 0, 0, 0}};
  int c;
  opterr = 0; /* getopt's own message has neither our prefix nor our form */
  while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
    if (cli_pages_option(&pages, c, optarg) || label_etdm_option(&etdm, c, optarg, LABEL_OPT_METHOD) ||
        label_chunks_option(&chunks, c, optarg))
      continue;
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
    case OPT_SHARD: cli_shard_set("--shard", optarg); break;
    case OPT_CLUSTERS: clusters = optarg; break;
    case OPT_HISTORY: hist.path = optarg; break;
    case OPT_HISTORY_ONLY: hist.read_only = 1; break;
    case 'q':
      quiet = 1;
      pages.progress = CLI_PROGRESS_OFF;
      break;
    case 'h': label_usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: return cli_version();
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");
  cli_output_check("-o", output);
  cli_output_check("--stats", stats_path);
  if (chunks.strip_dir && !*chunks.strip_dir) cli_usage_error("--strip needs a directory");
  if (etdm.on) chunks.on = 0; /* --method etdm came last */
  label_chunks_check(&chunks);
  label_etdm_check(&etdm);
  if (etdm.on && gold) cli_usage_error("--gold labels units from gold text, not --method etdm");
  if (chunks.on && gold) cli_usage_error("--gold labels units from gold text, not --method chunks");
  label_history_check(&hist, gold || etdm.on || chunks.on || clusters);

  tbk_page_list list;
  cli_shard_list(&pages, argv + optind, argc - optind, &list);
  /* The block labeller takes the clusters within each site (tbk_labeler_add_clustered); the others label each cluster as a site. */
  uint32_t *cluster_of = clusters ? label_clusters_apply(&pages, clusters, &list, gold || etdm.on || chunks.on) : NULL;
  if (gold && gold_comments) /* the comments files beside the gold files are read too */
    for (size_t i = 0; i < list.n; i++) {
      char *cf = list.refs[i].gold[0] ? tbk_gold_comments_path(list.refs[i].gold) : NULL;
      cli_reads_add(cf);
      free(cf);
    }
  cli_out out;
  cli_out_open(&out, output);
  int code;
  if (gold) {
    if (stats_path) cli_usage_error("--stats applies to auto-labelling, not --gold");
    code = label_gold_run(&pages, &list, &out, gold_share, gold_comments, quiet);
  } else if (etdm.on) {
    code = label_etdm_run(&etdm, &pages, &list, &out, output, stats_path, lopt.emit_ignored, quiet);
  } else if (chunks.on) {
    code = label_chunks_run(&chunks, &pages, &list, &out, output, stats_path, lopt.min_pages, lopt.emit_ignored, quiet);
  } else {
    code = label_blocks_run(&lopt, &pages, &list, cluster_of, &hist, &out, output, stats_path, quiet);
  }
  tbk_page_list_free(&list);
  free(cluster_of);
  return cli_exit(code);
}
