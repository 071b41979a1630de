/* The WARC reader in the public API (tbk.h "WARC"): a thin wrapper over
 * tbk_warc_list (the records, listed once on open), tbk_warc_read (a
 * record's body) and tbk_warc_read_heads (its raw head lines). What is
 * read or skipped, and why, is warc.c's alone. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warc.h"

typedef struct wrec {
  size_t uri, charset; /* offsets in names */
  uint64_t offset, skip, length;
  int cut;
} wrec;

struct tbk_warc {
  char *path;
  size_t max_record_bytes;
  wrec *r;
  size_t n, cap;
  tbk_buf names;    /* NUL-terminated URIs and charsets */
  tbk_buf warnings; /* one line each */
  size_t skipped;
  /* the record last read */
  tbk_buf body, warc_head, http_head, id, date;
};

static int on_record(void *ctx, const tbk_warc_entry *e) {
  tbk_warc *w = ctx;
  const char *uri = e->uri, *charset = e->charset;
  if (w->n == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 64;
    wrec *r = realloc(w->r, cap * sizeof *r);
    if (!r) return -1;
    w->r = r, w->cap = cap;
  }
  wrec *r = &w->r[w->n];
  r->offset = e->offset, r->skip = e->skip, r->length = e->length, r->cut = e->why == TBK_WREC_CUT;
  r->uri = w->names.len;
  if (tbk_buf_append(&w->names, uri, strlen(uri) + 1)) return -1;
  r->charset = w->names.len;
  if (tbk_buf_append(&w->names, charset ? charset : "", (charset ? strlen(charset) : 0) + 1)) return -1;
  w->n++;
  return 0;
}

static void on_warn(void *ctx, const char *file, const char *msg) {
  (void)file;
  tbk_warc *w = ctx;
  if (tbk_buf_puts(&w->warnings, msg) || tbk_buf_puts(&w->warnings, "\n")) {
    /* a warning lost to a lack of memory: the count still has it */
  }
}

tbk_status tbk_warc_open(const char *path, size_t max_record_bytes, tbk_warc **out, tbk_error *err) {
  *out = NULL;
  if (!path) return tbk_fail(err, TBK_ERR_ARG, "tbk_warc_open: no path");
  tbk_warc *w = calloc(1, sizeof *w);
  if (!w || !(w->path = strdup(path))) {
    free(w);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  w->max_record_bytes = max_record_bytes;
  tbk_warc_filter filter;
  tbk_warc_filter_init(&filter, max_record_bytes);
  tbk_status st = tbk_warc_list(path, &filter, on_record, w, on_warn, w, &w->skipped, NULL, err);
  if (st) {
    tbk_warc_free(w);
    return st;
  }
  if (tbk_buf_append(&w->warnings, "", 0)) {
    tbk_warc_free(w);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  *out = w;
  return TBK_OK;
}

void tbk_warc_free(tbk_warc *w) {
  if (!w) return;
  free(w->path);
  free(w->r);
  tbk_buf *bufs[] = {&w->names, &w->warnings, &w->body, &w->warc_head, &w->http_head, &w->id, &w->date};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) tbk_buf_free(bufs[i]);
  free(w);
}

size_t tbk_warc_count(const tbk_warc *w) { return w ? w->n : 0; }
size_t tbk_warc_skipped(const tbk_warc *w) { return w ? w->skipped : 0; }
const char *tbk_warc_warnings(const tbk_warc *w) { return w && w->warnings.data ? w->warnings.data : ""; }

/* The value of WARC header field name in head (trimmed; "" when absent),
 * into out. */
static int head_field(const tbk_buf *head, const char *name, tbk_buf *out) {
  out->len = 0;
  size_t nl = strlen(name);
  const char *s = head->data ? head->data : "", *end = s + head->len;
  while (s < end) {
    const char *e = memchr(s, '\n', (size_t)(end - s));
    if (!e) e = end;
    if ((size_t)(e - s) > nl && strncasecmp(s, name, nl) == 0 && s[nl] == ':') {
      const char *v = s + nl + 1, *ve = e;
      while (v < ve && (*v == ' ' || *v == '\t')) v++;
      while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t')) ve--;
      return tbk_buf_append(out, v, (size_t)(ve - v)) || tbk_buf_append(out, "", 0);
    }
    s = e + 1;
  }
  return tbk_buf_append(out, "", 0);
}

tbk_status tbk_warc_record_get(tbk_warc *w, size_t i, tbk_warc_record *out, tbk_error *err) {
  memset(out, 0, sizeof *out);
  if (!w || i >= w->n) return tbk_fail(err, TBK_ERR_ARG, "no record %zu", i);
  const wrec *r = &w->r[i];
  tbk_status st = tbk_warc_read(w->path, r->offset, r->skip, r->length, r->cut, w->max_record_bytes, &w->body, err);
  if (!st) st = tbk_warc_read_heads(w->path, r->offset, r->skip, &w->warc_head, &w->http_head, err);
  if (st) return st;
  if (head_field(&w->warc_head, "WARC-Record-ID", &w->id) || head_field(&w->warc_head, "WARC-Date", &w->date))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  out->url = w->names.data + r->uri;
  out->charset = w->names.data + r->charset;
  out->record_id = w->id.data;
  out->date = w->date.data;
  out->warc_headers = w->warc_head.data ? w->warc_head.data : "";
  out->warc_headers_len = w->warc_head.len;
  out->http_headers = w->http_head.data ? w->http_head.data : "";
  out->http_headers_len = w->http_head.len;
  out->body = w->body.data ? w->body.data : "";
  out->body_len = w->body.len;
  out->offset = r->offset;
  out->skip = r->skip;
  return TBK_OK;
}
