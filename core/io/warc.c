/* WARC reading: a decompressing stream that knows which gzip member each
 * byte came from (so a record can be found again by seeking), a record
 * parser that survives truncation, corruption and lying Content-Lengths,
 * and an HTTP body decoder (chunked, gzip, deflate) that never produces more
 * than a given number of bytes. Nothing here holds a whole record body in
 * memory except tbk_warc_read, whose caller asked for it. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

#include "util.h"
#include "warc.h"

/* ------------------------------------------------------------ stream */

enum { WS_IN_CAP = 65536, WS_OUT_CAP = 65536 };
enum { WS_OK, WS_EOF, WS_ERR };
enum { WE_IO = 1, WE_TRUNC, WE_CORRUPT, WE_NOMEM };

/* Decompressed offset u starts the gzip member at compressed offset coff. */
typedef struct ws_bound {
  uint64_t u, coff;
} ws_bound;

typedef struct wstream {
  FILE *f; /* owned */
  uint64_t fsize;
  int gz;
  z_stream z;
  int z_ready, in_member, in_eof;
  unsigned char *in;  /* owned, WS_IN_CAP bytes of compressed input */
  uint64_t in_off;    /* file offset of in[0] */
  unsigned char *out; /* owned, WS_OUT_CAP bytes; [start, end) unread */
  size_t start, end;
  uint64_t u;  /* decompressed offset of out[start] (plain: file offset) */
  ws_bound *b; /* owned; member starts not yet behind the reader */
  size_t nb, cb;
  uint64_t member_coff; /* compressed offset of the member being inflated */
  int state, ekind;
  char emsg[200];
} wstream;

static int ws_fail(wstream *s, int kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int ws_fail(wstream *s, int kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->emsg, sizeof s->emsg, fmt, ap);
  va_end(ap);
  s->state = WS_ERR;
  s->ekind = kind;
  return -1;
}

static void ws_free(wstream *s) {
  if (!s) return;
  if (s->f) fclose(s->f);
  if (s->z_ready) inflateEnd(&s->z);
  free(s->in);
  free(s->out);
  free(s->b);
  free(s);
}

static void ws_reset_input(wstream *s, uint64_t off) {
  s->in_off = off;
  s->z.next_in = s->in;
  s->z.avail_in = 0;
  s->in_eof = 0;
  s->in_member = 0;
  s->start = s->end = 0;
  s->nb = 0;
  s->state = WS_OK;
}

/* Opens path positioned at byte offset; gzip is recognised by its magic
 * there, whatever the file is called. check: verify each gzip member's
 * CRC (reading a record; the listing does not). */
static tbk_status ws_open(const char *path, uint64_t offset, int check, wstream **out, tbk_error *err) {
  *out = NULL;
  FILE *f;
  tbk_status open_st = tbk_open_read(path, &f, err);
  if (open_st) return open_st;
  struct stat st;
  if (fstat(fileno(f), &st) != 0) {
    int e = errno;
    fclose(f);
    return tbk_fail(err, TBK_ERR_IO, "cannot stat: %s", strerror(e));
  }
  if (offset > (uint64_t)st.st_size || fseeko(f, (off_t)offset, SEEK_SET) != 0) {
    fclose(f);
    return tbk_fail(err, TBK_ERR_FORMAT, "offset %" PRIu64 " is beyond the end of the file", offset);
  }
  unsigned char magic[2] = {0, 0};
  size_t m = fread(magic, 1, 2, f);
  if (fseeko(f, (off_t)offset, SEEK_SET) != 0) {
    int e = errno;
    fclose(f);
    return tbk_fail(err, TBK_ERR_IO, "cannot seek: %s", strerror(e));
  }
  wstream *s = calloc(1, sizeof *s);
  if (!s) {
    fclose(f);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  s->f = f;
  s->fsize = (uint64_t)st.st_size;
  s->gz = m == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  s->out = malloc(WS_OUT_CAP);
  if (s->gz) {
    s->in = malloc(WS_IN_CAP);
    if (s->in && inflateInit2(&s->z, 15 + 16) == Z_OK) s->z_ready = 1;
#if ZLIB_VERNUM >= 0x1290
    /* The listing inflates every member to find the next (a tenth of its
     * instructions were the CRC); the pages it lists are inflated again
     * to be read, and checked then. */
    if (s->z_ready && !check) inflateValidate(&s->z, 0);
#endif
  }
  if (!s->out || (s->gz && !s->z_ready)) {
    ws_free(s);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  if (s->gz) {
    ws_reset_input(s, offset);
  } else {
    s->u = offset;
  }
  *out = s;
  return TBK_OK;
}

static size_t ws_avail(const wstream *s) { return s->end - s->start; }

static void ws_consume(wstream *s, size_t n) {
  s->start += n;
  s->u += n;
}

static int ws_add_bound(wstream *s, uint64_t u, uint64_t coff) {
  /* An empty member leaves no byte behind: the next member owns offset u. */
  if (s->nb && s->b[s->nb - 1].u == u) {
    s->b[s->nb - 1].coff = coff;
    return 0;
  }
  if (tbk_grow(&s->b, &s->cb, s->nb + 1, sizeof *s->b)) return -1;
  s->b[s->nb].u = u;
  s->b[s->nb].coff = coff;
  s->nb++;
  return 0;
}

/* Decompress or read more bytes into out. 1 = some bytes are buffered,
 * 0 = end of file, -1 = error (s->emsg). */
static int ws_fill(wstream *s) {
  if (s->state == WS_EOF) return 0;
  if (s->state == WS_ERR) return -1;
  if (s->start == s->end) {
    s->start = s->end = 0;
  } else if (s->end == WS_OUT_CAP && s->start > 0) {
    memmove(s->out, s->out + s->start, s->end - s->start);
    s->end -= s->start;
    s->start = 0;
  }
  if (s->end == WS_OUT_CAP) return 1;
  if (!s->gz) {
    size_t n = fread(s->out + s->end, 1, WS_OUT_CAP - s->end, s->f);
    if (n == 0) {
      if (ferror(s->f)) return ws_fail(s, WE_IO, "read error: %s", strerror(errno));
      s->state = WS_EOF;
      return 0;
    }
    s->end += n;
    return 1;
  }
  for (;;) {
    if (s->z.avail_in == 0 && !s->in_eof) {
      s->in_off += (uint64_t)(s->z.next_in - s->in);
      size_t n = fread(s->in, 1, WS_IN_CAP, s->f);
      if (n == 0) {
        if (ferror(s->f)) return ws_fail(s, WE_IO, "read error: %s", strerror(errno));
        s->in_eof = 1;
      }
      s->z.next_in = s->in;
      s->z.avail_in = (uInt)n;
    }
    uint64_t coff = s->in_off + (uint64_t)(s->z.next_in - s->in);
    if (!s->in_member) {
      if (s->z.avail_in == 0 && s->in_eof) {
        s->state = WS_EOF;
        return 0;
      }
      if (ws_add_bound(s, s->u + (s->end - s->start), coff)) return ws_fail(s, WE_NOMEM, "out of memory");
      inflateReset(&s->z);
      s->member_coff = coff;
      s->in_member = 1;
    }
    s->z.next_out = s->out + s->end;
    s->z.avail_out = (uInt)(WS_OUT_CAP - s->end);
    int r = inflate(&s->z, Z_NO_FLUSH);
    size_t got = (WS_OUT_CAP - s->end) - s->z.avail_out;
    s->end += got;
    if (r == Z_STREAM_END) {
      s->in_member = 0;
      if (got) return 1;
      continue;
    }
    if (r == Z_OK || r == Z_BUF_ERROR) {
      if (got) return 1;
      if (s->z.avail_in == 0 && s->in_eof)
        return ws_fail(s, WE_TRUNC, "gzip data truncated (member at offset %" PRIu64 ")", s->member_coff);
      continue;
    }
    if (r == Z_MEM_ERROR) return ws_fail(s, WE_NOMEM, "out of memory");
    if (coff == s->member_coff && s->z.msg && strcmp(s->z.msg, "incorrect header check") == 0)
      return ws_fail(s, WE_CORRUPT, "bytes at offset %" PRIu64 " are not a gzip member", s->member_coff);
    ws_fail(s, WE_CORRUPT, "corrupt gzip member at offset %" PRIu64 ": %s", s->member_coff,
            s->z.msg ? s->z.msg : "bad data");
    /* The bytes this call inflated are handed on (the next call fails):
     * a member cut off and followed by another breaks only after the cut
     * member's last bytes, which its reader may still want. */
    return got ? 1 : -1;
  }
}

/* Make at least k (<= WS_OUT_CAP) bytes available: 1 yes, 0 end of file
 * came first, -1 error. */
static int ws_ensure(wstream *s, size_t k) {
  while (ws_avail(s) < k) {
    int r = ws_fill(s);
    if (r <= 0) return r;
  }
  return 1;
}

/* Where the next byte (which must be buffered) can be found again. */
static void ws_tell(wstream *s, uint64_t *off, uint64_t *skip) {
  if (!s->gz) {
    *off = s->u;
    *skip = 0;
    return;
  }
  size_t i = s->nb;
  while (i > 1 && s->b[i - 1].u > s->u) i--;
  /* nb >= 1 once a byte was inflated; entries before i-1 are behind us. */
  ws_bound cur = s->b[i - 1];
  memmove(s->b, s->b + (i - 1), (s->nb - (i - 1)) * sizeof *s->b);
  s->nb -= i - 1;
  *off = cur.coff;
  *skip = s->u - cur.u;
}

/* Discard n bytes: 1 done, 0 end of file first, -1 error. Plain files seek
 * instead of reading. */
static int ws_skip(wstream *s, uint64_t n) {
  for (;;) {
    size_t a = ws_avail(s);
    if ((uint64_t)a >= n) {
      ws_consume(s, (size_t)n);
      return 1;
    }
    ws_consume(s, a);
    n -= a;
    if (!s->gz && s->state == WS_OK) {
      /* s->u is now the file offset of the next unread byte. */
      if (s->u + n > s->fsize) {
        s->u = s->fsize;
        s->state = WS_EOF;
        return 0;
      }
      if (fseeko(s->f, (off_t)(s->u + n), SEEK_SET) != 0) return ws_fail(s, WE_IO, "cannot seek: %s", strerror(errno));
      s->u += n;
      s->start = s->end = 0;
      return 1;
    }
    int r = ws_fill(s);
    if (r <= 0) return r;
  }
}

/* Discard a record block of n bytes: 1 done, 2 stopped early at a later
 * gzip member that starts with "WARC/", 0 end of file first, -1 error.
 * A .warc.gz holds one record per member, so a member boundary inside the
 * block followed by a record header proves the Content-Length too long;
 * stopping there costs nothing and loses no record. */
static int ws_skip_block(wstream *s, uint64_t n) {
  if (!s->gz) return ws_skip(s, n);
  const uint64_t end = s->u + n;
  for (;;) {
    /* Bounds are sorted; the ones ahead of the reader are in the buffer
     * (or start right after it), so this scan is short. */
    size_t i = s->nb;
    while (i > 0 && s->b[i - 1].u >= s->u) i--;
    uint64_t limit = s->u + ws_avail(s);
    if (i < s->nb && s->b[i].u < end && s->b[i].u <= limit) {
      uint64_t at = s->b[i].u;
      ws_consume(s, (size_t)(at - s->u));
      int r = ws_ensure(s, 5);
      if (r < 0) return -1;
      if (ws_avail(s) >= 5 && memcmp(s->out + s->start, "WARC/", 5) == 0) return 2;
      if (r == 0 && ws_avail(s) == 0) return 0;
      /* A block that goes on in another member: step past the boundary. */
      ws_consume(s, 1);
      if (s->u == end) return 1;
      continue;
    }
    if (limit >= end) {
      ws_consume(s, (size_t)(end - s->u));
      return 1;
    }
    ws_consume(s, ws_avail(s));
    int r = ws_fill(s);
    if (r <= 0) return r;
  }
}

/* Read one line (through '\n') of at most limit bytes into line.
 * Returns bytes read (line may lack '\n' at limit or end of file), 0 at end
 * of file, -1 on error. */
static long ws_getline(wstream *s, tbk_buf *line, size_t limit) {
  line->len = 0;
  while (line->len < limit) {
    if (ws_avail(s) == 0) {
      int r = ws_fill(s);
      if (r < 0) return -1;
      if (r == 0) break;
    }
    size_t take = ws_avail(s);
    if (take > limit - line->len) take = limit - line->len;
    const unsigned char *p = s->out + s->start;
    const unsigned char *nl = memchr(p, '\n', take);
    if (nl) take = (size_t)(nl - p) + 1;
    if (tbk_buf_append(line, p, take)) return ws_fail(s, WE_NOMEM, "out of memory");
    ws_consume(s, take);
    if (nl) break;
  }
  return (long)line->len;
}

/* Does the gzip member at file offset c decompress to something starting
 * with "WARC/"? Used to re-synchronise after a corrupt or skipped member. */
static int member_starts_warc(FILE *f, uint64_t c) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 15 + 16) != Z_OK) return 0;
  unsigned char in[4096], out[5];
  int ok = 0;
  z.next_out = out;
  z.avail_out = sizeof out;
  if (fseeko(f, (off_t)c, SEEK_SET) == 0) {
    /* A gzip header is short unless it carries extra fields; 64 KiB is plenty. */
    for (int round = 0; round < 16 && z.avail_out > 0; round++) {
      size_t n = fread(in, 1, sizeof in, f);
      if (n == 0) break;
      z.next_in = in;
      z.avail_in = (uInt)n;
      int r = inflate(&z, Z_NO_FLUSH);
      if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) break;
      if (r == Z_STREAM_END) break;
    }
    ok = z.avail_out == 0 && memcmp(out, "WARC/", 5) == 0;
  }
  inflateEnd(&z);
  return ok;
}

/* Continue at the first gzip member after file offset `from` that starts a
 * WARC record: 1 found, 0 none (stream at end), -1 I/O error. */
static int ws_resync_member(wstream *s, uint64_t from) {
  uint64_t pos = from;
  while (pos + 3 <= s->fsize) {
    if (fseeko(s->f, (off_t)pos, SEEK_SET) != 0) return ws_fail(s, WE_IO, "cannot seek: %s", strerror(errno));
    size_t n = fread(s->in, 1, WS_IN_CAP, s->f);
    if (n < 3) break;
    for (size_t i = 0; i + 2 < n; i++) {
      if (s->in[i] == 0x1f && s->in[i + 1] == 0x8b && s->in[i + 2] == 8 && member_starts_warc(s->f, pos + i)) {
        if (fseeko(s->f, (off_t)(pos + i), SEEK_SET) != 0) return ws_fail(s, WE_IO, "cannot seek: %s", strerror(errno));
        ws_reset_input(s, pos + i);
        return 1;
      }
    }
    pos += n - 2;
  }
  s->start = s->end = 0;
  s->state = WS_EOF;
  return 0;
}

/* Discard lines until one starts with "WARC/" (left unread): 1 found,
 * 0 end of file, -1 error. The current line is discarded first. */
static int ws_resync_line(wstream *s) {
  for (;;) {
    for (;;) {
      if (ws_avail(s) == 0) {
        int r = ws_fill(s);
        if (r <= 0) return r;
      }
      const unsigned char *p = s->out + s->start;
      const unsigned char *nl = memchr(p, '\n', ws_avail(s));
      if (nl) {
        ws_consume(s, (size_t)(nl - p) + 1);
        break;
      }
      ws_consume(s, ws_avail(s));
    }
    int r = ws_ensure(s, 5);
    if (r < 0) return -1;
    if (ws_avail(s) >= 5 && memcmp(s->out + s->start, "WARC/", 5) == 0) return 1;
    if (r == 0 && ws_avail(s) == 0) return 0;
  }
}

/* ------------------------------------------------------------ headers */

enum { LINE_MAX_BYTES = 16384, HEAD_MAX_BYTES = 262144 };

typedef struct whead {
  uint64_t clen;
  int has_clen, is_response;
  int is_resource; /* WARC-Type resource: the block is the document itself */
  int http_block;  /* Content-Type application/http: the block must be HTTP */
  tbk_wrec type;   /* what a record of its WARC-Type is skipped as */
  tbk_buf uri;     /* owned */
  tbk_buf ctype;   /* owned; the WARC Content-Type value as written */
  /* owned; WARC-Record-ID and WARC-Date as written (the first of each),
   * kept for the trace of the pages listed; has_*: present */
  tbk_buf id, date;
  int has_id, has_date;
} whead;

typedef struct hhead {
  int status;      /* 0 when the block is not an HTTP response */
  tbk_buf ctype;   /* owned; media type, lower-case, no parameters */
  tbk_buf charset; /* owned; "" when none */
  tbk_buf cenc;    /* owned; Content-Encoding, lower-case, trimmed */
  int has_ctype, chunked;
} hhead;

/* Empty b for the next record. The text stays NUL-terminated: a reader of
 * b->data must never see the previous record's value (a "br" once made
 * every later record unreadable). */
static void buf_clear(tbk_buf *b) {
  b->len = 0;
  if (b->data) b->data[0] = '\0';
}

static void trim(const char **s, size_t *n) {
  while (*n && isspace((unsigned char)**s)) (*s)++, (*n)--;
  while (*n && isspace((unsigned char)(*s)[*n - 1])) (*n)--;
}

/* Split "Name: value" (line without its end) into name/value. */
static int split_field(const char *l, size_t n, const char **name, size_t *nn, const char **val, size_t *vn) {
  const char *c = memchr(l, ':', n);
  if (!c) return -1;
  *name = l;
  *nn = (size_t)(c - l);
  trim(name, nn);
  *val = c + 1;
  *vn = n - (size_t)(c + 1 - l);
  trim(val, vn);
  return 0;
}

static int name_is(const char *name, size_t nn, const char *want) {
  return nn == strlen(want) && strncasecmp(name, want, nn) == 0;
}

static int parse_u64(const char *v, size_t n, uint64_t *out) {
  if (n == 0 || n > 19) return -1;
  uint64_t x = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] < '0' || v[i] > '9') return -1;
    x = x * 10 + (uint64_t)(v[i] - '0');
  }
  *out = x;
  return 0;
}

static size_t line_body(const tbk_buf *line) {
  size_t n = line->len;
  if (n && line->data[n - 1] == '\n') n--;
  /* "\r\r\n" too: some writers end every line so (a blank "\r\r\n" line
   * ends the header, not the file). */
  while (n && line->data[n - 1] == '\r') n--;
  return n;
}

/* The WARC-Type's reason to skip a record of it. */
static tbk_wrec type_reason(const char *v, size_t n) {
  static const struct {
    const char *name;
    tbk_wrec why;
  } types[] = {{"request", TBK_WREC_REQUEST},       {"metadata", TBK_WREC_METADATA},
               {"warcinfo", TBK_WREC_WARCINFO},     {"revisit", TBK_WREC_REVISIT},
               {"conversion", TBK_WREC_CONVERSION}, {"continuation", TBK_WREC_CONTINUATION}};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (n == strlen(types[i].name) && strncasecmp(v, types[i].name, n) == 0) return types[i].why;
  return TBK_WREC_OTHER_TYPE;
}

/* A header line "Name: value" whose name is want, spelt with no blank
 * before the colon: its value into to, trimmed as the trace has always
 * trimmed it (blanks and tabs before, CR, blanks, tabs and NULs after),
 * so the trace keys stay what reading the head again gave. */
static int keep_raw_field(const tbk_buf *line, const char *want, tbk_buf *to, int *has) {
  size_t nl = strlen(want), n = line->len;
  if (*has || n <= nl || strncasecmp(line->data, want, nl) != 0 || line->data[nl] != ':') return 0;
  if (line->data[n - 1] == '\n') n--;
  const char *v = line->data + nl + 1, *ve = line->data + n;
  while (v < ve && (*v == ' ' || *v == '\t')) v++;
  while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\0')) ve--;
  *has = 1;
  buf_clear(to);
  return tbk_buf_append(to, v, (size_t)(ve - v)) || tbk_buf_append(to, "", 0) ? -1 : 0;
}

/* Reads a WARC header block whose "WARC/" is next in the stream.
 * 1 ok, -1 stream error, -2 malformed (why). */
static int read_whead(wstream *s, whead *h, tbk_buf *line, const char **why) {
  h->clen = 0;
  h->has_clen = h->is_response = h->is_resource = h->http_block = 0;
  h->has_id = h->has_date = 0;
  h->type = TBK_WREC_OTHER_TYPE;
  buf_clear(&h->uri);
  buf_clear(&h->ctype);
  size_t total = 0;
  int first = 1;
  for (;;) {
    long r = ws_getline(s, line, LINE_MAX_BYTES);
    if (r < 0) return -1;
    if (r == 0 || line->data[line->len - 1] != '\n') {
      *why = r == 0 || (size_t)r < LINE_MAX_BYTES ? "WARC header cut off by end of file" : "WARC header line too long";
      return -2;
    }
    total += line->len;
    if (total > HEAD_MAX_BYTES) {
      *why = "WARC header too long";
      return -2;
    }
    size_t n = line_body(line);
    if (first) {
      first = 0;
      continue; /* the version line, checked by the caller */
    }
    if (n == 0) break;
    if (line->data[0] == ' ' || line->data[0] == '\t') continue; /* folded */
    if (keep_raw_field(line, "WARC-Record-ID", &h->id, &h->has_id) ||
        keep_raw_field(line, "WARC-Date", &h->date, &h->has_date))
      return ws_fail(s, WE_NOMEM, "out of memory");
    const char *name, *val;
    size_t nn, vn;
    if (split_field(line->data, n, &name, &nn, &val, &vn)) continue;
    if (name_is(name, nn, "WARC-Type")) {
      h->is_response = vn == 8 && strncasecmp(val, "response", 8) == 0;
      h->is_resource = vn == 8 && strncasecmp(val, "resource", 8) == 0;
      h->type = type_reason(val, vn);
    } else if (name_is(name, nn, "WARC-Target-URI")) {
      /* Some writers follow the WARC 1.0 grammar's <uri> literally. */
      if (vn >= 2 && val[0] == '<' && val[vn - 1] == '>') val++, vn -= 2;
      buf_clear(&h->uri);
      if (tbk_buf_append(&h->uri, val, vn)) return ws_fail(s, WE_NOMEM, "out of memory");
    } else if (name_is(name, nn, "Content-Type")) {
      h->http_block = vn >= 16 && strncasecmp(val, "application/http", 16) == 0;
      buf_clear(&h->ctype);
      if (tbk_buf_append(&h->ctype, val, vn)) return ws_fail(s, WE_NOMEM, "out of memory");
    } else if (name_is(name, nn, "Content-Length")) {
      if (parse_u64(val, vn, &h->clen)) {
        *why = "WARC header has a bad Content-Length";
        return -2;
      }
      h->has_clen = 1;
    }
  }
  if (!h->has_clen) {
    *why = "WARC header has no Content-Length";
    return -2;
  }
  if (tbk_buf_append(&h->uri, "", 0)) return ws_fail(s, WE_NOMEM, "out of memory");
  return 1;
}

static int set_lower(tbk_buf *b, const char *s, size_t n) {
  b->len = 0;
  if (tbk_buf_append(b, s, n)) return -1;
  for (size_t i = 0; i < n; i++) b->data[i] = (char)tolower((unsigned char)b->data[i]);
  return 0;
}

/* Content-Type value -> media type and charset parameter. Charset names
 * are kept only when made of the characters IANA names use. */
static int parse_ctype(hhead *h, const char *v, size_t n) {
  const char *semi = memchr(v, ';', n);
  size_t tn = semi ? (size_t)(semi - v) : n;
  const char *t = v;
  trim(&t, &tn);
  if (set_lower(&h->ctype, t, tn)) return -1;
  h->has_ctype = 1;
  buf_clear(&h->charset);
  while (semi) {
    const char *p = semi + 1;
    size_t rest = n - (size_t)(p - v);
    semi = memchr(p, ';', rest);
    size_t pn = semi ? (size_t)(semi - p) : rest;
    trim(&p, &pn);
    if (pn > 8 && strncasecmp(p, "charset=", 8) == 0) {
      const char *c = p + 8;
      size_t cn = pn - 8;
      if (cn >= 2 && (c[0] == '"' || c[0] == '\'') && c[cn - 1] == c[0]) c++, cn -= 2;
      trim(&c, &cn);
      int ok = cn > 0 && cn <= 40;
      for (size_t i = 0; ok && i < cn; i++) ok = isalnum((unsigned char)c[i]) || strchr("-_.:+()", c[i]);
      if (ok && tbk_buf_append(&h->charset, c, cn)) return -1;
      break;
    }
  }
  return 0;
}

/* "HTTP/1.1 200 OK", "HTTP/2 200": the status code, or -1 when the line
 * is not a status line. The code must stand alone ("2000" is no status). */
static int parse_status(const char *l, size_t n) {
  size_t i = 5;
  if (n < 5 || strncmp(l, "HTTP/", 5) != 0) return -1;
  if (i >= n || !isdigit((unsigned char)l[i])) return -1;
  while (i < n && isdigit((unsigned char)l[i])) i++;
  if (i < n && l[i] == '.') {
    i++;
    if (i >= n || !isdigit((unsigned char)l[i])) return -1;
    while (i < n && isdigit((unsigned char)l[i])) i++;
  }
  if (i + 4 > n || l[i] != ' ') return -1;
  const char *c = l + i + 1;
  if (!isdigit((unsigned char)c[0]) || !isdigit((unsigned char)c[1]) || !isdigit((unsigned char)c[2]) ||
      (i + 4 < n && c[3] != ' ' && c[3] != '\t'))
    return -1;
  return (c[0] - '0') * 100 + (c[1] - '0') * 10 + (c[2] - '0');
}

/* Reads the HTTP status line and header of a response block, consuming
 * from *remaining. 1 ok (status 0 = not HTTP), -1 stream error,
 * -2 malformed (why), -3 a bad status line (why; the line is in line). A first line that starts like HTTP ("HTTP", any
 * case) or a block declared application/http must hold a status line. */
static int read_hhead(wstream *s, uint64_t *remaining, hhead *h, int http_block, tbk_buf *line, const char **why) {
  h->status = 0;
  h->has_ctype = h->chunked = 0;
  buf_clear(&h->ctype);
  buf_clear(&h->charset);
  buf_clear(&h->cenc);
  size_t total = 0;
  int first = 1;
  for (;;) {
    size_t limit = LINE_MAX_BYTES;
    if ((uint64_t)limit > *remaining) limit = (size_t)*remaining;
    if (limit == 0) {
      if (first) return 1; /* empty block */
      *why = "HTTP header not terminated inside the record";
      return -2;
    }
    long r = ws_getline(s, line, limit);
    if (r < 0) return -1;
    if (r == 0) {
      *why = "record cut off by end of file";
      return -2;
    }
    *remaining -= line->len;
    total += line->len;
    if (line->data[line->len - 1] != '\n') {
      if (first && !http_block && strncasecmp(line->data, "HTTP", line->len < 4 ? line->len : 4) != 0)
        return 1; /* not HTTP; caller skips the rest */
      if (first) {
        *why = "malformed HTTP status line (no line end inside the record)";
        return -3;
      }
      *why = (size_t)r == LINE_MAX_BYTES ? "HTTP header line too long" : "HTTP header not terminated inside the record";
      return -2;
    }
    if (total > HEAD_MAX_BYTES) {
      *why = "HTTP header too long";
      return -2;
    }
    size_t n = line_body(line);
    if (first) {
      first = 0;
      const char *l = line->data;
      int status = parse_status(l, n);
      if (status < 0) {
        if (!http_block && (n < 4 || strncasecmp(l, "HTTP", 4) != 0)) return 1;
        *why = "malformed HTTP status line";
        return -3;
      }
      h->status = status;
      continue;
    }
    if (n == 0) return 1;
    if (line->data[0] == ' ' || line->data[0] == '\t') continue;
    const char *name, *val;
    size_t nn, vn;
    if (split_field(line->data, n, &name, &nn, &val, &vn)) continue;
    int oom = 0;
    if (name_is(name, nn, "Content-Type") && !h->has_ctype) {
      oom = parse_ctype(h, val, vn);
    } else if (name_is(name, nn, "Transfer-Encoding")) {
      for (size_t i = 0; i + 7 <= vn; i++)
        if (strncasecmp(val + i, "chunked", 7) == 0) h->chunked = 1;
    } else if (name_is(name, nn, "Content-Encoding")) {
      oom = set_lower(&h->cenc, val, vn);
    }
    if (oom) return ws_fail(s, WE_NOMEM, "out of memory");
  }
}

/* The start of a line, printable: for a message. */
static const char *quote_line(char *buf, size_t n, const tbk_buf *line) {
  size_t k = line_body(line), i = 0, j = 0;
  for (; i < k && j + 4 < n; i++) {
    unsigned char c = (unsigned char)line->data[i];
    buf[j++] = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? (char)c : '?';
  }
  if (i < k) buf[j++] = '.', buf[j++] = '.', buf[j++] = '.';
  buf[j] = '\0';
  return buf;
}

static void hhead_free(hhead *h) {
  tbk_buf_free(&h->ctype);
  tbk_buf_free(&h->charset);
  tbk_buf_free(&h->cenc);
}

static int is_html_type(const hhead *h) {
  const char *t = h->ctype.data;
  return t && (strcmp(t, "text/html") == 0 || strcmp(t, "application/xhtml+xml") == 0);
}

/* A Content-Type that says nothing about the document ("", octet-stream,
 * unknown): its body is sniffed, as one without a Content-Type. */
static int is_generic_type(const hhead *h) {
  static const char *const generic[] = {"",
                                        "application/octet-stream",
                                        "binary/octet-stream",
                                        "application/unknown",
                                        "application/x-unknown",
                                        "application/x-unknown-content-type",
                                        "unknown/unknown",
                                        "content/unknown",
                                        "unknown",
                                        "*/*",
                                        "none",
                                        "application/binary"};
  const char *t = h->ctype.data ? h->ctype.data : "";
  for (size_t i = 0; i < sizeof generic / sizeof *generic; i++)
    if (strcmp(t, generic[i]) == 0) return 1;
  return 0;
}

/* 0 none, 1 gzip, 2 deflate, -1 unsupported. */
static int encoding_kind(const hhead *h) {
  const char *e = h->cenc.data;
  if (!e || !*e || strcmp(e, "identity") == 0) return 0;
  if (strcmp(e, "gzip") == 0 || strcmp(e, "x-gzip") == 0) return 1;
  if (strcmp(e, "deflate") == 0) return 2;
  return -1;
}

/* ------------------------------------------------------- body decoder */

/* Push decoder: chunked framing, then Content-Encoding, then out. It is
 * lenient where crawlers are sloppy: a body labelled chunked or gzip that is
 * not (because the crawler already decoded it) passes through unchanged, and
 * a body cut short keeps what was decoded. */
enum { CS_PROBE, CS_SIZE, CS_LINE, CS_DATA, CS_DATA_END, CS_DONE };

typedef struct bdec {
  int chunked; /* framing declared */
  int cst;
  int cdigits;
  uint64_t crem;
  unsigned char cprobe[64];
  size_t ncprobe;
  int enc;   /* declared: 0 none, 1 gzip, 2 deflate */
  int zmode; /* -1 undecided, 0 pass through, 1 inflating, 2 finished */
  z_stream z;
  int z_ready;
  unsigned char eprobe[2];
  size_t neprobe;
  tbk_buf *out;
  size_t max, stop_at;
  int full, over, nomem;
  const char *bad;
} bdec;

static void bdec_init(bdec *d, int chunked, int enc, tbk_buf *out, size_t max, size_t stop_at) {
  memset(d, 0, sizeof *d);
  d->chunked = chunked;
  d->cst = chunked ? CS_PROBE : CS_DONE;
  d->enc = enc;
  d->zmode = -1;
  d->out = out;
  d->max = max;
  d->stop_at = stop_at;
}

static void bdec_end(bdec *d) {
  if (d->z_ready) inflateEnd(&d->z);
  d->z_ready = 0;
}

static int bdec_stopped(const bdec *d) { return d->full || d->over || d->nomem || d->bad; }

static void sink(bdec *d, const unsigned char *p, size_t n) {
  if (bdec_stopped(d) || n == 0) return;
  if (d->stop_at && d->out->len + n >= d->stop_at) {
    n = d->stop_at - d->out->len;
    d->full = 1;
  }
  if (d->max && d->out->len + n > d->max) {
    d->over = 1;
    return;
  }
  if (tbk_buf_append(d->out, p, n)) d->nomem = 1;
}

static void inflate_feed(bdec *d, const unsigned char *p, size_t n) {
  unsigned char buf[16384];
  d->z.next_in = (unsigned char *)p;
  d->z.avail_in = (uInt)n;
  while (!bdec_stopped(d) && d->zmode == 1) {
    d->z.next_out = buf;
    d->z.avail_out = sizeof buf;
    int r = inflate(&d->z, Z_NO_FLUSH);
    size_t got = sizeof buf - d->z.avail_out;
    sink(d, buf, got);
    if (r == Z_STREAM_END) {
      d->zmode = 2; /* bytes after the stream end are ignored */
      break;
    }
    if (r == Z_MEM_ERROR) {
      d->nomem = 1;
      break;
    }
    if (r != Z_OK && r != Z_BUF_ERROR) {
      d->bad = d->enc == 1   ? "corrupt gzip Content-Encoding"
               : d->enc == 2 ? "corrupt deflate Content-Encoding"
                             : "corrupt compressed body (no Content-Encoding declared)";
      break;
    }
    if (got == 0 && d->z.avail_in == 0) break;
  }
}

static void enc_start(bdec *d) {
  const unsigned char *e = d->eprobe;
  int gzip = d->neprobe == 2 && e[0] == 0x1f && e[1] == 0x8b;
  int zlib = d->neprobe == 2 && (e[0] & 0x0f) == 8 && ((e[0] << 8) | e[1]) % 31 == 0;
  int text = d->neprobe == 0 || e[0] == '<' || isspace(e[0]) || e[0] == 0xef || e[0] == 0xfe || e[0] == 0xff ||
             (d->neprobe == 2 && isprint(e[0]) && (isprint(e[1]) || isspace(e[1])));
  /* The bytes decide, not the header: a gzip or zlib stream is inflated
   * whatever the record declares (a lying or missing Content-Encoding must
   * not hand compressed bytes on as text), text passes through (a crawler
   * that decoded the body but kept the header), and other bytes under a
   * declared encoding are taken for raw deflate. */
  int wbits = gzip ? 15 + 16 : zlib && !text ? 15 : 0;
  if (d->enc && !wbits) wbits = zlib ? 15 : text ? 0 : -15;
  d->zmode = 0;
  if (wbits) {
    memset(&d->z, 0, sizeof d->z);
    if (inflateInit2(&d->z, wbits) != Z_OK) {
      d->nomem = 1;
      return;
    }
    d->z_ready = 1;
    d->zmode = 1;
  }
  unsigned char tmp[2];
  memcpy(tmp, d->eprobe, d->neprobe);
  size_t k = d->neprobe;
  d->neprobe = 0;
  if (d->zmode == 1) inflate_feed(d, tmp, k);
  else sink(d, tmp, k);
}

static void enc_feed(bdec *d, const unsigned char *p, size_t n) {
  while (n && d->zmode == -1) {
    d->eprobe[d->neprobe++] = *p++;
    n--;
    if (d->neprobe == 2) enc_start(d);
  }
  if (!n || bdec_stopped(d)) return;
  if (d->zmode == 0) sink(d, p, n);
  else if (d->zmode == 1) inflate_feed(d, p, n);
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = tolower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void chunk_run(bdec *d, const unsigned char *p, size_t n) {
  while (n && !bdec_stopped(d)) {
    switch (d->cst) {
    case CS_SIZE: {
      int v = hexval(*p);
      if (v >= 0) {
        if (++d->cdigits > 15) {
          d->bad = "malformed chunked Transfer-Encoding (chunk size too large)";
          return;
        }
        d->crem = d->crem * 16 + (uint64_t)v;
      } else if (d->cdigits == 0) {
        d->bad = "malformed chunked Transfer-Encoding (no chunk size)";
        return;
      } else {
        d->cst = CS_LINE;
        continue; /* this byte may be the line's '\n' */
      }
      p++, n--;
      break;
    }
    case CS_LINE:
      if (*p == '\n') d->cst = d->crem ? CS_DATA : CS_DONE;
      p++, n--;
      break;
    case CS_DATA: {
      size_t k = (uint64_t)n < d->crem ? n : (size_t)d->crem;
      enc_feed(d, p, k);
      p += k, n -= k;
      d->crem -= k;
      if (d->crem == 0) d->cst = CS_DATA_END;
      break;
    }
    case CS_DATA_END:
      if (*p == '\n') {
        d->cst = CS_SIZE;
        d->cdigits = 0;
      } else if (*p != '\r') {
        d->bad = "malformed chunked Transfer-Encoding (chunk longer than its size)";
        return;
      }
      p++, n--;
      break;
    default: /* CS_DONE: trailer fields, ignored */ return;
    }
  }
}

/* A body is chunked only if its first line is a chunk-size line. */
static void chunk_decide(bdec *d, int at_end) {
  const unsigned char *c = d->cprobe;
  size_t n = d->ncprobe, i = 0;
  while (i < n && hexval(c[i]) >= 0) i++;
  const unsigned char *nl = memchr(c, '\n', n);
  int ok = i > 0 && i <= 15 && nl && (c[i] == '\r' || c[i] == '\n' || c[i] == ';' || c[i] == ' ' || c[i] == '\t');
  if (!nl && !at_end && n < sizeof d->cprobe) return; /* undecided */
  d->ncprobe = 0;
  if (ok) {
    d->cst = CS_SIZE;
    chunk_run(d, c, n);
  } else {
    d->cst = CS_DONE;
    d->chunked = 0;
    enc_feed(d, c, n);
  }
}

static void bdec_feed(bdec *d, const unsigned char *p, size_t n) {
  while (n && d->cst == CS_PROBE) {
    d->cprobe[d->ncprobe++] = *p++;
    n--;
    chunk_decide(d, 0);
  }
  if (!n || bdec_stopped(d)) return;
  if (d->chunked) chunk_run(d, p, n);
  else enc_feed(d, p, n);
}

static void bdec_finish(bdec *d) {
  if (d->cst == CS_PROBE) chunk_decide(d, 1);
  if (d->zmode == -1 && !bdec_stopped(d)) enc_start(d);
}

/* Decode up to `remaining` block bytes from the stream. 1 ok, 0 block cut
 * off by end of file, -1 stream error. */
static int decode_block(wstream *s, uint64_t *remaining, bdec *d) {
  while (*remaining && !bdec_stopped(d)) {
    if (ws_avail(s) == 0) {
      int r = ws_fill(s);
      if (r <= 0) return r;
    }
    size_t k = ws_avail(s);
    if ((uint64_t)k > *remaining) k = (size_t)*remaining;
    bdec_feed(d, s->out + s->start, k);
    ws_consume(s, k);
    *remaining -= k;
  }
  bdec_finish(d);
  return 1;
}

/* Does the decoded body start like markup (after a BOM and blanks)? */
static int sniff_html(const tbk_buf *b) {
  const unsigned char *p = (const unsigned char *)b->data;
  size_t n = b->len, i = 0;
  if (n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff))) {
    for (i = 2; i + 1 < n; i += 2) {
      unsigned c = p[0] == 0xff ? p[i] | (p[i + 1] << 8) : (p[i] << 8) | p[i + 1];
      if (c == '<') return 1;
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return 0;
    }
    return 0;
  }
  if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) i = 3;
  while (i < n && isspace(p[i])) i++;
  return i < n && p[i] == '<';
}

/* ------------------------------------------------------------ reasons */

static const char *const wrec_names[TBK_WREC_N] = {
    [TBK_WREC_RESPONSE] = "response html",
    [TBK_WREC_SNIFFED] = "html sniffed (no or a generic content type)",
    [TBK_WREC_RESOURCE] = "resource html",
    [TBK_WREC_STATUS_READ] = "response html, status",
    [TBK_WREC_SHORT] = "recovered: content-length short",
    [TBK_WREC_CUT] = "recovered: cut off in a truncated gzip member",
    [TBK_WREC_STATUS] = "status",
    [TBK_WREC_NOT_HTML_TEXT] = "not html: text",
    [TBK_WREC_NOT_HTML_IMAGE] = "not html: image",
    [TBK_WREC_NOT_HTML_SCRIPT] = "not html: script or json",
    [TBK_WREC_NOT_HTML_APP] = "not html: application",
    [TBK_WREC_NOT_HTML_MEDIA] = "not html: audio, video or font",
    [TBK_WREC_NOT_HTML_OTHER] = "not html: other type",
    [TBK_WREC_NOT_MARKUP] = "not html: no or a generic type, not markup",
    [TBK_WREC_NOT_HTTP] = "not http (response block)",
    [TBK_WREC_REQUEST] = "request record",
    [TBK_WREC_METADATA] = "metadata record",
    [TBK_WREC_WARCINFO] = "warcinfo record",
    [TBK_WREC_REVISIT] = "revisit record",
    [TBK_WREC_CONVERSION] = "conversion record",
    [TBK_WREC_CONTINUATION] = "continuation record",
    [TBK_WREC_OTHER_TYPE] = "other or no warc-type",
    [TBK_WREC_NO_URI] = "damaged: no warc-target-uri",
    [TBK_WREC_BAD_HEAD] = "damaged: warc header",
    [TBK_WREC_BAD_HTTP] = "damaged: http head",
    [TBK_WREC_ENCODING] = "unsupported content-encoding",
    [TBK_WREC_LENGTH] = "damaged: content-length",
    [TBK_WREC_TOO_BIG] = "over max-record-bytes",
    [TBK_WREC_TRUNCATED] = "damaged: truncated",
    [TBK_WREC_CORRUPT] = "damaged: corrupt gzip",
    [TBK_WREC_JUNK] = "damaged: not a record header",
    [TBK_WREC_LISTED_TWICE] = "listed twice",
    [TBK_WREC_DUP_CAPTURE] = "duplicate capture",
    [TBK_WREC_PAGE_FAILED] = "page unreadable",
};

int tbk_wrec_is_read(tbk_wrec r) { return r <= TBK_WREC_CUT; }

const char *tbk_wrec_name(tbk_wrec r) { return (unsigned)r < TBK_WREC_N ? wrec_names[r] : "?"; }

void tbk_warc_counts_add(tbk_warc_counts *to, const tbk_warc_counts *from) {
  for (size_t i = 0; i < TBK_WREC_N; i++) to->n[i] += from->n[i];
  for (size_t i = 0; i < 1000; i++) {
    to->status[i] += from->status[i];
    to->status_read[i] += from->status_read[i];
  }
}

void tbk_warc_filter_init(tbk_warc_filter *f, size_t max_record_bytes) {
  memset(f, 0, sizeof *f);
  f->max_record_bytes = max_record_bytes;
  f->status[200 / 8] |= 1u << (200 % 8);
}

int tbk_warc_filter_takes(const tbk_warc_filter *f, int status) {
  if (f->any_status) return 1;
  return status >= 0 && status < 1000 && (f->status[status / 8] >> (status % 8) & 1);
}

/* A media type that is not HTML, by its class. */
static tbk_wrec not_html_class(const char *t) {
  if (!t || !*t) return TBK_WREC_NOT_MARKUP;
  if (strstr(t, "javascript") || strstr(t, "json") || strstr(t, "ecmascript")) return TBK_WREC_NOT_HTML_SCRIPT;
  if (strncmp(t, "text/", 5) == 0) return TBK_WREC_NOT_HTML_TEXT;
  if (strncmp(t, "image/", 6) == 0) return TBK_WREC_NOT_HTML_IMAGE;
  if (strncmp(t, "application/", 12) == 0) return TBK_WREC_NOT_HTML_APP;
  if (strncmp(t, "audio/", 6) == 0 || strncmp(t, "video/", 6) == 0 || strncmp(t, "font/", 5) == 0)
    return TBK_WREC_NOT_HTML_MEDIA;
  return TBK_WREC_NOT_HTML_OTHER;
}

/* ------------------------------------------------------------ listing */

int tbk_warc_name(const char *path) {
  size_t n = strlen(path);
  return (n >= 5 && strcasecmp(path + n - 5, ".warc") == 0) || (n >= 8 && strcasecmp(path + n - 8, ".warc.gz") == 0);
}

/* A record listed but not yet committed: it is kept only once the bytes
 * after its block prove its Content-Length right (a "WARC/" line or the end
 * of the file follows). */
typedef struct pending {
  int has;
  uint64_t off, skip, clen;
  uint64_t length;                /* the block's length when its Content-Length was short, else 0 */
  tbk_buf uri, charset, id, date; /* owned */
  int has_id, has_date;
  tbk_wrec why;
  int status;
} pending;

/* Where the last record began, so a lying Content-Length can be undone. */
typedef struct recpos {
  int has, rescanned;
  uint64_t off, skip; /* as ws_tell */
  uint64_t u;         /* the stream's offset then */
} recpos;

/* The state of one listing, shared by the steps below. */
typedef struct lister {
  const char *path;
  const tbk_warc_filter *filter;
  size_t max_record_bytes;
  tbk_warc_counts *counts; /* owned by the caller; never NULL here */
  /* The record being read: not yet counted (in_rec), why it would be
   * counted now, its HTTP status, where its block starts (stream offset). */
  int in_rec, status, would_keep;
  tbk_wrec why;
  uint64_t rec_u, block_u, body_u;
  uint64_t last_counted_off; /* the member of the last record counted, +1 (0: none) */
  tbk_warc_record_fn on_record;
  void *rctx;
  tbk_warn_fn warn;
  void *ctx;
  size_t *skipped;
  size_t html;
  wstream *s;          /* owned; replaced when a record is read again */
  pending p;           /* owned buffers */
  whead h;             /* the current record's WARC head (owned) */
  hhead hh;            /* its HTTP head (owned) */
  tbk_buf line, sniff; /* scratch (owned) */
  size_t records;
  recpos last;
  uint64_t rescan_spent;
  uint64_t off, skip; /* where the current record starts */
  char pbuf[64];      /* for POS */
  tbk_status st;      /* with STEP_FAIL */
  tbk_error *err;
} lister;

/* What a step of the listing leads to. */
enum step {
  STEP_NEXT,   /* on to the next record */
  STEP_END,    /* nothing more can be read */
  STEP_STREAM, /* the stream failed: L->s->ekind says how */
  STEP_NOMEM,
  STEP_FAIL /* L->st and *L->err are set */
};

static void lsay(lister *L, int skip, const char *fmt, va_list ap) {
  if (skip) (*L->skipped)++;
  if (!L->warn) return;
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  L->warn(L->ctx, L->path, msg);
}

/* A warning about something skipped (counted). */
static void lwarn(lister *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lwarn(lister *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lsay(L, 1, fmt, ap);
  va_end(ap);
}

/* A warning about something recovered (not a skip). */
static void lrecovered(lister *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lrecovered(lister *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lsay(L, 0, fmt, ap);
  va_end(ap);
}

/* "offset X" for plain WARC and member starts; "offset X+Y" when the record
 * lies Y decompressed bytes into the gzip member at X. */
static const char *pos_str(char *buf, size_t n, uint64_t off, uint64_t skip) {
  if (skip) snprintf(buf, n, "offset %" PRIu64 "+%" PRIu64, off, skip);
  else snprintf(buf, n, "offset %" PRIu64, off);
  return buf;
}
#define POS(L, o, k) pos_str((L)->pbuf, sizeof(L)->pbuf, (o), (k))

/* Count a record once: the one being read (cur), or another (a pending
 * one). */
static void count_as(lister *L, tbk_wrec why, int status, uint64_t off) {
  L->counts->n[why]++;
  if (why == TBK_WREC_STATUS && status >= 0 && status < 1000) L->counts->status[status]++;
  if (why == TBK_WREC_STATUS_READ && status >= 0 && status < 1000) L->counts->status_read[status]++;
  L->last_counted_off = off + 1;
}

static void count_cur(lister *L, tbk_wrec why) {
  if (!L->in_rec) return;
  L->in_rec = 0;
  count_as(L, why, L->status, L->off);
}

static int commit(lister *L, pending *p) {
  if (!p->has) return 0;
  p->has = 0;
  tbk_wrec why = p->length && p->why != TBK_WREC_CUT ? TBK_WREC_SHORT : p->why;
  count_as(L, why, p->status, p->off);
  tbk_warc_entry e = {p->uri.data,
                      p->charset.len ? p->charset.data : NULL,
                      p->has_id ? p->id.data : NULL,
                      p->has_date ? p->date.data : NULL,
                      p->off,
                      p->skip,
                      p->length,
                      why,
                      p->status};
  int r = L->on_record(L->rctx, &e);
  if (r == 0) L->html++;
  return r;
}

/* A pending page proved wrong by the bytes after it: counted, not listed. */
static void drop_pending(lister *L, pending *p) {
  if (!p->has) return;
  p->has = 0;
  count_as(L, TBK_WREC_LENGTH, p->status, p->off);
}

/* Re-reading a gzip stream costs inflating it again; a file gets this many
 * decompressed bytes of it (plain files seek, so re-reading is linear). */
enum { RESCAN_BUDGET = 256u << 20 };

/* A page whose Content-Length falls at most this many bytes short of the
 * next record header is read to that header (the record separator left
 * out) instead of skipped. */
enum { SHORT_RECOVER = 4096 };

/* A Content-Length lied: read again from the start of that record and stop
 * at the next "WARC/" line, the record the lie swallowed. 1 found, 0 end of
 * file, -1 error (in the current stream), -2 not tried (done before for this
 * record, or over budget): the caller carries on forward. */
static int rescan(lister *L) {
  wstream *s = L->s;
  recpos *at = &L->last;
  if (!at->has || at->rescanned) return -2;
  if (s->gz) {
    uint64_t cost = at->skip + (s->u > at->u ? s->u - at->u : 0);
    if (cost > RESCAN_BUDGET - L->rescan_spent) return -2;
    L->rescan_spent += cost;
  }
  at->rescanned = 1;
  wstream *n;
  tbk_error e;
  if (ws_open(L->path, at->off, 0, &n, &e) != TBK_OK)
    return ws_fail(s, e.code == TBK_ERR_NOMEM ? WE_NOMEM : WE_IO, "%s", e.msg);
  ws_free(s);
  L->s = n;
  int r = ws_skip(n, at->skip);
  return r <= 0 ? r : ws_resync_line(n);
}

/* A Content-Length lied: the block ended `landing` bytes after the start
 * of the last record where no record starts (UINT64_MAX: past the end of
 * the file). Read again from that record to the next record header and say
 * in one warning what was wrong: the length ran past that header, or fell
 * short of it, or nothing follows. 1 resynchronised, 0 end of file, -1 error. */
static int resync_after_lie(lister *L, const char *uri, uint64_t clen, uint64_t landing, int page, uint64_t *gap) {
  char where[64], next[64];
  pos_str(where, sizeof where, L->last.off, L->last.skip);
  int r = rescan(L);
  if (r == -2) {
    lwarn(L, "record at %s (%s): Content-Length %" PRIu64 " %s; skipping to the next record header%s", where, uri, clen,
          landing == UINT64_MAX ? "runs past the end of the file" : "does not end at a record boundary",
          page ? " (record skipped)" : "");
    return landing == UINT64_MAX ? 0 : ws_resync_line(L->s);
  }
  if (r < 0) return -1;
  if (r == 0) {
    lwarn(L, "record at %s (%s): Content-Length %" PRIu64 " %s, and no record header follows%s", where, uri, clen,
          landing == UINT64_MAX ? "runs past the end of the file" : "does not end at a record boundary",
          page ? "; record skipped" : "");
    return 0;
  }
  wstream *s = L->s;
  uint64_t found = s->u - (s->gz ? L->last.skip : L->last.off), off, skip;
  ws_tell(s, &off, &skip);
  pos_str(next, sizeof next, off, skip);
  if (found < landing)
    lwarn(L,
          "record at %s (%s): Content-Length %" PRIu64 " runs past the next record header (%s)%s; reading on "
          "from there",
          where, uri, clen, next, page ? "; record skipped" : "");
  else if (page && gap && found - landing <= SHORT_RECOVER) {
    *gap = found - landing;
    lrecovered(L,
               "record at %s (%s): Content-Length %" PRIu64 " ends %" PRIu64 " bytes short of the next "
               "record header (%s); its block is read to there (record kept)",
               where, uri, clen, found - landing, next);
  } else
    lwarn(L,
          "record at %s (%s): Content-Length %" PRIu64 " ends %" PRIu64 " bytes short of the next record "
          "header (%s)%s; reading on from there",
          where, uri, clen, found - landing, next, page ? "; record skipped" : "");
  return 1;
}

/* Past the CR and LF bytes before a record; *lf counts the LFs. */
static int skip_newlines(wstream *s, size_t *lf) {
  *lf = 0;
  for (;;) {
    if (ws_avail(s) == 0) {
      int r = ws_fill(s);
      if (r <= 0) return r;
    }
    unsigned char c = s->out[s->start];
    if (c != '\r' && c != '\n') return 1;
    *lf += c == '\n';
    ws_consume(s, 1);
  }
}

/* No "WARC/" where a record should start: the Content-Length before lied
 * (read that record again) or the file is damaged here (skip to the next
 * "WARC/" line). trailer: the last record's block was followed by its
 * "\r\n\r\n" (two line ends at least), so its length was right and the
 * damage is here: that record is kept. */
static enum step not_a_record(lister *L, int trailer) {
  if (L->records == 0 && L->off == 0 && L->skip == 0) {
    L->st = tbk_fail(L->err, TBK_ERR_FORMAT, "not a WARC file (does not start with \"WARC/\")");
    return STEP_FAIL;
  }
  pending *p = &L->p;
  int r;
  if (L->last.has && !L->last.rescanned && trailer) {
    /* Blank lines before the damage look like the record's trailer, but a
     * length that overstates its block can land on the blank line that ends
     * the next record's WARC or HTTP head: re-read from the last record, and
     * when a record header starts inside its block, the length lied (resync
     * to that header, the first after the damage, not a later one). */
    uint64_t landing = L->s->u - L->last.u, junk_off = L->off, junk_skip = L->skip;
    r = rescan(L);
    if (r == -1) return STEP_STREAM;
    if (r == 1) {
      wstream *s = L->s;
      uint64_t found = s->u - (s->gz ? L->last.skip : L->last.off);
      if (found < landing) {
        char where[64], next[64];
        uint64_t off, skip;
        ws_tell(s, &off, &skip);
        pos_str(where, sizeof where, L->last.off, L->last.skip);
        pos_str(next, sizeof next, off, skip);
        int page = p->has;
        drop_pending(L, p);
        lwarn(L,
              "record at %s (%s): Content-Length %" PRIu64 " runs past the next record header (%s)%s; "
              "reading on from there",
              where, L->h.uri.len ? L->h.uri.data : "no URI", L->h.clen, next, page ? "; record skipped" : "");
        return STEP_NEXT;
      }
    }
    /* The length was right: the damage is here. Carry on from the header
     * found (the first at or after the damage) or the end of the file. */
    if (commit(L, p)) return STEP_NOMEM;
    count_as(L, TBK_WREC_JUNK, 0, junk_off);
    lwarn(L, "%s: expected a WARC record (\"WARC/\"); skipping to the next one", POS(L, junk_off, junk_skip));
    if (r == 1 || r == 0) return r == 1 ? STEP_NEXT : STEP_END;
    r = ws_resync_line(L->s);
  } else if (L->last.has && !L->last.rescanned && !trailer) {
    /* The pending record, if any, is the last one: its block proved wrong. */
    int page = p->has;
    p->has = 0;
    uint64_t gap = 0;
    r = resync_after_lie(L, L->h.uri.len ? L->h.uri.data : "no URI", L->h.clen, L->s->u - L->last.u, page, &gap);
    if (page) p->has = 1;
    if (r == 1 && gap) p->length = p->clen + gap; /* committed when the header found is read */
    else drop_pending(L, p);
  } else {
    if (commit(L, p)) return STEP_NOMEM;
    count_as(L, TBK_WREC_JUNK, 0, L->off);
    lwarn(L, "%s: expected a WARC record (\"WARC/\"); skipping to the next one", POS(L, L->off, L->skip));
    r = ws_resync_line(L->s);
  }
  return r < 0 ? STEP_STREAM : STEP_NEXT;
}

/* A record over max-record-bytes is skipped. */
static enum step skip_oversized(lister *L) {
  count_cur(L, TBK_WREC_TOO_BIG);
  lwarn(L, "record at %s (%s): record exceeds max-record-bytes (%zu)", POS(L, L->off, L->skip),
        L->h.uri.len ? L->h.uri.data : "no URI", L->max_record_bytes);
  /* A record alone in its member is skipped without inflating it (a
   * decompression bomb costs nothing); the first member may be the only
   * one, so it is read through. */
  int r;
  if (L->s->gz && L->skip == 0 && L->off > 0) r = ws_resync_member(L->s, L->off + 1);
  else if ((r = ws_skip_block(L->s, L->h.clen)) == 0) r = rescan(L);
  if (r == -1) return STEP_STREAM;
  return r == 0 || r == -2 ? STEP_END : STEP_NEXT;
}

/* Read a response's HTTP head (and, without a Content-Type, sniff the start
 * of its body): *keep when it is an HTML page. */
static enum step classify_response(lister *L, uint64_t *remaining, int *keep) {
  const char *why = NULL;
  hhead *hh = &L->hh;
  int r = read_hhead(L->s, remaining, hh, L->h.http_block, &L->line, &why);
  if (r == -1) return STEP_STREAM;
  if (r == -2) {
    L->why = strstr(why, "cut off") ? TBK_WREC_TRUNCATED : TBK_WREC_BAD_HTTP;
    lwarn(L, "record at %s (%s): %s", POS(L, L->off, L->skip), L->h.uri.data, why);
    return STEP_NEXT;
  }
  if (r == -3) {
    L->why = TBK_WREC_BAD_HTTP;
    char q[64];
    lwarn(L, "record at %s (%s): %s \"%s\"; record skipped", POS(L, L->off, L->skip), L->h.uri.data, why,
          quote_line(q, sizeof q, &L->line));
    return STEP_NEXT;
  }
  L->status = hh->status;
  L->body_u = L->s->u;
  if (hh->status == 0) {
    L->why = TBK_WREC_NOT_HTTP;
    return STEP_NEXT;
  }
  int generic = !hh->has_ctype || is_generic_type(hh);
  if (!is_html_type(hh) && !generic) {
    L->why = not_html_class(hh->ctype.data);
    return STEP_NEXT;
  }
  int takes = tbk_warc_filter_takes(L->filter, hh->status);
  L->why = !takes ? TBK_WREC_STATUS : hh->status != 200 ? TBK_WREC_STATUS_READ : TBK_WREC_RESPONSE;
  int enc = encoding_kind(hh);
  if (enc < 0) {
    /* What it would be matters more than that it cannot be decoded. */
    if (!takes) return STEP_NEXT;
    L->why = TBK_WREC_ENCODING;
    lwarn(L, "record at %s (%s): unsupported Content-Encoding \"%s\"", POS(L, L->off, L->skip), L->h.uri.data,
          hh->cenc.data);
  } else if (!generic) {
    *keep = takes;
  } else {
    bdec d;
    L->sniff.len = 0;
    bdec_init(&d, hh->chunked, enc, &L->sniff, 0, 512);
    r = decode_block(L->s, remaining, &d);
    bdec_end(&d);
    int html = sniff_html(&L->sniff);
    if (r < 0) {
      L->would_keep = html && takes; /* a cut record may still be read */
      return STEP_STREAM;
    }
    if (d.nomem) return STEP_NOMEM;
    *keep = r > 0 && html && takes;
    if (!html) L->why = TBK_WREC_NOT_MARKUP;
    else if (takes && hh->status == 200) L->why = TBK_WREC_SNIFFED;
  }
  return STEP_NEXT;
}

/* A resource record's block is the document, typed by the WARC
 * Content-Type: *keep when it is HTML, or says nothing and starts like
 * markup. */
static enum step classify_resource(lister *L, uint64_t *remaining, int *keep) {
  hhead *hh = &L->hh;
  hh->status = 200;
  hh->has_ctype = hh->chunked = 0;
  buf_clear(&hh->ctype);
  buf_clear(&hh->charset);
  buf_clear(&hh->cenc);
  if (L->h.ctype.len && parse_ctype(hh, L->h.ctype.data, L->h.ctype.len)) return STEP_NOMEM;
  L->status = 200;
  L->body_u = L->block_u;
  if (hh->has_ctype && !is_generic_type(hh)) {
    *keep = is_html_type(hh);
    L->why = *keep ? TBK_WREC_RESOURCE : not_html_class(hh->ctype.data);
    return STEP_NEXT;
  }
  bdec d;
  L->sniff.len = 0;
  bdec_init(&d, 0, 0, &L->sniff, 0, 512);
  int r = decode_block(L->s, remaining, &d);
  bdec_end(&d);
  int html = sniff_html(&L->sniff);
  L->why = html ? TBK_WREC_SNIFFED : TBK_WREC_NOT_MARKUP;
  if (r < 0) {
    L->would_keep = html;
    return STEP_STREAM;
  }
  if (d.nomem) return STEP_NOMEM;
  *keep = r > 0 && html;
  return STEP_NEXT;
}

/* The record being read becomes the pending one; length as listed. */
static int make_pending(lister *L, uint64_t length) {
  const whead *h = &L->h;
  pending *p = &L->p;
  p->has = 1;
  p->off = L->off;
  p->skip = L->skip;
  p->clen = h->clen;
  p->length = length;
  p->why = L->why;
  p->status = L->status;
  p->has_id = h->has_id;
  p->has_date = h->has_date;
  p->uri.len = p->charset.len = p->id.len = p->date.len = 0;
  return tbk_buf_append(&p->uri, h->uri.data, h->uri.len) ||
         tbk_buf_append(&p->charset, L->hh.charset.data ? L->hh.charset.data : "", L->hh.charset.len) ||
         (h->has_id && tbk_buf_append(&p->id, h->id.data, h->id.len)) ||
         (h->has_date && tbk_buf_append(&p->date, h->date.data, h->date.len));
}

/* Past the rest of the block: a block that ends where its Content-Length
 * says makes a kept record pending. */
static enum step finish_block(lister *L, uint64_t remaining, int keep) {
  const whead *h = &L->h;
  L->would_keep = keep;
  int r = ws_skip_block(L->s, remaining);
  if (r < 0) return STEP_STREAM;
  if (r == 2) {
    count_cur(L, keep ? TBK_WREC_LENGTH : L->why);
    lwarn(L, "record at %s (%s): Content-Length %" PRIu64 " runs past the end of its gzip member; record skipped",
          POS(L, L->off, L->skip), h->uri.len ? h->uri.data : "no URI", h->clen);
    return STEP_NEXT;
  }
  if (r == 0) {
    count_cur(L, keep ? TBK_WREC_LENGTH : L->why);
    r = resync_after_lie(L, h->uri.len ? h->uri.data : "no URI", h->clen, UINT64_MAX, keep, NULL);
    if (r == -1) return STEP_STREAM;
    return r == 1 ? STEP_NEXT : STEP_END;
  }
  if (keep && h->uri.len == 0) {
    L->why = TBK_WREC_NO_URI;
    lwarn(L, "record at %s: %s without WARC-Target-URI", POS(L, L->off, L->skip),
          h->is_resource ? "resource" : "response");
    keep = 0;
  }
  if (!keep) {
    count_cur(L, L->why);
    return STEP_NEXT;
  }
  L->in_rec = 0; /* counted when committed */
  return make_pending(L, 0) ? STEP_NOMEM : STEP_NEXT;
}

/* One record: its WARC head, then what kind of record it is. */
static enum step next_record(lister *L) {
  wstream *s = L->s;
  size_t lf;
  int r = skip_newlines(s, &lf);
  if (r <= 0) return r < 0 ? STEP_STREAM : STEP_END;
  ws_tell(s, &L->off, &L->skip);
  uint64_t rec_u = s->u;
  if (ws_ensure(s, 5) < 0) return STEP_STREAM;
  if (ws_avail(s) < 5 || memcmp(s->out + s->start, "WARC/", 5) != 0) return not_a_record(L, lf >= 2);
  if (commit(L, &L->p)) return STEP_NOMEM;
  L->last.has = 0; /* h is about to describe another record */
  L->in_rec = 1;
  L->would_keep = 0;
  L->status = 0;
  L->rec_u = rec_u;
  L->block_u = L->body_u = UINT64_MAX;
  const char *why = NULL;
  r = read_whead(s, &L->h, &L->line, &why);
  if (r == -1) return STEP_STREAM;
  if (r == -2) {
    count_cur(L, strstr(why, "cut off") ? TBK_WREC_TRUNCATED : TBK_WREC_BAD_HEAD);
    lwarn(L, "record at %s: %s", POS(L, L->off, L->skip), why);
    return ws_resync_line(s) < 0 ? STEP_STREAM : STEP_NEXT;
  }
  L->records++;
  L->last = (recpos){1, 0, L->off, L->skip, rec_u};
  L->block_u = s->u;
  L->why = L->h.type;
  if (L->max_record_bytes && L->h.clen > L->max_record_bytes) return skip_oversized(L);
  uint64_t remaining = L->h.clen;
  int keep = 0;
  if (L->h.is_response || L->h.is_resource) {
    enum step st = L->h.is_response ? classify_response(L, &remaining, &keep) : classify_resource(L, &remaining, &keep);
    if (st != STEP_NEXT) return st;
  }
  return finish_block(L, remaining, keep);
}

/* The decompressed bytes the gzip member at coff gives when its input
 * stops at end (the next member's start): *n, and 1 when they end
 * cleanly (the member was cut off there), 0 when they end in a gzip error
 * (corrupt: the bytes before the error cannot be trusted), -1 on error. */
static int member_prefix(FILE *f, uint64_t coff, uint64_t end, uint64_t *n) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 15 + 16) != Z_OK) return -1;
  unsigned char in[16384], out[16384];
  int ok = fseeko(f, (off_t)coff, SEEK_SET) == 0 ? 1 : -1;
  *n = 0;
  for (uint64_t left = end - coff; ok == 1 && left;) {
    size_t k = fread(in, 1, left < sizeof in ? (size_t)left : sizeof in, f);
    if (k == 0) break;
    left -= k;
    z.next_in = in;
    z.avail_in = (uInt)k;
    while (ok == 1 && z.avail_in) {
      z.next_out = out;
      z.avail_out = sizeof out;
      int r = inflate(&z, Z_NO_FLUSH);
      *n += sizeof out - z.avail_out;
      if (r == Z_STREAM_END) ok = 0; /* whole: not a cut member */
      else if (r != Z_OK && r != Z_BUF_ERROR) ok = 0;
      else if (r == Z_BUF_ERROR && z.avail_out) break;
    }
  }
  inflateEnd(&z);
  return ok;
}

/* The stream broke (truncated, or corrupt) inside the block of a page
 * being read: when what came before the break is sound, the page is
 * listed with the bytes of its block that could be read (1); 0 when it
 * cannot be (nothing of its body, or the bytes before the break are not
 * to be trusted), -1 out of memory. A truncated member that another
 * member follows (a cut file concatenated with others) shows as corrupt
 * (the next member's bytes read as deflate data): it is told by
 * inflating the member again with its input stopped where the next member
 * starts (*resynced: the stream is then there). */
static int recover_cut(lister *L, int *resynced) {
  wstream *s = L->s;
  *resynced = 0;
  if (!L->in_rec || !L->would_keep || !s->gz || L->body_u == UINT64_MAX || !L->h.uri.len) return 0;
  uint64_t got, next = s->fsize;
  if (s->ekind == WE_TRUNC) {
    got = s->u + ws_avail(s) - L->block_u;
  } else {
    /* Only a record that starts in the member that broke. */
    if (L->off != s->member_coff) return 0;
    uint64_t member = s->member_coff;
    int r = ws_resync_member(s, member + 1);
    if (r < 0) return 0;
    *resynced = 1;
    if (r > 0) next = s->in_off;
    uint64_t total;
    int clean = member_prefix(s->f, member, next, &total);
    /* On from the next member, where the resync left the stream. */
    if (r > 0 && fseeko(s->f, (off_t)next, SEEK_SET) != 0) {
      ws_fail(s, WE_IO, "cannot seek: %s", strerror(errno));
      return 0;
    }
    if (clean != 1) return 0;
    uint64_t head = L->skip + (L->block_u - L->rec_u);
    got = total > head ? total - head : 0;
  }
  if (got >= L->h.clen || got <= L->body_u - L->block_u) return 0;
  L->why = TBK_WREC_CUT;
  L->in_rec = 0;
  char where[64];
  pos_str(where, sizeof where, L->off, L->skip);
  lwarn(L,
        "record at %s (%s) cut off (gzip member truncated%s): read %" PRIu64 " of %" PRIu64
        " bytes of its block; the rest is lost",
        where, L->h.uri.data, s->ekind == WE_TRUNC ? "" : ", another member follows", got, L->h.clen);
  return make_pending(L, got) ? -1 : 1;
}

/* The stream failed: an I/O error ends the listing, damage skips to the
 * next intact gzip member or ends it, keeping the records before. */
static enum step on_stream_error(lister *L) {
  wstream *s = L->s;
  if (s->ekind == WE_NOMEM) return STEP_NOMEM;
  if (s->ekind == WE_IO) {
    L->st = tbk_fail(L->err, TBK_ERR_IO, "%s", s->emsg);
    return STEP_FAIL;
  }
  /* The pending record's block was read whole; only its trailer is lost. */
  if (commit(L, &L->p)) return STEP_NOMEM;
  int resynced;
  int cut = recover_cut(L, &resynced);
  if (cut < 0) return STEP_NOMEM;
  if (cut) {
    if (commit(L, &L->p)) return STEP_NOMEM;
    if (s->ekind == WE_TRUNC || s->state != WS_OK) return STEP_END;
    return STEP_NEXT;
  }
  /* Lost here: the record being read, or (between records) what the
   * member that broke held, unless that is the record counted last (its
   * trailer lost, its block whole). */
  tbk_wrec lost = s->ekind == WE_CORRUPT ? TBK_WREC_CORRUPT : TBK_WREC_TRUNCATED;
  if (L->in_rec) count_cur(L, lost);
  else if (!s->gz || L->last_counted_off != s->member_coff + 1) count_as(L, lost, 0, s->member_coff);
  lwarn(L, "%s; %s", s->emsg,
        s->ekind == WE_CORRUPT ? "skipping to the next intact member" : "records before it are kept");
  if (resynced) return s->state == WS_OK ? STEP_NEXT : STEP_END;
  if (s->ekind == WE_CORRUPT && s->gz) {
    int r = ws_resync_member(s, s->member_coff + 1);
    if (r < 0) return STEP_STREAM;
    if (r > 0) return STEP_NEXT;
  }
  return STEP_END;
}

static void lister_free(lister *L) {
  tbk_buf_free(&L->line);
  tbk_buf_free(&L->sniff);
  tbk_buf_free(&L->p.uri);
  tbk_buf_free(&L->p.charset);
  tbk_buf_free(&L->p.id);
  tbk_buf_free(&L->p.date);
  tbk_buf_free(&L->h.uri);
  tbk_buf_free(&L->h.ctype);
  tbk_buf_free(&L->h.id);
  tbk_buf_free(&L->h.date);
  hhead_free(&L->hh);
  ws_free(L->s);
}

tbk_status tbk_warc_list(const char *path, const tbk_warc_filter *filter, tbk_warc_record_fn on_record,
                         void *record_ctx, tbk_warn_fn warn, void *warn_ctx, size_t *skipped, tbk_warc_counts *counts,
                         tbk_error *err) {
  lister L;
  memset(&L, 0, sizeof L);
  tbk_status st = ws_open(path, 0, 0, &L.s, err);
  if (st) return st;
  tbk_warc_filter dflt;
  tbk_warc_counts scratch;
  if (!counts) memset(&scratch, 0, sizeof scratch);
  if (!filter) tbk_warc_filter_init(&dflt, 0);
  L.filter = filter ? filter : &dflt;
  L.counts = counts ? counts : &scratch;
  L.path = path;
  L.max_record_bytes = L.filter->max_record_bytes;
  L.on_record = on_record;
  L.rctx = record_ctx;
  L.warn = warn;
  L.ctx = warn_ctx;
  L.skipped = skipped;
  L.err = err;
  enum step step;
  do {
    step = next_record(&L);
    while (step == STEP_STREAM) step = on_stream_error(&L);
  } while (step == STEP_NEXT);
  if (step == STEP_END && commit(&L, &L.p)) step = STEP_NOMEM;
  if (step == STEP_NOMEM) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  else if (step == STEP_FAIL) st = L.st;
  else if (L.records == 0) st = tbk_fail(err, TBK_ERR_FORMAT, "no WARC record could be read");
  else if (L.html == 0)
    st = tbk_fail(err, TBK_ERR_EMPTY, "no HTML response records (%zu records, none read)", L.records);
  lister_free(&L);
  return st;
}
#undef POS

/* ------------------------------------------------------------ reading */

/* A block read to the next record header ends in the record separator
 * (two line ends): left out. */
static void strip_separator(tbk_buf *b) {
  for (int k = 0; k < 2 && b->len && b->data[b->len - 1] == '\n'; k++) {
    b->len--;
    if (b->len && b->data[b->len - 1] == '\r') b->len--;
  }
}

static tbk_status stream_status(wstream *s, tbk_error *err) {
  if (s->ekind == WE_NOMEM) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return tbk_fail(err, s->ekind == WE_IO ? TBK_ERR_IO : TBK_ERR_FORMAT, "%s", s->emsg);
}

tbk_status tbk_warc_read(const char *path, uint64_t offset, uint64_t skip, uint64_t length, int cut, size_t max_bytes,
                         tbk_buf *out, tbk_error *err) {
  out->len = 0;
  wstream *s;
  tbk_status st = ws_open(path, offset, 1, &s, err);
  if (st) return st;
  whead h;
  memset(&h, 0, sizeof h);
  hhead hh;
  memset(&hh, 0, sizeof hh);
  tbk_buf line = {0};
  const char *why = NULL;
  int r = ws_skip(s, skip);
  if (r > 0) r = ws_ensure(s, 5);
  if (r < 0) {
    st = stream_status(s, err);
    goto done;
  }
  if (ws_avail(s) < 5 || memcmp(s->out + s->start, "WARC/", 5) != 0) {
    st = tbk_fail(err, TBK_ERR_FORMAT, "no WARC record at offset %" PRIu64 "+%" PRIu64, offset, skip);
    goto done;
  }
  r = read_whead(s, &h, &line, &why);
  if (r == -1) {
    st = stream_status(s, err);
    goto done;
  }
  if (r == -2) {
    st = tbk_fail(err, TBK_ERR_FORMAT, "%s", why);
    goto done;
  }
  if (length) h.clen = length; /* a short Content-Length or a cut record, recovered by the listing */
  if (max_bytes && h.clen > max_bytes) {
    st = tbk_fail(err, TBK_ERR_LIMIT, "record exceeds max-record-bytes (%zu)", max_bytes);
    goto done;
  }
  uint64_t remaining = h.clen;
  if (h.is_resource) r = 1, hh.status = 200; /* the block is the document */
  else r = read_hhead(s, &remaining, &hh, h.http_block, &line, &why);
  if (r == -1) {
    st = stream_status(s, err);
    goto done;
  }
  if (r == -2 || r == -3 || hh.status == 0) {
    st = tbk_fail(err, TBK_ERR_FORMAT, "%s", r == -2 ? why : "record is not an HTTP response");
    goto done;
  }
  int enc = encoding_kind(&hh);
  if (enc < 0) {
    st = tbk_fail(err, TBK_ERR_FORMAT, "unsupported Content-Encoding \"%s\"", hh.cenc.data);
    goto done;
  }
  bdec d;
  bdec_init(&d, hh.chunked, enc, out, max_bytes, 0);
  r = decode_block(s, &remaining, &d);
  bdec_end(&d);
  if (r < 0) st = stream_status(s, err);
  else if (r == 0)
    st = tbk_fail(err, TBK_ERR_FORMAT, "record cut off: Content-Length %" PRIu64 " runs past the end of the file",
                  h.clen);
  else if (d.nomem) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  else if (d.over) st = tbk_fail(err, TBK_ERR_LIMIT, "record body exceeds max-record-bytes (%zu)", max_bytes);
  else if (d.bad && !cut) st = tbk_fail(err, TBK_ERR_FORMAT, "%s", d.bad);
  else {
    if (length && !cut && !hh.chunked && enc == 0) strip_separator(out);
    if (tbk_buf_append(out, "", 0)) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
done:
  if (st) out->len = 0;
  tbk_buf_free(&line);
  tbk_buf_free(&h.uri);
  tbk_buf_free(&h.ctype);
  tbk_buf_free(&h.id);
  tbk_buf_free(&h.date);
  hhead_free(&hh);
  ws_free(s);
  return st;
}

/* The raw head lines of the record at (offset, skip): its WARC header
 * block into warc_head and, when the block starts with an HTTP status
 * line, the HTTP header block into http_head (both emptied first; blank
 * lines that end them left out). For tbk_warc_record_get: the parser
 * above stays the only one that interprets them. */
tbk_status tbk_warc_read_heads(const char *path, uint64_t offset, uint64_t skip, tbk_buf *warc_head, tbk_buf *http_head,
                               tbk_error *err) {
  warc_head->len = http_head->len = 0;
  wstream *s;
  tbk_status st = ws_open(path, offset, 1, &s, err);
  if (st) return st;
  tbk_buf line = {0};
  int r = ws_skip(s, skip);
  for (int part = 0; r > 0 && part < 2; part++) {
    tbk_buf *to = part ? http_head : warc_head;
    for (size_t total = 0;;) {
      long n = ws_getline(s, &line, LINE_MAX_BYTES);
      if (n < 0) {
        r = -1;
        break;
      }
      size_t body = line_body(&line);
      if (n == 0 || body == 0 || (total += line.len) > HEAD_MAX_BYTES) break;
      if (part && to->len == 0 && strncasecmp(line.data, "HTTP/", line.len < 5 ? line.len : 5) != 0) break;
      if (tbk_buf_append(to, line.data, line.len)) {
        r = ws_fail(s, WE_NOMEM, "out of memory");
        break;
      }
    }
  }
  if (r < 0) st = stream_status(s, err);
  else if ((warc_head->len && tbk_buf_append(warc_head, "", 0)) || (http_head->len && tbk_buf_append(http_head, "", 0)))
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_buf_free(&line);
  ws_free(s);
  return st;
}
