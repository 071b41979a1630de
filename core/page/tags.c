/* Tag name lookup and each tag's flags. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "tags.h"

static const char *const names[] = {
#define TBK_TAG_NAME(id, name, flags) name,
    TBK_TAG_LIST(TBK_TAG_NAME)
#undef TBK_TAG_NAME
};
static const unsigned flags_of[] = {
#define TBK_TAG_FLAGS(id, name, flags) flags,
    TBK_TAG_LIST(TBK_TAG_FLAGS)
#undef TBK_TAG_FLAGS
};

/* Names by an FNV-1a hash, open addressing: the walk looks up every
 * element's name, and a binary search of strcmp calls was ~250
 * instructions each. Built once; read-only after. */
enum { SLOTS = 256 };
_Static_assert(TBK_TAG_COUNT <= 255 && (int)TBK_TAG_COUNT < (int)SLOTS, "tag ids fit a byte and leave an empty slot");
static uint8_t slot_tag[SLOTS]; /* 0 = empty (OTHER is never stored) */
static pthread_once_t slots_once = PTHREAD_ONCE_INIT;

static uint32_t name_hash(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static void slots_init(void) {
  for (int t = 1; t < TBK_TAG_COUNT; t++) {
    uint32_t k = name_hash(names[t]) % SLOTS;
    while (slot_tag[k]) k = (k + 1) % SLOTS;
    slot_tag[k] = (uint8_t)t;
  }
}

tbk_tag tbk_tag_lookup(const char *name) {
  pthread_once(&slots_once, slots_init);
  for (uint32_t k = name_hash(name) % SLOTS; slot_tag[k]; k = (k + 1) % SLOTS) {
    const char *s = names[slot_tag[k]];
    if (s[0] == name[0] && strcmp(s, name) == 0) return (tbk_tag)slot_tag[k];
  }
  return TBK_TAG_OTHER;
}

const char *tbk_tag_name(tbk_tag t) { return t < TBK_TAG_COUNT ? names[t] : ""; }
unsigned tbk_tag_flags(tbk_tag t) { return t < TBK_TAG_COUNT ? flags_of[t] : 0; }
