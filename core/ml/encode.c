/* How the numeric inputs become columns of the logistic model (MDL
 * interval indicators and/or log-compressed, min-max scaled values), shared
 * by training, which fits the encoder, and prediction, which applies it.
 * Kept apart from train.c so a program that only predicts does not link
 * the trainer (nor LIBLINEAR). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

void tbk_encoder_free(tbk_encoder *enc) {
  if (enc->cuts)
    for (uint32_t j = 0; j < enc->nin; j++) free(enc->cuts[j]);
  free(enc->cuts);
  free(enc->ncuts);
  free(enc->bin_col);
  free(enc->raw_col);
  free(enc->lo);
  free(enc->hi);
  free(enc->zero_bin);
  free(enc->zero_raw);
  memset(enc, 0, sizeof *enc);
}

int tbk_encoder_alloc(tbk_encoder *enc, uint32_t nin) {
  enc->nin = nin;
  enc->ncuts = calloc(nin, sizeof *enc->ncuts);
  enc->cuts = calloc(nin, sizeof *enc->cuts);
  enc->bin_col = calloc(nin, sizeof *enc->bin_col);
  enc->raw_col = calloc(nin, sizeof *enc->raw_col);
  enc->lo = calloc(nin, sizeof *enc->lo);
  enc->hi = calloc(nin, sizeof *enc->hi);
  enc->zero_bin = calloc(nin, sizeof *enc->zero_bin);
  enc->zero_raw = calloc(nin, sizeof *enc->zero_raw);
  return enc->ncuts && enc->cuts && enc->bin_col && enc->raw_col && enc->lo && enc->hi && enc->zero_bin && enc->zero_raw
             ? 0
             : -1;
}

/* Sign-symmetric log1p. Most inputs are 0 (absent tags, binary
 * indicators) and most others are counts: those take no log at all, the
 * counts' logs come from a table filled by log1p itself (bit-identical). */
static double log1p_table[TBK_LOG1P_TABLE];
static pthread_once_t log1p_once = PTHREAD_ONCE_INIT;
static void log1p_init(void) {
  for (int i = 0; i < TBK_LOG1P_TABLE; i++) log1p_table[i] = log1p((double)i);
}

const double *tbk_encode_log1p_table(void) {
  pthread_once(&log1p_once, log1p_init);
  return log1p_table;
}

double tbk_encode_compress(double v) {
  if (v == 0) return 0;
  double a = fabs(v);
  double c = a < TBK_LOG1P_TABLE && a == (double)(int)a ? tbk_encode_log1p_table()[(int)a] : log1p(a);
  return v > 0 ? c : -c;
}

static double scale_raw(const tbk_encoder *enc, uint32_t j, double v) {
  double c = tbk_encode_compress(v), span = enc->hi[j] - enc->lo[j];
  double z = span > 0 ? (c - enc->lo[j]) / span : 0.0;
  if (z < 0) z = 0; /* unseen ranges are clipped, never extrapolated */
  if (z > 1) z = 1;
  return z;
}

void tbk_encoder_prepare(tbk_encoder *enc) {
  for (uint32_t j = 0; j < enc->nin; j++) {
    enc->zero_bin[j] = enc->bin_col[j] ? enc->bin_col[j] + (uint32_t)tbk_mdl_bin(enc->cuts[j], enc->ncuts[j], 0.0) : 0;
    enc->zero_raw[j] = enc->raw_col[j] ? scale_raw(enc, j, 0.0) : 0.0;
  }
}

size_t tbk_encode(const tbk_encoder *enc, const double *x, double s, uint32_t *idx, double *val) {
  size_t n = 0;
  for (uint32_t j = 0; j < enc->nin; j++) {
    double v = j + 1 == enc->nin ? s : x[j];
    if (v == 0) {
      if (enc->zero_bin[j]) {
        idx[n] = enc->zero_bin[j];
        val[n++] = 1.0;
      }
      if (enc->zero_raw[j] != 0) {
        idx[n] = enc->raw_col[j];
        val[n++] = enc->zero_raw[j];
      }
      continue;
    }
    if (enc->bin_col[j]) {
      idx[n] = enc->bin_col[j] + (uint32_t)tbk_mdl_bin(enc->cuts[j], enc->ncuts[j], v);
      val[n++] = 1.0;
    }
    if (enc->raw_col[j]) {
      double z = scale_raw(enc, j, v);
      if (z != 0) {
        idx[n] = enc->raw_col[j];
        val[n++] = z;
      }
    }
  }
  return n;
}

double tbk_encode_contrib(const tbk_encoder *enc, const double *w, uint32_t j, double v) {
  double z = 0;
  if (v == 0) {
    if (enc->zero_bin[j]) z += w[enc->zero_bin[j] - 1];
    if (enc->zero_raw[j] != 0) z += w[enc->raw_col[j] - 1] * enc->zero_raw[j];
    return z;
  }
  if (enc->bin_col[j]) z += w[enc->bin_col[j] + (uint32_t)tbk_mdl_bin(enc->cuts[j], enc->ncuts[j], v) - 1];
  if (enc->raw_col[j]) z += w[enc->raw_col[j] - 1] * scale_raw(enc, j, v);
  return z;
}

void tbk_contrib_input_init(const tbk_encoder *enc, const double *w, uint32_t j, tbk_contrib_input *in) {
  in->cuts = enc->cuts[j];
  in->ncuts = (uint32_t)enc->ncuts[j];
  in->wbin = enc->bin_col[j] ? w + enc->bin_col[j] - 1 : NULL;
  in->has_raw = enc->raw_col[j] != 0;
  in->wraw = in->has_raw ? w[enc->raw_col[j] - 1] : 0;
  in->lo = enc->lo[j];
  in->span = enc->hi[j] - enc->lo[j];
  in->zero = tbk_encode_contrib(enc, w, j, 0.0);
}
