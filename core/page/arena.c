/* The page's node arena (arena.h): growing it, freeing it, and libxml2's
 * line lookup over it. */
#include <stdlib.h>
#include <strings.h>

#include "page_xml.h"

#include <libxml/dict.h>

void tbk_arena_free(tbk_arena *a) {
  free(a->n);
  tbk_buf_free(&a->strs);
  tbk_buf_free(&a->attrs);
  if (a->dict) xmlDictFree(a->dict);
  int keep = a->keep;
  memset(a, 0, sizeof *a);
  a->keep = keep;
}

void tbk_arena_drop_tree(tbk_arena *a) {
  free(a->n);
  tbk_buf_free(&a->strs);
  a->n = NULL;
  a->count = a->cap = 0;
}

void tbk_arena_fit_attrs(tbk_arena *a) {
  if (a->attrs.data && !tbk_resize(&a->attrs.data, a->attrs.len + 1, 1)) a->attrs.cap = a->attrs.len + 1;
}

int tbk_attrs_hidden(const char *attrs) {
  const char *name, *value;
  while ((name = tbk_attr_next(&attrs, &value))) {
    int first = name[0] | 0x20; /* most attributes are neither: skip both compares */
    if (first != 'h' && first != 's') continue;
    if (strcasecmp(name, "hidden") == 0) return 1;
    if (strcasecmp(name, "style") != 0 || !value) continue;
    char squeezed[256];
    size_t k = 0;
    for (const char *s = value; *s && k + 1 < sizeof squeezed; s++)
      if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
        squeezed[k++] = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
    squeezed[k] = '\0';
    if (strstr(squeezed, "display:none") || strstr(squeezed, "visibility:hidden")) return 1;
  }
  return 0;
}

void tbk_arena_classify(tbk_arena *a, uint32_t i) { tbk_arena_classify_as(a, i, tbk_tag_lookup(a->n[i].name)); }

void tbk_arena_classify_as(tbk_arena *a, uint32_t i, tbk_tag tag) {
  tbk_anode *n = &a->n[i];
  n->tag = (uint16_t)tag;
  n->unseen = (tbk_tag_flags(tag) & TAG_DROP) || tbk_attrs_hidden(tbk_arena_attrs(a, i));
}

static int has_line(const tbk_anode *n) {
  return n->type == TBK_AN_ELEMENT || n->type == TBK_AN_TEXT || n->type == TBK_AN_COMMENT || n->type == TBK_AN_PI;
}

/* xmlGetLineNo's lookup (tree.c, the same from 2.9 to 2.15): a node at
 * line 65535 or later asks its first child, else its next, else its
 * previous sibling, five levels at most; a node without a line of its own
 * asks its previous sibling or its parent element. */
static long line_at(const tbk_arena *a, uint32_t i, int depth) {
  if (depth >= 5 || i == TBK_ANONE) return -1;
  const tbk_anode *n = &a->n[i];
  long r = -1;
  if (has_line(n)) {
    if (n->line == TBK_AN_LINE_MAX) {
      if (n->type == TBK_AN_ELEMENT && n->first != TBK_ANONE) r = line_at(a, n->first, depth + 1);
      else if (n->next != TBK_ANONE) r = line_at(a, n->next, depth + 1);
      else if (n->prev != TBK_ANONE) r = line_at(a, n->prev, depth + 1);
    }
    if (r == -1 || r == TBK_AN_LINE_MAX) r = n->line;
  } else if (n->prev != TBK_ANONE && has_line(&a->n[n->prev])) {
    r = line_at(a, n->prev, depth + 1);
  } else if (n->parent != TBK_ANONE && a->n[n->parent].type == TBK_AN_ELEMENT) {
    r = line_at(a, n->parent, depth + 1);
  }
  return r;
}

long tbk_arena_line_lookup(const tbk_arena *a, uint32_t i) { return line_at(a, i, 0); }

/* Two optional strings of the arenas' strs (TBK_ANONE: none) differ. */
static int str_differs(const tbk_arena *a, uint32_t x, const tbk_arena *b, uint32_t y) {
  if (x == TBK_ANONE || y == TBK_ANONE) return x != y;
  return strcmp(a->strs.data + x, b->strs.data + y) != 0;
}

/* What HTML output reads besides the walk's fields (with keep). */
static const char *diff_kept(const tbk_arena *a, const tbk_arena *b, size_t i) {
  const tbk_anode *x = &a->n[i], *y = &b->n[i];
  if (x->type == TBK_AN_COMMENT || x->type == TBK_AN_PI)
    if (str_differs(a, x->str, b, y->str)) return "kept content";
  if (x->type == TBK_AN_PI && str_differs(a, x->attrs, b, y->attrs)) return "kept content";
  return NULL;
}

const char *tbk_arena_diff(const tbk_arena *a, const tbk_arena *b, size_t *at) {
  int keep = a->keep && b->keep;
  *at = 0;
  if (keep && (a->has_doctype != b->has_doctype || str_differs(a, a->dt_name, b, b->dt_name) ||
               str_differs(a, a->dt_ext, b, b->dt_ext) || str_differs(a, a->dt_sys, b, b->dt_sys)))
    return "DOCTYPE";
  if (a->count != b->count) {
    *at = a->count < b->count ? a->count : b->count;
    return "node count";
  }
  for (size_t i = 0; i < a->count; i++) {
    const tbk_anode *x = &a->n[i], *y = &b->n[i];
    *at = i;
    if (x->type != y->type) return "type";
    if (x->parent != y->parent || x->first != y->first || x->last != y->last || x->next != y->next ||
        x->prev != y->prev || x->kids != y->kids)
      return "links";
    if (x->line != y->line) return "line";
    const char *kept = keep ? diff_kept(a, b, i) : NULL;
    if (kept) return kept;
    if (x->type == TBK_AN_ELEMENT) {
      if (strcmp(x->name, y->name) != 0) return "name";
      if (x->tag != y->tag || x->unseen != y->unseen) return "tag";
      const char *p = tbk_arena_attrs(a, (uint32_t)i), *q = tbk_arena_attrs(b, (uint32_t)i);
      const char *pv, *qv, *pn, *qn;
      do {
        pn = tbk_attr_next(&p, &pv);
        qn = tbk_attr_next(&q, &qv);
        if (!pn != !qn || (pn && strcmp(pn, qn) != 0)) return "attribute name";
        if (pn && (!pv != !qv || (pv && strcmp(pv, qv) != 0))) return "attribute value";
      } while (pn);
    } else if (x->type == TBK_AN_TEXT || x->type == TBK_AN_CDATA) {
      if (x->len != y->len || memcmp(tbk_arena_text(a, (uint32_t)i), tbk_arena_text(b, (uint32_t)i), x->len) != 0)
        return "text";
    }
  }
  return NULL;
}
