/* One chunking of a site's pages scored (chunks_eval.h: tbk_chunk_run). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chunks_eval.h"
#include "text.h"

tbk_status tbk_chunk_run_new(tbk_chunk_run *r, const char *site, const tbk_chunk_options *o, tbk_label_set *blocks,
                             tbk_error *err) {
  memset(r, 0, sizeof *r);
  r->opt = *o;
  r->blocks = blocks;
  r->places = tbk_chunk_places_new();
  if (!r->places) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return tbk_chunker_new(site, o, &r->ck, err);
}

static int ovl_span(void *ctx, const tbk_chunk_span *s) {
  tbk_chunk_run *r = ctx;
  const char *t = tbk_page_text(r->page, NULL);
  uint32_t c = 0;
  for (uint32_t i = s->start; i < s->end; i++) c += r->mask.data[i] && ((unsigned char)t[i] & 0xC0) != 0x80;
  if (tbk_grow(&r->ovl, &r->cap_ovl, r->n_ovl + 1, sizeof *r->ovl)) return -1;
  r->ovl[r->n_ovl++] = c;
  return 0;
}

/* Chars of each chunk of page that lie in blocks labelled template. */
static int blocks_overlap(tbk_chunk_run *r, const tbk_page_ref *ref, const tbk_page *page) {
  size_t text_len;
  const char *text = tbk_page_text(page, &text_len);
  r->mask.len = 0;
  if (tbk_buf_reserve(&r->mask, text_len + 1)) return -1;
  memset(r->mask.data, 0, text_len + 1);
  for (size_t b = 0; b < tbk_page_block_count(page); b++) {
    const tbk_block *bl = tbk_page_block(page, b);
    char hex[33];
    tbk_md5_hex(bl->md5, hex);
    int label;
    const char *lm;
    if (tbk_label_set_match(r->blocks, ref->page, bl->path, hex, &label, &lm) == TBK_MATCH_OK && label == 1)
      memset(r->mask.data + (bl->text - text), 1, bl->text_len);
  }
  r->page = page;
  return tbk_page_chunks(page, &r->opt, ovl_span, r);
}

tbk_status tbk_chunk_run_add(tbk_chunk_run *r, const tbk_page_ref *ref, const tbk_page *page, tbk_error *err) {
  tbk_status st = tbk_chunker_add_page(r->ck, ref, page, err);
  if (st) return st;
  if (r->blocks && blocks_overlap(r, ref, page)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  r->added++;
  return TBK_OK;
}

static int score_page(void *ctx, const tbk_chunk_page *pg) {
  tbk_chunk_run *r = ctx;
  if (tbk_chunk_places_add_page(r->places, pg)) return -1;
  if (!r->ovl) return 0;
  for (size_t i = 0; i < pg->n && r->at < r->n_ovl; i++) {
    uint32_t o = r->ovl[r->at++];
    r->agree.b += o;
    if (pg->chunks[i].label == TBK_LABEL_TEMPLATE) {
      r->agree.a += pg->chunks[i].chars;
      r->agree.both += o;
    }
  }
  return 0;
}

tbk_status tbk_chunk_run_finish(tbk_chunk_run *r, tbk_error *err) {
  return tbk_chunker_finish(r->ck, NULL, NULL, score_page, r, &r->st, err);
}

tbk_status tbk_chunk_run_again(tbk_chunk_run *r, size_t df, tbk_error *err) {
  tbk_chunk_places_clear(r->places);
  r->at = 0;
  memset(&r->agree, 0, sizeof r->agree);
  tbk_chunker_set_df(r->ck, df);
  return tbk_chunk_run_finish(r, err);
}

tbk_ttdr tbk_chunk_run_ttdr(const tbk_chunk_run *r, const tbk_chunk_node *truth, size_t nt,
                            const tbk_chunk_places *ref) {
  if (nt) return tbk_chunk_ttdr_nodes(r->places, truth, nt);
  if (ref) return tbk_chunk_ttdr_places(r->places, ref);
  tbk_ttdr t = {0};
  t.ttdr = NAN;
  return t;
}

void tbk_chunk_run_free(tbk_chunk_run *r) {
  tbk_chunker_free(r->ck);
  tbk_chunk_places_free(r->places);
  free(r->ovl);
  tbk_buf_free(&r->mask);
}
