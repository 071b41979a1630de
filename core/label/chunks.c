/* Table text chunks (Ma et al. 2003, figure 2), over the page layer's node
 * table: the paper's walk appends the text of every node to a buffer and
 * empties it at every table node; here the text is already one buffer, so a
 * chunk is the range between two consecutive boundaries, where a boundary
 * is the text offset at which a delimiter element starts or ends.
 *
 * Pass 1 (tbk_chunker_add_page) counts each key once per page and spills
 * the page's chunks to a temporary file, as the blocks labeller does, so
 * memory holds the site's distinct keys only; pass 2 (tbk_chunker_finish)
 * reads them back page by page and labels them. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "text_internal.h"
#include "df_table.h"
#include "util.h"

void tbk_chunk_options_init(tbk_chunk_options *o) {
  memset(o, 0, sizeof *o);
  o->df_frac = 0.10;
  o->min_df = 3;
  o->key = TBK_CHUNK_KEY_TEXT;
  tbk_chunk_tags_parse(o, TBK_CHUNK_TAGS_DEFAULT, NULL);
}

tbk_status tbk_chunk_tags_parse(tbk_chunk_options *o, const char *list, tbk_error *err) {
  unsigned char set[TBK_TAG_COUNT] = {0};
  size_t n = 0;
  for (const char *s = list; *s;) {
    while (*s == ',' || *s == ' ') s++;
    const char *e = s;
    while (*e && *e != ',' && *e != ' ') e++;
    if (e == s) break;
    char name[32];
    size_t len = (size_t)(e - s);
    tbk_tag t = TBK_TAG_OTHER;
    if (len < sizeof name) {
      for (size_t i = 0; i < len; i++) name[i] = (char)tolower((unsigned char)s[i]);
      name[len] = '\0';
      t = tbk_tag_lookup(name);
    }
    if (t == TBK_TAG_OTHER || (tbk_tag_flags(t) & TAG_DROP))
      return tbk_fail(err, TBK_ERR_ARG, "'%.*s' is not a tag whose text tbk keeps", (int)(len < 64 ? len : 64), s);
    set[t] = 1;
    n++;
    s = e;
  }
  if (!n) return tbk_fail(err, TBK_ERR_ARG, "no tag given");
  memcpy(o->delim, set, sizeof set);
  return TBK_OK;
}

int tbk_chunk_tags_format(const tbk_chunk_options *o, tbk_buf *out) {
  int first = 1;
  for (int t = 0; t < TBK_TAG_COUNT; t++) {
    if (!o->delim[t]) continue;
    if ((!first && tbk_buf_puts(out, ",")) || tbk_buf_puts(out, tbk_tag_name((tbk_tag)t))) return -1;
    first = 0;
  }
  return 0;
}

size_t tbk_chunk_threshold(const tbk_chunk_options *o, size_t pages) {
  if (o->df) return o->df;
  /* The epsilon keeps 10% of 30 pages at 3, not 4, despite binary floats. */
  size_t share = (size_t)ceil(o->df_frac * (double)pages - 1e-9);
  return share > o->min_df ? share : o->min_df;
}

/* ------------------------------------------------------------ the walk */

typedef struct walk {
  tbk_page_view pv; /* the page walked */
  const tbk_chunk_options *o;
  tbk_chunk_span_fn fn;
  void *ctx;
  tbk_buf path, tpath;  /* locators of the last node visited */
  size_t *lens, *tlens; /* by depth: length of the ancestor's locator */
  uint32_t *stack;      /* open delimiter elements */
  size_t depth;         /* of stack */
  uint32_t root;        /* the root element around the last node */
  uint32_t from;        /* where the open chunk starts */
} walk;

static int path_step(walk *w, uint32_t i) {
  const tbk_node *n = &w->pv.nodes[i];
  const char *name = tbk_node_name(n);
  size_t nl = strlen(name);
  char num[16], *e = num + sizeof num, *d = e;
  *--d = ']';
  uint32_t v = n->nth;
  do *--d = (char)('0' + v % 10);
  while (v /= 10);
  *--d = '[';
  w->path.len = w->lens[n->depth - 1];
  w->tpath.len = w->tlens[n->depth - 1];
  if (tbk_buf_append(&w->path, "/", 1) || tbk_buf_append(&w->path, name, nl) ||
      tbk_buf_append(&w->path, d, (size_t)(e - d)) || (n->depth > 1 && tbk_buf_append(&w->tpath, "/", 1)) ||
      tbk_buf_append(&w->tpath, name, nl))
    return -1;
  w->lens[n->depth] = w->path.len;
  w->tlens[n->depth] = w->tpath.len;
  return 0;
}

/* Close the open chunk at text offset `to`: report it when any text is
 * left after trimming. Its owner is the innermost open delimiter, an
 * ancestor of (or) the last node visited, so its locator is a prefix of
 * the current one. */
static int cut(walk *w, uint32_t to) {
  uint32_t a = w->from, b = to;
  w->from = to;
  const char *t = w->pv.text;
  while (a < b && t[a] == ' ') a++;
  while (b > a && t[b - 1] == ' ') b--;
  if (a == b) return 0;
  uint32_t owner = w->depth ? w->stack[w->depth - 1] : w->root;
  if (owner == TBK_NONE) return 0; /* text before any element: none exists */
  if (tbk_buf_reserve(&w->path, 1) || tbk_buf_reserve(&w->tpath, 1)) return -1; /* for the NULs below */
  const tbk_node *on = &w->pv.nodes[owner];
  tbk_chunk_span s = {.start = a, .end = b, .owner = owner, .block = -1};
  size_t pl = w->lens[on->depth], tl = w->tlens[on->depth];
  char psave = w->path.data[pl], tsave = w->tpath.data[tl];
  w->path.data[pl] = '\0';
  w->tpath.data[tl] = '\0';
  s.path = w->path.data;
  s.path_len = pl;
  s.tpath = w->tpath.data;
  s.tpath_len = tl;
  if (on->block >= 0) {
    const tbk_block *bl = &w->pv.blocks[on->block];
    if ((size_t)(bl->text - t) == a && bl->text_len == b - a) {
      s.block = on->block;
      s.path = bl->path;
      s.path_len = strlen(bl->path);
    }
  }
  int r = w->fn(w->ctx, &s);
  w->path.data[pl] = psave;
  w->tpath.data[tl] = tsave;
  return r;
}

int tbk_page_chunks(const tbk_page *p, const tbk_chunk_options *o, tbk_chunk_span_fn fn, void *ctx) {
  const tbk_page_view pv = tbk_page_view_of(p);
  walk w = {.pv = pv, .o = o, .fn = fn, .ctx = ctx, .root = TBK_NONE};
  w.lens = calloc((size_t)pv.max_depth + 2, sizeof *w.lens);
  w.tlens = calloc((size_t)pv.max_depth + 2, sizeof *w.tlens);
  w.stack = malloc(((size_t)pv.max_depth + 1) * sizeof *w.stack);
  int r = 0;
  if (!w.lens || !w.tlens || !w.stack || tbk_buf_reserve(&w.path, 64) || tbk_buf_reserve(&w.tpath, 64)) r = -1;
  for (uint32_t i = 0; i < pv.n_nodes && !r; i++) {
    const tbk_node *n = &pv.nodes[i];
    /* Elements ending before this one close, innermost first. */
    while (!r && w.depth && pv.nodes[w.stack[w.depth - 1]].end <= i) {
      r = cut(&w, pv.nodes[w.stack[w.depth - 1]].text_end);
      w.depth--;
    }
    if (r) break;
    if (n->parent == TBK_NONE) {
      /* A new root: whatever text is open belongs to the previous one. */
      if (w.root != TBK_NONE && (r = cut(&w, n->text_start))) break;
      w.root = i;
    }
    if (o->delim[n->tag]) {
      if ((r = cut(&w, n->text_start))) break;
      w.stack[w.depth++] = i;
    }
    if (path_step(&w, i)) r = -1;
  }
  while (!r && w.depth) {
    r = cut(&w, pv.nodes[w.stack[w.depth - 1]].text_end);
    w.depth--;
  }
  if (!r && pv.n_nodes) r = cut(&w, (uint32_t)pv.text_len);
  free(w.lens);
  free(w.tlens);
  free(w.stack);
  tbk_buf_free(&w.path);
  tbk_buf_free(&w.tpath);
  return r;
}

/* ------------------------------------------------------------ pass 1 */

struct tbk_chunker {
  tbk_site_spill s; /* the keys' df; page and chunk records */
  tbk_chunk_options opt;
  uint32_t pages;
  uint64_t chunks;
  tbk_md5_ctx *md5;
  /* scratch of the page being added */
  const tbk_page *page;
  tbk_buf keybuf;
  tbk_buf pagebuf; /* the page's chunk records, written after its header */
  uint32_t page_chunks;
  int failed; /* the spill could not be written */
};

/* Spilled records, native-endian (the file never leaves the process). */
typedef struct page_rec {
  uint32_t n_chunks, page_len, url_len;
  uint32_t trace_len; /* the WARC record's JSON members (tbk_page_ref_trace), 0 else */
  uint64_t chars, words;
} page_rec;

typedef struct chunk_rec {
  unsigned char key[16], md5[16];
  uint32_t chars, words, start, text_len;
  uint16_t path_len, tag_len, tpath_len;
  uint8_t block;
} chunk_rec;

tbk_status tbk_chunker_new(const char *site, const tbk_chunk_options *o, tbk_chunker **out, tbk_error *err) {
  *out = NULL;
  tbk_chunker *c = calloc(1, sizeof *c);
  if (!c) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (o) c->opt = *o;
  else tbk_chunk_options_init(&c->opt);
  tbk_status st = tbk_site_spill_open(&c->s, site, err);
  if (st) {
    free(c);
    return st;
  }
  c->md5 = tbk_md5_ctx_new();
  if (!c->md5) {
    tbk_chunker_free(c);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  *out = c;
  return TBK_OK;
}

void tbk_chunker_free(tbk_chunker *c) {
  if (!c) return;
  tbk_site_spill_close(&c->s);
  tbk_md5_ctx_free(c->md5);
  tbk_buf_free(&c->keybuf);
  tbk_buf_free(&c->pagebuf);
  free(c);
}

static uint32_t count_words(const char *s, size_t n) {
  uint32_t w = n > 0; /* normalized text: one space between terms */
  for (size_t i = 0; i < n; i++) w += s[i] == ' ';
  return w;
}

enum { CHUNK_MAX_TEXT = 1u << 30 };

/* A chunk's locator and tag path keep at most their first CHUNK_MAX_PATH
 * bytes, cut after a whole step and marked by CHUNK_CUT: each chunk
 * carries its owner's path into its key (--key text+path), the spill and
 * its JSON line, so chunks nested thousands deep cost the depth squared
 * (a page of 1,266 nested tables with text in every cell wrote 17 MB of
 * paths: 390 MB of JSON Lines from 1.75 MB of pages, #34). The locators
 * of the pages of datasets/cache are at most 244 bytes. */
enum { CHUNK_MAX_PATH = 1024 };
#define CHUNK_CUT "/..."
static size_t path_cut(const char *s, size_t n) {
  if (n <= CHUNK_MAX_PATH) return n;
  size_t k = CHUNK_MAX_PATH;
  while (k > 0 && s[k] != '/') k--;
  return k;
}
static int append_path(tbk_buf *b, const char *s, size_t n) {
  size_t k = path_cut(s, n);
  return tbk_buf_append(b, s, k) || (k < n && tbk_buf_puts(b, CHUNK_CUT));
}

static int add_span(void *ctx, const tbk_chunk_span *s) {
  tbk_chunker *c = ctx;
  const tbk_page *p = c->page;
  const tbk_page_view pv = tbk_page_view_of(p);
  const char *text = pv.text + s->start;
  size_t len = s->end - s->start;
  chunk_rec r;
  memset(&r, 0, sizeof r); /* the padding goes to the spill file too */
  tbk_md5_with(c->md5, text, len, r.md5);
  if (c->opt.key == TBK_CHUNK_KEY_TEXT_PATH) {
    c->keybuf.len = 0;
    if (append_path(&c->keybuf, s->tpath, s->tpath_len) || tbk_buf_append(&c->keybuf, "\n", 1) ||
        tbk_buf_append(&c->keybuf, text, len))
      return -1;
    tbk_md5_with(c->md5, c->keybuf.data, c->keybuf.len, r.key);
  } else memcpy(r.key, r.md5, 16);
  r.chars = (uint32_t)tbk_utf8_length(text, len);
  r.words = count_words(text, len);
  r.start = s->start;
  r.text_len = (uint32_t)(c->opt.keep_text ? (len < CHUNK_MAX_TEXT ? len : tbk_utf8_cut(text, len, CHUNK_MAX_TEXT))
                                           : tbk_utf8_cut(text, len, TBK_LABEL_SNIPPET));
  r.block = s->block >= 0;
  const char *tag = tbk_node_name(&pv.nodes[s->block >= 0 ? pv.blocks[s->block].node : s->owner]);
  size_t tl = strlen(tag);
  r.tag_len = (uint16_t)(tl < 65535 ? tl : 65535);
  size_t pl = path_cut(s->path, s->path_len), tpl = path_cut(s->tpath, s->tpath_len);
  r.path_len = (uint16_t)(pl + (pl < s->path_len ? sizeof CHUNK_CUT - 1 : 0));
  r.tpath_len = (uint16_t)(tpl + (tpl < s->tpath_len ? sizeof CHUNK_CUT - 1 : 0));

  int is_new;
  tbk_df_slot *k = tbk_df_count(&c->s.df, r.key, c->pages, &is_new);
  if (!k) return -1;
  if (is_new) k->words = r.words;
  c->chunks++;
  c->page_chunks++;
  tbk_buf *b = &c->pagebuf;
  return tbk_buf_append(b, &r, sizeof r) || append_path(b, s->path, s->path_len) || tbk_buf_append(b, tag, r.tag_len) ||
                 append_path(b, s->tpath, s->tpath_len) || tbk_buf_append(b, text, r.text_len)
             ? -1
             : 0;
}

tbk_status tbk_chunker_add_page(tbk_chunker *c, const tbk_page_ref *ref, const tbk_page *page, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  c->pages++;
  c->page = page;
  c->page_chunks = 0;
  c->pagebuf.len = 0;
  int r = tbk_page_chunks(page, &c->opt, add_span, c);
  c->page = NULL;
  if (r) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  page_rec pr;
  memset(&pr, 0, sizeof pr);
  pr.n_chunks = c->page_chunks;
  pr.page_len = (uint32_t)strlen(ref->page);
  pr.url_len = (uint32_t)strlen(ref->url ? ref->url : "");
  pr.chars = tbk_utf8_length(pv.text, pv.text_len);
  const char *t = pv.text;
  size_t a = 0, b = pv.text_len;
  while (a < b && t[a] == ' ') a++;
  while (b > a && t[b - 1] == ' ') b--;
  pr.words = count_words(t + a, b - a);
  tbk_buf trace = {0};
  tbk_status tst = tbk_page_ref_trace(ref, &trace, err);
  if (tst) return tst;
  pr.trace_len = (uint32_t)trace.len;
  FILE *f = c->s.file;
  if (fwrite(&pr, sizeof pr, 1, f) != 1 || fwrite(ref->page, 1, pr.page_len, f) != pr.page_len ||
      (pr.url_len && fwrite(ref->url, 1, pr.url_len, f) != pr.url_len) ||
      (pr.trace_len && fwrite(trace.data, 1, pr.trace_len, f) != pr.trace_len) ||
      (c->pagebuf.len && fwrite(c->pagebuf.data, 1, c->pagebuf.len, f) != c->pagebuf.len))
    c->failed = 1;
  tbk_buf_free(&trace);
  if (c->failed) return tbk_fail(err, TBK_ERR_IO, "cannot write the temporary chunk file for site %s", c->s.site);
  return TBK_OK;
}

/* ------------------------------------------------------------ pass 2 */

void tbk_chunker_set_df(tbk_chunker *c, size_t df) { c->opt.df = df; }

static int cmp_key_idx(const void *a, const void *b, void *ctx) {
  const tbk_chunk *ch = ctx;
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  int c = memcmp(ch[i].key, ch[j].key, 16);
  if (c) return c;
  return (i > j) - (i < j);
}

static int write_line(tbk_buf *line, const char *site, const tbk_chunk_page *pg, size_t k, uint32_t pages) {
  const tbk_chunk *ch = &pg->chunks[k];
  tbk_label_record rec = {.site = site,
                          .site_len = strlen(site),
                          .page = pg->page,
                          .page_len = strlen(pg->page),
                          .url = pg->url,
                          .url_len = strlen(pg->url),
                          .trace = pg->trace,
                          .trace_len = pg->trace_len,
                          .chunk = (long)k,
                          .path = ch->path,
                          .path_len = strlen(ch->path),
                          .tag = ch->tag,
                          .tag_len = strlen(ch->tag),
                          .block = ch->block,
                          .md5 = ch->md5,
                          .key = ch->key,
                          .df = ch->df,
                          .pages = pages,
                          .label = ch->label,
                          .reason = ch->reason,
                          .chars = ch->chars,
                          .words = ch->words,
                          .text = ch->text,
                          .text_len = ch->text_len};
  line->len = 0;
  return tbk_label_record_write(line, &rec);
}

/* Pass 2's state: one page's chunks at a time, in arrays reused across
 * the site's pages. */
typedef struct chunk_pass {
  tbk_chunker *c;
  tbk_chunk_stats st;
  page_rec pr;
  size_t page_off, url_off, trace_off; /* in the arena */
  tbk_chunk *ch;
  size_t *order, *offs, cap;
  tbk_buf arena, line;
} chunk_pass;

static tbk_status chunk_read_failed(const tbk_chunker *c, tbk_error *err) {
  return tbk_fail(err, TBK_ERR_IO, "cannot read back the temporary chunk file for site %s", c->s.site);
}

/* The site's statistics that pass 1's key table already holds. */
static void key_stats(chunk_pass *f) {
  const tbk_chunker *c = f->c;
  tbk_chunk_stats *st = &f->st;
  st->pages = c->pages;
  st->chunks = (size_t)c->chunks;
  st->keys = c->s.df.used;
  st->threshold = tbk_chunk_threshold(&c->opt, c->pages);
  for (size_t i = 0; i < c->s.df.nslots; i++)
    if (c->s.df.slots[i].last_page && c->s.df.slots[i].df >= st->threshold) {
      st->template_keys++;
      st->template_key_words += c->s.df.slots[i].words;
    }
}

/* One chunk's record from the spill file; its strings land in the arena at
 * offs[0..3] (pointed to once the page is read: the arena may move). */
static tbk_status read_chunk(chunk_pass *f, tbk_chunk *x, size_t *offs, tbk_error *err) {
  FILE *file = f->c->s.file;
  chunk_rec r;
  if (fread(&r, sizeof r, 1, file) != 1 || tbk_spill_read_str(file, &f->arena, r.path_len, &offs[0]) ||
      tbk_spill_read_str(file, &f->arena, r.tag_len, &offs[1]) ||
      tbk_spill_read_str(file, &f->arena, r.tpath_len, &offs[2]) ||
      tbk_spill_read_str(file, &f->arena, r.text_len, &offs[3]))
    return chunk_read_failed(f->c, err);
  memset(x, 0, sizeof *x);
  memcpy(x->key, r.key, 16);
  memcpy(x->md5, r.md5, 16);
  x->chars = r.chars;
  x->words = r.words;
  x->start = r.start;
  x->text_len = r.text_len;
  x->block = r.block;
  x->df = tbk_df_of(&f->c->s.df, r.key);
  return TBK_OK;
}

/* The next page's record and its chunks, with the chunks whose key occurs
 * twice on the page marked. */
static tbk_status read_chunk_page(chunk_pass *f, tbk_error *err) {
  FILE *file = f->c->s.file;
  f->arena.len = 0;
  if (fread(&f->pr, sizeof f->pr, 1, file) != 1 || tbk_spill_read_str(file, &f->arena, f->pr.page_len, &f->page_off) ||
      tbk_spill_read_str(file, &f->arena, f->pr.url_len, &f->url_off) ||
      tbk_spill_read_str(file, &f->arena, f->pr.trace_len, &f->trace_off))
    return chunk_read_failed(f->c, err);
  size_t n = f->pr.n_chunks;
  if (TBK_GROW_ALL(&f->cap, n, TBK_ARRAY(f->ch), TBK_ARRAY(f->order), {&f->offs, 4 * sizeof *f->offs}))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_chunk *ch = f->ch;
  for (size_t i = 0; i < n; i++) {
    tbk_status st = read_chunk(f, &ch[i], &f->offs[4 * i], err);
    if (st) return st;
    f->order[i] = i;
  }
  for (size_t i = 0; i < n; i++) {
    ch[i].path = f->arena.data + f->offs[4 * i];
    ch[i].tag = f->arena.data + f->offs[4 * i + 1];
    ch[i].tpath = f->arena.data + f->offs[4 * i + 2];
    ch[i].text = f->arena.data + f->offs[4 * i + 3];
  }
  size_t *order = f->order;
  if (n > 1) qsort_r(order, n, sizeof *order, cmp_key_idx, ch);
  for (size_t i = 1; i < n; i++)
    if (memcmp(ch[order[i]].key, ch[order[i - 1]].key, 16) == 0) ch[order[i]].dup = ch[order[i - 1]].dup = 1;
  return TBK_OK;
}

static void label_chunk(tbk_chunk_stats *st, tbk_chunk *x) {
  /* A template chunk repeated on its page is still template (the paper's
   * navigation bar at top and bottom); a repeated rare one is not clean
   * content. */
  if (x->df >= st->threshold) x->label = TBK_LABEL_TEMPLATE;
  else if (x->dup) x->reason = "duplicate-in-page";
  else if (x->df > 1) x->reason = "infrequent";
  else x->label = TBK_LABEL_CONTENT;
  if (x->label == TBK_LABEL_TEMPLATE) {
    st->templates++;
    st->template_words += x->words;
  } else if (x->label == TBK_LABEL_CONTENT) st->contents++;
  else st->ignored++;
}

/* Labels the page read last, writes its lines and hands it to page_fn. */
static tbk_status finish_page(chunk_pass *f, uint32_t pg, tbk_write_fn write, void *wctx, tbk_chunk_page_fn page_fn,
                              void *pctx, tbk_error *err) {
  const tbk_chunker *c = f->c;
  tbk_chunk_page page = {.page = f->arena.data + f->page_off,
                         .url = f->arena.data + f->url_off,
                         .trace = f->arena.data + f->trace_off,
                         .trace_len = f->pr.trace_len,
                         .index = pg,
                         .chunks = f->ch,
                         .n = f->pr.n_chunks,
                         .chars = f->pr.chars,
                         .words = f->pr.words};
  f->st.words += f->pr.words;
  for (size_t i = 0; i < page.n; i++) {
    tbk_chunk *x = &f->ch[i];
    label_chunk(&f->st, x);
    if (!write || (x->label == TBK_LABEL_IGNORED && !c->opt.emit_ignored)) continue;
    if (write_line(&f->line, c->s.site, &page, i, c->pages)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    if (write(wctx, f->line.data, f->line.len)) return tbk_fail(err, TBK_ERR_IO, "cannot write output");
  }
  if (page_fn && page_fn(pctx, &page)) return tbk_fail(err, TBK_ERR_ARG, "stopped");
  return TBK_OK;
}

tbk_status tbk_chunker_finish(tbk_chunker *c, tbk_write_fn write, void *wctx, tbk_chunk_page_fn page_fn, void *pctx,
                              tbk_chunk_stats *stats, tbk_error *err) {
  chunk_pass f = {.c = c};
  key_stats(&f);
  tbk_status status = TBK_OK;
  if (c->failed) status = tbk_fail(err, TBK_ERR_IO, "cannot write the temporary chunk file for site %s", c->s.site);
  else if (fflush(c->s.file) || fseek(c->s.file, 0, SEEK_SET)) status = chunk_read_failed(c, err);
  for (uint32_t pg = 0; pg < c->pages && status == TBK_OK; pg++) {
    status = read_chunk_page(&f, err);
    if (status == TBK_OK) status = finish_page(&f, pg, write, wctx, page_fn, pctx, err);
  }
  tbk_chunk_stats *st = &f.st;
  if (st->pages && st->words) st->atf = (double)st->template_key_words / ((double)st->words / (double)st->pages);
  st->template_share = st->words ? (double)st->template_words / (double)st->words : 0.0;
  if (stats) *stats = *st;
  free(f.ch);
  free(f.order);
  free(f.offs);
  tbk_buf_free(&f.arena);
  tbk_buf_free(&f.line);
  return status;
}

int tbk_chunk_page_strip(const tbk_chunk_page *p, tbk_buf *out) {
  for (size_t i = 0; i < p->n; i++) {
    const tbk_chunk *x = &p->chunks[i];
    if (x->label == TBK_LABEL_TEMPLATE) continue;
    if (tbk_buf_append(out, x->text, x->text_len) || tbk_buf_append(out, "\n", 1)) return -1;
  }
  return 0;
}
