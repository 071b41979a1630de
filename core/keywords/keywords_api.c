/* Keywords in the public API (tbk.h "keywords"): what tbk-keywords does for
 * one page, for library users (the Python module). A thin layer: the page
 * parsed as tbk_kw_page_parse parses it (its <meta> keywords removed), the
 * text denoised and the candidates ranked as tbk-keywords ranks them, the
 * JSONL line tbk-keywords -f jsonl writes. */
#include <stdlib.h>

#include "keywords.h"
#include "model.h"
#include "predict_internal.h"

struct tbk_keyword_table {
  tbk_kw_df *df; /* NULL: idf 1 */
  tbk_kw_ranker ranker;
  int has_ranker;
};

tbk_status tbk_keyword_table_load(const char *df_path, const char *ranker_path, tbk_keyword_table **out,
                                  tbk_error *err) {
  *out = NULL;
  tbk_keyword_table *t = calloc(1, sizeof *t);
  if (!t) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  /* Two files: the message names the one refused. */
  tbk_error e = {0};
  const char *bad = df_path;
  tbk_status st = TBK_OK;
  if (df_path) st = tbk_kw_df_load(df_path, &t->df, &e);
  if (!st && ranker_path) {
    bad = ranker_path;
    st = tbk_kw_ranker_load(ranker_path, &t->ranker, &e);
    t->has_ranker = !st;
  }
  if (st) {
    tbk_keyword_table_free(t);
    return tbk_fail(err, st, "%s: %s", bad, e.msg);
  }
  *out = t;
  return TBK_OK;
}

void tbk_keyword_table_free(tbk_keyword_table *t) {
  if (!t) return;
  tbk_kw_df_free(t->df);
  free(t);
}

tbk_status tbk_keywords_page(tbk_predictor *pr, const tbk_keyword_table *t, const char *data, size_t len,
                             const char *charset_hint, const char *page_id, int denoise, size_t top, tbk_buf *out,
                             tbk_error *err) {
  if (!pr || (!data && len) || denoise < -1 || denoise > 2)
    return tbk_fail(err, TBK_ERR_ARG, "tbk_keywords_page: bad argument");
  const tbk_model *m = tbk_predictor_model(pr);
  if (denoise < 0) denoise = tbk_model_content(m) ? TBK_KW_DENOISE_CONTENT : TBK_KW_DENOISE_TEMPLATE;
  if (denoise == TBK_KW_DENOISE_CONTENT && !tbk_model_content(m))
    return tbk_fail(err, TBK_ERR_ARG, "the model has no content stage (denoising by content needs a two-stage model)");
  tbk_page_options o;
  tbk_model_page_options(m, &o);
  o.charset_hint = charset_hint;
  tbk_page *page = NULL;
  tbk_status st = tbk_kw_page_parse(data ? data : "", len, &o, &page, NULL, err);
  if (st) return st;
  tbk_kw_extractor *x = NULL;
  st = tbk_kw_new(&x, err);
  if (!st) st = tbk_kw_extract_page(x, pr, page, (tbk_kw_denoise)denoise, err);
  if (!st) {
    tbk_kw_rank(x, t ? t->df : NULL, t && t->has_ranker ? &t->ranker : NULL);
    if (tbk_kw_write_jsonl(out, x, page_id ? page_id : "", top)) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  tbk_kw_free(x);
  tbk_page_free(page);
  return st;
}
