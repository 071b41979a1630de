/* Tag name lookup: the list in tags.h is sorted by name, so bsearch works. */
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

static int cmp_name(const void *key, const void *elem) {
  return strcmp((const char *)key, *(const char *const *)elem);
}

tbk_tag tbk_tag_lookup(const char *name) {
  /* Entry 0 is OTHER (""), the rest is sorted. */
  const char *const *hit = bsearch(name, names + 1, TBK_TAG_COUNT - 1, sizeof names[0], cmp_name);
  return hit ? (tbk_tag)(hit - names) : TBK_TAG_OTHER;
}

const char *tbk_tag_name(tbk_tag t) { return t < TBK_TAG_COUNT ? names[t] : ""; }
unsigned tbk_tag_flags(tbk_tag t) { return t < TBK_TAG_COUNT ? flags_of[t] : 0; }
