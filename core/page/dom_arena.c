/* A libxml2 tree copied into the page's arena (arena.h), for libxml2 2.12
 * and later, whose SAX events alone do not make its tree (stream.c): the
 * tables are then filled from the arena by the same walk as a streamed
 * page's. */
#include <stdlib.h>

#include "arena.h"
#include "page_xml.h"

static int kept(const xmlNode *x) {
  return x->type == XML_ELEMENT_NODE || x->type == XML_TEXT_NODE || x->type == XML_CDATA_SECTION_NODE ||
         x->type == XML_COMMENT_NODE || x->type == XML_PI_NODE;
}

/* The element's attributes packed as arena.h describes: a value is the
 * concatenation of the attribute's text children. */
static int pack_attrs(tbk_buf *b, const xmlNode *x) {
  for (const xmlAttr *at = x->properties; at; at = at->next) {
    int has = 0;
    for (const xmlNode *c = at->children; c; c = c->next) has |= c->content != NULL;
    if (tbk_buf_append(b, at->name, strlen((const char *)at->name) + 1) || tbk_buf_append(b, has ? "\1" : "", 1))
      return -1;
    if (!has) continue;
    for (const xmlNode *c = at->children; c; c = c->next)
      if (c->content && tbk_buf_puts(b, (const char *)c->content)) return -1;
    if (tbk_buf_append(b, "", 1)) return -1;
  }
  return tbk_buf_append(b, "", 1);
}

/* s kept NUL-terminated in the arena's strings at *at (s NULL: TBK_ANONE). */
static int keep_str(tbk_arena *a, uint32_t *at, const xmlChar *s) {
  if (!s) {
    *at = TBK_ANONE;
    return 0;
  }
  if (a->strs.len >= UINT32_MAX / 2) return -1;
  *at = (uint32_t)a->strs.len;
  return tbk_buf_append(&a->strs, s, strlen((const char *)s) + 1);
}

/* What only HTML output reads (keep): a comment's content, a PI's target
 * and content. */
static int keep_node(tbk_arena *a, const xmlNode *x, tbk_anode *n) {
  if (x->type == XML_COMMENT_NODE) return keep_str(a, &n->str, x->content ? x->content : BAD_CAST "");
  if (x->type == XML_PI_NODE) {
    if (keep_str(a, &n->str, x->name ? x->name : BAD_CAST "")) return -1;
    n->len = x->name ? (uint32_t)strlen((const char *)x->name) : 0;
    return keep_str(a, &n->attrs, x->content);
  }
  return 0;
}

static int copy_node(tbk_arena *a, xmlNode *x, uint32_t parent, uint32_t *idx) {
  long line = x->type == XML_ELEMENT_NODE ? xmlGetLineNo(x) : (long)x->line;
  uint32_t i = tbk_arena_add(a, parent, (int)x->type, line > 0 ? (uint32_t)line : 0);
  if (i == TBK_ANONE) return -1;
  tbk_anode *n = &a->n[i];
  if (x->type == XML_ELEMENT_NODE) {
    n->name = (const char *)x->name;
    n->attrs = (uint32_t)a->attrs.len;
    if (pack_attrs(&a->attrs, x)) return -1;
    tbk_arena_classify(a, i);
  } else if ((x->type == XML_TEXT_NODE || x->type == XML_CDATA_SECTION_NODE) && x->content) {
    size_t len = strlen((const char *)x->content);
    n->str = (uint32_t)a->strs.len;
    n->len = (uint32_t)len;
    if (tbk_buf_append(&a->strs, x->content, len + 1)) return -1;
  }
  if (a->keep && keep_node(a, x, &a->n[i])) return -1;
  *idx = i;
  return 0;
}

int tbk_arena_from_doc(tbk_arena *a, xmlDoc *doc) {
  tbk_arena_free(a);
  a->lines_resolved = 1;
  if (tbk_arena_add(a, TBK_ANONE, TBK_AN_DOC, 0) == TBK_ANONE) return -1;
  xmlDtd *dt = doc->intSubset;
  if (a->keep && dt) {
    a->has_doctype = 1;
    if (keep_str(a, &a->dt_name, dt->name) || keep_str(a, &a->dt_ext, dt->ExternalID) ||
        keep_str(a, &a->dt_sys, dt->SystemID))
      return -1;
  }
  uint32_t parent = 0;
  xmlNode *x = doc->children;
  while (x) {
    uint32_t i = TBK_ANONE;
    if (kept(x) && copy_node(a, x, parent, &i)) return -1;
    if (i != TBK_ANONE && x->type == XML_ELEMENT_NODE && x->children) {
      parent = i;
      x = x->children;
      continue;
    }
    while (x && !x->next) {
      x = x->parent;
      if (!x || x == (xmlNode *)doc) {
        x = NULL;
        break;
      }
      parent = a->n[parent].parent;
    }
    if (x) x = x->next;
  }
  return 0;
}
