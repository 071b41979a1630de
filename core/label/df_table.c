#include <stdlib.h>
#include <string.h>

#include "df_table.h"

int tbk_df_init(tbk_df_table *t) {
  t->nslots = 1024;
  t->used = 0;
  t->slots = calloc(t->nslots, sizeof *t->slots);
  return t->slots ? 0 : -1;
}

void tbk_df_free(tbk_df_table *t) {
  free(t->slots);
  t->slots = NULL;
  t->nslots = t->used = 0;
}

static size_t slot_of(const tbk_df_slot *slots, size_t nslots, const unsigned char key[16]) {
  uint64_t h;
  memcpy(&h, key, sizeof h); /* MD5 bytes are already uniformly spread */
  size_t i = (size_t)h & (nslots - 1);
  while (slots[i].last_page && memcmp(slots[i].key, key, 16) != 0) i = (i + 1) & (nslots - 1);
  return i;
}

static int grow(tbk_df_table *t) {
  size_t ns = t->nslots * 2;
  tbk_df_slot *s = calloc(ns, sizeof *s);
  if (!s) return -1;
  for (size_t i = 0; i < t->nslots; i++)
    if (t->slots[i].last_page) s[slot_of(s, ns, t->slots[i].key)] = t->slots[i];
  free(t->slots);
  t->slots = s;
  t->nslots = ns;
  return 0;
}

tbk_df_slot *tbk_df_count(tbk_df_table *t, const unsigned char key[16], uint32_t page, int *is_new) {
  if ((t->used + 1) * 10 > t->nslots * 7 && grow(t)) return NULL;
  tbk_df_slot *s = &t->slots[slot_of(t->slots, t->nslots, key)];
  *is_new = !s->last_page;
  if (*is_new) {
    memcpy(s->key, key, 16);
    t->used++;
  }
  if (s->last_page != page) { /* once per page, however often it repeats */
    s->df++;
    s->last_page = page;
  }
  return s;
}

uint32_t tbk_df_of(const tbk_df_table *t, const unsigned char key[16]) {
  const tbk_df_slot *s = &t->slots[slot_of(t->slots, t->nslots, key)];
  return s->last_page ? s->df : 0;
}

tbk_status tbk_site_spill_open(tbk_site_spill *s, const char *site, tbk_error *err) {
  memset(s, 0, sizeof *s);
  s->site = strdup(site);
  if (!s->site || tbk_df_init(&s->df)) {
    tbk_site_spill_close(s);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  s->file = tmpfile();
  if (!s->file) {
    tbk_site_spill_close(s);
    return tbk_fail(err, TBK_ERR_IO, "cannot create a temporary file for site %s", site);
  }
  return TBK_OK;
}

void tbk_site_spill_close(tbk_site_spill *s) {
  free(s->site);
  tbk_df_free(&s->df);
  if (s->file) fclose(s->file);
  memset(s, 0, sizeof *s);
}

int tbk_spill_read_str(FILE *f, tbk_buf *arena, size_t n, size_t *off) {
  *off = arena->len;
  if (tbk_buf_reserve(arena, n + 1)) return -1;
  if (n && fread(arena->data + arena->len, 1, n, f) != n) return -1;
  arena->len += n;
  arena->data[arena->len++] = '\0';
  return 0;
}
