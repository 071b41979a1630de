/* tbk's HTML tables (core/page/html_tables.h), frozen from libxml2 2.9.14,
 * held entry by entry to that library's own answers, so that they cannot
 * drift from the parser fast_html.c follows: the elements and their
 * fields, which start tag closes which open element (the pairs of two
 * names; a tag closing its own name is checked by test_fast_html's
 * pairs() against libxml2's parse), the entities, the boolean attributes,
 * PubidChar, Letter and the characters of a name. With another libxml2 loaded the test skips: the
 * tables are 2.9.14's, not the installed one's. */
#include <ctype.h>
#include <stdlib.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/chvalid.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlversion.h>

#include "html_tables.h"

/* Built against another libxml2 (whose HTML calls later versions
 * deprecate), the test only skips. */
#if LIBXML_VERSION == 20914
#include "check.h"

static void upper(char *dst, const char *src, size_t cap) {
  size_t k = 0;
  for (; src[k] && k + 1 < cap; k++) dst[k] = (char)toupper((unsigned char)src[k]);
  dst[k] = '\0';
}

static void elements(void) {
  const htmlElemDesc *a = htmlTagLookup((const xmlChar *)"a"), *z = htmlTagLookup((const xmlChar *)"var");
  CHECK(a && z && z > a);
  if (!a || !z || z <= a) return;
  CHECK_INT(z - a + 1, TBK_HTML_ELEMS);
  for (size_t k = 0; k < TBK_HTML_ELEMS && a + k <= z; k++) {
    const tbk_html_elem *e = &tbk_html_elems[k];
    char up[64];
    upper(up, e->name, sizeof up);
    CHECK_STR(e->name, a[k].name);
    CHECK_INT(e->empty, a[k].empty);
    CHECK_INT(e->end_tag, a[k].endTag);
    CHECK(htmlTagLookup((const xmlChar *)e->name) == &a[k]);
    CHECK(tbk_html_elem_lookup(e->name) == e);
    CHECK(tbk_html_elem_lookup(up) == e);
    CHECK_INT(tbk_html_closer_id(e->name, e), (long long)k);
  }
  const char *const unknown[] = {"listing", "xmp", "section", "nav", "", "aa", "vara", "svg"};
  for (size_t k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
    CHECK(!htmlTagLookup((const xmlChar *)unknown[k]));
    CHECK(!tbk_html_elem_lookup(unknown[k]));
  }
  CHECK_INT(tbk_html_closer_id("listing", NULL), TBK_HTML_ELEMS);
  CHECK_INT(tbk_html_closer_id("xmp", NULL), TBK_HTML_ELEMS + 1);
  CHECK_INT(tbk_html_closer_id("section", NULL), -1);
}

static const char *closer_name(size_t id) {
  return id < TBK_HTML_ELEMS ? tbk_html_elems[id].name : id == TBK_HTML_ELEMS ? "listing" : "xmp";
}

/* Every pair of two different names, and that no tag outside the table
 * closes or is closed (a sample of them). */
static void closers(void) {
  size_t differ = 0;
  for (size_t nw = 0; nw < TBK_HTML_CLOSERS; nw++) {
    xmlNode node;
    memset(&node, 0, sizeof node);
    node.type = XML_ELEMENT_NODE;
    node.name = (const xmlChar *)closer_name(nw);
    for (size_t old = 0; old < TBK_HTML_CLOSERS; old++) {
      if (old == nw) continue;
      int theirs = htmlAutoCloseTag(NULL, (const xmlChar *)closer_name(old), &node) != 0;
      int ours = (int)(tbk_html_closes[nw][old / 64] >> (old % 64)) & 1;
      if (theirs != ours) {
        differ++;
        fprintf(stderr, "test_html_tables: <%s> closes <%s>: libxml2 %d, tbk %d\n", closer_name(nw), closer_name(old),
                theirs, ours);
      }
    }
    CHECK(tbk_html_closes[nw][1] >> (TBK_HTML_CLOSERS - 64) == 0);
  }
  CHECK_INT(differ, 0);
  const char *const others[] = {"section", "nav", "main", "svg", "x"};
  for (size_t k = 0; k < sizeof others / sizeof others[0]; k++)
    for (size_t id = 0; id < TBK_HTML_CLOSERS; id++) {
      xmlNode node;
      memset(&node, 0, sizeof node);
      node.type = XML_ELEMENT_NODE;
      node.name = (const xmlChar *)others[k];
      CHECK(!htmlAutoCloseTag(NULL, (const xmlChar *)closer_name(id), &node));
      node.name = (const xmlChar *)closer_name(id);
      CHECK(!htmlAutoCloseTag(NULL, (const xmlChar *)others[k], &node));
    }
}

static void entities(void) {
  /* every code point libxml2 names, by another road than the generator's
   * (HTML 4 names each at most once) */
  size_t named = 0;
  for (unsigned v = 0; v < 0x110000; v++) {
    const htmlEntityDesc *d = htmlEntityValueLookup(v);
    if (!d) continue;
    named++;
    CHECK_INT(tbk_html_entity_value(d->name, strlen(d->name)), v);
  }
  CHECK_INT(named, TBK_HTML_ENTITIES);
  for (size_t k = 0; k < TBK_HTML_ENTITIES; k++) {
    const tbk_html_entity *e = &tbk_html_entities[k];
    const htmlEntityDesc *d = htmlEntityLookup((const xmlChar *)e->name);
    CHECK(d && d->value == e->value);
    if (k) CHECK(strcmp(tbk_html_entities[k - 1].name, e->name) < 0);
    /* a prefix or a longer name is another entity or none */
    char buf[64];
    size_t n = strlen(e->name);
    snprintf(buf, sizeof buf, "%sx", e->name);
    d = htmlEntityLookup((const xmlChar *)buf);
    CHECK_INT(tbk_html_entity_value(buf, n + 1), d ? d->value : 0);
    CHECK_INT(tbk_html_entity_value(buf, n), e->value); /* counted, not NUL-terminated */
    buf[n - 1] = '\0';
    d = htmlEntityLookup((const xmlChar *)buf);
    CHECK_INT(tbk_html_entity_value(buf, n - 1), d ? d->value : 0);
    upper(buf, e->name, sizeof buf);
    d = htmlEntityLookup((const xmlChar *)buf);
    CHECK_INT(tbk_html_entity_value(buf, n), d ? d->value : 0);
  }
}

static void boolean_attrs(void) {
  size_t found = 0;
  for (size_t k = 0; k < TBK_HTML_ELEMS; k++) {
    const htmlElemDesc *d = htmlTagLookup((const xmlChar *)tbk_html_elems[k].name);
    const char **lists[] = {d->attrs_opt, d->attrs_depr, d->attrs_req};
    for (size_t l = 0; l < 3; l++)
      for (size_t j = 0; lists[l] && lists[l][j]; j++) {
        char up[64];
        upper(up, lists[l][j], sizeof up);
        int theirs = htmlIsBooleanAttr((const xmlChar *)lists[l][j]) != 0;
        found += (size_t)theirs;
        CHECK_INT(tbk_html_boolean_attr(lists[l][j]), theirs);
        CHECK_INT(tbk_html_boolean_attr(up), htmlIsBooleanAttr((const xmlChar *)up) != 0);
      }
  }
  CHECK(found >= TBK_HTML_BOOLEAN_ATTRS);
  for (size_t k = 0; k < TBK_HTML_BOOLEAN_ATTRS; k++)
    CHECK(htmlIsBooleanAttr((const xmlChar *)tbk_html_boolean_attrs[k]));
  CHECK(!tbk_html_boolean_attr("hidden") && !htmlIsBooleanAttr((const xmlChar *)"hidden"));
}

static void classes(void) {
  for (unsigned c = 0; c < 256; c++) CHECK_INT(tbk_html_pubid_char((unsigned char)c), xmlIsPubidChar_ch(c) != 0);
  size_t differ = 0;
  for (uint32_t c = 0; c < 0x110000; c++) {
    int name = IS_LETTER(c) || IS_DIGIT(c) || IS_COMBINING(c) || IS_EXTENDER(c) || c == '.' || c == '-' || c == '_' ||
               c == ':';
    differ += (size_t)(tbk_xml_letter(c) != (IS_LETTER(c) != 0)) + (size_t)(tbk_xml_name_char(c) != name);
  }
  CHECK_INT(differ, 0);
}

int main(void) {
  if (atoi(xmlParserVersion) != 20914) {
    fprintf(stderr, "test_html_tables: skipped: libxml2 %s loaded; the tables are 2.9.14's\n", xmlParserVersion);
    return 77;
  }
  elements();
  closers();
  entities();
  boolean_attrs();
  classes();
  return check_report();
}
#else
#include <stdio.h>

int main(void) {
  fprintf(stderr, "test_html_tables: skipped: built against libxml2 %s; the tables are 2.9.14's\n",
          LIBXML_DOTTED_VERSION);
  return 77;
}
#endif
