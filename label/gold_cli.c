/* tbk-label --gold: the content stage's training labels, each page's
 * units aligned with its human gold text. */
#include "label_cli.h"
#include "tbk_features.h"
#include "tbk_rows.h"

int label_gold_run(cli_pages *pages, const tbk_page_list *list, cli_out *out, double share, int comments, int quiet) {
  tbk_units *ux;
  tbk_error err = {0};
  if (tbk_units_new(NULL, &ux, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  tbk_buf gold = {0}, lines = {0};
  size_t no_gold = 0, pages_done = 0, nc = 0, nb = 0;
  cli_pages_progress_start(pages, list->n);
  for (size_t i = 0; i < list->n; i++) {
    const tbk_page_ref *ref = &list->refs[i];
    if (!ref->gold[0]) {
      no_gold++;
      continue;
    }
    if (tbk_gold_read(ref->gold, comments, (size_t)64 << 20, &gold, &err)) {
      if (err.code == TBK_ERR_NOMEM) cli_die(TBK_EXIT_FAIL, "out of memory");
      cli_warn("%s: gold %s: %s (skipped)", ref->page, ref->gold, err.msg);
      pages->bad_pages++;
      continue;
    }
    tbk_page *page = cli_pages_load(pages, ref);
    if (!page) continue;
    lines.len = 0;
    tbk_status st = tbk_units_gold_jsonl(ux, ref, page, gold.data ? gold.data : "", gold.len, share, &lines, &nc, &nb,
                                         &err);
    tbk_page_free(page);
    if (st == TBK_ERR_NOMEM) cli_die(TBK_EXIT_FAIL, "out of memory");
    if (st) {
      cli_warn("%s: %s (skipped)", ref->page, err.msg);
      pages->bad_pages++;
      continue;
    }
    pages_done++;
    if (cli_out_write(out, lines.data, lines.len)) cli_die(TBK_EXIT_WRITE, "cannot write output");
  }
  cli_pages_progress_end(pages);
  if (!quiet)
    fprintf(stderr, "tbk-label: gold: %zu pages, %zu content units, %zu boilerplate units%s\n", pages_done, nc, nb,
            no_gold ? " (pages without gold left out)" : "");
  tbk_buf_free(&gold);
  tbk_buf_free(&lines);
  tbk_units_free(ux);
  if (!pages_done && no_gold == list->n)
    cli_die(TBK_EXIT_FAIL,
            "no page has gold text: --gold needs a manifest whose gold column names each page's gold file");
  if (!pages_done) cli_die(TBK_EXIT_FAIL, "no page with gold text could be labelled");
  cli_out_commit(out);
  return cli_pages_exit(pages);
}
