/* Internal WARC reader and page-list plumbing shared by input.c and warc.c.
 *
 * A WARC file is plain or gzip (one member per record, as Common Crawl
 * ships, or one single stream). Records are located by (offset, skip):
 * offset is the compressed offset of the gzip member holding the record
 * start (the byte offset for plain WARC) and skip the decompressed bytes
 * from that member start to the record start (0 for plain WARC). */
#ifndef TBK_WARC_H
#define TBK_WARC_H
#include <stdint.h>
#include "tbk.h"

/* 1 when the name ends in .warc or .warc.gz (case-insensitive). */
int tbk_warc_name(const char *path);

/* List the HTML response records (HTTP 200) of one WARC file into l.
 * Malformed records, truncated or corrupt gzip and lying Content-Lengths are
 * reported through warn and counted in l->skipped; the records read before
 * them stay listed. Fails with TBK_ERR_FORMAT only when no record at all
 * could be read, TBK_ERR_EMPTY when the records hold no HTML page. */
tbk_status tbk_warc_list(tbk_page_list *l, const char *path,
                         const tbk_input_options *opt, tbk_warn_fn warn,
                         void *warn_ctx, tbk_error *err);

/* Read the HTTP body of the record at (offset, skip), de-chunked and
 * decoded (gzip/deflate Content-Encoding), into out (out->len reset to 0).
 * More than max_bytes of record or body: TBK_ERR_LIMIT. */
tbk_status tbk_warc_read(const char *path, uint64_t offset, uint64_t skip,
                         size_t max_bytes, tbk_buf *out, tbk_error *err);

/* Append one ref (all strings copied; NULL url/gold become "", NULL charset
 * stays NULL). Returns 0, or -1 when out of memory. */
int tbk_page_list_push(tbk_page_list *l, const char *site, const char *page,
                       const char *url, const char *file, const char *gold,
                       const char *charset, uint64_t offset, uint64_t skip,
                       int is_warc);
#endif
