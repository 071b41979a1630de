/* tbk-cluster's output: a row per page, TSV or JSONL. */
#include <string.h>

#include "output.h"

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
    if (strpbrk(r->page, "\t\r\n") || strpbrk(r->site, "\t\r\n") || strpbrk(file, "\t\r\n") || strpbrk(id, "\t\r\n") ||
        strpbrk(date, "\t\r\n"))
      cli_die(TBK_EXIT_FAIL, "%s: a tab or newline in the page, site or record cannot go in TSV (use --format jsonl)",
              r->page);
    cli_mem(tbk_buf_printf(&b, "%s\t%s\t%u\t%u", r->page, r->site, cluster, size));
    if (warc && r->is_warc)
      cli_mem(tbk_buf_printf(&b, "\t%s\t%llu\t%s\t%s\t%llu", file, (unsigned long long)r->offset, id, date,
                             (unsigned long long)r->skip));
    else if (warc) cli_mem(tbk_buf_puts(&b, "\t\t\t\t\t"));
    cli_mem(tbk_buf_puts(&b, "\n"));
    tbk_jsonl_free(t);
  }
  cli_out_put(o, b.data, b.len);
  tbk_buf_free(&b);
}

void cluster_write(cli_out *o, int jsonl, const tbk_page_list *list, const size_t *order, const size_t *copy_of,
                   size_t rows, const tbk_cluster_result *res) {
  tbk_error err = {0};
  /* The record's columns only when a page came from a WARC: the TSV of
   * pages from files is what it was. */
  int warc = 0;
  for (size_t i = 0; i < list->n && !warc; i++) warc = list->refs[i].is_warc;
  static const char head[] = "page\tsite\tcluster\tsize\n",
                    warc_head[] =
                        "page\tsite\tcluster\tsize\twarc_file\twarc_offset\twarc_record_id\twarc_date\twarc_skip\n";
  if (!jsonl) cli_out_put(o, warc ? warc_head : head, warc ? sizeof warc_head - 1 : sizeof head - 1);
  tbk_buf trace = {0};
  for (size_t r = 0; r < rows; r++) {
    uint32_t k = res->cluster[copy_of[r]];
    const tbk_page_ref *ref = &list->refs[order[r]];
    if (tbk_page_ref_trace(ref, &trace, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
    write_row(o, jsonl, warc, ref, &trace, k, res->size[k]);
  }
  tbk_buf_free(&trace);
}
