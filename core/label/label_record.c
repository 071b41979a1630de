/* The one writer of tbk-label's JSON lines (tbk_label_record). */
#include "label.h"
#include "util.h"

int tbk_label_record_write(tbk_buf *line, const tbk_label_record *r) {
  char hex[33], khex[33];
  tbk_md5_hex(r->md5, hex);
  int chunk = r->chunk >= 0;
  if (chunk) tbk_md5_hex(r->key, khex);
  return tbk_buf_puts(line, "{\"site\":") || tbk_buf_json_str(line, r->site, r->site_len) ||
         tbk_buf_puts(line, ",\"page\":") || tbk_buf_json_str(line, r->page, r->page_len) ||
         tbk_buf_puts(line, ",\"url\":") || tbk_buf_json_str(line, r->url, r->url_len) ||
         (r->trace_len && tbk_buf_append(line, r->trace, r->trace_len)) ||
         (chunk && tbk_buf_printf(line, ",\"method\":\"chunks\",\"chunk\":%ld", r->chunk)) ||
         tbk_buf_puts(line, ",\"path\":") || tbk_buf_json_str(line, r->path, r->path_len) ||
         tbk_buf_puts(line, ",\"tag\":") || tbk_buf_json_str(line, r->tag, r->tag_len) ||
         (chunk && tbk_buf_printf(line, ",\"block\":%d", r->block)) || tbk_buf_printf(line, ",\"md5\":\"%s\"", hex) ||
         (chunk && tbk_buf_printf(line, ",\"key\":\"%s\"", khex)) ||
         tbk_buf_printf(line, ",\"df\":%llu,\"pages\":%llu,\"label\":\"%s\"", r->df, r->pages,
                        tbk_label_name(r->label)) ||
         (r->clustered &&
          tbk_buf_printf(line, ",\"cluster_df\":%u,\"cluster_pages\":%u", r->cluster_df, r->cluster_pages)) ||
         (r->reason && tbk_buf_printf(line, ",\"reason\":\"%s\"", r->reason)) ||
         tbk_buf_printf(line, ",\"chars\":%llu", r->chars) ||
         (chunk ? tbk_buf_printf(line, ",\"words\":%u", r->words)
                : tbk_buf_printf(line, ",\"line\":%u,\"depth\":%u", r->line, r->depth)) ||
         tbk_buf_puts(line, ",\"text\":") ||
         tbk_buf_json_str(line, r->text, tbk_utf8_cut(r->text, r->text_len, TBK_LABEL_SNIPPET)) ||
         tbk_buf_puts(line, "}\n");
}
