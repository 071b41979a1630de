/* The background document-frequency table (keywords.h) and its file. */
#include <stdlib.h>
#include <string.h>

#include "keywords_internal.h"
#include "text.h"

struct tbk_kw_df {
  kw_strtab keys;
  uint32_t *df; /* per key */
  size_t cap;
  size_t docs;
  char id[33]; /* a table read from a file: the MD5 of its text to "end" ("" otherwise) */
};

const char *tbk_kw_df_id(const tbk_kw_df *df) { return df->id; }

tbk_status tbk_kw_df_new(tbk_kw_df **out, tbk_error *err) {
  *out = calloc(1, sizeof **out);
  return *out ? TBK_OK : tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
}

void tbk_kw_df_free(tbk_kw_df *df) {
  if (!df) return;
  kw_strtab_free(&df->keys);
  free(df->df);
  free(df);
}

size_t tbk_kw_df_docs(const tbk_kw_df *df) { return df->docs; }
size_t tbk_kw_df_keys(const tbk_kw_df *df) { return df->keys.n; }

uint32_t tbk_kw_df_get(const tbk_kw_df *df, const char *key, size_t len) {
  long id = kw_strtab_find(&df->keys, key, len);
  return id < 0 ? 0 : df->df[id];
}

static int bump(tbk_kw_df *df, const char *key, size_t len, uint32_t by) {
  int added;
  long id = kw_strtab_intern(&df->keys, key, len, &added);
  if (id < 0 || tbk_grow(&df->df, &df->cap, (size_t)id + 1, sizeof *df->df)) return -1;
  if (added) df->df[id] = 0;
  df->df[id] = df->df[id] > UINT32_MAX - by ? UINT32_MAX : df->df[id] + by;
  return 0;
}

tbk_status tbk_kw_df_add(tbk_kw_df *df, const tbk_kw_extractor *x, tbk_error *err) {
  /* The candidates of one document are distinct keys already. */
  size_t n = tbk_kw_count(x);
  const tbk_kw_cand *c = tbk_kw_cands((tbk_kw_extractor *)x);
  for (size_t i = 0; i < n; i++)
    if (bump(df, c[i].key, strlen(c[i].key), 1)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  df->docs++;
  return TBK_OK;
}

tbk_status tbk_kw_df_add_key(tbk_kw_df *df, const char *key, size_t len, tbk_error *err) {
  return bump(df, key, len, 1) ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory") : TBK_OK;
}

tbk_status tbk_kw_df_merge(tbk_kw_df *df, const tbk_kw_df *other, tbk_error *err) {
  for (size_t i = 0; i < other->keys.n; i++)
    if (bump(df, kw_strtab_str(&other->keys, i), other->keys.len[i], other->df[i]))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  df->docs += other->docs;
  return TBK_OK;
}

typedef struct df_row {
  uint32_t df;
  const char *key;
} df_row;
static int by_df(const void *a, const void *b) {
  const df_row *x = a, *y = b;
  if (x->df != y->df) return x->df > y->df ? -1 : 1;
  return strcmp(x->key, y->key);
}

tbk_status tbk_kw_df_write(const tbk_kw_df *df, size_t min_df, tbk_buf *out, tbk_error *err) {
  size_t n = 0;
  df_row *rows = malloc((df->keys.n ? df->keys.n : 1) * sizeof *rows);
  if (!rows) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < df->keys.n; i++)
    if (df->df[i] >= min_df) rows[n++] = (df_row){df->df[i], kw_strtab_str(&df->keys, i)};
  qsort(rows, n, sizeof *rows, by_df);
  int bad = tbk_buf_printf(out, "tbk-keywords-df 1\ndocs %zu\nkeys %zu\n", df->docs, n);
  for (size_t i = 0; i < n && !bad; i++) bad = tbk_buf_printf(out, "%u\t%s\n", rows[i].df, rows[i].key);
  if (!bad) bad = tbk_buf_puts(out, "end\n");
  /* The checksum of everything before it, as a model's: a damaged table is
   * refused, and it is the table's identity a ranker records. */
  if (!bad) {
    unsigned char md5[16];
    char hex[33];
    tbk_md5(out->data, out->len, md5);
    tbk_md5_hex(md5, hex);
    bad = tbk_buf_printf(out, "checksum %s\n", hex);
  }
  free(rows);
  return bad ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory") : TBK_OK;
}

/* The next line of text[*at..len) without its line end, or NULL at the end. */
static const char *next_line(const char *text, size_t len, size_t *at, size_t *n) {
  if (*at >= len) return NULL;
  const char *s = text + *at;
  const char *e = memchr(s, '\n', len - *at);
  *n = e ? (size_t)(e - s) : len - *at;
  *at += *n + (e != NULL);
  return s;
}

static int parse_size(const char *s, size_t n, const char *prefix, size_t *v) {
  size_t pl = strlen(prefix);
  if (n <= pl || memcmp(s, prefix, pl) != 0) return -1;
  size_t r = 0;
  for (size_t i = pl; i < n; i++) {
    if (s[i] < '0' || s[i] > '9' || r > (SIZE_MAX - 9) / 10) return -1;
    r = r * 10 + (size_t)(s[i] - '0');
  }
  *v = r;
  return 0;
}

tbk_status tbk_kw_df_read(const char *text, size_t len, tbk_kw_df **out, tbk_error *err) {
  *out = NULL;
  tbk_kw_df *df;
  tbk_status st = tbk_kw_df_new(&df, err);
  if (st) return st;
  size_t at = 0, n, line = 0, docs = 0, keys = 0;
  const char *s;
#define BAD(...)                                       \
  do {                                                 \
    tbk_kw_df_free(df);                                \
    return tbk_fail(err, TBK_ERR_FORMAT, __VA_ARGS__); \
  } while (0)
  s = next_line(text, len, &at, &n);
  line++;
  if (!s || n != 17 || memcmp(s, "tbk-keywords-df 1", 17) != 0) BAD("line 1: not a tbk-keywords-df 1 file");
  s = next_line(text, len, &at, &n);
  line++;
  if (!s || parse_size(s, n, "docs ", &docs)) BAD("line 2: expected 'docs N'");
  s = next_line(text, len, &at, &n);
  line++;
  if (!s || parse_size(s, n, "keys ", &keys)) BAD("line 3: expected 'keys N'");
  for (size_t k = 0; k < keys; k++) {
    s = next_line(text, len, &at, &n);
    line++;
    const char *tab = s ? memchr(s, '\t', n) : NULL;
    if (!tab) BAD("line %zu: expected 'DF<TAB>KEY' (the file has fewer keys than it says)", line);
    size_t v = 0;
    for (const char *p = s; p < tab; p++) {
      if (*p < '0' || *p > '9' || v > UINT32_MAX / 10) BAD("line %zu: bad document frequency", line);
      v = v * 10 + (size_t)(*p - '0');
    }
    size_t kl = n - (size_t)(tab + 1 - s);
    if (tab == s || v == 0 || v > UINT32_MAX || v > docs || !kl) BAD("line %zu: bad document frequency or key", line);
    if (kw_strtab_find(&df->keys, tab + 1, kl) >= 0) BAD("line %zu: key listed twice", line);
    if (bump(df, tab + 1, kl, (uint32_t)v)) {
      tbk_kw_df_free(df);
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    }
  }
  s = next_line(text, len, &at, &n);
  line++;
  if (!s || n != 3 || memcmp(s, "end", 3) != 0) BAD("line %zu: expected 'end' (truncated file?)", line);
  unsigned char md5[16];
  tbk_md5(text, at, md5);
  tbk_md5_hex(md5, df->id);
  /* A checksum line (written since #34; older tables have none). */
  s = next_line(text, len, &at, &n);
  line++;
  if (s) {
    if (n != 41 || memcmp(s, "checksum ", 9) != 0) BAD("line %zu: expected 'checksum MD5' after 'end'", line);
    if (memcmp(s + 9, df->id, 32) != 0) BAD("corrupt: checksum does not match the content (line %zu)", line);
    if (at < len) BAD("corrupt: content after the checksum line (line %zu)", line + 1);
  }
#undef BAD
  df->docs = docs;
  *out = df;
  return TBK_OK;
}

tbk_status tbk_kw_df_load(const char *path, tbk_kw_df **out, tbk_error *err) {
  tbk_buf b = {0};
  *out = NULL;
  tbk_status st = tbk_read_file(path, 0, &b, err);
  if (!st) st = tbk_side_text(&b, 0, err); /* CRLF, a BOM, UTF-16 */
  if (!st) st = tbk_kw_df_read(b.data ? b.data : "", b.len, out, err);
  tbk_buf_free(&b);
  return st;
}
