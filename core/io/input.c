/* Page lists: every input form tbk accepts, turned into one list of pages.
 *
 * Input forms of tbk_page_list_add (chosen in this order):
 *   "-", a pipe  standard input, or any input that is not a regular file
 *                (a pipe such as bash's <(...) = /dev/fd/63, a FIFO, a
 *                device), copied to a temporary file ($TMPDIR or /tmp,
 *                removed by tbk_page_list_free) so it can be read twice,
 *                then told apart by its first bytes like a file below. As
 *                one page: site "-", page = the input as named.
 *   DIR          every *.html / *.htm (any case) at any depth under
 *                DIR/<site>/: the site is the first-level folder name, files
 *                directly in DIR are site "-" (single_site: every file is
 *                site "-"); page = file = DIR/relative/path. Symbolic links are followed, but a
 *                directory is never entered twice (no loops), and nesting
 *                deeper than 64 levels is skipped with a warning.
 *   *.tsv        a manifest: tab-separated, header naming the columns
 *                "site" and "page" (required), "url" and "gold" (optional),
 *                in any order, extra columns ignored. page and gold are
 *                relative to the manifest's directory (absolute paths are
 *                kept); ref.page is the page column as written. Rows whose
 *                file is missing are warned about and counted as skipped.
 *   WARC         recognised by content, not name: a file whose first bytes
 *                (after blank lines) are "WARC/", or gzip data (one member
 *                per record, or one stream), and any *.warc / *.warc.gz.
 *                WARC 1.0/1.1. Listed: response
 *                records with HTTP status 200 (or those of opt->status,
 *                opt->any_status) whose Content-Type is text/html
 *                or application/xhtml+xml, and resource records so typed by
 *                their WARC Content-Type (no or a generic Content-Type: the
 *                body must start with '<'). page = url = WARC-Target-URI, site = its
 *                host or registered domain (opt->site_key), charset = the
 *                HTTP charset parameter. Bodies are de-chunked and gzip /
 *                deflate decoded when read. Records larger than
 *                opt->max_record_bytes, corrupt or truncated gzip, and
 *                Content-Lengths that do not end at a record boundary are
 *                warned about, counted as skipped, and listing goes on (a
 *                record cut off in a truncated gzip member is listed with
 *                what could be read, and counted as skipped too). Every
 *                record met is counted by why in l->counts.
 *   ARC          first line "filedesc://" (plain or gzip): refused by name
 *                (TBK_ERR_FORMAT), never read as a page.
 *   other        a single page file, site "-".
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "io.h"
#include "util.h"
#include "warc.h"

enum { DIR_MAX_DEPTH = 64 };

void tbk_input_options_init(tbk_input_options *o) {
  o->site_key = TBK_SITE_DOMAIN;
  o->max_record_bytes = (size_t)64 << 20;
  o->single_site = 0;
  memset(o->status, 0, sizeof o->status);
  o->status[200 / 8] |= 1u << (200 % 8);
  o->any_status = 0;
}

/* The temporary copies belong to the list (a WARC copy holds many
 * records), so freeing a ref leaves them. */
static void ref_free(tbk_page_ref *r) {
  free(r->shown);
  free(r->site);
  free(r->page);
  free(r->url);
  free(r->file);
  free(r->gold);
  free(r->charset);
  free(r->record_id);
  free(r->date);
  memset(r, 0, sizeof *r);
}

int tbk_page_list_push(tbk_page_list *l, const char *site, const char *page, const char *url, const char *file,
                       const char *gold, const char *charset, uint64_t offset, uint64_t skip, int is_warc) {
  if (tbk_grow(&l->refs, &l->cap, l->n + 1, sizeof *l->refs)) return -1;
  tbk_page_ref *r = &l->refs[l->n];
  memset(r, 0, sizeof *r);
  r->site = strdup(site);
  r->page = strdup(page);
  r->url = strdup(url ? url : "");
  r->file = strdup(file);
  r->gold = strdup(gold ? gold : "");
  r->charset = charset ? strdup(charset) : NULL;
  r->offset = offset;
  r->skip = skip;
  r->is_warc = is_warc;
  r->seq = l->n_pushed++;
  if (!r->site || !r->page || !r->url || !r->file || !r->gold || (charset && !r->charset)) {
    ref_free(r);
    return -1;
  }
  l->n++;
  return 0;
}

int tbk_page_list_push_copy(tbk_page_list *l, const tbk_page_ref *r) {
  if (tbk_page_list_push(l, r->site, r->page, r->url, r->file, r->gold, r->charset, r->offset, r->skip, r->is_warc))
    return -1;
  tbk_page_ref *c = &l->refs[l->n - 1];
  c->length = r->length;
  c->why = r->why;
  c->status = r->status;
  if ((r->record_id && !(c->record_id = strdup(r->record_id))) || (r->date && !(c->date = strdup(r->date)))) {
    ref_free(c);
    l->n--;
    return -1;
  }
  return 0;
}

void tbk_page_list_free(tbk_page_list *l) {
  if (!l) return;
  for (size_t i = 0; i < l->n; i++) ref_free(&l->refs[i]);
  free(l->refs);
  for (size_t i = 0; i < l->n_temps; i++) {
    if (l->temps[i].fd >= 0) close(l->temps[i].fd);
    if (l->temps[i].path) unlink(l->temps[i].path);
    free(l->temps[i].path);
  }
  free(l->temps);
  memset(l, 0, sizeof *l);
}

void tbk_page_list_drop(tbk_page_list *l, const unsigned char *drop) {
  size_t k = 0;
  for (size_t i = 0; i < l->n; i++) {
    if (drop[i]) ref_free(&l->refs[i]);
    else l->refs[k++] = l->refs[i];
  }
  l->n = k;
}

static int seq_cmp(const tbk_page_ref *x, const tbk_page_ref *y) { return (x->seq > y->seq) - (x->seq < y->seq); }

static int ref_cmp(const void *a, const void *b) {
  const tbk_page_ref *x = a, *y = b;
  int c = strcmp(x->site, y->site);
  if (!c) c = (x->is_warc > 0) - (y->is_warc > 0);
  if (!c && x->is_warc) return seq_cmp(x, y);
  if (!c) c = strcmp(x->page, y->page);
  if (!c) c = strcmp(x->file, y->file);
  if (!c) c = (x->offset > y->offset) - (x->offset < y->offset);
  if (!c) c = (x->skip > y->skip) - (x->skip < y->skip);
  return c;
}

void tbk_page_list_sort(tbk_page_list *l) {
  if (l && l->n > 1) qsort(l->refs, l->n, sizeof *l->refs, ref_cmp);
}

static int record_cmp(const void *a, const void *b) {
  const tbk_page_ref *x = a, *y = b;
  int c = (x->is_warc > 0) - (y->is_warc > 0);
  if (c) return c;
  return x->is_warc ? seq_cmp(x, y) : ref_cmp(a, b);
}

void tbk_page_list_sort_records(tbk_page_list *l) {
  if (l && l->n > 1) qsort(l->refs, l->n, sizeof *l->refs, record_cmp);
}

static int ends_with_ci(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

static char *path_join(const char *dir, const char *name) {
  size_t d = strlen(dir), n = strlen(name);
  int slash = d > 0 && dir[d - 1] != '/';
  char *p = malloc(d + slash + n + 1);
  if (!p) return NULL;
  memcpy(p, dir, d);
  if (slash) p[d] = '/';
  memcpy(p + d + slash, name, n + 1);
  return p;
}

static void warn_skip(tbk_page_list *l, tbk_warn_fn warn, void *ctx, const char *file, const char *msg) {
  l->skipped++;
  if (warn) warn(ctx, file, msg);
}

/* Page names are written into labels (JSON), rows, --stats TSV and output
 * names, and matched as strings: a name that is not UTF-8 would come out
 * with U+FFFD (two such names one label), one with a control character
 * (a newline in a site folder) would break a TSV line. Such a name is
 * refused: NULL when name is fine, else why. */
static const char *name_fault(const char *name) {
  const unsigned char *s = (const unsigned char *)name;
  size_t n = strlen(name);
  for (size_t i = 0; i < n;) {
    if (s[i] < 0x20 || s[i] == 0x7f) return "file name holds a control character (tab, newline...)";
    size_t k = s[i] < 0x80 ? 1 : tbk_utf8_seq(s + i, n - i);
    if (!k) return "file name is not valid UTF-8";
    i += k;
  }
  return NULL;
}

/* name for a message: control bytes and bytes of no UTF-8 sequence as \xNN.
 * Caller frees; NULL when out of memory. */
static char *name_shown(const char *name) {
  const unsigned char *s = (const unsigned char *)name;
  size_t n = strlen(name);
  char *out = malloc(4 * n + 1), *o = out;
  if (!out) return NULL;
  for (size_t i = 0; i < n;) {
    size_t k = s[i] < 0x80 ? (s[i] >= 0x20 && s[i] != 0x7f) : tbk_utf8_seq(s + i, n - i);
    if (k) {
      memcpy(o, s + i, k);
      o += k;
      i += k;
    } else {
      o += sprintf(o, "\\x%02x", s[i++]);
    }
  }
  *o = '\0';
  return out;
}

/* Warn about and skip a page whose name name_fault refuses. */
static void warn_name(tbk_page_list *l, tbk_warn_fn warn, void *ctx, const char *name, const char *why,
                      const char *tail) {
  char *shown = name_shown(name);
  char msg[160];
  snprintf(msg, sizeof msg, "%s%s", why, tail);
  warn_skip(l, warn, ctx, shown ? shown : "?", msg);
  free(shown);
}

/* ------------------------------------------------------------ directory */

typedef struct dir_todo {
  char *path; /* owned */
  char *site; /* owned; NULL for the root */
  int depth;
} dir_todo;

/* Directories already entered, by device and inode: symbolic links may
 * lead back up the tree. */
typedef struct dir_seen {
  dev_t *dev; /* owned */
  ino_t *ino; /* owned */
  size_t n, cap;
} dir_seen;

static int seen_add(dir_seen *s, const struct stat *st) {
  for (size_t i = 0; i < s->n; i++)
    if (s->dev[i] == st->st_dev && s->ino[i] == st->st_ino) return 0;
  if (TBK_GROW_ALL(&s->cap, s->n + 1, TBK_ARRAY(s->dev), TBK_ARRAY(s->ino))) return -1;
  s->dev[s->n] = st->st_dev;
  s->ino[s->n] = st->st_ino;
  s->n++;
  return 1;
}

/* A walk over a directory tree: the directories still to read, the ones
 * entered. */
typedef struct dir_walk {
  tbk_page_list *l;
  const tbk_input_options *opt;
  tbk_warn_fn warn;
  void *ctx;
  dir_todo *todo; /* owned, each entry too */
  size_t ntodo, ctodo;
  dir_seen seen;
} dir_walk;

/* One entry of directory cur: an HTML file listed, a subdirectory queued
 * (once however it is reached, none deeper than DIR_MAX_DEPTH), anything
 * else passed over. -1 when out of memory. */
static int walk_entry(dir_walk *w, const dir_todo *cur, const char *name) {
  char *full = path_join(cur->path, name);
  if (!full) return -1;
  struct stat es, ls;
  int html = ends_with_ci(name, ".html") || ends_with_ci(name, ".htm");
  if (stat(full, &es) != 0) { /* dangling link, or gone meanwhile */
    if (lstat(full, &ls) == 0 && S_ISLNK(ls.st_mode))
      warn_name(w->l, w->warn, w->ctx, full, "dangling symbolic link", " (skipped)");
    free(full);
    return 0;
  }
  if (html && !S_ISREG(es.st_mode) && !S_ISDIR(es.st_mode)) {
    /* Read, a FIFO would hang the walk and a device never end: say so. */
    warn_name(w->l, w->warn, w->ctx, full,
              S_ISFIFO(es.st_mode)   ? "a FIFO, not a file"
              : S_ISSOCK(es.st_mode) ? "a socket, not a file"
                                     : "a device, not a file",
              " (skipped)");
    free(full);
    return 0;
  }
  const char *fault = (S_ISREG(es.st_mode) && html) || S_ISDIR(es.st_mode) ? name_fault(name) : NULL;
  if (fault) {
    warn_name(w->l, w->warn, w->ctx, full, fault, S_ISDIR(es.st_mode) ? " (directory skipped)" : " (skipped)");
    free(full);
    return 0;
  }
  if (S_ISREG(es.st_mode) && html) {
    const char *site = w->opt->single_site || !cur->site ? "-" : cur->site;
    int r = tbk_page_list_push(w->l, site, full, "", full, "", NULL, 0, 0, 0);
    free(full);
    return r ? -1 : 0;
  }
  int fresh = S_ISDIR(es.st_mode) ? seen_add(&w->seen, &es) : 0;
  if (fresh <= 0) {
    free(full);
    return fresh;
  }
  if (cur->depth + 1 > DIR_MAX_DEPTH) {
    char msg[256];
    snprintf(msg, sizeof msg, "directory nested deeper than %d levels; skipped", DIR_MAX_DEPTH);
    warn_skip(w->l, w->warn, w->ctx, full, msg);
    free(full);
    return 0;
  }
  char *site = strdup(cur->site ? cur->site : name);
  if (!site || tbk_grow(&w->todo, &w->ctodo, w->ntodo + 1, sizeof *w->todo)) {
    free(site);
    free(full);
    return -1;
  }
  w->todo[w->ntodo++] = (dir_todo){full, site, cur->depth + 1};
  return 0;
}

static tbk_status list_dir(tbk_page_list *l, const char *root, const struct stat *rst, const tbk_input_options *opt,
                           tbk_warn_fn warn, void *ctx, tbk_error *err) {
  dir_walk w = {l, opt, warn, ctx, NULL, 0, 0, {0}};
  size_t n0 = l->n;
  tbk_status st = TBK_OK;
  if (seen_add(&w.seen, rst) < 0 || tbk_grow(&w.todo, &w.ctodo, 1, sizeof *w.todo))
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  else if ((w.todo[0] = (dir_todo){strdup(root), NULL, 0}).path) w.ntodo = 1;
  else st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  while (w.ntodo && st == TBK_OK) {
    dir_todo cur = w.todo[--w.ntodo];
    DIR *d = opendir(cur.path);
    if (!d && cur.depth == 0) {
      st = tbk_fail(err, TBK_ERR_IO, "cannot open directory: %s", strerror(errno));
    } else if (!d) {
      char msg[256];
      snprintf(msg, sizeof msg, "cannot open directory: %s", strerror(errno));
      warn_skip(l, warn, ctx, cur.path, msg);
    }
    struct dirent *e;
    while (d && st == TBK_OK && (e = readdir(d)) != NULL)
      if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && walk_entry(&w, &cur, e->d_name))
        st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    if (d) closedir(d);
    free(cur.path);
    free(cur.site);
  }
  if (st == TBK_OK && l->n == n0)
    st = tbk_fail(err, TBK_ERR_EMPTY, "no HTML files (*.html, *.htm) under this directory");
  for (size_t i = 0; i < w.ntodo; i++) {
    free(w.todo[i].path);
    free(w.todo[i].site);
  }
  free(w.todo);
  free(w.seen.dev);
  free(w.seen.ino);
  return st;
}

/* ------------------------------------------------------------- manifest */

/* Cut line (in place) at tabs into at most max fields; returns the count. */
static size_t split_tabs(char *line, char **fields, size_t max) {
  size_t n = 0;
  char *p = line;
  while (n < max) {
    fields[n++] = p;
    char *tab = strchr(p, '\t');
    if (!tab) break;
    *tab = '\0';
    p = tab + 1;
  }
  return n;
}

static void chomp(char *s, ssize_t *len) {
  while (*len > 0 && (s[*len - 1] == '\n' || s[*len - 1] == '\r')) s[--*len] = '\0';
}

enum { TSV_MAX_COLS = 256 };

/* The columns of a manifest's header line (cut in place): site and page
 * are required, url and gold optional (-1 when absent). */
enum { COL_SITE, COL_PAGE, COL_URL, COL_GOLD, COL_COUNT };
static tbk_status manifest_columns(char *line, int col[COL_COUNT], tbk_error *err) {
  static const char *const names[COL_COUNT] = {"site", "page", "url", "gold"};
  /* A UTF-8 BOM from spreadsheet exports would hide the first column name. */
  char *hdr = strncmp(line, "\xEF\xBB\xBF", 3) == 0 ? line + 3 : line;
  char *fields[TSV_MAX_COLS];
  size_t nf = split_tabs(hdr, fields, TSV_MAX_COLS);
  for (int c = 0; c < COL_COUNT; c++) col[c] = -1;
  for (size_t i = 0; i < nf; i++)
    for (int c = 0; c < COL_COUNT; c++)
      if (col[c] < 0 && strcmp(fields[i], names[c]) == 0) {
        col[c] = (int)i;
        break;
      }
  int no_site = col[COL_SITE] < 0, no_page = col[COL_PAGE] < 0;
  if (!no_site && !no_page) return TBK_OK;
  return tbk_fail(err, TBK_ERR_FORMAT, "manifest header lacks the column%s %s%s%s", no_site && no_page ? "s" : "",
                  no_site ? "\"site\"" : "", no_site && no_page ? " and " : "", no_page ? "\"page\"" : "");
}

static tbk_status list_manifest(tbk_page_list *l, const char *path, const tbk_input_options *opt, tbk_warn_fn warn,
                                void *ctx, tbk_error *err) {
  (void)opt;
  FILE *f;
  tbk_status open_st = tbk_open_read(path, &f, err);
  if (open_st) return open_st;
  char *line = NULL, *dir = NULL, *file = NULL, *gold = NULL;
  size_t lcap = 0, n0 = l->n;
  char *fields[TSV_MAX_COLS];
  tbk_status st = TBK_OK;
  char msg[256];

  ssize_t len = getline(&line, &lcap, f);
  if (len < 0) {
    st = ferror(f) ? tbk_fail(err, TBK_ERR_IO, "read error: %s", strerror(errno))
                   : tbk_fail(err, TBK_ERR_FORMAT, "empty manifest (no header line)");
    goto out;
  }
  chomp(line, &len);
  /* Line ends and encodings a TSV must not have, named (not "no site
   * column"): CR alone (classic Mac OS), UTF-16 or binary (NULs). */
  if (memchr(line, '\0', (size_t)len)) {
    st = tbk_fail(err, TBK_ERR_FORMAT, "NUL bytes in the header line: UTF-16 or binary, not a UTF-8 TSV");
    goto out;
  }
  if (memchr(line, '\r', (size_t)len)) {
    st = tbk_fail(err, TBK_ERR_FORMAT, "lines end in CR alone (classic Mac OS): save it with LF (or CRLF) line ends");
    goto out;
  }
  if (len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) memmove(line, line + 3, (size_t)(len -= 3) + 1); /* BOM */
  int col[COL_COUNT];
  if ((st = manifest_columns(line, col, err))) goto out;
  int c_site = col[COL_SITE], c_page = col[COL_PAGE], c_url = col[COL_URL], c_gold = col[COL_GOLD];
  const char *slash = strrchr(path, '/');
  dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup("");
  if (!dir) goto nomem;

  size_t row = 0;
  while ((len = getline(&line, &lcap, f)) >= 0) {
    row++;
    chomp(line, &len);
    if (len == 0) continue;
    size_t nf = split_tabs(line, fields, TSV_MAX_COLS);
    const char *site = (size_t)c_site < nf ? fields[c_site] : "";
    const char *page = (size_t)c_page < nf ? fields[c_page] : "";
    const char *url = c_url >= 0 && (size_t)c_url < nf ? fields[c_url] : "";
    const char *g = c_gold >= 0 && (size_t)c_gold < nf ? fields[c_gold] : "";
    if (!*page) {
      snprintf(msg, sizeof msg, "manifest row %zu: empty page column", row);
      warn_skip(l, warn, ctx, path, msg);
      continue;
    }
    const char *fault = name_fault(page);
    if (!fault) fault = name_fault(site);
    if (fault) {
      snprintf(msg, sizeof msg, "manifest row %zu: ", row);
      char *shown = name_shown(page);
      size_t ml = strlen(msg);
      snprintf(msg + ml, sizeof msg - ml, "%s (skipped)",
               name_fault(page) ? fault : "site name holds a control character or is not UTF-8");
      warn_skip(l, warn, ctx, shown ? shown : "?", msg);
      free(shown);
      continue;
    }
    free(file);
    free(gold);
    gold = NULL;
    file = page[0] == '/' ? strdup(page) : path_join(dir, page);
    if (!file) goto nomem;
    struct stat fs;
    if (stat(file, &fs) != 0 || S_ISDIR(fs.st_mode)) {
      snprintf(msg, sizeof msg, "manifest row %zu: %s", row,
               stat(file, &fs) == 0 ? "is a directory, not a page file" : "no such file");
      warn_skip(l, warn, ctx, file, msg);
      continue;
    }
    if (*g) {
      gold = g[0] == '/' ? strdup(g) : path_join(dir, g);
      if (!gold) goto nomem;
    }
    if (tbk_page_list_push(l, *site ? site : "-", page, url, file, gold ? gold : "", NULL, 0, 0, 0)) goto nomem;
  }
  if (ferror(f)) {
    st = tbk_fail(err, TBK_ERR_IO, "read error: %s", strerror(errno));
    goto out;
  }
  if (l->n == n0) st = tbk_fail(err, TBK_ERR_EMPTY, "manifest lists no readable page");
  goto out;
nomem:
  st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
out:
  fclose(f);
  free(line);
  free(dir);
  free(file);
  free(gold);
  return st;
}

/* ----------------------------------------------------------- by content */

/* What an input holds, told from its first bytes. */
enum in_kind { IN_OTHER, IN_WARC, IN_ARC, IN_GZIP };

/* After blank lines (as between WARC records): "WARC/" or ARC's first
 * line "filedesc://". */
static enum in_kind sniff_plain(const unsigned char *p, size_t n) {
  size_t i = 0;
  while (i < n && (p[i] == '\r' || p[i] == '\n')) i++;
  if (n - i >= 5 && memcmp(p + i, "WARC/", 5) == 0) return IN_WARC;
  if (n - i >= 11 && strncasecmp((const char *)p + i, "filedesc://", 11) == 0) return IN_ARC;
  return IN_OTHER;
}

/* The kind of the input whose first n bytes are p: gzip data is a WARC
 * (IN_GZIP: the WARC reader says so when it is not one) unless it
 * inflates to an ARC file. */
static enum in_kind sniff_bytes(const unsigned char *p, size_t n) {
  if (n < 2 || p[0] != 0x1f || p[1] != 0x8b) return sniff_plain(p, n);
  unsigned char out[64];
  size_t got = 0;
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 15 + 16) == Z_OK) {
    z.next_in = (Bytef *)p;
    z.avail_in = (uInt)(n > 65536 ? 65536 : n);
    z.next_out = out;
    z.avail_out = sizeof out;
    (void)inflate(&z, Z_SYNC_FLUSH);
    got = sizeof out - z.avail_out;
    inflateEnd(&z);
  }
  return sniff_plain(out, got) == IN_ARC ? IN_ARC : IN_GZIP;
}

static tbk_status arc_refused(tbk_error *err) {
  return tbk_fail(err, TBK_ERR_FORMAT,
                  "an ARC file (first line \"filedesc://\"), not WARC: ARC is not read; convert it to WARC "
                  "first (e.g. with warctools' arc2warc)");
}

/* Warnings about a temporary copy name the input as given. */
typedef struct shown_warn {
  tbk_warn_fn warn;
  void *ctx;
  const char *shown;
} shown_warn;

static void warn_shown(void *c, const char *file, const char *msg) {
  shown_warn *w = c;
  (void)file;
  if (w->warn) w->warn(w->ctx, w->shown, msg);
}

/* A WARC record becomes a page of the site its URL names. */
typedef struct warc_lister {
  tbk_page_list *l;
  const char *file;
  tbk_site_key site_key;
} warc_lister;

static int on_warc_record(void *ctx, const tbk_warc_entry *e) {
  warc_lister *w = ctx;
  char *site = tbk_site_of_url(e->uri, w->site_key);
  int r = tbk_page_list_push(w->l, site ? site : "-", e->uri, e->uri, w->file, "", e->charset, e->offset, e->skip, 1);
  free(site);
  if (r) return r;
  tbk_page_ref *ref = &w->l->refs[w->l->n - 1];
  ref->length = e->length;
  ref->why = e->why;
  ref->status = e->status;
  /* Kept from the listing, so the trace never reads the head again. */
  if ((e->record_id && !(ref->record_id = strdup(e->record_id))) || (e->date && !(ref->date = strdup(e->date)))) {
    ref_free(ref);
    w->l->n--;
    return -1;
  }
  return 0;
}

static tbk_status list_warc(tbk_page_list *l, const char *path, const char *shown, const tbk_input_options *opt,
                            tbk_warn_fn warn, void *ctx, tbk_error *err) {
  warc_lister wl = {l, path, opt->site_key};
  shown_warn sw = {warn, ctx, shown};
  l->has_counts = 1;
  tbk_warc_filter filter;
  tbk_warc_filter_init(&filter, opt->max_record_bytes);
  memcpy(filter.status, opt->status, sizeof filter.status);
  filter.any_status = opt->any_status;
  return tbk_warc_list(path, &filter, on_warc_record, &wl, warn ? warn_shown : NULL, &sw, &l->skipped, &l->counts, err);
}

/* ------------------------------------------------------- stdin, pipes */

/* Copy stream `in` (named shown) to a temporary file owned by the list;
 * *kind is told from its first bytes. A page (IN_OTHER) is limited to
 * opt->max_record_bytes as it is copied; a WARC is not (its records are). */
static tbk_status copy_stream(tbk_page_list *l, FILE *in, const char *shown, const tbk_input_options *opt,
                              enum in_kind *kind, tbk_error *err) {
  if (tbk_grow(&l->temps, &l->cap_temps, l->n_temps + 1, sizeof *l->temps))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  const char *tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
  char *tmpl = path_join(tmpdir, "tbk-stdin-XXXXXX");
  if (!tmpl) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  int fd = mkstemp(tmpl);
  if (fd < 0) {
    tbk_status st = tbk_fail(err, TBK_ERR_IO, "cannot create a temporary file in %s: %s", tmpdir, strerror(errno));
    free(tmpl);
    return st;
  }
  /* The copy is unlinked at once and read back through /proc/self/fd, so
   * that a signal ending the program (the library installs no handlers)
   * leaves nothing behind. Without /proc the named file stays until the
   * list is freed. */
  char anon[48];
  int keep = -1;
  snprintf(anon, sizeof anon, "/proc/self/fd/%d", fd);
  if (access(anon, R_OK) == 0 && (keep = dup(fd)) >= 0 && unlink(tmpl) == 0) {
    free(tmpl);
    tmpl = NULL;
  } else if (keep >= 0) {
    close(keep);
    keep = -1;
  }
  l->temps[l->n_temps++] = (tbk_temp_input){tmpl, keep};
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    close(fd);
    return tbk_fail(err, TBK_ERR_IO, "cannot write temporary file: %s", strerror(errno));
  }
  tbk_status st = TBK_OK;
  char chunk[65536];
  size_t n, total = 0;
  *kind = IN_OTHER;
  while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
    if (total == 0) *kind = sniff_bytes((const unsigned char *)chunk, n);
    total += n;
    if (*kind == IN_OTHER && opt->max_record_bytes && total > opt->max_record_bytes) {
      st = strcmp(shown, "-") == 0
               ? tbk_fail(err, TBK_ERR_LIMIT, "standard input exceeds max-record-bytes (%zu)", opt->max_record_bytes)
               : tbk_fail(err, TBK_ERR_LIMIT, "input exceeds max-record-bytes (%zu)", opt->max_record_bytes);
      break;
    }
    if (fwrite(chunk, 1, n, f) != n) {
      st = tbk_fail(err, TBK_ERR_IO, "cannot write temporary file: %s", strerror(errno));
      break;
    }
  }
  if (!st && ferror(in))
    st = strcmp(shown, "-") == 0 ? tbk_fail(err, TBK_ERR_IO, "cannot read standard input: %s", strerror(errno))
                                 : tbk_fail(err, TBK_ERR_IO, "read error: %s", strerror(errno));
  if (fclose(f) != 0 && !st) st = tbk_fail(err, TBK_ERR_IO, "cannot write temporary file: %s", strerror(errno));
  return st;
}

/* A stream input: copied, then listed by what it holds. Its refs are
 * marked as reading the copy (is_temp) and named as given (shown). */
static tbk_status list_stream(tbk_page_list *l, FILE *in, const char *shown, const tbk_input_options *opt,
                              tbk_warn_fn warn, void *ctx, tbk_error *err) {
  enum in_kind kind;
  size_t n0 = l->n;
  tbk_status st = copy_stream(l, in, shown, opt, &kind, err);
  if (st) return st;
  const tbk_temp_input *t = &l->temps[l->n_temps - 1];
  char anon[48];
  if (t->fd >= 0) snprintf(anon, sizeof anon, "/proc/self/fd/%d", t->fd);
  const char *path = t->fd >= 0 ? anon : t->path;
  if (kind == IN_ARC) st = arc_refused(err);
  else if (kind != IN_OTHER) st = list_warc(l, path, shown, opt, warn, ctx, err);
  else if (tbk_page_list_push(l, "-", shown, "", path, "", NULL, 0, 0, 0))
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t i = n0; i < l->n && st == TBK_OK; i++) {
    tbk_page_ref *r = &l->refs[i];
    r->is_temp = t->fd >= 0 ? 2 : 1;
    r->temp_fd = t->fd;
    if (!(r->shown = strdup(shown))) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  return st;
}

/* ------------------------------------------------------------------ add */

/* The first bytes of a regular file (up to cap) into buf; -1 with errno. */
static ssize_t read_prefix(const char *path, unsigned char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t n = fread(buf, 1, cap, f);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    errno = EIO;
    return -1;
  }
  return (ssize_t)n;
}

tbk_status tbk_page_list_add(tbk_page_list *l, const char *input, const tbk_input_options *opt, tbk_warn_fn warn,
                             void *warn_ctx, tbk_error *err) {
  if (!l || !input || !*input) return tbk_fail(err, TBK_ERR_ARG, "no input given");
  tbk_input_options defaults;
  if (!opt) {
    tbk_input_options_init(&defaults);
    opt = &defaults;
  }
  size_t n0 = l->n, t0 = l->n_temps;
  tbk_status st;
  struct stat s;
  if (strcmp(input, "-") == 0) {
    st = list_stream(l, stdin, "-", opt, warn, warn_ctx, err);
  } else if (stat(input, &s) != 0) {
    st = tbk_fail(err, TBK_ERR_IO, "cannot open: %s", strerror(errno));
  } else if (S_ISDIR(s.st_mode)) {
    st = list_dir(l, input, &s, opt, warn, warn_ctx, err);
  } else if (S_ISFIFO(s.st_mode) || S_ISSOCK(s.st_mode)) {
    /* A pipe (<(...) is /dev/fd/63) or FIFO can be read once: copied.
     * Opened without waiting for a writer (none: an empty page). */
    FILE *in;
    st = tbk_open_read(input, &in, err);
    if (!st) {
      st = list_stream(l, in, input, opt, warn, warn_ctx, err);
      fclose(in);
    }
  } else if (!S_ISREG(s.st_mode)) {
    /* a device: one page, refused by name when it is read */
    st = tbk_page_list_push(l, "-", input, "", input, "", NULL, 0, 0, 0) ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory")
                                                                         : TBK_OK;
  } else if (ends_with_ci(input, ".tsv")) {
    st = list_manifest(l, input, opt, warn, warn_ctx, err);
  } else {
    unsigned char head[4096];
    ssize_t got = read_prefix(input, head, sizeof head);
    enum in_kind kind = got < 0 ? IN_OTHER : sniff_bytes(head, (size_t)got);
    if (got < 0) st = tbk_fail(err, TBK_ERR_IO, "cannot open: %s", strerror(errno));
    else if (kind == IN_ARC) st = arc_refused(err);
    else if (kind != IN_OTHER || tbk_warc_name(input)) st = list_warc(l, input, input, opt, warn, warn_ctx, err);
    else if (name_fault(input))
      st = tbk_fail(err, TBK_ERR_FORMAT, "%s: refused as a page name (it would not round-trip through labels)",
                    name_fault(input));
    else
      st = tbk_page_list_push(l, "-", input, "", input, "", NULL, 0, 0, 0)
               ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory")
               : TBK_OK;
  }
  /* A failed input adds nothing: the caller may report it and go on. */
  if (st) {
    while (l->n > n0) ref_free(&l->refs[--l->n]);
    while (l->n_temps > t0) {
      tbk_temp_input *t = &l->temps[--l->n_temps];
      if (t->fd >= 0) close(t->fd);
      if (t->path) unlink(t->path);
      free(t->path);
    }
  }
  return st;
}

tbk_status tbk_page_ref_read(const tbk_page_ref *ref, const tbk_input_options *opt, tbk_buf *out, tbk_error *err) {
  if (!ref || !out || !ref->file) return tbk_fail(err, TBK_ERR_ARG, "no page given");
  size_t max = opt ? opt->max_record_bytes : (size_t)64 << 20;
  if (ref->is_warc)
    return tbk_warc_read(ref->file, ref->offset, ref->skip, ref->length, ref->why == TBK_WREC_CUT, max, out, err);
  tbk_status st = tbk_read_file(ref->file, max, out, err);
  if (st == TBK_ERR_LIMIT) return tbk_fail(err, st, "file exceeds max-page-bytes (%zu)", max);
  return st;
}

tbk_status tbk_page_ref_trace(const tbk_page_ref *ref, tbk_buf *out, tbk_error *err) {
  out->len = 0;
  if (!ref || !ref->is_warc) return TBK_OK;
  const char *file = tbk_page_ref_file(ref);
  int bad = tbk_buf_puts(out, ",\"warc_file\":") || tbk_buf_json_str(out, file, strlen(file)) ||
            tbk_buf_printf(out, ",\"warc_offset\":%" PRIu64, ref->offset) ||
            (ref->skip && tbk_buf_printf(out, ",\"warc_skip\":%" PRIu64, ref->skip));
  if (!bad && ref->record_id)
    bad = tbk_buf_puts(out, ",\"warc_record_id\":") || tbk_buf_json_str(out, ref->record_id, strlen(ref->record_id));
  if (!bad && ref->date)
    bad = tbk_buf_puts(out, ",\"warc_date\":") || tbk_buf_json_str(out, ref->date, strlen(ref->date));
  if (bad) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return TBK_OK;
}
