/* The in-memory model: its lifetime, its stages and what prediction asks
 * of it. Reading and writing model files is core/model's (model_io.c);
 * training builds models here without knowing the file format. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

void tbk_model_free(tbk_model *m) {
  if (!m) return;
  tbk_encoder_free(&m->enc);
  tbk_nb_free(m->nb);
  free(m->w);
  tbk_model_free(m->content);
  tbk_model_free(m->context);
  tbk_model_free(m->nontext);
  free(m->history);
  free(m);
}

const tbk_model *tbk_model_content(const tbk_model *m) { return m ? m->content : NULL; }

void tbk_model_drop_content(tbk_model *m) {
  if (!m) return;
  tbk_model_free(m->content);
  m->content = NULL;
}

tbk_status tbk_model_attach_content(tbk_model *m, tbk_model *content, tbk_error *err) {
  if (!m || !content || m->content || content->content)
    return tbk_fail(err, TBK_ERR_ARG, "a content stage attaches to a template-only model, once");
  if (tbk_schema_stage(content->schema) != TBK_STAGE_UNITS)
    return tbk_fail(err, TBK_ERR_SCHEMA, "content stage has schema %s, not a tbk-units schema", content->schema);
  if (tbk_schema_stage(m->schema) == TBK_STAGE_UNITS)
    return tbk_fail(err, TBK_ERR_SCHEMA, "template stage has a tbk-units schema (%s)", m->schema);
  m->content = content;
  return TBK_OK;
}

int tbk_model_lang_ok(const char *s, size_t n) {
  int ok = n >= 2 && n < sizeof((tbk_model *)0)->text_lang;
  for (size_t i = 0; ok && i < n; i++) ok = s[i] >= 'a' && s[i] <= 'z';
  return ok;
}

tbk_status tbk_model_attach_nontext(tbk_model *c, tbk_model *nontext, const char *lang, tbk_error *err) {
  if (c && c->content) c = c->content;
  size_t ll = lang ? strlen(lang) : 0;
  if (!tbk_model_lang_ok(lang, ll))
    return tbk_fail(err, TBK_ERR_ARG, "a text model's language is a code of 2-7 letters a-z, not \"%s\"", lang);
  if (!c || !nontext || c->nontext || c->context || nontext->content || nontext->nontext)
    return tbk_fail(err, TBK_ERR_ARG,
                    "a stage without the text model attaches once, to a content stage without a "
                    "contextual pass");
  if (strcmp(c->schema, nontext->schema) != 0 || c->dim != nontext->dim || nontext->enc.parts != TBK_PARTS_NONTEXT)
    return tbk_fail(err, TBK_ERR_SCHEMA,
                    "the stage without the text model is not the content stage's schema (%s) "
                    "fitted with parts nontext",
                    c->schema);
  memcpy(c->text_lang, lang, ll + 1);
  c->nontext = nontext;
  return TBK_OK;
}

const char *tbk_model_schema(const tbk_model *m) { return m->schema; }
void tbk_model_page_options(const tbk_model *m, tbk_page_options *o) {
  tbk_page_options_init(o);
  o->blocks = m->page.blocks;
  o->min_chars = m->page.min_chars;
  o->min_words = m->page.min_words;
}
void tbk_model_feature_options(const tbk_model *m, tbk_feature_options *o) { *o = m->feat; }
size_t tbk_model_operating_points(const tbk_model *m, const tbk_operating_point **ops) {
  *ops = m->ops;
  return m->n_ops;
}

double tbk_model_threshold_for(const tbk_model *m, double precision) {
  const tbk_operating_point *best = NULL;
  for (size_t i = 0; i < m->n_ops; i++)
    if (m->ops[i].precision >= precision - 1e-12 && (!best || m->ops[i].precision < best->precision)) best = &m->ops[i];
  return best ? best->threshold : NAN;
}

double tbk_model_default_threshold(const tbk_model *m) {
  (void)m;
  /* Training balances the classes, so 0.5 is the even-odds point; the
   * operating points are measured on the auto-label distribution, which is
   * mostly template, and are too permissive as a default. */
  return 0.5;
}
