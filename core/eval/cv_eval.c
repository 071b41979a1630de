/* tbk-eval cv's view of a dataset's rows (cv_eval.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv_eval.h"

tbk_status tbk_cv_rows_index(const tbk_dataset *ds, tbk_cv_rows *out, tbk_error *err) {
  memset(out, 0, sizeof *out);
  size_t rows = tbk_dataset_rows(ds), sites = tbk_dataset_sites(ds), found = 0;
  out->rows = rows;
  out->label = malloc((rows ? rows : 1) * sizeof *out->label);
  out->site_name = malloc((sites ? sites : 1) * sizeof *out->site_name);
  out->site_of = malloc((rows ? rows : 1) * sizeof *out->site_of);
  if (!out->label || !out->site_name || !out->site_of) {
    tbk_cv_rows_free(out);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  for (size_t r = 0; r < rows; r++) {
    out->positives += (out->label[r] = tbk_dataset_label(ds, r)) == 1;
    const char *s = tbk_dataset_site(ds, r);
    size_t k = 0;
    if (r > 0 && s == tbk_dataset_site(ds, r - 1)) k = out->site_of[r - 1];
    else {
      while (k < found && out->site_name[k] != s) k++;
      if (k == found) out->site_name[found++] = s;
    }
    out->site_of[r] = k;
  }
  out->nsites = found;
  return TBK_OK;
}

void tbk_cv_rows_free(tbk_cv_rows *r) {
  free(r->label);
  free(r->site_name);
  free(r->site_of);
  memset(r, 0, sizeof *r);
}

tbk_status tbk_cv_site_at(const tbk_cv_rows *r, const double *scores, size_t k, double thr, double *ss, int *sy,
                          tbk_cv_site *out, tbk_error *err) {
  size_t m = 0, pos = 0, tp = 0, fp = 0;
  for (size_t i = 0; i < r->rows; i++) {
    if (r->site_of[i] != k || isnan(scores[i])) continue;
    ss[m] = scores[i];
    sy[m] = r->label[i];
    pos += sy[m] == 1;
    if (ss[m] >= thr) {
      tp += sy[m] == 1;
      fp += sy[m] != 1;
    }
    m++;
  }
  out->rows = m;
  out->templates = pos;
  out->tp = tp;
  out->fp = fp;
  return tbk_ranking_compute(ss, sy, m, &out->rank, err);
}
