/* WARC input: plain, multi-member gzip and single-stream gzip archives built
 * here at run time, with every kind of record the lister must skip, and the
 * damage it must survive (truncation, corrupt members, lying lengths,
 * decompression bombs). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "check.h"
#include "tbk_internal.h"
#include "warns.h"

#define TMP TBK_TEST_TMP "/warc"

/* ------------------------------------------------------------ helpers */

static void mkdir_p(const char *path) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(buf, 0777);
      *p = '/';
    }
  mkdir(buf, 0777);
}

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
    exit(1);
  }
  if (n && fwrite(data, 1, n, f) != n) exit(1);
  fclose(f);
}

/* Append one gzip member holding data[0..n) followed by `zeros` zero bytes
 * (streamed, so a bomb never exists uncompressed in memory). */
static void gz_member(tbk_buf *out, const void *data, size_t n, size_t zeros) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) exit(1);
  static unsigned char zero[1 << 20];
  unsigned char buf[1 << 16];
  const unsigned char *p = data;
  size_t left = n;
  int phase = 0; /* 0 data, 1 zeros, 2 finish */
  for (;;) {
    if (phase == 0) {
      z.next_in = (unsigned char *)p;
      z.avail_in = (uInt)left;
      left = 0;
    } else if (phase == 1) {
      size_t k = zeros > sizeof zero ? sizeof zero : zeros;
      z.next_in = zero;
      z.avail_in = (uInt)k;
      zeros -= k;
    }
    int flush = phase == 2 ? Z_FINISH : Z_NO_FLUSH;
    int r;
    do {
      z.next_out = buf;
      z.avail_out = sizeof buf;
      r = deflate(&z, flush);
      CHECK_BUF(tbk_buf_append(out, buf, sizeof buf - z.avail_out));
    } while (z.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
    if (phase == 2) break;
    if (phase == 0) phase = zeros ? 1 : 2;
    else if (zeros == 0) phase = 2;
  }
  deflateEnd(&z);
}

/* A record: WARC header, block (http head + body), record separator. */
static void record(tbk_buf *out, const char *type, const char *uri, const char *http, const void *body, size_t blen,
                   long clen_delta) {
  size_t hlen = http ? strlen(http) : 0;
  CHECK_BUF(tbk_buf_printf(out, "WARC/1.0\r\nWARC-Type: %s\r\n", type));
  if (uri) CHECK_BUF(tbk_buf_printf(out, "WARC-Target-URI: %s\r\n", uri));
  /* A block declared application/http must be HTTP; others (dns:) need not. */
  CHECK_BUF(tbk_buf_printf(out, "WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: %s\r\nContent-Length: %ld\r\n\r\n",
                           http ? "application/http; msgtype=response" : "text/dns", (long)(hlen + blen) + clen_delta));
  if (hlen) CHECK_BUF(tbk_buf_append(out, http, hlen));
  if (blen) CHECK_BUF(tbk_buf_append(out, body, blen));
  CHECK_BUF(tbk_buf_append(out, "\r\n\r\n", 4));
}

typedef struct rec {
  tbk_buf raw;      /* the record's bytes */
  const char *uri;  /* NULL: not expected in the list */
  const char *site; /* expected site key (DOMAIN) */
  const char *body; /* expected decoded body */
  const char *charset;
} rec;

enum { NREC = 14 };
static rec R[NREC];

static void gz_bytes(tbk_buf *out, const char *s) { gz_member(out, s, strlen(s), 0); }

static void build_records(void) {
  static const char page_a[] = "<html><head><title>A</title></head><body><p>Page A caf\xe9</p></body></html>";
  static const char page_c[] = "<html><body><div>chunked body that spans several chunks</div></body></html>";
  static const char page_g[] = "<html><body><div>gzip encoded body</div></body></html>";
  static const char page_n[] = "\xef\xbb\xbf  \n<!DOCTYPE html><html><body>no content type</body></html>";
  static const char page_x[] =
      "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body>x</body></html>";
  static const char page_cg[] = "<html><body><p>chunked and gzipped</p></body></html>";
  memset(R, 0, sizeof R);
  int i = 0;
  record(&R[i].raw, "warcinfo", NULL, "software: test\r\nformat: WARC 1.0\r\n", "", 0, 0);
  i++;

  R[i] = (rec){{0}, "http://www.example.co.uk/a", "example.co.uk", page_a, "ISO-8859-1"};
  record(&R[i].raw, "response", R[i].uri, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"ISO-8859-1\"\r\n\r\n",
         page_a, strlen(page_a), 0);
  i++;

  record(&R[i].raw, "request", "http://www.example.co.uk/a", "GET /a HTTP/1.1\r\nHost: www.example.co.uk\r\n\r\n", "",
         0, 0);
  i++;
  record(&R[i].raw, "response", "http://www.example.co.uk/logo.png",
         "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n", "\x89PNG\r\n", 6, 0);
  i++;
  record(&R[i].raw, "response", "http://www.example.co.uk/missing",
         "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n", "<html>404</html>", 16, 0);
  i++;
  record(&R[i].raw, "response", "http://www.example.co.uk/moved",
         "HTTP/1.1 301 Moved\r\nLocation: /a\r\nContent-Type: text/html\r\n\r\n", "<a>", 3, 0);
  i++;

  /* Chunked, with a chunk extension and a trailer. */
  R[i] = (rec){{0}, "https://shop.example.com:8443/c?q=1", "example.com", page_c, NULL};
  {
    tbk_buf b = {0};
    size_t n = strlen(page_c), cut1 = 10, cut2 = 40;
    CHECK_BUF(tbk_buf_printf(&b, "%zx;name=val\r\n", cut1));
    CHECK_BUF(tbk_buf_append(&b, page_c, cut1));
    CHECK_BUF(tbk_buf_printf(&b, "\r\n%zX\r\n", cut2 - cut1));
    CHECK_BUF(tbk_buf_append(&b, page_c + cut1, cut2 - cut1));
    CHECK_BUF(tbk_buf_printf(&b, "\r\n%zx\r\n", n - cut2));
    CHECK_BUF(tbk_buf_append(&b, page_c + cut2, n - cut2));
    CHECK_BUF(tbk_buf_puts(&b, "\r\n0\r\nX-Trailer: yes\r\n\r\n"));
    record(&R[i].raw, "response", R[i].uri,
           "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n", b.data, b.len, 0);
    i++;
    tbk_buf_free(&b);
  }
  /* gzip Content-Encoding. */
  R[i] = (rec){{0}, "http://user:pw@WWW.Example.COM/g", "example.com", page_g, "utf-8"};
  {
    tbk_buf b = {0};
    gz_bytes(&b, page_g);
    record(&R[i].raw, "response", R[i].uri,
           "HTTP/1.1 200 OK\r\nContent-Type: text/html;charset=utf-8\r\nContent-Encoding: "
           "gzip\r\n\r\n",
           b.data, b.len, 0);
    i++;
    tbk_buf_free(&b);
  }
  /* No Content-Type: sniffed. */
  R[i] = (rec){{0}, "http://10.0.0.1/n", "10.0.0.1", page_n, NULL};
  record(&R[i].raw, "response", R[i].uri, "HTTP/1.0 200 OK\r\n\r\n", page_n, strlen(page_n), 0);
  i++;
  record(&R[i].raw, "response", "http://10.0.0.1/t", "HTTP/1.0 200 OK\r\n\r\n", "just text", 9, 0);
  i++;
  /* xhtml, a deep host. */
  R[i] = (rec){{0}, "http://www.news.bbc.co.uk/x", "bbc.co.uk", page_x, NULL};
  record(&R[i].raw, "response", R[i].uri, "HTTP/1.1 200 OK\r\nContent-Type: application/xhtml+xml\r\n\r\n", page_x,
         strlen(page_x), 0);
  i++;
  record(&R[i].raw, "revisit", "http://www.news.bbc.co.uk/x", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", "",
         0, 0);
  i++;
  /* Chunked and gzipped together. */
  R[i] = (rec){{0}, "http://blog.example.org/cg", "example.org", page_cg, NULL};
  {
    tbk_buf z = {0}, b = {0};
    gz_bytes(&z, page_cg);
    size_t half = z.len / 2;
    CHECK_BUF(tbk_buf_printf(&b, "%zx\r\n", half));
    CHECK_BUF(tbk_buf_append(&b, z.data, half));
    CHECK_BUF(tbk_buf_printf(&b, "\r\n%zx\r\n", z.len - half));
    CHECK_BUF(tbk_buf_append(&b, z.data + half, z.len - half));
    CHECK_BUF(tbk_buf_puts(&b, "\r\n0\r\n\r\n"));
    record(&R[i].raw, "response", R[i].uri,
           "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/html\r\n"
           "Content-Encoding: gzip\r\n\r\n",
           b.data, b.len, 0);
    i++;
    tbk_buf_free(&z);
    tbk_buf_free(&b);
  }
  /* A DNS "response" is not HTTP. */
  record(&R[i].raw, "response", "dns:www.example.com", NULL, "20240101 www.example.com. 60 IN A 10.0.0.2\n", 44, 0);
  i++;
  if (i != NREC) {
    fprintf(stderr, "fixture count %d\n", i);
    exit(1);
  }
}

static size_t expected_count(void) {
  size_t n = 0;
  for (int i = 0; i < NREC; i++) n += R[i].uri != NULL;
  return n;
}

static const tbk_page_ref *find_ref(const tbk_page_list *l, const char *uri) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->refs[i].page, uri) == 0) return &l->refs[i];
  return NULL;
}

/* Every expected page is listed once with its site, URL and charset, and
 * reads back to exactly its body. where[i] (may be NULL) gives the expected
 * (offset, skip) of record i. */
static void check_listing(const char *path, const tbk_page_list *l, const uint64_t *off, const uint64_t *skip) {
  CHECK_INT(l->n, expected_count());
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_buf body = {0};
  for (int i = 0; i < NREC; i++) {
    if (!R[i].uri) continue;
    const tbk_page_ref *r = find_ref(l, R[i].uri);
    CHECK(r != NULL);
    if (!r) {
      fprintf(stderr, "  missing %s in %s\n", R[i].uri, path);
      continue;
    }
    CHECK_STR(r->site, R[i].site);
    CHECK_STR(r->url, R[i].uri);
    CHECK_STR(r->file, path);
    CHECK_STR(r->gold, "");
    CHECK(r->is_warc);
    if (R[i].charset) CHECK_STR(r->charset, R[i].charset);
    else CHECK(r->charset == NULL);
    if (off) CHECK_INT(r->offset, off[i]);
    if (skip) CHECK_INT(r->skip, skip[i]);
    tbk_error err = {0};
    tbk_status st = tbk_page_ref_read(r, &o, &body, &err);
    CHECK_INT(st, TBK_OK);
    if (st) fprintf(stderr, "  read %s: %s\n", R[i].uri, err.msg);
    CHECK_INT(body.len, strlen(R[i].body));
    CHECK(body.len == strlen(R[i].body) && memcmp(body.data, R[i].body, body.len) == 0);
  }
  tbk_buf_free(&body);
}

static tbk_status list_one(const char *path, tbk_page_list *l, const tbk_input_options *o, warns *w, tbk_error *err) {
  memset(l, 0, sizeof *l);
  memset(w, 0, sizeof *w);
  memset(err, 0, sizeof *err);
  return tbk_page_list_add(l, path, o, on_warn, w, err);
}

/* -------------------------------------------------------------- tests */

static void test_plain(void) {
  tbk_buf all = {0};
  uint64_t off[NREC];
  for (int i = 0; i < NREC; i++) {
    off[i] = all.len;
    CHECK_BUF(tbk_buf_append(&all, R[i].raw.data, R[i].raw.len));
  }
  write_file(TMP "/plain.warc", all.data, all.len);
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/plain.warc", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(w.n, 0);
  CHECK_INT(l.skipped, 0);
  uint64_t zero[NREC] = {0};
  check_listing(TMP "/plain.warc", &l, off, zero);

  /* Sorted by site, a site's records in archive (record) order, not URL
   * order: two captures of one URL keep theirs (#32 item 4). */
  tbk_page_list_sort(&l);
  for (size_t i = 1; i < l.n; i++) {
    int c = strcmp(l.refs[i - 1].site, l.refs[i].site);
    CHECK(c < 0 || (c == 0 && l.refs[i - 1].offset < l.refs[i].offset));
  }
  /* tbk-predict's order: every record in archive order, whatever its site. */
  tbk_page_list_sort_records(&l);
  for (size_t i = 1; i < l.n; i++) CHECK(l.refs[i - 1].offset < l.refs[i].offset);
  tbk_page_list_sort(&l);
  CHECK_STR(l.refs[0].site, "10.0.0.1");
  CHECK_STR(l.refs[l.n - 1].site, "example.org");

  /* Host keys keep the subdomain. */
  tbk_page_list h;
  o.site_key = TBK_SITE_HOST;
  CHECK_INT(list_one(TMP "/plain.warc", &h, &o, &w, &err), TBK_OK);
  const tbk_page_ref *x = find_ref(&h, "http://www.news.bbc.co.uk/x");
  CHECK(x && strcmp(x->site, "news.bbc.co.uk") == 0);
  x = find_ref(&h, "https://shop.example.com:8443/c?q=1");
  CHECK(x && strcmp(x->site, "shop.example.com") == 0);
  tbk_page_list_free(&h);
  tbk_page_list_free(&l);
  CHECK(l.refs == NULL && l.n == 0);
  tbk_buf_free(&all);
}

static void build_multi(tbk_buf *gz, uint64_t *off) {
  gz->len = 0;
  for (int i = 0; i < NREC; i++) {
    off[i] = gz->len;
    gz_member(gz, R[i].raw.data, R[i].raw.len, 0);
  }
}

static void test_multi_member(void) {
  tbk_buf gz = {0};
  uint64_t off[NREC], zero[NREC] = {0};
  build_multi(&gz, off);
  write_file(TMP "/multi.warc.gz", gz.data, gz.len);
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/multi.warc.gz", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(w.n, 0);
  CHECK_INT(l.skipped, 0);
  check_listing(TMP "/multi.warc.gz", &l, off, zero);
  tbk_page_list_free(&l);

  /* The name decides nothing: gzip is recognised by content. */
  write_file(TMP "/MULTI-GZ.WARC", gz.data, gz.len);
  CHECK_INT(list_one(TMP "/MULTI-GZ.WARC", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, expected_count());
  tbk_page_list_free(&l);
  tbk_buf_free(&gz);
}

static void test_single_stream(void) {
  tbk_buf all = {0}, gz = {0};
  uint64_t skip[NREC], zero[NREC] = {0};
  for (int i = 0; i < NREC; i++) {
    skip[i] = all.len;
    CHECK_BUF(tbk_buf_append(&all, R[i].raw.data, R[i].raw.len));
  }
  gz_member(&gz, all.data, all.len, 0);
  write_file(TMP "/single.warc.gz", gz.data, gz.len);
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/single.warc.gz", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(w.n, 0);
  check_listing(TMP "/single.warc.gz", &l, zero, skip);
  tbk_page_list_free(&l);
  tbk_buf_free(&all);
  tbk_buf_free(&gz);
}

static void test_truncated(void) {
  tbk_buf gz = {0};
  uint64_t off[NREC];
  build_multi(&gz, off);
  /* Cut inside the member of record 7 (gzip Content-Encoding). */
  size_t cut = (size_t)(off[7] + (off[8] - off[7]) / 2);
  write_file(TMP "/trunc.warc.gz", gz.data, cut);
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/trunc.warc.gz", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 2); /* records 1 and 6 */
  CHECK(find_ref(&l, R[1].uri) != NULL);
  CHECK(find_ref(&l, R[6].uri) != NULL);
  CHECK_INT(w.n, 1);
  CHECK_INT(l.skipped, 1);
  CHECK(strstr(w.all, "truncated") != NULL);
  CHECK(strstr(w.all, TMP "/trunc.warc.gz: ") == w.all);
  tbk_page_list_free(&l);

  /* Cut before the first record ends: nothing could be read. */
  write_file(TMP "/trunc0.warc.gz", gz.data, (size_t)off[1] / 2);
  CHECK_INT(list_one(TMP "/trunc0.warc.gz", &l, &o, &w, &err), TBK_ERR_FORMAT);
  CHECK_INT(l.n, 0);
  tbk_page_list_free(&l);
  tbk_buf_free(&gz);
}

static void test_corrupt_member(void) {
  tbk_buf gz = {0};
  uint64_t off[NREC];
  build_multi(&gz, off);
  /* Garble the deflate data of record 6's member (past its 10-byte header). */
  size_t a = (size_t)off[6] + 12, b = (size_t)off[7] - 12;
  for (size_t i = a; i < b; i++) gz.data[i] = (char)0xff;
  write_file(TMP "/corrupt.warc.gz", gz.data, gz.len);
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/corrupt.warc.gz", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, expected_count() - 1);
  CHECK(find_ref(&l, R[6].uri) == NULL);
  CHECK(find_ref(&l, R[7].uri) != NULL); /* re-synchronised on the next member */
  CHECK(find_ref(&l, R[12].uri) != NULL);
  CHECK_INT(w.n, 1);
  CHECK_INT(l.skipped, 1);
  CHECK(strstr(w.all, "corrupt gzip member at offset") != NULL);
  /* Records after the damage still read back. */
  tbk_buf body = {0};
  const tbk_page_ref *r = find_ref(&l, R[12].uri);
  CHECK(r && tbk_page_ref_read(r, &o, &body, &err) == TBK_OK && strcmp(body.data, R[12].body) == 0);
  tbk_buf_free(&body);
  tbk_page_list_free(&l);

  /* Trailing garbage after the last member. */
  build_multi(&gz, off);
  CHECK_BUF(tbk_buf_puts(&gz, "garbage that is not gzip"));
  write_file(TMP "/tail.warc.gz", gz.data, gz.len);
  CHECK_INT(list_one(TMP "/tail.warc.gz", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, expected_count());
  CHECK_INT(w.n, 1);
  tbk_page_list_free(&l);
  tbk_buf_free(&gz);
}

/* Lying Content-Lengths cost only the liar: the record a lie swallows is
 * found again (plain and single-stream gzip: by re-reading from the liar;
 * one record per gzip member: at the member boundary, without re-reading). */
static void check_lying(const char *path, const tbk_buf *recs, int n, int per_member) {
  /* 2 is 7 bytes short of the next header: read to there (#32 item 2). */
  static const char *const kept[] = {"http://a.example.com/1", "http://a.example.com/2", "http://a.example.com/3",
                                     "http://a.example.com/5", "http://a.example.com/6", "http://a.example.com/8"};
  const char *page = "<html><body>short</body></html>";
  tbk_buf all = {0};
  for (int i = 0; i < n; i++) {
    if (per_member) gz_member(&all, recs[i].data, recs[i].len, 0);
    else CHECK_BUF(tbk_buf_append(&all, recs[i].data, recs[i].len));
  }
  if (strstr(path, ".gz") && !per_member) {
    tbk_buf one = {0};
    gz_member(&one, all.data, all.len, 0);
    tbk_buf_free(&all);
    all = one;
  }
  write_file(path, all.data, all.len);
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(path, &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 6);
  tbk_buf body = {0};
  for (int i = 0; i < 6; i++) {
    const tbk_page_ref *r = find_ref(&l, kept[i]);
    CHECK(r != NULL);
    if (!r) {
      fprintf(stderr, "  %s: lost %s\n", path, kept[i]);
      continue;
    }
    CHECK(tbk_page_ref_read(r, &o, &body, &err) == TBK_OK && strcmp(body.data, page) == 0);
  }
  /* Liars skipped: 4 (long), the request record, 7 (10^12), 9 (past the end);
   * 2 (short) is recovered, with a warning that is no skip. */
  CHECK_INT(l.skipped, 4);
  CHECK(strstr(w.all, "(http://a.example.com/2): Content-Length 68 ends 11 bytes short of the next record "
                      "header (offset ") != NULL);
  CHECK(strstr(w.all, "); its block is read to there (record kept)") != NULL);
  CHECK(strstr(w.all, "(http://a.example.com/9): Content-Length 175 runs past the end of the file, and no "
                      "record header follows; record skipped") != NULL);
  CHECK(strstr(w.all, "(http://a.example.com/7): record exceeds max-record-bytes") != NULL);
  if (per_member) {
    CHECK(strstr(w.all, "(http://a.example.com/4): Content-Length 115 runs past the end of its gzip member; "
                        "record skipped") != NULL);
    CHECK(strstr(w.all, "(http://a.example.com/req): Content-Length 318 runs past the end of "
                        "its gzip member; record skipped") != NULL);
  } else {
    CHECK(strstr(w.all, "(http://a.example.com/4): Content-Length 115 runs past the next record header") != NULL);
    /* Not a page: nothing is skipped but the bytes it swallowed. */
    CHECK(strstr(w.all, "(http://a.example.com/req): Content-Length 318 runs past the next record header "
                        "(offset ") != NULL);
    CHECK(strstr(w.all, "req): Content-Length 318 runs past the next record header (offset 1482); reading on "
                        "from there\n") != NULL ||
          strstr(w.all, "req): Content-Length 318 runs past the next record header (offset 0+1482); reading "
                        "on from there\n") != NULL);
  }
  tbk_buf_free(&body);
  tbk_page_list_free(&l);
  tbk_buf_free(&all);
}

static void test_lying_length(void) {
  const char *page = "<html><body>short</body></html>";
  const char *http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
  enum { N = 10 };
  tbk_buf recs[N];
  memset(recs, 0, sizeof recs);
  /* 1: honest. 2: 7 bytes short. 3: honest. 4: 40 bytes long, swallowing
   * the head of 5. A request record 300 bytes long, swallowing 6 whole.
   * 7: 10^12 bytes long. 8: honest. 9: runs past the end. */
  static const long delta[N] = {0, -7, 0, 40, 0, 300, 0, 1000000000000L, 0, 100};
  for (int i = 0, k = 1; i < N; i++) {
    char uri[64];
    if (i == 5) {
      record(&recs[i], "request", "http://a.example.com/req", "GET / HTTP/1.1\r\n\r\n", "", 0, delta[i]);
      continue;
    }
    snprintf(uri, sizeof uri, "http://a.example.com/%d", k++);
    record(&recs[i], "response", uri, http, page, strlen(page), delta[i]);
  }
  check_lying(TMP "/lying.warc", recs, N, 0);
  check_lying(TMP "/lying-members.warc.gz", recs, N, 1);
  check_lying(TMP "/lying-stream.warc.gz", recs, N, 0);

  /* The warning names the liar by its offset. */
  tbk_buf all = {0};
  for (int i = 0; i < 2; i++) CHECK_BUF(tbk_buf_append(&all, recs[i].data, recs[i].len));
  uint64_t off2 = recs[0].len;
  CHECK_BUF(tbk_buf_append(&all, recs[2].data, recs[2].len));
  write_file(TMP "/lying2.warc", all.data, all.len);
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/lying2.warc", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 3);
  char want[128];
  snprintf(want, sizeof want, "record at offset %llu (http://a.example.com/2): Content-Length",
           (unsigned long long)off2);
  CHECK(strstr(w.all, want) != NULL);
  tbk_page_list_free(&l);
  tbk_buf_free(&all);
  for (int i = 0; i < N; i++) tbk_buf_free(&recs[i]);
}

/* ------------------------------------------------ independent records */

/* One record of the interleaving test: how its HTTP head and body are
 * written, and what must come of it whatever came before. */
typedef struct variant {
  const char *name;
  const char *http;    /* status line and fields, without the blank line */
  int body_kind;       /* 0 plain, 1 gzip, 2 zlib, 3 chunked plain, 4 chunked gzip */
  const char *charset; /* expected charset, NULL when none */
  const char *warn;    /* expected warning (substring); NULL: the page is kept */
} variant;

static const variant V[] = {
    {"br", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br", 0, NULL,
     "unsupported Content-Encoding \"br\""},
    {"plain", "HTTP/1.1 200 OK\r\nContent-Type: text/html", 0, NULL, NULL},
    {"gzip", "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\nContent-Encoding: gzip", 1,
     "windows-1252", NULL},
    {"deflate", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: deflate", 2, NULL, NULL},
    {"identity", "HTTP/1.1 200 OK\r\nContent-Encoding: identity\r\nContent-Type: text/html", 0, NULL, NULL},
    {"unknown", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: x-snappy", 0, NULL,
     "unsupported Content-Encoding \"x-snappy\""},
    {"chunked", "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-2\r\nTransfer-Encoding: chunked", 3,
     "ISO-8859-2", NULL},
    {"nocharset", "HTTP/1.0 200 OK\r\nContent-Type: text/html", 0, NULL, NULL},
    {"chunkedgzip",
     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\nContent-Type: text/html", 4, NULL,
     NULL},
    {"lyinggzip", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip", 0, NULL, NULL},
    {"undeclaredgzip", "HTTP/1.1 200 OK\r\nContent-Type: text/html", 1, NULL, NULL},
    {"gzipiszlib", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip", 2, NULL, NULL},
    {"notype", "HTTP/2 200\r\nContent-Encoding: gzip", 1, NULL, NULL},
    {"status2000", "HTTP/1.1 2000 OK\r\nContent-Type: text/html", 0, NULL,
     "malformed HTTP status line \"HTTP/1.1 2000 OK\"; record skipped"},
    {"statusword", "HTTP/1.1 OK\r\nContent-Type: text/html", 0, NULL,
     "malformed HTTP status line \"HTTP/1.1 OK\"; record skipped"},
    {"statusnoslash", "HTTP 200 OK\r\nContent-Type: text/html", 0, NULL,
     "malformed HTTP status line \"HTTP 200 OK\"; record skipped"},
    {"statusjunk", "\x01\x02garbage\r\nContent-Type: text/html", 0, NULL,
     "malformed HTTP status line \"??garbage\"; record skipped"},
    {"404", "HTTP/1.1 404 Not Found\r\nContent-Type: text/html; charset=koi8-r\r\nContent-Encoding: br", 0, NULL, ""},
};
enum { NV = sizeof V / sizeof V[0] };

static void variant_body(const variant *v, const char *page, tbk_buf *b) {
  tbk_buf z = {0};
  int gz = v->body_kind == 1 || v->body_kind == 4, zl = v->body_kind == 2;
  if (gz) gz_bytes(&z, page);
  if (zl) {
    uLongf n = compressBound(strlen(page));
    CHECK_BUF(tbk_buf_reserve(&z, n));
    compress((Bytef *)z.data, &n, (const Bytef *)page, strlen(page));
    z.len = n;
  }
  const char *d = gz || zl ? z.data : page;
  size_t n = gz || zl ? z.len : strlen(page);
  if (v->body_kind >= 3) {
    size_t half = n / 2;
    CHECK_BUF(tbk_buf_printf(b, "%zx\r\n", half));
    CHECK_BUF(tbk_buf_append(b, d, half));
    CHECK_BUF(tbk_buf_printf(b, "\r\n%zx\r\n", n - half));
    CHECK_BUF(tbk_buf_append(b, d + half, n - half));
    CHECK_BUF(tbk_buf_puts(b, "\r\n0\r\n\r\n"));
  } else {
    CHECK_BUF(tbk_buf_append(b, d, n));
  }
  tbk_buf_free(&z);
}

/* Every variant after every other: a record's head (its Content-Encoding,
 * chunking, charset, status) decides only how that record is read. Each
 * order is one archive, plain and gzip; each record is checked alone. */
static void test_independent_records(void) {
  static const char *const paths[] = {TMP "/mix.warc", TMP "/mix.warc.gz"};
  for (int order = 0; order < 3; order++) {
    tbk_buf plain = {0}, gz = {0};
    char pages[NV][160], uris[NV][64];
    int seq[NV];
    for (int i = 0; i < NV; i++) seq[i] = order == 0 ? i : order == 1 ? NV - 1 - i : (i * 7) % NV;
    for (int k = 0; k < NV; k++) {
      const variant *v = &V[seq[k]];
      snprintf(uris[k], sizeof uris[k], "http://mix.example.com/%d/%s", k, v->name);
      snprintf(pages[k], sizeof pages[k], "<html><body><p>record %d, %s</p></body></html>", k, v->name);
      tbk_buf body = {0}, head = {0}, one = {0};
      variant_body(v, pages[k], &body);
      CHECK_BUF(tbk_buf_printf(&head, "%s\r\n\r\n", v->http));
      record(&one, "response", uris[k], head.data, body.data, body.len, 0);
      CHECK_BUF(tbk_buf_append(&plain, one.data, one.len));
      gz_member(&gz, one.data, one.len, 0);
      tbk_buf_free(&body);
      tbk_buf_free(&head);
      tbk_buf_free(&one);
    }
    write_file(paths[0], plain.data, plain.len);
    write_file(paths[1], gz.data, gz.len);
    for (int f = 0; f < 2; f++) {
      tbk_input_options o;
      tbk_input_options_init(&o);
      tbk_page_list l;
      warns w;
      tbk_error err;
      CHECK_INT(list_one(paths[f], &l, &o, &w, &err), TBK_OK);
      tbk_buf got = {0};
      int warned = 0;
      for (int k = 0; k < NV; k++) {
        const variant *v = &V[seq[k]];
        const tbk_page_ref *r = find_ref(&l, uris[k]);
        if (v->warn) {
          CHECK(r == NULL);
          if (!*v->warn) continue;
          char want[256];
          snprintf(want, sizeof want, "(%s): %s", uris[k], v->warn);
          CHECK(strstr(w.all, want) != NULL);
          if (!strstr(w.all, want)) fprintf(stderr, "  order %d %s: no warning %s\n", order, paths[f], want);
          warned++;
          continue;
        }
        CHECK(r != NULL);
        if (!r) {
          fprintf(stderr, "  order %d %s: lost %s\n", order, paths[f], uris[k]);
          continue;
        }
        if (v->charset) CHECK(r->charset && strcmp(r->charset, v->charset) == 0);
        else CHECK(r->charset == NULL);
        CHECK_INT(tbk_page_ref_read(r, &o, &got, &err), TBK_OK);
        CHECK(got.len == strlen(pages[k]) && memcmp(got.data, pages[k], got.len) == 0);
        if (got.len != strlen(pages[k]) || memcmp(got.data, pages[k], got.len) != 0)
          fprintf(stderr, "  order %d %s: %s read wrong\n", order, paths[f], uris[k]);
      }
      CHECK_INT(w.n, warned);
      tbk_buf_free(&got);
      tbk_page_list_free(&l);
    }
    tbk_buf_free(&plain);
    tbk_buf_free(&gz);
  }
}

/* The shapes of a lying Content-Length, in a plain file, one gzip
 * member per record and one gzip stream: four records, the second claiming
 * 5,000 bytes but holding 120 (its length runs past the next record header);
 * the second 30 bytes short; the last running past the end of the file.
 * The third record is WARC/1.1, the others WARC/1.0. Every intact record is
 * read; the liar is named by offset and URI. */
static void test_resync_shapes(void) {
  static const char *const want[3] = {"runs past the next record header (offset ",
                                      "ends 34 bytes short of the next record header (offset ",
                                      "runs past the end of the file, and no record header follows; record skipped"};
  static const char *const want_members[3] = {"runs past the end of its gzip member; record skipped",
                                              "ends 34 bytes short of the next record header (offset ",
                                              ("runs past the end of the file, and no record header follows; "
                                               "record skipped")};
  const char *http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
  for (int shape = 0; shape < 3; shape++) {
    tbk_buf recs[4];
    char pages[4][200], uris[4][64];
    memset(recs, 0, sizeof recs);
    int liar = shape == 2 ? 3 : 1;
    for (int i = 0; i < 4; i++) {
      snprintf(uris[i], sizeof uris[i], "http://shape.example.com/%d", i);
      snprintf(pages[i], sizeof pages[i],
               "<html><body><p>record %d of four, with enough words to be a page of its own</p></body></html>", i);
      size_t blen = strlen(pages[i]);
      long delta = 0;
      if (i == liar && shape != 1) {
        size_t held = 120 - strlen(http);
        delta = 5000 - 120;
        blen = held;
      } else if (i == liar) {
        delta = -30;
      }
      record(&recs[i], "response", uris[i], http, pages[i], blen, delta);
      if (i == 2) recs[i].data[7] = '1'; /* the one after the liar is a WARC/1.1 record */
    }
    for (int form = 0; form < 3; form++) {
      const char *path = form == 0 ? TMP "/shape.warc" : form == 1 ? TMP "/shape-m.warc.gz" : TMP "/shape-s.warc.gz";
      tbk_buf all = {0};
      for (int i = 0; i < 4; i++) {
        if (form == 1) gz_member(&all, recs[i].data, recs[i].len, 0);
        else CHECK_BUF(tbk_buf_append(&all, recs[i].data, recs[i].len));
      }
      if (form == 2) {
        tbk_buf one = {0};
        gz_member(&one, all.data, all.len, 0);
        tbk_buf_free(&all);
        all = one;
      }
      write_file(path, all.data, all.len);
      tbk_input_options o;
      tbk_input_options_init(&o);
      tbk_page_list l;
      warns w;
      tbk_error err;
      CHECK_INT(list_one(path, &l, &o, &w, &err), TBK_OK);
      CHECK_INT(l.n, shape == 1 ? 4 : 3); /* 30 bytes short: read to the next header */
      CHECK_INT(w.n, 1);
      char msg[256];
      snprintf(msg, sizeof msg, "(%s): Content-Length ", uris[liar]);
      CHECK(strstr(w.all, msg) != NULL);
      CHECK(strstr(w.all, (form == 1 ? want_members : want)[shape]) != NULL);
      if (!strstr(w.all, (form == 1 ? want_members : want)[shape])) fprintf(stderr, "  %s: %s", path, w.all);
      tbk_buf got = {0};
      for (int i = 0; i < 4; i++) {
        const tbk_page_ref *r = find_ref(&l, uris[i]);
        if (i == liar && shape != 1) {
          CHECK(r == NULL);
          continue;
        }
        CHECK(r != NULL);
        if (!r) {
          fprintf(stderr, "  %s shape %d: lost record %d\n", path, shape, i);
          continue;
        }
        CHECK_INT(tbk_page_ref_read(r, &o, &got, &err), TBK_OK);
        CHECK_STR(got.data, pages[i]);
      }
      tbk_buf_free(&got);
      tbk_page_list_free(&l);
      tbk_buf_free(&all);
    }
    for (int i = 0; i < 4; i++) tbk_buf_free(&recs[i]);
  }
}

static void test_bombs(void) {
  tbk_input_options o;
  tbk_input_options_init(&o);
  o.max_record_bytes = 1 << 20;
  tbk_page_list l;
  warns w;
  tbk_error err;
  tbk_buf gz = {0}, rec1 = {0};
  const size_t big = (size_t)64 << 20;
  const char *http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";

  /* Member 1: a page. Member 2: a record of 64 MiB of zeros (about 64 KiB
   * compressed). Member 3: a page. */
  gz_member(&gz, R[1].raw.data, R[1].raw.len, 0);
  size_t bomb_off = gz.len;
  CHECK_BUF(tbk_buf_printf(&rec1,
                           "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://bomb.example/\r\n"
                           "Content-Length: %zu\r\n\r\n%s",
                           strlen(http) + big, http));
  gz_member(&gz, rec1.data, rec1.len, big); /* the record separator is lost in zeros */
  size_t bomb_end = gz.len;
  gz_member(&gz, R[7].raw.data, R[7].raw.len, 0);
  CHECK(bomb_end - bomb_off < (size_t)1 << 20);
  write_file(TMP "/bomb.warc.gz", gz.data, gz.len);
  CHECK_INT(list_one(TMP "/bomb.warc.gz", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 2);
  CHECK(find_ref(&l, R[1].uri) != NULL);
  CHECK(find_ref(&l, R[7].uri) != NULL);
  CHECK(find_ref(&l, "http://bomb.example/") == NULL);
  CHECK_INT(l.skipped, 1);
  CHECK(strstr(w.all, "record exceeds max-record-bytes (1048576)") != NULL);
  tbk_page_list_free(&l);

  /* The same bomb inside a single gzip stream is read through, not held. */
  tbk_buf one = {0};
  gz.len = 0;
  CHECK_BUF(tbk_buf_append(&one, R[1].raw.data, R[1].raw.len));
  CHECK_BUF(tbk_buf_append(&one, rec1.data, rec1.len));
  {
    /* Stream: page, bomb head, zeros, separator, page. */
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    static unsigned char zero[1 << 20];
    unsigned char buf[1 << 16];
    const char *tail_sep = "\r\n\r\n";
    for (int part = 0; part < 4; part++) {
      size_t reps = part == 1 ? big / sizeof zero : 1;
      for (size_t k = 0; k < reps; k++) {
        if (part == 0) z.next_in = (unsigned char *)one.data, z.avail_in = (uInt)one.len;
        if (part == 1) z.next_in = zero, z.avail_in = sizeof zero;
        if (part == 2) z.next_in = (unsigned char *)tail_sep, z.avail_in = 4;
        if (part == 3) z.next_in = (unsigned char *)R[7].raw.data, z.avail_in = (uInt)R[7].raw.len;
        int flush = part == 3 ? Z_FINISH : Z_NO_FLUSH;
        int r;
        do {
          z.next_out = buf;
          z.avail_out = sizeof buf;
          r = deflate(&z, flush);
          CHECK_BUF(tbk_buf_append(&gz, buf, sizeof buf - z.avail_out));
        } while (z.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
      }
    }
    deflateEnd(&z);
  }
  write_file(TMP "/bomb1.warc.gz", gz.data, gz.len);
  CHECK_INT(list_one(TMP "/bomb1.warc.gz", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 2);
  CHECK(strstr(w.all, "record exceeds max-record-bytes (1048576)") != NULL);
  tbk_buf body = {0};
  const tbk_page_ref *r = find_ref(&l, R[7].uri);
  CHECK(r && r->offset == 0 && r->skip > big);
  CHECK(r && tbk_page_ref_read(r, &o, &body, &err) == TBK_OK && strcmp(body.data, R[7].body) == 0);
  tbk_page_list_free(&l);

  /* An HTTP body whose gzip Content-Encoding inflates past the limit: the
   * record is small, so it is listed, and reading it stops at the limit. */
  tbk_buf z4 = {0}, rb = {0};
  gz_member(&z4, "<html>", 6, (size_t)4 << 20);
  record(&rb, "response", "http://bomb.example/enc",
         "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n", z4.data, z4.len, 0);
  write_file(TMP "/encbomb.warc", rb.data, rb.len);
  CHECK_INT(list_one(TMP "/encbomb.warc", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 1);
  if (l.n == 1) {
    CHECK_INT(tbk_page_ref_read(&l.refs[0], &o, &body, &err), TBK_ERR_LIMIT);
    CHECK(strstr(err.msg, "max-record-bytes (1048576)") != NULL);
    CHECK_INT(body.len, 0);
    o.max_record_bytes = (size_t)8 << 20;
    CHECK_INT(tbk_page_ref_read(&l.refs[0], &o, &body, &err), TBK_OK);
    CHECK_INT(body.len, ((size_t)4 << 20) + 6);
  }
  tbk_page_list_free(&l);
  tbk_buf_free(&body);
  tbk_buf_free(&z4);
  tbk_buf_free(&rb);
  tbk_buf_free(&one);
  tbk_buf_free(&gz);
  tbk_buf_free(&rec1);
}

static void test_not_warc(void) {
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  write_file(TMP "/html.warc", "<html>not a warc</html>\n", 24);
  CHECK_INT(list_one(TMP "/html.warc", &l, &o, &w, &err), TBK_ERR_FORMAT);
  CHECK(strstr(err.msg, "not a WARC file") != NULL);
  write_file(TMP "/empty.warc", "", 0);
  CHECK_INT(list_one(TMP "/empty.warc", &l, &o, &w, &err), TBK_ERR_FORMAT);

  /* Valid, but without any HTML page. */
  tbk_buf all = {0};
  for (int i = 0; i < 6; i++)
    if (!R[i].uri) CHECK_BUF(tbk_buf_append(&all, R[i].raw.data, R[i].raw.len));
  write_file(TMP "/nohtml.warc", all.data, all.len);
  CHECK_INT(list_one(TMP "/nohtml.warc", &l, &o, &w, &err), TBK_ERR_EMPTY);
  CHECK(strstr(err.msg, "no HTML response records") != NULL);
  CHECK_INT(l.n, 0);

  /* Reading at an offset that holds no record. */
  tbk_page_ref bad = {0};
  bad.file = (char *)TMP "/nohtml.warc";
  bad.is_warc = 1;
  bad.offset = 3;
  tbk_buf body = {0};
  CHECK_INT(tbk_page_ref_read(&bad, &o, &body, &err), TBK_ERR_FORMAT);
  bad.offset = 1u << 30;
  CHECK_INT(tbk_page_ref_read(&bad, &o, &body, &err), TBK_ERR_FORMAT);
  bad.file = (char *)TMP "/does-not-exist.warc";
  bad.offset = 0;
  CHECK_INT(tbk_page_ref_read(&bad, &o, &body, &err), TBK_ERR_IO);
  tbk_buf_free(&body);
  tbk_buf_free(&all);
}

/* Every cut point and a spread of byte flips: listing never fails hard, and
 * every listed page either reads back exactly or fails cleanly. */
static void sweep_one(const char *path, const char *data, size_t n, int *bad_status) {
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  tbk_buf body = {0};
  write_file(path, data, n);
  tbk_status st = list_one(path, &l, &o, &w, &err);
  if (st != TBK_OK && st != TBK_ERR_FORMAT && st != TBK_ERR_EMPTY) (*bad_status)++;
  if (st != TBK_OK && l.n != 0) (*bad_status)++;
  for (size_t i = 0; i < l.n; i++) {
    st = tbk_page_ref_read(&l.refs[i], &o, &body, &err);
    if (st != TBK_OK && st != TBK_ERR_FORMAT) (*bad_status)++;
  }
  tbk_page_list_free(&l);
  tbk_buf_free(&body);
}

static void test_damage_sweep(void) {
  tbk_buf plain = {0}, gz = {0}, mut = {0};
  uint64_t off[NREC];
  for (int i = 0; i < NREC; i++) CHECK_BUF(tbk_buf_append(&plain, R[i].raw.data, R[i].raw.len));
  build_multi(&gz, off);
  int bad = 0;
  for (size_t cut = 0; cut < plain.len; cut += 7) sweep_one(TMP "/sweep.warc", plain.data, cut, &bad);
  for (size_t cut = 0; cut < gz.len; cut += 3) sweep_one(TMP "/sweep.warc.gz", gz.data, cut, &bad);
  unsigned seed = 12345;
  for (int k = 0; k < 300; k++) {
    tbk_buf *src = k % 2 ? &gz : &plain;
    mut.len = 0;
    CHECK_BUF(tbk_buf_append(&mut, src->data, src->len));
    for (int f = 0; f < 3; f++) {
      seed = seed * 1103515245u + 12345u;
      mut.data[(seed >> 8) % mut.len] ^= (char)(1 + (seed >> 4) % 255);
    }
    sweep_one(k % 2 ? TMP "/sweep.warc.gz" : TMP "/sweep.warc", mut.data, mut.len, &bad);
  }
  CHECK_INT(bad, 0);
  tbk_buf_free(&plain);
  tbk_buf_free(&gz);
  tbk_buf_free(&mut);
}

/* #32 item 2: a Content-Length that overstates its block and lands on a blank
 * line of the next record (the end of its WARC or HTTP head) is a lie, not
 * junk after a good record: the reader resyncs to the FIRST header after the
 * damage, so the intact record right after the liar is kept. And a header
 * whose lines end in CR CR LF is read (its blank line "\r\r\n" ends it). */
static void test_overstated_blank_landing(void) {
  const char *page = "<html><body>short</body></html>";
  const char *http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
  for (int where = 0; where < 2; where++) {
    tbk_buf r1 = {0}, r2 = {0}, r3 = {0}, all = {0};
    record(&r2, "response", "http://b.example.com/2", http, page, strlen(page), 0);
    record(&r3, "response", "http://b.example.com/3", http, page, strlen(page), 0);
    /* Where r2's WARC head (where 0) or HTTP head (where 1) ends, "\r\n\r\n". */
    const char *end = strstr(r2.data, "\r\n\r\n");
    if (where) end = strstr(end + 4, "\r\n\r\n");
    long over = (long)(end - r2.data) + 4; /* the record separator of r1 too */
    record(&r1, "response", "http://b.example.com/1", http, page, strlen(page), over);
    CHECK_BUF(tbk_buf_append(&all, r1.data, r1.len));
    CHECK_BUF(tbk_buf_append(&all, r2.data, r2.len));
    CHECK_BUF(tbk_buf_append(&all, r3.data, r3.len));
    const char *path = where ? TMP "/over_http.warc" : TMP "/over_warc.warc";
    write_file(path, all.data, all.len);
    tbk_input_options o;
    tbk_input_options_init(&o);
    tbk_page_list l;
    warns w;
    tbk_error err;
    CHECK_INT(list_one(path, &l, &o, &w, &err), TBK_OK);
    CHECK_INT(l.n, 2);
    CHECK(find_ref(&l, "http://b.example.com/1") == NULL);
    CHECK(find_ref(&l, "http://b.example.com/2") != NULL);
    CHECK(find_ref(&l, "http://b.example.com/3") != NULL);
    CHECK(strstr(w.all, "(http://b.example.com/1): Content-Length ") != NULL &&
          strstr(w.all, "runs past the next record header") != NULL);
    tbk_page_list_free(&l);
    tbk_buf_free(&r1);
    tbk_buf_free(&r2);
    tbk_buf_free(&r3);
    tbk_buf_free(&all);
  }
  /* Every line of every header (WARC and HTTP) ends in CR CR LF. */
  tbk_buf a = {0}, b = {0};
  record(&a, "response", "http://c.example.com/1", http, page, strlen(page), 0);
  for (size_t i = 0; i < a.len; i++) {
    if (a.data[i] == '\n' && i > 0 && a.data[i - 1] == '\r' && i + 1 < a.len - 4)
      CHECK_BUF(tbk_buf_append(&b, "\r", 1));
    CHECK_BUF(tbk_buf_append(&b, a.data + i, 1));
  }
  /* The Content-Length grew by the CRs the HTTP head gained (3 lines). */
  tbk_buf fixed = {0};
  const char *cl = strstr(b.data, "Content-Length: ");
  long n = strtol(cl + 16, NULL, 10);
  CHECK_BUF(tbk_buf_append(&fixed, b.data, (size_t)(cl - b.data)));
  CHECK_BUF(tbk_buf_printf(&fixed, "Content-Length: %ld", n + 3));
  const char *rest = strchr(cl, '\r');
  CHECK_BUF(tbk_buf_append(&fixed, rest, b.len - (size_t)(rest - b.data)));
  /* twice: a next record (room first: the copy's source is the buffer) */
  CHECK_BUF(tbk_buf_reserve(&fixed, fixed.len));
  CHECK_BUF(tbk_buf_append(&fixed, fixed.data, fixed.len));
  write_file(TMP "/crcrlf.warc", fixed.data, fixed.len);
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/crcrlf.warc", &l, &o, &w, &err), TBK_OK);
  CHECK(l.n >= 1);
  CHECK(strstr(w.all, "cut off by end of file") == NULL);
  if (l.n >= 1) {
    tbk_buf body = {0};
    CHECK(tbk_page_ref_read(&l.refs[0], &o, &body, &err) == TBK_OK && strcmp(body.data, page) == 0);
    tbk_buf_free(&body);
  }
  tbk_page_list_free(&l);
  tbk_buf_free(&a);
  tbk_buf_free(&b);
  tbk_buf_free(&fixed);
}

/* #32 item 2: resource records holding HTML are read (typed by the WARC
 * Content-Type, sniffed when it is missing or generic), and a response whose
 * Content-Type is generic (application/octet-stream) is sniffed. */
static void raw_record(tbk_buf *out, const char *type, const char *uri, const char *ctype, const char *block) {
  CHECK_BUF(tbk_buf_printf(out, "WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\n", type, uri));
  if (ctype) CHECK_BUF(tbk_buf_printf(out, "Content-Type: %s\r\n", ctype));
  CHECK_BUF(tbk_buf_printf(out, "Content-Length: %zu\r\n\r\n%s\r\n\r\n", strlen(block), block));
}

static void test_resource_and_generic(void) {
  const char *page = "<html><body><p>resource page</p></body></html>";
  tbk_buf all = {0};
  raw_record(&all, "resource", "http://r.example.com/html", "text/html; charset=utf-8", page);
  raw_record(&all, "resource", "http://r.example.com/none", NULL, page);
  raw_record(&all, "resource", "http://r.example.com/octet", "application/octet-stream", page);
  raw_record(&all, "resource", "http://r.example.com/img", "image/png", "\x89PNG\r\n");
  raw_record(&all, "resource", "http://r.example.com/text", NULL, "just some text");
  tbk_buf http = {0};
  CHECK_BUF(tbk_buf_printf(&http, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n%s", page));
  raw_record(&all, "response", "http://r.example.com/resp-octet", "application/http; msgtype=response", http.data);
  http.len = 0;
  CHECK_BUF(tbk_buf_printf(&http, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n%s", page));
  raw_record(&all, "response", "http://r.example.com/resp-png", "application/http; msgtype=response", http.data);
  write_file(TMP "/resource.warc", all.data, all.len);
  tbk_buf gz = {0};
  gz_member(&gz, all.data, all.len, 0);
  write_file(TMP "/resource.warc.gz", gz.data, gz.len);
  static const char *const paths[] = {TMP "/resource.warc", TMP "/resource.warc.gz"};
  static const char *const kept[] = {"http://r.example.com/html", "http://r.example.com/none",
                                     "http://r.example.com/octet", "http://r.example.com/resp-octet"};
  for (int k = 0; k < 2; k++) {
    tbk_input_options o;
    tbk_input_options_init(&o);
    tbk_page_list l;
    warns w;
    tbk_error err;
    CHECK_INT(list_one(paths[k], &l, &o, &w, &err), TBK_OK);
    CHECK_INT(l.n, 4);
    tbk_buf body = {0};
    for (int i = 0; i < 4; i++) {
      const tbk_page_ref *r = find_ref(&l, kept[i]);
      CHECK(r != NULL);
      if (r) CHECK(tbk_page_ref_read(r, &o, &body, &err) == TBK_OK && strcmp(body.data, page) == 0);
    }
    const tbk_page_ref *r = find_ref(&l, "http://r.example.com/html");
    CHECK(r && r->charset && strcmp(r->charset, "utf-8") == 0);
    CHECK(find_ref(&l, "http://r.example.com/img") == NULL);
    CHECK(find_ref(&l, "http://r.example.com/text") == NULL);
    CHECK(find_ref(&l, "http://r.example.com/resp-png") == NULL);
    tbk_buf_free(&body);
    tbk_page_list_free(&l);
  }
  tbk_buf_free(&all);
  tbk_buf_free(&gz);
  tbk_buf_free(&http);
}

/* Every record counted once, by why; non-200 HTML responses skipped and
 * counted unless the status filter takes them; the record id and date kept
 * from the listing (#32 item 2). */
static void test_counts_and_status(void) {
  tbk_buf all = {0};
  for (int i = 0; i < NREC; i++) CHECK_BUF(tbk_buf_append(&all, R[i].raw.data, R[i].raw.len));
  write_file(TMP "/counts.warc", all.data, all.len);
  tbk_input_options o;
  tbk_input_options_init(&o);
  tbk_page_list l;
  warns w;
  tbk_error err;
  CHECK_INT(list_one(TMP "/counts.warc", &l, &o, &w, &err), TBK_OK);
  CHECK(l.has_counts);
  size_t total = 0;
  for (int k = 0; k < TBK_WREC_N; k++) total += l.counts.n[k];
  CHECK_INT(total, NREC);
  const tbk_warc_counts *c = &l.counts;
  CHECK_INT(c->n[TBK_WREC_RESPONSE], 5);
  CHECK_INT(c->n[TBK_WREC_SNIFFED], 1);
  CHECK_INT(c->n[TBK_WREC_WARCINFO], 1);
  CHECK_INT(c->n[TBK_WREC_REQUEST], 1);
  CHECK_INT(c->n[TBK_WREC_REVISIT], 1);
  CHECK_INT(c->n[TBK_WREC_NOT_HTML_IMAGE], 1);
  CHECK_INT(c->n[TBK_WREC_NOT_MARKUP], 1);
  CHECK_INT(c->n[TBK_WREC_NOT_HTTP], 1);
  CHECK_INT(c->n[TBK_WREC_STATUS], 2);
  CHECK_INT(c->status[404], 1);
  CHECK_INT(c->status[301], 1);
  CHECK_STR(tbk_wrec_name(TBK_WREC_STATUS), "status");
  CHECK(tbk_wrec_is_read(TBK_WREC_CUT) && !tbk_wrec_is_read(TBK_WREC_STATUS));
  for (size_t i = 0; i < l.n; i++) {
    CHECK(l.refs[i].record_id == NULL);
    CHECK(l.refs[i].date && strcmp(l.refs[i].date, "2024-01-01T00:00:00Z") == 0);
  }
  CHECK_INT(l.n, expected_count());
  tbk_page_list_free(&l);

  /* 404 taken: read, counted apart; 301 still skipped. */
  o.status[404 / 8] |= 1u << (404 % 8);
  CHECK_INT(list_one(TMP "/counts.warc", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, expected_count() + 1);
  const tbk_page_ref *r = find_ref(&l, "http://www.example.co.uk/missing");
  CHECK(r && r->why == TBK_WREC_STATUS_READ && r->status == 404);
  tbk_buf body = {0};
  CHECK(r && tbk_page_ref_read(r, &o, &body, &err) == TBK_OK && strcmp(body.data, "<html>404</html>") == 0);
  CHECK(l.counts.n[TBK_WREC_STATUS_READ] == 1 && l.counts.status_read[404] == 1 && l.counts.n[TBK_WREC_STATUS] == 1 &&
        l.counts.status[301] == 1);
  tbk_page_list_free(&l);
  /* Every status. */
  o.any_status = 1;
  CHECK_INT(list_one(TMP "/counts.warc", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, expected_count() + 2);
  CHECK(l.counts.n[TBK_WREC_STATUS] == 0);
  tbk_page_list_free(&l);

  /* The record id and date the trace writes come from the listing. */
  tbk_buf one = {0}, trace = {0};
  CHECK_BUF(tbk_buf_puts(&one, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID:  <urn:uuid:1> \t\r\n"
                               "WARC-Date: 2024-05-06T07:08:09Z\r\nWARC-Record-ID: <urn:uuid:2>\r\n"
                               "WARC-Target-URI: http://t.example/\r\nContent-Length: 52\r\n\r\n"
                               "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n\r\n"));
  write_file(TMP "/trace.warc", one.data, one.len);
  tbk_input_options_init(&o);
  CHECK_INT(list_one(TMP "/trace.warc", &l, &o, &w, &err), TBK_OK);
  CHECK_INT(l.n, 1);
  CHECK(l.n == 1 && tbk_page_ref_trace(&l.refs[0], &trace, &err) == TBK_OK);
  CHECK_STR(trace.data ? trace.data : "", ",\"warc_file\":\"" TMP "/trace.warc\",\"warc_offset\":0,"
                                          "\"warc_record_id\":\"<urn:uuid:1>\",\"warc_date\":\"2024-05-06T07:08:09Z\"");
  tbk_page_list_free(&l);
  tbk_buf_free(&one);
  tbk_buf_free(&trace);
  tbk_buf_free(&body);
  tbk_buf_free(&all);
}

/* A gzip member cut off (at the end of the file, or followed by another
 * member): the bytes before the cut hold the record's heads and the start
 * of its body, which is read, with a warning and a skip (exit 3). */
static void test_cut_member(void) {
  tbk_buf page = {0}, r1 = {0}, r2 = {0}, r3 = {0}, gz = {0};
  const char *http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
  CHECK_BUF(tbk_buf_puts(&page, "<html><body><p>"));
  unsigned x = 1;
  for (int i = 0; i < 3000; i++) {
    x = x * 1103515245u + 12345u;
    CHECK_BUF(tbk_buf_printf(&page, "w%x ", x >> 12));
  }
  CHECK_BUF(tbk_buf_puts(&page, "</p></body></html>"));
  const char *small = "<html><body>small</body></html>";
  record(&r1, "response", "http://c.example/1", http, small, strlen(small), 0);
  record(&r2, "response", "http://c.example/2", http, page.data, page.len, 0);
  record(&r3, "response", "http://c.example/3", http, small, strlen(small), 0);
  gz_member(&gz, r1.data, r1.len, 0);
  size_t off2 = gz.len;
  gz_member(&gz, r2.data, r2.len, 0);
  size_t cut = off2 + (gz.len - off2) / 2;
  tbk_buf tail = {0};
  gz_member(&tail, r3.data, r3.len, 0);
  for (int mid = 0; mid < 2; mid++) {
    const char *path = mid ? TMP "/cutmid.warc.gz" : TMP "/cut.warc.gz";
    tbk_buf f = {0};
    CHECK_BUF(tbk_buf_append(&f, gz.data, cut));
    if (mid) CHECK_BUF(tbk_buf_append(&f, tail.data, tail.len));
    write_file(path, f.data, f.len);
    tbk_input_options o;
    tbk_input_options_init(&o);
    tbk_page_list l;
    warns w;
    tbk_error err;
    CHECK_INT(list_one(path, &l, &o, &w, &err), TBK_OK);
    CHECK_INT(l.n, mid ? 3 : 2);
    CHECK_INT(l.skipped, 1);
    CHECK_INT(w.n, 1);
    CHECK(strstr(w.all, mid ? "(http://c.example/2) cut off (gzip member truncated, another member follows): read "
                            : "(http://c.example/2) cut off (gzip member truncated): read ") != NULL);
    CHECK(l.counts.n[TBK_WREC_CUT] == 1 && l.counts.n[TBK_WREC_RESPONSE] == (mid ? 2u : 1u));
    const tbk_page_ref *r = find_ref(&l, "http://c.example/2");
    CHECK(r && r->why == TBK_WREC_CUT && r->length > 0);
    tbk_buf body = {0};
    tbk_status st = r ? tbk_page_ref_read(r, &o, &body, &err) : TBK_ERR_ARG;
    CHECK_INT(st, TBK_OK);
    /* a prefix of the page, more than its first tag */
    CHECK(body.len > 100 && body.len < page.len && memcmp(body.data, page.data, body.len) == 0);
    if (mid) {
      r = find_ref(&l, "http://c.example/3");
      CHECK(r && tbk_page_ref_read(r, &o, &body, &err) == TBK_OK && strcmp(body.data, small) == 0);
    }
    tbk_buf_free(&body);
    tbk_page_list_free(&l);
    tbk_buf_free(&f);
  }
  tbk_buf *bufs[] = {&page, &r1, &r2, &r3, &gz, &tail};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) tbk_buf_free(bufs[i]);
}

int main(void) {
  mkdir_p(TMP);
  build_records();
  test_plain();
  test_multi_member();
  test_single_stream();
  test_truncated();
  test_counts_and_status();
  test_cut_member();
  test_corrupt_member();
  test_lying_length();
  test_overstated_blank_landing();
  test_resource_and_generic();
  test_independent_records();
  test_resync_shapes();
  test_bombs();
  test_not_warc();
  test_damage_sweep();
  for (int i = 0; i < NREC; i++) tbk_buf_free(&R[i].raw);
  return check_report();
}
