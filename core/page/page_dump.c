/* Every table of a parsed page as text, for proving that the streaming
 * parse and the parse keeping the tree give the same page (bench/page_equiv.c, the
 * page_stream test, fuzz_page): nodes, runs, text, blocks, attributes,
 * names, title, base URL and the page's counters. Pointers into libxml2's
 * tree are left out: only a DOM page has them. */
#include <inttypes.h>

#include "page_internal.h"

static void attr_out(void *ctx, const char *name, const char *chunk) {
  tbk_buf *out = ctx;
  int bad = chunk ? tbk_buf_printf(out, " %s=[%s]", name, chunk) : tbk_buf_printf(out, " %s;", name);
  (void)bad; /* an allocation failure shows as a short dump */
}

int tbk_page_dump(const tbk_page *p, tbk_buf *out) {
  int bad = 0;
  bad |= tbk_buf_printf(out,
                        "page charset=%s errors=%zu recovered=%d lines=%" PRIu32 " raw=%zu depth=%" PRIu32
                        " nodes=%zu runs=%zu blocks=%zu\n",
                        p->charset, p->parse_errors, p->recovered, p->n_lines, p->raw_bytes, p->max_depth, p->n_nodes,
                        p->n_runs, p->n_blocks);
  for (size_t i = 0; i < p->n_nodes; i++) {
    const tbk_node *n = &p->nodes[i];
    bad |= tbk_buf_printf(
        out,
        "node %zu %s parent=%" PRIu32 " end=%" PRIu32 " depth=%" PRIu32 " line=%" PRIu32 " text=%" PRIu32 "-%" PRIu32
        " sib=%" PRIu32 "/%" PRIu32 " nth=%" PRIu32 " kids=%" PRIu32 " cand=%" PRIu32 " block=%" PRId32 " tag=%u a=%u",
        i, tbk_node_name(n), n->parent, n->end, n->depth, n->line, n->text_start, n->text_end, n->sib_index,
        n->sib_count, n->nth, n->child_elems, n->cand_anc, n->block, n->tag, n->in_anchor);
    tbk_node_attrs(n, attr_out, out);
    bad |= tbk_buf_append(out, "\n", 1);
  }
  for (size_t i = 0; i < p->n_runs; i++)
    bad |= tbk_buf_printf(out, "run %zu %" PRIu32 "-%" PRIu32 " node=%" PRIu32 "\n", i, p->runs[i].start,
                          p->runs[i].end, p->runs[i].node);
  bad |= tbk_buf_printf(out, "text %zu [", p->text.len);
  bad |= tbk_buf_append(out, p->text.data ? p->text.data : "", p->text.len);
  bad |= tbk_buf_append(out, "]\n", 2);
  for (size_t i = 0; i < p->n_blocks; i++) {
    const tbk_block *b = &p->blocks[i];
    bad |= tbk_buf_printf(
        out,
        "block %zu %s %s %zu/%zu at=%zu parent=%" PRId32 " node=%" PRIu32 " line=%" PRIu32 " depth=%" PRIu32 " md5=", i,
        b->tag, b->path, b->text_len, b->text_chars, (size_t)(b->text - p->text.data), b->parent, b->node, b->line,
        b->depth);
    for (int k = 0; k < 16; k++) bad |= tbk_buf_printf(out, "%02x", b->md5[k]);
    bad |= tbk_buf_append(out, "\n", 1);
  }
  bad |= tbk_buf_append(out, "title [", 7);
  bad |= tbk_page_title(p, 1 << 20, out);
  bad |= tbk_buf_append(out, "]\nbase [", 8);
  bad |= tbk_page_base_href(p, out);
  bad |= tbk_buf_append(out, "]\n", 2);
  return bad ? -1 : 0;
}
