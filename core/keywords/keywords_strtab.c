/* The keyword layer's string interning table (keywords_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "keywords_internal.h"

void kw_strtab_free(kw_strtab *t) {
  tbk_buf_free(&t->arena);
  free(t->off);
  free(t->len);
  free(t->slots);
  memset(t, 0, sizeof *t);
}

void kw_strtab_clear(kw_strtab *t) {
  t->arena.len = 0;
  t->n = 0;
  if (t->slots) memset(t->slots, 0, t->nslots * sizeof *t->slots);
}

static size_t slot_of(const kw_strtab *t, const char *s, size_t n) {
  return (size_t)tbk_hash64(s, n) & (t->nslots - 1);
}

long kw_strtab_find(const kw_strtab *t, const char *s, size_t n) {
  if (!t->nslots) return -1;
  for (size_t h = slot_of(t, s, n);; h = (h + 1) & (t->nslots - 1)) {
    uint32_t v = t->slots[h];
    if (!v) return -1;
    if (t->len[v - 1] == n && memcmp(t->arena.data + t->off[v - 1], s, n) == 0) return (long)v - 1;
  }
}

int kw_slots_reserve(uint32_t **slots, size_t *nslots, size_t n, size_t first,
                     size_t (*hash)(const void *ctx, size_t id), const void *ctx) {
  if ((n + 1) * 2 <= *nslots) return 0;
  size_t ns = *nslots ? *nslots * 2 : first;
  uint32_t *s = calloc(ns, sizeof *s);
  if (!s) return -1;
  for (size_t id = 0; id < n; id++) {
    size_t h = hash(ctx, id) & (ns - 1);
    while (s[h]) h = (h + 1) & (ns - 1);
    s[h] = (uint32_t)id + 1;
  }
  free(*slots);
  *slots = s;
  *nslots = ns;
  return 0;
}

static size_t hash_of_id(const void *ctx, size_t id) {
  const kw_strtab *t = ctx;
  return (size_t)tbk_hash64(t->arena.data + t->off[id], t->len[id]);
}

long kw_strtab_intern(kw_strtab *t, const char *s, size_t n, int *added) {
  if (added) *added = 0;
  long id = kw_strtab_find(t, s, n);
  if (id >= 0) return id;
  if (kw_slots_reserve(&t->slots, &t->nslots, t->n, 256, hash_of_id, t)) return -1;
  if (t->n >= UINT32_MAX - 1 || t->arena.len + n + 1 > UINT32_MAX) return -1;
  if (t->n == t->cap) {
    size_t cap = tbk_grow_cap(t->cap, t->n + 1, sizeof(uint32_t));
    if (!cap || tbk_resize(&t->off, cap, sizeof *t->off) || tbk_resize(&t->len, cap, sizeof *t->len)) return -1;
    t->cap = cap;
  }
  size_t at = t->arena.len;
  if (tbk_buf_append(&t->arena, s, n) || tbk_buf_append(&t->arena, "", 1)) return -1;
  t->off[t->n] = (uint32_t)at;
  t->len[t->n] = (uint32_t)n;
  size_t h = slot_of(t, s, n);
  while (t->slots[h]) h = (h + 1) & (t->nslots - 1);
  t->slots[h] = (uint32_t)t->n + 1;
  if (added) *added = 1;
  return (long)t->n++;
}
