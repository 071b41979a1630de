/* The annotated HTML renderings (tbk-predict -f html --annotate): the whole
 * page, every decided element marked so that a browser shows the decision.
 * Each element gets its probability (data-tbk-template or data-tbk-content,
 * for scripts), its decision (data-tbk-decision="kept" or "removed") and a
 * title (the tooltip: decision and probability); a <style> shades removed
 * elements and marks kept ones, and a fixed box, the legend, says which is
 * which. Nothing of this is in the plain renderings. */
#include <stdlib.h>

#include "predict_internal.h"
#include "units.h"

/* The colours, in the style and in the legend's swatches alike (the
 * legend's swatches are elements marked as the page's are). */
#define TBK_ANN_REMOVED_BG "#f4b6b6"
#define TBK_ANN_KEPT_BG "#c6ecc6"

static const char style[] =
    "<style id=\"tbk-annotate-style\">"
    "[data-tbk-decision=removed]{background:" TBK_ANN_REMOVED_BG
    "!important;color:#5c5c5c!important;outline:1px dashed #b03030!important;outline-offset:-1px!important}"
    "[data-tbk-decision=kept]{background:" TBK_ANN_KEPT_BG
    "!important;color:#000!important;outline:1px solid #2e7d32!important;outline-offset:-1px!important}"
    "#tbk-legend{all:initial;position:fixed!important;right:10px!important;bottom:10px!important;"
    "z-index:2147483647!important;display:block!important;background:#fff!important;color:#000!important;"
    "border:1px solid #333!important;padding:6px 9px!important;font:13px/1.5 sans-serif!important;"
    "box-shadow:0 1px 5px rgba(0,0,0,.35)!important;max-width:22em!important;text-align:left!important}"
    "#tbk-legend>*{all:revert;font:inherit!important;display:block!important;margin:2px 0!important;"
    "padding:0 5px!important}"
    "#tbk-legend>b{font-weight:bold!important}"
    "</style>";

/* The legend: the stage, the two decisions as swatches, the tooltip. */
static int legend(tbk_buf *b, const char *stage, const char *kept, const char *removed, const char *hover) {
  return tbk_buf_puts(b, style) ||
         tbk_buf_puts(b, "<div id=\"tbk-legend\" title=\"tbk-predict --annotate\"><b>tbk: ") ||
         tbk_buf_puts(b, stage) || tbk_buf_puts(b, "</b><span data-tbk-decision=\"kept\">kept: ") ||
         tbk_buf_puts(b, kept) || tbk_buf_puts(b, "</span><span data-tbk-decision=\"removed\">removed: ") ||
         tbk_buf_puts(b, removed) || tbk_buf_puts(b, "</span><i>") || tbk_buf_puts(b, hover) ||
         tbk_buf_puts(b, "</i></div>");
}

/* items[i] on element elem[i], probability p[i] (written as it is shown),
 * kept[i] its decision. An element holding several items (the units of
 * one line element) is kept when one of them is; its probability
 * attribute is its last item's, its title lists them all. */
static tbk_status render(const tbk_page *page, size_t n, const uint32_t *elem, const double *p,
                         const unsigned char *kept, const char *p_attr, const char *p_name, const tbk_buf *inject,
                         tbk_buf *out) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t nn = pv.n_nodes;
  uint32_t *slot_of = malloc((nn ? nn : 1) * sizeof *slot_of);
  uint32_t *first = malloc((n ? n : 1) * sizeof *first), *next = malloc((n ? n : 1) * sizeof *next);
  uint32_t *last = malloc((n ? n : 1) * sizeof *last);
  size_t *at = malloc((n ? n : 1) * 3 * sizeof *at);
  tbk_html_mark *mark = malloc((n ? n : 1) * sizeof *mark);
  tbk_buf s = {0};
  tbk_status st = TBK_ERR_NOMEM;
  if (!slot_of || !first || !next || !last || !at || !mark) goto done;
  for (size_t k = 0; k < nn; k++) slot_of[k] = TBK_NONE;
  size_t ns = 0;
  for (size_t i = 0; i < n; i++) {
    if (elem[i] >= nn) {
      st = TBK_ERR_ARG;
      goto done;
    }
    next[i] = TBK_NONE;
    uint32_t m = slot_of[elem[i]];
    if (m == TBK_NONE) {
      m = slot_of[elem[i]] = (uint32_t)ns++;
      first[m] = (uint32_t)i;
    } else {
      next[last[m]] = (uint32_t)i;
    }
    last[m] = (uint32_t)i;
  }
  /* Strings first (the buffer moves as it grows), pointers after. */
  for (size_t m = 0; m < ns; m++) {
    int any_kept = 0;
    for (uint32_t i = first[m]; i != TBK_NONE; i = next[i]) any_kept |= kept[i] != 0;
    at[3 * m] = s.len;
    if (tbk_buf_printf(&s, "%.3f", p[last[m]]) || tbk_buf_append(&s, "", 1)) goto done;
    at[3 * m + 1] = s.len;
    if (tbk_buf_puts(&s, any_kept ? "kept" : "removed") || tbk_buf_append(&s, "", 1)) goto done;
    at[3 * m + 2] = s.len;
    if (tbk_buf_puts(&s, "tbk: ")) goto done;
    for (uint32_t i = first[m]; i != TBK_NONE; i = next[i])
      if ((i != first[m] && tbk_buf_puts(&s, "; ")) ||
          tbk_buf_printf(&s, "%s, %s %.3f", kept[i] ? "kept" : "removed", p_name, p[i]))
        goto done;
    if (tbk_buf_append(&s, "", 1)) goto done;
  }
  for (size_t m = 0; m < ns; m++)
    mark[m] = (tbk_html_mark){elem[first[m]], {s.data + at[3 * m], s.data + at[3 * m + 1], s.data + at[3 * m + 2]}};
  tbk_html_edit e = {.attr = {p_attr, "data-tbk-decision", "title"},
                     .join = {NULL, NULL, " | "},
                     .mark = mark,
                     .n_mark = ns,
                     .inject = inject->data};
  st = tbk_page_html(page, &e, out);
done:
  free(slot_of);
  free(first);
  free(next);
  free(last);
  free(at);
  free(mark);
  tbk_buf_free(&s);
  return st;
}

tbk_status tbk_render_blocks_annotated(const tbk_page *page, const double *probs, double threshold, tbk_buf *out) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t nb = pv.n_blocks;
  uint32_t *elem = malloc((nb ? nb : 1) * sizeof *elem);
  unsigned char *kept = malloc(nb ? nb : 1);
  tbk_buf inj = {0};
  tbk_status st = TBK_ERR_NOMEM;
  char thr[64];
  tbk_snprintf(thr, sizeof thr, "content blocks (p_template &lt; %.3f)", threshold);
  if (elem && kept &&
      !legend(&inj, "template stage", thr, "template blocks (what recurs on the site)",
              "Hover over a block: its template probability.")) {
    for (size_t b = 0; b < nb; b++) {
      elem[b] = pv.blocks[b].node;
      kept[b] = probs[b] < threshold;
    }
    st = render(page, nb, elem, probs, kept, "data-tbk-template", "p_template", &inj, out);
  }
  free(elem);
  free(kept);
  tbk_buf_free(&inj);
  return st;
}

tbk_status tbk_render_units_annotated(const tbk_page *page, const tbk_units *ux, const unsigned char *keep,
                                      const double *unit_p, tbk_buf *out) {
  size_t n = ux->n;
  uint32_t *elem = malloc((n ? n : 1) * sizeof *elem);
  double *pc = malloc((n ? n : 1) * sizeof *pc);
  tbk_buf inj = {0};
  tbk_status st = TBK_ERR_NOMEM;
  if (elem && pc &&
      !legend(&inj, "content stage", "the page's main content", "boilerplate (menus, footers, ads...)",
              "Hover over a line: its content probability.")) {
    for (size_t i = 0; i < n; i++) {
      elem[i] = ux->u[i].elem;
      pc[i] = 1.0 - unit_p[i];
    }
    st = render(page, n, elem, pc, keep, "data-tbk-content", "p_content", &inj, out);
  }
  free(elem);
  free(pc);
  tbk_buf_free(&inj);
  return st;
}
