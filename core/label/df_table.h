/* Document frequency of 16-byte keys (block or chunk MD5s) over one site's
 * pages, shared by the block labeller (label.c) and the chunk labeller
 * (chunks.c): how many pages hold each key, a page counted once however
 * often the key repeats on it. */
#ifndef TBK_DF_TABLE_H
#define TBK_DF_TABLE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

typedef struct tbk_df_slot {
  unsigned char key[16];
  uint32_t df;
  uint32_t last_page; /* 1 + index of the last page that counted it; 0 empty */
  uint32_t words;     /* the caller's, set when the key is new */
} tbk_df_slot;

/* Open addressing, at most 70% full. */
typedef struct tbk_df_table {
  tbk_df_slot *slots; /* owned */
  size_t nslots, used;
} tbk_df_table;

/* 0 ok, -1 out of memory. */
int tbk_df_init(tbk_df_table *t);
void tbk_df_free(tbk_df_table *t);
/* Count key for page `page` (1-based; a page's keys are counted before the
 * next page's); the key's slot, *is_new = 1 when first seen; NULL when out
 * of memory. */
tbk_df_slot *tbk_df_count(tbk_df_table *t, const unsigned char key[16], uint32_t page, int *is_new);
/* Pages holding key (0 when never counted). */
uint32_t tbk_df_of(const tbk_df_table *t, const unsigned char key[16]);

/* What each labeller keeps of a site between its two passes: the keys'
 * document frequencies in memory and the pages' records in a temporary
 * file, so memory holds the site's distinct keys only. */
typedef struct tbk_site_spill {
  char *site;      /* owned */
  tbk_df_table df; /* owned */
  FILE *file;      /* owned temporary file */
} tbk_site_spill;

/* Nothing is held when it fails (out of memory, no temporary file). */
tbk_status tbk_site_spill_open(tbk_site_spill *s, const char *site, tbk_error *err);
void tbk_site_spill_close(tbk_site_spill *s);
/* The next n bytes of the spill file appended to arena with a NUL after
 * them, *off their offset (an offset, as the arena may move); 0 ok, -1 short
 * read or out of memory. */
int tbk_spill_read_str(FILE *f, tbk_buf *arena, size_t n, size_t *off);
#endif
