#define _GNU_SOURCE /* memmem */
/* The content stage: leaf text units cover every visible text run exactly
 * once, their features see the structure of a hand-made page, gold labels
 * come out right, and a two-stage model survives a write/parse round trip
 * with its template stage untouched. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "predict_internal.h"
#include "tbk_internal.h"

static const char PAGE[] =
    "<html><head><title>River library reopens after flood - Millbrook Gazette</title></head><body>"
    "<div id=\"top\"><ul class=\"main-nav\"><li><a href=\"/\">Home</a></li><li><a href=\"/local\">Local</a></li>"
    "<li><a href=\"/sports\">Sports</a></li></ul></div>"
    "Loose text before the article"
    "<div class=\"article-body\"><h1>River library reopens after flood</h1>"
    "<p class=\"byline\">By Ann Smith</p>"
    "<p>The Riverside branch of the library reopened on Friday morning, eight months after the river "
    "spilled into its basement, and the first visitors were waiting at the door.</p>"
    "<p>Volunteers moved forty thousand books back to the shelves, the director said, and the children's "
    "room has new carpet, new shelves and a reading nook by the window.</p>"
    "<div>Lead text of a div <p>with a nested paragraph inside it that ends here.</p> and its tail</div>"
    "</div>"
    "<div class=\"footer\"><p>&copy; 2026 Millbrook Gazette. All rights reserved.</p></div>"
    "</body></html>";

static const char GOLD[] =
    "River library reopens after flood\n"
    "The Riverside branch of the library reopened on Friday morning, eight months after the river spilled "
    "into its basement, and the first visitors were waiting at the door.\n"
    "Volunteers moved forty thousand books back to the shelves, the director said, and the children's room "
    "has new carpet, new shelves and a reading nook by the window.\n";

static size_t find_unit(const tbk_units *ux, const tbk_page *p, const char *needle) {
  for (size_t i = 0; i < tbk_units_count(ux); i++) {
    tbk_unit u;
    tbk_units_get(ux, p, i, &u);
    if (u.text_len >= strlen(needle) && memmem(u.text, u.text_len, needle, strlen(needle))) return i;
  }
  return (size_t)-1;
}

static double feat(const tbk_units *ux, size_t unit, const char *name) {
  for (size_t j = 0; j < tbk_units_dim(ux); j++)
    if (strcmp(tbk_units_name(ux, j), name) == 0) return tbk_units_values(ux, unit)[j];
  fprintf(stderr, "no feature %s\n", name);
  check_failures++;
  return NAN;
}

static void test_segmentation(tbk_units *ux, const tbk_page *p) {
  CHECK_INT(tbk_units_page(ux, p, NULL, NULL), TBK_OK);
  size_t n = tbk_units_count(ux);
  /* nav items 3, loose text 1, h1, byline, 2 paragraphs, div lead, nested
   * p, div tail, footer */
  CHECK_INT(n, 12);
  /* Full coverage: the units' texts, in order, are the page text with the
   * separating spaces removed; no unit overlaps another. */
  size_t len;
  const char *text = tbk_page_text(p, &len);
  size_t nonspace = 0, covered = 0;
  for (size_t i = 0; i < len; i++) nonspace += text[i] != ' ';
  uint32_t last_end = 0;
  for (size_t i = 0; i < n; i++) {
    tbk_unit u;
    CHECK_INT(tbk_units_get(ux, p, i, &u), 0);
    CHECK(u.start >= last_end);
    CHECK(u.end > u.start);
    last_end = u.end;
    for (size_t k = 0; k < u.text_len; k++) covered += u.text[k] != ' ';
  }
  CHECK_INT(covered, nonspace);
  /* The div's own text is two units around its nested paragraph, told
   * apart by their ordinal. */
  size_t lead = find_unit(ux, p, "Lead text of a div"), tail = find_unit(ux, p, "and its tail");
  size_t nested = find_unit(ux, p, "with a nested paragraph");
  CHECK(lead + 1 == nested && nested + 1 == tail);
  tbk_unit a, b;
  tbk_units_get(ux, p, lead, &a);
  tbk_units_get(ux, p, tail, &b);
  CHECK(strcmp(a.path, "/html[1]/body[1]/div[2]/div[1]#1") == 0);
  CHECK(strcmp(b.path, "/html[1]/body[1]/div[2]/div[1]#2") == 0);
  CHECK(strcmp(a.tag, "div") == 0);
  size_t loose = find_unit(ux, p, "Loose text before");
  tbk_unit l;
  tbk_units_get(ux, p, loose, &l);
  CHECK(strcmp(l.path, "/html[1]/body[1]#1") == 0);
  CHECK(strcmp(tbk_units_title(ux), "River library reopens after flood - Millbrook Gazette") == 0);
}

static void test_features(tbk_units *ux, const tbk_page *p) {
  size_t home = find_unit(ux, p, "Home"), para = find_unit(ux, p, "The Riverside branch");
  size_t h1 = find_unit(ux, p, "River library reopens"), foot = find_unit(ux, p, "All rights reserved");
  CHECK(feat(ux, home, "u.link_char_ratio") == 1.0);
  CHECK(feat(ux, para, "u.link_char_ratio") == 0.0);
  CHECK(feat(ux, home, "anc.li") == 1.0 && feat(ux, home, "anc.list") == 1.0);
  CHECK(feat(ux, para, "anc.li") == 0.0);
  CHECK(feat(ux, para, "line.tag.p") == 1.0 && feat(ux, h1, "line.tag.h1") == 1.0);
  CHECK(feat(ux, h1, "u.heading") == 1.0 && feat(ux, h1, "u.first_h1") == 1.0);
  CHECK(feat(ux, h1, "title.cover") > 0.6 && feat(ux, h1, "title.unit_share") == 1.0);
  CHECK(feat(ux, para, "u.sentences") == 1.0 && feat(ux, para, "u.ends_with_terminal") == 1.0);
  CHECK(feat(ux, para, "u.stopword_ratio") > 0.2);
  CHECK(feat(ux, foot, "u.copyright") == 1.0);
  /* The article's paragraphs are the page's densest region; the nav and
   * the footer are outside it. */
  CHECK(feat(ux, para, "region.in_best") == 1.0);
  CHECK(feat(ux, home, "region.in_best") == 0.0 && feat(ux, home, "region.before_best") == 1.0);
  CHECK(feat(ux, foot, "region.after_best") == 1.0);
  CHECK(feat(ux, para, "region.in_span") == 1.0 && feat(ux, home, "region.in_span") == 0.0);
  CHECK(feat(ux, para, "attr.anc.word.article") == 1.0 && feat(ux, home, "attr.near.word.nav") == 1.0);
  CHECK(feat(ux, foot, "attr.anc.word.footer") == 1.0);
  CHECK(feat(ux, para, "u.chars_rank") <= 2.0);
  /* Without a template stage its features are 0. */
  CHECK(feat(ux, home, "tmpl.p") == 0.0 && feat(ux, home, "tmpl.in_block") == 0.0);
  /* words: ascending indices, counts add up to the unit's tokens */
  const uint32_t *idx, *cnt;
  size_t nw = tbk_units_words(ux, para, &idx, &cnt);
  uint32_t total = 0;
  for (size_t k = 0; k < nw; k++) {
    total += cnt[k];
    if (k) CHECK(idx[k] > idx[k - 1]);
  }
  CHECK_INT(total, (long long)feat(ux, para, "u.words"));
  /* svmlight line: label then ascending 1-based indices */
  tbk_buf line = {0};
  CHECK_INT(tbk_units_format(ux, para, -1, 0, &line), 0);
  CHECK(strncmp(line.data, "-1 1:", 5) == 0);
  tbk_buf_free(&line);
}

static void test_gold(tbk_units *ux, const tbk_page *p) {
  size_t n = tbk_units_count(ux);
  signed char *lab = calloc(n, 1);
  double *share = calloc(n, sizeof *share);
  CHECK_INT(tbk_units_gold_labels(ux, p, GOLD, strlen(GOLD), 0.5, lab, share, NULL), TBK_OK);
  CHECK_INT(tbk_units_count(ux), n);
  for (size_t i = 0; i < n; i++) {
    tbk_unit u;
    tbk_units_get(ux, p, i, &u);
    int content = memmem(u.text, u.text_len, "River library", 13) || memmem(u.text, u.text_len, "Riverside", 9) ||
                  memmem(u.text, u.text_len, "Volunteers", 10);
    if (content) CHECK(lab[i] == -1 && share[i] == 1.0);
    else CHECK(lab[i] == 1);
  }
  /* no gold at all: everything with words is boilerplate */
  CHECK_INT(tbk_units_gold_labels(ux, p, "", 0, 0.5, lab, NULL, NULL), TBK_OK);
  for (size_t i = 0; i < n; i++) CHECK(lab[i] == 1);
  free(lab);
  free(share);
}

/* Links that cut words ("un<a>der</a>water", "caf<a>é</a>s"): the
 * template features' pieces end there, so the units tokenize those words
 * themselves and take the rest from the template features' pass; every
 * unit comes out as the units tokenizing all of their text make it. */
static void test_shared_tokens(void) {
  static const char cut[] =
      "<html><head><title>Cut words</title></head><body><div><p>Sell<a href=\"/a\">ing</a> old books in "
      "caf\xc3\xa9s and un<a href=\"/b\">der</a>water stalls, the <b>bo</b>ok<a href=\"/c\">shop</a>s say. "
      "Then caf<a href=\"/d\">\xc3\xa9</a>s na\xc3\xafve<a href=\"/e\">ly</a> sell <a href=\"/f\">more</a> "
      "books than ever.</p><p>A plain paragraph of plain words.</p><ul><li>x<a href=\"/g\">y</a>z</li></ul>"
      "</div></body></html>";
  tbk_page *p = NULL;
  tbk_features *fx = NULL;
  tbk_units *a = NULL, *b = NULL;
  CHECK_INT(tbk_page_parse(cut, sizeof cut - 1, NULL, &p, NULL), TBK_OK);
  CHECK_INT(tbk_features_new(NULL, &fx, NULL), TBK_OK);
  CHECK_INT(tbk_units_new(NULL, &a, NULL), TBK_OK);
  CHECK_INT(tbk_units_new(NULL, &b, NULL), TBK_OK);
  if (!p || !fx || !a || !b) return;
  CHECK_INT(tbk_features_page(fx, p, NULL), TBK_OK);
  CHECK_INT(tbk_units_page_with(a, p, NULL, fx, NULL), TBK_OK);
  CHECK_INT(tbk_units_page(b, p, NULL, NULL), TBK_OK);
  size_t n = tbk_units_count(a);
  CHECK_INT(n, tbk_units_count(b));
  CHECK(n >= 3);
  for (size_t i = 0; i < n && i < tbk_units_count(b); i++) {
    const uint32_t *ia, *ca, *ib, *cb;
    size_t na = tbk_units_words(a, i, &ia, &ca), nb = tbk_units_words(b, i, &ib, &cb);
    CHECK_INT(na, nb);
    CHECK(na == nb && memcmp(ia, ib, na * sizeof *ia) == 0 && memcmp(ca, cb, na * sizeof *ca) == 0);
    CHECK(memcmp(tbk_units_fixed(a, i), tbk_units_fixed(b, i), UX_FIXED_COUNT * sizeof(double)) == 0);
  }
  /* "underwater", "bookshops", "naïvely" are one word each: 19 */
  size_t first = find_unit(a, p, "Selling");
  CHECK(first < n && feat(a, first, "u.words") == 19);
  /* its words line (more than 16 words: folded through the bitmap of
   * buckets): ascending, "books" and "cafés" counted twice */
  const uint32_t *wi, *wc;
  size_t nw = first < n ? tbk_units_words(a, first, &wi, &wc) : 0, sum = 0, twice = 0;
  for (size_t k = 0; k < nw; k++) {
    sum += wc[k];
    twice += wc[k] == 2;
    CHECK(k == 0 || wi[k - 1] < wi[k]);
  }
  CHECK_INT(nw, 17);
  CHECK_INT(sum, 19);
  CHECK_INT(twice, 2);
  tbk_units_free(a);
  tbk_units_free(b);
  tbk_features_free(fx);
  tbk_page_free(p);
}

/* A dataset of the units of a few synthetic pages: labels from a gold. */
static tbk_dataset *unit_dataset(tbk_units *ux) {
  tbk_dataset *ds = NULL;
  CHECK_INT(tbk_dataset_new(tbk_units_schema_id(ux), (uint32_t)tbk_units_dim(ux), TBK_UNITS_WORD_DIMS, &ds, NULL),
            TBK_OK);
  for (int site = 0; site < 4; site++) {
    tbk_page *p = NULL;
    CHECK_INT(tbk_page_parse(PAGE, sizeof PAGE - 1, NULL, &p, NULL), TBK_OK);
    size_t n = 0;
    CHECK_INT(tbk_units_page(ux, p, NULL, NULL), TBK_OK);
    n = tbk_units_count(ux);
    signed char *lab = calloc(n, 1);
    tbk_units_gold_labels(ux, p, GOLD, strlen(GOLD), 0.5, lab, NULL, NULL);
    CHECK_INT(tbk_units_page(ux, p, NULL, NULL), TBK_OK);
    char name[16];
    snprintf(name, sizeof name, "site%d", site);
    for (size_t i = 0; i < n; i++) {
      const uint32_t *idx, *cnt;
      size_t nw = tbk_units_words(ux, i, &idx, &cnt);
      if (lab[i]) CHECK_INT(tbk_dataset_add(ds, name, lab[i], tbk_units_values(ux, i), idx, cnt, nw, NULL), TBK_OK);
    }
    free(lab);
    tbk_page_free(p);
  }
  return ds;
}

/* Training options for a few synthetic pages: no cross-validation, two
 * Naive-Bayes folds. */
static tbk_train_options quick_options(void) {
  tbk_train_options opt;
  tbk_train_options_init(&opt);
  opt.cv_folds = 0;
  opt.nb_folds = 2;
  return opt;
}

/* The shipped model's template stage alone (it is two-stage already). */
static tbk_model *template_model(void) {
  tbk_model *tmpl = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_model_load(TBK_DEFAULT_MODEL, &tmpl, &err), TBK_OK);
  if (!tmpl || !tbk_model_content(tmpl)) return tmpl;
  tbk_buf t = {0};
  tbk_model *base = NULL, *c = tmpl->content;
  tmpl->content = NULL;
  CHECK_INT(tbk_model_write(tmpl, &t, &err), TBK_OK);
  tbk_model_free(c);
  tbk_model_free(tmpl);
  CHECK_INT(tbk_model_parse(t.data, t.len, &base, &err), TBK_OK);
  tbk_buf_free(&t);
  return base;
}

static void test_two_stage(tbk_units *ux) {
  tbk_model *tmpl = NULL, *content = NULL, *again = NULL;
  tbk_error err = {0};
  tmpl = template_model();
  if (!tmpl) return;
  tbk_buf before = {0};
  CHECK_INT(tbk_model_write(tmpl, &before, &err), TBK_OK);
  tbk_dataset *ds = unit_dataset(ux);
  tbk_train_options opt = quick_options();
  CHECK_INT(tbk_train(ds, &opt, NULL, NULL, &content, &err), TBK_OK);
  /* a template model is not a content stage, and the other way round */
  CHECK_INT(tbk_model_attach_content(content, tmpl, NULL), TBK_ERR_SCHEMA);
  CHECK_INT(tbk_model_attach_content(tmpl, content, &err), TBK_OK);
  CHECK(tbk_model_content(tmpl) == content);
  tbk_buf one = {0}, two = {0};
  CHECK_INT(tbk_model_write(tmpl, &one, &err), TBK_OK);
  CHECK(strncmp(one.data, "tbk-model 2\nstage template\n", 27) == 0);
  /* the template stage is written byte for byte as before */
  CHECK(memmem(one.data, one.len, before.data, before.len) == one.data + 27);
  CHECK_INT(tbk_model_parse(one.data, one.len, &again, &err), TBK_OK);
  if (again) {
    CHECK(tbk_model_content(again) != NULL);
    CHECK_INT(tbk_model_write(again, &two, &err), TBK_OK);
    CHECK(one.len == two.len && memcmp(one.data, two.data, one.len) == 0);
  }
  /* truncated anywhere, or cut right after the template stage: refused */
  tbk_model *bad = NULL;
  for (size_t cut = 1; cut < one.len; cut += one.len / 17 + 1) {
    CHECK_INT(tbk_model_parse(one.data, cut, &bad, NULL), TBK_ERR_MODEL);
    CHECK(bad == NULL);
  }
  CHECK_INT(tbk_model_parse(one.data, 27 + before.len, &bad, &err), TBK_ERR_MODEL);
  /* something appended after a complete file is named as such */
  tbk_buf junk = {0};
  CHECK_BUF(tbk_buf_append(&junk, one.data, one.len));
  CHECK_BUF(tbk_buf_puts(&junk, "junk\n"));
  CHECK_INT(tbk_model_parse(junk.data, junk.len, &bad, &err), TBK_ERR_MODEL);
  CHECK(strstr(err.msg, "content after the checksum line") != NULL);
  tbk_buf_free(&junk);
  /* one flipped byte in the content stage: refused */
  one.data[one.len - 100] ^= 1;
  CHECK_INT(tbk_model_parse(one.data, one.len, &bad, NULL), TBK_ERR_MODEL);

  /* Predicting with the two-stage model: the template stage gives the
   * same probabilities as the template model alone, and the content stage
   * keeps the article and drops the navigation. */
  if (again) {
    tbk_model *alone = NULL;
    CHECK_INT(tbk_model_parse(before.data, before.len, &alone, &err), TBK_OK);
    tbk_predictor *p1 = NULL, *p2 = NULL;
    CHECK_INT(tbk_predictor_new(alone, &p1, &err), TBK_OK);
    CHECK_INT(tbk_predictor_new(again, &p2, &err), TBK_OK);
    tbk_page_options po;
    tbk_model_page_options(again, &po);
    tbk_page *p = NULL;
    CHECK_INT(tbk_page_parse(PAGE, sizeof PAGE - 1, &po, &p, &err), TBK_OK);
    const double *a, *b, *u;
    CHECK_INT(tbk_predict_page(p1, p, &a, &err), TBK_OK);
    size_t nb = tbk_page_block_count(p);
    double *copy = malloc((nb ? nb : 1) * sizeof *copy);
    memcpy(copy, a, nb * sizeof *copy);
    CHECK_INT(tbk_predict_units(p2, p, &b, &u, &err), TBK_OK);
    CHECK(memcmp(copy, b, nb * sizeof *copy) == 0);
    CHECK_INT(tbk_predict_units(p1, p, &b, &u, NULL), TBK_ERR_ARG);
    const tbk_units *pu = tbk_predictor_units(p2);
    size_t n = tbk_units_count(pu);
    unsigned char *keep = malloc(n);
    tbk_content_options co;
    tbk_content_options_init(&co);
    tbk_content_decide(p, pu, u, &co, keep);
    tbk_buf text = {0};
    tbk_page_summary sum;
    CHECK_INT(tbk_render_units_text(p, pu, keep, &co, &text, &sum), TBK_OK);
    CHECK(strstr(text.data, "The Riverside branch") != NULL);
    CHECK(strstr(text.data, "Volunteers moved") != NULL);
    CHECK(strstr(text.data, "Home") == NULL);
    CHECK(strstr(text.data, "All rights reserved") == NULL);
    /* the headline is the first line, once */
    CHECK(strncmp(text.data, "River library reopens after flood\n", 34) == 0);
    CHECK(strstr(text.data + 1, "River library reopens after flood") == NULL);
    CHECK_INT(sum.blocks, n);
    tbk_buf js = {0};
    CHECK_INT(tbk_render_units_jsonl(p, pu, "page", u, keep, &js), TBK_OK);
    size_t lines = 0;
    for (size_t k = 0; k < js.len; k++) lines += js.data[k] == '\n';
    CHECK_INT(lines, n);
    tbk_buf_free(&js);
    tbk_buf_free(&text);
    free(keep);
    free(copy);
    tbk_page_free(p);
    tbk_predictor_free(p1);
    tbk_predictor_free(p2);
    tbk_model_free(alone);
  }
  tbk_buf_free(&before);
  tbk_buf_free(&one);
  tbk_buf_free(&two);
  tbk_model_free(again);
  tbk_model_free(tmpl);
  tbk_dataset_free(ds);
}

/* Model m's probability of a dense row x and its words, input by input
 * as the encoder defines it: the reference the predictor's scoring of
 * fixed features, sparse columns and context features must agree with. */
static double dense_prob(const tbk_model *m, const double *x, const uint32_t *wi, const uint32_t *wc, size_t nw) {
  double s = 0;
  if (m->nb) {
    tbk_term *t = malloc((nw ? nw : 1) * sizeof *t);
    for (size_t k = 0; k < nw; k++) t[k] = (tbk_term){wi[k] - 1, (double)wc[k]};
    CHECK_INT(tbk_nb_score(m->nb, t, nw, &s, NULL), TBK_OK);
    free(t);
  }
  double z = m->w[m->enc.ncols];
  for (uint32_t j = 0; j + 1 < m->enc.nin; j++) z += tbk_encode_contrib(&m->enc, m->w, j, x[j]);
  if (m->enc.nin) z += tbk_encode_contrib(&m->enc, m->w, m->enc.nin - 1, s);
  return tbk_sigmoid(z);
}

/* A content stage with the contextual pass: the predictor scores the
 * first pass on each unit's fixed features and sparse columns, and the
 * second on those and the context features of the units with words; both
 * give what the dense rows give. */
static void test_context_pass(tbk_units *ux) {
  tbk_error err = {0};
  tbk_model *tmpl = template_model(), *cm = NULL;
  if (!tmpl) return;
  tbk_dataset *ds = unit_dataset(ux);
  tbk_train_options opt = quick_options();
  CHECK_INT(tbk_train_context(ds, &opt, 2, NULL, NULL, &cm, &err), TBK_OK);
  if (!cm || !cm->context) {
    CHECK(0);
    tbk_model_free(tmpl);
    tbk_dataset_free(ds);
    return;
  }
  CHECK_INT(tbk_model_attach_content(tmpl, cm, &err), TBK_OK);
  tbk_predictor *pr = NULL;
  CHECK_INT(tbk_predictor_new(tmpl, &pr, &err), TBK_OK);
  tbk_page_options po;
  tbk_model_page_options(tmpl, &po);
  tbk_page *p = NULL;
  CHECK_INT(tbk_page_parse(PAGE, sizeof PAGE - 1, &po, &p, &err), TBK_OK);
  const double *b, *u;
  CHECK_INT(tbk_predict_units(pr, p, &b, &u, &err), TBK_OK);
  const tbk_units *pu = tbk_predictor_units(pr);
  size_t n = tbk_units_count(pu), dim = tbk_units_dim(pu), m = 0, second = 0;
  double *first = malloc(n * sizeof *first), *pw = malloc(n * sizeof *pw), *chars = malloc(n * sizeof *chars);
  double *row = malloc((dim + TBK_CTX_DIM) * sizeof *row);
  size_t *idx = malloc(n * sizeof *idx);
  for (size_t i = 0; i < n; i++) {
    const uint32_t *wi, *wc;
    size_t nw = tbk_units_words(pu, i, &wi, &wc);
    const double *x = tbk_units_values(pu, i);
    first[i] = dense_prob(cm, x, wi, wc, nw);
    if (x[UX_WORDS] > 0) {
      pw[m] = first[i];
      chars[m] = x[UX_CHARS];
      idx[m++] = i;
    } else {
      CHECK(fabs(u[i] - first[i]) < 1e-9); /* no words: the first pass stands */
    }
  }
  CHECK(m >= 8);
  for (size_t k = 0; k < m; k++) {
    size_t i = idx[k];
    const uint32_t *wi, *wc;
    size_t nw = tbk_units_words(pu, i, &wi, &wc);
    memcpy(row, tbk_units_values(pu, i), dim * sizeof *row);
    tbk_context_features(pw, chars, m, k, row + dim);
    double want = dense_prob(cm->context, row, wi, wc, nw);
    CHECK(fabs(u[i] - want) < 1e-9);
    second += fabs(want - first[i]) > 1e-6;
  }
  /* the second pass is not the first one again */
  CHECK(second > 0);
  free(first);
  free(pw);
  free(chars);
  free(row);
  free(idx);
  tbk_page_free(p);
  tbk_predictor_free(pr);
  tbk_model_free(tmpl);
  tbk_dataset_free(ds);
}

/* The page in German: the same markup, other words. */
static const char PAGE_DE[] =
    "<html><head><title>Die Bibliothek am Fluss ist wieder offen</title></head><body>"
    "<div id=\"top\"><ul class=\"main-nav\"><li><a href=\"/\">Start</a></li><li><a href=\"/lokal\">Lokal</a></li>"
    "<li><a href=\"/sport\">Sport</a></li></ul></div>"
    "<div class=\"article-body\"><h1>Die Bibliothek am Fluss ist wieder offen</h1>"
    "<p class=\"byline\">Von Anna Schmidt</p>"
    "<p>Die Zweigstelle am Fluss ist am Freitag wieder geöffnet worden, acht Monate nachdem der Fluss in "
    "den Keller gelaufen war, und die ersten Besucher warteten schon an der Tür.</p>"
    "<p>Freiwillige haben vierzigtausend Bücher in die Regale zurückgestellt, sagte die Leiterin, und das "
    "Kinderzimmer hat einen neuen Teppich und eine Leseecke am Fenster.</p>"
    "</div><div class=\"footer\"><p>&copy; 2026 Millbrook Anzeiger. Alle Rechte vorbehalten.</p></div>"
    "</body></html>";

static const char *page_language(tbk_units *ux, const char *html) {
  tbk_page *p = NULL;
  CHECK_INT(tbk_page_parse(html, strlen(html), NULL, &p, NULL), TBK_OK);
  CHECK_INT(tbk_units_page(ux, p, NULL, NULL), TBK_OK);
  int l = tbk_units_language(ux);
  tbk_page_free(p);
  return l < 0 ? "" : tbk_stop_codes[l];
}

/* The units' guess of a page's language: the function-word list holding
 * most of its tokens, none for a page of a few words. */
static void test_language(tbk_units *ux) {
  CHECK_STR(page_language(ux, PAGE), "en");
  CHECK_STR(page_language(ux, PAGE_DE), "de");
  CHECK_STR(page_language(ux, "<p>Der Hund und die Katze.</p>"), "");
  CHECK_STR(page_language(ux, "<p>Home | Sport | Kontakt | Impressum</p>"), "");
}

/* The units of html scored by pr: whether the content stage without the
 * text model decided, and every unit's probability equal to what stage
 * gives its dense row (to 1e-9). */
static int scored_by(tbk_predictor *pr, const tbk_model *m, const char *html, const tbk_model *stage) {
  tbk_page_options po;
  tbk_model_page_options(m, &po);
  tbk_page *p = NULL;
  CHECK_INT(tbk_page_parse(html, strlen(html), &po, &p, NULL), TBK_OK);
  const double *b, *u;
  CHECK_INT(tbk_predict_units(pr, p, &b, &u, NULL), TBK_OK);
  const tbk_units *pu = tbk_predictor_units(pr);
  size_t n = tbk_units_count(pu), same = 0;
  for (size_t i = 0; i < n; i++) {
    const uint32_t *wi, *wc;
    size_t nw = tbk_units_words(pu, i, &wi, &wc);
    same += fabs(u[i] - dense_prob(stage, tbk_units_values(pu, i), wi, wc, nw)) < 1e-9;
  }
  CHECK(n > 5);
  CHECK_INT(same, n);
  int nontext = tbk_predictor_nontext_page(pr);
  tbk_page_free(p);
  return nontext;
}

/* A damaged two-stage file given its outer checksum line again (so only
 * the damage can be refused): refused, with a message naming why. */
static void refused_by_name(tbk_buf *text, const char *why) {
  unsigned char md5[16];
  char hex[33];
  tbk_error err = {0};
  tbk_md5(text->data, text->len, md5);
  tbk_md5_hex(md5, hex);
  CHECK_BUF(tbk_buf_printf(text, "checksum %s\n", hex));
  tbk_model *refused = NULL;
  CHECK_INT(tbk_model_parse(text->data, text->len, &refused, &err), TBK_ERR_MODEL);
  CHECK(strstr(err.msg, why) != NULL);
  CHECK(refused == NULL);
}

/* A content stage fitted again without the text model, attached for the
 * pages not in the text model's language: it survives a write/parse round
 * trip byte for byte, a bad one is refused, and the predictor scores a
 * German page with it and an English one with the main stage. */
static void test_nontext_stage(tbk_units *ux) {
  tbk_error err = {0};
  tbk_model *tmpl = template_model(), *cm = NULL, *nt = NULL, *nt2 = NULL, *again = NULL;
  if (!tmpl) return;
  tbk_dataset *ds = unit_dataset(ux);
  tbk_train_options opt = quick_options();
  CHECK_INT(tbk_train(ds, &opt, NULL, NULL, &cm, &err), TBK_OK);
  opt.parts = TBK_PARTS_NONTEXT;
  CHECK_INT(tbk_train(ds, &opt, NULL, NULL, &nt, &err), TBK_OK);
  CHECK_INT(tbk_train(ds, &opt, NULL, NULL, &nt2, &err), TBK_OK);
  if (!cm || !nt || !nt2) {
    CHECK(0);
    return;
  }
  CHECK(nt->nb == NULL);
  /* a stage that reads the text model, a bad language code: refused */
  CHECK_INT(tbk_model_attach_nontext(cm, tmpl, "en", NULL), TBK_ERR_SCHEMA);
  CHECK_INT(tbk_model_attach_nontext(cm, nt, "EN", NULL), TBK_ERR_ARG);
  CHECK_INT(tbk_model_attach_nontext(cm, nt, "e", NULL), TBK_ERR_ARG);
  CHECK_INT(tbk_model_attach_nontext(cm, nt, "en", &err), TBK_OK);
  CHECK_INT(tbk_model_attach_nontext(cm, nt2, "en", NULL), TBK_ERR_ARG); /* once */
  tbk_model_free(nt2);
  CHECK_INT(tbk_model_attach_content(tmpl, cm, &err), TBK_OK);
  tbk_buf one = {0}, two = {0};
  CHECK_INT(tbk_model_write(tmpl, &one, &err), TBK_OK);
  CHECK(memmem(one.data, one.len, "\nstage content-nontext en\ntbk-model 1\n", 38) != NULL);
  CHECK_INT(tbk_model_parse(one.data, one.len, &again, &err), TBK_OK);
  if (again) {
    CHECK(again->content->nontext != NULL);
    CHECK_STR(again->content->text_lang, "en");
    CHECK_INT(tbk_model_write(again, &two, &err), TBK_OK);
    CHECK(one.len == two.len && memcmp(one.data, two.data, one.len) == 0);
  }
  /* cut anywhere, the cut just before the nontext stage too: refused */
  const char *tag = memmem(one.data, one.len, "stage content-nontext", 21);
  tbk_model *cut_model = NULL;
  for (size_t cut = 1; cut < one.len; cut += one.len / 23 + 1)
    CHECK_INT(tbk_model_parse(one.data, cut, &cut_model, NULL), TBK_ERR_MODEL);
  if (tag) CHECK_INT(tbk_model_parse(one.data, (size_t)(tag - one.data), &cut_model, NULL), TBK_ERR_MODEL);
  CHECK(cut_model == NULL);
  /* the language line damaged (the outer checksum recomputed): refused by name */
  char *at = memmem(one.data, one.len, "content-nontext en\n", 19);
  tbk_buf bad = {0};
  if (at) {
    CHECK_BUF(tbk_buf_append(&bad, one.data, (size_t)(at - one.data) + 16));
    CHECK_BUF(tbk_buf_puts(&bad, "E1"));
    const char *rest = at + 18, *last = one.data + one.len - 42; /* before "checksum <32>\n" */
    CHECK_BUF(tbk_buf_append(&bad, rest, (size_t)(last - rest)));
    refused_by_name(&bad, "stage content-nontext LANG");
  }
  /* the main content stage (it reads the text model) in the nontext
   * stage's place, every checksum right: refused by name */
  const char *c0 = memmem(one.data, one.len, "\nstage content\n", 15);
  const char *n0 = memmem(one.data, one.len, "\nstage content-nontext en\n", 26);
  if (c0 && n0) {
    bad.len = 0;
    CHECK_BUF(tbk_buf_append(&bad, one.data, (size_t)(n0 - one.data) + 26));
    CHECK_BUF(tbk_buf_append(&bad, c0 + 15, (size_t)(n0 - c0) - 14));
    refused_by_name(&bad, "without the text model");
  }
  tbk_predictor *pr = NULL;
  CHECK_INT(tbk_predictor_new(tmpl, &pr, &err), TBK_OK);
  if (pr) {
    CHECK_INT(scored_by(pr, tmpl, PAGE, cm), 0);
    CHECK_INT(scored_by(pr, tmpl, PAGE_DE, cm->nontext), 1);
    CHECK_INT(scored_by(pr, tmpl, PAGE, cm), 0); /* and back */
  }
  /* the same model saying its text model learned German: the other way round */
  snprintf(cm->text_lang, sizeof cm->text_lang, "de");
  tbk_predictor *pr_de = NULL;
  CHECK_INT(tbk_predictor_new(tmpl, &pr_de, &err), TBK_OK);
  if (pr_de) {
    CHECK_INT(scored_by(pr_de, tmpl, PAGE, cm->nontext), 1);
    CHECK_INT(scored_by(pr_de, tmpl, PAGE_DE, cm), 0);
  }
  tbk_predictor_free(pr);
  tbk_predictor_free(pr_de);
  tbk_buf_free(&bad);
  tbk_buf_free(&one);
  tbk_buf_free(&two);
  tbk_model_free(again);
  tbk_model_free(tmpl);
  tbk_dataset_free(ds);
}

int main(void) {
  tbk_units *ux = NULL;
  CHECK_INT(tbk_units_new(NULL, &ux, NULL), TBK_OK);
  CHECK(strncmp(tbk_units_schema_id(ux), "tbk-units-1:", 12) == 0);
  tbk_page *p = NULL;
  CHECK_INT(tbk_page_parse(PAGE, sizeof PAGE - 1, NULL, &p, NULL), TBK_OK);
  if (!ux || !p) return 1;
  test_segmentation(ux, p);
  test_features(ux, p);
  test_gold(ux, p);
  test_two_stage(ux);
  test_context_pass(ux);
  test_language(ux);
  test_nontext_stage(ux);
  test_shared_tokens();
  tbk_page_free(p);
  tbk_units_free(ux);
  return check_report();
}
