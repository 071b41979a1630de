/* The page as HTML with some of its text left out or some elements
 * marked, for the renderings of the stages above. The DOM is edited for
 * the time of one serialization and restored exactly afterwards, so the
 * page's tables (which point into the DOM) stay valid and a page can be
 * rendered any number of times, in any format, in any order. A streamed
 * page has no DOM: its first rendering parses its source again, keeping
 * the DOM (the same tables, checked by their sizes), and renders that. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLtree.h>

#include "page_xml.h"

/* Where an unlinked node was, to put it back. */
typedef struct cut {
  xmlNode *node, *parent, *prev, *next;
} cut;

static void unlink_node(xmlNode *x, cut *c) {
  c->node = x;
  c->parent = x->parent;
  c->prev = x->prev;
  c->next = x->next;
  /* By hand, not xmlUnlinkNode: relinking must be its exact inverse, and
   * libxml2's own linking calls merge adjacent text nodes. */
  if (x->prev) x->prev->next = x->next;
  else if (x->parent) x->parent->children = x->next;
  if (x->next) x->next->prev = x->prev;
  else if (x->parent) x->parent->last = x->prev;
  x->prev = x->next = NULL;
  x->parent = NULL;
}

static void relink_node(const cut *c) {
  xmlNode *x = c->node;
  x->parent = c->parent;
  x->prev = c->prev;
  x->next = c->next;
  if (c->prev) c->prev->next = x;
  else if (c->parent) c->parent->children = x;
  if (c->next) c->next->prev = x;
  else if (c->parent) c->parent->last = x;
}

static int dump_write(void *ctx, const char *s, int len) { return tbk_buf_append(ctx, s, (size_t)len) ? -1 : len; }

/* What htmlDocDumpMemoryFormat writes (the same encoder, chosen as it
 * chooses it), but straight into out as libxml2 makes it, a few KiB at a
 * time: not the whole document in libxml2's buffer, then in a copy of it,
 * then in out (which may write it out as it goes: a sink, util.h). The
 * charset a page declares need not write every character it holds, nor
 * even its markup (ISO646-FR has no '#' or '[', ISO_5428 no '<'): what it
 * cannot write, not even as a character reference, libxml2 leaves out
 * (counted by tbk_xml_quiet), or it gives up the output, which is then
 * TBK_ERR_FORMAT; the charset is copied to declared (n bytes). */
static tbk_status dump(const tbk_page *page, tbk_buf *out, char *declared, size_t n) {
  const char *enc = (const char *)htmlGetMetaEncoding(page->doc);
  snprintf(declared, n, "%s", enc ? enc : "");
  xmlCharEncodingHandlerPtr h = NULL;
  if (enc) {
    if (xmlParseCharEncoding(enc) != XML_CHAR_ENCODING_UTF8) h = xmlFindCharEncodingHandler(enc);
  } else {
    h = xmlFindCharEncodingHandler("HTML");
    if (!h) h = xmlFindCharEncodingHandler("ascii");
  }
  xmlOutputBuffer *b = xmlOutputBufferCreateIO(dump_write, NULL, out, h);
  if (!b) return TBK_ERR_NOMEM;
  htmlDocContentDumpFormatOutput(b, page->doc, NULL, 0);
  int bad = xmlOutputBufferFlush(b) < 0 || b->error;
  /* Out of memory is libxml2's own or a failed write into out; any other
   * error is the charset's: 2.9 gives up with XML_IO_ENCODER, 2.13 on with
   * an error of its conversion (XML_ERR_INTERNAL_ERROR on 2.15), where 2.9
   * left one unwritable character out. */
  int nomem = !b->error || b->error == XML_ERR_NO_MEMORY || b->error == XML_IO_WRITE;
  xmlOutputBufferClose(b);
  return !bad ? TBK_OK : nomem ? TBK_ERR_NOMEM : TBK_ERR_FORMAT;
}

/* Element i, or the text node of run i, as the edit names it. */
static xmlNode *edit_target(const tbk_page *page, const tbk_html_drop *d) {
  if (d->is_run) return d->index < page->n_runs ? page->run_xml[d->index] : NULL;
  return d->index < page->n_nodes ? page->node_xml[d->index] : NULL;
}

tbk_status tbk_page_dom(const tbk_page *page, const tbk_page **dom) {
  if (page->doc) {
    *dom = page;
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
  *dom = page->dom;
  return TBK_OK;
}

/* The element children of x named name (the first), or NULL. */
static xmlNode *child_named(xmlNode *x, const char *name) {
  for (xmlNode *c = x ? x->children : NULL; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && c->name && xmlStrcasecmp(c->name, BAD_CAST name) == 0) return c;
  return NULL;
}

/* Link x as parent's last child, by hand (as relink_node: no merging of
 * text nodes), so that unlink_node takes it out exactly. */
static void link_last(xmlNode *parent, xmlNode *x) {
  x->parent = parent;
  x->next = NULL;
  x->prev = parent->last;
  if (parent->last) parent->last->next = x;
  else parent->children = x;
  parent->last = x;
}

/* The nodes of an injected fragment, to take out after the dump. */
typedef struct added {
  xmlNode **node;
  size_t n, cap;
} added;

static int add_copies(const tbk_page *page, xmlNode *from, xmlNode *to, added *a) {
  for (xmlNode *c = from ? from->children : NULL; c; c = c->next) {
    if (tbk_grow(&a->node, &a->cap, a->n + 1, sizeof *a->node)) return -1;
    xmlNode *x = xmlDocCopyNode(c, page->doc, 1);
    if (!x) return -1;
    a->node[a->n++] = x;
    link_last(to, x);
  }
  return 0;
}

/* The fragment parsed on its own, its head's elements put last in the
 * page's head (else its body), its body's last in the page's body (else
 * its root element): after the page's own, so that a meta charset stays in
 * the first 1,024 bytes and the page's styles come first. A page with no
 * root element gets nothing. */
static tbk_status inject(const tbk_page *page, const char *html, added *a) {
  xmlNode *root = xmlDocGetRootElement(page->doc);
  if (!root) return TBK_OK;
  htmlDocPtr f = htmlReadMemory(html, (int)strlen(html), NULL, "UTF-8",
                                HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
  if (!f) return TBK_ERR_NOMEM;
  xmlNode *froot = xmlDocGetRootElement(f);
  xmlNode *body = child_named(root, "body"), *head = child_named(root, "head");
  xmlNode *to_body = body ? body : root, *to_head = head ? head : to_body;
  int bad = add_copies(page, child_named(froot, "head"), to_head, a) ||
            add_copies(page, child_named(froot, "body"), to_body, a);
  xmlFreeDoc(f);
  return bad ? TBK_ERR_NOMEM : TBK_OK;
}

static void take_out(added *a) {
  cut c;
  while (a->n > 0) {
    xmlNode *x = a->node[--a->n];
    if (x->parent) unlink_node(x, &c);
    xmlFreeNode(x);
  }
  free(a->node);
}

/* The value a mark sets: its own, or joined with the element's (NULL out
 * of memory; freed with free). */
static char *mark_value(const char *value, const char *join, const xmlChar *had) {
  size_t a = strlen(value), b = join && had ? strlen(join) : 0, c = join && had ? strlen((const char *)had) : 0;
  if (!c) b = 0;
  char *v = malloc(a + b + c + 1);
  if (!v) return NULL;
  memcpy(v, value, a);
  if (c) {
    memcpy(v + a, join, b);
    memcpy(v + a + b, had, c);
  }
  v[a + b + c] = '\0';
  return v;
}

static tbk_status edit_dump(const tbk_page *page, const tbk_html_edit *e, tbk_buf *out, char *declared, size_t n) {
  tbk_status got = tbk_page_dom(page, &page);
  if (got) return got;
  size_t nd = e ? e->n_drop : 0, na = e ? e->n_mark : 0;
  cut *cuts = nd ? malloc(nd * sizeof *cuts) : NULL;
  /* saved[m * TBK_HTML_ATTRS + k]: attribute k of mark m's element before */
  xmlChar **saved = na ? calloc(na * TBK_HTML_ATTRS, sizeof *saved) : NULL;
  unsigned char *had = na ? calloc(na * TBK_HTML_ATTRS, 1) : NULL;
  if ((nd && !cuts) || (na && (!saved || !had))) {
    free(cuts);
    free(saved);
    free(had);
    return TBK_ERR_NOMEM;
  }
  size_t done_cuts = 0, done_marks = 0;
  added adds = {0};
  tbk_status st = TBK_OK;
  for (; done_marks < na; done_marks++) {
    const tbk_html_mark *m = &e->mark[done_marks];
    if (m->node >= page->n_nodes) {
      st = TBK_ERR_ARG;
      break;
    }
    xmlNode *x = page->node_xml[m->node];
    for (int k = 0; k < TBK_HTML_ATTRS && st == TBK_OK; k++) {
      if (!e->attr[k] || !m->value[k]) continue;
      size_t s = done_marks * TBK_HTML_ATTRS + (size_t)k;
      saved[s] = xmlGetProp(x, BAD_CAST e->attr[k]);
      had[s] = 1;
      char *v = mark_value(m->value[k], e->join[k], saved[s]);
      if (!v || !xmlSetProp(x, BAD_CAST e->attr[k], BAD_CAST v)) st = TBK_ERR_NOMEM;
      free(v);
    }
    if (st) {
      done_marks++;
      break;
    }
  }
  for (; st == TBK_OK && done_cuts < nd; done_cuts++) {
    xmlNode *x = edit_target(page, &e->drop[done_cuts]);
    if (!x) {
      st = TBK_ERR_ARG;
      break;
    }
    unlink_node(x, &cuts[done_cuts]);
  }
  if (st == TBK_OK && e && e->inject) st = inject(page, e->inject, &adds);
  if (st == TBK_OK) st = dump(page, out, declared, n);
  /* Undo in reverse: each step restores the neighbours the next one saw. */
  take_out(&adds);
  while (done_cuts > 0) relink_node(&cuts[--done_cuts]);
  while (done_marks > 0) {
    done_marks--;
    xmlNode *x = page->node_xml[e->mark[done_marks].node];
    for (int k = TBK_HTML_ATTRS; k-- > 0;) {
      size_t s = done_marks * TBK_HTML_ATTRS + (size_t)k;
      if (!had[s]) continue;
      if (saved[s]) xmlSetProp(x, BAD_CAST e->attr[k], saved[s]);
      else xmlUnsetProp(x, BAD_CAST e->attr[k]);
      xmlFree(saved[s]);
    }
  }
  free(cuts);
  free(saved);
  free(had);
  return st;
}

tbk_status tbk_page_html(const tbk_page *page, const tbk_html_edit *e, tbk_buf *out) {
  /* The note is the caller's page's, whichever page holds the DOM; it is
   * kept with the page as the DOM is (tbk_page_dom). */
  char *note = ((tbk_page *)page)->html_note;
  note[0] = '\0';
  char enc[48] = "";
  tbk_xml_quiet q;
  tbk_xml_quiet_begin(&q, NULL, NULL);
  tbk_status st = edit_dump(page, e, out, enc, sizeof enc);
  tbk_xml_quiet_end(&q);
  if (st == TBK_ERR_FORMAT && *enc)
    snprintf(note, sizeof((tbk_page *)page)->html_note,
             "cannot write the page as HTML in its declared charset %s: it lacks characters of the page "
             "and of their character references",
             enc);
  else if (st == TBK_OK && q.unwritable)
    snprintf(note, sizeof((tbk_page *)page)->html_note,
             "%zu character%s left out of the HTML: the page's declared charset %s cannot write %s, not even "
             "as character references",
             q.unwritable, q.unwritable == 1 ? "" : "s", enc, q.unwritable == 1 ? "it" : "them");
  return st;
}
