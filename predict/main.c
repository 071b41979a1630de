/* tbk-predict: score the blocks (template stage) and text units (content
 * stage) of unseen pages and write their clean text (stage 4). */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>

#include "predict_cli.h"
#include "shard.h"

int main(int argc, char **argv) {
  cli_init("tbk-predict");
#ifdef M_MMAP_THRESHOLD
  /* A big page's arrays (MiBs each) mapped and unmapped on their own: with
   * glibc's adaptive threshold, which rises to the size of the first big
   * array freed, every later page's arrays came from the heap and the
   * heap stayed at the biggest page's high-water mark, scattered (debian_docs:
   * 130 MB of RSS against 99 for its biggest page alone; BENCHMARKS.md). */
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
  run r = {.stage = -1, .threshold = NAN, .precision = NAN, .ro.fmt = TBK_FORMAT_TEXT};
  cli_pages_init(&r.pages);
  tbk_content_options_init(&r.ro.content);
  predict_parse_options(&r, argc, argv);
  tbk_model *model;
  tbk_predictor *pred = predict_load_model(&r, cli_model_path(r.model), &model);
  tbk_page_list list;
  cli_pages_list(&r.pages, argv + optind, argc - optind, &list);
  tbk_page_list_sort_records(&list); /* WARC records in input (record) order */
  const char *ext = r.ro.fmt == TBK_FORMAT_TEXT ? ".txt" : r.ro.fmt == TBK_FORMAT_JSONL ? ".jsonl" : ".html";
  cli_out out;
  char **names = r.output_dir ? cli_output_names(r.output_dir, &list, ext, 1) : NULL;
  cli_index index;
  if (r.output_dir) cli_index_open(&index, r.output_dir);
  else if (!r.history_count) cli_out_open(&out, r.output);
  /* Each page's output is written as it is made, a line at a time once
   * 64 KiB are held (a sink, util.h), so no page's output is held whole:
   * cli_out_put dies on a failed write, removing a temporary output. */
  cli_out page_out;
  tbk_buf trace = {0}, no_trace = {0}; /* the index needs the trace in every format, JSONL alone writes it */
  cli_trace_sink ts = {cli_out_put, r.output_dir ? (void *)&page_out : (void *)&out,
                       r.ro.fmt == TBK_FORMAT_JSONL ? &trace : &no_trace};
  tbk_buf_sink sink = {cli_trace_put, &ts, (size_t)64 << 10};
  tbk_buf buf = {.sink = &sink};
  tbk_error err = {0};
  cli_out rows_out;
  tbk_buf rows = {0};
  uint64_t *fps = NULL;
  size_t cap_fps = 0;
  tbk_history *hist = predict_open_history(&r, model, pred, &rows_out, &rows);
  size_t lo, hi; /* names and "==> page <==" are the full list's, so shards join into one run's output */
  cli_shard_pages(list.n, &lo, &hi);
  cli_pages_progress_start(&r.pages, hi - lo);
  for (size_t i = lo; i < hi; i++) {
    const tbk_page_ref *ref = &list.refs[i];
    tbk_page *page = cli_pages_load(&r.pages, ref);
    if (!page) continue;
    if (hist && tbk_history_begin_page(hist, ref->site, ref->page, ref->url, &err))
      cli_die(TBK_EXIT_FAIL, "%s: %s", r.history, err.msg);
    if (r.history_count) {
      if (tbk_grow(&fps, &cap_fps, tbk_page_block_count(page) + 1, sizeof *fps))
        cli_die(TBK_EXIT_FAIL, "out of memory");
      if (tbk_history_add_page(hist, page, fps, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", r.history, err.msg);
      tbk_page_free(page);
      continue;
    }
    tbk_predictor_page_id(pred, ref->page);
    buf.len = 0;
    trace.len = 0;
    if ((r.ro.fmt == TBK_FORMAT_JSONL || r.output_dir) && tbk_page_ref_trace(ref, &trace, &err))
      cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
    if (r.output_dir) cli_out_open_file(&page_out, names[i]);
    if (!r.output_dir && list.n > 1 && r.ro.fmt != TBK_FORMAT_JSONL)
      cli_mem(tbk_buf_printf(&buf, "==> %s <==\n", ref->page));
    tbk_page_summary sum = {0};
    tbk_status st = tbk_predict_render_as(pred, page, ref->page, &r.ro, &buf, r.summary ? &sum : NULL, &err);
    if (st == TBK_OK) cli_pages_html_warn(ref, page);
    tbk_page_free(page);
    if (st == TBK_ERR_LIMIT) {
      /* The limits are the prediction's, met before a byte was rendered:
       * the page leaves nothing (its header is dropped with buf). */
      if (r.output_dir) cli_out_abort(&page_out);
      cli_pages_skip(&r.pages, ref, err.msg);
      continue;
    }
    if (st) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
    if (rows.len) {
      cli_out_put(&rows_out, rows.data, rows.len);
      rows.len = 0;
    }
    if (r.summary) predict_print_summary(&r, ref->page, &sum);
    cli_mem(tbk_buf_drain(&buf)); /* cannot fail: cli_out_put dies first */
    if (r.output_dir) {
      cli_out_commit(&page_out);
      cli_index_add(&index, names[i], ref, &trace);
    }
  }
  cli_pages_progress_end(&r.pages);
  if (hist && tbk_history_close(hist, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", r.history, err.msg);
  if (r.history_rows) cli_out_commit(&rows_out);
  free(fps);
  tbk_buf_free(&rows);
  if (r.output_dir) cli_index_commit(&index);
  else if (!r.history_count) cli_out_commit(&out);
  for (size_t i = 0; r.output_dir && i < list.n; i++) free(names[i]);
  free(names);
  tbk_buf_free(&buf);
  tbk_buf_free(&trace);
  tbk_page_list_free(&list);
  tbk_predictor_free(pred);
  tbk_model_free(model);
  return cli_exit(cli_pages_exit(&r.pages));
}
