/* Fuzz target: the label and gold readers and the numbers of the model
 * loader. The first byte picks what the rest is:
 *   0: a labels file (tbk-label's JSON Lines) read by tbk_label_set_read,
 *      then matched against a few blocks and reported unmatched;
 *   1: a page text and a gold text (split at the first NUL), the text cut
 *      into units at its newlines, aligned by tbk_align_gold: every
 *      matched count must be within its unit's token count;
 *   2: a number as the model loader reads it: tbk_strtod must agree with
 *      the C library's strtod in the C locale (the locale libFuzzer runs). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tbk_internal.h"

static void labels(const uint8_t *data, size_t size) {
  static char path[64];
  if (!*path) snprintf(path, sizeof path, "/tmp/tbk-fuzz-labels-%d.jsonl", (int)getpid());
  FILE *f = fopen(path, "wb");
  if (!f) return;
  if (size) fwrite(data, 1, size, f);
  fclose(f);
  tbk_label_set *s = NULL;
  size_t bad = 0, unread = 0;
  tbk_error err;
  if (tbk_label_set_read(path, NULL, NULL, &s, &bad, &err) == TBK_OK) {
    static const char *const pages[] = {"p", "http://a.example/x", "pages/s/1.html", ""};
    static const char *const paths[] = {"/html[1]/body[1]/div[1]", "/html[1]/body[1]", ""};
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
      if (tbk_label_set_has_page(s, pages[i])) tbk_label_set_page_read(s, pages[i]);
      for (size_t j = 0; j < sizeof paths / sizeof *paths; j++) {
        int label = -1;
        const char *md5 = NULL;
        if (tbk_label_set_match(s, pages[i], paths[j], "00000000000000000000000000000000", &label, &md5) !=
                TBK_MATCH_NONE &&
            (label < -1 || label > 1 || !md5))
          abort();
      }
    }
    tbk_label_set_unmatched(s, NULL, NULL, &unread);
    tbk_label_set_free(s);
  }
  unlink(path);
}

static void gold(const uint8_t *data, size_t size) {
  const char *text = (const char *)data, *nul = memchr(data, 0, size);
  size_t text_len = nul ? (size_t)(nul - text) : size;
  const char *g = nul ? nul + 1 : "";
  size_t gold_len = nul ? size - text_len - 1 : 0;
  enum { MAXU = 64 };
  uint32_t start[MAXU], end[MAXU], tokens[MAXU], matched[MAXU];
  size_t n = 0, at = 0;
  for (size_t i = 0; i <= text_len && n < MAXU; i++)
    if (i == text_len || text[i] == '\n') {
      start[n] = (uint32_t)at;
      end[n] = (uint32_t)i;
      n++;
      at = i + 1;
    }
  static tbk_tokenizer *t;
  tbk_error err;
  if (!t && tbk_tokenizer_new(&t, &err)) abort();
  if (tbk_align_gold(t, text, text_len, start, end, n, g, gold_len, tokens, matched, &err) == TBK_OK)
    for (size_t u = 0; u < n; u++)
      if (matched[u] > tokens[u]) abort();
}

static void number(const uint8_t *data, size_t size) {
  char s[64];
  size_t n = size < sizeof s - 1 ? size : sizeof s - 1;
  memcpy(s, data, n);
  s[n] = '\0';
  char *e1, *e2;
  double a = tbk_strtod(s, &e1), b = strtod(s, &e2);
  if (e1 != e2 || (!(isnan(a) && isnan(b)) && memcmp(&a, &b, sizeof a) != 0)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  switch (data[0] % 3) {
  case 0: labels(data + 1, size - 1); break;
  case 1: gold(data + 1, size - 1); break;
  default: number(data + 1, size - 1); break;
  }
  return 0;
}
