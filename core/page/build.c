/* The arena builder (build.h). What it knows of HTML is tbk's own
 * (html_tables.h), so it builds the same arena from the same events with
 * any libxml2. */
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "html_tables.h"
#include "tags.h"

/* 1 when value was an ID already, 0 when it is added, -1 out of memory. */
static int seen_id(tbk_build *b, const char *value) {
  if ((b->id_used + 1) * 2 > b->id_cap) {
    size_t cap = b->id_cap ? b->id_cap * 2 : 64;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t) return -1;
    for (size_t k = 0; k < b->id_cap; k++) {
      if (!b->id_at[k]) continue;
      const char *v = b->ids.data + b->id_at[k] - 1;
      size_t j = tbk_hash64(v, strlen(v)) & (cap - 1);
      while (t[j]) j = (j + 1) & (cap - 1);
      t[j] = b->id_at[k];
    }
    free(b->id_at);
    b->id_at = t;
    b->id_cap = cap;
  }
  size_t n = strlen(value), j = tbk_hash64(value, n) & (b->id_cap - 1);
  for (; b->id_at[j]; j = (j + 1) & (b->id_cap - 1))
    if (strcmp(b->ids.data + b->id_at[j] - 1, value) == 0) return 1;
  if (b->ids.len >= UINT32_MAX - n - 1) return -1;
  b->id_at[j] = (uint32_t)b->ids.len + 1;
  b->id_used++;
  return tbk_buf_append(&b->ids, value, n + 1) ? -1 : 0;
}

/* libxml2's tree builder registers the IDs of an HTML document (xmlIsID:
 * id on any element, name on <a>) and reports a value seen before. */
static int check_ids(tbk_build *b, const char *elem, const char **atts) {
  for (size_t k = 0; atts && atts[k]; k += 2) {
    const char *name = atts[k], *value = atts[k + 1];
    if (!value || !value[0] || (name[0] != 'i' && name[0] != 'n')) continue;
    if (strcmp(name, "id") != 0 && (strcmp(name, "name") != 0 || strcmp(elem, "a") != 0)) continue;
    int r = seen_id(b, value);
    if (r < 0) return -1;
    if (r) b->error(b->ctx);
  }
  return 0;
}

static void oom(tbk_build *b) {
  b->failed = 1;
  if (b->stop) b->stop(b->ctx);
}

static uint32_t top(const tbk_build *b) { return b->depth ? b->open[b->depth - 1] : TBK_ANONE; }

/* A node outside every element: at the top level (node 0). */
static uint32_t add_top(tbk_build *b, int type, uint32_t line) {
  uint32_t i = tbk_arena_add(b->a, 0, type, line);
  if (i != TBK_ANONE && !b->doc_used) {
    b->doc_used = 1;
    if (type == TBK_AN_ELEMENT) b->first_root = i;
  }
  return i;
}

/* Room for n more bytes (and a NUL) in s: the call only when it grows. */
static inline int room(tbk_buf *s, size_t n) {
  return s->cap > s->len && s->cap - s->len > n ? 0 : tbk_buf_reserve(s, n);
}

/* n bytes of p appended to s: one reservation, one copy. */
static int put(tbk_buf *s, const void *p, size_t n) {
  if (room(s, n)) return -1;
  memcpy(s->data + s->len, p, n);
  s->len += n;
  return 0;
}

/* n bytes of s kept in the arena's strings, NUL-terminated, at *at: what
 * only HTML output reads. -1 out of memory (the build then failed). */
static int keep_str(tbk_build *b, uint32_t *at, const char *s, size_t n) {
  tbk_buf *t = &b->a->strs;
  if (t->len >= UINT32_MAX - n - 1 || room(t, n + 1)) {
    oom(b);
    return -1;
  }
  *at = (uint32_t)t->len;
  memcpy(t->data + t->len, s, n);
  t->len += n;
  t->data[t->len++] = '\0';
  return 0;
}

static int pack_attrs(tbk_buf *s, const char **atts) {
  for (size_t k = 0; atts && atts[k]; k += 2) {
    const char *name = atts[k], *value = atts[k + 1];
    if (!value && tbk_html_boolean_attr(name)) value = name;
    size_t nl = strlen(name) + 1, vl = value ? strlen(value) + 1 : 0;
    if (room(s, nl + 1 + vl)) return -1;
    char *o = s->data + s->len;
    memcpy(o, name, nl);
    o[nl] = value ? 1 : 0;
    if (value) memcpy(o + nl + 1, value, vl);
    s->len += nl + 1 + vl;
  }
  return put(s, "", 1);
}

/* The name xmlSplitQName gives the element, the error it reports counted. */
static const char *local_name(tbk_build *b, const char *name) {
  const char *colon = name[0] == ':' ? NULL : strchr(name, ':');
  if (!colon || !colon[1]) return name;
  unsigned char c = (unsigned char)colon[1];
  if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':')) {
    const unsigned char *u = (const unsigned char *)colon + 1;
    size_t len = tbk_utf8_seq(u, strnlen(colon + 1, 4));
    if (!len || (!tbk_xml_letter(tbk_utf8_decode(u, len)) && u[0] != '_')) b->error(b->ctx);
  }
  return colon + 1;
}

int tbk_build_begin(tbk_build *b, tbk_arena *a, size_t n) {
  tbk_arena_free(a);
  memset(b, 0, sizeof *b);
  b->a = a;
  b->first_root = TBK_ANONE;
  a->dt_name = a->dt_ext = a->dt_sys = TBK_ANONE;
  /* Sized for a typical page up front (a node per 40 bytes of source, text
   * and attributes a quarter of it each): a few reallocations at most. The
   * strings start with the empty string that text not kept points at. */
  size_t guess = n / 40 + 16;
  if (tbk_grow(&a->n, &a->cap, guess, sizeof *a->n) || tbk_buf_reserve(&a->strs, n / 4 + 64) ||
      tbk_buf_reserve(&a->attrs, n / 4 + 64) || put(&a->strs, "", 1) ||
      tbk_arena_add(a, TBK_ANONE, TBK_AN_DOC, 0) == TBK_ANONE) {
    tbk_arena_free(a);
    return -1;
  }
  return 0;
}

void tbk_build_end_all(tbk_build *b) {
  free(b->open);
  free(b->id_at);
  tbk_buf_free(&b->ids);
  b->open = NULL;
  b->id_at = NULL;
}

void tbk_build_start(tbk_build *b, const char *name, int tag, const char **atts, uint32_t line) {
  tbk_arena *a = b->a;
  if (b->failed) return;
  uint32_t parent = top(b), i;
  if (parent != TBK_ANONE) i = tbk_arena_add(a, parent, TBK_AN_ELEMENT, line);
  else if (b->first_root != TBK_ANONE) i = tbk_arena_add(a, b->first_root, TBK_AN_ELEMENT, line);
  else i = add_top(b, TBK_AN_ELEMENT, line);
  if (i == TBK_ANONE || tbk_grow(&b->open, &b->cap, b->depth + 1, sizeof *b->open)) return oom(b);
  const char *local = local_name(b, name);
  a->n[i].name = local;
  a->n[i].attrs = (uint32_t)a->attrs.len;
  if (pack_attrs(&a->attrs, atts)) return oom(b);
  b->open[b->depth++] = i;
  if (atts && check_ids(b, name, atts)) return oom(b);
  /* the tag the parser knows is its name's, unless the QName split it */
  tbk_arena_classify_as(a, i, tag >= 0 && local == name ? (tbk_tag)tag : tbk_tag_lookup(local));
  const tbk_anode *n = &a->n[i];
  if (n->tag == TBK_TAG_TITLE) b->in_title++;
  if (a->keep) return; /* every text kept: no element hides it */
  if (!b->unseen && !b->in_title && n->unseen && n->tag != TBK_TAG_HTML && n->tag != TBK_TAG_HEAD) b->unseen = b->depth;
}

void tbk_build_end(tbk_build *b) {
  if (!b->depth) return;
  if (b->unseen == b->depth) b->unseen = 0;
  if (b->in_title && b->a->n[b->open[b->depth - 1]].tag == TBK_TAG_TITLE) b->in_title--;
  b->depth--;
}

/* Text or CDATA: appended to the open element's last child when that is
 * of the same type, else a new node. The content being appended to ends
 * the string buffer (nothing but a kept DOCTYPE can be added since it
 * was), so it grows in place. */
void tbk_build_text(tbk_build *b, const char *s, size_t len, int type, uint32_t line) {
  tbk_arena *a = b->a;
  uint32_t parent = top(b);
  if (b->failed || parent == TBK_ANONE) return;
  uint32_t last = a->n[parent].last, i = last;
  if (b->unseen) {
    /* the node alone, its content the empty string at offset 0 */
    if ((last == TBK_ANONE || a->n[last].type != type) &&
        tbk_arena_add(a, parent, type, type == TBK_AN_TEXT ? line : 0) == TBK_ANONE)
      oom(b);
    return;
  }
  if (last == TBK_ANONE || a->n[last].type != type) {
    i = tbk_arena_add(a, parent, type, type == TBK_AN_TEXT ? line : 0);
    if (i == TBK_ANONE) return oom(b);
    a->n[i].str = (uint32_t)a->strs.len;
  } else if (a->n[i].str + a->n[i].len + 1 == a->strs.len) {
    a->strs.len--; /* its NUL */
  } else {
    /* A DOCTYPE kept between the two (keep): the content moves to the end. */
    uint32_t from = a->n[i].str, n = a->n[i].len;
    if (room(&a->strs, n)) return oom(b);
    a->n[i].str = (uint32_t)a->strs.len;
    memmove(a->strs.data + a->strs.len, a->strs.data + from, n);
    a->strs.len += n;
  }
  if (len > UINT32_MAX - a->n[i].len || room(&a->strs, len + 1)) return oom(b);
  memcpy(a->strs.data + a->strs.len, s, len);
  a->strs.len += len;
  a->strs.data[a->strs.len++] = '\0';
  a->n[i].len += (uint32_t)len;
}

static uint32_t add_other(tbk_build *b, int type, uint32_t line) {
  if (b->failed) return TBK_ANONE;
  uint32_t parent = top(b);
  uint32_t i = parent != TBK_ANONE ? tbk_arena_add(b->a, parent, type, line) : add_top(b, type, line);
  if (i == TBK_ANONE) oom(b);
  return i;
}

void tbk_build_comment(tbk_build *b, const char *s, size_t len, uint32_t line) {
  uint32_t i = add_other(b, TBK_AN_COMMENT, line);
  if (i != TBK_ANONE && b->a->keep) keep_str(b, &b->a->n[i].str, s, len);
}

void tbk_build_pi(tbk_build *b, const char *target, size_t tlen, const char *data, size_t dlen, uint32_t line) {
  uint32_t i = add_other(b, TBK_AN_PI, line);
  if (i == TBK_ANONE || !b->a->keep) return;
  b->a->n[i].attrs = TBK_ANONE;
  if (keep_str(b, &b->a->n[i].str, target, tlen)) return;
  b->a->n[i].len = (uint32_t)tlen;
  if (data) keep_str(b, &b->a->n[i].attrs, data, dlen);
}

/* libxml2 puts the DOCTYPE first among the document's nodes, wherever it
 * appears: the document's first node is then no element. An HTML
 * document keeps its first (SAX2's internalSubset ignores the others). */
void tbk_build_doctype(tbk_build *b, const char *name, size_t nlen, const char *ext, size_t elen, const char *sys,
                       size_t slen) {
  b->doc_used = 1;
  b->first_root = TBK_ANONE;
  tbk_arena *a = b->a;
  if (!a->keep || a->has_doctype || b->failed) return;
  a->has_doctype = 1;
  if ((name && keep_str(b, &a->dt_name, name, nlen)) || (ext && keep_str(b, &a->dt_ext, ext, elen))) return;
  if (sys) keep_str(b, &a->dt_sys, sys, slen);
}

void tbk_build_finish(tbk_build *b) {
  static const char name[] = "html", ext[] = "-//W3C//DTD HTML 4.0 Transitional//EN",
                    sys[] = "http://www.w3.org/TR/REC-html40/loose.dtd";
  if (b->a->keep && !b->a->has_doctype)
    tbk_build_doctype(b, name, sizeof name - 1, ext, sizeof ext - 1, sys, sizeof sys - 1);
}
