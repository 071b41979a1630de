/* tbk-cluster: group pages by template (MDL clustering of tag paths over
 * MinHash/LSH candidate pairs), for tbk-label --clusters. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "tbk_label.h"
#include "usage.h"

enum { OPT_FORMAT = CLI_OPT_FIRST_FREE, OPT_SITES, OPT_BANDS, OPT_ROWS, OPT_SEED, OPT_PATHS, OPT_PATHNO, OPT_VERSION };

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One row; a page or site a TSV row cannot hold (tab, newline) is an
 * error there, as a reader would split it. warc: the TSV has the record's
 * columns (some page is from a WARC); trace: the row's record
 * (tbk_page_ref_trace), empty for a page not from a WARC. */
static void write_row(cli_out *o, int jsonl, int warc, const tbk_page_ref *r, const tbk_buf *trace, uint32_t cluster,
                      uint32_t size) {
  tbk_buf b = {0};
  if (jsonl) {
    cli_mem(tbk_buf_puts(&b, "{\"page\":") || tbk_buf_json_str(&b, r->page, strlen(r->page)) ||
            tbk_buf_puts(&b, ",\"site\":") || tbk_buf_json_str(&b, r->site, strlen(r->site)) ||
            (trace->len && tbk_buf_append(&b, trace->data, trace->len)) ||
            tbk_buf_printf(&b, ",\"cluster\":%u,\"size\":%u}\n", cluster, size));
  } else {
    tbk_jsonl_obj *t = r->is_warc ? cli_trace_parse(trace) : NULL;
    const char *id = cli_trace_str(t, "warc_record_id"), *date = cli_trace_str(t, "warc_date");
    const char *file = r->is_warc ? tbk_page_ref_file(r) : "";
    if (strpbrk(r->page, "\t\r\n") || strpbrk(r->site, "\t\r\n") || strpbrk(file, "\t\r\n") ||
        strpbrk(id, "\t\r\n") || strpbrk(date, "\t\r\n"))
      cli_die(TBK_EXIT_FAIL, "%s: a tab or newline in the page, site or record cannot go in TSV (use --format jsonl)",
              r->page);
    cli_mem(tbk_buf_printf(&b, "%s\t%s\t%u\t%u", r->page, r->site, cluster, size));
    if (warc && r->is_warc)
      cli_mem(tbk_buf_printf(&b, "\t%s\t%llu\t%s\t%s\t%llu", file, (unsigned long long)r->offset, id, date,
                             (unsigned long long)r->skip));
    else if (warc)
      cli_mem(tbk_buf_puts(&b, "\t\t\t\t\t"));
    cli_mem(tbk_buf_puts(&b, "\n"));
    tbk_jsonl_free(t);
  }
  cli_out_put(o, b.data, b.len);
  tbk_buf_free(&b);
}

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
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'}, {"format", required_argument, 0, OPT_FORMAT},
      {"sites", no_argument, 0, OPT_SITES},  {"bands", required_argument, 0, OPT_BANDS},
      {"rows", required_argument, 0, OPT_ROWS}, {"seed", required_argument, 0, OPT_SEED},
      {"paths", required_argument, 0, OPT_PATHS}, {"pathno", required_argument, 0, OPT_PATHNO},
      {"quiet", no_argument, 0, 'q'},        {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, OPT_VERSION}, CLI_PAGE_LONGOPTS, {0, 0, 0, 0}};
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
    case 'q': quiet = 1; pages.progress = CLI_PROGRESS_OFF; break;
    case 'h': cluster_usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: return cli_version();
    default: cli_bad_option(c, argv);
    }
  }
  if (optind >= argc) cli_usage_error("no input given");
  cli_output_check("-o", output);

  double t0 = now();
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
  double t1 = now();
  tbk_cluster_result res;
  if (tbk_clusterer_run(cl, &res, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  double t2 = now();
  cli_out out;
  cli_out_open(&out, output);
  /* The record's columns only when a page came from a WARC: the TSV of
   * pages from files is what it was. */
  int warc = 0;
  for (size_t i = 0; i < list.n && !warc; i++) warc = list.refs[i].is_warc;
  static const char head[] = "page\tsite\tcluster\tsize\n",
                    warc_head[] = "page\tsite\tcluster\tsize\twarc_file\twarc_offset\twarc_record_id\twarc_date\twarc_skip\n";
  if (!jsonl) cli_out_put(&out, warc ? warc_head : head, warc ? sizeof warc_head - 1 : sizeof head - 1);
  tbk_buf trace = {0};
  for (size_t r = 0; r < rows; r++) {
    uint32_t k = res.cluster[copy_of[r]];
    const tbk_page_ref *ref = &list.refs[order[r]];
    if (tbk_page_ref_trace(ref, &trace, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
    write_row(&out, jsonl, warc, ref, &trace, k, res.size[k]);
  }
  tbk_buf_free(&trace);
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
