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
 *   ignored   everything else (emitted only with emit_ignored). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "label.h"
#include "measure.h"
#include "df_table.h"
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

struct tbk_labeler {
  tbk_site_spill s;         /* the fingerprints' df; block records */
  tbk_label_options opt;
  uint32_t pages;
  uint64_t candidates;
};

/* Spilled record layout, all native-endian (the file never leaves the
 * process): page header, then one record per block. */
typedef struct page_rec {
  uint32_t n_blocks, page_len, url_len;
  uint64_t text_chars;
} page_rec;

typedef struct block_rec {
  unsigned char md5[16];
  int32_t parent;
  uint32_t chars, line, depth;
  uint16_t tag_len, path_len, snip_len;
} block_rec;

tbk_status tbk_labeler_new(const char *site, const tbk_label_options *lopt,
                           tbk_labeler **out, tbk_error *err) {
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
  free(l);
}

/* A snippet for people reading the output: at most 80 bytes, cut at a
 * character boundary. */
static uint16_t snippet_len(const tbk_block *b) {
  size_t n = b->text_len < 80 ? b->text_len : 80;
  while (n > 0 && n < b->text_len && ((unsigned char)b->text[n] & 0xC0) == 0x80) n--;
  return (uint16_t)n;
}

tbk_status tbk_labeler_add(tbk_labeler *l, const char *page_id, const char *url, const tbk_page *page,
                           tbk_error *err) {
  if (!page_id) return tbk_fail(err, TBK_ERR_ARG, "a page needs an id");
  tbk_page_ref ref = {.page = (char *)page_id, .url = (char *)(url ? url : "")};
  return tbk_labeler_add_page(l, &ref, page, err);
}

tbk_status tbk_labeler_add_page(tbk_labeler *l, const tbk_page_ref *ref,
                                const tbk_page *page, tbk_error *err) {
  uint32_t pageno = ++l->pages;
  size_t nb = tbk_page_block_count(page);
  size_t text_len;
  const char *text = tbk_page_text(page, &text_len);
  page_rec pr;
  memset(&pr, 0, sizeof pr); /* the padding is written to the spill file too */
  pr.n_blocks = (uint32_t)nb;
  pr.page_len = (uint32_t)strlen(ref->page);
  pr.url_len = (uint32_t)strlen(ref->url ? ref->url : "");
  pr.text_chars = tbk_text_length(text, text_len);
  FILE *f = l->s.file;
  int bad = fwrite(&pr, sizeof pr, 1, f) != 1 || fwrite(ref->page, 1, pr.page_len, f) != pr.page_len ||
            (pr.url_len && fwrite(ref->url, 1, pr.url_len, f) != pr.url_len);
  for (size_t i = 0; i < nb && !bad; i++) {
    const tbk_block *b = tbk_page_block(page, i);
    int is_new;
    if (!tbk_df_count(&l->s.df, b->md5, pageno, &is_new)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
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

tbk_status tbk_labeler_finish(tbk_labeler *l, tbk_write_fn write, void *wctx,
                              tbk_site_stats *stats, tbk_error *err) {
  tbk_site_stats st = {0};
  st.pages = l->pages;
  st.candidates = (size_t)l->candidates;
  size_t threshold = tbk_template_df(&l->opt, l->pages);
  uint64_t template_chars = 0, page_chars = 0;
  tbk_status status = TBK_OK;
  loaded_block *blocks = NULL;
  size_t *order = NULL, cap = 0;
  tbk_buf arena = {0}, line = {0};
  size_t *offs = NULL;
  rewind(l->s.file);
  for (uint32_t pg = 0; pg < l->pages && status == TBK_OK; pg++) {
    page_rec pr;
    arena.len = 0;
    size_t page_off, url_off;
    if (fread(&pr, sizeof pr, 1, l->s.file) != 1 || tbk_spill_read_str(l->s.file, &arena, pr.page_len, &page_off) ||
        tbk_spill_read_str(l->s.file, &arena, pr.url_len, &url_off)) {
      status = tbk_fail(err, TBK_ERR_IO, "cannot read back the temporary block file for site %s", l->s.site);
      break;
    }
    page_chars += pr.text_chars;
    if (TBK_GROW_ALL(&cap, pr.n_blocks, TBK_ARRAY(blocks), TBK_ARRAY(order), {&offs, 3 * sizeof *offs})) {
      status = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      break;
    }
    size_t n = pr.n_blocks;
    for (size_t i = 0; i < n; i++) {
      block_rec *r = &blocks[i].r;
      if (fread(r, sizeof *r, 1, l->s.file) != 1 || tbk_spill_read_str(l->s.file, &arena, r->tag_len, &offs[3 * i]) ||
          tbk_spill_read_str(l->s.file, &arena, r->path_len, &offs[3 * i + 1]) ||
          tbk_spill_read_str(l->s.file, &arena, r->snip_len, &offs[3 * i + 2])) {
        status = tbk_fail(err, TBK_ERR_IO, "cannot read back the temporary block file for site %s", l->s.site);
        break;
      }
    }
    if (status) break;
    const char *page_id = arena.data + page_off, *url = arena.data + url_off;
    for (size_t i = 0; i < n; i++) {
      blocks[i].tag = arena.data + offs[3 * i];
      blocks[i].path = arena.data + offs[3 * i + 1];
      blocks[i].snip = arena.data + offs[3 * i + 2];
      blocks[i].df = tbk_df_of(&l->s.df, blocks[i].r.md5);
      blocks[i].dup = 0;
      order[i] = i;
    }
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
    for (size_t i = 0; i < n; i++) {
      loaded_block *b = &blocks[i];
      int32_t par = b->r.parent;
      tbk_label lab = TBK_LABEL_IGNORED;
      const char *reason = NULL;
      if (b->dup) reason = "duplicate-in-page";
      else if (b->df >= threshold) lab = TBK_LABEL_TEMPLATE;
      else if (b->df > 1) reason = "infrequent";
      else if (!b->all_unique) reason = "non-unique-below";
      else if (par >= 0 && blocks[par].all_unique) reason = "not-top-most";
      else lab = TBK_LABEL_CONTENT;
      if (lab == TBK_LABEL_TEMPLATE) {
        st.templates++;
        /* Text share counts only outermost template blocks. */
        int32_t a = par;
        while (a >= 0 && !(blocks[a].df >= threshold && !blocks[a].dup)) a = blocks[a].r.parent;
        if (a < 0) template_chars += b->r.chars;
      } else if (lab == TBK_LABEL_CONTENT) st.contents++;
      else st.ignored++;
      if (lab == TBK_LABEL_IGNORED && !l->opt.emit_ignored) continue;
      char hex[33];
      tbk_md5_hex(b->r.md5, hex);
      line.len = 0;
      int bad = tbk_buf_puts(&line, "{\"site\":") || tbk_buf_json_str(&line, l->s.site, strlen(l->s.site)) ||
                tbk_buf_puts(&line, ",\"page\":") || tbk_buf_json_str(&line, page_id, pr.page_len) ||
                tbk_buf_puts(&line, ",\"url\":") || tbk_buf_json_str(&line, url, pr.url_len) ||
                tbk_buf_puts(&line, ",\"path\":") || tbk_buf_json_str(&line, b->path, b->r.path_len) ||
                tbk_buf_puts(&line, ",\"tag\":") || tbk_buf_json_str(&line, b->tag, b->r.tag_len) ||
                tbk_buf_printf(&line, ",\"md5\":\"%s\",\"df\":%u,\"pages\":%u,\"label\":\"%s\"", hex, b->df,
                               l->pages, tbk_label_name(lab)) ||
                (reason && tbk_buf_printf(&line, ",\"reason\":\"%s\"", reason)) ||
                tbk_buf_printf(&line, ",\"chars\":%u,\"line\":%u,\"depth\":%u,\"text\":", b->r.chars, b->r.line,
                               b->r.depth) ||
                tbk_buf_json_str(&line, b->snip, b->r.snip_len) || tbk_buf_puts(&line, "}\n");
      if (bad) { status = tbk_fail(err, TBK_ERR_NOMEM, "out of memory"); break; }
      if (write(wctx, line.data, line.len)) { status = tbk_fail(err, TBK_ERR_IO, "cannot write output"); break; }
    }
  }
  st.template_text_share = page_chars ? (double)template_chars / (double)page_chars : 0.0;
  if (stats) *stats = st;
  free(blocks);
  free(order);
  free(offs);
  tbk_buf_free(&arena);
  tbk_buf_free(&line);
  return status;
}
