/* tbk-label --method blocks (the default): per site, every page's blocks
 * counted by document frequency (tbk_labeler; with --history, counted into
 * the store and labelled by its counts), then the site's labels, its row
 * of --stats and of the table on stderr. */
#include <errno.h>
#include <string.h>

#include "label_cli.h"
#include "shard.h"
#include "tbk_history.h"

static int write_stats(cli_out *o, const char *site, const tbk_site_stats *s, const char *status) {
  char share[32];
  tbk_snprintf(share, sizeof share, "%.4f", s->template_text_share);
  return fprintf(o->f, "%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%s\t%s\n", site, s->pages, s->bad_pages, s->candidates,
                 s->templates, s->contents, s->ignored, share, status) < 0;
}

/* One site: list entries [i, j). Returns its status for --stats. */
static const char *label_site(const tbk_label_options *o, cli_pages *pages, const tbk_page_list *list,
                              const uint32_t *cluster_of, tbk_history *hist, size_t i, size_t j, cli_out *out,
                              const char *output, tbk_site_stats *s) {
  const char *site = list->refs[i].site;
  tbk_labeler *lab;
  tbk_error err = {0};
  if (tbk_labeler_new(site, o, &lab, &err)) cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
  if (hist) tbk_labeler_use_history(lab, hist);
  size_t bad_before = pages->bad_pages, dup_before = pages->dup_captures;
  cli_captures seen = {0};
  for (size_t k = i; k < j; k++) {
    tbk_page *page = cli_pages_load(pages, &list->refs[k]);
    if (!page) continue;
    if (cli_pages_repeat_capture(pages, &seen, &list->refs[k], k, NULL)) {
      tbk_page_free(page);
      continue;
    }
    uint32_t cluster = cluster_of ? cluster_of[k] : TBK_NO_CLUSTER;
    if (tbk_labeler_add_clustered(lab, &list->refs[k], page, cluster, &err))
      cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
    tbk_page_free(page);
  }
  cli_captures_free(&seen);
  size_t bad = pages->bad_pages - bad_before, dups = pages->dup_captures - dup_before;
  const char *status = "labelled";
  if (hist && tbk_labeler_pages(lab) < o->min_pages) {
    /* the pages are counted: a later run may reach the minimum */
    cli_warn("site %s: only %zu pages in the history store < --min-pages %zu (skipped)", site, tbk_labeler_pages(lab),
             o->min_pages);
    s->pages = tbk_labeler_pages(lab);
    status = "too-few-pages";
  } else if (!hist && j - i - bad - dups < o->min_pages) {
    /* Unreadable pages (or copies of one capture) pushed the site below the minimum. */
    cli_warn("site %s: only %zu readable pages < --min-pages %zu (skipped)", site, j - i - bad - dups, o->min_pages);
    s->pages = j - i - bad - dups;
    status = "too-few-pages";
  } else if (tbk_labeler_finish(lab, cli_out_write, out, s, &err)) {
    if (ferror(out->f))
      cli_die(TBK_EXIT_WRITE, "%s: cannot write output: %s", output ? output : "standard output", strerror(errno));
    cli_die(err.code == TBK_ERR_IO ? TBK_EXIT_WRITE : TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
  }
  s->bad_pages = bad;
  tbk_labeler_free(lab);
  return status;
}

void label_history_check(const label_history *h, int other) {
  if (h->read_only && !h->path) cli_usage_error("--history-only needs --history DB");
  if (!h->path) return;
  if (!*h->path) cli_usage_error("--history: an empty name names no store");
  if (other)
    cli_usage_error("--history counts the block labeller's sites: not with --gold, --method chunks or etdm, or "
                    "--clusters");
}

/* The store of --history (NULL without it), for the pages' segmentation:
 * tbk-predict's shipped model segments as the defaults do, so the two
 * share a store; another segmentation's store is refused (exit 5). */
static tbk_history *open_history(const label_history *h, const cli_pages *pages) {
  if (!h->path) return NULL;
  cli_output_check("--history", h->path); /* now that the inputs are known */
  char id[256];
  tbk_history_identity_of(&pages->page, id, sizeof id);
  tbk_history_options ho = tbk_history_options_default;
  ho.identity = id;
  ho.read_only = h->read_only;
  tbk_history *store;
  tbk_error err = {0};
  tbk_status st = tbk_history_open(h->path, &ho, &store, &err);
  if (st) cli_die(st == TBK_ERR_MODEL ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", h->path, err.msg);
  return store;
}

int label_blocks_run(const tbk_label_options *o, cli_pages *pages, const tbk_page_list *list,
                     const uint32_t *cluster_of, const label_history *hopt, cli_out *out, const char *output,
                     const char *stats_path, int quiet) {
  tbk_history *hist = open_history(hopt, pages);
  cli_out stats;
  if (stats_path) {
    cli_out_open(&stats, stats_path);
    if (cli_shard_headers() &&
        fputs("site\tpages\tbad_pages\tcandidates\ttemplate\tcontent\tignored\ttemplate_text_share\tstatus\n",
              stats.f) < 0)
      cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
  }
  if (!quiet)
    fprintf(stderr, "%-32s %6s %6s %9s %8s %8s %8s %6s\n", "site", "pages", "bad", "blocks", "template", "content",
            "ignored", "tshare");
  size_t skipped_sites = 0;
  cli_pages_progress_start(pages, list->n);
  for (size_t i = 0, j; i < list->n; i = j) {
    for (j = i; j < list->n && strcmp(list->refs[j].site, list->refs[i].site) == 0;) j++;
    const char *site = list->refs[i].site;
    tbk_site_stats s = {0};
    if (!hist && j - i < o->min_pages) {
      s.pages = j - i;
      /* A skip is a warning like any other: --quiet only drops the table. */
      cli_warn("site %s: %zu pages < --min-pages %zu (skipped)", site, j - i, o->min_pages);
      if (stats_path && write_stats(&stats, site, &s, "too-few-pages"))
        cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
      skipped_sites++;
      continue;
    }
    const char *status = label_site(o, pages, list, cluster_of, hist, i, j, out, output, &s);
    skipped_sites += strcmp(status, "labelled") != 0;
    cli_progress_clear();
    if (!quiet)
      fprintf(stderr, "%-32s %6zu %6zu %9zu %8zu %8zu %8zu %6.3f\n", site, s.pages, s.bad_pages, s.candidates,
              s.templates, s.contents, s.ignored, s.template_text_share);
    if (stats_path && write_stats(&stats, site, &s, status)) cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
    if (ferror(out->f)) cli_die(TBK_EXIT_WRITE, "%s: cannot write output", output ? output : "standard output");
  }
  cli_pages_progress_end(pages);
  tbk_error err = {0};
  if (hist && tbk_history_close(hist, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", hopt->path, err.msg);
  cli_pages_captures_summary(pages);
  cli_out *const outs[] = {out, stats_path ? &stats : NULL};
  cli_out_commit_all(outs, 2);
  int code = cli_pages_exit(pages);
  return code == TBK_EXIT_OK && skipped_sites ? TBK_EXIT_PARTIAL : code;
}
