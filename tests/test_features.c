/* Feature extraction: hand-written fragments with hand-computed values of
 * named features (looked up by name, never by index), the schema id as a
 * constant (changing the schema must be a conscious act), parity between
 * extractor instances (also across pages far larger than the rest), and
 * the svmlight formatting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

/* Update only together with SCHEMA.md, when the schema is meant to change. */
#define EXPECTED_SCHEMA "tbk-features-1:d6082881b470db7d"
#define EXPECTED_DIM 489

static tbk_page *parse(const char *html) {
  tbk_page *p = NULL;
  tbk_error err = {0};
  if (tbk_page_parse(html, strlen(html), NULL, &p, &err) != TBK_OK) {
    fprintf(stderr, "parse failed: %s\n", err.msg);
    return NULL;
  }
  return p;
}

static long find_block(const tbk_page *p, const char *path) {
  for (size_t i = 0; i < tbk_page_block_count(p); i++)
    if (strcmp(tbk_page_block(p, i)->path, path) == 0) return (long)i;
  return -1;
}

static long col(const tbk_features *fx, const char *name) {
  for (size_t i = 0; i < tbk_features_dim(fx); i++)
    if (strcmp(tbk_features_name(fx, i), name) == 0) return (long)i;
  return -1;
}

/* Value of a named feature of the block at path; NAN (a failed check)
 * when either does not exist. */
static double feat(const tbk_features *fx, const tbk_page *p, const char *path, const char *name) {
  long b = find_block(p, path), c = col(fx, name);
  if (b < 0) fprintf(stderr, "no block %s\n", path);
  if (c < 0) fprintf(stderr, "no feature %s\n", name);
  if (b < 0 || c < 0) return NAN;
  return tbk_features_values(fx, (size_t)b)[c];
}

typedef struct expect {
  const char *path, *name;
  double value;
} expect;

typedef struct fcase {
  const char *what;
  const char *html;
  expect ex[40];
} fcase;

#define BODY "/html[1]/body[1]"

static const fcase cases[] = {
    {"plain paragraph: text in isolation, attributes of self",
     "<html><body><div id=\"main-content\" class=\"postBody\"><p>Hello world. This is a TEST of the "
     "system! Is it ok?</p></div></body></html>",
     {{BODY "/div[1]", "text.chars", 52},
      {BODY "/div[1]", "text.words", 12},
      {BODY "/div[1]", "text.unique_words", 11},
      {BODY "/div[1]", "text.unique_ratio", 11.0 / 12},
      {BODY "/div[1]", "text.mean_word_len", 38.0 / 12},
      {BODY "/div[1]", "text.short_word_ratio", 7.0 / 12},
      {BODY "/div[1]", "text.sentences", 3},
      {BODY "/div[1]", "text.words_per_sentence", 4},
      {BODY "/div[1]", "text.punct", 3},
      {BODY "/div[1]", "text.punct_ratio", 3.0 / 41},
      {BODY "/div[1]", "text.digit_ratio", 0},
      {BODY "/div[1]", "text.upper_ratio", 7.0 / 38},
      {BODY "/div[1]", "text.cap_word_ratio", 4.0 / 12},
      {BODY "/div[1]", "text.density", 12},
      {BODY "/div[1]", "text.heading_chars", 0},
      {BODY "/div[1]", "link.density", 0},
      {BODY "/div[1]", "tag.div", 1},
      {BODY "/div[1]", "tag.p", 1},
      {BODY "/div[1]", "markup.elements", 2},
      {BODY "/div[1]", "markup.distinct_tags", 2},
      {BODY "/div[1]", "markup.tag_text_ratio", 2.0 / 52},
      {BODY "/div[1]", "markup.child_elements", 1},
      {BODY "/div[1]", "block.tag.div", 1},
      {BODY "/div[1]", "block.tag.ul", 0},
      {BODY "/div[1]", "attr.self.word.main", 1},
      {BODY "/div[1]", "attr.self.word.content", 1},
      {BODY "/div[1]", "attr.self.word.post", 1},
      {BODY "/div[1]", "attr.self.word.body", 1},
      {BODY "/div[1]", "attr.self.word.nav", 0},
      {BODY "/div[1]", "attr.anc.word.main", 0},
      {BODY "/div[1]", "page.word_share", 1},
      {BODY "/div[1]", "page.char_share", 1},
      {BODY "/div[1]", "page.words", 12},
      {BODY "/div[1]", "pos.depth", 3},
      {BODY "/div[1]", "pos.depth_rel", 3.0 / 4},
      {BODY "/div[1]", "pos.text_offset_rel", 0},
      {BODY "/div[1]", "pos.text_end_rel", 1},
      {BODY "/div[1]", "pos.has_candidate_ancestor", 0},
      {NULL, NULL, 0}}},
    {"navigation list: all links, no punctuation; neighbours; page shares",
     "<html><body><ul class=\"main-nav\" role=\"navigation\"><li><a href=\"/\">Home page</a></li>"
     "<li><a href=\"/a\">About us</a></li><li><a href=\"/c\">Contact form</a></li><li><a href=\"/n\">"
     "News archive</a></li></ul><div class=\"article-body\"><p>Some long content text goes here with "
     "enough words.</p></div></body></html>",
     {{BODY "/ul[1]", "text.chars", 44},
      {BODY "/ul[1]", "text.words", 8},
      {BODY "/ul[1]", "text.sentences", 0},
      {BODY "/ul[1]", "text.words_per_sentence", 8},
      {BODY "/ul[1]", "text.punct", 0},
      {BODY "/ul[1]", "link.anchor_words", 8},
      {BODY "/ul[1]", "link.density", 1},
      {BODY "/ul[1]", "link.char_density", 1},
      {BODY "/ul[1]", "link.words_per_anchor", 2},
      {BODY "/ul[1]", "tag.a", 4},
      {BODY "/ul[1]", "tag.li", 4},
      {BODY "/ul[1]", "tag.ul", 1},
      {BODY "/ul[1]", "markup.elements", 9},
      {BODY "/ul[1]", "markup.distinct_tags", 3},
      {BODY "/ul[1]", "markup.text_runs", 4},
      {BODY "/ul[1]", "block.tag.ul", 1},
      {BODY "/ul[1]", "attr.self.word.nav", 1},
      {BODY "/ul[1]", "attr.self.word.main", 1},
      {BODY "/ul[1]", "attr.self.role.navigation", 1},
      {BODY "/ul[1]", "attr.self.role.main", 0},
      {BODY "/ul[1]", "page.link_share", 1},
      {BODY "/ul[1]", "page.word_share", 8.0 / 17},
      {BODY "/ul[1]", "pos.sibling_index", 0},
      {BODY "/ul[1]", "pos.sibling_index_right", 1},
      {BODY "/ul[1]", "pos.siblings", 2},
      {BODY "/ul[1]", "pos.block_index", 0},
      {BODY "/ul[1]", "pos.blocks", 2},
      {BODY "/ul[1]", "nb.prev_words", 0},
      {BODY "/ul[1]", "nb.next_words", 9},
      {BODY "/ul[1]", "nb.next_link_density", 0},
      {BODY "/div[1]", "text.words", 9},
      {BODY "/div[1]", "link.density", 0},
      {BODY "/div[1]", "page.link_share", 0},
      {BODY "/div[1]", "attr.self.word.article", 1},
      {BODY "/div[1]", "pos.sibling_index", 1},
      {BODY "/div[1]", "pos.sibling_index_right", 0},
      {BODY "/div[1]", "pos.block_index_rel", 0.5},
      {BODY "/div[1]", "nb.prev_words", 8},
      {BODY "/div[1]", "nb.prev_link_density", 1},
      {NULL, NULL, 0}}},
    {"nested blocks: candidate ancestors/descendants, ancestor attributes, headings",
     "<html><body><div id=\"sidebar\"><div class=\"widget_recent\"><h2>Recent posts here</h2><ul>"
     "<li>First item in the list of posts</li><li>Second item in the list of posts</li></ul></div>"
     "<div class=\"widget\"><p>Another widget with a paragraph of filler text.</p></div></div>"
     "</body></html>",
     {{BODY "/div[1]", "pos.candidate_descendants", 3},
      {BODY "/div[1]", "pos.candidate_children", 2},
      {BODY "/div[1]", "pos.candidate_ancestors", 0},
      {BODY "/div[1]", "attr.self.word.sidebar", 1},
      {BODY "/div[1]", "text.heading_chars", 15},
      {BODY "/div[1]/div[1]", "pos.has_candidate_ancestor", 1},
      {BODY "/div[1]/div[1]", "pos.candidate_ancestors", 1},
      {BODY "/div[1]/div[1]", "pos.candidate_children", 1},
      {BODY "/div[1]/div[1]", "pos.candidate_descendants", 1},
      {BODY "/div[1]/div[1]", "attr.self.word.widget", 1},
      {BODY "/div[1]/div[1]", "attr.self.word.sidebar", 0},
      {BODY "/div[1]/div[1]", "attr.anc.word.sidebar", 1},
      {BODY "/div[1]/div[1]", "text.heading_chars", 15},
      {BODY "/div[1]/div[1]", "text.heading_ratio", 15.0 / 66},
      {BODY "/div[1]/div[1]", "tag.h2", 1},
      {BODY "/div[1]/div[1]", "tag.li", 2},
      {BODY "/div[1]/div[1]/ul[1]", "pos.candidate_ancestors", 2},
      {BODY "/div[1]/div[1]/ul[1]", "attr.self.word.widget", 0},
      {BODY "/div[1]/div[1]/ul[1]", "attr.anc.word.widget", 1},
      {BODY "/div[1]/div[1]/ul[1]", "attr.anc.word.sidebar", 1},
      {BODY "/div[1]/div[1]/ul[1]", "text.heading_chars", 0},
      {BODY "/div[1]/div[1]/ul[1]", "text.words", 14},
      {BODY "/div[1]/div[1]/ul[1]", "text.unique_words", 8},
      {BODY "/div[1]/div[1]/ul[1]", "pos.block_index", 2},
      {BODY "/div[1]/div[2]", "attr.self.word.widget", 1},
      {BODY "/div[1]/div[2]", "pos.candidate_descendants", 0},
      {BODY "/div[1]/div[2]", "nb.prev_words", 14},
      {BODY "/div[1]/div[2]", "nb.next_words", 0},
      {NULL, NULL, 0}}},
    {"Unicode text: accents, Cyrillic, CJK",
     "<html><body><div><p>\xC3\x87"
     "a co\xC3\xBBte tr\xC3\xA8s cher \xC3\xA0 Paris. "
     "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82 \xD0\xBC\xD0\xB8\xD1\x80, "
     "\xD0\xBA\xD0\xB0\xD0\xBA \xD0\xB4\xD0\xB5\xD0\xBB\xD0\xB0? "
     "\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x81\xAF\xE5\xA4\xA7\xE3\x81\x8D\xE3\x81\x84</p></div>"
     "</body></html>",
     /* the six Han and Kana characters weigh 3.7 each (measure.h) and
      * make five bigrams */
     {{BODY "/div[1]", "text.chars", 72},
      {BODY "/div[1]", "text.words", 15},
      {BODY "/div[1]", "text.unique_words", 15},
      {BODY "/div[1]", "text.sentences", 2},
      {BODY "/div[1]", "text.punct", 3},
      {BODY "/div[1]", "text.punct_ratio", 3.0 / 62},
      {BODY "/div[1]", "text.cap_word_ratio", 3.0 / 15},
      {BODY "/div[1]", "text.short_word_ratio", 4.0 / 15},
      {BODY "/div[1]", "text.mean_word_len", 72.0 / 15},
      {NULL, NULL, 0}}},
    {"Japanese sentences end at the full-width marks themselves",
     "<html><body><div><p>\xe3\x81\x93\xe3\x82\x8c\xe3\x81\xaf\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"
     "\xe3\x81\xae\xe6\x96\x87\xe3\x81\xa7\xe3\x81\x99\xe3\x80\x82\xe3\x81\xa8\xe3\x81\xa6\xe3\x82\x82"
     "\xe9\x95\xb7\xe3\x81\x84\xe6\x96\x87\xe7\xab\xa0\xe3\x82\x92\xe6\x9b\xb8\xe3\x81\x8d\xe3\x81\xbe"
     "\xe3\x81\x99\xef\xbc\x81\xe6\x9c\xac\xe5\xbd\x93\xe3\x81\xa7\xe3\x81\x99\xe3\x81\x8b\xef\xbc\x9f"
     "\xe3\x81\xaf\xe3\x81\x84\xe3\x80\x81\xe3\x81\x9d\xe3\x81\x86\xe3\x81\xa7\xe3\x81\x99\xe3\x80\x82"
     "\xe3\x81\x82\xe3\x82\x8a\xe3\x81\x8c\xe3\x81\xa8\xe3\x81\x86\xe3\x81\x94\xe3\x81\x96\xe3\x81\x84"
     "\xe3\x81\xbe\xe3\x81\x97\xe3\x81\x9f\xe3\x80\x82</p></div></body></html>",
     /* 50 code points, all wide: 50 * 3.7 */
     {{BODY "/div[1]", "text.chars", 185},
      {BODY "/div[1]", "text.sentences", 5},
      {BODY "/div[1]", "text.punct", 6},
      {BODY "/div[1]", "text.upper_ratio", 0},
      {BODY "/div[1]", "text.cap_word_ratio", 0},
      {NULL, NULL, 0}}},
    {"markup counts, formatting tags, digits, source lines",
     "<html>\n<body>\n<table><tr><td><b>Bold</b> and <i>italic</i> and <em>emph</em> text 2024<br>"
     "with <img src=\"x.png\"> image <input type=\"text\"> and <span>spans</span> "
     "<code>code()</code> <u>here</u>.</td></tr></table>\n</body>\n</html>\n",
     {{BODY "/table[1]", "pos.line", 3},
      {BODY "/table[1]", "pos.line_rel", 3.0 / 6},
      {BODY "/table[1]", "tag.table", 1},
      {BODY "/table[1]", "tag.tr", 1},
      {BODY "/table[1]", "tag.td", 1},
      {BODY "/table[1]", "tag.b", 1},
      {BODY "/table[1]", "tag.i", 1},
      {BODY "/table[1]", "tag.em", 1},
      {BODY "/table[1]", "tag.u", 1},
      {BODY "/table[1]", "tag.br", 1},
      {BODY "/table[1]", "tag.img", 1},
      {BODY "/table[1]", "tag.input", 1},
      {BODY "/table[1]", "tag.span", 1},
      {BODY "/table[1]", "tag.code", 1},
      {BODY "/table[1]", "tag.a", 0},
      {BODY "/table[1]", "markup.format_tags", 4},
      {BODY "/table[1]", "text.digit_ratio", 4.0 / 56},
      {BODY "/table[1]", "text.sentences", 1},
      {BODY "/table[1]", "block.tag.table", 1},
      {NULL, NULL, 0}}},
    {"text density: boilerpipe's 80-column wrap",
     "<html><body><div>abcd efgh ijkl word word word word word word word word word word word word "
     "word word word word word word word word word word word word word word word</div></body></html>",
     {{BODY "/div[1]", "text.words", 30},
      {BODY "/div[1]", "text.unique_words", 4},
      {BODY "/div[1]", "text.density", 16},
      {BODY "/div[1]", "text.short_word_ratio", 0},
      {NULL, NULL, 0}}},
    {"heading block, plural class token, role on an ancestor",
     "<html><body><section role=\"main\"><div class=\"comments-area\"><h1>A heading that is long enough "
     "to be a block</h1></div></section></body></html>",
     {{BODY "/section[1]/div[1]", "text.heading_ratio", 1},
      {BODY "/section[1]/div[1]", "tag.h1", 1},
      {BODY "/section[1]/div[1]", "attr.self.word.comment", 1},
      {BODY "/section[1]/div[1]", "attr.anc.role.main", 1},
      {BODY "/section[1]/div[1]", "attr.self.role.main", 0},
      {NULL, NULL, 0}}},
};

static void run_cases(tbk_features *fx) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tbk_page *p = parse(cases[i].html);
    CHECK(p != NULL);
    if (!p) continue;
    tbk_error err = {0};
    CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
    for (const expect *e = cases[i].ex; e->path; e++) {
      double got = feat(fx, p, e->path, e->name);
      check_count++;
      if (!(fabs(got - e->value) <= 1e-9)) {
        check_failures++;
        fprintf(stderr, "case '%s': %s %s == %.9g, expected %.9g\n", cases[i].what, e->path, e->name, got, e->value);
      }
    }
    tbk_page_free(p);
  }
}

/* The block is the whole page: the rest is empty, so the smoothed rest
 * distribution is uniform over the page's vocabulary (11 words). */
static void test_kl(tbk_features *fx) {
  tbk_page *p = parse(cases[0].html);
  tbk_error err = {0};
  CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
  double h = (10.0 / 12) * log(12.0) + (2.0 / 12) * log(6.0);
  CHECK_NEAR(feat(fx, p, BODY "/div[1]", "page.kl_divergence"), log(11.0) - h, 1e-9);
  tbk_page_free(p);
  /* A block that repeats the rest of the page diverges less than one
   * about something else. */
  p = parse("<html><body><div><p>apples and pears and plums are fruit we eat</p></div>"
            "<div><p>apples and pears and plums are fruit we like</p></div>"
            "<div><p>engines and gears and pistons make motors run</p></div></body></html>");
  CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
  double same = feat(fx, p, BODY "/div[1]", "page.kl_divergence");
  double other = feat(fx, p, BODY "/div[3]", "page.kl_divergence");
  CHECK(same > 0 && other > same);
  tbk_page_free(p);
}

static uint32_t fnv32(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static void test_words(void) {
  tbk_feature_options o;
  tbk_feature_options_init(&o);
  o.word_dims = 1000;
  tbk_features *fx;
  tbk_error err = {0};
  CHECK_INT(tbk_features_new(&o, &fx, &err), TBK_OK);
  tbk_page *p = parse("<html><body><div>Hello hello HELLO world, w\xC3\xB6rld and more words</div></body></html>");
  CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
  CHECK_INT(tbk_features_blocks(fx), 1);
  const uint32_t *idx, *cnt;
  size_t n = tbk_features_words(fx, 0, &idx, &cnt);
  CHECK(n >= 5 && n <= 6);
  uint32_t want = fnv32("hello") % 1000 + 1, got = 0, total = 0;
  for (size_t k = 0; k < n; k++) {
    CHECK(idx[k] >= 1 && idx[k] <= 1000);
    if (k) CHECK(idx[k] > idx[k - 1]);
    if (idx[k] == want) got = cnt[k];
    total += cnt[k];
  }
  CHECK_INT(got, 3); /* case-folded */
  CHECK_INT(total, 8);
  size_t unigrams = n;
  tbk_features_free(fx);
  tbk_page_free(p);

  o.bigrams = 1;
  CHECK_INT(tbk_features_new(&o, &fx, &err), TBK_OK);
  p = parse("<html><body><div>Hello hello HELLO world, w\xC3\xB6rld and more words</div></body></html>");
  CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
  n = tbk_features_words(fx, 0, &idx, &cnt);
  total = 0;
  for (size_t k = 0; k < n; k++) total += cnt[k];
  CHECK_INT(total, 8 + 7);
  CHECK(n > unigrams);
  tbk_features_free(fx);
  tbk_page_free(p);

  o.word_dims = 0;
  CHECK_INT(tbk_features_new(&o, &fx, &err), TBK_ERR_ARG);
}

typedef struct expect_words {
  uint32_t *idx;
  size_t n, cap;
  uint32_t dims;
} expect_words;

static int collect(void *ctx, const char *tok, size_t len) {
  expect_words *w = ctx;
  (void)len;
  if (w->n == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 64;
    w->idx = realloc(w->idx, w->cap * sizeof *w->idx);
  }
  w->idx[w->n++] = fnv32(tok) % w->dims + 1;
  return 0;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The words line equals hashing tbk_tokenize's tokens of the block text,
 * whatever the text: random ASCII (numbers with separators, underscores,
 * case) and non-ASCII, so every tokenizer path agrees with tbk_tokenize. */
static void test_words_match_tokenizer(void) {
  static const char *const alphabet[] = {"a",
                                         "B",
                                         "z",
                                         "Q",
                                         "0",
                                         "7",
                                         "9",
                                         "_",
                                         ".",
                                         ",",
                                         "-",
                                         " ",
                                         " ",
                                         "x1",
                                         "3.",
                                         ",5",
                                         "\xC3\xA9",
                                         "\xD0\x96",
                                         "\xE6\x9D\xB1",
                                         "!"};
  tbk_feature_options o;
  tbk_feature_options_init(&o);
  o.word_dims = 4096;
  tbk_features *fx;
  tbk_error err = {0};
  tbk_tokenizer *tok;
  CHECK_INT(tbk_features_new(&o, &fx, &err), TBK_OK);
  CHECK_INT(tbk_tokenizer_new(&tok, &err), TBK_OK);
  srand(12345);
  int mismatches = 0;
  for (int round = 0; round < 400; round++) {
    tbk_buf html = {0};
    CHECK_BUF(tbk_buf_puts(&html, "<html><body><div>alpha beta gamma delta epsilon zeta eta theta "));
    int ascii_only = round % 2 == 0;
    for (int k = 0; k < 60; k++) {
      int pick = rand() % (ascii_only ? 16 : 20);
      CHECK_BUF(tbk_buf_puts(&html, alphabet[pick]));
    }
    CHECK_BUF(tbk_buf_puts(&html, "</div></body></html>"));
    tbk_page *p = parse(html.data);
    CHECK(p && tbk_page_block_count(p) == 1);
    if (!p || tbk_page_block_count(p) != 1) {
      tbk_page_free(p);
      tbk_buf_free(&html);
      continue;
    }
    CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
    const tbk_block *b = tbk_page_block(p, 0);
    expect_words w = {NULL, 0, 0, o.word_dims};
    tbk_tokenize(tok, b->text, b->text_len, collect, &w);
    qsort(w.idx, w.n, sizeof *w.idx, cmp_u32);
    const uint32_t *idx, *cnt;
    size_t n = tbk_features_words(fx, 0, &idx, &cnt), k = 0, total = 0;
    int same = 1;
    for (size_t j = 0; j < n && same; j++) {
      for (uint32_t c = 0; c < cnt[j]; c++, k++)
        if (k >= w.n || w.idx[k] != idx[j]) same = 0;
      total += cnt[j];
    }
    if (!same || total != w.n) mismatches++;
    if (!same && mismatches == 1)
      fprintf(stderr, "words differ from the tokenizer for: %.*s\n", (int)b->text_len, b->text);
    CHECK_NEAR(feat(fx, p, BODY "/div[1]", "text.words"), (double)w.n, 0);
    free(w.idx);
    tbk_page_free(p);
    tbk_buf_free(&html);
  }
  CHECK_INT(mismatches, 0);
  tbk_tokenizer_free(tok);
  tbk_features_free(fx);
}

static void test_schema(void) {
  tbk_features *fx;
  tbk_error err = {0};
  CHECK_INT(tbk_features_new(NULL, &fx, &err), TBK_OK);
  CHECK_STR(tbk_features_schema_id(fx), EXPECTED_SCHEMA);
  CHECK_INT(tbk_features_dim(fx), EXPECTED_DIM);
  CHECK(tbk_features_name(fx, tbk_features_dim(fx)) == NULL);
  /* Names are unique and every kind is one of the documented ones. */
  for (size_t i = 0; i < tbk_features_dim(fx); i++) {
    const char *k = tbk_features_kind(fx, i);
    CHECK(strcmp(k, "count") == 0 || strcmp(k, "ratio") == 0 || strcmp(k, "real") == 0 || strcmp(k, "binary") == 0 ||
          strcmp(k, "position") == 0);
    for (size_t j = i + 1; j < tbk_features_dim(fx) && i < 60; j++)
      CHECK(strcmp(tbk_features_name(fx, i), tbk_features_name(fx, j)) != 0);
  }
  CHECK(col(fx, "attr.self.hash.127") >= 0 && col(fx, "attr.anc.hash.127") >= 0);
  CHECK(col(fx, "attr.self.hash.128") < 0);
  /* Options change the id. */
  tbk_feature_options o;
  tbk_feature_options_init(&o);
  o.bigrams = 1;
  tbk_features *fx2;
  CHECK_INT(tbk_features_new(&o, &fx2, &err), TBK_OK);
  CHECK(strcmp(tbk_features_schema_id(fx), tbk_features_schema_id(fx2)) != 0);
  CHECK_INT(tbk_features_dim(fx2), EXPECTED_DIM);
  tbk_features_free(fx2);
  o.bigrams = 0;
  o.attr_dims = 16;
  CHECK_INT(tbk_features_new(&o, &fx2, &err), TBK_OK);
  CHECK_INT(tbk_features_dim(fx2), EXPECTED_DIM - 2 * (128 - 16));
  tbk_features_free(fx2);
  tbk_features_free(fx);
}

/* Two instances, and one instance reused across pages, give identical
 * vectors and words. */
static void test_parity(void) {
  tbk_features *a, *b;
  tbk_error err = {0};
  CHECK_INT(tbk_features_new(NULL, &a, &err), TBK_OK);
  CHECK_INT(tbk_features_new(NULL, &b, &err), TBK_OK);
  size_t D = tbk_features_dim(a);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tbk_page *p = parse(cases[i].html);
    /* b first sees another page, so stale scratch would show. */
    tbk_page *other = parse(cases[(i + 1) % (sizeof cases / sizeof cases[0])].html);
    CHECK_INT(tbk_features_page(b, other, &err), TBK_OK);
    CHECK_INT(tbk_features_page(a, p, &err), TBK_OK);
    CHECK_INT(tbk_features_page(b, p, &err), TBK_OK);
    CHECK_INT(tbk_features_blocks(a), tbk_page_block_count(p));
    for (size_t k = 0; k < tbk_features_blocks(a); k++) {
      CHECK(memcmp(tbk_features_values(a, k), tbk_features_values(b, k), D * sizeof(double)) == 0);
      const uint32_t *ia, *ca, *ib, *cb;
      size_t na = tbk_features_words(a, k, &ia, &ca), nb = tbk_features_words(b, k, &ib, &cb);
      CHECK_INT(na, nb);
      if (na == nb && na) {
        CHECK(memcmp(ia, ib, na * sizeof *ia) == 0);
        CHECK(memcmp(ca, cb, na * sizeof *ca) == 0);
      }
      tbk_buf la = {0}, lb = {0};
      CHECK_INT(tbk_features_format(a, k, 1, 0, &la), 0);
      CHECK_INT(tbk_features_format(b, k, 1, 0, &lb), 0);
      CHECK_STR(la.data, lb.data);
      tbk_buf_free(&la);
      tbk_buf_free(&lb);
    }
    tbk_page_free(other);
    tbk_page_free(p);
  }
  tbk_features_free(a);
  tbk_features_free(b);
}

/* ------------------------------------------------ pages past the scratch */

static int gen_oom; /* an append of the generator failed */

static uint32_t rng(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* Blocks nested up to ten deep (divs, sections, lists, tables), ending
 * together and one after the other, over paragraphs of links, formatting
 * and headings, with class names and some non-ASCII words. */
static void gen_blocks(tbk_buf *b, uint32_t *s, int depth) {
  static const char *const words[] = {"the",   "module", "returns", "a",      "list", "of",   "énergie",
                                      "naïve", "函数",   "value",   "print",  "über", "2026", "item",
                                      "and",   "Python", "—",       "CHANGE", "x",    "fix."};
  static const char *const inl[] = {"a href=\"#\"", "b", "em", "code", "span", "strong", "small"};
  int kids = 1 + (int)(rng(s) % 4);
  for (int k = 0; k < kids; k++) {
    unsigned r = rng(s) % 10;
    if (depth < 10 && r < 6) {
      static const char *const open[] = {"<div class=\"nav c%u\">", "<section id=\"s%u\">", "<ul class=\"menu%u\"><li>",
                                         "<table><tr><td class=\"t%u\">", "<blockquote>"};
      static const char *const close[] = {"</div>", "</section>", "</li></ul>", "</td></tr></table>", "</blockquote>"};
      unsigned w = rng(s) % 5;
      gen_oom |= tbk_buf_printf(b, open[w], rng(s) % 50);
      gen_blocks(b, s, depth + 1);
      gen_oom |= tbk_buf_puts(b, close[w]);
    } else {
      const char *leaf = r == 9 ? "h3" : r == 8 ? "pre" : "p";
      gen_oom |= tbk_buf_printf(b, "<%s>", leaf);
      int n = 12 + (int)(rng(s) % 20);
      for (int i = 0; i < n; i++) {
        const char *w = words[rng(s) % (sizeof words / sizeof words[0])];
        if (rng(s) % 6 == 0) {
          const char *t = inl[rng(s) % (sizeof inl / sizeof inl[0])];
          size_t tl = strcspn(t, " ");
          gen_oom |= tbk_buf_printf(b, "<%s>%s %s</%.*s> ", t, w, words[rng(s) % 5], (int)tl, t);
        } else {
          gen_oom |= tbk_buf_printf(b, "%s ", w);
        }
        if (rng(s) % 40 == 0) gen_oom |= tbk_buf_puts(b, "<br>");
      }
      gen_oom |= tbk_buf_printf(b, "</%s>", leaf);
    }
  }
}

static tbk_page *big_page(uint32_t seed, size_t min_blocks) {
  tbk_buf b = {0};
  gen_oom |= tbk_buf_puts(&b, "<html><head><title>big</title></head><body>");
  uint32_t s = seed;
  tbk_page *p = NULL;
  for (size_t next = 128 * 1024;;) {
    gen_blocks(&b, &s, 0);
    if (b.len < next) continue;
    next = b.len + b.len / 2;
    tbk_page_free(p);
    gen_oom |= tbk_buf_puts(&b, "</body></html>");
    p = parse(b.data);
    b.len -= strlen("</body></html>");
    if (gen_oom || !p || tbk_page_block_count(p) >= min_blocks) break;
  }
  tbk_buf_free(&b);
  CHECK(!gen_oom);
  return p;
}

/* fx's vectors, words lines and formatted lines of page p are those of a
 * new extractor's. */
static void same_as_fresh(tbk_features *fx, const tbk_page *p, const tbk_feature_options *o) {
  tbk_features *f0;
  tbk_error err = {0};
  CHECK_INT(tbk_features_new(o, &f0, &err), TBK_OK);
  CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
  CHECK_INT(tbk_features_page(f0, p, &err), TBK_OK);
  CHECK_INT(tbk_features_blocks(fx), tbk_page_block_count(p));
  size_t D = tbk_features_dim(fx), bad = 0;
  for (size_t k = 0; k < tbk_features_blocks(f0); k++) {
    bad += memcmp(tbk_features_values(fx, k), tbk_features_values(f0, k), D * sizeof(double)) != 0;
    const uint32_t *ia, *ca, *ib, *cb;
    size_t na = tbk_features_words(fx, k, &ia, &ca), nb = tbk_features_words(f0, k, &ib, &cb);
    bad += na != nb || (na && (memcmp(ia, ib, na * sizeof *ia) || memcmp(ca, cb, na * sizeof *ca)));
    tbk_buf la = {0}, lb = {0};
    CHECK_INT(tbk_features_format(fx, k, 0, 0, &la), 0);
    CHECK_INT(tbk_features_format(f0, k, 0, 0, &lb), 0);
    bad += strcmp(la.data, lb.data) != 0;
    tbk_buf_free(&la);
    tbk_buf_free(&lb);
  }
  CHECK_INT(bad, 0);
  tbk_features_free(f0);
}

/* The tag columns of every block against its nodes counted one by one:
 * the counters of tag_pass, opened and closed on a stack of nested blocks. */
static void check_tag_counts(tbk_features *fx, const tbk_page *p) {
  long c_distinct = col(fx, "markup.distinct_tags"), c_format = col(fx, "markup.format_tags");
  long c_tag[TBK_TAG_COUNT];
  int fmt[TBK_TAG_COUNT] = {0};
  static const char *const format_tags[] = {"b", "strong", "em", "i", "u", "font", "small", "big", "tt"};
  for (size_t i = 0; i < sizeof format_tags / sizeof format_tags[0]; i++) fmt[tbk_tag_lookup(format_tags[i])] = 1;
  size_t counted = 0;
  for (int t = 0; t < TBK_TAG_COUNT; t++) {
    char name[64];
    snprintf(name, sizeof name, "tag.%s", tbk_tag_name((tbk_tag)t));
    c_tag[t] = t == TBK_TAG_OTHER ? -1 : col(fx, name);
    counted += c_tag[t] >= 0;
  }
  CHECK(counted > 40 && c_distinct >= 0 && c_format >= 0);
  size_t bad = 0, nested = 0;
  for (size_t b = 0; b < tbk_features_blocks(fx); b++) {
    const tbk_block *blk = tbk_page_block(p, b);
    uint32_t n[TBK_TAG_COUNT] = {0}, distinct = 0, format = 0;
    for (uint32_t i = blk->node; i < p->nodes[blk->node].end; i++) n[p->nodes[i].tag]++;
    for (int t = 0; t < TBK_TAG_COUNT; t++) {
      distinct += n[t] != 0;
      if (fmt[t]) format += n[t];
    }
    const double *v = tbk_features_values(fx, b);
    bad += v[c_distinct] != distinct || v[c_format] != format;
    for (int t = 0; t < TBK_TAG_COUNT; t++) bad += c_tag[t] >= 0 && v[c_tag[t]] != n[t];
    nested += blk->parent >= 0 && tbk_page_block(p, (size_t)blk->parent)->parent >= 0;
  }
  CHECK_INT(bad, 0);
  CHECK(nested > 100);
}

/* Pages whose arrays pass FX_KEEP_BYTES (cut and freed when each is done)
 * between small ones: one extractor gives what a new one gives, with and
 * without bigrams (which alone keep the sort buffers). */
static void test_big_pages(void) {
  tbk_page *small = parse(cases[1].html), *g1 = big_page(1, 1500), *g2 = big_page(7, 2500);
  CHECK(small && g1 && g2);
  if (!small || !g1 || !g2) return;
  CHECK(tbk_page_block_count(g2) > tbk_page_block_count(g1));
  for (int bigrams = 0; bigrams < 2; bigrams++) {
    tbk_feature_options o;
    tbk_feature_options_init(&o);
    o.bigrams = bigrams;
    tbk_features *fx;
    tbk_error err = {0};
    CHECK_INT(tbk_features_new(&o, &fx, &err), TBK_OK);
    const tbk_page *seq[] = {small, g1, small, g2, g1, small, g2};
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) same_as_fresh(fx, seq[i], &o);
    CHECK_INT(tbk_features_page(fx, g2, &err), TBK_OK);
    check_tag_counts(fx, g2);
    tbk_features_free(fx);
  }
  tbk_page_free(small);
  tbk_page_free(g1);
  tbk_page_free(g2);
}

static void test_format(void) {
  tbk_features *fx;
  tbk_error err = {0};
  CHECK_INT(tbk_features_new(NULL, &fx, &err), TBK_OK);
  tbk_page *p = parse(cases[1].html);
  CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
  tbk_buf line = {0};
  CHECK_INT(tbk_features_format(fx, 0, -1, 0, &line), 0);
  CHECK(line.len > 3 && strncmp(line.data, "-1 ", 3) == 0 && line.data[line.len - 1] == '\n');
  /* Parse it back: ascending 1-based indices, no zeros, values as computed. */
  const double *v = tbk_features_values(fx, 0);
  char *s = line.data + 2;
  long prev = 0;
  size_t nonzero = 0, parsed = 0;
  for (size_t j = 0; j < tbk_features_dim(fx); j++) nonzero += v[j] != 0;
  while (*s == ' ') {
    char *end;
    long i = strtol(s + 1, &end, 10);
    CHECK(*end == ':' && i > prev && i <= (long)tbk_features_dim(fx));
    if (*end != ':' || i <= prev || i > (long)tbk_features_dim(fx)) break;
    double x = strtod(end + 1, &s);
    CHECK(x != 0);
    CHECK_NEAR(x, v[i - 1], fabs(v[i - 1]) * 1e-8);
    prev = i;
    parsed++;
  }
  CHECK_INT(parsed, nonzero);
  line.len = 0;
  CHECK_INT(tbk_features_format(fx, 0, 0, 1, &line), 0);
  CHECK(strncmp(line.data, "0 ", 2) == 0);
  CHECK_INT(tbk_features_format(fx, 99, 0, 0, &line), -1);
  CHECK(tbk_features_values(fx, 99) == NULL);
  tbk_buf_free(&line);
  tbk_page_free(p);
  /* A page without candidate blocks has no vectors. */
  p = parse("<html><body><p>short</p></body></html>");
  CHECK_INT(tbk_features_page(fx, p, &err), TBK_OK);
  CHECK_INT(tbk_features_blocks(fx), 0);
  tbk_page_free(p);
  tbk_features_free(fx);
}

int main(void) {
  tbk_features *fx;
  tbk_error err = {0};
  CHECK_INT(tbk_features_new(NULL, &fx, &err), TBK_OK);
  run_cases(fx);
  test_kl(fx);
  tbk_features_free(fx);
  test_words();
  test_words_match_tokenizer();
  test_schema();
  test_parity();
  test_format();
  test_big_pages();
  return check_report();
}
