/* predict_page: score the blocks of one page with a tbk model, using the
 * installed library through <tbk.h> alone (docs/example/README.md).
 *
 *   predict_page MODEL PAGE.html
 *
 * Prints one line per candidate block, tab-separated: its index, template
 * probability, tag, locator and the start of its text; then a line "--",
 * then the page's text without the blocks at or above the model's default
 * threshold (the template stage's output). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tbk.h>

static int fail(const char *file, const char *what) {
  fprintf(stderr, "predict_page: error: %s: %s\n", file, what);
  return 1;
}

/* The whole file in a malloc'd buffer (the parser takes bytes and a length,
 * in any charset). */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *data = malloc(cap);
  while (data) {
    n += fread(data + n, 1, cap - n, f);
    if (n < cap) break;
    char *bigger = realloc(data, cap *= 2);
    if (!bigger) free(data);
    data = bigger;
  }
  if (data && ferror(f)) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *len = n;
  return data;
}

/* At most max bytes of a block's text, cut at a character boundary (the
 * text is UTF-8). */
static int snippet_len(const char *text, size_t len, size_t max) {
  if (len <= max) return (int)len;
  while (max > 0 && ((unsigned char)text[max] & 0xC0) == 0x80) max--;
  return (int)max;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: predict_page MODEL PAGE.html\n");
    return 2;
  }
  const char *model_path = argv[1], *page_path = argv[2];
  tbk_error err;
  tbk_model *model = NULL;
  tbk_predictor *pred = NULL;
  tbk_page *page = NULL;
  tbk_buf kept = {0};
  char *html = NULL;
  int rc = 1;

  if (tbk_model_load(model_path, &model, &err) != TBK_OK) {
    rc = fail(model_path, err.msg);
    goto done;
  }
  if (tbk_predictor_new(model, &pred, &err) != TBK_OK) {
    rc = fail(model_path, err.msg);
    goto done;
  }
  size_t len;
  errno = 0;
  html = read_file(page_path, &len);
  if (!html) {
    rc = fail(page_path, errno ? strerror(errno) : "cannot read");
    goto done;
  }
  /* The page is cut into blocks as the model's training pages were. */
  tbk_page_options opt;
  tbk_model_page_options(model, &opt);
  opt.fingerprints = 0; /* block hashes: only labelling needs them */
  if (tbk_page_parse(html, len, &opt, &page, &err) != TBK_OK) {
    rc = fail(page_path, err.msg);
    goto done;
  }

  const double *probs; /* borrowed from the predictor */
  if (tbk_predict_page(pred, page, &probs, &err) != TBK_OK) {
    rc = fail(page_path, err.msg);
    goto done;
  }
  for (size_t i = 0; i < tbk_page_block_count(page); i++) {
    const tbk_block *b = tbk_page_block(page, i);
    printf("%zu\t%.4f\t%s\t%s\t%.*s\n", i, probs[i], b->tag, b->path, snippet_len(b->text, b->text_len, 60), b->text);
  }
  if (tbk_render_text(page, probs, tbk_model_default_threshold(model), &kept, NULL) != TBK_OK) {
    rc = fail(page_path, "out of memory rendering the text");
    goto done;
  }
  printf("--\n%s", kept.data ? kept.data : "");
  rc = 0;

done:
  tbk_buf_free(&kept);
  tbk_page_free(page);
  free(html);
  tbk_predictor_free(pred);
  tbk_model_free(model);
  return rc;
}
