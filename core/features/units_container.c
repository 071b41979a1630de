/* The article body as the page's own markup declares it (schema.org): an
 * element whose itemprop is articleBody, which many news pages carry for
 * search engines. The content decision reads it (../predict/content.c),
 * measured in EVALUATION.md "Content stage" (the JSON-LD articleBody text
 * was measured too and left out: it helped nowhere). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"

/* An element's packed attributes hold itemprop="... articleBody ...". */
static int body_prop(const char *attrs) {
  const char *p = attrs, *name, *value;
  while ((name = tbk_attr_next(&p, &value)))
    if (value && strcasecmp(name, "itemprop") == 0 && strcasestr(value, "articlebody")) return 1;
  return 0;
}

/* in[u] = 1 for the units whose line element is under an articleBody
 * element; returns how many such elements the page has (one nested in
 * another counts too). */
static size_t mark_containers(const tbk_page *p, tbk_units *ux, unsigned char *in) {
  size_t found = 0;
  uint32_t from = 0, to = 0; /* the span of nodes under the outermost one */
  for (uint32_t k = 0; k < p->n_nodes; k++) {
    const tbk_node *nd = &p->nodes[k];
    if (nd->attrs && nd->attrs[0] && body_prop(nd->attrs)) {
      if (!found++) from = k;
      if (nd->end > to) to = nd->end;
    }
  }
  /* Several disjoint ones (a page of teasers each marked up as an
   * article) are the span from the first to the end of the last: rare,
   * and then the rule that reads it needs most kept text inside anyway. */
  for (size_t i = 0; i < ux->n; i++) in[i] = found && ux->u[i].elem >= from && ux->u[i].elem < to;
  return found;
}

tbk_status tbk_units_body_markup(tbk_units *ux, const tbk_page *p, tbk_error *err) {
  tbk_units_body *b = &ux->body;
  size_t n = ux->n ? ux->n : 1;
  if (n > b->cap) {
    unsigned char *in = realloc(b->in, n);
    if (!in) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    b->in = in;
    b->cap = n;
  }
  b->containers = mark_containers(p, ux, b->in);
  return TBK_OK;
}

void tbk_units_body_free(tbk_units *ux) { free(ux->body.in); }
