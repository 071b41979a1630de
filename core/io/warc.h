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

/* Why a record was read or skipped. Every record the lister meets is
 * counted under exactly one (tbk_warc_counts); a damaged stretch of a file
 * that holds no readable record header (junk, a corrupt gzip member) counts
 * as one record. The last group is counted by the programs, not the lister:
 * records it listed that a program then leaves out. */
typedef enum tbk_wrec {
  /* read */
  TBK_WREC_RESPONSE,    /* response, HTML by its Content-Type */
  TBK_WREC_SNIFFED,     /* response or resource, no or a generic type, markup */
  TBK_WREC_RESOURCE,    /* resource, HTML by its WARC Content-Type */
  TBK_WREC_STATUS_READ, /* response with another status than 200, --status */
  TBK_WREC_SHORT,       /* Content-Length a few bytes short, recovered */
  TBK_WREC_CUT,         /* cut off in a truncated gzip member: its prefix */
  /* skipped: what the record holds */
  TBK_WREC_STATUS,        /* HTML with a status --status does not take */
  TBK_WREC_NOT_HTML_TEXT, /* text/css, text/plain, ... */
  TBK_WREC_NOT_HTML_IMAGE,
  TBK_WREC_NOT_HTML_SCRIPT, /* javascript, json */
  TBK_WREC_NOT_HTML_APP,    /* other application/ types (pdf, xml, ...) */
  TBK_WREC_NOT_HTML_MEDIA,  /* audio/, video/, font/ */
  TBK_WREC_NOT_HTML_OTHER,  /* any other media type */
  TBK_WREC_NOT_MARKUP,      /* no or a generic type, body not markup */
  TBK_WREC_NOT_HTTP,        /* response whose block is not HTTP (dns:) */
  TBK_WREC_REQUEST,
  TBK_WREC_METADATA,
  TBK_WREC_WARCINFO,
  TBK_WREC_REVISIT,
  TBK_WREC_CONVERSION,
  TBK_WREC_CONTINUATION,
  TBK_WREC_OTHER_TYPE, /* another WARC-Type, or none */
  /* skipped: damage (reported; the run ends with exit 3) */
  TBK_WREC_NO_URI,    /* HTML without WARC-Target-URI */
  TBK_WREC_BAD_HEAD,  /* malformed WARC header */
  TBK_WREC_BAD_HTTP,  /* malformed HTTP head */
  TBK_WREC_ENCODING,  /* unsupported Content-Encoding */
  TBK_WREC_LENGTH,    /* a Content-Length that lies */
  TBK_WREC_TOO_BIG,   /* over max-record-bytes */
  TBK_WREC_TRUNCATED, /* cut off with nothing readable */
  TBK_WREC_CORRUPT,   /* in a corrupt gzip member */
  TBK_WREC_JUNK,      /* bytes where a record header should be */
  /* skipped by the program after listing */
  TBK_WREC_LISTED_TWICE, /* the same record reached through two inputs */
  TBK_WREC_DUP_CAPTURE,  /* same URL and payload as an earlier record */
  TBK_WREC_PAGE_FAILED,  /* read, but the page could not be used */
  TBK_WREC_N
} tbk_wrec;

/* 1 for the reasons of records read (TBK_WREC_RESPONSE .. TBK_WREC_CUT). */
int tbk_wrec_is_read(tbk_wrec r);
/* The reason as the programs' tables name it ("response html"). */
const char *tbk_wrec_name(tbk_wrec r);

/* Counts by reason; status[] splits TBK_WREC_STATUS and
 * TBK_WREC_STATUS_READ by HTTP status code. */
typedef struct tbk_warc_counts {
  size_t n[TBK_WREC_N];
  size_t status[1000];      /* skipped for their status, by code */
  size_t status_read[1000]; /* read with --status, by code */
} tbk_warc_counts;
void tbk_warc_counts_add(tbk_warc_counts *to, const tbk_warc_counts *from);

/* Which HTTP statuses make a response HTML record a page: 200 alone by
 * default (tbk_warc_filter_init). */
typedef struct tbk_warc_filter {
  size_t max_record_bytes;            /* larger records are skipped (0: no limit) */
  int any_status;                     /* every status */
  unsigned char status[1000 / 8 + 1]; /* bit s: status s read */
} tbk_warc_filter;
void tbk_warc_filter_init(tbk_warc_filter *f, size_t max_record_bytes);
int tbk_warc_filter_takes(const tbk_warc_filter *f, int status);

/* A listed record, as on_record gets it: its target URI, the charset its
 * HTTP headers declare (NULL when none), its WARC-Record-ID and WARC-Date
 * as written (NULL when absent), where it starts, and the length of its
 * block when that is not its Content-Length (0: as the header says; a
 * Content-Length a few bytes short of the next record header is recovered
 * so, and a record cut off in a truncated gzip member gets the bytes that
 * could be read), and why it is read (cut: TBK_WREC_CUT, read to length
 * with nothing stripped). */
typedef struct tbk_warc_entry {
  const char *uri, *charset, *record_id, *date;
  uint64_t offset, skip, length;
  tbk_wrec why;
  int status; /* HTTP status (200 for a resource) */
} tbk_warc_entry;

/* Called for each HTML record in file order. Returns 0, or -1 (out of
 * memory) to stop the listing. */
typedef int (*tbk_warc_record_fn)(void *ctx, const tbk_warc_entry *e);

/* List the HTML records of one WARC file through on_record: responses
 * whose status filter takes (200 alone by default) and resource records.
 * Malformed records, truncated or corrupt gzip and lying Content-Lengths are
 * reported through warn and counted in *skipped; the records read before
 * them stay listed; every record is counted by why in *counts (NULL: not
 * counted). A record over filter->max_record_bytes is skipped. Fails with
 * TBK_ERR_FORMAT only when no record at all could be read, TBK_ERR_EMPTY
 * when the records hold no HTML page (*counts still say why). */
tbk_status tbk_warc_list(const char *path, const tbk_warc_filter *filter, tbk_warc_record_fn on_record,
                         void *record_ctx, tbk_warn_fn warn, void *warn_ctx, size_t *skipped, tbk_warc_counts *counts,
                         tbk_error *err);

/* Read the HTTP body of the record at (offset, skip), de-chunked and
 * decoded (gzip/deflate Content-Encoding), into out (out->len reset to 0);
 * length: the block's length as listed (0: its Content-Length); cut: the
 * record was cut off (TBK_WREC_CUT): length is what could be read, and a
 * body cut mid-way is no error. More than max_bytes of record or body:
 * TBK_ERR_LIMIT. */
tbk_status tbk_warc_read(const char *path, uint64_t offset, uint64_t skip, uint64_t length, int cut, size_t max_bytes,
                         tbk_buf *out, tbk_error *err);

/* The raw WARC header lines of the record at (offset, skip) into
 * warc_head and its HTTP status and header lines (when its block starts
 * with one) into http_head; both emptied first. */
tbk_status tbk_warc_read_heads(const char *path, uint64_t offset, uint64_t skip, tbk_buf *warc_head, tbk_buf *http_head,
                               tbk_error *err);

#endif
