/* Fuzz target: raw bytes as a page. Parse with the model's options, compute
 * the feature vectors, predict, and render text, JSON Lines and HTML; then
 * parse again with tiny resource limits (and a charset hint) and render with
 * made-up probabilities. Cheap invariants of the page model are checked, so
 * a logic slip aborts like a crash does. Both parses run once more keeping
 * the DOM: the streamed page's tables must be the DOM page's, byte for byte
 * (tbk_page_dump), and a parse that fails must fail alike (with libxml2
 * 2.9.14, the one tbk's parser reproduces). Each page's
 * declared metadata (tbk_page_metadata) must be one JSON object.
 *
 * The model comes from $TBK_FUZZ_MODEL, else from the seed model in the
 * source tree (an absolute path compiled in: libFuzzer runs from any
 * directory). A model that cannot be loaded aborts at once: fuzzing without
 * the predictor would silently lose most of the coverage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fast_html.h"
#include "tbk_internal.h"

#ifndef TBK_FUZZ_SEED_MODEL
#define TBK_FUZZ_SEED_MODEL "fuzz/corpus/model/seed.model"
#endif

static tbk_model *model;
static tbk_predictor *pred;
static tbk_features *fx_small;

static void die(const char *what, const tbk_error *err) {
  fprintf(stderr, "fuzz_page: %s: %s\n", what, err ? err->msg : "");
  abort();
}

static void init(void) {
  const char *path = getenv("TBK_FUZZ_MODEL");
  if (!path || !*path) path = TBK_FUZZ_SEED_MODEL;
  tbk_error err = {0};
  if (tbk_model_load(path, &model, &err)) die(path, &err);
  if (tbk_predictor_new(model, &pred, &err))
    die("predictor (regenerate the seed model with fuzz/make_seed_model.sh)", &err);
  tbk_feature_options fo;
  tbk_feature_options_init(&fo);
  fo.attr_dims = 4;
  fo.word_dims = 64;
  fo.bigrams = 1;
  if (tbk_features_new(&fo, &fx_small, &err)) die("features", &err);
}

static void check_page(const tbk_page *p) {
  size_t tlen;
  const char *text = tbk_page_text(p, &tlen);
  if (strlen(text) != tlen || !tbk_utf8_valid(text, tlen)) abort();
  size_t n = tbk_page_block_count(p);
  for (size_t i = 0; i < n; i++) {
    const tbk_block *b = tbk_page_block(p, i);
    if (!b || !b->path || b->path[0] != '/' || !b->tag || b->text_len == 0) abort();
    if (b->parent >= (int32_t)i || b->parent < -1) abort();
    if (b->text < text || b->text + b->text_len > text + tlen) abort();
    if (!tbk_utf8_valid(b->text, b->text_len)) abort();
    if (tbk_text_length(b->text, b->text_len) != b->text_chars) abort();
    unsigned char md5[16];
    tbk_md5(b->text, b->text_len, md5);
    if (memcmp(md5, b->md5, 16) != 0) abort();
  }
  if (tbk_page_block(p, n) != NULL) abort();
  /* The declared metadata: one JSON object in valid UTF-8 (its scanner
   * reads the source byte by byte). */
  tbk_buf meta = {0};
  tbk_error merr;
  if (tbk_page_metadata(p, &meta, &merr) == TBK_OK &&
      (meta.len < 2 || meta.data[0] != '{' || meta.data[meta.len - 1] != '}' || !tbk_utf8_valid(meta.data, meta.len)))
    abort();
  tbk_buf_free(&meta);
}

static void render_all(const tbk_page *page, const double *probs, double threshold, int annotate) {
  tbk_buf out = {0};
  tbk_page_summary sum;
  if (tbk_render_text(page, probs, threshold, &out, &sum) == TBK_OK) {
    if (sum.blocks != tbk_page_block_count(page) || sum.template_blocks > sum.blocks || sum.template_chars > sum.chars)
      abort();
  }
  out.len = 0;
  tbk_render_jsonl(page, "fuzz:page", probs, threshold, &out);
  /* Renderings leave the page as it was: the HTML again, after the other
   * HTML rendering, gives the same bytes. */
  out.len = 0;
  tbk_buf other = {0}, again = {0};
  tbk_status st = tbk_render_html(page, probs, threshold, annotate, &out);
  tbk_render_html(page, probs, threshold, !annotate, &other);
  if (st == TBK_OK && tbk_render_html(page, probs, threshold, annotate, &again) == TBK_OK &&
      (again.len != out.len || memcmp(again.data, out.data, out.len) != 0))
    abort();
  tbk_buf_free(&out);
  tbk_buf_free(&other);
  tbk_buf_free(&again);
}

static int differ(const tbk_buf *a, const tbk_buf *b) {
  return a->len != b->len || (a->len && memcmp(a->data, b->data, a->len) != 0);
}

/* The page parsed with o both ways, its tree dropped after the walk and
 * kept for HTML output: same status, same tables, and the same HTML (tbk's
 * writer over the tree kept, or over the source parsed again). */
static void same_both_ways(const char *s, size_t size, tbk_page_options o) {
  tbk_buf d[2] = {{0}, {0}}, h[2] = {{0}, {0}};
  tbk_status st[2], hs[2] = {TBK_OK, TBK_OK};
  for (int k = 0; k < 2; k++) {
    o.keep_dom = k;
    tbk_page *p = NULL;
    tbk_error err = {0};
    st[k] = tbk_page_parse(s, size, &o, &p, &err);
    if (st[k] == TBK_OK && tbk_page_dump(p, &d[k])) die("out of memory", NULL);
    if (st[k] != TBK_OK && tbk_buf_puts(&d[k], err.msg)) die("out of memory", NULL);
    if (st[k] == TBK_OK) hs[k] = tbk_page_html(p, NULL, &h[k]);
    tbk_page_free(p);
  }
  if (st[0] != st[1] || differ(&d[0], &d[1])) {
    fprintf(stderr, "fuzz_page: the streamed page differs from the page that keeps its tree\n");
    abort();
  }
  if (hs[0] != hs[1] || differ(&h[0], &h[1])) {
    fprintf(stderr, "fuzz_page: the streamed page's HTML differs from the kept tree's\n");
    abort();
  }
  for (int k = 0; k < 2; k++) tbk_buf_free(&d[k]), tbk_buf_free(&h[k]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!model) init();
  const char *s = (const char *)data;
  tbk_error err = {0};

  /* 1. As tbk-predict sees it. */
  tbk_page_options o;
  tbk_model_page_options(model, &o);
  o.max_page_bytes = 1 << 20;
  tbk_page *page = NULL;
  same_both_ways(s, size, o);
  if (tbk_page_parse(s, size, &o, &page, &err) == TBK_OK) {
    check_page(page);
    const double *probs = NULL;
    if (tbk_predict_page(pred, page, &probs, &err) == TBK_OK) {
      for (size_t i = 0; i < tbk_page_block_count(page); i++)
        if (!(probs[i] >= 0.0 && probs[i] <= 1.0)) abort();
      render_all(page, probs, 0.5, 0);
    }
  }
  tbk_page_free(page);
  page = NULL;

  /* 2. Tiny limits, every block size, a charset hint picked by the input's
   * length, the html5 block set, and another feature extractor. */
  static const char *hints[] = {NULL, "shift_jis", "utf-16", "iso-8859-1", "koi8-r", "x-unknown", "gb2312"};
  tbk_page_options_init(&o);
  o.blocks = TBK_BLOCKS_HTML5;
  o.min_chars = 1;
  o.min_words = 1;
  o.max_page_bytes = 1 << 16;
  o.max_depth = 24;
  o.max_blocks = 16;
  o.max_nodes = 256;
  o.charset_hint = hints[size % (sizeof hints / sizeof hints[0])];
  same_both_ways(s, size, o);
  if (tbk_page_parse(s, size, &o, &page, &err) == TBK_OK) {
    check_page(page);
    if (tbk_features_page(fx_small, page, &err) == TBK_OK) {
      size_t n = tbk_features_blocks(fx_small);
      if (n != tbk_page_block_count(page)) abort();
      tbk_buf line = {0};
      for (size_t i = 0; i < n; i++) {
        tbk_features_format(fx_small, i, 1, 0, &line);
        tbk_features_format(fx_small, i, 1, 1, &line);
      }
      tbk_buf_free(&line);
    }
    size_t n = tbk_page_block_count(page);
    double *probs = malloc((n ? n : 1) * sizeof *probs);
    if (!probs) abort();
    for (size_t i = 0; i < n; i++) probs[i] = (i * 7 + size) % 3 ? 0.9 : 0.1;
    render_all(page, probs, 0.5, (int)(size & 1));
    free(probs);
  }
  tbk_page_free(page);
  return 0;
}
