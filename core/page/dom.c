/* The few questions the layers above ask of the DOM itself (tag names,
 * attributes, the title), answered here so that libxml2 stays inside the
 * page layer. */
#include <string.h>

#include "page_xml.h"

const char *tbk_node_name(const tbk_node *nd) { return (const char *)nd->xml->name; }

void tbk_node_attrs(const tbk_node *nd, tbk_attr_fn fn, void *ctx) {
  for (const xmlAttr *a = nd->xml->properties; a; a = a->next) {
    const char *name = (const char *)a->name;
    for (const xmlNode *c = a->children; c; c = c->next)
      if (c->content) fn(ctx, name, (const char *)c->content);
    fn(ctx, name, NULL);
  }
}

int tbk_page_title(const tbk_page *p, size_t max_bytes, tbk_buf *out) {
  xmlNode *root = xmlDocGetRootElement(p->doc);
  xmlNode *t = NULL;
  /* The title is in the head, near the top: a bounded search. */
  size_t budget = 400;
  for (xmlNode *x = root ? root->children : NULL; x && budget && !t; x = x->next, budget--) {
    if (x->type != XML_ELEMENT_NODE) continue;
    if (xmlStrcasecmp(x->name, BAD_CAST "title") == 0) { t = x; break; }
    if (xmlStrcasecmp(x->name, BAD_CAST "head") == 0)
      for (xmlNode *y = x->children; y && budget; y = y->next, budget--)
        if (y->type == XML_ELEMENT_NODE && xmlStrcasecmp(y->name, BAD_CAST "title") == 0) { t = y; break; }
  }
  if (!t) return 0;
  xmlChar *s = xmlNodeGetContent(t);
  if (!s) return 0;
  size_t n = strlen((const char *)s);
  if (n > max_bytes) n = max_bytes;
  int rc = tbk_text_normalize((const char *)s, n, out);
  xmlFree(s);
  return rc;
}

int tbk_page_base_href(const tbk_page *p, tbk_buf *out) {
  xmlNode *root = xmlDocGetRootElement(p->doc);
  /* <base> belongs in the head, which the node table leaves out: a bounded
   * search of the root's and the head's children, as for the title. */
  size_t budget = 400;
  for (xmlNode *x = root ? root->children : NULL; x && budget; x = x->next, budget--) {
    if (x->type != XML_ELEMENT_NODE) continue;
    xmlNode *y = x, *end = x->next;
    if (xmlStrcasecmp(x->name, BAD_CAST "head") == 0) { y = x->children; end = NULL; }
    for (; y != end && budget; y = y->next, budget--) {
      if (y->type != XML_ELEMENT_NODE || xmlStrcasecmp(y->name, BAD_CAST "base") != 0) continue;
      xmlChar *h = xmlGetProp(y, BAD_CAST "href");
      if (!h) continue;
      int rc = tbk_buf_puts(out, (const char *)h);
      xmlFree(h);
      return rc;
    }
  }
  return 0;
}
