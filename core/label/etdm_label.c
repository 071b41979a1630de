/* A node-level template (etdm.c) as tbk's other outputs need it: each
 * element's locator, and the labels of the page's candidate blocks, so
 * that tbk-train can learn from an ETDM template as from df labels. */
#include <stdlib.h>
#include <string.h>

#include "etdm.h"

tbk_status tbk_etdm_xpaths(const tbk_page *page, tbk_buf *arena, size_t **offsets, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t n = pv.n_nodes;
  size_t *off = malloc((n + 1) * sizeof *off);
  if (!off) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  arena->len = 0;
  for (size_t i = 0; i < n; i++) {
    const tbk_node *nd = &pv.nodes[i];
    off[i] = arena->len;
    /* A parent comes before its children, so its locator is already here;
     * its offset is read again after the append may have moved the arena. */
    size_t plen = nd->parent == TBK_NONE ? 0 : strlen(arena->data + off[nd->parent]);
    if (tbk_buf_reserve(arena, plen + 1) || (plen && tbk_buf_append(arena, arena->data + off[nd->parent], plen)) ||
        tbk_buf_printf(arena, "/%s[%u]", tbk_node_name(nd), nd->nth) || tbk_buf_append(arena, "", 1)) {
      free(off);
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    }
  }
  *offsets = off;
  return TBK_OK;
}

tbk_status tbk_etdm_block_labels(const tbk_page *page, const uint8_t *keep, tbk_label *labels, const char **reasons,
                                 tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t n = pv.n_nodes;
  /* cnt[i]: template nodes among the first i, so a subtree [i, end) has
   * cnt[end] - cnt[i] of them. */
  uint32_t *cnt = malloc((n + 1) * sizeof *cnt);
  if (!cnt) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  cnt[0] = 0;
  for (size_t i = 0; i < n; i++) cnt[i + 1] = cnt[i] + (keep[i] != 0);
  for (size_t b = 0; b < pv.n_blocks; b++) {
    const tbk_block *bl = &pv.blocks[b];
    const tbk_node *nd = &pv.nodes[bl->node];
    uint32_t in = cnt[nd->end] - cnt[bl->node], all = nd->end - bl->node;
    reasons[b] = NULL;
    if (in == all) labels[b] = TBK_LABEL_TEMPLATE;
    else if (in) {
      labels[b] = TBK_LABEL_IGNORED;
      reasons[b] = "partly-template";
    } else {
      int32_t par = bl->parent;
      const tbk_node *pn = par >= 0 ? &pv.nodes[pv.blocks[par].node] : NULL;
      if (pn && cnt[pn->end] == cnt[pv.blocks[par].node]) {
        labels[b] = TBK_LABEL_IGNORED;
        reasons[b] = "not-top-most";
      } else labels[b] = TBK_LABEL_CONTENT;
    }
  }
  free(cnt);
  return TBK_OK;
}
