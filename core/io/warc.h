/* The WARC reader: records listed and read back, below the page lists
 * of input.c (which it knows nothing of).
 *
 * A WARC file is plain or gzip (one member per record, as Common Crawl
 * ships, or one single stream). Records are located by (offset, skip):
 * offset is the compressed offset of the gzip member holding the record
 * start (the byte offset for plain WARC) and skip the decompressed bytes
 * from that member start to the record start (0 for plain WARC). */
#ifndef TBK_WARC_H
#define TBK_WARC_H
#include <stdint.h>
#include "util.h"

/* 1 when the name ends in .warc or .warc.gz (case-insensitive). */
int tbk_warc_name(const char *path);

/* Called for each HTML record (response with HTTP 200, or resource) in
 * file order: its target URI, the charset its HTTP headers declare (NULL
 * when none), where it starts, and the length of its block when that is not
 * its Content-Length (0: as the header says; a Content-Length a few bytes
 * short of the next record header is recovered so). Returns 0, or -1 (out
 * of memory) to stop the listing. */
typedef int (*tbk_warc_record_fn)(void *ctx, const char *uri, const char *charset, uint64_t offset,
                                  uint64_t skip, uint64_t length);

/* List the HTML response records of one WARC file through on_record.
 * Malformed records, truncated or corrupt gzip and lying Content-Lengths are
 * reported through warn and counted in *skipped; the records read before
 * them stay listed. A record over max_record_bytes (0: no limit) is
 * skipped. Fails with TBK_ERR_FORMAT only when no record at all could be
 * read, TBK_ERR_EMPTY when the records hold no HTML page. */
tbk_status tbk_warc_list(const char *path, size_t max_record_bytes, tbk_warc_record_fn on_record,
                         void *record_ctx, tbk_warn_fn warn, void *warn_ctx, size_t *skipped,
                         tbk_error *err);

/* Read the HTTP body of the record at (offset, skip), de-chunked and
 * decoded (gzip/deflate Content-Encoding), into out (out->len reset to 0);
 * length: the block's length as listed (0: its Content-Length).
 * More than max_bytes of record or body: TBK_ERR_LIMIT. */
tbk_status tbk_warc_read(const char *path, uint64_t offset, uint64_t skip, uint64_t length,
                         size_t max_bytes, tbk_buf *out, tbk_error *err);

/* The raw WARC header lines of the record at (offset, skip) into
 * warc_head and its HTTP status and header lines (when its block starts
 * with one) into http_head; both emptied first. */
tbk_status tbk_warc_read_heads(const char *path, uint64_t offset, uint64_t skip, tbk_buf *warc_head,
                               tbk_buf *http_head, tbk_error *err);

#endif
