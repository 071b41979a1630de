/* A big page's per-page arrays are given up once they are dead (#19's
 * memory bar): the block features' rows once the blocks are scored, their
 * tokens once the units have read them, the units once the page is
 * rendered. What is given up must leave nothing behind that a later page
 * reads: the same page again, and a small page after a big one, give the
 * bytes a fresh extractor or predictor gives. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "predict_internal.h"
#include "tbk_internal.h"

static const char SMALL[] =
    "<html><head><title>River library reopens - Millbrook Gazette</title></head><body>"
    "<ul class=\"main-nav\"><li><a href=\"/\">Home</a></li><li><a href=\"/local\">Local news</a></li></ul>"
    "<div class=\"article\"><h1>River library reopens after flood</h1>"
    "<p>The Riverside branch of the library reopened on Friday morning, eight months after the river "
    "spilled into its basement.</p></div>"
    "<div class=\"footer\"><p>&copy; 2026 Millbrook Gazette. All rights reserved, every one of them.</p></div>"
    "</body></html>";

/* A page of n sections, each a heading and a paragraph of its own words:
 * a few thousand blocks and units, well past TBK_KEEP_BYTES. */
static void big_page(tbk_buf *b, int n) {
  CHECK_BUF(tbk_buf_puts(b, "<html><head><title>Changelog</title></head><body><ul class=\"nav\">"));
  for (int i = 0; i < 20; i++) CHECK_BUF(tbk_buf_printf(b, "<li><a href=\"/p%d\">Part %d</a></li>", i, i));
  CHECK_BUF(tbk_buf_puts(b, "</ul><div class=\"body\">"));
  for (int i = 0; i < n; i++)
    CHECK_BUF(tbk_buf_printf(b,
                             "<div class=\"section s%d\"><h2>Release %d.%d notes</h2><p>Fixed issue %d in the "
                             "parser module: the tokenizer w%d no longer drops word%d after <code>x%d</code> "
                             "markers, reported by user%d on list %d.</p></div>",
                             i % 7, i / 10, i % 10, i, i, i * 3, i, i % 97, i % 13));
  CHECK_BUF(tbk_buf_puts(b, "</div><div class=\"footer\">Copyright notice of the project.</div></body></html>"));
}

static tbk_page *parse(const tbk_model *m, const char *s, size_t n) {
  tbk_error err = {0};
  tbk_page *p = NULL;
  CHECK_INT(tbk_page_parse_for(m, s, n, NULL, &p, &err), TBK_OK);
  return p;
}

/* Every block's features line and words line. */
static void feature_lines(tbk_features *fx, const tbk_page *p, tbk_buf *out) {
  tbk_error err = {0};
  CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
  for (size_t b = 0; b < tbk_features_blocks(fx); b++) {
    CHECK_INT(tbk_features_format(fx, b, 0, 0, out), 0);
    CHECK_INT(tbk_features_format(fx, b, 0, 1, out), 0);
  }
}

static int same(const tbk_buf *a, const tbk_buf *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static void test_features(const tbk_model *m, const tbk_page *big, const tbk_page *small) {
  tbk_error err = {0};
  tbk_feature_options fo;
  tbk_model_feature_options(m, &fo);
  tbk_features *fx = NULL, *fresh = NULL;
  CHECK_INT(tbk_features_new(&fo, &fx, &err), TBK_OK);
  CHECK_INT(tbk_features_new(&fo, &fresh, &err), TBK_OK);
  tbk_buf first = {0}, again = {0}, s1 = {0}, s2 = {0};
  feature_lines(fx, big, &first);
  CHECK(tbk_features_blocks(fx) > 1000);
  tbk_features_drop_rows(fx);
  CHECK_INT(tbk_features_blocks(fx), 0);
  CHECK(tbk_features_fixed(fx, 0) == NULL);
  CHECK(fx->values == NULL && fx->cap_values == 0 && fx->sp_col == NULL && fx->w_idx == NULL);
  CHECK(fx->n_tok > 0 && fx->tok_word != NULL); /* the units still read them */
  tbk_features_drop_page(fx);
  CHECK(fx->n_tok == 0 && fx->n_voc == 0 && fx->tok_text == NULL && fx->tok_word == NULL);
  feature_lines(fx, big, &again);
  CHECK(first.len > 0 && same(&first, &again));
  tbk_features_drop_page(fx);
  feature_lines(fx, small, &s1);
  feature_lines(fresh, small, &s2);
  CHECK(s1.len > 0 && same(&s1, &s2));
  /* a small page's arrays are kept for the next page */
  tbk_features_drop_page(fx);
  CHECK(fx->values != NULL && fx->cap_values > 0 && fx->tok_word != NULL);
  tbk_buf_free(&first);
  tbk_buf_free(&again);
  tbk_buf_free(&s1);
  tbk_buf_free(&s2);
  tbk_features_free(fx);
  tbk_features_free(fresh);
}

static void render(tbk_predictor *pr, const tbk_page *p, tbk_format fmt, tbk_buf *out) {
  tbk_error err = {0};
  CHECK_INT(tbk_predict_render(pr, p, "page", fmt, NULL, out, &err), TBK_OK);
}

static void test_predictor(const tbk_model *m, const tbk_page *big, const tbk_page *small) {
  tbk_error err = {0};
  tbk_predictor *pr = NULL, *fresh = NULL;
  CHECK_INT(tbk_predictor_new(m, &pr, &err), TBK_OK);
  CHECK_INT(tbk_predictor_new(m, &fresh, &err), TBK_OK);
  if (!pr || !fresh) return;
  const tbk_units *ux = tbk_predictor_units(pr);
  for (tbk_format fmt = TBK_FORMAT_TEXT; fmt <= TBK_FORMAT_JSONL; fmt++) {
    tbk_buf first = {0}, again = {0}, s1 = {0}, s2 = {0};
    render(pr, big, fmt, &first);
    /* given up with the page: nothing of it is left for the next parse */
    CHECK_INT(tbk_units_count(ux), 0);
    CHECK(ux->fixed == NULL && ux->cap_fixed == 0 && ux->u == NULL && ux->nd == NULL && ux->paths.data == NULL);
    render(pr, small, fmt, &s1);
    CHECK(ux->fixed != NULL && ux->cap_fixed > 0); /* kept: small */
    render(pr, big, fmt, &again);
    render(fresh, small, fmt, &s2);
    CHECK(first.len > 1000 && same(&first, &again));
    CHECK(s1.len > 0 && same(&s1, &s2));
    tbk_buf_free(&first);
    tbk_buf_free(&again);
    tbk_buf_free(&s1);
    tbk_buf_free(&s2);
  }
  tbk_predictor_free(pr);
  tbk_predictor_free(fresh);
}

int main(void) {
  tbk_error err = {0};
  tbk_model *m = NULL;
  CHECK_INT(tbk_model_load(TBK_DEFAULT_MODEL, &m, &err), TBK_OK);
  if (!m || !tbk_model_content(m)) return check_report();
  tbk_buf html = {0};
  big_page(&html, 3000);
  tbk_page *big = parse(m, html.data, html.len), *small = parse(m, SMALL, sizeof SMALL - 1);
  if (big && small) {
    test_features(m, big, small);
    test_predictor(m, big, small);
  }
  tbk_page_free(big);
  tbk_page_free(small);
  tbk_buf_free(&html);
  tbk_model_free(m);
  return check_report();
}
