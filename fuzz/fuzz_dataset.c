/* Fuzz target: the training-data reader and training itself. The bytes are
 * split at \x01 into a features file, a words file and a meta file (the
 * three aligned files tbk-features writes), read with tbk_dataset_read,
 * and when they give a small dataset, a model is trained on it. Whatever
 * the values (1e308, denormals, one site, one class), training either
 * fails with a message or gives a model that writes back to a file that
 * parses (round trip) and predicts probabilities in [0, 1]. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tbk_internal.h"

static char dir[4096], fsvm[4200], fwords[4200], fmeta[4200];

static void cleanup(void) {
  remove(fsvm);
  remove(fwords);
  remove(fmeta);
  remove(dir);
}

static void init(void) {
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp) tmp = "/tmp";
  snprintf(dir, sizeof dir, "%s/tbk-fuzz-dataset-%ld", tmp, (long)getpid());
  if (mkdir(dir, 0700) && access(dir, W_OK)) abort();
  snprintf(fsvm, sizeof fsvm, "%s/f.svm", dir);
  snprintf(fwords, sizeof fwords, "%s/f.words", dir);
  snprintf(fmeta, sizeof fmeta, "%s/f.meta", dir);
  atexit(cleanup);
}

static void put(const char *path, const uint8_t *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f)) abort();
}

static void quiet(void *ctx, const char *file, const char *msg) {
  (void)ctx;
  if (!file || !msg || !*msg || strchr(msg, '\n')) abort();
}

static void check_model(const tbk_model *m) {
  tbk_buf out = {0};
  tbk_error err = {0};
  if (tbk_model_write(m, &out, &err) != TBK_OK) abort();
  tbk_model *again = NULL;
  if (tbk_model_parse(out.data, out.len, &again, &err) != TBK_OK) {
    fprintf(stderr, "trained model refused on reading: %s\n", err.msg);
    abort();
  }
  tbk_model_free(again);
  tbk_buf_free(&out);
  const tbk_operating_point *ops;
  size_t n = tbk_model_operating_points(m, &ops);
  for (size_t i = 0; i < n; i++)
    if (isnan(ops[i].threshold) || !(ops[i].recall >= 0 && ops[i].recall <= 1)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) init();
  const uint8_t *part[3] = {data, data + size, data + size};
  size_t len[3] = {size, 0, 0};
  for (int k = 0; k < 2; k++) {
    const uint8_t *sep = memchr(part[k], 1, len[k]);
    if (!sep) break;
    part[k + 1] = sep + 1;
    len[k + 1] = (size_t)(part[k] + len[k] - (sep + 1));
    len[k] = (size_t)(sep - part[k]);
  }
  put(fsvm, part[0], len[0]);
  put(fwords, part[1], len[1]);
  put(fmeta, part[2], len[2]);

  tbk_dataset *ds = NULL;
  tbk_error err = {0};
  if (tbk_dataset_new(NULL, 0, 0, &ds, &err) != TBK_OK) abort();
  tbk_status st = tbk_dataset_read(ds, fsvm, fwords, fmeta, quiet, NULL, &err);
  if (st != TBK_OK) {
    if (!err.msg[0] || strchr(err.msg, '\n')) abort();
  } else if (tbk_dataset_rows(ds) >= 2 && tbk_dataset_rows(ds) <= 64) {
    tbk_train_options opt;
    tbk_train_options_init(&opt);
    opt.cv_folds = tbk_dataset_sites(ds) >= 2 ? 2 : 0;
    opt.nb_folds = 2;
    tbk_model *m = NULL;
    if (tbk_train(ds, &opt, NULL, NULL, &m, &err) == TBK_OK) check_model(m);
    else if (m || !err.msg[0] || strchr(err.msg, '\n')) abort();
    tbk_model_free(m);
  }
  tbk_dataset_free(ds);
  return 0;
}
