/* Fuzz target: bytes as a model file. Parsed as they are (the checksum
 * refuses nearly every mutation), then again with the checksum line
 * recomputed, so mutations reach the record parser. A model that parses
 * must write back to a file that parses to the same text (round trip), and
 * when its schema matches, it must predict a fixed page without trouble. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbk_internal.h"

static tbk_page *fixed_page(const tbk_model *m) {
  static const char html[] = "<html><body><div id=nav><ul><li><a href=/>Home page of the site</a></li>"
                             "<li><a href=/a>About the people who write here</a></li></ul></div>"
                             "<div class=content><h1>A title of some article</h1><p>Plain words of an "
                             "article body that runs long enough to be a block of content.</p>"
                             "<table><tr><td>cell one with words and more words to pass the limit</td></tr></table>"
                             "</div><div class=footer>Copyright notice and the usual footer links here</div>"
                             "</body></html>";
  tbk_page_options o;
  tbk_model_page_options(m, &o);
  tbk_page *p = NULL;
  tbk_error err;
  if (tbk_page_parse(html, sizeof html - 1, &o, &p, &err)) return NULL;
  return p;
}

static void exercise(tbk_model *m) {
  tbk_buf out = {0};
  tbk_error err = {0};
  if (tbk_model_write(m, &out, &err) == TBK_OK) {
    tbk_model *again = NULL;
    if (tbk_model_parse(out.data, out.len, &again, &err) != TBK_OK) {
      fprintf(stderr, "round trip refused: %s\n", err.msg);
      abort();
    }
    tbk_buf out2 = {0};
    if (tbk_model_write(again, &out2, &err) != TBK_OK || out2.len != out.len ||
        memcmp(out.data, out2.data, out.len) != 0)
      abort();
    tbk_buf_free(&out2);
    tbk_model_free(again);
  }
  tbk_buf_free(&out);
  const tbk_operating_point *ops;
  size_t n = tbk_model_operating_points(m, &ops);
  for (size_t i = 0; i < n; i++) (void)tbk_model_threshold_for(m, ops[i].precision);
  (void)tbk_model_threshold_for(m, 0.9);
  (void)tbk_model_schema(m);
  tbk_predictor *pr = NULL;
  if (tbk_predictor_new(m, &pr, &err) == TBK_OK) {
    tbk_page *p = fixed_page(m);
    const double *probs;
    if (p && tbk_predict_page(pr, p, &probs, &err) == TBK_OK)
      for (size_t i = 0; i < tbk_page_block_count(p); i++)
        if (isnan(probs[i]) || probs[i] < 0 || probs[i] > 1) abort();
    /* a two-stage model: the content stage too, and its text */
    const double *bp, *up;
    if (p && tbk_model_content(m) && tbk_predict_units(pr, p, &bp, &up, &err) == TBK_OK) {
      const tbk_units *ux = tbk_predictor_units(pr);
      size_t nu = tbk_units_count(ux);
      unsigned char *keep = malloc(nu ? nu : 1);
      tbk_content_options co;
      tbk_content_options_init(&co);
      for (size_t i = 0; i < nu; i++)
        if (isnan(up[i]) || up[i] < 0 || up[i] > 1) abort();
      tbk_buf text = {0};
      if (keep) {
        tbk_content_decide(p, ux, up, &co, keep);
        (void)tbk_render_units_text(p, ux, keep, &co, &text, NULL);
      }
      tbk_buf_free(&text);
      free(keep);
    }
    tbk_page_free(p);
  }
  tbk_predictor_free(pr);
}

static void try_parse(const char *s, size_t n) {
  tbk_model *m = NULL;
  tbk_error err = {0};
  if (tbk_model_parse(s, n, &m, &err) == TBK_OK) {
    exercise(m);
  } else if (m || err.msg[0] == '\0' || strchr(err.msg, '\n')) {
    abort();
  }
  tbk_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *s = (const char *)data;
  try_parse(s, size);
  /* Drop a final "checksum" line and append the right one. */
  size_t body = size;
  while (body && s[body - 1] == '\n') body--;
  size_t last = body;
  while (last && s[last - 1] != '\n') last--;
  if (body - last >= 9 && memcmp(s + last, "checksum ", 9) == 0) body = last;
  else body = size;
  if (body && s[body - 1] != '\n') return 0; /* a checksum line must start a line */
  unsigned char md5[16];
  char hex[33];
  tbk_md5(s, body, md5);
  tbk_md5_hex(md5, hex);
  char *fixed = malloc(body + 64);
  if (!fixed) abort();
  memcpy(fixed, s, body);
  int k = snprintf(fixed + body, 64, "checksum %s\n", hex);
  try_parse(fixed, body + (size_t)k);
  free(fixed);
  return 0;
}
