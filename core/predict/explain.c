/* tbk-predict --explain: the renderings of a page whose blocks and units
 * were scored with explanations on (the explanations themselves are made
 * by the scorer, predict.c, which alone knows the numbers it added). */
#include <math.h>
#include <string.h>

#include "predict.h"
#include "predict_internal.h"
#include "units.h"
#include "util.h"

/* A number JSON can hold (every value the extractors make is finite; a
 * null rather than an invalid line if one ever is not). */
static int json_num(tbk_buf *out, const char *fmt, double v) {
  return isfinite(v) ? tbk_buf_printf(out, fmt, v) : tbk_buf_puts(out, "null");
}

/* One stage's object: {"block":…,"p":…,"logit":…,"base":…,"bias":…,
 * "rest":…,"inputs":…,"top":[{"input":…,"value":…,"contribution":…}]};
 * block (the template stage's block of a unit) may be NULL; ex NULL
 * writes null. */
static int stage_json(tbk_buf *out, const tbk_explanation *ex, const char *block) {
  if (!ex) return tbk_buf_puts(out, "null");
  if (tbk_buf_puts(out, "{")) return -1;
  if (block &&
      (tbk_buf_puts(out, "\"block\":") || tbk_buf_json_str(out, block, strlen(block)) || tbk_buf_puts(out, ",")))
    return -1;
  if (tbk_buf_printf(out, "\"p\":%.4f,\"logit\":", tbk_sigmoid(ex->logit)) || json_num(out, "%.6g", ex->logit) ||
      tbk_buf_puts(out, ",\"base\":") || json_num(out, "%.6g", ex->base) || tbk_buf_puts(out, ",\"bias\":") ||
      json_num(out, "%.6g", ex->bias) || tbk_buf_puts(out, ",\"rest\":") || json_num(out, "%.6g", ex->rest) ||
      tbk_buf_printf(out, ",\"inputs\":%zu,\"top\":[", ex->inputs))
    return -1;
  for (size_t k = 0; k < ex->n; k++) {
    const tbk_explain_term *t = &ex->top[k];
    if (tbk_buf_puts(out, k ? ",{\"input\":" : "{\"input\":") || tbk_buf_json_str(out, t->name, strlen(t->name)) ||
        tbk_buf_puts(out, ",\"value\":") || json_num(out, "%.6g", t->value) ||
        tbk_buf_puts(out, ",\"contribution\":") || json_num(out, "%.6g", t->contribution) || tbk_buf_puts(out, "}"))
      return -1;
  }
  return tbk_buf_puts(out, "]}");
}

/* Whether the content decision differs from the content stage's own (its
 * probability against the threshold): then a rule of tbk_content_decide
 * decided, not the inputs. */
static int by_rule(const double *unit_p, const unsigned char *keep, const tbk_content_options *o, size_t i) {
  return !keep[i] != !(unit_p[i] < o->threshold);
}

/* The name of the rule that decided unit i (why: its TBK_RULE_*), or NULL
 * when the model did or why is not known. */
static const char *rule_name(const double *unit_p, const unsigned char *keep, const unsigned char *why,
                             const tbk_content_options *o, size_t i) {
  return why && by_rule(unit_p, keep, o, i) ? tbk_content_rule_name(why[i]) : NULL;
}

tbk_status tbk_render_explain_jsonl(const tbk_predictor *pr, const tbk_page *page, const char *page_id,
                                    const double *probs, const unsigned char *keep, const unsigned char *why,
                                    const tbk_content_options *o, tbk_buf *out) {
  const tbk_page_view pv = tbk_page_view_of(page);
  if (!keep) {
    for (size_t b = 0; b < pv.n_blocks; b++)
      if (tbk_block_record(page, page_id, probs, o->threshold, b, out) ||
          tbk_buf_puts(out, ",\"explain\":{\"template\":") ||
          stage_json(out, tbk_predictor_block_explanation(pr, b), NULL) || tbk_buf_puts(out, "}}\n"))
        return TBK_ERR_NOMEM;
    return TBK_OK;
  }
  const tbk_units *ux = tbk_predictor_units(pr);
  if (tbk_units_paths(ux, page)) return TBK_ERR_NOMEM;
  const char *stage = tbk_predictor_nontext_page(pr) ? "nontext" : "main";
  for (size_t i = 0; i < ux->n; i++) {
    int32_t b = tbk_unit_block(page, ux, i);
    const tbk_explanation *bex = b >= 0 ? tbk_predictor_block_explanation(pr, (size_t)b) : NULL;
    const char *rule = rule_name(probs, keep, why, o, i);
    if (tbk_unit_record(page, ux, page_id, probs, keep, i, out) || tbk_buf_puts(out, ",\"explain\":{\"template\":") ||
        stage_json(out, bex, bex ? pv.blocks[b].path : NULL) || tbk_buf_puts(out, ",\"content\":") ||
        stage_json(out, tbk_predictor_unit_explanation(pr, i), NULL) ||
        tbk_buf_printf(out, ",\"content_stage\":\"%s\",\"decided_by\":\"%s\"", stage,
                       by_rule(probs, keep, o, i) ? "rule" : "model") ||
        (rule && tbk_buf_printf(out, ",\"rule\":\"%s\"", rule)) || tbk_buf_puts(out, "}}\n"))
      return TBK_ERR_NOMEM;
  }
  return TBK_OK;
}

/* The first SNIPPET code points of a text, quoted, "…" when cut. */
#define SNIPPET 60
static int snippet(tbk_buf *out, const char *t, size_t len) {
  size_t n = 0, cps = 0;
  while (n < len && cps < SNIPPET) {
    n++;
    while (n < len && ((unsigned char)t[n] & 0xC0) == 0x80) n++;
    cps++;
  }
  return tbk_buf_puts(out, "\"") || tbk_buf_append(out, t, n) || tbk_buf_puts(out, n < len ? "\xe2\x80\xa6\"" : "\"");
}

/* A stage's lines: "  NAME  P=…  logit=… = base … + inputs …", then one
 * line per top input "    +2.310  name = value" and the rest's sum. */
static int stage_text(tbk_buf *out, const char *stage, const char *pname, const tbk_explanation *ex,
                      const char *where) {
  if (!ex) return tbk_buf_printf(out, "  %-8s  (not scored%s)\n", stage, where ? where : "");
  if (tbk_buf_printf(out, "  %-8s  %s=%.3f  logit=%+.3f = base %+.3f, inputs %+.3f", stage, pname,
                     tbk_sigmoid(ex->logit), ex->logit, ex->base, ex->logit - ex->base) ||
      (where && tbk_buf_puts(out, where)) || tbk_buf_puts(out, "\n"))
    return -1;
  for (size_t k = 0; k < ex->n; k++)
    if (tbk_buf_printf(out, "    %+8.3f  %s = %g\n", ex->top[k].contribution, ex->top[k].name, ex->top[k].value))
      return -1;
  if (ex->inputs > ex->n && tbk_buf_printf(out, "    %+8.3f  (%zu other input%s)\n", ex->rest, ex->inputs - ex->n,
                                           ex->inputs - ex->n == 1 ? "" : "s"))
    return -1;
  return 0;
}

static const char explain_legend[] =
    "# tbk-predict --explain: each %s's decision, then per stage the inputs that moved\n"
    "# the stage's logit most: contribution, input = value. A contribution is the logit's\n"
    "# change were the input 0; + pushes toward removal (template, boilerplate), - toward\n"
    "# keeping; base is the logit of an all-zero row; p = 1 / (1 + exp(-logit)).\n";

tbk_status tbk_render_explain_text(const tbk_predictor *pr, const tbk_page *page, const double *probs,
                                   const unsigned char *keep, const unsigned char *why, const tbk_content_options *o,
                                   tbk_buf *out) {
  const tbk_page_view pv = tbk_page_view_of(page);
  if (tbk_buf_printf(out, explain_legend, keep ? "unit" : "block")) return TBK_ERR_NOMEM;
  if (!keep) {
    for (size_t b = 0; b < pv.n_blocks; b++) {
      const tbk_block *k = &pv.blocks[b];
      if (tbk_buf_printf(out, "\nblock %zu  %s  <%s> ", b + 1, probs[b] >= o->threshold ? "removed" : "kept", k->tag) ||
          snippet(out, k->text, k->text_len) || tbk_buf_printf(out, "\n  %s\n", k->path) ||
          stage_text(out, "template", "p_template", tbk_predictor_block_explanation(pr, b), NULL))
        return TBK_ERR_NOMEM;
    }
    return TBK_OK;
  }
  const tbk_units *ux = tbk_predictor_units(pr);
  const tbk_model *c = tbk_predictor_model(pr)->content;
  if (tbk_predictor_nontext_page(pr) &&
      tbk_buf_printf(out,
                     "# The page's function words are not %s's: its content stage is the one fitted\n"
                     "# without the text model (text_score), which learned %s words.\n",
                     c->text_lang, c->text_lang))
    return TBK_ERR_NOMEM;
  tbk_buf where = {0};
  tbk_status st = TBK_OK;
  for (size_t i = 0; i < ux->n && !st; i++) {
    const tbk_unit_rec *u = &ux->u[i];
    int32_t b = tbk_unit_block(page, ux, i);
    const tbk_explanation *bex = b >= 0 ? tbk_predictor_block_explanation(pr, (size_t)b) : NULL;
    where.len = 0;
    if (bex && tbk_buf_printf(&where, "  (block <%s> %s)", pv.blocks[b].tag, pv.blocks[b].path)) {
      st = TBK_ERR_NOMEM;
      break;
    }
    const char *tag = tbk_node_name(&pv.nodes[u->elem]);
    const char *rule = rule_name(probs, keep, why, o, i);
    if (tbk_buf_printf(out, "\nunit %zu  %s%s%s%s  p_content=%.3f  <%s> ", i + 1, keep[i] ? "kept" : "removed",
                       by_rule(probs, keep, o, i) ? " by a rule" : "", rule ? ": " : "", rule ? rule : "",
                       1.0 - probs[i], tag) ||
        snippet(out, pv.text + u->start, u->end - u->start) || tbk_buf_puts(out, "\n") ||
        stage_text(out, "template", "p_template", bex,
                   bex     ? where.data
                   : b < 0 ? ", in no block"
                           : NULL) ||
        stage_text(out, "content", "p_boilerplate", tbk_predictor_unit_explanation(pr, i), NULL))
      st = TBK_ERR_NOMEM;
  }
  tbk_buf_free(&where);
  return st;
}
