/* Internal helpers shared by the library's modules. */
#ifndef TBK_UTIL_H
#define TBK_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tbk.h"

/* A result the caller must look at (the compiler warns otherwise): the
 * tbk_buf_* appenders return -1 when out of memory, which must surface as
 * TBK_ERR_NOMEM, never as a silently shortened output. */
#define TBK_MUST_CHECK __attribute__((warn_unused_result))

/* Fill err (when non-NULL) with a formatted one-line message; returns code. */
tbk_status tbk_fail(tbk_error *err, tbk_status code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Length of the valid UTF-8 sequence starting at s (1..4), 0 if invalid. */
size_t tbk_utf8_seq(const unsigned char *s, size_t n);
/* Code point of a sequence already validated by tbk_utf8_seq. */
uint32_t tbk_utf8_decode(const unsigned char *s, size_t len);
/* Append the UTF-8 encoding of cp (<= 0x10FFFF) to b; 0 ok, -1 nomem. */
int tbk_buf_utf8(tbk_buf *b, uint32_t cp) TBK_MUST_CHECK;
/* Append the UTF-8 sequence at s (n bytes left), or U+FFFD for an invalid
 * byte; returns the bytes of s used (1..4), 0 when out of memory. */
size_t tbk_buf_utf8_copy(tbk_buf *b, const char *s, size_t n) TBK_MUST_CHECK;
/* How many of the n bytes of s to keep to show at most max of them
 * without splitting a UTF-8 sequence (a cut sequence would come out as
 * U+FFFD): n when it fits, else max stepped back to a sequence start. */
size_t tbk_utf8_cut(const char *s, size_t n, size_t max);

/* Unicode White_Space (plus the C0 controls we treat as breaks). */
static inline int tbk_is_space_cp(uint32_t c) {
  return c == 0x20 || (c >= 0x09 && c <= 0x0D) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* Growable arrays. pp is the address of the array's pointer, of any
 * element type (&p->items); every size is overflow-checked, and on failure
 * (-1: out of memory, or more bytes than size_t holds) the array and its
 * capacity are left as they were, so the caller only has to report it. */
int tbk_grow_slow(void *pp, size_t *cap, size_t need, size_t size);
/* Make the array (capacity *cap elements of `size` bytes) hold at least
 * `need`, doubling from 64 so appends are amortised O(1); 0 ok, -1. */
static inline int tbk_grow(void *pp, size_t *cap, size_t need, size_t size) {
  return need <= *cap ? 0 : tbk_grow_slow(pp, cap, need, size);
}
/* For parallel arrays that share one capacity: the capacity tbk_grow would
 * choose (size = the largest element), 0 when `need` cannot be held; each
 * array is then sized with tbk_resize. */
size_t tbk_grow_cap(size_t cap, size_t need, size_t size);
/* Resize the array to n elements of `size` bytes; 0 ok, -1 (the array
 * as it was: a failed cut to size loses nothing). */
int tbk_resize(void *pp, size_t n, size_t size);
/* tbk_grow to exactly need, for arrays sized once per page: doubling
 * would hold up to twice what the largest page needed. */
static inline int tbk_grow_exact(void *pp, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 0;
  if (tbk_resize(pp, need, size)) return -1;
  *cap = need;
  return 0;
}
/* tbk_grow for parallel arrays sharing one capacity:
 * TBK_GROW_ALL(&cap, need, TBK_ARRAY(p->a), TBK_ARRAY(p->b), ...). */
typedef struct tbk_array {
  void *pp;    /* address of the array's pointer; NULL: an absent array */
  size_t size; /* bytes per element */
} tbk_array;
#define TBK_ARRAY(p) \
  { &(p), sizeof *(p) }
int tbk_grow_all(size_t *cap, size_t need, const tbk_array *arrays, size_t n);
#define TBK_GROW_ALL(cap, need, ...)                        \
  tbk_grow_all(cap, need, (const tbk_array[]){__VA_ARGS__}, \
               sizeof((const tbk_array[]){__VA_ARGS__}) / sizeof(tbk_array))

/* One keep-or-free policy for the arrays an extractor sizes per page: what
 * holds TBK_KEEP_BYTES or more does not outlive the page that needed it (a
 * page's scratch is freed when it is done, its results when the caller is
 * done with them), so it leaves its memory neither to the stages after it
 * nor to the pages after it; below that, arrays keep their size, and a run
 * of small pages allocates nothing. Small, because what is kept is what
 * costs: arrays kept from ordinary pages sit in the heap, and a big page
 * that outgrows them leaves each a resident hole (tbk-predict over
 * debian_docs, peak RSS: 256 KiB kept 53.9 MB, 16 KiB 49.0 MB, at 0.2 %
 * fewer instructions; BENCHMARKS.md "Peak RSS under 50 MB?"). */
#define TBK_KEEP_BYTES ((size_t)16 << 10)
/* Parallel arrays sharing *cap sized for exactly need elements: grown to
 * need (tbk_grow would double), or cut to it when they hold
 * TBK_KEEP_BYTES or more and need less than half. 0 ok, -1 nomem (the
 * arrays then hold at least *cap). */
int tbk_fit_all(size_t *cap, size_t need, const tbk_array *a, size_t n);
/* Arrays grown while a page was read, holding n elements now: cut to n
 * when they hold TBK_KEEP_BYTES or more. */
void tbk_trim_all(size_t *cap, size_t n, const tbk_array *a, size_t na);
/* Arrays of a page that is done: freed (NULL, *cap 0) when they hold
 * TBK_KEEP_BYTES or more. */
void tbk_drop_all(size_t *cap, const tbk_array *a, size_t n);
#define TBK_ARRAYS_N(...) (sizeof((const tbk_array[]){__VA_ARGS__}) / sizeof(tbk_array))
#define TBK_FIT_ALL(cap, need, ...) tbk_fit_all(cap, need, (const tbk_array[]){__VA_ARGS__}, TBK_ARRAYS_N(__VA_ARGS__))
#define TBK_TRIM_ALL(cap, n, ...) tbk_trim_all(cap, n, (const tbk_array[]){__VA_ARGS__}, TBK_ARRAYS_N(__VA_ARGS__))
#define TBK_DROP_ALL(cap, ...) tbk_drop_all(cap, (const tbk_array[]){__VA_ARGS__}, TBK_ARRAYS_N(__VA_ARGS__))

/* FNV-1a, the library's one string hash: 64-bit for hash tables keyed by
 * strings, 32-bit for the hashed word and attribute buckets, whose values
 * trained models depend on (so neither may ever change). The _step forms
 * hash byte by byte where the bytes are made on the fly. */
#define TBK_FNV32_INIT 2166136261u
#define TBK_FNV64_INIT 1469598103934665603ULL
static inline uint32_t tbk_fnv32_step(uint32_t h, unsigned char b) { return (h ^ b) * 16777619u; }
static inline uint64_t tbk_fnv64_step(uint64_t h, unsigned char b) { return (h ^ b) * 1099511628211ULL; }
static inline uint32_t tbk_hash32(const void *p, size_t n) {
  const unsigned char *s = p;
  uint32_t h = TBK_FNV32_INIT;
  for (size_t i = 0; i < n; i++) h = tbk_fnv32_step(h, s[i]);
  return h;
}
static inline uint64_t tbk_hash64(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = TBK_FNV64_INIT;
  for (size_t i = 0; i < n; i++) h = tbk_fnv64_step(h, s[i]);
  return h;
}
/* Both hashes of the ASCII token s[0..n) lower-cased, as the tokenizer
 * folds it, without the folded copy. */
static inline void tbk_hash_ascii_folded(const unsigned char *s, size_t n, uint64_t *h64, uint32_t *h32) {
  uint64_t a = TBK_FNV64_INIT;
  uint32_t b = TBK_FNV32_INIT;
  for (size_t k = 0; k < n; k++) {
    unsigned char c = s[k];
    if (c >= 'A' && c <= 'Z') c = (unsigned char)(c + 32);
    a = tbk_fnv64_step(a, c);
    b = tbk_fnv32_step(b, c);
  }
  *h64 = a;
  *h32 = b;
}

/* The dense row of a fixed + sparse one (the template features' blocks,
 * the units): dim doubles, the first nfixed from fixed, then vals[k] (all
 * 1 when vals is NULL) at the columns cols[0..n), the rest 0. */
static inline void tbk_dense_row(double *row, size_t dim, const double *fixed, size_t nfixed, const uint32_t *cols,
                                 const double *vals, size_t n) {
  memset(row, 0, dim * sizeof *row);
  memcpy(row, fixed, nfixed * sizeof *row);
  for (size_t k = 0; k < n; k++) row[cols[k]] = vals ? vals[k] : 1.0;
}

/* Where a buffer writes out what it holds (tbk_buf.sink), so that a long
 * output (a big page's JSONL) is never held whole: when an append finds
 * the buffer full with at least `at` bytes in it, its whole lines (up to
 * its last newline) go to write and the rest, the line being made, moves
 * to the front. Whoever appends to such a buffer therefore keeps no offset
 * into it across an append, only what it made of the current line (the
 * renderers do so). */
typedef struct tbk_buf_sink {
  tbk_write_fn write; /* nonzero: failed, and the append fails (-1) */
  void *ctx;          /* borrowed: write's */
  size_t at;          /* bytes held before they are written */
} tbk_buf_sink;
/* Everything b holds written to its sink now (the end of an output); 0
 * ok (also without a sink: nothing is done), -1 the write failed. */
int tbk_buf_drain(tbk_buf *b) TBK_MUST_CHECK;

int tbk_buf_reserve(tbk_buf *b, size_t extra) TBK_MUST_CHECK;
int tbk_buf_append(tbk_buf *b, const void *p, size_t n) TBK_MUST_CHECK;
int tbk_buf_puts(tbk_buf *b, const char *s) TBK_MUST_CHECK;
/* printf in the C locale (see tbk_snprintf). */
int tbk_buf_printf(tbk_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3))) TBK_MUST_CHECK;
/* Append v in decimal. */
int tbk_buf_u64(tbk_buf *b, uint64_t v) TBK_MUST_CHECK;
/* Append v as printf's "%.4f" does, byte for byte; a probability's fast
 * path (a JSONL line has two or three, and printf with its locale switch
 * was 2 % of tbk-predict -f jsonl). */
int tbk_buf_fixed4(tbk_buf *b, double v) TBK_MUST_CHECK;
/* Append s as a JSON string literal (with quotes), escaping as RFC 8259
 * requires; invalid UTF-8 is replaced by U+FFFD. */
int tbk_buf_json_str(tbk_buf *b, const char *s, size_t n) TBK_MUST_CHECK;

/* Numbers in every file tbk writes or reads have the C locale's form
 * ("0.5"), whatever the process's LC_NUMERIC: a host program may have
 * called setlocale(LC_ALL, "") under a comma-decimal locale. tbk_snprintf
 * is snprintf and tbk_strtod is strtod, both in the C locale; the calling
 * thread's locale is left as it was. */
int tbk_snprintf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
double tbk_strtod(const char *s, char **end);

/* Read a whole file ("-" = stdin) into a new buffer, failing with
 * TBK_ERR_LIMIT when it is larger than max_bytes (0 = no limit). */
/* A side file's text (gold, --text, model, DF table, ranker) made plain in
 * place: a UTF-8 BOM dropped, UTF-16 with a BOM decoded to UTF-8, CRLF and
 * lone CR line ends made LF. Refused (TBK_ERR_FORMAT, the reason in err):
 * NUL bytes without a BOM (binary, or UTF-16 without a BOM), malformed
 * UTF-16, and with TBK_SIDE_UTF8 any byte sequence that is not UTF-8 (a
 * Latin-1 file), named by its offset. */
enum { TBK_SIDE_UTF8 = 1 };
tbk_status tbk_side_text(tbk_buf *b, unsigned flags, tbk_error *err);
tbk_status tbk_read_file(const char *path, size_t max_bytes, tbk_buf *out, tbk_error *err);

/* Open a file for reading ("-" = stdin): refused, with the reason as the
 * message, when it is a directory or a device (/dev/zero as a model would
 * read forever); a FIFO or pipe is read (process substitution passes
 * one), but opening one with no writer does not block. */
tbk_status tbk_open_read(const char *path, FILE **out, tbk_error *err);

/* Progress callback for long training runs (may be NULL). */
typedef void (*tbk_progress_fn)(void *ctx, const char *what);

/* Called for each input problem that is skipped rather than fatal (a
 * manifest row naming a missing file, a truncated WARC tail...). */
typedef void (*tbk_warn_fn)(void *ctx, const char *file, const char *msg);

#endif
