/* The input layer: every input form (directory, manifest, WARC, single
 * file, stdin) listed as page references, and the bytes of one page read
 * back. */
#ifndef TBK_IO_H
#define TBK_IO_H
#include "util.h"
#include "warc.h"

/* A page to process, from any input form. Strings are owned by the list. */
typedef struct tbk_page_ref {
  char *site;      /* site key (grouping for auto-labelling) */
  char *page;      /* page id: path (dir/manifest) or URL (WARC) */
  char *url;       /* URL when known, else "" */
  char *file;      /* file to read: the page itself, or the WARC file */
  char *gold;      /* gold text path when known (manifest), else "" */
  char *charset;   /* charset from HTTP headers (WARC), else NULL */
  uint64_t offset; /* WARC: offset of the record's gzip member / record */
  uint64_t skip;   /* WARC: uncompressed bytes to skip after offset */
  uint64_t length; /* WARC: the block's length when not its Content-Length, else 0 */
  char *record_id; /* WARC: WARC-Record-ID as written, NULL when absent */
  char *date;      /* WARC: WARC-Date as written, NULL when absent */
  tbk_wrec why;    /* WARC: why the record is read (TBK_WREC_CUT: cut off) */
  int status;      /* WARC: its HTTP status (200 for a resource) */
  int is_warc;
  uint64_t seq; /* listing order: inputs as given, a WARC's records
                         in file order (set by tbk_page_list_push) */
  int is_temp;  /* file is a temporary copy of stdin or a pipe,
                         owned by the list (removed by tbk_page_list_free);
                         2: already unlinked, file is /proc/self/fd/<temp_fd>,
                         closed by the free */
  int temp_fd;
  char *shown; /* with is_temp: the input as named ("-", /dev/fd/63) */
} tbk_page_ref;

/* The name to show for a ref's file: the input as named for a temporary
 * copy, else the file. */
static inline const char *tbk_page_ref_file(const tbk_page_ref *r) {
  return r->is_temp && r->shown ? r->shown : r->file;
}

/* A temporary copy of a stream input (stdin, a pipe), owned by a list. */
typedef struct tbk_temp_input {
  char *path; /* named file to unlink, or NULL when already unlinked */
  int fd;     /* kept open while unlinked, else -1 */
} tbk_temp_input;

typedef struct tbk_input_options {
  tbk_site_key site_key;   /* WARC only */
  size_t max_record_bytes; /* decompressed WARC record limit (64 MiB) */
  int single_site;         /* plain files given: all one site ("-") */
  /* WARC: the HTTP statuses whose HTML responses are read (bit s: status
   * s; 200 alone by default), or every status */
  unsigned char status[1000 / 8 + 1];
  int any_status;
} tbk_input_options;

void tbk_input_options_init(tbk_input_options *o);

typedef struct tbk_page_list {
  tbk_page_ref *refs; /* owned */
  size_t n, cap;
  size_t skipped; /* entries that could not be listed (reported) */
  /* The WARC records met, by why (has_counts: a WARC was listed). Held
   * in the list, not allocated: a failed add leaves nothing to free, and
   * its records still count. */
  tbk_warc_counts counts;
  int has_counts;
  uint64_t n_pushed;     /* refs ever pushed: the next ref's seq */
  tbk_temp_input *temps; /* owned: the copies of stream inputs */
  size_t n_temps, cap_temps;
} tbk_page_list;

/* Add the pages of one input: a directory (ROOT/<site>/... *.html; files
 * directly in ROOT are site "-"), a manifest (*.tsv with header
 * "site page url ..."), a WARC file (plain or gzip, told by its first bytes
 * whatever its name), or a single page file. "-" (stdin) and other streams
 * (pipes such as /dev/fd/63) are first copied to a temporary file, then
 * told apart the same way. An ARC file (first line "filedesc://") is
 * refused with TBK_ERR_FORMAT. */
tbk_status tbk_page_list_add(tbk_page_list *l, const char *input, const tbk_input_options *opt, tbk_warn_fn warn,
                             void *warn_ctx, tbk_error *err);
/* Sort by (site, page, file, offset) so output never depends on directory
 * order; a site's WARC records come after its other pages, in input
 * (record) order: the inputs as given, each WARC's records in file order,
 * so two captures of one URL keep their order. */
void tbk_page_list_sort(tbk_page_list *l);
/* Sort for output page by page (tbk-predict): the pages not from a WARC
 * as tbk_page_list_sort has them, then every WARC record in input (record)
 * order, whatever its site. */
void tbk_page_list_sort_records(tbk_page_list *l);
void tbk_page_list_free(tbk_page_list *l);
/* Remove (and free) every ref i with drop[i] set; the others keep their
 * order. */
void tbk_page_list_drop(tbk_page_list *l, const unsigned char *drop);

/* Read the raw bytes of one page into out (out->len is reset first): the
 * file, or for WARC the record's HTTP body, de-chunked and gzip/deflate
 * decoded. The HTTP charset, when known, is ref->charset. More than
 * opt->max_record_bytes (NULL opt: defaults): TBK_ERR_LIMIT. */
tbk_status tbk_page_ref_read(const tbk_page_ref *ref, const tbk_input_options *opt, tbk_buf *out, tbk_error *err);

/* The record a WARC page came from, as JSON members to add to an object
 * (out reset first): ,"warc_file":F,"warc_offset":N[,"warc_skip":N]
 * [,"warc_record_id":ID][,"warc_date":D] (F the input as named; the id
 * and date as its WARC header writes them, kept by the listing, left out
 * when absent). Nothing for a page not from a WARC. Fails only for lack
 * of memory. */
tbk_status tbk_page_ref_trace(const tbk_page_ref *ref, tbk_buf *out, tbk_error *err);

/* Append a copy of ref r (of another list). Returns 0, or -1 when out of
 * memory. */
int tbk_page_list_push_copy(tbk_page_list *l, const tbk_page_ref *r);

/* Append one ref (all strings copied; NULL url/gold become "", NULL charset
 * stays NULL). Returns 0, or -1 when out of memory. */
int tbk_page_list_push(tbk_page_list *l, const char *site, const char *page, const char *url, const char *file,
                       const char *gold, const char *charset, uint64_t offset, uint64_t skip, int is_warc);

/* The gold text of a page (the file gold names, at most max_bytes, 0 =
 * TBK_GOLD_MAX_BYTES: TBK_ERR_LIMIT) into out (reset first); with comments,
 * the page's user comments after a newline, from X.comments.txt beside
 * gold file X.txt when that file can be read. An empty gold file (or a FIFO
 * with no writer) is TBK_ERR_EMPTY; a directory or device TBK_ERR_IO. */
#define TBK_GOLD_MAX_BYTES ((size_t)64 << 20)
tbk_status tbk_gold_read(const char *gold, int comments, size_t max_bytes, tbk_buf *out, tbk_error *err);
/* X.comments.txt for gold file X.txt (new string, caller frees); NULL when
 * gold does not end in .txt, or out of memory. */
char *tbk_gold_comments_path(const char *gold);

#endif
