/* Latin-equivalent lengths (measure.h). */
#include "measure.h"
#include "util.h"

void tbk_text_counts(const char *s, size_t n, size_t *cps, size_t *wide) {
  const unsigned char *u = (const unsigned char *)s;
  size_t c = 0, w = 0;
  for (size_t i = 0; i < n; c++) {
    if (u[i] < 0x80) {
      i++;
      continue;
    }
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (k >= 3) w += (size_t)tbk_utf8_wide_at(u + i, k);
    i += k ? k : 1;
  }
  *cps = c;
  *wide = w;
}

size_t tbk_text_length(const char *s, size_t n) {
  size_t c, w;
  tbk_text_counts(s, n, &c, &w);
  return tbk_length_of(c, w);
}
