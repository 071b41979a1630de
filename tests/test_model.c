/* Model files: train a small model in memory, write it, parse it back and
 * write it again (byte-identical: every parameter survives), and refuse
 * damaged files with TBK_ERR_MODEL. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "tbk_internal.h"

/* Two features: f0 separates the classes, f1 is noise; words 1-4 lean
 * template, 5-8 content. Six sites so cross-site CV has folds. */
static tbk_dataset *toy_dataset(void) {
  tbk_dataset *ds;
  tbk_error err;
  if (tbk_dataset_new("test-schema:1", 2, 16, &ds, &err)) return NULL;
  unsigned seed = 7;
  for (int site = 0; site < 6; site++) {
    char name[16];
    snprintf(name, sizeof name, "site%d", site);
    for (int i = 0; i < 40; i++) {
      int label = i % 3 == 0 ? -1 : 1;
      seed = seed * 1103515245u + 12345u;
      double noise = (double)(seed >> 16 & 0xFF) / 255.0;
      double v[2] = {label > 0 ? 5.0 + noise * 4 : 1.0 + noise * 3, noise};
      uint32_t w[2] = {label > 0 ? 1u + (uint32_t)(i % 4) : 5u + (uint32_t)(i % 4), 9u + (uint32_t)(site % 4)};
      uint32_t c[2] = {1 + (uint32_t)(i % 2), 1};
      if (tbk_dataset_add(ds, name, label, v, w, c, 2, &err)) {
        tbk_dataset_free(ds);
        return NULL;
      }
    }
  }
  return ds;
}

/* The predictor sums tbk_encode_contrib over the nonzero inputs (zero
 * inputs folded into a constant): that must be the decision of the encoded
 * row, for zeros, cut points exactly, values between and beyond them,
 * negatives and huge values; and tbk_contrib, the scorer's form of it,
 * must give its very bits. */
static void check_contrib(const tbk_model *m, unsigned seed) {
  const tbk_encoder *e = &m->enc;
  uint32_t *idx = malloc(2 * (size_t)e->nin * sizeof *idx);
  double *val = malloc(2 * (size_t)e->nin * sizeof *val), *x = calloc(e->nin, sizeof *x);
  if (!idx || !val || !x) exit(1);
  int bad = 0, bad_bits = 0;
  for (int trial = 0; trial < 200; trial++) {
    for (uint32_t j = 0; j < e->nin; j++) {
      seed = seed * 1103515245u + 12345u;
      unsigned r = seed >> 16;
      switch (r % 6) {
      case 0:
      case 1: x[j] = 0; break;
      case 2: x[j] = e->ncuts[j] ? e->cuts[j][r / 6 % e->ncuts[j]] : 1; break;
      case 3: x[j] = (double)(r % 1000) / 37.0; break;
      case 4: x[j] = -(double)(r % 100); break;
      default: x[j] = r % 2 ? 1e300 : 1e-300; break;
      }
    }
    size_t k = tbk_encode(e, x, x[e->nin - 1], idx, val);
    double dense = tbk_lr_decision(m->w, e->ncols, idx, val, k), sparse = m->w[e->ncols];
    for (uint32_t j = 0; j < e->nin; j++) sparse += tbk_encode_contrib(e, m->w, j, x[j]);
    if (!(fabs(dense - sparse) <= 1e-9 * (1 + fabs(dense)))) bad++;
    /* the scorer's gathered form: the same bits for every nonzero value,
     * and for whole numbers in and past the log table */
    for (uint32_t j = 0; j < e->nin; j++) {
      tbk_contrib_input ci;
      tbk_contrib_input_init(e, m->w, j, &ci);
      double whole = (double)(seed % 3000) - 500, vs[2] = {x[j], whole};
      seed = seed * 1103515245u + 12345u;
      for (int q = 0; q < 2; q++) {
        if (vs[q] == 0) continue;
        double want = tbk_encode_contrib(e, m->w, j, vs[q]), got = tbk_contrib(&ci, tbk_encode_log1p_table(), vs[q]);
        if (memcmp(&want, &got, sizeof want) != 0) bad_bits++;
      }
      double zero = tbk_encode_contrib(e, m->w, j, 0);
      if (memcmp(&zero, &ci.zero, sizeof zero) != 0) bad_bits++;
    }
  }
  CHECK_INT(bad, 0);
  CHECK_INT(bad_bits, 0);
  free(idx);
  free(val);
  free(x);
}

/* The checksum line a model file ends with, made right for v's content:
 * damage behind it reaches the record parser. */
static void append_checksum(tbk_buf *v) {
  unsigned char md5[16];
  char hex[33];
  tbk_md5(v->data, v->len, md5);
  tbk_md5_hex(md5, hex);
  CHECK_BUF(tbk_buf_printf(v, "checksum %s\n", hex));
}

static tbk_status parse_str(const char *s, size_t n, tbk_model **m, tbk_error *err) {
  return tbk_model_parse(s, n, m, err);
}

int main(void) {
  tbk_dataset *ds = toy_dataset();
  CHECK(ds != NULL);
  if (!ds) return check_report();
  CHECK_INT(tbk_dataset_rows(ds), 240);
  CHECK_INT(tbk_dataset_sites(ds), 6);

  tbk_train_options opt;
  tbk_train_options_init(&opt);
  opt.cv_folds = 3;
  tbk_model *m = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_train(ds, &opt, NULL, NULL, &m, &err), TBK_OK);
  if (!m) {
    fprintf(stderr, "train: %s\n", err.msg);
    return check_report();
  }
  CHECK_STR(tbk_model_schema(m), "test-schema:1");
  check_contrib(m, 1);
  {
    tbk_model *dm = NULL;
    CHECK_INT(tbk_model_load(TBK_DEFAULT_MODEL, &dm, &err), TBK_OK);
    if (dm) check_contrib(dm, 2);
    /* the shipped model written back is its file, byte for byte: the
     * naive Bayes words kept as count pairs give back every word line */
    tbk_buf file = {0}, back = {0};
    CHECK_INT(tbk_read_file(TBK_DEFAULT_MODEL, 0, &file, &err), TBK_OK);
    if (dm) CHECK_INT(tbk_model_write(dm, &back, &err), TBK_OK);
    CHECK(file.len > 0 && file.len == back.len && memcmp(file.data, back.data, file.len) == 0);
    tbk_buf_free(&file);
    tbk_buf_free(&back);
    tbk_model_free(dm);
  }

  /* Separable data: the CV operating points exist and recall is high. */
  const tbk_operating_point *ops;
  size_t nops = tbk_model_operating_points(m, &ops);
  CHECK_INT(nops, 3);
  for (size_t i = 0; i < nops; i++) CHECK(ops[i].recall > 0.9);
  CHECK_NEAR(tbk_model_threshold_for(m, 0.9), ops[1].threshold, 0);
  CHECK_NEAR(tbk_model_threshold_for(m, 0.85), ops[1].threshold, 0); /* next stricter point */
  CHECK(isnan(tbk_model_threshold_for(m, 0.99)));
  CHECK_NEAR(tbk_model_default_threshold(m), 0.5, 0);

  tbk_buf a = {0}, b = {0};
  CHECK_INT(tbk_model_write(m, &a, &err), TBK_OK);
  tbk_model *m2 = NULL;
  CHECK_INT(parse_str(a.data, a.len, &m2, &err), TBK_OK);
  if (m2) {
    CHECK_INT(tbk_model_write(m2, &b, &err), TBK_OK);
    CHECK_INT(a.len, b.len);
    CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    tbk_page_options po;
    tbk_model_page_options(m2, &po);
    CHECK_INT(po.min_chars, 40);
    CHECK_INT(po.min_words, 3);
  }
  tbk_model_free(m2);
  CHECK(strncmp(a.data, "tbk-model 1\n", 12) == 0);

  /* Truncated anywhere: refused. */
  for (size_t cut = 0; cut < a.len; cut += a.len / 23 + 1) {
    tbk_model *t = NULL;
    CHECK_INT(parse_str(a.data, cut, &t, &err), TBK_ERR_MODEL);
    CHECK(t == NULL);
  }
  /* One changed byte in the body: the checksum refuses it. */
  char *bad = malloc(a.len);
  memcpy(bad, a.data, a.len);
  char *cline = strstr(bad, "\nC ");
  CHECK(cline != NULL);
  if (cline) cline[3] = cline[3] == '1' ? '2' : '1';
  tbk_model *t = NULL;
  CHECK_INT(parse_str(bad, a.len, &t, &err), TBK_ERR_MODEL);
  CHECK(strstr(err.msg, "checksum") != NULL);
  free(bad);
  /* Not a model at all, and an empty file. */
  CHECK_INT(parse_str("hello\n", 6, &t, &err), TBK_ERR_MODEL);
  CHECK_INT(parse_str("", 0, &t, &err), TBK_ERR_MODEL);
  /* A correct checksum over a wrong version is refused by name. */
  {
    const char *body = "tbk-model 99\nschema x\n";
    tbk_buf v = {0};
    CHECK_BUF(tbk_buf_puts(&v, body));
    append_checksum(&v);
    CHECK_INT(parse_str(v.data, v.len, &t, &err), TBK_ERR_MODEL);
    CHECK(strstr(err.msg, "version 99") != NULL);
    tbk_buf_free(&v);
  }
  /* A control byte with a matching checksum (the fuzzer's find: a NUL in
   * the schema made the value shorter than its line, so the model wrote
   * back a file it refused) is refused by position. */
  {
    tbk_buf v = {0};
    CHECK_BUF(tbk_buf_append(&v, a.data, a.len - 42)); /* without the checksum line */
    char *sch = strstr(v.data, "\nschema ");
    CHECK(sch != NULL);
    if (sch) sch[9] = '\0';
    append_checksum(&v);
    CHECK_INT(parse_str(v.data, v.len, &t, &err), TBK_ERR_MODEL);
    CHECK(t == NULL);
    char want[80];
    snprintf(want, sizeof want, "corrupt: control byte 0x00 at byte %zu", sch ? (size_t)(sch - v.data) + 9 : 0);
    CHECK_STR(err.msg, want);
    tbk_buf_free(&v);
  }
  /* Numbers a trainer never writes: an absurd weight (1e308 overflows the
   * decision to NaN) or a non-finite scaling range, refused by line. */
  {
    const char *wl = strstr(a.data, "\nweights ");
    const char *first = wl ? strchr(wl + 1, '\n') : NULL; /* the first weight line */
    const char *sp = first ? strchr(first + 1, ' ') : NULL;
    const char *eol = sp ? strchr(sp, '\n') : NULL;
    CHECK(eol != NULL);
    if (eol) {
      size_t lines = 1;
      for (const char *q = a.data; q <= first; q++) lines += *q == '\n';
      const char *vals[] = {"1e308", "-2e6", "inf", "nan"};
      for (size_t i = 0; i < 4; i++) {
        tbk_buf v = {0};
        CHECK_BUF(tbk_buf_append(&v, a.data, (size_t)(sp + 1 - a.data)));
        CHECK_BUF(tbk_buf_puts(&v, vals[i]));
        CHECK_BUF(tbk_buf_append(&v, eol, a.len - 42 - (size_t)(eol - a.data)));
        append_checksum(&v);
        CHECK_INT(parse_str(v.data, v.len, &t, &err), TBK_ERR_MODEL);
        char want[64];
        snprintf(want, sizeof want, "line %zu: ", lines);
        CHECK(strstr(err.msg, want) != NULL && strstr(err.msg, "weight") != NULL);
        tbk_buf_free(&v);
      }
      /* within the bound: accepted, and the probabilities stay finite */
      tbk_buf v = {0};
      CHECK_BUF(tbk_buf_append(&v, a.data, (size_t)(sp + 1 - a.data)));
      CHECK_BUF(tbk_buf_puts(&v, "999999"));
      CHECK_BUF(tbk_buf_append(&v, eol, a.len - 42 - (size_t)(eol - a.data)));
      append_checksum(&v);
      CHECK_INT(parse_str(v.data, v.len, &t, &err), TBK_OK);
      tbk_model_free(t);
      t = NULL;
      tbk_buf_free(&v);
    }
  }
  CHECK(tbk_sigmoid(NAN) == 0.5);
  CHECK(tbk_sigmoid(1e308) == 1.0 && tbk_sigmoid(-1e308) == 0.0);
  /* A model of another schema is refused when a predictor is made. */
  tbk_predictor *pr = NULL;
  CHECK_INT(tbk_predictor_new(m, &pr, &err), TBK_ERR_SCHEMA);
  CHECK(pr == NULL);

  /* Training is deterministic. */
  tbk_model *m3 = NULL;
  tbk_buf c = {0};
  CHECK_INT(tbk_train(ds, &opt, NULL, NULL, &m3, &err), TBK_OK);
  if (m3) {
    CHECK_INT(tbk_model_write(m3, &c, &err), TBK_OK);
    CHECK(c.len == a.len && memcmp(c.data, a.data, a.len) == 0);
  }
  tbk_model_free(m3);

  /* One class only: a clear error, not a model. */
  tbk_dataset *one;
  CHECK_INT(tbk_dataset_new("s", 1, 4, &one, &err), TBK_OK);
  double v = 1;
  uint32_t w = 1, cnt = 1;
  tbk_dataset_add(one, "a", 1, &v, &w, &cnt, 1, &err);
  tbk_dataset_add(one, "b", 1, &v, &w, &cnt, 1, &err);
  tbk_model *none = NULL;
  CHECK_INT(tbk_train(one, &opt, NULL, NULL, &none, &err), TBK_ERR_EMPTY);
  CHECK(none == NULL);
  tbk_dataset_free(one);

  tbk_buf_free(&a);
  tbk_buf_free(&b);
  tbk_buf_free(&c);
  tbk_model_free(m);
  tbk_dataset_free(ds);
  return check_report();
}
