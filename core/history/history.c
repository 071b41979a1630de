/* The site-history store (history.h) on SQLite.
 *
 * Tables: meta (format, identity), sites (id, name, pages), pages (site,
 * key: the page's key hashed) and fps (site, fp, df), the last two WITHOUT
 * ROWID so a lookup is one B-tree descent. WAL with synchronous=NORMAL:
 * a killed process never corrupts the store or loses a committed page
 * (only a power loss may drop the last commits). */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "model.h"
#include "page_view.h"
#include "text.h"

#define HISTORY_FORMAT "tbk-history 1"

const tbk_history_options tbk_history_options_default = {.read_only = 0, .commit_pages = 256, .identity = NULL};

/* A page added and not yet committed: its fingerprints are
 * fps[first .. first + n), sorted and unique. */
typedef struct pending_page {
  int64_t site, key;
  size_t first, n;
} pending_page;

/* (site, fingerprint) -> pages added in this run, not yet committed. */
typedef struct overlay_slot {
  int64_t site; /* 0: empty (site ids start at 1) */
  uint64_t fp;
  uint32_t n;
} overlay_slot;

typedef struct site_fp {
  int64_t site;
  uint64_t fp;
} site_fp;

enum { Q_SITE, Q_ADD_SITE, Q_HAS_PAGE, Q_DF, Q_ADD_PAGE, Q_ADD_FP, Q_SITE_PAGES, Q_COUNT };

static const char *const QUERIES[Q_COUNT] = {
    [Q_SITE] = "SELECT id, pages FROM sites WHERE name = ?1",
    [Q_ADD_SITE] = "INSERT OR IGNORE INTO sites(name, pages) VALUES(?1, 0)",
    [Q_HAS_PAGE] = "SELECT 1 FROM pages WHERE site = ?1 AND key = ?2",
    [Q_DF] = "SELECT df FROM fps WHERE site = ?1 AND fp = ?2",
    [Q_ADD_PAGE] = "INSERT OR IGNORE INTO pages(site, key) VALUES(?1, ?2)",
    [Q_ADD_FP] = ("INSERT INTO fps(site, fp, df) VALUES(?1, ?2, ?3) "
                  "ON CONFLICT(site, fp) DO UPDATE SET df = df + excluded.df"),
    [Q_SITE_PAGES] = "UPDATE sites SET pages = pages + ?2 WHERE id = ?1",
};

struct tbk_history {
  sqlite3 *db;              /* owned */
  sqlite3_stmt *q[Q_COUNT]; /* owned */
  int read_only;
  size_t commit_pages;
  /* the current page */
  int64_t site; /* its site's id, 0 when the store has none */
  int64_t key;
  uint32_t pages; /* the site's other pages */
  int counted;    /* the page itself is in the counts */
  /* pages added, not committed */
  pending_page *pend; /* owned: npend */
  size_t npend, cappend;
  uint64_t *fps; /* owned: their fingerprints */
  size_t nfps, capfps;
  overlay_slot *ov; /* owned: capov slots (a power of two) */
  size_t nov, capov;
  uint64_t *scratch; /* owned: a page's sorted fingerprints */
  size_t capscratch;
};

static tbk_status db_fail(tbk_history *h, tbk_error *err, const char *what) {
  int rc = sqlite3_errcode(h->db);
  tbk_status st = rc == SQLITE_NOMEM                            ? TBK_ERR_NOMEM
                  : rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT ? TBK_ERR_MODEL
                                                                : TBK_ERR_IO;
  if (rc == SQLITE_NOTADB) return tbk_fail(err, st, "not a tbk history store (not an SQLite database)");
  return tbk_fail(err, st, "history store: %s: %s", what, sqlite3_errmsg(h->db));
}

static int exec(tbk_history *h, const char *sql) { return sqlite3_exec(h->db, sql, NULL, NULL, NULL); }

/* WAL mode, which needs the file to itself for a moment. Two processes
 * opening one new store at once can each hold it shared and ask for it
 * whole: SQLite answers one of them busy at once, without the busy
 * handler (waiting could deadlock), so that one waits here and asks
 * again, for as long as the busy timeout. */
static int set_wal(tbk_history *h) {
  int rc = SQLITE_BUSY;
  for (int waited = 0; waited < 60000; waited += 20) {
    rc = exec(h, "PRAGMA journal_mode=WAL");
    if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED) break;
    sqlite3_sleep(20);
  }
  return rc;
}

/* A meta value into buf ("" when absent); SQLite's status. */
static int meta_get(tbk_history *h, const char *key, char *buf, size_t size) {
  sqlite3_stmt *s;
  buf[0] = 0;
  int rc = sqlite3_prepare_v2(h->db, "SELECT value FROM meta WHERE key = ?1", -1, &s, NULL);
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
  rc = sqlite3_step(s);
  if (rc == SQLITE_ROW) {
    const unsigned char *v = sqlite3_column_text(s, 0);
    snprintf(buf, size, "%s", v ? (const char *)v : "");
    rc = SQLITE_DONE;
  }
  sqlite3_finalize(s);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int meta_put(tbk_history *h, const char *key, const char *value) {
  sqlite3_stmt *s;
  int rc = sqlite3_prepare_v2(h->db, "INSERT INTO meta(key, value) VALUES(?1, ?2)", -1, &s, NULL);
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text(s, 2, value, -1, SQLITE_STATIC);
  rc = sqlite3_step(s);
  sqlite3_finalize(s);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* How many tables the database has: a database with tables but no meta
 * is some other program's. */
static int table_count(tbk_history *h, int *n, int *has_meta) {
  sqlite3_stmt *s;
  int rc = sqlite3_prepare_v2(h->db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &s, NULL);
  if (rc != SQLITE_OK) return rc;
  *n = *has_meta = 0;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    ++*n;
    const unsigned char *name = sqlite3_column_text(s, 0);
    if (name && strcmp((const char *)name, "meta") == 0) *has_meta = 1;
  }
  sqlite3_finalize(s);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The schema made (a new store) or checked (an existing one). */
static tbk_status check_schema(tbk_history *h, const char *identity, tbk_error *err) {
  int n, has_meta;
  if (table_count(h, &n, &has_meta) != SQLITE_OK) return db_fail(h, err, "reading the schema");
  if (n && !has_meta)
    return tbk_fail(err, TBK_ERR_MODEL, "not a tbk history store (an SQLite database without its meta table)");
  if (!n) {
    if (h->read_only) return tbk_fail(err, TBK_ERR_MODEL, "not a tbk history store (an empty database)");
    /* Two processes may create the store at once: the first one's
     * transaction wins, the second finds the tables made. */
    if (exec(h, "BEGIN IMMEDIATE") != SQLITE_OK) return db_fail(h, err, "creating the tables");
    if (table_count(h, &n, &has_meta) != SQLITE_OK) return exec(h, "ROLLBACK"), db_fail(h, err, "reading the schema");
    if (!n && (exec(h, "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                       "CREATE TABLE sites(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, pages INTEGER NOT NULL);"
                       "CREATE TABLE pages(site INTEGER NOT NULL, key INTEGER NOT NULL, PRIMARY KEY(site, key)) "
                       "WITHOUT ROWID;"
                       "CREATE TABLE fps(site INTEGER NOT NULL, fp INTEGER NOT NULL, df INTEGER NOT NULL, "
                       "PRIMARY KEY(site, fp)) WITHOUT ROWID;") != SQLITE_OK ||
               meta_put(h, "format", HISTORY_FORMAT) != SQLITE_OK || meta_put(h, "identity", identity) != SQLITE_OK)) {
      tbk_status st = db_fail(h, err, "creating the tables");
      exec(h, "ROLLBACK");
      return st;
    }
    if (exec(h, "COMMIT") != SQLITE_OK) return db_fail(h, err, "creating the tables");
  }
  char format[64], have[512];
  if (meta_get(h, "format", format, sizeof format) != SQLITE_OK ||
      meta_get(h, "identity", have, sizeof have) != SQLITE_OK)
    return db_fail(h, err, "reading the meta table");
  if (strcmp(format, HISTORY_FORMAT) != 0)
    return tbk_fail(err, TBK_ERR_MODEL, "history store of another format (\"%s\", this build reads \"%s\")", format,
                    HISTORY_FORMAT);
  if (strcmp(have, identity) != 0)
    return tbk_fail(err, TBK_ERR_MODEL,
                    "history store made with another segmentation's fingerprints (%s; this run makes %s): "
                    "use a store made with the same segmentation",
                    have, identity);
  return TBK_OK;
}

tbk_status tbk_history_open(const char *path, const tbk_history_options *o, tbk_history **out, tbk_error *err) {
  *out = NULL;
  if (!o || !o->identity || !*o->identity || strlen(o->identity) >= 500)
    return tbk_fail(err, TBK_ERR_ARG, "history store: no fingerprint identity given");
  tbk_history *h = calloc(1, sizeof *h);
  if (!h) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  h->read_only = o->read_only;
  h->commit_pages = o->commit_pages ? o->commit_pages : 1;
  int flags = o->read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  int rc = sqlite3_open_v2(path, &h->db, flags | SQLITE_OPEN_NOMUTEX, NULL);
  tbk_status st = TBK_OK;
  if (rc != SQLITE_OK) {
    st = h->db ? tbk_fail(err, rc == SQLITE_NOMEM ? TBK_ERR_NOMEM : TBK_ERR_IO, "cannot open the history store: %s",
                          sqlite3_errmsg(h->db))
               : tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  } else {
    /* another process's commit holds the lock for milliseconds; a minute
     * covers a long one on a busy disk */
    sqlite3_busy_timeout(h->db, 60000);
    if (!o->read_only && (set_wal(h) != SQLITE_OK || exec(h, "PRAGMA synchronous=NORMAL") != SQLITE_OK))
      st = db_fail(h, err, "setting WAL mode");
    /* 64 MiB of page cache, and the file mapped rather than read page by
     * page: a lookup is a B-tree descent, mostly in memory */
    else if (exec(h, "PRAGMA cache_size=-65536") != SQLITE_OK || exec(h, "PRAGMA mmap_size=1073741824") != SQLITE_OK)
      st = db_fail(h, err, "setting the cache");
  }
  if (!st) st = check_schema(h, o->identity, err);
  for (int i = 0; !st && i < Q_COUNT; i++)
    if ((!o->read_only || i == Q_SITE || i == Q_HAS_PAGE || i == Q_DF) &&
        sqlite3_prepare_v3(h->db, QUERIES[i], -1, SQLITE_PREPARE_PERSISTENT, &h->q[i], NULL) != SQLITE_OK)
      st = db_fail(h, err, "preparing a query");
  if (st) {
    tbk_history_free(h);
    return st;
  }
  *out = h;
  return TBK_OK;
}

tbk_status tbk_history_open_for(const tbk_model *m, const char *path, int read_only, tbk_history **out,
                                tbk_error *err) {
  char id[256];
  if (m) {
    tbk_history_identity(m, id, sizeof id);
  } else {
    tbk_page_options po = tbk_page_options_default;
    tbk_history_identity_of(&po, id, sizeof id);
  }
  tbk_history_options o = tbk_history_options_default;
  o.identity = id;
  o.read_only = read_only;
  return tbk_history_open(path, &o, out, err);
}

void tbk_history_free(tbk_history *h) {
  if (!h) return;
  for (int i = 0; i < Q_COUNT; i++) sqlite3_finalize(h->q[i]);
  sqlite3_close(h->db);
  free(h->pend);
  free(h->fps);
  free(h->ov);
  free(h->scratch);
  free(h);
}

/* ---------------------------------------------------------------- overlay */

static size_t ov_hash(int64_t site, uint64_t fp) {
  uint64_t x = fp ^ ((uint64_t)site * 0x9E3779B97F4A7C15ULL);
  x ^= x >> 29;
  return (size_t)(x * 0xBF58476D1CE4E5B9ULL);
}

static overlay_slot *ov_find(const tbk_history *h, int64_t site, uint64_t fp) {
  if (!h->capov) return NULL;
  size_t mask = h->capov - 1;
  for (size_t i = ov_hash(site, fp) & mask;; i = (i + 1) & mask) {
    overlay_slot *s = &h->ov[i];
    if (!s->site || (s->site == site && s->fp == fp)) return s;
  }
}

static int ov_add(tbk_history *h, int64_t site, uint64_t fp) {
  if ((h->nov + 1) * 2 > h->capov) {
    size_t cap = h->capov ? h->capov * 2 : 4096;
    overlay_slot *old = h->ov, *nov = calloc(cap, sizeof *nov);
    if (!nov) return -1;
    size_t oldcap = h->capov;
    h->ov = nov;
    h->capov = cap;
    for (size_t i = 0; i < oldcap; i++)
      if (old[i].site) *ov_find(h, old[i].site, old[i].fp) = old[i];
    free(old);
  }
  overlay_slot *s = ov_find(h, site, fp);
  if (!s->site) *s = (overlay_slot){site, fp, 0}, h->nov++;
  s->n++;
  return 0;
}

/* ------------------------------------------------------------------ pages */

static int64_t page_key(const char *key) {
  unsigned char md5[16];
  tbk_md5(key, strlen(key), md5);
  return (int64_t)tbk_history_fp(md5);
}

/* Reset a statement for its next use (its error was read already). */
static void done(sqlite3_stmt *s) {
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
}

tbk_status tbk_history_begin(tbk_history *h, const char *site, const char *key, tbk_error *err) {
  h->site = 0;
  h->pages = 0;
  h->counted = 0;
  h->key = page_key(key);
  sqlite3_stmt *s = h->q[Q_SITE];
  uint32_t committed = 0;
  for (int pass = 0; pass < 2 && !h->site; pass++) {
    sqlite3_bind_text(s, 1, site, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
      h->site = sqlite3_column_int64(s, 0);
      sqlite3_int64 p = sqlite3_column_int64(s, 1);
      committed = p < 0 ? 0 : p > UINT32_MAX ? UINT32_MAX : (uint32_t)p;
    } else if (rc != SQLITE_DONE) {
      done(s);
      return db_fail(h, err, "reading a site");
    }
    done(s);
    if (h->site || h->read_only || pass) break;
    sqlite3_stmt *a = h->q[Q_ADD_SITE];
    sqlite3_bind_text(a, 1, site, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(a);
    done(a);
    if (rc != SQLITE_DONE) return db_fail(h, err, "adding a site");
  }
  if (!h->site) return TBK_OK; /* read-only, a site the store has not seen */
  size_t pending = 0;
  for (size_t i = 0; i < h->npend; i++)
    if (h->pend[i].site == h->site) {
      pending++;
      if (h->pend[i].key == h->key) h->counted = 1;
    }
  if (!h->counted) {
    sqlite3_stmt *q = h->q[Q_HAS_PAGE];
    sqlite3_bind_int64(q, 1, h->site);
    sqlite3_bind_int64(q, 2, h->key);
    int rc = sqlite3_step(q);
    done(q);
    if (rc == SQLITE_ROW) h->counted = 1;
    else if (rc != SQLITE_DONE) return db_fail(h, err, "reading a page");
  }
  uint64_t all = (uint64_t)committed + pending;
  if (h->counted && all) all--;
  h->pages = all > UINT32_MAX ? UINT32_MAX : (uint32_t)all;
  return TBK_OK;
}

uint32_t tbk_history_pages(const tbk_history *h) { return h->pages; }

tbk_status tbk_history_lookup(tbk_history *h, const uint64_t *fp, size_t n, uint32_t *df, tbk_error *err) {
  for (size_t i = 0; i < n; i++) {
    df[i] = 0;
    if (!h->site || !h->pages) continue;
    sqlite3_stmt *s = h->q[Q_DF];
    sqlite3_bind_int64(s, 1, h->site);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)fp[i]);
    int rc = sqlite3_step(s);
    uint64_t v = 0;
    if (rc == SQLITE_ROW) {
      sqlite3_int64 d = sqlite3_column_int64(s, 0);
      v = d < 0 ? 0 : (uint64_t)d;
    }
    done(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return db_fail(h, err, "reading a fingerprint");
    const overlay_slot *o = ov_find(h, h->site, fp[i]);
    if (o && o->site) v += o->n;
    /* every fingerprint looked up is the page's own: when the page is
     * counted, one of the pages holding it is the page itself */
    if (h->counted && v) v--;
    df[i] = v > h->pages ? h->pages : (uint32_t)v;
  }
  return TBK_OK;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

tbk_status tbk_history_add(tbk_history *h, const uint64_t *fp, size_t n, tbk_error *err) {
  if (h->read_only || h->counted || !h->site) return TBK_OK;
  if (tbk_grow((void **)&h->scratch, &h->capscratch, n ? n : 1, sizeof *h->scratch))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  memcpy(h->scratch, fp, n * sizeof *fp);
  qsort(h->scratch, n, sizeof *h->scratch, cmp_u64);
  size_t u = 0;
  for (size_t i = 0; i < n; i++)
    if (!u || h->scratch[i] != h->scratch[u - 1]) h->scratch[u++] = h->scratch[i];
  if (tbk_grow((void **)&h->fps, &h->capfps, h->nfps + u, sizeof *h->fps) ||
      tbk_grow((void **)&h->pend, &h->cappend, h->npend + 1, sizeof *h->pend))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < u; i++)
    if (ov_add(h, h->site, h->scratch[i])) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  memcpy(h->fps + h->nfps, h->scratch, u * sizeof *h->fps);
  h->pend[h->npend++] = (pending_page){h->site, h->key, h->nfps, u};
  h->nfps += u;
  h->counted = 1; /* added twice in one page is once */
  if (h->npend >= h->commit_pages) return tbk_history_commit(h, err);
  return TBK_OK;
}

static int cmp_site_fp(const void *a, const void *b) {
  const site_fp *x = a, *y = b;
  if (x->site != y->site) return x->site < y->site ? -1 : 1;
  return x->fp < y->fp ? -1 : x->fp > y->fp;
}

static void clear_pending(tbk_history *h) {
  h->npend = h->nfps = 0;
  if (h->nov) memset(h->ov, 0, h->capov * sizeof *h->ov);
  h->nov = 0;
}

/* One step of a write statement, reset for its next use. */
static int write_step(sqlite3_stmt *s) {
  int rc = sqlite3_step(s);
  done(s);
  return rc == SQLITE_DONE ? 0 : -1;
}

tbk_status tbk_history_commit(tbk_history *h, tbk_error *err) {
  if (h->read_only || !h->npend) return TBK_OK;
  site_fp *all = malloc((h->nfps ? h->nfps : 1) * sizeof *all);
  if (!all) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (exec(h, "BEGIN IMMEDIATE") != SQLITE_OK) {
    free(all);
    return db_fail(h, err, "starting a transaction");
  }
  /* Each page counts only if no one counted it first (another process, or
   * an earlier run killed after its commit). */
  size_t n = 0;
  int bad = 0;
  for (size_t i = 0; i < h->npend && !bad; i++) {
    pending_page *p = &h->pend[i];
    sqlite3_stmt *s = h->q[Q_ADD_PAGE];
    sqlite3_bind_int64(s, 1, p->site);
    sqlite3_bind_int64(s, 2, p->key);
    if (write_step(s)) bad = 1;
    else if (sqlite3_changes(h->db) == 1) {
      for (size_t k = 0; k < p->n; k++) all[n++] = (site_fp){p->site, h->fps[p->first + k]};
      sqlite3_stmt *c = h->q[Q_SITE_PAGES];
      sqlite3_bind_int64(c, 1, p->site);
      sqlite3_bind_int64(c, 2, 1);
      if (write_step(c)) bad = 1;
    }
  }
  /* in key order, each (site, fp) once with its count: the B-tree is
   * walked forward, and a site's template blocks are written once per
   * commit, not once per page */
  qsort(all, n, sizeof *all, cmp_site_fp);
  for (size_t i = 0; i < n && !bad;) {
    size_t j = i + 1;
    while (j < n && all[j].site == all[i].site && all[j].fp == all[i].fp) j++;
    sqlite3_stmt *s = h->q[Q_ADD_FP];
    sqlite3_bind_int64(s, 1, all[i].site);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)all[i].fp);
    sqlite3_bind_int64(s, 3, (sqlite3_int64)(j - i));
    if (write_step(s)) bad = 1;
    i = j;
  }
  free(all);
  if (bad || exec(h, "COMMIT") != SQLITE_OK) {
    tbk_status st = db_fail(h, err, "writing the pages");
    exec(h, "ROLLBACK");
    return st;
  }
  clear_pending(h);
  return TBK_OK;
}

tbk_status tbk_history_close(tbk_history *h, tbk_error *err) {
  if (!h) return TBK_OK;
  tbk_status st = tbk_history_commit(h, err);
  tbk_history_free(h);
  return st;
}

void tbk_history_identity_of(const tbk_page_options *o, char *out, size_t size) {
  /* "md5-text": a block's fingerprint is the MD5 of its normalized text */
  snprintf(out, size, "blocks=%s min_chars=%zu min_words=%zu fp=md5-text",
           o->blocks == TBK_BLOCKS_HTML5 ? "html5" : "paper", o->min_chars, o->min_words);
}

void tbk_history_identity(const tbk_model *m, char *out, size_t size) {
  tbk_page_options o;
  tbk_model_page_options(m, &o);
  tbk_history_identity_of(&o, out, size);
}

tbk_status tbk_history_begin_page(tbk_history *h, const char *site, const char *page, const char *url, tbk_error *err) {
  const char *key = url && *url ? url : page;
  if (strcmp(site, "-") != 0) return tbk_history_begin(h, site, key, err);
  const char *slash = strrchr(page, '/');
  char *dir = slash ? strndup(page, (size_t)(slash - page + 1)) : strdup("./");
  if (!dir) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_status st = tbk_history_begin(h, dir, key, err);
  free(dir);
  return st;
}

static void page_fps(const tbk_page *page, uint64_t *fp) {
  const tbk_page_view pv = tbk_page_view_of(page);
  for (size_t b = 0; b < pv.n_blocks; b++) fp[b] = tbk_history_fp(pv.blocks[b].md5);
}

tbk_status tbk_history_page_df(tbk_history *h, const tbk_page *page, uint64_t *fp, uint32_t *df, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  page_fps(page, fp);
  return tbk_history_lookup(h, fp, pv.n_blocks, df, err);
}

tbk_status tbk_history_add_page(tbk_history *h, const tbk_page *page, uint64_t *fp, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  page_fps(page, fp);
  return tbk_history_add(h, fp, pv.n_blocks, err);
}

static int count_rows(tbk_history *h, const char *sql, uint64_t *v) {
  sqlite3_stmt *s;
  *v = 0;
  if (sqlite3_prepare_v2(h->db, sql, -1, &s, NULL) != SQLITE_OK) return -1;
  int rc = sqlite3_step(s);
  if (rc == SQLITE_ROW) *v = (uint64_t)sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  return rc == SQLITE_ROW ? 0 : -1;
}

tbk_status tbk_history_totals(tbk_history *h, uint64_t *sites, uint64_t *pages, uint64_t *fps, tbk_error *err) {
  if (count_rows(h, "SELECT count(*) FROM sites", sites) ||
      count_rows(h, "SELECT coalesce(sum(pages), 0) FROM sites", pages) ||
      count_rows(h, "SELECT count(*) FROM fps", fps))
    return db_fail(h, err, "counting");
  return TBK_OK;
}
