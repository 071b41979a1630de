/* Per-site auto-labelling (Kołcz & Yih, section 3 and 4.1).
 *
 * Pass 1 (tbk_labeler_add_page) counts, for every fingerprint, on how many
 * of the site's pages it occurs, and spills each page's block records to a
 * temporary file, so memory holds only the fingerprint table. Pass 2
 * (tbk_labeler_finish) reads the records back page by page and labels:
 *   template  df >= max(ceil(share * pages), min_df)
 *   content   df == 1, no duplicate within the page, every candidate below
 *             it also unique, and its nearest candidate ancestor is not
 *             (the top-most all-unique block)
 *   ignored   everything else (emitted only with emit_ignored).
 * A page added with a cluster (tbk-label --clusters) is judged template by
 * its block's df among the site's pages of the same cluster, against
 * tbk_cluster_template_df of that cluster's page count; the content rule
 * still counts the whole site (the whole crawl when it has no site key).
 * With a history store (tbk_labeler_use_history) pass 1 also counts each
 * page into the store, and pass 2 takes df and the page count from the
 * store, the page itself included: the site's pages of every run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "label.h"
#include "df_table.h"
#include "history.h"
#include "page_view.h"
#include "util.h"

const tbk_label_options tbk_label_options_default = {
    .template_share = 0.10,
    .template_min_df = 3,
    .min_pages = 10,
    .emit_ignored = 0,
};

void tbk_label_options_init(tbk_label_options *o) { *o = tbk_label_options_default; }

size_t tbk_template_df(const tbk_label_options *o, size_t pages) {
  /* The epsilon keeps 10% of 30 pages at 3, not 4, despite binary floats. */
  size_t share = (size_t)ceil(o->template_share * (double)pages - 1e-9);
  return share > o->template_min_df ? share : o->template_min_df;
}

size_t tbk_cluster_template_df(const tbk_label_options *o, size_t pages) {
  /* Clusters are small (a page type's 10-30 pages), where the share gives
   * less than min_df and a listing's items, each on the 3-6 listing pages
   * that overlap, pass as template. So a repeat on fewer than min_pages
   * pages (the least a site is labelled with) counts only on a quarter of
   * the cluster: an optional box of the template (a "related" box on a
   * third of its pages) still does. */
  size_t t = tbk_template_df(o, pages), quarter = (pages + 3) / 4;
  size_t raise_to = o->min_pages < quarter ? o->min_pages : quarter;
  return t > raise_to ? t : raise_to;
}

struct tbk_labeler {
  tbk_site_spill s; /* the fingerprints' df; block records */
  tbk_label_options opt;
  uint32_t pages;
  uint64_t candidates;
  /* Pages added with a cluster: each (block, cluster)'s df in cdf and each
   * cluster's page count, by the caller's cluster index. */
  tbk_df_table cdf;
  uint32_t *cluster_pages;
  size_t ncluster_pages;
  /* With a history store: the store (borrowed), the most pages a page's
   * site had in it, and a page's fingerprints and their df (owned scratch
   * of capfp entries). */
  tbk_history *hist;
  uint32_t hist_pages;
  uint64_t *fp;
  uint32_t *hdf;
  size_t capfp;
};

/* Spilled record layout, all native-endian (the file never leaves the
 * process): page header, then one record per block. */
typedef struct page_rec {
  uint32_t n_blocks, page_len, url_len;
  uint32_t trace_len; /* the WARC record's JSON members (tbk_page_ref_trace), 0 else */
  uint32_t cluster;   /* TBK_NO_CLUSTER or the caller's cluster index */
  uint64_t text_chars;
} page_rec;

typedef struct block_rec {
  unsigned char md5[16];
  int32_t parent;
  uint32_t chars, line, depth;
  uint16_t tag_len, path_len, snip_len;
} block_rec;

tbk_status tbk_labeler_new(const char *site, const tbk_label_options *lopt, tbk_labeler **out, tbk_error *err) {
  *out = NULL;
  tbk_labeler *l = calloc(1, sizeof *l);
  if (!l) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (lopt) l->opt = *lopt;
  else tbk_label_options_init(&l->opt);
  tbk_status st = tbk_site_spill_open(&l->s, site, err);
  if (st) {
    free(l);
    return st;
  }
  *out = l;
  return TBK_OK;
}

void tbk_labeler_free(tbk_labeler *l) {
  if (!l) return;
  tbk_site_spill_close(&l->s);
  tbk_df_free(&l->cdf);
  free(l->cluster_pages);
  free(l->fp);
  free(l->hdf);
  free(l);
}

/* A snippet for people reading the output: at most 80 bytes, cut at a
 * character boundary. */
static uint16_t snippet_len(const tbk_block *b) {
  return (uint16_t)tbk_utf8_cut(b->text, b->text_len, TBK_LABEL_SNIPPET);
}

tbk_status tbk_labeler_add(tbk_labeler *l, const char *page_id, const char *url, const tbk_page *page, tbk_error *err) {
  if (!page_id) return tbk_fail(err, TBK_ERR_ARG, "a page needs an id");
  tbk_page_ref ref = {.page = (char *)page_id, .url = (char *)(url ? url : "")};
  return tbk_labeler_add_page(l, &ref, page, err);
}

tbk_status tbk_labeler_add_page(tbk_labeler *l, const tbk_page_ref *ref, const tbk_page *page, tbk_error *err) {
  return tbk_labeler_add_clustered(l, ref, page, TBK_NO_CLUSTER, err);
}

/* The key of a block within a cluster: its MD5 with the cluster mixed into
 * the bytes the table hashes (an odd multiplier keeps clusters apart). */
static void cluster_key(const unsigned char md5[16], uint32_t cluster, unsigned char key[16]) {
  uint64_t h;
  memcpy(key, md5, 16);
  memcpy(&h, key, sizeof h);
  h ^= ((uint64_t)cluster + 1) * 0x9E3779B97F4A7C15ULL;
  memcpy(key, &h, sizeof h);
}

/* Count a clustered page's cluster, growing the page counts to its index. */
static int count_cluster(tbk_labeler *l, uint32_t cluster) {
  if (!l->cdf.slots && tbk_df_init(&l->cdf)) return -1;
  if (cluster >= l->ncluster_pages) {
    size_t n = l->ncluster_pages ? l->ncluster_pages : 16;
    while (n <= cluster) n *= 2;
    uint32_t *c = realloc(l->cluster_pages, n * sizeof *c);
    if (!c) return -1;
    memset(c + l->ncluster_pages, 0, (n - l->ncluster_pages) * sizeof *c);
    l->cluster_pages = c;
    l->ncluster_pages = n;
  }
  l->cluster_pages[cluster]++;
  return 0;
}

void tbk_labeler_use_history(tbk_labeler *l, tbk_history *h) { l->hist = h; }

size_t tbk_labeler_pages(const tbk_labeler *l) { return l->hist ? l->hist_pages : l->pages; }

/* Room for n fingerprints and their df. */
static int grow_fp(tbk_labeler *l, size_t n) {
  return TBK_GROW_ALL(&l->capfp, n ? n : 1, TBK_ARRAY(l->fp), TBK_ARRAY(l->hdf));
}

/* Count the page into the store (once ever: a page already there is not
 * counted again), noting its site's pages with it. */
static tbk_status count_in_history(tbk_labeler *l, const tbk_page_ref *ref, const tbk_page *page, tbk_error *err) {
  tbk_status st = tbk_history_begin_page(l->hist, l->s.site, ref->page, ref->url ? ref->url : "", err);
  if (st) return st;
  if (grow_fp(l, tbk_page_block_count(page))) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if ((st = tbk_history_add_page(l->hist, page, l->fp, err))) return st;
  uint32_t pages = tbk_history_pages(l->hist) + 1; /* the others and this one */
  if (pages > l->hist_pages) l->hist_pages = pages;
  return TBK_OK;
}

tbk_status tbk_labeler_add_clustered(tbk_labeler *l, const tbk_page_ref *ref, const tbk_page *page, uint32_t cluster,
                                     tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  if (l->hist && cluster != TBK_NO_CLUSTER)
    return tbk_fail(err, TBK_ERR_ARG, "a history store counts sites, not template clusters");
  if (cluster != TBK_NO_CLUSTER && count_cluster(l, cluster)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (l->hist) {
    tbk_status hst = count_in_history(l, ref, page, err);
    if (hst) return hst;
  }
  uint32_t pageno = ++l->pages;
  size_t nb = tbk_page_block_count(page);
  page_rec pr;
  memset(&pr, 0, sizeof pr); /* the padding is written to the spill file too */
  pr.n_blocks = (uint32_t)nb;
  pr.cluster = cluster;
  pr.page_len = (uint32_t)strlen(ref->page);
  pr.url_len = (uint32_t)strlen(ref->url ? ref->url : "");
  pr.text_chars = pv.text_chars; /* tbk_text_length of the page text */
  tbk_buf trace = {0};
  tbk_status tst = tbk_page_ref_trace(ref, &trace, err);
  if (tst) return tst;
  pr.trace_len = (uint32_t)trace.len;
  FILE *f = l->s.file;
  int bad = fwrite(&pr, sizeof pr, 1, f) != 1 || fwrite(ref->page, 1, pr.page_len, f) != pr.page_len ||
            (pr.url_len && fwrite(ref->url, 1, pr.url_len, f) != pr.url_len) ||
            (pr.trace_len && fwrite(trace.data, 1, pr.trace_len, f) != pr.trace_len);
  tbk_buf_free(&trace);
  for (size_t i = 0; i < nb && !bad; i++) {
    const tbk_block *b = tbk_page_block(page, i);
    int is_new;
    if (!tbk_df_count(&l->s.df, b->md5, pageno, &is_new)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    unsigned char ckey[16];
    if (cluster != TBK_NO_CLUSTER) {
      cluster_key(b->md5, cluster, ckey);
      if (!tbk_df_count(&l->cdf, ckey, pageno, &is_new)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    }
    size_t tl = strlen(b->tag), pl = strlen(b->path);
    block_rec r;
    memset(&r, 0, sizeof r);
    memcpy(r.md5, b->md5, 16);
    r.parent = b->parent;
    r.chars = (uint32_t)b->text_chars;
    r.line = b->line;
    r.depth = b->depth;
    r.tag_len = (uint16_t)(tl < 65535 ? tl : 65535);
    r.path_len = (uint16_t)(pl < 65535 ? pl : 65535);
    r.snip_len = snippet_len(b);
    bad = fwrite(&r, sizeof r, 1, f) != 1 || fwrite(b->tag, 1, r.tag_len, f) != r.tag_len ||
          fwrite(b->path, 1, r.path_len, f) != r.path_len || fwrite(b->text, 1, r.snip_len, f) != r.snip_len;
  }
  l->candidates += nb;
  if (bad) return tbk_fail(err, TBK_ERR_IO, "cannot write the temporary block file for site %s", l->s.site);
  return TBK_OK;
}

typedef struct loaded_block {
  block_rec r;
  char *tag, *path, *snip; /* point into the page's string arena */
  uint32_t df;
  uint32_t tdf; /* the df the template rule uses: within the page's cluster, if any */
  int dup;
  int all_unique;
} loaded_block;

static int cmp_md5_idx(const void *a, const void *b, void *ctx) {
  const loaded_block *bl = ctx;
  int c = memcmp(bl[*(const size_t *)a].r.md5, bl[*(const size_t *)b].r.md5, 16);
  if (c) return c;
  return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

const char *tbk_label_name(tbk_label lab) {
  return lab == TBK_LABEL_TEMPLATE ? "template" : lab == TBK_LABEL_CONTENT ? "content" : "ignored";
}

/* Pass 2's state: one page's blocks at a time, in arrays reused across
 * the site's pages. */
typedef struct finish_pass {
  tbk_labeler *l;
  size_t threshold, site_threshold; /* threshold: the current page's (its cluster's) */
  uint32_t pages;                   /* the site's pages the current page's df count */
  page_rec pr;
  const char *page_id, *url, *trace; /* into the arena */
  loaded_block *blocks;
  size_t *order, *offs, cap;
  tbk_buf arena, line;
  tbk_site_stats st;
  uint64_t template_chars, page_chars;
} finish_pass;

static tbk_status read_failed(const tbk_labeler *l, tbk_error *err) {
  return tbk_fail(err, TBK_ERR_IO, "cannot read back the temporary block file for site %s", l->s.site);
}

/* The current page's df and page count from the history store, the page
 * itself included (the store's counts leave it out when it holds it). */
static tbk_status history_df(finish_pass *f, tbk_error *err) {
  tbk_labeler *l = f->l;
  size_t n = f->pr.n_blocks;
  tbk_status st = tbk_history_begin_page(l->hist, l->s.site, f->page_id, f->url, err);
  if (st) return st;
  if (grow_fp(l, n)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < n; i++) l->fp[i] = tbk_history_fp(f->blocks[i].r.md5);
  if ((st = tbk_history_lookup(l->hist, l->fp, n, l->hdf, err))) return st;
  f->pages = tbk_history_pages(l->hist) + 1;
  f->threshold = tbk_template_df(&l->opt, f->pages);
  for (size_t i = 0; i < n; i++) f->blocks[i].df = f->blocks[i].tdf = l->hdf[i] + 1;
  return TBK_OK;
}

/* The next page's record and its blocks from the spill file; the strings
 * land in the arena, so the blocks point into it only once all are read
 * (the arena may move while it grows). */
static tbk_status read_page(finish_pass *f, tbk_error *err) {
  FILE *file = f->l->s.file;
  f->arena.len = 0;
  size_t page_off, url_off, trace_off;
  if (fread(&f->pr, sizeof f->pr, 1, file) != 1 || tbk_spill_read_str(file, &f->arena, f->pr.page_len, &page_off) ||
      tbk_spill_read_str(file, &f->arena, f->pr.url_len, &url_off) ||
      tbk_spill_read_str(file, &f->arena, f->pr.trace_len, &trace_off))
    return read_failed(f->l, err);
  f->page_chars += f->pr.text_chars;
  size_t n = f->pr.n_blocks, *offs;
  if (TBK_GROW_ALL(&f->cap, n, TBK_ARRAY(f->blocks), TBK_ARRAY(f->order), {&f->offs, 3 * sizeof *f->offs}))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  offs = f->offs;
  for (size_t i = 0; i < n; i++) {
    block_rec *r = &f->blocks[i].r;
    if (fread(r, sizeof *r, 1, file) != 1 || tbk_spill_read_str(file, &f->arena, r->tag_len, &offs[3 * i]) ||
        tbk_spill_read_str(file, &f->arena, r->path_len, &offs[3 * i + 1]) ||
        tbk_spill_read_str(file, &f->arena, r->snip_len, &offs[3 * i + 2]))
      return read_failed(f->l, err);
  }
  f->threshold = f->pr.cluster == TBK_NO_CLUSTER
                     ? f->site_threshold
                     : tbk_cluster_template_df(&f->l->opt, f->l->cluster_pages[f->pr.cluster]);
  f->page_id = f->arena.data + page_off;
  f->url = f->arena.data + url_off;
  f->trace = f->arena.data + trace_off;
  for (size_t i = 0; i < n; i++) {
    loaded_block *b = &f->blocks[i];
    b->tag = f->arena.data + offs[3 * i];
    b->path = f->arena.data + offs[3 * i + 1];
    b->snip = f->arena.data + offs[3 * i + 2];
    b->df = b->tdf = tbk_df_of(&f->l->s.df, b->r.md5);
    if (f->pr.cluster != TBK_NO_CLUSTER) {
      unsigned char ckey[16];
      cluster_key(b->r.md5, f->pr.cluster, ckey);
      b->tdf = tbk_df_of(&f->l->cdf, ckey);
    }
    b->dup = 0;
    f->order[i] = i;
  }
  return f->l->hist ? history_df(f, err) : TBK_OK;
}

/* Which blocks are unique on the site and have nothing but unique blocks
 * below them: the content rule's two conditions. */
static void mark_unique(finish_pass *f) {
  loaded_block *blocks = f->blocks;
  size_t *order = f->order, n = f->pr.n_blocks;
  /* The same text twice on one page: neither copy is a clean example. */
  if (n > 1) /* a page without blocks has no arrays yet: qsort_r(NULL) is UB */
    qsort_r(order, n, sizeof *order, cmp_md5_idx, blocks);
  for (size_t i = 1; i < n; i++)
    if (memcmp(blocks[order[i]].r.md5, blocks[order[i - 1]].r.md5, 16) == 0)
      blocks[order[i]].dup = blocks[order[i - 1]].dup = 1;
  /* Children follow parents in document order, so one reverse sweep
   * propagates "something below is not unique" upwards. */
  for (size_t i = 0; i < n; i++) blocks[i].all_unique = blocks[i].df == 1 && !blocks[i].dup;
  for (size_t i = n; i-- > 0;)
    if (!blocks[i].all_unique && blocks[i].r.parent >= 0) blocks[blocks[i].r.parent].all_unique = 0;
}

/* The rule of the file's header; *reason says why a block is ignored. */
static tbk_label decide(const finish_pass *f, const loaded_block *b, const char **reason) {
  int32_t par = b->r.parent;
  *reason = NULL;
  if (b->dup) *reason = "duplicate-in-page";
  else if (b->tdf >= f->threshold) return TBK_LABEL_TEMPLATE;
  else if (b->df > 1) *reason = "infrequent";
  else if (!b->all_unique) *reason = "non-unique-below";
  else if (par >= 0 && f->blocks[par].all_unique) *reason = "not-top-most";
  else return TBK_LABEL_CONTENT;
  return TBK_LABEL_IGNORED;
}

static void count_label(finish_pass *f, const loaded_block *b, tbk_label lab) {
  if (lab == TBK_LABEL_TEMPLATE) {
    f->st.templates++;
    /* Text share counts only outermost template blocks. */
    int32_t a = b->r.parent;
    while (a >= 0 && !(f->blocks[a].tdf >= f->threshold && !f->blocks[a].dup)) a = f->blocks[a].r.parent;
    if (a < 0) f->template_chars += b->r.chars;
  } else if (lab == TBK_LABEL_CONTENT) f->st.contents++;
  else f->st.ignored++;
}

/* One block's JSON line, written through the caller's function. */
static tbk_status write_label(finish_pass *f, const loaded_block *b, tbk_label lab, const char *reason,
                              tbk_write_fn write, void *wctx, tbk_error *err) {
  const tbk_labeler *l = f->l;
  tbk_buf *line = &f->line;
  int clustered = f->pr.cluster != TBK_NO_CLUSTER;
  tbk_label_record rec = {.site = l->s.site,
                          .site_len = strlen(l->s.site),
                          .page = f->page_id,
                          .page_len = f->pr.page_len,
                          .url = f->url,
                          .url_len = f->pr.url_len,
                          .trace = f->trace,
                          .trace_len = f->pr.trace_len,
                          .path = b->path,
                          .path_len = b->r.path_len,
                          .tag = b->tag,
                          .tag_len = b->r.tag_len,
                          .chunk = -1,
                          .md5 = b->r.md5,
                          .df = b->df,
                          .pages = f->pages,
                          .label = lab,
                          .clustered = clustered,
                          .cluster_df = b->tdf,
                          .cluster_pages = clustered ? l->cluster_pages[f->pr.cluster] : 0,
                          .reason = reason,
                          .chars = b->r.chars,
                          .line = b->r.line,
                          .depth = b->r.depth,
                          .text = b->snip,
                          .text_len = b->r.snip_len};
  line->len = 0;
  if (tbk_label_record_write(line, &rec)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (write(wctx, line->data, line->len)) return tbk_fail(err, TBK_ERR_IO, "cannot write output");
  return TBK_OK;
}

tbk_status tbk_labeler_finish(tbk_labeler *l, tbk_write_fn write, void *wctx, tbk_site_stats *stats, tbk_error *err) {
  finish_pass f = {.l = l, .site_threshold = tbk_template_df(&l->opt, l->pages), .pages = l->pages};
  f.st.pages = tbk_labeler_pages(l);
  f.st.candidates = (size_t)l->candidates;
  tbk_status status = TBK_OK;
  rewind(l->s.file);
  for (uint32_t pg = 0; pg < l->pages && status == TBK_OK; pg++) {
    status = read_page(&f, err);
    if (status) break;
    mark_unique(&f);
    for (size_t i = 0; i < f.pr.n_blocks && status == TBK_OK; i++) {
      const loaded_block *b = &f.blocks[i];
      const char *reason;
      tbk_label lab = decide(&f, b, &reason);
      count_label(&f, b, lab);
      if (lab == TBK_LABEL_IGNORED && !l->opt.emit_ignored) continue;
      status = write_label(&f, b, lab, reason, write, wctx, err);
    }
  }
  f.st.template_text_share = f.page_chars ? (double)f.template_chars / (double)f.page_chars : 0.0;
  if (stats) *stats = f.st;
  free(f.blocks);
  free(f.order);
  free(f.offs);
  tbk_buf_free(&f.arena);
  tbk_buf_free(&f.line);
  return status;
}
