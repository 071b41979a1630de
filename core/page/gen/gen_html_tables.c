/* Writes core/page/html_tables.c: the HTML 4 facts tbk's HTML parser
 * (fast_html.c) and its tree builder (build.c) need, read from the libxml2
 * 2.9.14 this runs against, so that tbk parses a page the same way on
 * every libxml2. A developer's tool, not part of the build: run it only
 * to re-derive the tables (tests/test_html_tables.c checks the committed
 * ones against libxml2 2.9.14 wherever that is the library loaded).
 *
 *   cc -O2 $(pkg-config --cflags libxml-2.0) core/page/gen/gen_html_tables.c \
 *      $(pkg-config --libs libxml-2.0) -o /tmp/gen_html_tables &&
 *   /tmp/gen_html_tables > core/page/html_tables.c
 *
 * It refuses any libxml2 but 2.9.14: later ones changed these answers
 * (2.14's HTML5 tokenizer above all). libxml2's element and entity tables
 * are static arrays it hands out pointers into; the first and last entries
 * found by lookup bound them, as fast_html.c once read them at run time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/chvalid.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlversion.h>

/* The tags that close an open element of their own name. libxml2 answers
 * htmlAutoCloseTag only for two different names; tests/test_fast_html.c's
 * pairs() checks these against libxml2's parse of every pair of tags. */
static const char *const closes_itself[] = {"a", "col",   "colgroup", "form", "li", "option",
                                            "p", "tbody", "td",       "th",   "tr"};
/* Tags htmlStartClose names that libxml2 does not describe. */
static const char *const undescribed_closers[] = {"listing", "xmp"};

static int by_name(const void *x, const void *y) {
  return strcmp(((const htmlEntityDesc *)x)->name, ((const htmlEntityDesc *)y)->name);
}

static int by_string(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

static void die(const char *what) {
  fprintf(stderr, "gen_html_tables: error: %s\n", what);
  exit(1);
}

static void elements(const htmlElemDesc **first, size_t *count) {
  const htmlElemDesc *a = htmlTagLookup((const xmlChar *)"a"), *z = htmlTagLookup((const xmlChar *)"var");
  if (!a || !z || z < a) die("libxml2's element table is not one sorted array");
  *first = a;
  *count = (size_t)(z - a) + 1;
  for (size_t k = 0; k < *count; k++)
    if ((k && strcmp(a[k - 1].name, a[k].name) >= 0) || htmlTagLookup((const xmlChar *)a[k].name) != &a[k])
      die("libxml2's element table is not one sorted array");
  printf("const tbk_html_elem tbk_html_elems[] = {\n");
  for (size_t k = 0; k < *count; k++) printf("    {\"%s\", %d, %d},\n", a[k].name, a[k].empty, a[k].endTag);
  printf("};\n\n");
}

static void closers(const htmlElemDesc *elems, size_t n_elems) {
  size_t n = n_elems + 2;
  const char *names[256];
  if (n > 128) die("more tags than the closing table's 128 bits");
  for (size_t k = 0; k < n_elems; k++) names[k] = elems[k].name;
  for (size_t k = 0; k < 2; k++) {
    if (htmlTagLookup((const xmlChar *)undescribed_closers[k])) die("listing or xmp is described now");
    names[n_elems + k] = undescribed_closers[k];
  }
  printf("const uint64_t tbk_html_closes[][2] = {\n");
  for (size_t nw = 0; nw < n; nw++) {
    xmlNode node;
    memset(&node, 0, sizeof node);
    node.type = XML_ELEMENT_NODE;
    node.name = (const xmlChar *)names[nw];
    uint64_t bits[2] = {0, 0};
    for (size_t old = 0; old < n; old++) {
      int yes = 0;
      if (old != nw) {
        yes = htmlAutoCloseTag(NULL, (const xmlChar *)names[old], &node) != 0;
      } else {
        for (size_t k = 0; k < sizeof closes_itself / sizeof closes_itself[0]; k++)
          yes |= strcmp(closes_itself[k], names[nw]) == 0;
      }
      if (yes) bits[old / 64] |= (uint64_t)1 << (old % 64);
    }
    printf("    {0x%016llxULL, 0x%016llxULL}, /* %s */\n", (unsigned long long)bits[0], (unsigned long long)bits[1],
           names[nw]);
  }
  printf("};\n\n");
}

static void entities(void) {
  const htmlEntityDesc *lo = NULL, *hi = NULL;
  for (unsigned v = 0; v < 0x110000; v++) {
    const htmlEntityDesc *d = htmlEntityValueLookup(v);
    if (d && (!lo || d < lo)) lo = d;
    if (d && (!hi || d > hi)) hi = d;
  }
  if (!lo) die("no entities");
  size_t n = (size_t)(hi - lo) + 1;
  htmlEntityDesc *sorted = malloc(n * sizeof *sorted);
  if (!sorted) die("out of memory");
  memcpy(sorted, lo, n * sizeof *sorted);
  for (size_t k = 0; k < n; k++)
    if (htmlEntityLookup((const xmlChar *)sorted[k].name) != &lo[k]) die("libxml2's entity table is not one array");
  qsort(sorted, n, sizeof *sorted, by_name);
  printf("const tbk_html_entity tbk_html_entities[] = {\n");
  for (size_t k = 0; k < n; k++) printf("    {\"%s\", %u},\n", sorted[k].name, sorted[k].value);
  printf("};\n\n");
  fprintf(stderr, "gen_html_tables: %zu entities\n", n);
  free(sorted);
}

/* HTML's boolean attributes are among the attributes libxml2's elements
 * list. */
static int listed(const char **seen, size_t n, const char *name) {
  for (size_t k = 0; k < n; k++)
    if (strcmp(seen[k], name) == 0) return 1;
  return 0;
}

static void boolean_attrs(const htmlElemDesc *elems, size_t n_elems) {
  const char *seen[1024];
  size_t n = 0;
  for (size_t k = 0; k < n_elems; k++) {
    const char **lists[] = {elems[k].attrs_opt, elems[k].attrs_depr, elems[k].attrs_req};
    for (size_t l = 0; l < 3; l++)
      for (size_t j = 0; lists[l] && lists[l][j]; j++) {
        const char *name = lists[l][j];
        if (htmlIsBooleanAttr((const xmlChar *)name) && !listed(seen, n, name)) {
          if (n == sizeof seen / sizeof seen[0]) die("too many boolean attributes");
          seen[n++] = name;
        }
      }
  }
  qsort(seen, n, sizeof *seen, by_string);
  printf("const char *const tbk_html_boolean_attrs[] = {\n");
  for (size_t k = 0; k < n; k++) printf("    \"%s\",\n", seen[k]);
  printf("};\n\n");
  fprintf(stderr, "gen_html_tables: %zu boolean attributes\n", n);
}

/* The bytes xmlIsPubidChar_ch takes, 256 bits. */
static void pubid_chars(void) {
  uint64_t bits[4] = {0};
  for (unsigned c = 0; c < 256; c++)
    if (xmlIsPubidChar_ch(c)) bits[c / 64] |= (uint64_t)1 << (c % 64);
  printf("const uint64_t tbk_html_pubid_chars[4] = {0x%016llxULL, 0x%016llxULL, 0x%016llxULL, 0x%016llxULL};\n\n",
         (unsigned long long)bits[0], (unsigned long long)bits[1], (unsigned long long)bits[2],
         (unsigned long long)bits[3]);
}

/* XML 1.0's Letter (IS_LETTER: BaseChar or Ideographic), and the
 * characters htmlParseNameComplex takes after a name's first (Letter,
 * Digit, CombiningChar, Extender, '.', '-', '_', ':'), as ranges of code
 * points, first and last. */
static int name_char(unsigned c) {
  return IS_LETTER(c) || IS_DIGIT(c) || IS_COMBINING(c) || IS_EXTENDER(c) || c == '.' || c == '-' || c == '_' ||
         c == ':';
}

static void ranges(const char *array, int (*in)(unsigned)) {
  printf("const uint32_t %s[][2] = {\n", array);
  size_t n = 0;
  for (unsigned c = 0; c < 0x110000; c++) {
    if (!in(c)) continue;
    unsigned last = c;
    while (last + 1 < 0x110000 && in(last + 1)) last++;
    printf("    {0x%04X, 0x%04X},\n", c, last);
    n++;
    c = last;
  }
  printf("};\n");
  fprintf(stderr, "gen_html_tables: %s: %zu ranges\n", array, n);
}

static int letter(unsigned c) { return IS_LETTER(c); }

int main(void) {
  if (LIBXML_VERSION != 20914 || atoi(xmlParserVersion) != 20914) die("libxml2 2.9.14 is the one these tables freeze");
  const htmlElemDesc *elems;
  size_t n_elems;
  printf("/* Generated by core/page/gen/gen_html_tables.c from libxml2 2.9.14 (MIT\n"
         " * licence, Copyright (C) 1998-2012 Daniel Veillard): HTML 4's elements,\n"
         " * which start tags close which open elements, entities, boolean\n"
         " * attributes, and XML 1.0's PubidChar, Letter and name characters, as that\n"
         " * version's HTML parser answers them. Do not edit: see html_tables.h. */\n"
         "#include \"html_tables.h\"\n\n");
  elements(&elems, &n_elems);
  closers(elems, n_elems);
  entities();
  boolean_attrs(elems, n_elems);
  pubid_chars();
  ranges("tbk_xml_letters", letter);
  printf("\n");
  ranges("tbk_xml_name_chars", name_char);
  return 0;
}
