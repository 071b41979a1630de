/* Prediction on a single page, with no site history, and the three
 * renderings of the result. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLtree.h>

#include "model.h"
#include "page_internal.h"
#include "util.h"

struct tbk_predictor {
  const tbk_model *m;  /* borrowed */
  tbk_features *fx;    /* owned */
  double *probs;       /* owned scratch, cap entries */
  size_t cap;
  tbk_term *terms;     /* owned scratch */
  size_t capterms;
  /* Most inputs are 0 on most blocks, so the decision starts from what
   * all-zero inputs give and adds only the nonzero inputs' differences,
   * instead of encoding every input to columns and summing them all. */
  double *zero_contrib; /* owned: nin, tbk_encode_contrib(j, 0) */
  double zero_decision; /* bias + the sum of zero_contrib */
};

tbk_status tbk_predictor_new(const tbk_model *m, tbk_predictor **out, tbk_error *err) {
  *out = NULL;
  tbk_predictor *pr = calloc(1, sizeof *pr);
  if (!pr) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  pr->m = m;
  tbk_feature_options fo;
  tbk_model_feature_options(m, &fo);
  tbk_status st = tbk_features_new(&fo, &pr->fx, err);
  if (st) { tbk_predictor_free(pr); return st; }
  const char *schema = tbk_features_schema_id(pr->fx);
  if (strcmp(schema, m->schema) != 0 || tbk_features_dim(pr->fx) != m->dim) {
    st = tbk_fail(err, TBK_ERR_SCHEMA, "model was trained on features %s (dim %u); this build extracts %s (dim %zu)",
                  m->schema, m->dim, schema, tbk_features_dim(pr->fx));
    tbk_predictor_free(pr);
    return st;
  }
  pr->zero_contrib = malloc(((size_t)m->enc.nin ? m->enc.nin : 1) * sizeof *pr->zero_contrib);
  if (!pr->zero_contrib) { tbk_predictor_free(pr); return tbk_fail(err, TBK_ERR_NOMEM, "out of memory"); }
  pr->zero_decision = m->w[m->enc.ncols];
  for (uint32_t j = 0; j < m->enc.nin; j++) {
    pr->zero_contrib[j] = tbk_encode_contrib(&m->enc, m->w, j, 0.0);
    pr->zero_decision += pr->zero_contrib[j];
  }
  *out = pr;
  return TBK_OK;
}

void tbk_predictor_free(tbk_predictor *pr) {
  if (!pr) return;
  tbk_features_free(pr->fx);
  free(pr->probs);
  free(pr->terms);
  free(pr->zero_contrib);
  free(pr);
}

tbk_status tbk_predict_page(tbk_predictor *pr, const tbk_page *page, const double **probs, tbk_error *err) {
  const tbk_model *m = pr->m;
  tbk_status st = tbk_features_page(pr->fx, page, err);
  if (st) return st;
  size_t nb = page->n_blocks;
  if (nb > pr->cap) {
    double *p = realloc(pr->probs, nb * sizeof *p);
    if (!p) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    pr->probs = p;
    pr->cap = nb;
  }
  for (size_t b = 0; b < nb; b++) {
    double s = 0.0;
    if (m->nb) {
      const uint32_t *wi, *wc;
      size_t nw = tbk_features_words(pr->fx, b, &wi, &wc);
      if (nw > pr->capterms) {
        tbk_term *t = realloc(pr->terms, nw * sizeof *t);
        if (!t) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
        pr->terms = t;
        pr->capterms = nw;
      }
      for (size_t k = 0; k < nw; k++) pr->terms[k] = (tbk_term){wi[k] - 1, (double)wc[k]};
      if ((st = tbk_nb_score(m->nb, pr->terms, nw, &s, err))) return st;
    }
    const double *x = tbk_features_values(pr->fx, b);
    double z = pr->zero_decision;
    for (uint32_t j = 0; j < m->enc.nin; j++) {
      double v = j + 1 == m->enc.nin ? s : x[j];
      if (v != 0) z += tbk_encode_contrib(&m->enc, m->w, j, v) - pr->zero_contrib[j];
    }
    pr->probs[b] = tbk_sigmoid(z);
  }
  *probs = pr->probs;
  return TBK_OK;
}

/* The innermost block that holds element i, or -1. */
static int32_t block_of_node(const tbk_page *p, uint32_t i) {
  const tbk_node *n = &p->nodes[i];
  if (n->block >= 0) return n->block;
  return n->cand_anc == TBK_NONE ? -1 : p->nodes[n->cand_anc].block;
}

static int run_is_template(const tbk_page *p, const tbk_run *r, const double *probs, double thr) {
  int32_t b = block_of_node(p, r->node);
  return b >= 0 && probs[b] >= thr;
}

/* Element that starts the visual line a run belongs to. */
static uint32_t line_elem(const tbk_page *p, uint32_t i) {
  while (i != TBK_NONE && !(tbk_tag_flags(p->nodes[i].tag) & TAG_BREAK)) i = p->nodes[i].parent;
  return i;
}

static int trim_line_end(tbk_buf *out, size_t line_start) {
  while (out->len > line_start && out->data[out->len - 1] == ' ') out->len--;
  if (out->len == line_start) return 0; /* nothing on the line */
  return tbk_buf_append(out, "\n", 1);
}

tbk_status tbk_render_text(const tbk_page *page, const double *probs, double threshold, tbk_buf *out,
                           tbk_page_summary *summary) {
  tbk_page_summary s = {0};
  s.blocks = page->n_blocks;
  for (size_t b = 0; b < page->n_blocks; b++) s.template_blocks += probs[b] >= threshold;
  uint32_t cur_line = TBK_NONE - 1;
  size_t line_start = out->len;
  for (size_t i = 0; i < page->n_runs; i++) {
    const tbk_run *r = &page->runs[i];
    size_t chars = tbk_utf8_length(page->text.data + r->start, r->end - r->start);
    s.chars += chars;
    if (run_is_template(page, r, probs, threshold)) {
      s.template_chars += chars;
      continue;
    }
    uint32_t le = line_elem(page, r->node);
    const char *t = page->text.data + r->start;
    size_t n = r->end - r->start;
    if (le != cur_line) {
      if (trim_line_end(out, line_start)) return TBK_ERR_NOMEM;
      line_start = out->len;
      cur_line = le;
      while (n && *t == ' ') { t++; n--; }
    } else if (out->len > line_start && out->data[out->len - 1] == ' ' && n && *t == ' ') {
      t++; /* the removed text between two kept runs may leave two spaces */
      n--;
    }
    if (tbk_buf_append(out, t, n)) return TBK_ERR_NOMEM;
  }
  if (trim_line_end(out, line_start)) return TBK_ERR_NOMEM;
  if (tbk_buf_reserve(out, 0)) return TBK_ERR_NOMEM;
  out->data[out->len] = '\0';
  if (summary) *summary = s;
  return TBK_OK;
}

tbk_status tbk_render_html(tbk_page *page, const double *probs, double threshold, int annotate, tbk_buf *out) {
  if (annotate) {
    for (size_t b = 0; b < page->n_blocks; b++) {
      char v[16];
      snprintf(v, sizeof v, "%.3f", probs[b]);
      xmlSetProp(page->nodes[page->blocks[b].node].xml, BAD_CAST "data-tbk-template", BAD_CAST v);
    }
  } else {
    /* Same decisions as the text rendering: a template block goes whole
     * when no content block sits inside it; otherwise only the text that
     * is its own goes. Decide everything before changing the DOM. */
    size_t nb = page->n_blocks;
    char *whole = calloc(nb ? nb : 1, 1);
    if (!whole) return TBK_ERR_NOMEM;
    for (size_t b = 0; b < nb; b++) whole[b] = probs[b] >= threshold;
    for (size_t b = nb; b-- > 0;) /* children come after parents: sweep back */
      if (probs[b] < threshold && page->blocks[b].parent >= 0) {
        for (int32_t a = page->blocks[b].parent; a >= 0; a = page->blocks[a].parent) whole[a] = 0;
      }
    xmlNode **drop = malloc((page->n_runs + nb + 1) * sizeof *drop);
    if (!drop) { free(whole); return TBK_ERR_NOMEM; }
    size_t nd = 0;
    for (size_t i = 0; i < page->n_runs; i++) {
      const tbk_run *r = &page->runs[i];
      int32_t b = block_of_node(page, r->node);
      if (b >= 0 && probs[b] >= threshold && !whole[b]) drop[nd++] = r->xml;
    }
    for (size_t b = 0; b < nb; b++) {
      if (!whole[b]) continue;
      int32_t a = page->blocks[b].parent;
      while (a >= 0 && !whole[a]) a = page->blocks[a].parent;
      if (a < 0) drop[nd++] = page->nodes[page->blocks[b].node].xml; /* outermost only */
    }
    for (size_t i = 0; i < nd; i++) {
      xmlUnlinkNode(drop[i]);
      xmlFreeNode(drop[i]);
    }
    free(drop);
    free(whole);
  }
  xmlChar *mem = NULL;
  int size = 0;
  htmlDocDumpMemoryFormat(page->doc, &mem, &size, 0);
  if (!mem) return TBK_ERR_NOMEM;
  int bad = tbk_buf_append(out, mem, (size_t)size);
  xmlFree(mem);
  /* The DOM no longer matches the node table: renderings are final. */
  return bad ? TBK_ERR_NOMEM : TBK_OK;
}

tbk_status tbk_render_jsonl(const tbk_page *page, const char *page_id, const double *probs, double threshold,
                            tbk_buf *out) {
  for (size_t b = 0; b < page->n_blocks; b++) {
    const tbk_block *k = &page->blocks[b];
    size_t sn = k->text_len < 100 ? k->text_len : 100;
    while (sn > 0 && sn < k->text_len && ((unsigned char)k->text[sn] & 0xC0) == 0x80) sn--;
    int bad = tbk_buf_puts(out, "{\"page\":") || tbk_buf_json_str(out, page_id, strlen(page_id)) ||
              tbk_buf_puts(out, ",\"path\":") || tbk_buf_json_str(out, k->path, strlen(k->path)) ||
              tbk_buf_printf(out, ",\"tag\":\"%s\",\"p\":%.4f,\"template\":%s,\"chars\":%zu,\"text\":", k->tag,
                             probs[b], probs[b] >= threshold ? "true" : "false", k->text_chars) ||
              tbk_buf_json_str(out, k->text, sn) || tbk_buf_puts(out, "}\n");
    if (bad) return TBK_ERR_NOMEM;
  }
  return TBK_OK;
}
