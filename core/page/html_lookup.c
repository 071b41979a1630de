/* Lookups in tbk's HTML tables (html_tables.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "html_tables.h"

/* strcasecmp for ASCII names, without the locale's tables. */
static int elem_cmp(const void *key, const void *e) {
  const unsigned char *a = key, *b = (const unsigned char *)((const tbk_html_elem *)e)->name;
  for (;; a++, b++) {
    int x = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a;
    if (x != *b || !x) return x - *b;
  }
}

const tbk_html_elem *tbk_html_elem_lookup(const char *name) {
  return bsearch(name, tbk_html_elems, TBK_HTML_ELEMS, sizeof *tbk_html_elems, elem_cmp);
}

int tbk_html_closer_id(const char *name, const tbk_html_elem *e) {
  if (e) return (int)(e - tbk_html_elems);
  if (strcmp(name, "listing") == 0) return TBK_HTML_ELEMS;
  if (strcmp(name, "xmp") == 0) return TBK_HTML_ELEMS + 1;
  return -1;
}

typedef struct counted {
  const char *s;
  size_t len;
} counted;

static int entity_cmp(const void *key, const void *e) {
  const counted *k = key;
  const char *name = ((const tbk_html_entity *)e)->name;
  int c = strncmp(k->s, name, k->len);
  return c ? c : -(name[k->len] != '\0');
}

uint32_t tbk_html_entity_value(const char *name, size_t len) {
  counted k = {name, len};
  const tbk_html_entity *e = bsearch(&k, tbk_html_entities, TBK_HTML_ENTITIES, sizeof *tbk_html_entities, entity_cmp);
  return e ? e->value : 0;
}

static int attr_cmp(const void *key, const void *e) { return strcasecmp(key, *(const char *const *)e); }

int tbk_html_boolean_attr(const char *name) {
  return bsearch(name, tbk_html_boolean_attrs, TBK_HTML_BOOLEAN_ATTRS, sizeof *tbk_html_boolean_attrs, attr_cmp) !=
         NULL;
}

static int in_ranges(const uint32_t (*r)[2], size_t n, uint32_t c) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (c < r[mid][0]) hi = mid;
    else if (c > r[mid][1]) lo = mid + 1;
    else return 1;
  }
  return 0;
}

int tbk_xml_letter(uint32_t c) { return in_ranges(tbk_xml_letters, TBK_XML_LETTER_RANGES, c); }

int tbk_xml_name_char(uint32_t c) { return in_ranges(tbk_xml_name_chars, TBK_XML_NAME_CHAR_RANGES, c); }
