/* The output names of WARC pages (tbk-predict --output-dir, tbk-label
 * --strip and --template-html) and the index that maps tbk-predict's back
 * to their records (#32 item 4). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "shard.h"
#include "tbk_text.h"

/* A part over NAME_PART_MAX bytes keeps NAME_PART_KEEP and the MD5 of the
 * whole: with "~N" and the longest extension it stays far below NAME_MAX
 * (255). A name still over NAME_REL_MAX keeps its scheme and host and
 * hashes the rest, so no URL makes a path over PATH_MAX. */
enum { NAME_PART_MAX = 200, NAME_PART_KEEP = 150, NAME_REL_MAX = 2048 };

/* Bytes a name keeps as they are: RFC 3986's unreserved and sub-delims
 * characters, less '~' (it marks tbk's own suffixes, "~2" and "~MD5") and
 * '*' (a glob); everything else is %XX, so the URL can be read back. */
static int name_safe(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         (c && strchr("-._!$&'()+,;=@[]", c));
}

/* s[0..n) escaped onto b. Valid UTF-8 stays (a Chinese path stays
 * readable), invalid bytes are escaped. A leading '.' of a part is
 * escaped: no "." or ".." part, no hidden file. */
static int put_escaped(tbk_buf *b, const char *s, size_t n, size_t part_start, int lower) {
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    size_t seq = c >= 0x80 ? tbk_utf8_seq((const unsigned char *)s + i, n - i) : 0;
    if (seq) {
      if (tbk_buf_append(b, s + i, seq)) return -1;
      i += seq;
      continue;
    }
    if (name_safe(c) && !(c == '.' && b->len == part_start)) {
      char ch = lower && c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : (char)c;
      if (tbk_buf_append(b, &ch, 1)) return -1;
    } else if (tbk_buf_printf(b, "%%%02X", c)) return -1;
    i++;
  }
  return 0;
}

static int put_md5(tbk_buf *b, const char *s, size_t n) {
  unsigned char md5[16];
  char hex[33];
  tbk_md5(s, n, md5);
  tbk_md5_hex(md5, hex);
  return tbk_buf_puts(b, "~") || tbk_buf_puts(b, hex);
}

/* The part at b[start..) over NAME_PART_MAX (with extra bytes to come):
 * its first NAME_PART_KEEP bytes, never cutting a %XX or a UTF-8
 * sequence, then ~MD5 of the whole part. 1 when shortened. */
static int shorten_part(tbk_buf *b, size_t start, size_t extra, int *bad) {
  size_t len = b->len - start;
  if (len + extra <= NAME_PART_MAX) return 0;
  const char *p = b->data + start;
  size_t keep = 0;
  while (keep < len) {
    size_t unit = p[keep] == '%' ? 3 : tbk_utf8_seq((const unsigned char *)p + keep, len - keep);
    if (!unit) unit = 1;
    if (keep + unit > NAME_PART_KEEP) break;
    keep += unit;
  }
  char *whole = malloc(len);
  if (!whole) return *bad = 1;
  memcpy(whole, p, len);
  b->len = start + keep;
  if (put_md5(b, whole, len)) *bad = 1;
  free(whole);
  return 1;
}

char *cli_url_output_name(const char *dir, const char *url, const char *ext, int *shortened) {
  tbk_buf b = {0};
  int bad = tbk_buf_puts(&b, dir) || tbk_buf_puts(&b, "/");
  size_t rel = b.len, host_end = 0, extlen = strlen(ext);
  *shortened = 0;
  /* scheme ":" as RFC 3986 has it */
  const char *colon = NULL, *q = url;
  if ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z')) {
    for (q++; (*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '+' ||
              *q == '-' || *q == '.';)
      q++;
    if (*q == ':') colon = q;
  }
  /* What is not hierarchical (urn:, mailto:, no scheme) is one part,
   * '/' escaped; else the parts of the path up to its query, empty ones
   * ("//") dropped. */
  const char *path = colon ? colon + 1 : url, *last = path, *end = path + strlen(path), *tail = end;
  if (colon) bad = bad || put_escaped(&b, url, (size_t)(colon - url), rel, 1) || tbk_buf_puts(&b, "/");
  if (colon && path[0] == '/' && path[1] == '/') {
    /* the authority, case-folded as hosts are, a port's ':' escaped */
    const char *a = path + 2, *ae = a + strcspn(a, "/?#");
    size_t start = b.len;
    if (ae == a) bad = bad || tbk_buf_puts(&b, "_");
    else bad = bad || put_escaped(&b, a, (size_t)(ae - a), start, 1);
    *shortened |= shorten_part(&b, start, 0, &bad);
    bad = bad || tbk_buf_puts(&b, "/");
    host_end = b.len;
    path = ae;
    tail = path + strcspn(path, "?#");
    last = path;
    for (const char *p = path; p < tail; p++)
      if (*p == '/') last = p + 1;
    for (const char *p = path; p < last && !bad;) {
      const char *e = memchr(p, '/', (size_t)(last - p));
      if (e > p) {
        size_t start = b.len;
        bad = put_escaped(&b, p, (size_t)(e - p), start, 0);
        *shortened |= shorten_part(&b, start, 0, &bad);
        bad = bad || tbk_buf_puts(&b, "/");
      }
      p = e + 1;
    }
  }
  /* the last part: its name or "index" (a directory's URL), the query */
  size_t start = b.len;
  bad = bad || put_escaped(&b, last, (size_t)(tail - last), start, 0);
  if (b.len == start) bad = bad || tbk_buf_puts(&b, "index");
  bad = bad || put_escaped(&b, tail, (size_t)(end - tail), start, 0);
  *shortened |= shorten_part(&b, start, extlen, &bad);
  if (!bad && b.len - rel > NAME_REL_MAX && host_end) {
    size_t n = b.len - host_end;
    char *whole = malloc(n);
    if (!whole) bad = 1;
    else {
      memcpy(whole, b.data + host_end, n);
      b.len = host_end;
      bad = put_md5(&b, whole, n);
      free(whole);
      *shortened = 1;
    }
  }
  bad = bad || tbk_buf_puts(&b, ext);
  if (bad) cli_die(TBK_EXIT_FAIL, "out of memory");
  return b.data;
}

/* ----- index.tsv */

char *cli_index_name(const char *dir) {
  size_t k, n;
  tbk_buf b = {0};
  int bad;
  if (cli_shard_of(&k, &n)) {
    /* K as wide as N: the shell's sorted glob is shard order */
    int w = 1;
    for (size_t m = n; m >= 10; m /= 10) w++;
    bad = tbk_buf_printf(&b, "%s/index-%0*zu-of-%zu.tsv", dir, w, k, n);
  } else bad = tbk_buf_printf(&b, "%s/index.tsv", dir);
  if (bad) cli_die(TBK_EXIT_FAIL, "out of memory");
  return b.data;
}

int cli_index_reserved(const char *part, size_t n) {
  if (n == 9 && memcmp(part, "index.tsv", 9) == 0) return 1;
  return n > 10 && memcmp(part, "index-", 6) == 0 && memcmp(part + n - 4, ".tsv", 4) == 0;
}

static const char index_header[] = "file\turl\trecord_id\twarc_file\twarc_offset\tdate\twarc_skip\tpage\n";

void cli_index_open(cli_index *x, const char *dir) {
  memset(x, 0, sizeof *x);
  x->dirlen = strlen(dir);
  x->path = cli_index_name(dir);
  cli_out_open_file(&x->out, x->path);
  if (cli_shard_headers()) cli_out_put(&x->out, index_header, sizeof index_header - 1);
}

int cli_tsv_field(tbk_buf *b, const char *s) {
  for (; *s; s++) {
    const char *e = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : NULL;
    if (e ? tbk_buf_puts(b, e) : tbk_buf_append(b, s, 1)) return -1;
  }
  return 0;
}

tbk_jsonl_obj *cli_trace_parse(const tbk_buf *trace) {
  if (!trace->len || trace->data[0] != ',') return NULL;
  tbk_buf b = {0};
  tbk_jsonl_obj *o = NULL;
  tbk_error err = {0};
  if (tbk_buf_puts(&b, "{") || tbk_buf_append(&b, trace->data + 1, trace->len - 1) || tbk_buf_puts(&b, "}"))
    cli_die(TBK_EXIT_FAIL, "out of memory");
  tbk_status st = tbk_jsonl_parse(b.data, b.len, &o, &err);
  tbk_buf_free(&b);
  if (st == TBK_ERR_NOMEM) cli_die(TBK_EXIT_FAIL, "out of memory");
  return st ? NULL : o;
}

const char *cli_trace_str(const tbk_jsonl_obj *o, const char *key) {
  const char *v = o ? tbk_jsonl_str(o, key) : NULL;
  return v ? v : "";
}

void cli_index_add(cli_index *x, const char *name, const tbk_page_ref *ref, const tbk_buf *trace) {
  tbk_jsonl_obj *o = ref->is_warc ? cli_trace_parse(trace) : NULL;
  tbk_buf *b = &x->row;
  b->len = 0;
  int bad = cli_tsv_field(b, name + x->dirlen + 1) || tbk_buf_puts(b, "\t") || cli_tsv_field(b, ref->url) ||
            tbk_buf_puts(b, "\t") || cli_tsv_field(b, cli_trace_str(o, "warc_record_id")) || tbk_buf_puts(b, "\t");
  if (ref->is_warc)
    bad = bad || cli_tsv_field(b, tbk_page_ref_file(ref)) ||
          tbk_buf_printf(b, "\t%llu\t", (unsigned long long)ref->offset) ||
          cli_tsv_field(b, cli_trace_str(o, "warc_date")) ||
          tbk_buf_printf(b, "\t%llu\t", (unsigned long long)ref->skip);
  else bad = bad || tbk_buf_puts(b, "\t\t\t\t");
  bad = bad || cli_tsv_field(b, ref->page) || tbk_buf_puts(b, "\n");
  tbk_jsonl_free(o);
  if (bad) cli_die(TBK_EXIT_FAIL, "out of memory");
  cli_out_put(&x->out, b->data, b->len);
}

void cli_index_commit(cli_index *x) {
  cli_out_commit(&x->out);
  tbk_buf_free(&x->row);
  free(x->path);
  x->path = NULL;
}
