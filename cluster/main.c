/* tbk-cluster: group pages by template (MDL clustering of tag paths over
 * MinHash/LSH candidate pairs), for tbk-label --clusters. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "tbk_label.h"
#include "usage.h"

enum { OPT_FORMAT = CLI_OPT_FIRST_FREE, OPT_SITES, OPT_BANDS, OPT_ROWS, OPT_SEED, OPT_PATHS, OPT_PATHNO, OPT_VERSION };

int main(int argc, char **argv) {
  cli_init("tbk-cluster");
  cli_pages pages;
  cli_pages_init(&pages);
  pages.captures = 1;
  tbk_cluster_options copt = tbk_cluster_options_default;
  const char *output = NULL;
  int quiet = 0, jsonl = 0, by_site = 0, attrs = 0;
  static const char *const formats[] = {"tsv", "jsonl", NULL}, *const path_kinds[] = {"tags", "attrs", NULL},
                           *const scopes[] = {"component", "group", NULL};
  static const struct option longopts[] = {{"output", required_argument, 0, 'o'},
                                           {"format", required_argument, 0, OPT_FORMAT},
                                           {"sites", no_argument, 0, OPT_SITES},
                                           {"bands", required_argument, 0, OPT_BANDS},
                                           {"rows", required_argument, 0, OPT_ROWS},
                                           {"seed", required_argument, 0, OPT_SEED},
                                           {"paths", required_argument, 0, OPT_PATHS},
                                           {"pathno", required_argument, 0, OPT_PATHNO},
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
    case OPT_FORMAT: jsonl = cli_choice("--format", optarg, formats, "tsv or jsonl"); break;
    case OPT_PATHS: attrs = cli_choice("--paths", optarg, path_kinds, "tags or attrs"); break;
    case OPT_PATHNO:
      copt.pathno_scope = (tbk_pathno_scope)cli_choice("--pathno", optarg, scopes, "component or group");
      break;
    case OPT_SITES: by_site = 1; break;
    case OPT_BANDS: copt.bands = (uint32_t)cli_long("--bands", optarg, 1, 1000); break;
    case OPT_ROWS: copt.rows = (uint32_t)cli_long("--rows", optarg, 1, 1000); break;
    case OPT_SEED: copt.seed = (uint64_t)cli_long("--seed", optarg, 0, 2147483647L); break;
    case 'q':
      quiet = 1;
      pages.progress = CLI_PROGRESS_OFF;
      break;
    case 'h': cluster_usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: return cli_version();
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");
  cli_output_check("-o", output);

  double t0 = cli_now();
  tbk_page_list list;
  cli_pages_list(&pages, argv + optind, argc - optind, &list);
  cli_output_check("-o", output); /* now against every page read */
  tbk_clusterer *cl;
  tbk_error err = {0};
  if (tbk_clusterer_new(&copt, &cl, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  /* The clusterer numbers the pages it was given; ref[i] is page i's. */
  size_t *ref = malloc((list.n + 1) * sizeof *ref), n = 0;
  if (!ref) cli_die(TBK_EXIT_FAIL, "out of memory");
  uint32_t group = 0;
  /* A repeated capture (same URL and payload) is clustered once; its row
   * takes the cluster of its first copy (copy_of, a clusterer index). */
  size_t *copy_of = malloc((list.n + 1) * sizeof *copy_of), *order = malloc((list.n + 1) * sizeof *order), rows = 0;
  if (!copy_of || !order) cli_die(TBK_EXIT_FAIL, "out of memory");
  cli_captures seen = {0};
  cli_pages_progress_start(&pages, list.n);
  for (size_t i = 0; i < list.n; i++) {
    if (by_site && i && strcmp(list.refs[i].site, list.refs[i - 1].site)) group++;
    tbk_page *page = cli_pages_load(&pages, &list.refs[i]);
    if (!page) continue;
    uint64_t first;
    if (cli_pages_repeat_capture(&pages, &seen, &list.refs[i], n, &first)) {
      tbk_page_free(page);
      order[rows] = i;
      copy_of[rows++] = (size_t)first;
      continue;
    }
    order[rows] = i;
    copy_of[rows++] = n;
    uint64_t *paths;
    size_t np;
    if (tbk_cluster_page_paths(page, attrs, &paths, &np, &err) || tbk_clusterer_add(cl, group, paths, np, &err))
      cli_die(TBK_EXIT_FAIL, "%s: %s", list.refs[i].page, err.msg);
    free(paths);
    tbk_page_free(page);
    ref[n++] = i;
  }
  cli_pages_progress_end(&pages);
  cli_captures_free(&seen);
  cli_pages_captures_summary(&pages);
  double t1 = cli_now();
  tbk_cluster_result res;
  if (tbk_clusterer_run(cl, &res, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  double t2 = cli_now();
  cli_out out;
  cli_out_open(&out, output);
  cluster_write(&out, jsonl, &list, order, copy_of, rows, &res);
  free(copy_of);
  free(order);
  cli_out_commit(&out);
  if (!quiet)
    fprintf(stderr,
            "%zu pages, %zu clusters; %zu candidate pairs, %zu merges, %zu merge costs computed; "
            "%.0f -> %.0f bits; read %.2f s, clustered %.2f s\n",
            n, res.n_clusters, res.candidate_pairs, res.merge.merges, res.merge.evaluations, res.merge.cost_start,
            res.merge.cost_end, t1 - t0, t2 - t1);
  tbk_cluster_result_free(&res);
  tbk_clusterer_free(cl);
  free(ref);
  tbk_page_list_free(&list);
  return cli_exit(cli_pages_exit(&pages));
}
