/* The HTML writer (html_write.h). What it reproduces of libxml2 2.9.14
 * (HTMLtree.c, entities.c, uri.c, encoding.c, xmlIO.c), learnt from its
 * source and checked against it by tests/test_html_write.c:
 *  - the DOCTYPE first (intSubset), then the document's nodes, then "\n";
 *  - an element: its name (a QName's local part: an HTML tree has no
 *    namespaces), its attributes, then ">" alone when HTML calls it
 *    empty, or when it has no children and HTML saves its end tag (empty
 *    elements and <li>) unless it is <html> or <body>;
 *  - an attribute: its name alone when it has no value or HTML calls it
 *    boolean; else its value with &, <, > escaped (but "<!--...-->" and
 *    "&{...}" kept), URI-escaped after its leading blanks for href, src,
 *    action and <a name>, quoted with " unless it holds " but no ' (then
 *    '), else with " and &quot;;
 *  - text escaped as an attribute value is but without the two
 *    exceptions, control characters but tab, CR and LF left out; raw in
 *    <script> and <style>, as CDATA always is;
 *  - comments and PIs as <!--content--> and <?target content>;
 *  - written through the output buffer (html_out.h) of the charset the
 *    page's <meta http-equiv="Content-Type"> names (htmlGetMetaEncoding). */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "html_out.h"
#include "html_tables.h"
#include "html_write.h"

/* ---- the view ---- */

#define FRAG 0x80000000u /* a node reference into the fragment's arena */

static int is_dropped(const tbk_html_view *v, uint32_t i) { return v->dropped && (v->dropped[i / 64] >> (i % 64) & 1); }
static uint32_t kept_from(const tbk_html_view *v, uint32_t i) {
  while (i != TBK_ANONE && is_dropped(v, i)) i = v->a->n[i].next;
  return i;
}
static const tbk_arena *arena_of(const tbk_html_view *v, uint32_t r) { return r & FRAG ? v->frag : v->a; }
static const tbk_anode *node_of(const tbk_html_view *v, uint32_t r) { return &arena_of(v, r)->n[r & ~FRAG]; }

static uint32_t frag_first(const tbk_html_view *v, uint32_t e) {
  uint32_t f = e == TBK_ANONE ? TBK_ANONE : v->frag->n[e].first;
  return f == TBK_ANONE ? TBK_ANONE : f | FRAG;
}
/* The first added child of page element p. */
static uint32_t added_first(const tbk_html_view *v, uint32_t p) {
  if (!v->frag) return TBK_ANONE;
  uint32_t f = p == v->to_head ? frag_first(v, v->frag_head) : TBK_ANONE;
  if (f == TBK_ANONE && p == v->to_body) f = frag_first(v, v->frag_body);
  return f;
}
static uint32_t first_child(const tbk_html_view *v, uint32_t r) {
  if (r & FRAG) return frag_first(v, r & ~FRAG);
  uint32_t c = kept_from(v, v->a->n[r].first);
  return c != TBK_ANONE ? c : added_first(v, r);
}
static uint32_t next_sibling(const tbk_html_view *v, uint32_t r, uint32_t parent) {
  if (r & FRAG) {
    const tbk_anode *n = &v->frag->n[r & ~FRAG];
    if (n->next != TBK_ANONE) return n->next | FRAG;
    /* the head's additions end: the body's follow when both go to one element */
    return n->parent == v->frag_head && parent == v->to_body ? frag_first(v, v->frag_body) : TBK_ANONE;
  }
  uint32_t s = kept_from(v, v->a->n[r].next);
  return s != TBK_ANONE || parent == TBK_ANONE ? s : added_first(v, parent);
}

static int named(const tbk_html_view *v, uint32_t r, const char *name) {
  const tbk_anode *n = node_of(v, r);
  return n->type == TBK_AN_ELEMENT && strcasecmp(n->name, name) == 0;
}

uint32_t tbk_html_child(const tbk_html_view *v, uint32_t x, const char *name) {
  for (uint32_t c = first_child(v, x); c != TBK_ANONE; c = next_sibling(v, c, x))
    if (node_of(v, c)->type == TBK_AN_ELEMENT && (!name || named(v, c, name))) return c;
  return TBK_ANONE;
}

static const char *attrs_of(const tbk_html_view *v, uint32_t r) {
  if (!(r & FRAG) && v->n_marked) {
    size_t lo = 0, hi = v->n_marked;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (v->marked[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    if (lo < v->n_marked && v->marked[lo] == r) return v->mark_buf + v->mark_at[lo];
  }
  return tbk_arena_attrs(arena_of(v, r), r & ~FRAG);
}

/* The content of a <meta http-equiv="Content-Type" content=...>: 1 when
 * meta is one, *content set. */
static int content_type(const tbk_html_view *v, uint32_t meta, const char **content) {
  const char *p = attrs_of(v, meta), *name, *value;
  int http = 0;
  *content = NULL;
  while ((name = tbk_attr_next(&p, &value))) {
    if (!value) continue;
    if (strcasecmp(name, "http-equiv") == 0 && strcasecmp(value, "Content-Type") == 0) http = 1;
    else if (strcasecmp(name, "content") == 0) *content = value;
    if (http && *content) return 1;
  }
  return 0;
}

/* The charset a Content-Type's content names, NULL if none. */
static const char *charset_in(const char *content) {
  static const char *const keys[] = {"charset=", "Charset=", "CHARSET=", "charset =", "Charset =", "CHARSET ="};
  const char *e = NULL;
  for (int k = 0; k < 6 && !e; k++)
    if ((e = strstr(content, keys[k]))) e += strlen(keys[k]);
  if (e)
    while (*e == ' ' || *e == '\t') e++;
  return e;
}

static int element_named(const tbk_html_view *v, uint32_t r, const char *name) {
  const tbk_anode *n = node_of(v, r);
  return n->type == TBK_AN_ELEMENT && strcmp(n->name, name) == 0;
}

/* htmlGetMetaEncoding over the view: <html> (or <head>, or a <meta>) at
 * the top, then <head> (or a <meta>) in it, then the first <meta> with a
 * Content-Type among the head's children from there: the charset it
 * names, with the first such element answering even when it names none
 * ("charset" absent). NULL when none is found. */
static const char *meta_charset(const tbk_html_view *v) {
  uint32_t parent = 0, cur = first_child(v, 0);
  while (cur != TBK_ANONE && !element_named(v, cur, "html") && !element_named(v, cur, "head") &&
         !element_named(v, cur, "meta"))
    cur = next_sibling(v, cur, parent);
  if (cur == TBK_ANONE) return NULL;
  if (element_named(v, cur, "html")) {
    parent = cur;
    cur = first_child(v, cur);
    while (cur != TBK_ANONE && !element_named(v, cur, "head") && !element_named(v, cur, "meta"))
      cur = next_sibling(v, cur, parent);
    if (cur == TBK_ANONE) return NULL;
  }
  if (element_named(v, cur, "head")) {
    parent = cur;
    cur = first_child(v, cur);
  }
  const char *content;
  for (; cur != TBK_ANONE; cur = next_sibling(v, cur, parent))
    if (element_named(v, cur, "meta") && content_type(v, cur, &content)) return charset_in(content);
  return NULL;
}

/* ---- the serializer ---- */

typedef struct writer {
  const tbk_html_view *v;
  tbk_html_out s;
  tbk_buf tmp; /* owned: an escaped string */
} writer;

/* xmlEncodeEntitiesInternal for an HTML document into w->tmp. */
static void escape(writer *w, const char *in, int attr) {
  tbk_buf *t = &w->tmp;
  t->len = 0;
  const char *cur = in, *end;
  int bad = 0;
  while (*cur && !bad) {
    unsigned char c = (unsigned char)*cur;
    if (c == '<' && attr && cur[1] == '!' && cur[2] == '-' && cur[3] == '-' && (end = strstr(cur, "-->"))) {
      bad = tbk_buf_append(t, cur, (size_t)(end + 3 - cur));
      cur = end + 3;
      continue;
    }
    if (c == '&' && attr && cur[1] == '{' && (end = strchr(cur, '}'))) {
      bad = tbk_buf_append(t, cur, (size_t)(end + 1 - cur));
      cur = end + 1;
      continue;
    }
    if (c == '<') bad = tbk_buf_puts(t, "&lt;");
    else if (c == '>') bad = tbk_buf_puts(t, "&gt;");
    else if (c == '&') bad = tbk_buf_puts(t, "&amp;");
    else if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') bad = tbk_buf_append(t, cur, 1);
    cur++;
  }
  if (bad || tbk_buf_reserve(t, 1)) w->s.nomem = 1;
  else t->data[t->len] = '\0';
}

static int uri_keeps(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-_.!~*'()", c) ||
         strchr("@/:=?;#%&,+<>", c);
}

/* xmlURIEscapeStr(value after its blanks, "@/:=?;#%&,+<>"), quoted. */
static void write_uri(writer *w, const char *v) {
  while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
  tbk_buf e = {0};
  int bad = 0;
  for (const unsigned char *p = (const unsigned char *)v; *p && !bad; p++) {
    if (uri_keeps(*p)) bad = tbk_buf_append(&e, p, 1);
    else bad = tbk_buf_printf(&e, "%%%02X", *p);
  }
  if (bad || tbk_buf_reserve(&e, 1)) w->s.nomem = 1;
  else e.data[e.len] = '\0', tbk_html_out_quoted(&w->s, e.data);
  tbk_buf_free(&e);
}

static void write_attrs(writer *w, uint32_t r, const char *elem) {
  const char *p = attrs_of(w->v, r), *name, *value;
  while ((name = tbk_attr_next(&p, &value))) {
    tbk_html_out_puts(&w->s, " ");
    tbk_html_out_puts(&w->s, name);
    if (!value || tbk_html_boolean_attr(name)) continue;
    escape(w, value, 1);
    if (w->s.nomem) return;
    tbk_html_out_puts(&w->s, "=");
    int uri = strcasecmp(name, "href") == 0 || strcasecmp(name, "action") == 0 || strcasecmp(name, "src") == 0 ||
              (strcasecmp(name, "name") == 0 && strcasecmp(elem, "a") == 0);
    if (uri) write_uri(w, w->tmp.data);
    else tbk_html_out_quoted(&w->s, w->tmp.data);
  }
}

static void end_tag(writer *w, uint32_t r) {
  tbk_html_out_puts(&w->s, "</");
  tbk_html_out_puts(&w->s, node_of(w->v, r)->name);
  tbk_html_out_puts(&w->s, ">");
}

/* Element r's start tag; 1 when its children follow. */
static int start_tag(writer *w, uint32_t r) {
  const tbk_anode *n = node_of(w->v, r);
  const tbk_html_elem *info = tbk_html_elem_lookup(n->name);
  tbk_html_out_puts(&w->s, "<");
  tbk_html_out_puts(&w->s, n->name);
  write_attrs(w, r, n->name);
  if (info && info->empty) {
    tbk_html_out_puts(&w->s, ">");
    return 0;
  }
  if (first_child(w->v, r) != TBK_ANONE) {
    tbk_html_out_puts(&w->s, ">");
    return 1;
  }
  /* HTML saves the end tag of the empty elements and of <li> */
  if (info && strcmp(info->name, "li") == 0) tbk_html_out_puts(&w->s, ">");
  else tbk_html_out_puts(&w->s, ">"), end_tag(w, r);
  return 0;
}

static void write_leaf(writer *w, uint32_t r, uint32_t parent) {
  const tbk_arena *a = arena_of(w->v, r);
  const tbk_anode *n = node_of(w->v, r);
  const char *s = a->strs.data + n->str;
  if (n->type == TBK_AN_TEXT) {
    const char *pn = parent != 0 ? node_of(w->v, parent)->name : NULL;
    if (pn && (strcasecmp(pn, "script") == 0 || strcasecmp(pn, "style") == 0)) {
      tbk_html_out_puts(&w->s, s);
    } else {
      escape(w, s, 0);
      if (!w->s.nomem) tbk_html_out_puts(&w->s, w->tmp.data);
    }
  } else if (n->type == TBK_AN_CDATA) {
    tbk_html_out_puts(&w->s, s);
  } else if (n->type == TBK_AN_COMMENT) {
    tbk_html_out_puts(&w->s, "<!--"), tbk_html_out_puts(&w->s, s), tbk_html_out_puts(&w->s, "-->");
  } else if (n->type == TBK_AN_PI) {
    tbk_html_out_puts(&w->s, "<?");
    tbk_html_out_puts(&w->s, s);
    if (n->attrs != TBK_ANONE) tbk_html_out_puts(&w->s, " "), tbk_html_out_puts(&w->s, a->strs.data + n->attrs);
    tbk_html_out_puts(&w->s, ">");
  }
}

static void write_doctype(writer *w) {
  const tbk_arena *a = w->v->a;
  if (!a->has_doctype) return;
  const char *s = a->strs.data;
  tbk_html_out_puts(&w->s, "<!DOCTYPE ");
  if (a->dt_name != TBK_ANONE) tbk_html_out_puts(&w->s, s + a->dt_name);
  if (a->dt_ext != TBK_ANONE) {
    tbk_html_out_puts(&w->s, " PUBLIC ");
    tbk_html_out_quoted(&w->s, s + a->dt_ext);
    if (a->dt_sys != TBK_ANONE) tbk_html_out_puts(&w->s, " "), tbk_html_out_quoted(&w->s, s + a->dt_sys);
  } else if (a->dt_sys != TBK_ANONE && strcmp(s + a->dt_sys, "about:legacy-compat") != 0) {
    tbk_html_out_puts(&w->s, " SYSTEM ");
    tbk_html_out_quoted(&w->s, s + a->dt_sys);
  }
  tbk_html_out_puts(&w->s, ">\n");
}

/* The document depth-first without recursion; open holds the elements
 * entered. */
static void write_doc(writer *w) {
  write_doctype(w);
  uint32_t *open = NULL, parent = 0;
  size_t depth = 0, cap = 0;
  uint32_t cur = first_child(w->v, 0);
  while (cur != TBK_ANONE && !w->s.nomem && !w->s.gave_up) {
    if (node_of(w->v, cur)->type == TBK_AN_ELEMENT) {
      if (start_tag(w, cur)) {
        if (tbk_grow(&open, &cap, depth + 1, sizeof *open)) {
          w->s.nomem = 1;
          break;
        }
        open[depth++] = parent;
        parent = cur;
        cur = first_child(w->v, cur);
        continue;
      }
    } else {
      write_leaf(w, cur, parent);
    }
    uint32_t next;
    while ((next = next_sibling(w->v, cur, parent)) == TBK_ANONE && depth > 0) {
      end_tag(w, parent);
      cur = parent;
      parent = open[--depth];
    }
    cur = next;
  }
  free(open);
  tbk_html_out_puts(&w->s, "\n");
}

tbk_status tbk_html_write(const tbk_html_view *v, tbk_buf *out, char *declared, size_t n, size_t *unwritable) {
  writer w = {.v = v};
  const char *enc = meta_charset(v);
  snprintf(declared, n, "%s", enc ? enc : "");
  tbk_html_out_begin(&w.s, out, enc);
  write_doc(&w);
  tbk_buf_free(&w.tmp);
  return tbk_html_out_end(&w.s, unwritable);
}
