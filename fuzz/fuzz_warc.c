/* Fuzz target: bytes as a WARC file. Listed with tbk_page_list_add, then
 * every listed record read back with tbk_page_ref_read under a small
 * max-record-bytes. Inputs that are not gzip are also tried compressed, one
 * gzip member per record (split before every line starting "WARC/"), as
 * Common Crawl ships them, so mutations of the plain record structure reach
 * the member-boundary bookkeeping too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "tbk_internal.h"

static char path_plain[4096], path_gz[4096];

static void cleanup(void) {
  unlink(path_plain);
  unlink(path_gz);
}

static void make_paths(void) {
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir) dir = "/tmp";
  snprintf(path_plain, sizeof path_plain, "%s/tbk-fuzz-warc-%ld.warc", dir, (long)getpid());
  snprintf(path_gz, sizeof path_gz, "%s/tbk-fuzz-warc-%ld.warc.gz", dir, (long)getpid());
  atexit(cleanup);
}

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f)) {
    perror(path);
    abort();
  }
}

static void gz_member(tbk_buf *out, const uint8_t *p, size_t n) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) abort();
  uLong bound = deflateBound(&z, (uLong)n) + 32;
  if (tbk_buf_reserve(out, bound)) abort();
  z.next_in = (Bytef *)p;
  z.avail_in = (uInt)n;
  z.next_out = (Bytef *)out->data + out->len;
  z.avail_out = (uInt)bound;
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) abort();
  out->len += bound - z.avail_out;
  deflateEnd(&z);
}

static void quiet(void *ctx, const char *file, const char *msg) {
  (void)ctx;
  (void)file;
  if (!msg || !*msg || strchr(msg, '\n')) abort(); /* one line, always */
}

static void list_and_read(const char *path) {
  tbk_input_options opt;
  tbk_input_options_init(&opt);
  opt.max_record_bytes = 1 << 16;
  opt.site_key = (strlen(path) & 1) ? TBK_SITE_HOST : TBK_SITE_DOMAIN;
  tbk_page_list l = {0};
  tbk_error err = {0};
  if (tbk_page_list_add(&l, path, &opt, quiet, NULL, &err) == TBK_OK) {
    tbk_page_list_sort(&l);
    tbk_buf body = {0};
    for (size_t i = 0; i < l.n && i < 256; i++) {
      if (!l.refs[i].is_warc || !l.refs[i].site || !l.refs[i].page) abort();
      if (tbk_page_ref_read(&l.refs[i], &opt, &body, &err) == TBK_OK && body.len > opt.max_record_bytes) abort();
    }
    tbk_buf_free(&body);
  } else if (l.n != 0) {
    abort(); /* a failed input must add nothing */
  }
  tbk_page_list_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!path_plain[0]) make_paths();
  int gz = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  write_file(gz ? path_gz : path_plain, data, size);
  list_and_read(gz ? path_gz : path_plain);
  if (!gz && size <= (1 << 20)) {
    tbk_buf members = {0};
    size_t start = 0;
    for (size_t i = 1; i + 5 <= size; i++)
      if (data[i - 1] == '\n' && memcmp(data + i, "WARC/", 5) == 0) {
        gz_member(&members, data + start, i - start);
        start = i;
      }
    gz_member(&members, data + start, size - start);
    write_file(path_gz, members.data, members.len);
    list_and_read(path_gz);
    tbk_buf_free(&members);
  }
  return 0;
}
