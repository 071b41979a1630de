/* The contextual pass's features of a unit: its neighbours' first-pass
 * probabilities (context.c trains on them; prediction computes them here
 * without linking the trainer). */
#include <math.h>

#include "model.h"

void tbk_context_features(const double *p, const double *chars, size_t n, size_t i, double *out) {
  const double none = 0.5; /* no neighbour: even odds */
  out[0] = p[i];
  out[1] = i >= 1 ? p[i - 1] : none;
  out[2] = i + 1 < n ? p[i + 1] : none;
  out[3] = i >= 2 ? p[i - 2] : none;
  out[4] = i + 2 < n ? p[i + 2] : none;
  double ws = 0, w = 0;
  for (size_t j = i >= 3 ? i - 3 : 0; j < n && j <= i + 3; j++) {
    if (j == i) continue;
    ws += chars[j] * p[j];
    w += chars[j];
  }
  out[5] = w > 0 ? ws / w : none;
  out[6] = fmin(out[1], out[2]);
  out[7] = fmax(out[1], out[2]);
  double page_w = 0, page_ws = 0, before = 0, after = 0;
  for (size_t j = 0; j < n; j++) {
    page_w += chars[j];
    page_ws += chars[j] * p[j];
    if (p[j] < 0.5) {
      if (j < i) before += chars[j];
      else if (j > i) after += chars[j];
    }
  }
  out[8] = page_w > 0 ? page_ws / page_w : none;
  out[9] = page_w > 0 ? before / page_w : 0;
  out[10] = page_w > 0 ? after / page_w : 0;
  /* units to the nearest confident piece of prose */
  double dist = 50;
  for (size_t d = 1; d < 50; d++) {
    if ((i >= d && p[i - d] < 0.5 && chars[i - d] >= 100) || (i + d < n && p[i + d] < 0.5 && chars[i + d] >= 100)) {
      dist = (double)d;
      break;
    }
  }
  out[11] = dist;
}
