/* The few questions the layers above ask of the page's tree (tag names,
 * attributes, the title, the base URL), answered here from the arena
 * (arena.h), the same for a page whose tree is dropped and one that keeps it. */
#include <strings.h>

#include "page_internal.h"

const char *tbk_node_name(const tbk_node *nd) { return nd->name; }

void tbk_node_attrs(const tbk_node *nd, tbk_attr_fn fn, void *ctx) {
  const char *p = nd->attrs, *name, *value;
  while ((name = tbk_attr_next(&p, &value))) {
    if (value) fn(ctx, name, value);
    fn(ctx, name, NULL);
  }
}

/* The document's first element, as xmlDocGetRootElement finds it. */
static uint32_t root_of(const tbk_arena *a) {
  uint32_t x = a->count ? a->n[0].first : TBK_ANONE;
  while (x != TBK_ANONE && a->n[x].type != TBK_AN_ELEMENT) x = a->n[x].next;
  return x;
}

static int is_element(const tbk_arena *a, uint32_t x, const char *name) {
  return a->n[x].type == TBK_AN_ELEMENT && strcasecmp(a->n[x].name, name) == 0;
}

/* The text of every text and CDATA node under element t, in document order
 * (xmlNodeGetContent). */
static int content_of(const tbk_arena *a, uint32_t t, tbk_buf *out) {
  uint32_t x = a->n[t].first;
  while (x != TBK_ANONE) {
    if ((a->n[x].type == TBK_AN_TEXT || a->n[x].type == TBK_AN_CDATA) && tbk_buf_puts(out, tbk_arena_text(a, x)))
      return -1;
    if (a->n[x].first != TBK_ANONE) {
      x = a->n[x].first;
      continue;
    }
    while (x != t && a->n[x].next == TBK_ANONE) x = a->n[x].parent;
    x = x == t ? TBK_ANONE : a->n[x].next;
  }
  return 0;
}

static int find_title(tbk_page *p) {
  const tbk_arena *a = &p->arena;
  uint32_t root = root_of(a), t = TBK_ANONE;
  /* The title is in the head, near the top: a bounded search. */
  size_t budget = 400;
  for (uint32_t x = root != TBK_ANONE ? a->n[root].first : TBK_ANONE; x != TBK_ANONE && budget && t == TBK_ANONE;
       x = a->n[x].next, budget--) {
    if (a->n[x].type != TBK_AN_ELEMENT) continue;
    if (is_element(a, x, "title")) {
      t = x;
      break;
    }
    if (is_element(a, x, "head"))
      for (uint32_t y = a->n[x].first; y != TBK_ANONE && budget; y = a->n[y].next, budget--)
        if (is_element(a, y, "title")) {
          t = y;
          break;
        }
  }
  if (t == TBK_ANONE) return 0;
  p->has_title = 1;
  return content_of(a, t, &p->title);
}

int tbk_page_title(const tbk_page *p, size_t max_bytes, tbk_buf *out) {
  if (!p->has_title) return 0;
  const tbk_buf *s = &p->title;
  return tbk_text_normalize(s->data ? s->data : "", s->len < max_bytes ? s->len : max_bytes, out);
}

static int find_base(tbk_page *p) {
  const tbk_arena *a = &p->arena;
  uint32_t root = root_of(a);
  /* <base> belongs in the head, which the node table leaves out: a bounded
   * search of the root's and the head's children, as for the title. */
  size_t budget = 400;
  for (uint32_t x = root != TBK_ANONE ? a->n[root].first : TBK_ANONE; x != TBK_ANONE && budget;
       x = a->n[x].next, budget--) {
    if (a->n[x].type != TBK_AN_ELEMENT) continue;
    uint32_t y = x, end = a->n[x].next;
    if (is_element(a, x, "head")) {
      y = a->n[x].first;
      end = TBK_ANONE;
    }
    for (; y != end && budget; y = a->n[y].next, budget--) {
      if (!is_element(a, y, "base")) continue;
      const char *q = tbk_arena_attrs(a, y), *name, *value;
      while ((name = tbk_attr_next(&q, &value)))
        if (strcmp(name, "href") == 0) {
          p->has_base = 1;
          return tbk_buf_puts(&p->base_href, value ? value : "");
        }
    }
  }
  return 0;
}

int tbk_page_base_href(const tbk_page *p, tbk_buf *out) {
  return p->has_base ? tbk_buf_append(out, p->base_href.data ? p->base_href.data : "", p->base_href.len) : 0;
}

int tbk_page_keep_head(tbk_page *p) { return find_title(p) || find_base(p) ? -1 : 0; }
