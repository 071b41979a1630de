/* Evaluation metrics (core/eval/eval.c): numbers computed by hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

static void test_ranking(void) {
  /* Curve by decreasing threshold: .9 (1/1, R 1/3), .8 (2/2, R 2/3),
   * .7 (2/3, R 2/3), .6 (3/4, R 1), .5 (3/5, R 1).
   * AP = 1/3 + 1/3 + 0 + 1/3 * 3/4 = 11/12. ROC: of the 6 positive-negative
   * pairs only (.6, .7) is misordered: 5/6. The NaN row is left out. */
  double s[] = {0.9, 0.8, 0.7, 0.6, 0.5, NAN};
  int y[] = {1, 1, -1, 1, -1, 1};
  tbk_ranking r;
  tbk_error err = {0};
  CHECK_INT(tbk_ranking_compute(s, y, 6, &r, &err), TBK_OK);
  CHECK_INT(r.rows, 5);
  CHECK_INT(r.positives, 3);
  CHECK_NEAR(r.average_precision, 11.0 / 12.0, 1e-12);
  CHECK_NEAR(r.roc_auc, 5.0 / 6.0, 1e-12);
  CHECK_INT(r.ncurve, 5);
  CHECK_NEAR(r.curve[2].precision, 2.0 / 3.0, 1e-12);
  CHECK_INT(r.curve[3].tp, 3);
  CHECK_INT(r.curve[3].fp, 1);
  tbk_operating_point op;
  CHECK_INT(tbk_ranking_at_precision(&r, 0.90, &op), 0);
  CHECK_NEAR(op.recall, 2.0 / 3.0, 1e-12);
  CHECK_NEAR(op.threshold, 0.8, 1e-12);
  CHECK_NEAR(op.precision, 1.0, 1e-12);
  CHECK_INT(tbk_ranking_at_precision(&r, 0.70, &op), 0);
  CHECK_NEAR(op.recall, 1.0, 1e-12);
  CHECK_NEAR(op.threshold, 0.6, 1e-12);
  tbk_ranking_free(&r);

  /* A target nobody reaches: predict nothing. */
  double s2[] = {0.9, 0.1};
  int y2[] = {-1, 1};
  CHECK_INT(tbk_ranking_compute(s2, y2, 2, &r, &err), TBK_OK);
  CHECK_INT(tbk_ranking_at_precision(&r, 0.95, &op), -1);
  CHECK_NEAR(op.recall, 0.0, 0);
  CHECK(isinf(op.threshold));
  CHECK_NEAR(r.roc_auc, 0.0, 1e-12);
  tbk_ranking_free(&r);

  /* No template row: no curve, NaN figures, still OK. */
  int y3[] = {-1, -1};
  CHECK_INT(tbk_ranking_compute(s2, y3, 2, &r, &err), TBK_OK);
  CHECK(isnan(r.average_precision));
  CHECK(isnan(r.roc_auc));
  CHECK_INT(r.ncurve, 0);
  tbk_ranking_free(&r);

  int y4[] = {1, 0};
  CHECK_INT(tbk_ranking_compute(s2, y4, 2, &r, &err), TBK_ERR_ARG);
  tbk_ranking_free(&r);
}

static tbk_overlap overlap(tbk_tokenizer *t, const char *pred, const char *gold) {
  tbk_overlap o;
  tbk_error err = {0};
  CHECK_INT(tbk_token_overlap(t, pred, strlen(pred), gold, strlen(gold), &o, &err), TBK_OK);
  return o;
}

static void test_overlap(void) {
  tbk_tokenizer *t;
  tbk_error err = {0};
  CHECK_INT(tbk_tokenizer_new(&t, &err), TBK_OK);
  /* pred: the cat the dog 3.14 (5); gold: the the cat bird (4); the
   * multisets share the, the, cat. */
  tbk_overlap o = overlap(t, "The cat, the DOG: 3.14", "the the cat\nbird");
  CHECK_INT(o.pred_tokens, 5);
  CHECK_INT(o.gold_tokens, 4);
  CHECK_INT(o.common, 3);
  CHECK_NEAR(o.precision, 0.6, 1e-12);
  CHECK_NEAR(o.recall, 0.75, 1e-12);
  CHECK_NEAR(o.f1, 2 * 0.6 * 0.75 / 1.35, 1e-12);
  /* A token repeated in the prediction counts only as often as in gold. */
  o = overlap(t, "spam spam spam", "spam eggs");
  CHECK_INT(o.common, 1);
  CHECK_NEAR(o.precision, 1.0 / 3.0, 1e-12);
  CHECK_NEAR(o.recall, 0.5, 1e-12);
  o = overlap(t, "ÄPFEL und Birnen", "äpfel UND birnen");
  CHECK_NEAR(o.f1, 1.0, 1e-12);
  /* Han: bigrams of the letters in a row, a lone letter alone. */
  o = overlap(t, "東京", "東");
  CHECK_INT(o.pred_tokens, 1);
  CHECK_INT(o.common, 0);
  o = overlap(t, "東京都", "東京");
  CHECK_INT(o.pred_tokens, 2);
  CHECK_NEAR(o.precision, 0.5, 1e-12);
  CHECK_NEAR(o.recall, 1.0, 1e-12);
  o = overlap(t, "", "");
  CHECK_NEAR(o.f1, 1.0, 0);
  CHECK_NEAR(o.precision, 1.0, 0);
  o = overlap(t, " -- ", "...");
  CHECK_NEAR(o.f1, 1.0, 0); /* no tokens on either side: both empty */
  o = overlap(t, "", "gold text");
  CHECK_NEAR(o.f1, 0.0, 0);
  CHECK_NEAR(o.recall, 0.0, 0);
  o = overlap(t, "extra", "");
  CHECK_NEAR(o.precision, 0.0, 0);
  o = overlap(t, "alpha beta", "gamma delta");
  CHECK_INT(o.common, 0);
  CHECK_NEAR(o.f1, 0.0, 0);
  tbk_tokenizer_free(t);
}

static void test_mean_median(void) {
  double v[] = {3, 1, 2, 4}, m, med;
  tbk_mean_median(v, 4, &m, &med);
  CHECK_NEAR(m, 2.5, 1e-12);
  CHECK_NEAR(med, 2.5, 1e-12);
  double w[] = {0.9, 0.1, 0.5};
  tbk_mean_median(w, 3, &m, &med);
  CHECK_NEAR(m, 0.5, 1e-12);
  CHECK_NEAR(med, 0.5, 1e-12);
  tbk_mean_median(w, 0, &m, &med);
  CHECK(isnan(m) && isnan(med));
}

static const char EVALDATA[] =
    "{\n"
    " \"https://a.example/x\": {\"file\": \"a.html\", \"with\": [\"Hello world\", \"caf\\u00e9 \\\"ol\\u00e9\\\"\"],\n"
    "   \"without\": [\"Impressum\", \"hello\"], \"meta\": {\"nested\": [1, 2.5e3, true, null, {\"k\": []}]}},\n"
    " \"b\": {\"with\": [\"\\ud83d\\ude00 smile\"], \"without\": [], \"date\": -3}\n"
    "}\n";

static void test_snippets(void) {
  tbk_snippet_set *set;
  tbk_error err = {0};
  CHECK_INT(tbk_snippets_parse(EVALDATA, strlen(EVALDATA), &set, &err), TBK_OK);
  CHECK_INT(set->n, 2);
  CHECK_STR(set->pages[0].key, "https://a.example/x");
  CHECK_INT(set->pages[0].nwith, 2);
  CHECK_STR(set->pages[0].with[1], "caf\xC3\xA9 \"ol\xC3\xA9\"");
  CHECK_INT(set->pages[0].nwithout, 2);
  CHECK_STR(set->pages[1].with[0], "\xF0\x9F\x98\x80 smile");
  CHECK_INT(set->pages[1].nwithout, 0);

  /* Whitespace differences do not matter, case does. */
  const char *text = "Hello\n  world!\tcaf\xC3\xA9 \"ol\xC3\xA9\" and more";
  tbk_snippet_counts c = {0};
  CHECK_INT(tbk_snippets_count(&set->pages[0], text, strlen(text), &c), 0);
  CHECK_INT(c.tp, 2);
  CHECK_INT(c.fn, 0);
  CHECK_INT(c.fp, 0); /* "hello" is not "Hello" */
  CHECK_INT(c.tn, 2);
  tbk_snippet_counts d = {0};
  CHECK_INT(tbk_snippets_count(&set->pages[0], "Impressum | hello", 17, &d), 0);
  CHECK_INT(d.tp, 0);
  CHECK_INT(d.fn, 2);
  CHECK_INT(d.fp, 2);
  CHECK_INT(d.tn, 0);
  tbk_snippet_counts e = {0};
  CHECK_INT(tbk_snippets_count(&set->pages[0], NULL, 0, &e), 0); /* nothing extracted */
  CHECK_INT(e.fn, 2);
  CHECK_INT(e.tn, 2);
  tbk_snippets_free(set);

  static const char *const bad[] = {
      "",
      "[]",
      "{\"a\": 1}",
      "{\"a\": {\"with\": \"x\"}}",
      "{\"a\": {\"with\": [1]}}",
      "{\"a\": {\"with\": [\"x\",]}}",
      "{\"a\": {\"with\": [\"x\"]},}",
      "{\"a\": {\"with\": [\"unterminated]}}",
      "{\"a\": {\"with\": [\"bad \\q escape\"]}}",
      "{\"a\": {}} trailing",
      /* one string on two lines: 68 levels, deeper than the reader allows */
      ("{\"a\": {\"x\": "
       "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
       "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}"),
      "{\"a\": {\"x\": 01x}}",
      "{\"a\" {}}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    tbk_status st = tbk_snippets_parse(bad[i], strlen(bad[i]), &set, &err);
    if (st != TBK_ERR_FORMAT) fprintf(stderr, "bad JSON %zu accepted: %s\n", i, bad[i]);
    CHECK_INT(st, TBK_ERR_FORMAT);
    CHECK(set == NULL);
    CHECK(strstr(err.msg, "invalid JSON at byte") != NULL);
  }
  CHECK_INT(tbk_snippets_parse("{}", 2, &set, &err), TBK_OK);
  CHECK_INT(set->n, 0);
  tbk_snippets_free(set);
}

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
  return n;
}

static void test_svg(void) {
  size_t n = 20000;
  tbk_eval_point *pts = malloc(n * sizeof *pts);
  for (size_t i = 0; i < n; i++)
    pts[i] = (tbk_eval_point){1.0 - (double)i / (double)n, 1.0 - 0.3 * (double)i / (double)n,
                              (double)(i + 1) / (double)n, i + 1, 0};
  tbk_plot_curve curves[2] = {{"a & b", pts, n}, {"<c>", pts, 10}};
  tbk_buf svg = {0};
  tbk_error err = {0};
  CHECK_INT(tbk_pr_svg(curves, 2, "PR \"curves\"", 0.25, &svg, &err), TBK_OK);
  CHECK(strncmp(svg.data, "<?xml", 5) == 0);
  CHECK(strstr(svg.data, "</svg>\n") != NULL);
  CHECK_INT(count(svg.data, "<polyline"), 2);
  CHECK(strstr(svg.data, "a &amp; b") != NULL);
  CHECK(strstr(svg.data, "&lt;c&gt;") != NULL);
  CHECK(strstr(svg.data, "PR &quot;curves&quot;") != NULL);
  CHECK(strstr(svg.data, "template share 0.250") != NULL);
  /* 20000 points on a plot ~600 px wide: thinned to a few thousand. */
  CHECK(svg.len < 80000);
  CHECK(count(svg.data, ",") > 600);
  /* The last point (recall 1, precision 0.7) is always drawn. */
  char last[64];
  snprintf(last, sizeof last, " %.1f,%.1f\"", 80 + 1.0 * (720 - 80 - 30), 540 - 70 - 0.7 * (540 - 60 - 70));
  CHECK(strstr(svg.data, last) != NULL);
  tbk_buf_free(&svg);

  /* A long title is broken into two lines at the space nearest its middle;
   * a line still too long gets a smaller font. */
  CHECK_INT(tbk_pr_svg(curves, 1,
                       "tbk, cross-site CV on site_mirrors+debian_docs+swde_wren (82 sites, 10 folds) "
                       "and some more words",
                       NAN, &svg, &err),
            TBK_OK);
  CHECK_INT(count(svg.data, "font-weight=\"bold\""), 2);
  CHECK(strstr(svg.data, "font-size=\"16.0\" font-weight=\"bold\">tbk, cross-site CV on "
                         "site_mirrors+debian_docs+swde_wren</text>") != NULL);
  CHECK(strstr(svg.data, "font-size=\"16.0\" font-weight=\"bold\">(82 sites, 10 folds) and some more words</text>") !=
        NULL);
  tbk_buf_free(&svg);
  CHECK_INT(
      tbk_pr_svg(curves, 1, "x x_very_long_single_token_that_cannot_be_broken_anywhere_at_all_0123456789_abcdefghij",
                 NAN, &svg, &err),
      TBK_OK);
  /* 86 characters: the space at 1 is the only one, so line 2 has 84 */
  CHECK(strstr(svg.data, "font-size=\"12.6\" font-weight=\"bold\">x_very_long") != NULL);
  CHECK(strstr(svg.data, "random ranking") == NULL);
  tbk_buf_free(&svg);
  free(pts);
}

int main(void) {
  test_ranking();
  test_overlap();
  test_mean_median();
  test_snippets();
  test_svg();
  return check_report();
}
