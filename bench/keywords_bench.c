/* tbk-bench-keywords: keyword extraction's speed on already-parsed pages
 * (docs/experiments/benchmarks-applications.md "Keyword extraction"). Every page of the inputs is read
 * and parsed first (not timed); then, on one thread, the extraction from
 * each page's whole text (candidates, features and the TF-IDF ranking
 * against a DF table made from the same pages) is timed over --rounds
 * passes (CPU time), and once the denoising stages before it.
 *   tbk-bench-keywords [-m MODEL] [--rounds N] INPUT...   */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tbk_internal.h"

/* The process's CPU time: one thread, so on a machine other jobs share it
 * counts the extraction's own work, not the waits for a core. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, const tbk_error *err) {
  fprintf(stderr, "tbk-bench-keywords: error: %s: %s\n", what, err ? err->msg : "out of memory");
  exit(1);
}

int main(int argc, char **argv) {
  const char *model_path = getenv("TBK_MODEL");
  int rounds = 3, first = 1;
  while (first < argc && argv[first][0] == '-') {
    if (strcmp(argv[first], "-m") == 0 && first + 1 < argc) model_path = argv[first + 1], first += 2;
    else if (strcmp(argv[first], "--rounds") == 0 && first + 1 < argc) rounds = atoi(argv[first + 1]), first += 2;
    else break;
  }
  if (first >= argc || !model_path || rounds < 1) {
    fprintf(stderr, "Usage: tbk-bench-keywords [-m MODEL] [--rounds N] INPUT...\n");
    return 2;
  }
  tbk_error err = {0};
  tbk_model *model;
  tbk_predictor *pr;
  if (tbk_model_load(model_path, &model, &err) || tbk_predictor_new(model, &pr, &err)) die(model_path, &err);
  tbk_page_options po;
  tbk_model_page_options(model, &po);
  po.fingerprints = 0;
  tbk_input_options io;
  tbk_input_options_init(&io);
  tbk_page_list list = {0};
  for (int i = first; i < argc; i++)
    if (tbk_page_list_add(&list, argv[i], &io, NULL, NULL, &err)) die(argv[i], &err);
  tbk_page **pages = calloc(list.n ? list.n : 1, sizeof *pages);
  size_t np = 0, bytes = 0;
  tbk_buf raw = {0};
  for (size_t i = 0; i < list.n; i++) {
    raw.len = 0;
    if (tbk_page_ref_read(&list.refs[i], &io, &raw, &err)) continue;
    if (tbk_page_parse(raw.data ? raw.data : "", raw.len, &po, &pages[np], &err) == TBK_OK) np++, bytes += raw.len;
  }
  tbk_kw_extractor *x;
  tbk_kw_df *df;
  if (tbk_kw_new(&x, &err) || tbk_kw_df_new(&df, &err)) die("extractor", &err);
  for (size_t i = 0; i < np; i++) {
    tbk_kw_begin(x);
    if (tbk_kw_add_page(x, pages[i], NULL) || tbk_kw_finish(x, &err) || tbk_kw_df_add(df, x, &err)) die("df", &err);
  }
  size_t tokens = 0, cands = 0;
  double best = 1e300;
  for (int r = 0; r < rounds; r++) {
    double t0 = now();
    for (size_t i = 0; i < np; i++) {
      tbk_kw_begin(x);
      if (tbk_kw_add_page(x, pages[i], NULL) || tbk_kw_finish(x, &err)) die("extract", &err);
      tbk_kw_rank(x, df, NULL);
      if (!r) tokens += tbk_kw_tokens(x), cands += tbk_kw_count(x);
    }
    double t = now() - t0;
    if (t < best) best = t;
  }
  printf("pages %zu (%.1f MB raw), %.0f tokens and %.0f candidates a page\n", np, bytes / 1e6,
         np ? (double)tokens / np : 0, np ? (double)cands / np : 0);
  printf("extract+rank (whole text): %.3f s, %.0f pages/s (best of %d)\n", best, np / best, rounds);
  static const char *const names[] = {"none", "template", "content"};
  unsigned char *keep = NULL;
  size_t cap = 0;
  for (int mode = 1; mode <= 2; mode++) {
    if (mode == 2 && !tbk_model_content(model)) break;
    double t0 = now(), tk = 0;
    for (size_t i = 0; i < np; i++) {
      if (tbk_kw_page_keep(pr, pages[i], (tbk_kw_denoise)mode, NULL, &keep, &cap, &err) == TBK_ERR_LIMIT) continue;
      double t1 = now();
      tbk_kw_begin(x);
      if (tbk_kw_add_page(x, pages[i], keep) || tbk_kw_finish(x, &err)) die("extract", &err);
      tbk_kw_rank(x, df, NULL);
      tk += now() - t1;
    }
    double t = now() - t0;
    printf("--denoise %s: %.3f s, %.0f pages/s with the stage; extraction alone %.0f pages/s\n", names[mode], t, np / t,
           np / tk);
  }
  free(keep);
  tbk_buf_free(&raw);
  for (size_t i = 0; i < np; i++) tbk_page_free(pages[i]);
  free(pages);
  tbk_kw_df_free(df);
  tbk_kw_free(x);
  tbk_predictor_free(pr);
  tbk_model_free(model);
  tbk_page_list_free(&list);
  return 0;
}
