/* Labels read back from a labelling run's JSON Lines, looked up by (page,
 * path) while tbk-features walks the same pages again. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "label.h"
#include "util.h"

typedef struct label_entry {
  size_t key; /* offset of "page\0path\0" in the arena */
  size_t page_len, path_len;
  size_t lineno;
  char md5[33];
  signed char label;
  unsigned char used;        /* 1 matched, 2 duplicate line, 3 conflicting labels */
  unsigned char page_loaded; /* on a page's first entry: the page was read */
} label_entry;

struct tbk_label_set {
  char *path;    /* as read from, for messages (owned) */
  tbk_buf arena; /* keys */
  label_entry *e;
  size_t n, cap;
  uint32_t *slots; /* entry index + 1 by (page, path); 0 = empty */
  size_t nslots;
  uint32_t *page_slots; /* entry index + 1 of each page's first entry */
  size_t npages;
};

static const char *entry_page(const tbk_label_set *s, const label_entry *e) { return s->arena.data + e->key; }
static const char *entry_path(const tbk_label_set *s, const label_entry *e) {
  return s->arena.data + e->key + e->page_len + 1;
}

static uint64_t key_hash(const char *page, size_t pl, const char *path, size_t ql) {
  return tbk_hash64(page, pl) ^ (tbk_hash64(path, ql) * 0x9E3779B97F4A7C15ULL);
}

static void warn_line(tbk_warn_fn warn, void *ctx, const char *path, size_t lineno, const char *why);

static label_entry *find_entry(const tbk_label_set *s, const char *page, const char *path) {
  if (!s->nslots) return NULL;
  size_t pl = strlen(page), ql = strlen(path);
  size_t h = key_hash(page, pl, path, ql) & (s->nslots - 1);
  for (; s->slots[h]; h = (h + 1) & (s->nslots - 1)) {
    label_entry *e = &s->e[s->slots[h] - 1];
    if (e->page_len == pl && e->path_len == ql && memcmp(entry_page(s, e), page, pl) == 0 &&
        memcmp(entry_path(s, e), path, ql) == 0)
      return e;
  }
  return NULL;
}

/* The first entry of a page, or NULL when the page has no labels. */
static label_entry *page_entry(const tbk_label_set *s, const char *page) {
  if (!s->npages) return NULL;
  size_t pl = strlen(page);
  size_t h = tbk_hash64(page, pl) & (s->npages - 1);
  for (; s->page_slots[h]; h = (h + 1) & (s->npages - 1)) {
    label_entry *e = &s->e[s->page_slots[h] - 1];
    if (e->page_len == pl && memcmp(entry_page(s, e), page, pl) == 0) return e;
  }
  return NULL;
}

/* Both indexes are built once every line is read: the entries no longer
 * move then. A block labelled twice alike keeps its first line; labelled
 * both ways (or with two fingerprints) it is not known which line is right,
 * so the block gets no label and each later line is warned about and
 * counted in *bad_lines. */
static tbk_status index_entries(tbk_label_set *s, const char *file, tbk_warn_fn warn, void *warn_ctx, size_t *bad_lines,
                                tbk_error *err) {
  s->nslots = 16;
  while (s->nslots < 2 * s->n) s->nslots *= 2;
  s->npages = s->nslots;
  s->slots = calloc(s->nslots, sizeof *s->slots);
  s->page_slots = calloc(s->npages, sizeof *s->page_slots);
  if (!s->slots || !s->page_slots) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < s->n; i++) {
    label_entry *e = &s->e[i];
    const char *page = entry_page(s, e), *path = entry_path(s, e);
    label_entry *first = find_entry(s, page, path);
    if (first) {
      e->used = 2;
      if (first->label != e->label || strcmp(first->md5, e->md5) != 0) {
        char why[96];
        snprintf(why, sizeof why, "conflicts with the label of line %zu for the same block", first->lineno);
        warn_line(warn, warn_ctx, file, e->lineno, why);
        first->used = 3;
        ++*bad_lines;
      }
      continue;
    }
    size_t h = key_hash(page, e->page_len, path, e->path_len) & (s->nslots - 1);
    while (s->slots[h]) h = (h + 1) & (s->nslots - 1);
    s->slots[h] = (uint32_t)i + 1;
    if (page_entry(s, page)) continue;
    h = tbk_hash64(page, e->page_len) & (s->npages - 1);
    while (s->page_slots[h]) h = (h + 1) & (s->npages - 1);
    s->page_slots[h] = (uint32_t)i + 1;
  }
  return TBK_OK;
}

static int is_md5_hex(const char *s) {
  size_t n = 0;
  for (; s[n]; n++)
    if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'))) return 0;
  return n == 32;
}

/* +1, -1, 0 for an ignored block (what tbk-label and tbk-features write),
 * or 2 for any other value, which would otherwise pass as "ignored". */
static int label_value(const tbk_jsonl_obj *o) {
  const char *lab = tbk_jsonl_str(o, "label");
  if (lab) {
    if (strcmp(lab, "template") == 0 || strcmp(lab, "boilerplate") == 0) return 1;
    if (strcmp(lab, "content") == 0) return -1;
    return strcmp(lab, "ignored") == 0 ? 0 : 2;
  }
  double d = tbk_jsonl_num(o, "label", NAN);
  return d == 1 ? 1 : d == -1 ? -1 : d == 0 ? 0 : 2;
}

static tbk_status add_entry(tbk_label_set *s, const char *page, const char *path, const char *md5, int label,
                            size_t lineno, tbk_error *err) {
  if (tbk_grow((void **)&s->e, &s->cap, s->n + 1, sizeof *s->e)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  label_entry *e = &s->e[s->n++];
  memset(e, 0, sizeof *e);
  e->key = s->arena.len;
  e->page_len = strlen(page);
  e->path_len = strlen(path);
  memcpy(e->md5, md5, 33);
  e->label = (signed char)label;
  e->lineno = lineno;
  if (tbk_buf_append(&s->arena, page, e->page_len + 1) || tbk_buf_append(&s->arena, path, e->path_len + 1))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return TBK_OK;
}

static void warn_line(tbk_warn_fn warn, void *ctx, const char *path, size_t lineno, const char *why) {
  if (!warn) return;
  size_t n = strlen(path) + 24;
  char *where = malloc(n);
  if (!where) return;
  snprintf(where, n, "%s:%zu", path, lineno);
  char msg[sizeof((tbk_error *)0)->msg + 16];
  snprintf(msg, sizeof msg, "%s (skipped)", why);
  warn(ctx, where, msg);
  free(where);
}

/* One line of the file: an entry, nothing (an ignored block), or a broken
 * line (1, warned about). */
static tbk_status read_line(tbk_label_set *s, const char *line, size_t len, const char *path, size_t lineno,
                            tbk_warn_fn warn, void *warn_ctx, int *broken, tbk_error *err) {
  tbk_jsonl_obj *o = NULL;
  tbk_error perr = {0};
  *broken = 0;
  if (tbk_jsonl_parse(line, len, &o, &perr) != TBK_OK) {
    if (perr.code == TBK_ERR_NOMEM) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    warn_line(warn, warn_ctx, path, lineno, perr.msg);
    *broken = 1;
    return TBK_OK;
  }
  const char *page = tbk_jsonl_str(o, "page"), *bpath = tbk_jsonl_str(o, "path"), *md5 = tbk_jsonl_str(o, "md5");
  tbk_status st = TBK_OK;
  if (!page || !bpath || !md5 || !is_md5_hex(md5) || !tbk_jsonl_has(o, "label")) {
    warn_line(warn, warn_ctx, path, lineno, "not a label line (needs page, path, md5 and label)");
    *broken = 1;
  } else {
    int label = label_value(o);
    /* A chunk label (tbk-label --method chunks) that is not a block's has
     * no block to go to. */
    if (label == 2) {
      warn_line(warn, warn_ctx, path, lineno,
                "invalid label (not template, boilerplate, content, ignored, 1, -1 or 0)");
      *broken = 1;
    } else if (label && tbk_jsonl_num(o, "block", 1) == 0) {
      label = 0;
    }
    if (label == 1 || label == -1) st = add_entry(s, page, bpath, md5, label, lineno, err);
  }
  tbk_jsonl_free(o);
  return st;
}

/* The next line of f into line (without its newline), at most
 * TBK_LABEL_LINE_MAX bytes kept: a longer one is read to its end and
 * *too_long set, so one endless line cannot take all memory. -1 at the end
 * of the file, -2 when out of memory. */
static int next_line(FILE *f, tbk_buf *line, int *too_long) {
  line->len = 0;
  *too_long = 0;
  char chunk[4096];
  size_t k = 0, n = 0;
  int c;
  while ((c = getc_unlocked(f)) != EOF && c != '\n') {
    n++;
    chunk[k++] = (char)c;
    if (k < sizeof chunk) continue;
    if (line->len + k > TBK_LABEL_LINE_MAX) *too_long = 1;
    else if (tbk_buf_append(line, chunk, k)) return -2;
    k = 0;
  }
  if (line->len + k > TBK_LABEL_LINE_MAX) *too_long = 1;
  else if (k && tbk_buf_append(line, chunk, k)) return -2;
  if (c == EOF && n == 0) return -1;
  while (line->len && line->data[line->len - 1] == '\r') line->len--;
  return 0;
}

static tbk_status read_stream(tbk_label_set *s, FILE *f, const char *path, tbk_warn_fn warn, void *warn_ctx,
                              size_t *bad_lines, tbk_error *err) {
  tbk_buf line = {0};
  size_t lineno = 0;
  int r, too_long;
  tbk_status st = TBK_OK;
  while (st == TBK_OK && (r = next_line(f, &line, &too_long)) == 0) {
    lineno++;
    if (too_long) {
      char why[64];
      snprintf(why, sizeof why, "line longer than %zu bytes", (size_t)TBK_LABEL_LINE_MAX);
      warn_line(warn, warn_ctx, path, lineno, why);
      ++*bad_lines;
      continue;
    }
    if (line.len == 0) continue;
    const char *text = line.data;
    size_t tlen = line.len;
    if (lineno == 1 && tlen >= 2 &&
        (((unsigned char)text[0] == 0xFF && (unsigned char)text[1] == 0xFE) ||
         ((unsigned char)text[0] == 0xFE && (unsigned char)text[1] == 0xFF))) {
      st = tbk_fail(err, TBK_ERR_FORMAT, "UTF-16 (byte-order mark): labels are UTF-8 JSON Lines");
      break;
    }
    if (lineno == 1 && tlen >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) text += 3, tlen -= 3; /* a UTF-8 BOM */
    while (tlen && text[tlen - 1] == '\r') tlen--;                                              /* CRLF */
    if (tlen == 0) continue;
    int broken;
    st = read_line(s, text, tlen, path, lineno, warn, warn_ctx, &broken, err);
    *bad_lines += (size_t)broken;
  }
  tbk_buf_free(&line);
  if (st == TBK_OK && r == -2) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (st == TBK_OK && ferror(f)) st = tbk_fail(err, TBK_ERR_IO, "read error");
  /* Nothing at all is no set of labels: most often a FIFO nobody writes
   * to (tbk_open_read does not wait for one) or a labelling run that
   * failed, and reading it as "no block labelled" would hide either. */
  if (st == TBK_OK && lineno == 0) st = tbk_fail(err, TBK_ERR_FORMAT, "empty labels file (0 bytes)");
  return st;
}

tbk_status tbk_label_set_read(const char *path, tbk_warn_fn warn, void *warn_ctx, tbk_label_set **out,
                              size_t *bad_lines, tbk_error *err) {
  *out = NULL;
  *bad_lines = 0;
  tbk_label_set *s = calloc(1, sizeof *s);
  if (s && !(s->path = strdup(path))) {
    free(s);
    s = NULL;
  }
  if (!s) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  int is_stdin = strcmp(path, "-") == 0;
  FILE *f;
  tbk_status open_st = tbk_open_read(path, &f, err);
  if (open_st) {
    tbk_label_set_free(s);
    return open_st;
  }
  tbk_status st = read_stream(s, f, path, warn, warn_ctx, bad_lines, err);
  if (!is_stdin) fclose(f);
  if (st == TBK_OK) st = index_entries(s, path, warn, warn_ctx, bad_lines, err);
  if (st == TBK_OK) *out = s;
  else tbk_label_set_free(s);
  return st;
}

void tbk_label_set_free(tbk_label_set *s) {
  if (!s) return;
  free(s->path);
  tbk_buf_free(&s->arena);
  free(s->e);
  free(s->slots);
  free(s->page_slots);
  free(s);
}

int tbk_label_set_has_page(const tbk_label_set *s, const char *page) { return page_entry(s, page) != NULL; }

void tbk_label_set_page_read(tbk_label_set *s, const char *page) {
  label_entry *e = page_entry(s, page);
  if (e) e->page_loaded = 1;
}

tbk_label_match tbk_label_set_match(tbk_label_set *s, const char *page, const char *path, const char *md5_hex,
                                    int *label, const char **labelled_md5) {
  label_entry *e = find_entry(s, page, path);
  if (!e || e->used >= 2) return TBK_MATCH_NONE;
  e->used = 1;
  *label = e->label;
  *labelled_md5 = e->md5;
  return strcmp(e->md5, md5_hex) == 0 ? TBK_MATCH_OK : TBK_MATCH_CHANGED;
}

size_t tbk_label_set_pages(const tbk_label_set *s, const char **first) {
  size_t n = 0;
  *first = NULL;
  for (size_t k = 0; k < s->n; k++) {
    const label_entry *e = &s->e[k];
    if (page_entry(s, entry_page(s, e)) != e) continue;
    if (!n++) *first = entry_page(s, e);
  }
  return n;
}

size_t tbk_label_set_unmatched(const tbk_label_set *s, tbk_warn_fn warn, void *warn_ctx, size_t *unread) {
  size_t missing = 0;
  *unread = 0;
  for (size_t k = 0; k < s->n; k++) {
    const label_entry *e = &s->e[k];
    if (e->used) continue;
    if (!page_entry(s, entry_page(s, e))->page_loaded) {
      ++*unread;
      continue;
    }
    missing++;
    if (!warn) continue;
    /* Named by the labels file and line, with the page and block. */
    const char *path = entry_path(s, e), *page = entry_page(s, e);
    size_t n = strlen(path) + strlen(page) + 64, fn = strlen(s->path) + 24;
    char *msg = malloc(n), *file = malloc(fn);
    if (msg && file) {
      snprintf(msg, n, "labelled block %s of %s not found on that page (skipped)", path, page);
      snprintf(file, fn, "%s:%zu", s->path, e->lineno);
      warn(warn_ctx, file, msg);
    }
    free(msg);
    free(file);
  }
  return missing;
}
