/* Numbers in files do not follow the process locale. A host program that
 * calls setlocale(LC_ALL, "") under a comma-decimal LC_NUMERIC (any Python
 * host, any GUI) once could not load the shipped model and wrote "0,5"
 * into rows, JSON Lines and models. Here the whole chain runs twice in one
 * process, in the C locale and in de_DE.UTF-8 (compiled into the test's
 * temporary directory with localedef: the machine need not have it), and
 * every output must be byte for byte the same. Skips (77) when localedef
 * or the de_DE sources are missing. */
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "model.h"
#include "tbk_internal.h"

#define TMP TBK_TEST_TMP "/locale"

static const char PAGE[] =
    "<html><head><title>River library reopens - Millbrook Gazette</title></head><body>"
    "<div id=\"top\"><ul class=\"main-nav\"><li><a href=\"/\">Home</a></li><li><a href=\"/local\">Local news</a></li>"
    "<li><a href=\"/sports\">Sports and weather</a></li><li><a href=\"/opinion\">Opinion</a></li></ul></div>"
    "<div class=\"article\"><h1>River library reopens after flood</h1>"
    "<p>The Riverside branch of the library reopened on Friday morning, eight months after the river "
    "spilled into its basement, and the first visitors were waiting at the door.</p>"
    "<div class=\"box\">Volunteers moved 40,000 books back to the shelves, 2.5 km of them, the director said.</div>"
    "</div>"
    "<div class=\"footer\"><p>&copy; 2026 Millbrook Gazette. All rights reserved, every one of them.</p></div>"
    "</body></html>";

enum { MODEL, JSONL, UNITS_JSONL, HTML, UNITS_HTML, ROWS, WORDS, UNIT_ROWS, SVG, TRAINED, NOUT };
static const char *const NAMES[NOUT] = {
    "model",      "jsonl",     "units jsonl", "annotated html", "annotated units html", "features rows",
    "words rows", "unit rows", "svg",         "trained model"};

/* glibc's setlocale keeps the LOCPATH search list it builds (two small
 * blocks per call): not ours, so LeakSanitizer is told to look away. */
__attribute__((used)) const char *__lsan_default_suppressions(void) { return "leak:__argz_add_sep\n"; }

static int put(const char *path, const tbk_buf *b) {
  FILE *f = fopen(path, "wb");
  int bad = !f || (b->len && fwrite(b->data, 1, b->len, f) != b->len);
  if (f && fclose(f)) bad = 1;
  return bad ? -1 : 0;
}

/* Everything that writes or reads numbers, once; outputs into out[]. */
static void run(const char *phase, tbk_buf *out) {
  tbk_error err = {0};
  tbk_model *m = NULL;
  CHECK_INT(tbk_model_load(TBK_DEFAULT_MODEL, &m, &err), TBK_OK);
  if (!m) {
    fprintf(stderr, "%s: the shipped model: %s\n", phase, err.msg);
    return;
  }
  CHECK_INT(tbk_model_write(m, &out[MODEL], &err), TBK_OK);
  tbk_predictor *pr = NULL;
  CHECK_INT(tbk_predictor_new(m, &pr, &err), TBK_OK);
  tbk_page_options po;
  tbk_model_page_options(m, &po);
  tbk_page *p = NULL;
  CHECK_INT(tbk_page_parse(PAGE, sizeof PAGE - 1, &po, &p, &err), TBK_OK);
  if (!pr || !p) return;
  const double *bp, *up;
  CHECK_INT(tbk_predict_page(pr, p, &bp, &err), TBK_OK);
  CHECK_INT(tbk_render_jsonl(p, "page", bp, 0.5, &out[JSONL]), TBK_OK);
  CHECK_INT(tbk_render_html(p, bp, 0.5, 1, &out[HTML]), TBK_OK);
  CHECK_INT(tbk_predict_units(pr, p, &bp, &up, &err), TBK_OK);
  const tbk_units *ux = tbk_predictor_units(pr);
  size_t nu = tbk_units_count(ux);
  unsigned char *keep = malloc(nu ? nu : 1);
  tbk_content_options co;
  tbk_content_options_init(&co);
  tbk_content_decide(p, ux, up, &co, keep);
  CHECK_INT(tbk_render_units_jsonl(p, ux, "page", up, keep, &out[UNITS_JSONL]), TBK_OK);
  CHECK_INT(tbk_render_units_html(p, ux, keep, up, 1, &out[UNITS_HTML]), TBK_OK);
  for (size_t i = 0; i < nu; i++) CHECK_INT(tbk_units_format(ux, i, keep[i] ? -1 : 1, 0, &out[UNIT_ROWS]), 0);
  free(keep);

  /* Features rows, read back as a dataset (two sites of the same page),
   * trained on and written as a model. */
  tbk_feature_options fo;
  tbk_model_feature_options(m, &fo);
  tbk_features *fx = NULL;
  CHECK_INT(tbk_features_new(&fo, &fx, &err), TBK_OK);
  CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
  size_t nb = tbk_page_block_count(p);
  tbk_buf meta = {0};
  CHECK_BUF(tbk_buf_printf(
      &meta,
      "{\"schema\":\"%s\",\"dim\":%zu,\"word_dims\":%u,\"attr_dims\":%u,\"bigrams\":%d,\"blocks\":\"%s\","
      "\"min_chars\":%zu,\"min_words\":%zu}\n",
      tbk_features_schema_id(fx), tbk_features_dim(fx), fo.word_dims, fo.attr_dims, fo.bigrams ? 1 : 0,
      po.blocks == TBK_BLOCKS_HTML5 ? "html5" : "paper", po.min_chars, po.min_words));
  for (int site = 0; site < 2; site++)
    for (size_t b = 0; b < nb; b++) {
      int label = b % 2 ? 1 : -1;
      CHECK_INT(tbk_features_format(fx, b, label, 0, &out[ROWS]), 0);
      CHECK_INT(tbk_features_format(fx, b, label, 1, &out[WORDS]), 0);
      CHECK_BUF(tbk_buf_printf(&meta, "{\"site\":\"s%d\"}\n", site));
    }
  char svm[512], words[512], metap[512];
  snprintf(svm, sizeof svm, TMP "/%s.svm", phase);
  snprintf(words, sizeof words, TMP "/%s.words", phase);
  snprintf(metap, sizeof metap, TMP "/%s.meta", phase);
  CHECK(put(svm, &out[ROWS]) == 0 && put(words, &out[WORDS]) == 0 && put(metap, &meta) == 0);
  tbk_dataset *ds = NULL;
  CHECK_INT(tbk_dataset_new(NULL, 0, 0, &ds, &err), TBK_OK);
  CHECK_INT(tbk_dataset_read(ds, svm, words, metap, NULL, NULL, &err), TBK_OK);
  CHECK_INT(tbk_dataset_rows(ds), 2 * nb);
  /* the values read back are the values written (to %.9g) */
  for (size_t b = 0; b < nb && tbk_dataset_rows(ds) == 2 * nb; b++)
    for (size_t j = 0; j < ds->dim; j++) {
      double a = tbk_dataset_value(ds, b, (uint32_t)j), w = tbk_features_values(fx, b)[j];
      CHECK_NEAR(a, w, 1e-8 * fmax(1.0, fabs(w)));
    }
  tbk_train_options to;
  tbk_train_options_init(&to);
  to.cv_folds = 0;
  to.nb_folds = 2;
  tbk_model *trained = NULL;
  CHECK_INT(tbk_train(ds, &to, NULL, NULL, &trained, &err), TBK_OK);
  if (trained) {
    CHECK_INT(tbk_model_write(trained, &out[TRAINED], &err), TBK_OK);
    tbk_model *again = NULL;
    tbk_buf back = {0};
    CHECK_INT(tbk_model_parse(out[TRAINED].data, out[TRAINED].len, &again, &err), TBK_OK);
    if (again) CHECK_INT(tbk_model_write(again, &back, &err), TBK_OK);
    CHECK(back.len == out[TRAINED].len && memcmp(back.data, out[TRAINED].data, back.len) == 0);
    tbk_buf_free(&back);
    tbk_model_free(again);
    tbk_model_free(trained);
  }

  tbk_eval_point pts[] = {{0.9, 1.0, 0.25, 1, 0}, {0.5, 0.75, 0.5, 3, 1}, {0.1, 0.5, 1.0, 4, 4}};
  tbk_plot_curve curve = {"model", pts, 3};
  CHECK_INT(tbk_pr_svg(&curve, 1, "PR", 0.375, &out[SVG], &err), TBK_OK);

  /* JSON numbers are read in the same form */
  tbk_jsonl_obj *o = NULL;
  const char *js = "{\"p\":0.25,\"q\":-1.5e-3}";
  CHECK_INT(tbk_jsonl_parse(js, strlen(js), &o, &err), TBK_OK);
  if (o) {
    CHECK(tbk_jsonl_num(o, "p", 0) == 0.25);
    CHECK(tbk_jsonl_num(o, "q", 0) == -1.5e-3);
  }
  tbk_jsonl_free(o);
  char *end;
  CHECK(tbk_strtod("0.5x", &end) == 0.5 && *end == 'x');
  char num[32];
  CHECK_INT(tbk_snprintf(num, sizeof num, "%.3f|%g", 0.125, 2.5), 9);
  CHECK_STR(num, "0.125|2.5");

  tbk_buf_free(&meta);
  tbk_dataset_free(ds);
  tbk_features_free(fx);
  tbk_page_free(p);
  tbk_predictor_free(pr);
  tbk_model_free(m);
}

int main(void) {
  mkdir(TBK_TEST_TMP, 0777);
  mkdir(TMP, 0777);
  /* de_DE.UTF-8 compiled here (glibc finds it through LOCPATH). */
  struct stat st;
  if (stat(TMP "/de_DE.UTF-8/LC_NUMERIC", &st) != 0) {
    if (system("command -v localedef >/dev/null 2>&1") != 0) {
      printf("skipped: localedef not found (Debian package locales)\n");
      return 77;
    }
    /* exit status 1 is "warnings issued": the locale is written anyway */
    int rc = system("localedef -i de_DE -f UTF-8 '" TMP "/de_DE.UTF-8' >'" TMP "/localedef.log' 2>&1");
    if (rc == -1 || stat(TMP "/de_DE.UTF-8/LC_NUMERIC", &st) != 0) {
      printf("skipped: localedef -i de_DE -f UTF-8 failed (see %s/localedef.log)\n", TMP);
      return 77;
    }
  }
  setenv("LOCPATH", TMP, 1);

  tbk_buf c[NOUT] = {{0}}, de[NOUT] = {{0}};
  run("C", c);
  if (!setlocale(LC_ALL, "de_DE.UTF-8")) {
    printf("skipped: setlocale(LC_ALL, \"de_DE.UTF-8\") failed with LOCPATH=%s\n", TMP);
    return 77;
  }
  /* the defect's premise: this process's printf writes a decimal comma */
  char probe[16];
  snprintf(probe, sizeof probe, "%.1f", 0.5);
  CHECK_STR(probe, "0,5");
  run("de_DE", de);
  for (int k = 0; k < NOUT; k++) {
    check_count++;
    if (c[k].len == 0 || c[k].len != de[k].len || memcmp(c[k].data, de[k].data, c[k].len) != 0) {
      check_failures++;
      size_t i = 0;
      while (i < c[k].len && i < de[k].len && c[k].data[i] == de[k].data[i]) i++;
      fprintf(stderr, "%s: de_DE.UTF-8 output differs from the C locale's at byte %zu of %zu / %zu\n", NAMES[k], i,
              c[k].len, de[k].len);
    }
    tbk_buf_free(&c[k]);
    tbk_buf_free(&de[k]);
  }
  setlocale(LC_ALL, "C");
  return check_report();
}
