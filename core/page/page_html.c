/* The page as HTML with some of its text left out or some elements
 * marked, for the renderings of the stages above. The DOM is edited for
 * the time of one serialization and restored exactly afterwards, so the
 * page's tables (which point into the DOM) stay valid and a page can be
 * rendered any number of times, in any format, in any order. A streamed
 * page has no DOM: its first rendering parses its source again, keeping
 * the DOM (the same tables, checked by their sizes), and renders that. */
#include <stdlib.h>

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

static int dump_write(void *ctx, const char *s, int len) {
  return tbk_buf_append(ctx, s, (size_t)len) ? -1 : len;
}

/* What htmlDocDumpMemoryFormat writes (the same encoder, chosen as it
 * chooses it), but straight into out as libxml2 makes it, a few KiB at a
 * time: not the whole document in libxml2's buffer, then in a copy of it,
 * then in out (which may write it out as it goes: a sink, util.h). */
static tbk_status dump(const tbk_page *page, tbk_buf *out) {
  const char *enc = (const char *)htmlGetMetaEncoding(page->doc);
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
  xmlOutputBufferClose(b);
  return bad ? TBK_ERR_NOMEM : TBK_OK;
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

tbk_status tbk_page_html(const tbk_page *page, const tbk_html_edit *e, tbk_buf *out) {
  tbk_status got = tbk_page_dom(page, &page);
  if (got) return got;
  size_t nd = e ? e->n_drop : 0, na = e && e->attr ? e->n_mark : 0;
  cut *cuts = nd ? malloc(nd * sizeof *cuts) : NULL;
  xmlChar **saved = na ? calloc(na, sizeof *saved) : NULL;
  if ((nd && !cuts) || (na && !saved)) {
    free(cuts);
    free(saved);
    return TBK_ERR_NOMEM;
  }
  size_t done_cuts = 0, done_marks = 0;
  tbk_status st = TBK_OK;
  for (; done_marks < na; done_marks++) {
    const tbk_html_mark *m = &e->mark[done_marks];
    if (m->node >= page->n_nodes) { st = TBK_ERR_ARG; break; }
    xmlNode *x = page->node_xml[m->node];
    saved[done_marks] = xmlGetProp(x, BAD_CAST e->attr);
    if (!xmlSetProp(x, BAD_CAST e->attr, BAD_CAST m->value)) { st = TBK_ERR_NOMEM; break; }
  }
  for (; st == TBK_OK && done_cuts < nd; done_cuts++) {
    xmlNode *x = edit_target(page, &e->drop[done_cuts]);
    if (!x) { st = TBK_ERR_ARG; break; }
    unlink_node(x, &cuts[done_cuts]);
  }
  if (st == TBK_OK) st = dump(page, out);
  /* Undo in reverse: each step restores the neighbours the next one saw. */
  while (done_cuts > 0) relink_node(&cuts[--done_cuts]);
  while (done_marks > 0) {
    done_marks--;
    xmlNode *x = page->node_xml[e->mark[done_marks].node];
    if (saved[done_marks]) xmlSetProp(x, BAD_CAST e->attr, saved[done_marks]);
    else xmlUnsetProp(x, BAD_CAST e->attr);
    xmlFree(saved[done_marks]);
  }
  free(cuts);
  free(saved);
  return st;
}
