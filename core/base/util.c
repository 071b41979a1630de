/* Buffers, whole-file reading, status names and the version: the small
 * plumbing every other module leans on. */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* Compiled into the library, so a program linked against another build of
 * libtbk sees that build's version, not its own headers'. */
const char *tbk_version(void) { return TBK_VERSION; }

const char *tbk_status_str(tbk_status s) {
  switch (s) {
  case TBK_OK: return "ok";
  case TBK_ERR_IO: return "I/O error";
  case TBK_ERR_NOMEM: return "out of memory";
  case TBK_ERR_EMPTY: return "empty input";
  case TBK_ERR_BINARY: return "not HTML";
  case TBK_ERR_FORMAT: return "malformed input";
  case TBK_ERR_LIMIT: return "limit exceeded";
  case TBK_ERR_MODEL: return "bad model";
  case TBK_ERR_SCHEMA: return "schema mismatch";
  case TBK_ERR_ARG: return "invalid argument";
  }
  return "unknown error";
}

/* The C locale, for numbers: newlocale with base 0 gives the C locale in
 * every category, and printf of bytes and numbers reads only LC_NUMERIC.
 * Made once; the atomic load keeps the per-number cost to a load and a
 * test (the model loader reads a few hundred thousand numbers). NULL only
 * when out of memory, and then the process's locale is used. */
static locale_t c_numeric;
static pthread_once_t c_numeric_once = PTHREAD_ONCE_INIT;
static void c_numeric_init(void) {
  __atomic_store_n(&c_numeric, newlocale(LC_NUMERIC_MASK, "C", (locale_t)0), __ATOMIC_RELEASE);
}

static __attribute__((noinline)) locale_t c_locale_first(void) {
  pthread_once(&c_numeric_once, c_numeric_init);
  return __atomic_load_n(&c_numeric, __ATOMIC_ACQUIRE);
}

static inline locale_t c_locale(void) {
  locale_t c = __atomic_load_n(&c_numeric, __ATOMIC_ACQUIRE);
  return __builtin_expect(c != (locale_t)0, 1) ? c : c_locale_first();
}

static int vsnprintf_c(char *buf, size_t cap, const char *fmt, va_list ap) {
  locale_t c = c_locale();
  /* uselocale changes only the calling thread's locale, and only here */
  locale_t old = c ? uselocale(c) : (locale_t)0;
  int n = vsnprintf(buf, cap, fmt, ap);
  if (old) uselocale(old);
  return n;
}

int tbk_snprintf(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf_c(buf, cap, fmt, ap);
  va_end(ap);
  return n;
}

double tbk_strtod(const char *s, char **end) {
  /* Models are mostly small whole numbers (counts, bin indices): up to 15
   * digits are exact in a double, so those skip strtod_l, which costs
   * hundreds of instructions a number and made up 40 % of a model's load.
   * A digit run followed by anything strtod would read on with ('.', an
   * exponent, "0x") goes the slow way. */
  if (*s >= '0' && *s <= '9') {
    uint64_t v = 0;
    const char *p = s;
    while (*p >= '0' && *p <= '9' && p - s < 16) v = v * 10 + (uint64_t)(*p++ - '0');
    if (p - s < 16 && *p != '.' && *p != 'e' && *p != 'E' && *p != 'x' && *p != 'X') {
      if (end) *end = (char *)p;
      return (double)v;
    }
  }
  locale_t c = c_locale();
  return __builtin_expect(c != (locale_t)0, 1) ? strtod_l(s, end, c) : strtod(s, end);
}

tbk_status tbk_fail(tbk_error *err, tbk_status code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf_c(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* One line: a message must never smuggle a newline into the CLI's output. */
    for (char *p = err->msg; *p; p++)
      if (*p == '\n' || *p == '\r') *p = ' ';
  }
  return code;
}

void tbk_buf_free(tbk_buf *b) {
  if (!b) return;
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

int tbk_buf_drain(tbk_buf *b) {
  if (!b->sink || !b->len) return 0;
  if (b->sink->write(b->sink->ctx, b->data, b->len)) return -1;
  b->len = 0;
  b->data[0] = '\0';
  return 0;
}

int tbk_buf_reserve(tbk_buf *b, size_t extra) {
  if (extra > SIZE_MAX - b->len - 1) return -1;
  size_t need = b->len + extra + 1;
  if (need <= b->cap) return 0;
  /* Full: its whole lines written out rather than the buffer grown; the
   * line being made moves to the front. */
  const char *nl = b->sink && b->len >= b->sink->at && b->len ? memrchr(b->data, '\n', b->len) : NULL;
  if (nl) {
    size_t done = (size_t)(nl - b->data) + 1;
    if (b->sink->write(b->sink->ctx, b->data, done)) return -1;
    memmove(b->data, b->data + done, b->len - done + 1);
    b->len -= done;
    need -= done;
  }
  return tbk_grow(&b->data, &b->cap, need, 1);
}

int tbk_buf_append(tbk_buf *b, const void *p, size_t n) {
  if (tbk_buf_reserve(b, n)) return -1;
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
  return 0;
}

int tbk_buf_puts(tbk_buf *b, const char *s) { return tbk_buf_append(b, s, strlen(s)); }

int tbk_buf_printf(tbk_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[256];
  int n = vsnprintf_c(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return -1;
  if ((size_t)n < sizeof small) return tbk_buf_append(b, small, (size_t)n);
  if (tbk_buf_reserve(b, (size_t)n)) return -1;
  va_start(ap, fmt);
  vsnprintf_c(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return 0;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when invalid. */
size_t tbk_utf8_seq(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  if (c < 0x80) return 1;
  if (c < 0xC2) return 0;
  if (c < 0xE0) return (n >= 2 && (s[1] & 0xC0) == 0x80) ? 2 : 0;
  if (c < 0xF0) {
    if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && s[1] < 0xA0) return 0;  /* overlong */
    if (c == 0xED && s[1] >= 0xA0) return 0; /* surrogate */
    return 3;
  }
  if (c < 0xF5) {
    if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80) return 0;
    if (c == 0xF0 && s[1] < 0x90) return 0;
    if (c == 0xF4 && s[1] >= 0x90) return 0;
    return 4;
  }
  return 0;
}

uint32_t tbk_utf8_decode(const unsigned char *s, size_t len) {
  switch (len) {
  case 1: return s[0];
  case 2: return ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
  case 3: return ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
  default:
    return ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) | ((uint32_t)(s[2] & 0x3F) << 6) |
           (s[3] & 0x3F);
  }
}

int tbk_buf_utf8(tbk_buf *b, uint32_t cp) {
  char e[4];
  size_t k;
  if (cp < 0x80) {
    e[0] = (char)cp;
    k = 1;
  } else if (cp < 0x800) {
    e[0] = (char)(0xC0 | (cp >> 6));
    k = 2;
  } else if (cp < 0x10000) {
    e[0] = (char)(0xE0 | (cp >> 12));
    k = 3;
  } else {
    e[0] = (char)(0xF0 | (cp >> 18));
    k = 4;
  }
  for (size_t i = 1; i < k; i++) e[i] = (char)(0x80 | ((cp >> (6 * (k - 1 - i))) & 0x3F));
  return tbk_buf_append(b, e, k);
}

size_t tbk_buf_utf8_copy(tbk_buf *b, const char *s, size_t n) {
  size_t k = tbk_utf8_seq((const unsigned char *)s, n);
  if (k) return tbk_buf_append(b, s, k) ? 0 : k;
  return tbk_buf_append(b, "\xEF\xBF\xBD", 3) ? 0 : 1;
}

size_t tbk_utf8_cut(const char *s, size_t n, size_t max) {
  if (n <= max) return n;
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80) max--;
  return max;
}

int tbk_buf_json_str(tbk_buf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  if (tbk_buf_reserve(b, n + 2)) return -1;
  b->data[b->len++] = '"';
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    size_t run = i;
    /* Copy the longest run that needs no escaping in one go. */
    while (run < n && u[run] >= 0x20 && u[run] < 0x80 && u[run] != '"' && u[run] != '\\') run++;
    if (run > i && tbk_buf_append(b, s + i, run - i)) return -1;
    i = run;
    if (i >= n) break;
    unsigned c = u[i];
    char esc[8];
    if (c == '"' || c == '\\') {
      esc[0] = '\\';
      esc[1] = (char)c;
      if (tbk_buf_append(b, esc, 2)) return -1;
      i++;
    } else if (c < 0x20) {
      const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
      if (named) {
        if (tbk_buf_append(b, named, 2)) return -1;
      } else {
        memcpy(esc, "\\u00", 4);
        esc[4] = hex[c >> 4];
        esc[5] = hex[c & 15];
        if (tbk_buf_append(b, esc, 6)) return -1;
      }
      i++;
    } else {
      size_t k = tbk_buf_utf8_copy(b, s + i, n - i);
      if (!k) return -1;
      i += k;
    }
  }
  return tbk_buf_append(b, "\"", 1);
}

tbk_status tbk_open_read(const char *path, FILE **out, tbk_error *err) {
  *out = NULL;
  if (strcmp(path, "-") == 0) {
    *out = stdin;
    return TBK_OK;
  }
  /* Non-blocking, so that a FIFO nobody writes to does not hang the open;
   * reads block again once the file is known to be one we read. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return tbk_fail(err, TBK_ERR_IO, "cannot open: %s", strerror(errno));
  struct stat sb;
  const char *what = NULL;
  if (fstat(fd, &sb) != 0) what = strerror(errno);
  else if (S_ISDIR(sb.st_mode)) what = "is a directory";
  else if (S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode)) what = "is a device, not a file";
  if (!what && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) what = strerror(errno);
  FILE *f = what ? NULL : fdopen(fd, "rb");
  if (!f) {
    if (!what) what = strerror(errno);
    close(fd);
    return tbk_fail(err, TBK_ERR_IO, "cannot read: %s", what);
  }
  *out = f;
  return TBK_OK;
}

tbk_status tbk_read_file(const char *path, size_t max_bytes, tbk_buf *out, tbk_error *err) {
  int is_stdin = strcmp(path, "-") == 0;
  FILE *f;
  tbk_status open_st = tbk_open_read(path, &f, err);
  if (open_st) return open_st;
  out->len = 0;
  char chunk[65536];
  size_t n;
  tbk_status st = TBK_OK;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (max_bytes && out->len + n > max_bytes) {
      st = tbk_fail(err, TBK_ERR_LIMIT, "file exceeds its size limit (%zu bytes)", max_bytes);
      break;
    }
    if (tbk_buf_append(out, chunk, n)) {
      st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory reading file");
      break;
    }
  }
  if (st == TBK_OK && ferror(f)) st = tbk_fail(err, TBK_ERR_IO, "read error: %s", strerror(errno));
  if (!is_stdin) fclose(f);
  if (st == TBK_OK && tbk_buf_reserve(out, 0)) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory reading file");
  if (st == TBK_OK) out->data[out->len] = '\0';
  return st;
}

size_t tbk_grow_cap(size_t cap, size_t need, size_t size) {
  size_t max = size ? SIZE_MAX / size : SIZE_MAX;
  if (need > max) return 0;
  size_t c = cap ? cap : 64;
  while (c < need) c = c > max / 2 ? need : c * 2;
  return c > max ? need : c;
}

/* The pointer is read and written as bytes: the array's own pointer type
 * (tbk_run *, double *...) is not void *, and all of them share one
 * representation on every platform the library builds on. */
int tbk_resize(void *pp, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return -1;
  void *p;
  memcpy(&p, pp, sizeof p);
  /* Never realloc to 0 bytes: that may free the array and return NULL. */
  size_t bytes = n * size;
  void *q = realloc(p, bytes ? bytes : 1);
  if (!q) return -1;
  memcpy(pp, &q, sizeof q);
  return 0;
}

int tbk_grow_all(size_t *cap, size_t need, const tbk_array *arrays, size_t n) {
  if (need <= *cap) return 0;
  size_t widest = 1;
  for (size_t i = 0; i < n; i++)
    if (arrays[i].size > widest) widest = arrays[i].size;
  size_t c = tbk_grow_cap(*cap, need, widest);
  if (!c) return -1;
  /* A failure part way leaves the arrays already resized larger than *cap,
   * which is harmless. */
  for (size_t i = 0; i < n; i++)
    if (arrays[i].pp && tbk_resize(arrays[i].pp, c, arrays[i].size)) return -1;
  *cap = c;
  return 0;
}

int tbk_grow_slow(void *pp, size_t *cap, size_t need, size_t size) {
  size_t c = tbk_grow_cap(*cap, need, size);
  if (!c || tbk_resize(pp, c, size)) return -1;
  *cap = c;
  return 0;
}

/* Bytes per element of parallel arrays, all of them. */
static size_t row_bytes(const tbk_array *a, size_t n) {
  size_t w = 0;
  for (size_t i = 0; i < n; i++) w += a[i].size;
  return w;
}

int tbk_fit_all(size_t *cap, size_t need, const tbk_array *a, size_t n) {
  if (need <= *cap && (*cap * row_bytes(a, n) < TBK_KEEP_BYTES || need >= *cap / 2)) return 0;
  for (size_t i = 0; i < n; i++) /* a failed cut leaves a larger array: still fine */
    if (tbk_resize(a[i].pp, need, a[i].size) && need > *cap) return -1;
  *cap = need;
  return 0;
}

void tbk_trim_all(size_t *cap, size_t n, const tbk_array *a, size_t na) {
  if (*cap <= n || *cap * row_bytes(a, na) < TBK_KEEP_BYTES) return;
  for (size_t i = 0; i < na; i++) tbk_resize(a[i].pp, n, a[i].size);
  *cap = n;
}

void tbk_drop_all(size_t *cap, const tbk_array *a, size_t n) {
  if (*cap * row_bytes(a, n) < TBK_KEEP_BYTES) return;
  for (size_t i = 0; i < n; i++) {
    void *p;
    memcpy(&p, a[i].pp, sizeof p);
    free(p);
    p = NULL;
    memcpy(a[i].pp, &p, sizeof p);
  }
  *cap = 0;
}

/* ------------------------------------------------------------ side text */

static tbk_status utf16_to_utf8(tbk_buf *b, int big, tbk_error *err) {
  const unsigned char *s = (const unsigned char *)b->data + 2;
  size_t n = b->len - 2;
  if (n % 2) return tbk_fail(err, TBK_ERR_FORMAT, "UTF-16 text of an odd number of bytes (truncated?)");
  tbk_buf out = {0};
  for (size_t i = 0; i < n; i += 2) {
    uint32_t u = big ? (uint32_t)s[i] << 8 | s[i + 1] : (uint32_t)s[i + 1] << 8 | s[i];
    if (u >= 0xD800 && u < 0xDC00 && i + 3 < n) {
      uint32_t v = big ? (uint32_t)s[i + 2] << 8 | s[i + 3] : (uint32_t)s[i + 3] << 8 | s[i + 2];
      if (v >= 0xDC00 && v < 0xE000) {
        u = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
        i += 2;
      } else u = 0xFFFD;
    } else if (u >= 0xD800 && u < 0xE000) {
      u = 0xFFFD;
    }
    if (tbk_buf_utf8(&out, u)) {
      tbk_buf_free(&out);
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    }
  }
  tbk_buf_free(b);
  *b = out;
  if (!b->data && tbk_buf_append(b, "", 0)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return TBK_OK;
}

tbk_status tbk_side_text(tbk_buf *b, unsigned flags, tbk_error *err) {
  if (!b->len) return TBK_OK;
  unsigned char *s = (unsigned char *)b->data;
  if (b->len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF))) {
    tbk_status st = utf16_to_utf8(b, s[0] == 0xFE, err);
    if (st) return st;
    s = (unsigned char *)b->data;
  } else if (b->len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
    memmove(s, s + 3, b->len - 3);
    b->len -= 3;
  }
  size_t k = 0;
  for (size_t i = 0; i < b->len; i++) {
    unsigned char c = s[i];
    if (c == 0)
      return tbk_fail(err, TBK_ERR_FORMAT, "a NUL byte at offset %zu: binary data, or UTF-16 without a byte-order mark",
                      i);
    if (c == '\r') {
      s[k++] = '\n';
      if (i + 1 < b->len && s[i + 1] == '\n') i++;
      continue;
    }
    if (c >= 0x80 && (flags & TBK_SIDE_UTF8)) {
      size_t q = tbk_utf8_seq(s + i, b->len - i);
      if (!q)
        return tbk_fail(err, TBK_ERR_FORMAT,
                        "not UTF-8 (byte 0x%02x at offset %zu; Latin-1 or another charset? "
                        "convert it to UTF-8)",
                        c, i);
      memmove(s + k, s + i, q);
      k += q;
      i += q - 1;
      continue;
    }
    s[k++] = c;
  }
  b->len = k;
  s[k] = '\0';
  return TBK_OK;
}

int tbk_buf_u64(tbk_buf *b, uint64_t v) {
  char d[20];
  size_t n = 0;
  do d[n++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  if (tbk_buf_reserve(b, n)) return -1;
  while (n) b->data[b->len++] = d[--n];
  b->data[b->len] = '\0';
  return 0;
}

int tbk_buf_fixed4(tbk_buf *b, double v) {
  /* v * 10000 is within 1e-12 of the exact product for v in [0, 1], so
   * away from a half the rounding is the one printf makes of the exact
   * value; at a half (and outside [0, 1]) printf decides. */
  double r = v * 10000.0, f = r - floor(r);
  if (!(v >= 0.0 && v <= 1.0) || signbit(v) || fabs(f - 0.5) < 1e-6) return tbk_buf_printf(b, "%.4f", v);
  unsigned k = (unsigned)floor(r) + (f > 0.5);
  char s[7] = {
      (char)('0' + k / 10000), '.', (char)('0' + k / 1000 % 10), (char)('0' + k / 100 % 10), (char)('0' + k / 10 % 10),
      (char)('0' + k % 10),    0};
  return tbk_buf_append(b, s, 6);
}
