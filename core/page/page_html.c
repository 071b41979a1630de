/* The page as HTML with some of its text left out or some elements
 * marked, for the renderings of the stages above: the edit made a view of
 * the page's tree (html_write.h), which tbk's writer writes as libxml2
 * 2.9.14 wrote libxml2's tree. Nothing of the page changes, so a page can
 * be rendered any number of times, in any format, in any order. A page
 * parsed without its tree (keep_dom 0) has its source parsed again on the
 * first rendering, keeping the tree (the same tables, checked by their
 * sizes), and renders that. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_write.h"
#include "page_internal.h"

tbk_status tbk_page_tree(const tbk_page *page, const tbk_page **with) {
  if (page->arena.keep) {
    *with = page;
    return TBK_OK;
  }
  if (page->no_html) return TBK_ERR_ARG;
  if (!page->dom) {
    tbk_page_options o = page->opt;
    o.keep_dom = 1;
    tbk_page *q = NULL;
    tbk_status st = tbk_page_reparse(page->source.data ? page->source.data : "", page->source.len, &o, &q);
    if (st) return st;
    if (q->n_nodes != page->n_nodes || q->n_runs != page->n_runs || q->text.len != page->text.len) {
      tbk_page_free(q);
      return TBK_ERR_FORMAT;
    }
    /* A cache of the page's own parse: the page is not changed, as the
     * caller sees it. */
    ((tbk_page *)page)->dom = q;
  }
  *with = page->dom;
  return TBK_OK;
}

/* The value a mark sets: its own, or joined with the one the element had
 * (had NULL: none), appended to b with its NUL. */
static int mark_value(tbk_buf *b, const char *value, const char *join, const char *had) {
  return tbk_buf_puts(b, value) || (join && had && *had && (tbk_buf_puts(b, join) || tbk_buf_puts(b, had))) ||
         tbk_buf_append(b, "", 1);
}

/* One marked element's attributes while its marks apply: names and
 * values as offsets in a scratch buffer, in order (TBK_ANONE: no value). */
typedef struct attr_list {
  uint32_t *name, *value;
  size_t n, cap;
} attr_list;

static int list_add(attr_list *l, uint32_t name, uint32_t value) {
  if (TBK_GROW_ALL(&l->cap, l->n + 1, TBK_ARRAY(l->name), TBK_ARRAY(l->value))) return -1;
  l->name[l->n] = name;
  l->value[l->n++] = value;
  return 0;
}

static int by_node_then_order(const void *x, const void *y) {
  const uint64_t *a = x, *b = y;
  return (*a > *b) - (*a < *b);
}

/* The attributes each marked element is written with, as the marks set
 * them one after the other (xmlSetProp: an attribute the element has
 * changes in place, a new one goes last), packed into mark_buf. */
typedef struct marks {
  uint32_t *node, *at;
  size_t n;
  tbk_buf buf;
} marks;

static tbk_status make_marks(const tbk_page *page, const tbk_html_edit *e, marks *out) {
  size_t na = e ? e->n_mark : 0;
  if (!na) return TBK_OK;
  uint64_t *order = malloc(na * sizeof *order);
  out->node = malloc(na * sizeof *out->node);
  out->at = malloc(na * sizeof *out->at);
  if (!order || !out->node || !out->at) {
    free(order);
    return TBK_ERR_NOMEM;
  }
  for (size_t m = 0; m < na; m++) {
    if (e->mark[m].node >= page->n_nodes) {
      free(order);
      return TBK_ERR_ARG;
    }
    order[m] = (uint64_t)page->node_at[e->mark[m].node] << 32 | m;
  }
  qsort(order, na, sizeof *order, by_node_then_order);
  tbk_buf s = {0};
  attr_list l = {0};
  tbk_status st = TBK_OK;
  for (size_t m = 0; m < na && st == TBK_OK;) {
    uint32_t x = (uint32_t)(order[m] >> 32);
    s.len = 0;
    l.n = 0;
    const char *p = tbk_arena_attrs(&page->arena, x), *name, *value;
    int bad = 0;
    while (!bad && (name = tbk_attr_next(&p, &value))) {
      uint32_t no = (uint32_t)s.len;
      bad = tbk_buf_append(&s, name, strlen(name) + 1);
      uint32_t vo = value ? (uint32_t)s.len : TBK_ANONE;
      bad = bad || (value && tbk_buf_append(&s, value, strlen(value) + 1)) || list_add(&l, no, vo);
    }
    for (; !bad && m < na && (uint32_t)(order[m] >> 32) == x; m++) {
      const tbk_html_mark *mk = &e->mark[order[m] & UINT32_MAX];
      for (int k = 0; !bad && k < TBK_HTML_ATTRS; k++) {
        if (!e->attr[k] || !mk->value[k]) continue;
        size_t j = 0;
        while (j < l.n && strcmp(s.data + l.name[j], e->attr[k]) != 0) j++;
        if (j == l.n) {
          uint32_t no = (uint32_t)s.len;
          bad = tbk_buf_append(&s, e->attr[k], strlen(e->attr[k]) + 1) || list_add(&l, no, TBK_ANONE);
          if (bad) break;
        }
        /* the value it had, copied (s moves as it grows); xmlGetProp
         * reads an attribute without a value as "": nothing to join */
        tbk_buf had = {0};
        bad = l.value[j] != TBK_ANONE && tbk_buf_puts(&had, s.data + l.value[j]);
        uint32_t vo = (uint32_t)s.len;
        bad = bad || mark_value(&s, mk->value[k], e->join[k], had.data);
        tbk_buf_free(&had);
        l.value[j] = vo;
      }
    }
    out->node[out->n] = x;
    out->at[out->n] = (uint32_t)out->buf.len;
    for (size_t j = 0; !bad && j < l.n; j++) {
      const char *v = l.value[j] == TBK_ANONE ? NULL : s.data + l.value[j];
      bad = tbk_buf_append(&out->buf, s.data + l.name[j], strlen(s.data + l.name[j]) + 1) ||
            tbk_buf_append(&out->buf, v ? "\1" : "", 1) || (v && tbk_buf_append(&out->buf, v, strlen(v) + 1));
    }
    bad = bad || tbk_buf_append(&out->buf, "", 1);
    out->n++;
    if (bad) st = TBK_ERR_NOMEM;
  }
  free(order);
  free(l.name);
  free(l.value);
  tbk_buf_free(&s);
  return st;
}

/* The fragment parsed on its own, its head's children put last in the
 * page's head (else its body), its body's last in the page's body (else
 * its root element): after the page's own, so that a meta charset stays in
 * the first 1,024 bytes and the page's styles come first. A page with no
 * root element gets nothing. */
static tbk_status inject(const char *html, tbk_arena *frag, tbk_html_view *v) {
  uint32_t root = tbk_html_child(v, 0, NULL);
  if (root == TBK_ANONE) return TBK_OK;
  size_t errors;
  tbk_error err;
  frag->keep = 1;
  tbk_status st = tbk_html_stream(html, strlen(html), frag, &errors, &err);
  if (st) return st == TBK_ERR_NOMEM ? st : TBK_ERR_ARG;
  uint32_t body = tbk_html_child(v, root, "body"), head = tbk_html_child(v, root, "head");
  v->to_body = body != TBK_ANONE ? body : root;
  v->to_head = head != TBK_ANONE ? head : v->to_body;
  tbk_html_view fv = {
      .a = frag, .frag_head = TBK_ANONE, .frag_body = TBK_ANONE, .to_head = TBK_ANONE, .to_body = TBK_ANONE};
  uint32_t froot = tbk_html_child(&fv, 0, NULL);
  v->frag = frag;
  v->frag_head = froot == TBK_ANONE ? TBK_ANONE : tbk_html_child(&fv, froot, "head");
  v->frag_body = froot == TBK_ANONE ? TBK_ANONE : tbk_html_child(&fv, froot, "body");
  return TBK_OK;
}

static tbk_status edit_write(const tbk_page *page, const tbk_html_edit *e, tbk_buf *out, char *declared, size_t n,
                             size_t *unwritable) {
  tbk_status st = tbk_page_tree(page, &page);
  if (st) return st;
  const tbk_arena *a = &page->arena;
  tbk_html_view v = {
      .a = a, .frag_head = TBK_ANONE, .frag_body = TBK_ANONE, .to_head = TBK_ANONE, .to_body = TBK_ANONE};
  if (a->count >= 0x80000000u) return TBK_ERR_NOMEM; /* the writer's node references */
  uint64_t *dropped = NULL;
  marks mk = {0};
  tbk_arena frag = {0};
  size_t nd = e ? e->n_drop : 0;
  if (nd && !(dropped = calloc(a->count / 64 + 1, sizeof *dropped))) st = TBK_ERR_NOMEM;
  for (size_t k = 0; st == TBK_OK && k < nd; k++) {
    const tbk_html_drop *d = &e->drop[k];
    if (d->index >= (d->is_run ? page->n_runs : page->n_nodes)) {
      st = TBK_ERR_ARG;
      break;
    }
    uint32_t x = d->is_run ? page->run_at[d->index] : page->node_at[d->index];
    dropped[x / 64] |= (uint64_t)1 << (x % 64);
  }
  v.dropped = dropped;
  if (st == TBK_OK) st = make_marks(page, e, &mk);
  v.marked = mk.node;
  v.mark_at = mk.at;
  v.n_marked = mk.n;
  v.mark_buf = mk.buf.data;
  if (st == TBK_OK && e && e->inject) st = inject(e->inject, &frag, &v);
  if (st == TBK_OK) st = tbk_html_write(&v, out, declared, n, unwritable);
  free(dropped);
  free(mk.node);
  free(mk.at);
  tbk_buf_free(&mk.buf);
  tbk_arena_free(&frag);
  return st;
}

tbk_status tbk_page_html(const tbk_page *page, const tbk_html_edit *e, tbk_buf *out) {
  /* The note is the caller's page's, whichever page holds the tree; it is
   * kept with the page as the tree is (tbk_page_tree). */
  char *note = ((tbk_page *)page)->html_note;
  note[0] = '\0';
  char enc[48] = "";
  size_t unwritable = 0;
  tbk_status st = edit_write(page, e, out, enc, sizeof enc, &unwritable);
  if (st == TBK_ERR_FORMAT && *enc)
    snprintf(note, sizeof((tbk_page *)page)->html_note,
             "cannot write the page as HTML in its declared charset %s: it lacks characters of the page "
             "and of their character references",
             enc);
  else if (st == TBK_OK && unwritable)
    snprintf(note, sizeof((tbk_page *)page)->html_note,
             "%zu character%s left out of the HTML: the page's declared charset %s cannot write %s, not even "
             "as character references",
             unwritable, unwritable == 1 ? "" : "s", enc, unwritable == 1 ? "it" : "them");
  return st;
}
