/* Training rows are packed into bytes (varints, floats where they hold a
 * value exactly, else doubles): every value and word must come back bit
 * for bit, in order, whatever kind it was stored as, and two rows must
 * pack to the same bytes exactly when they are equal (deduplication
 * compares bytes). The rows behind a fit's encoding can be given back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "tbk_internal.h"

enum { DIM = 300 };

/* Values of every kind: whole numbers at the varint's edges and past
 * 2^32, their negatives, floats, doubles, -0.0, subnormals, the extremes. */
static const double KINDS[] = {
    1,      -1,    127,      128, 16383,     16384,     4294967295.0, 4294967296.0, -4294967295.0, -4294967296.0,
    0.5,    -0.25, 1.5e-40,  0.1, -0.1,      1.0 / 3.0, -0.0,         5e-324,       1e300,         -1e300,
    3.0e38, 1e-45, 0x1p-149, 2.5, 1e15 + 0.5};

static void fill(double *v, unsigned seed) {
  memset(v, 0, DIM * sizeof *v);
  size_t nk = sizeof KINDS / sizeof KINDS[0];
  for (uint32_t j = 0; j < DIM; j++) {
    seed = seed * 1103515245u + 12345u;
    unsigned r = seed >> 16;
    if (r % 4 == 0) v[j] = KINDS[r / 4 % nk];
  }
  v[0] = KINDS[seed % nk]; /* the first column, gap 0 from column -1 */
  v[DIM - 1] = -0.0;       /* the last, and a zero that is stored */
}

static int same_bits(const double *a, const double *b, size_t n) { return memcmp(a, b, n * sizeof *a) == 0; }

/* tbk_dataset_release_before: the pages of the rows before r go back to
 * the system (Linux), whole pages only and never row r's own; the rows
 * from r on read back bit for bit; an earlier r after a later one gives
 * nothing back twice. */
static void test_release(void) {
  enum { N = 6000 };
  tbk_dataset *ds = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_dataset_new("test-schema:1", DIM, 1u << 24, &ds, &err), TBK_OK);
  if (!ds) return;
  double v[DIM], x[DIM];
  uint32_t widx[2] = {5, 9}, wcnt[2] = {1, 2};
  int ok = 1;
  for (unsigned r = 0; r < N && ok; r++) {
    fill(v, r + 7);
    ok = tbk_dataset_add(ds, "site", r % 2 ? 1 : -1, v, widx, wcnt, 2, &err) == TBK_OK;
  }
  CHECK(ok);
  CHECK(ds->row_ptr[N / 2] > 64 * 1024); /* many pages before the middle row */
  tbk_dataset_release_before(ds, N / 2);
#if defined(__linux__)
  CHECK(ds->released > ds->row_ptr[N / 2] - 2 * 65536 && ds->released <= ds->row_ptr[N / 2]);
#endif
  size_t was = ds->released;
  tbk_dataset_release_before(ds, N / 4); /* behind what is released: nothing */
  CHECK_INT(ds->released, was);
  tbk_term t[2];
  int same = 1;
  for (unsigned r = N / 2; r < N; r++) {
    fill(v, r + 7);
    tbk_dataset_dense(ds, r, x);
    same &= same_bits(x, v, DIM) && tbk_dataset_words(ds, r, t) == 2 && t[1].index == 8 && t[1].count == 2;
  }
  CHECK(same);
  tbk_dataset_release_before(ds, N); /* all rows: up to the end */
  CHECK(ds->released <= ds->nbytes);
  tbk_dataset_free(ds);
}

int main(void) {
  test_release();
  tbk_dataset *ds = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_dataset_new("test-schema:1", DIM, 1u << 24, &ds, &err), TBK_OK);
  if (!ds) return check_report();
  enum { ROWS = 40 };
  double v[ROWS][DIM];
  uint32_t widx[ROWS][4], wcnt[ROWS][4];
  for (unsigned r = 0; r < ROWS; r++) {
    fill(v[r], r + 1);
    /* words: index 1 and the last of 2^24 (the largest gap), counts past a
     * byte and 0 (what a fractional count below 1 reads as) */
    uint32_t idx[4] = {1, 2 + r, 70000 + r * 1000, 1u << 24}, cnt[4] = {1, 300 + r, r % 3 ? 0 : 4000000000u, 7};
    memcpy(widx[r], idx, sizeof idx);
    memcpy(wcnt[r], cnt, sizeof cnt);
    CHECK_INT(tbk_dataset_add(ds, "site", r % 2 ? 1 : -1, v[r], widx[r], wcnt[r], r % 5 ? 4 : 0, &err), TBK_OK);
  }
  /* a row with no values and no words, and a copy of row 3 */
  double zero[DIM] = {0};
  CHECK_INT(tbk_dataset_add(ds, "site", 1, zero, NULL, NULL, 0, &err), TBK_OK);
  CHECK_INT(tbk_dataset_add(ds, "site", 1, v[3], widx[3], wcnt[3], 4, &err), TBK_OK);
  CHECK_INT(tbk_dataset_rows(ds), ROWS + 2);
  CHECK_INT(ds->max_words, 4);

  double x[DIM];
  tbk_term t[4];
  for (unsigned r = 0; r < ROWS; r++) {
    tbk_dataset_dense(ds, r, x);
    CHECK(same_bits(x, v[r], DIM));
    size_t n = tbk_dataset_words(ds, r, t);
    CHECK_INT(n, r % 5 ? 4 : 0);
    for (size_t k = 0; k < n; k++) {
      CHECK_INT(t[k].index, widx[r][k] - 1);
      CHECK_NEAR(t[k].count, (double)wcnt[r][k], 0);
    }
    /* the value iterator and the single-value lookup agree with it */
    tbk_values it;
    tbk_values_start(ds, r, &it);
    uint32_t last = UINT32_MAX;
    int ordered = 1;
    while (tbk_values_next(&it)) {
      ordered &= last == UINT32_MAX || it.col > last;
      ordered &= memcmp(&it.v, &v[r][it.col], sizeof it.v) == 0 && (it.v != 0 || signbit(it.v));
      last = it.col;
    }
    CHECK(ordered);
    CHECK_INT(last, DIM - 1);
    double d = tbk_dataset_value(ds, r, DIM - 1);
    CHECK(d == 0 && signbit(d));
  }
  tbk_dataset_dense(ds, ROWS, x);
  CHECK(same_bits(x, zero, DIM));
  CHECK_INT(tbk_dataset_words(ds, ROWS, t), 0);

  /* equal rows pack alike; -0.0 against 0.0 does not */
  size_t a = ds->row_ptr[3], b = ds->row_ptr[ROWS + 1], len = ds->row_ptr[4] - a;
  CHECK_INT(ds->row_ptr[ROWS + 2] - b, len);
  CHECK(memcmp(ds->bytes + a, ds->bytes + b, len) == 0);
  double neg[DIM] = {0};
  neg[7] = -0.0;
  CHECK_INT(tbk_dataset_add(ds, "site", 1, neg, NULL, NULL, 0, &err), TBK_OK);
  CHECK(ds->row_ptr[ROWS + 3] - ds->row_ptr[ROWS + 2] > ds->row_ptr[ROWS + 1] - ds->row_ptr[ROWS]);
  tbk_dataset_dense(ds, ROWS + 2, x);
  CHECK(same_bits(x, neg, DIM));

  /* packing takes far less than 12 bytes a value and 16 a word */
  size_t nvals = 0, nwords = 0;
  for (unsigned r = 0; r < ROWS; r++) {
    for (uint32_t j = 0; j < DIM; j++) nvals += v[r][j] != 0 || signbit(v[r][j]);
    nwords += r % 5 ? 4 : 0;
  }
  CHECK(ds->row_ptr[ROWS] < nvals * 12 * 3 / 4 + nwords * 16 / 2);
  tbk_dataset_free(ds);
  return check_report();
}
