/* Training rows and the readers for tbk-features' output files. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "jsonl.h"
#include "model.h"
#include "util.h"

tbk_status tbk_dataset_new(const char *schema_id, uint32_t dim, uint32_t word_dims, tbk_dataset **out, tbk_error *err) {
  *out = NULL;
  tbk_dataset *ds = calloc(1, sizeof *ds);
  if (!ds) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  snprintf(ds->schema, sizeof ds->schema, "%s", schema_id ? schema_id : "");
  tbk_page_options_init(&ds->page);
  tbk_feature_options_init(&ds->feat);
  /* rows of the content stage: the units' own default (tbk_units_new) */
  if (tbk_schema_stage(schema_id) == TBK_STAGE_UNITS) ds->feat.attr_dims = TBK_UNITS_ATTR_DIMS;
  ds->feat.word_dims = word_dims; /* the rows' own word space, as the reader sets it */
  ds->dim = dim;
  ds->word_dims = word_dims;
  ds->row_ptr = calloc(1, sizeof *ds->row_ptr);
  if (!ds->row_ptr) {
    free(ds);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  *out = ds;
  return TBK_OK;
}

void tbk_dataset_free(tbk_dataset *ds) {
  if (!ds) return;
  free(ds->row_ptr);
  free(ds->bytes);
  free(ds->label);
  free(ds->site);
  free(ds->pageno);
  for (size_t i = 0; i < ds->nsites; i++) free(ds->sites[i]);
  free(ds->sites);
  free(ds->site_slots);
  free(ds);
}

size_t tbk_dataset_rows(const tbk_dataset *ds) { return ds->n; }
size_t tbk_dataset_sites(const tbk_dataset *ds) { return ds->nsites; }
const char *tbk_dataset_schema(const tbk_dataset *ds) { return ds->schema; }
int tbk_dataset_label(const tbk_dataset *ds, size_t row) { return ds->label[row]; }
const char *tbk_dataset_site(const tbk_dataset *ds, size_t row) { return ds->sites[ds->site[row]]; }

static int site_index(tbk_dataset *ds, const char *site, uint32_t *out) {
  if ((ds->nsites + 1) * 2 > ds->nslots) {
    size_t ns = ds->nslots ? ds->nslots * 2 : 256;
    uint32_t *slots = calloc(ns, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < ds->nsites; i++) {
      size_t h = tbk_hash64(ds->sites[i], strlen(ds->sites[i])) & (ns - 1);
      while (slots[h]) h = (h + 1) & (ns - 1);
      slots[h] = (uint32_t)i + 1;
    }
    free(ds->site_slots);
    ds->site_slots = slots;
    ds->nslots = ns;
  }
  size_t h = tbk_hash64(site, strlen(site)) & (ds->nslots - 1);
  while (ds->site_slots[h]) {
    if (strcmp(ds->sites[ds->site_slots[h] - 1], site) == 0) {
      *out = ds->site_slots[h] - 1;
      return 0;
    }
    h = (h + 1) & (ds->nslots - 1);
  }
  if (tbk_grow(&ds->sites, &ds->capsites, ds->nsites + 1, sizeof *ds->sites)) return -1;
  if (!(ds->sites[ds->nsites] = strdup(site))) return -1;
  ds->site_slots[h] = (uint32_t)ds->nsites + 1;
  *out = (uint32_t)ds->nsites++;
  return 0;
}

static size_t put_varint(unsigned char *p, uint64_t v) {
  size_t n = 0;
  for (; v >= 0x80; v >>= 7) p[n++] = (unsigned char)(v | 0x80);
  p[n++] = (unsigned char)v;
  return n;
}

static uint64_t get_varint(const unsigned char **p) {
  uint64_t v = 0;
  unsigned shift = 0;
  unsigned char b;
  do {
    b = *(*p)++;
    v |= (uint64_t)(b & 0x7F) << shift;
    shift += 7;
  } while (b & 0x80);
  return v;
}

/* One value after column gap (see struct tbk_dataset): at most 3 + 8 bytes
 * (gaps are below TBK_MAX_DIM < 2^19). */
static size_t put_value(unsigned char *p, uint32_t gap, double v) {
  uint64_t key = (uint64_t)gap << 2;
  double a = fabs(v);
  if (a >= 1 && a <= 4294967295.0 && a == floor(a)) {
    size_t n = put_varint(p, key | (v < 0));
    return n + put_varint(p + n, (uint64_t)a);
  }
  float f = (float)v;
  double back = f;
  if (memcmp(&back, &v, sizeof v) == 0) { /* bit for bit: -0.0 stays -0.0 */
    size_t n = put_varint(p, key | 2);
    memcpy(p + n, &f, sizeof f);
    return n + sizeof f;
  }
  size_t n = put_varint(p, key | 3);
  memcpy(p + n, &v, sizeof v);
  return n + sizeof v;
}

void tbk_values_start(const tbk_dataset *ds, size_t r, tbk_values *it) {
  const unsigned char *p = ds->bytes + ds->row_ptr[r];
  size_t len = (size_t)get_varint(&p);
  it->p = p;
  it->end = p + len;
  it->col = UINT32_MAX; /* the first gap counts from column -1 */
  it->v = 0;
}

int tbk_values_next(tbk_values *it) {
  if (it->p >= it->end) {
    it->col = UINT32_MAX;
    return 0;
  }
  uint64_t key = get_varint(&it->p);
  it->col += (uint32_t)(key >> 2) + 1;
  switch (key & 3) {
  case 0: it->v = (double)get_varint(&it->p); break;
  case 1: it->v = -(double)get_varint(&it->p); break;
  case 2: {
    float f;
    memcpy(&f, it->p, sizeof f);
    it->p += sizeof f;
    it->v = f;
    break;
  }
  default: memcpy(&it->v, it->p, sizeof it->v); it->p += sizeof it->v;
  }
  return 1;
}

size_t tbk_dataset_words(const tbk_dataset *ds, size_t r, tbk_term *out) {
  const unsigned char *p = ds->bytes + ds->row_ptr[r], *end = ds->bytes + ds->row_ptr[r + 1];
  size_t len = (size_t)get_varint(&p), n = 0;
  uint32_t index = UINT32_MAX;
  for (p += len; p < end; n++) {
    index += (uint32_t)get_varint(&p) + 1;
    out[n].index = index;
    out[n].count = (double)get_varint(&p);
  }
  return n;
}

/* Row values and words packed into ds->bytes at ds->nbytes (room made by
 * the caller); returns the bytes written. The values go 10 bytes on (the
 * longest varint) and move back behind their length once it is known. */
static size_t pack_row(tbk_dataset *ds, const double *values, const uint32_t *widx, const uint32_t *wcnt,
                       size_t nwords) {
  unsigned char *vals = ds->bytes + ds->nbytes + 10, *p = vals;
  uint32_t prev = UINT32_MAX;
  for (uint32_t j = 0; j < ds->dim; j++)
    if (values[j] != 0.0 || signbit(values[j])) {
      p += put_value(p, j - prev - 1, values[j]);
      prev = j;
    }
  size_t vlen = (size_t)(p - vals);
  unsigned char *q = ds->bytes + ds->nbytes;
  q += put_varint(q, vlen);
  memmove(q, vals, vlen);
  q += vlen;
  uint32_t wprev = UINT32_MAX;
  for (size_t k = 0; k < nwords; k++) {
    q += put_varint(q, widx[k] - 1 - wprev - 1);
    q += put_varint(q, wcnt[k]);
    wprev = widx[k] - 1;
  }
  return (size_t)(q - (ds->bytes + ds->nbytes));
}

tbk_status tbk_dataset_add(tbk_dataset *ds, const char *site, int label, const double *values, const uint32_t *widx,
                           const uint32_t *wcnt, size_t nwords, tbk_error *err) {
  if (label != 1 && label != -1) return tbk_fail(err, TBK_ERR_ARG, "label %d is not +1 or -1", label);
  size_t nz = 0;
  for (size_t j = 0; j < ds->dim; j++) {
    if (!isfinite(values[j])) return tbk_fail(err, TBK_ERR_ARG, "feature %zu is not a finite number", j + 1);
    nz += values[j] != 0.0 || signbit(values[j]);
  }
  for (size_t k = 0; k < nwords; k++)
    if (widx[k] < 1 || widx[k] > ds->word_dims || (k && widx[k] <= widx[k - 1]))
      return tbk_fail(err, TBK_ERR_ARG, "word index %u out of order or range", widx[k]);
  if (ds->n == ds->cap) {
    /* row_ptr has one entry more. */
    size_t cap = tbk_grow_cap(ds->cap, ds->n + 1, sizeof *ds->row_ptr);
    if (!cap || tbk_resize(&ds->label, cap, 1) || tbk_resize(&ds->site, cap, sizeof *ds->site) ||
        tbk_resize(&ds->pageno, cap, sizeof *ds->pageno) || tbk_resize(&ds->row_ptr, cap + 1, sizeof *ds->row_ptr))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    ds->cap = cap;
  }
  /* The most a row can take: 10 bytes before the values, 11 a value, 10 a
   * word (index and count varints). */
  if (nwords > SIZE_MAX / 32 - nz || tbk_grow(&ds->bytes, &ds->capbytes, ds->nbytes + 10 + 11 * nz + 10 * nwords, 1))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  uint32_t si;
  if (site_index(ds, site, &si)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  ds->nbytes += pack_row(ds, values, widx, wcnt, nwords);
  if (nwords > ds->max_words) ds->max_words = nwords;
  ds->label[ds->n] = (signed char)label;
  ds->site[ds->n] = si;
  uint64_t key = ds->page_key ? ds->page_key : (uint64_t)si + 1;
  if (ds->n == 0 || key != ds->last_key) ds->npages++;
  ds->last_key = key;
  ds->pageno[ds->n] = ds->npages - 1;
  ds->n++;
  ds->row_ptr[ds->n] = ds->nbytes;
  return TBK_OK;
}

void tbk_dataset_release_before(tbk_dataset *ds, size_t r) {
#if defined(__linux__) && defined(MADV_DONTNEED)
  /* Whole pages only, from the first past what an earlier call gave back.
   * posix_madvise's DONTNEED is a no-op in glibc: Linux's madvise is the
   * call that frees. Elsewhere the rows stay until they are freed. */
  long page = sysconf(_SC_PAGESIZE);
  if (page <= 0 || !ds->bytes || r > ds->n) return;
  uintptr_t base = (uintptr_t)ds->bytes, p = (uintptr_t)page;
  uintptr_t lo = (base + ds->released + p - 1) / p * p, hi = (base + ds->row_ptr[r]) / p * p;
  if (hi > lo && madvise((void *)lo, hi - lo, MADV_DONTNEED) == 0) ds->released = hi - base;
#else
  (void)ds;
  (void)r;
#endif
}

void tbk_dataset_release_all(tbk_dataset *ds) {
  free(ds->bytes);
  ds->bytes = NULL;
  ds->nbytes = ds->capbytes = ds->released = 0;
}

void tbk_dataset_dense(const tbk_dataset *ds, size_t r, double *x) {
  memset(x, 0, ds->dim * sizeof *x);
  tbk_values it;
  tbk_values_start(ds, r, &it);
  while (tbk_values_next(&it)) x[it.col] = it.v;
}

double tbk_dataset_value(const tbk_dataset *ds, size_t r, uint32_t j) {
  tbk_values it;
  tbk_values_start(ds, r, &it);
  while (tbk_values_next(&it) && it.col < j) continue;
  return it.col == j ? it.v : 0.0;
}

/* Parse "LABEL idx:val idx:val ..." (1-based ascending indices). */
static int parse_svm(char *line, int *label, uint32_t max_index, uint32_t *idx, double *val, size_t *n) {
  char *end;
  errno = 0;
  long lab = strtol(line, &end, 10);
  if (end == line || errno) return -1;
  *label = (int)lab;
  *n = 0;
  char *p = end;
  for (;;) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p || *p == '\n' || *p == '\r' || *p == '#') break;
    unsigned long i = strtoul(p, &end, 10);
    if (end == p || *end != ':' || i < 1 || i > max_index || (*n && i <= idx[*n - 1])) return -1;
    p = end + 1;
    double v = tbk_strtod(p, &end);
    if (end == p || !isfinite(v)) return -1;
    p = end;
    idx[*n] = (uint32_t)i;
    val[*n] = v;
    (*n)++;
  }
  return 0;
}

typedef struct line_reader {
  FILE *f;
  char *buf;
  size_t cap;
  size_t lineno;
} line_reader;

static ssize_t next_line(line_reader *r) {
  ssize_t n = getline(&r->buf, &r->cap, r->f);
  if (n >= 0) r->lineno++;
  return n;
}

/* A whole number in [lo, hi] under key (dflt when absent; UINT32_MAX as
 * dflt makes it required): 0, else -1. */
static int header_uint(const tbk_jsonl_obj *o, const char *key, uint32_t lo, uint32_t hi, uint32_t dflt,
                       uint32_t *out) {
  double v = tbk_jsonl_num(o, key, NAN);
  if (isnan(v)) {
    if (dflt == UINT32_MAX || tbk_jsonl_has(o, key)) return -1; /* required, or not a number */
    *out = dflt;
    return 0;
  }
  if (!(v >= lo && v <= hi) || v != floor(v)) return -1;
  *out = (uint32_t)v;
  return 0;
}

/* The meta file's first line says which schema the rows were built on:
 * it sets an empty dataset's schema and options, and must match a
 * dataset's that has rows already. */
static tbk_status read_header(tbk_dataset *ds, line_reader *mr, const char *meta, tbk_error *err) {
  tbk_jsonl_obj *obj = NULL;
  if (next_line(mr) < 0 || tbk_jsonl_parse(mr->buf, strlen(mr->buf), &obj, NULL) != TBK_OK)
    return tbk_fail(err, TBK_ERR_FORMAT, "%s: first line is not the schema header", meta);
  tbk_status st = TBK_OK;
  const char *schema = tbk_jsonl_str(obj, "schema");
  if (!schema) {
    st = tbk_fail(err, TBK_ERR_FORMAT, "%s: first line has no \"schema\"", meta);
    goto done;
  }
  /* The id goes into the model file as one word of a text line. */
  size_t slen = strlen(schema);
  int sbad = slen == 0 || slen >= sizeof ds->schema;
  for (size_t i = 0; i < slen && !sbad; i++) sbad = schema[i] <= ' ' || schema[i] > '~';
  /* Sizes are checked before anything is allocated by them. */
  uint32_t dim, wdims, adims, bigrams, minc, minw;
  const char *bad = header_uint(obj, "dim", 1, TBK_MAX_DIM, UINT32_MAX, &dim)                         ? "dim"
                    : header_uint(obj, "word_dims", 1, TBK_MAX_WORD_DIMS, UINT32_MAX, &wdims)         ? "word_dims"
                    : header_uint(obj, "attr_dims", 0, TBK_MAX_ATTR_DIMS, ds->feat.attr_dims, &adims) ? "attr_dims"
                    : header_uint(obj, "bigrams", 0, 1, (uint32_t)ds->feat.bigrams, &bigrams)         ? "bigrams"
                    : header_uint(obj, "min_chars", 0, TBK_MAX_MIN_CHARS, (uint32_t)ds->page.min_chars, &minc)
                        ? "min_chars"
                    : header_uint(obj, "min_words", 0, TBK_MAX_MIN_CHARS, (uint32_t)ds->page.min_words, &minw)
                        ? "min_words"
                        : NULL;
  if (sbad) bad = "schema";
  const char *blocks = tbk_jsonl_str(obj, "blocks");
  if (!bad && blocks && strcmp(blocks, "paper") != 0 && strcmp(blocks, "html5") != 0) bad = "blocks";
  if (bad) {
    st = tbk_fail(err, TBK_ERR_FORMAT, "%s: schema header has a missing or bad \"%s\"", meta, bad);
    goto done;
  }
  if (!ds->schema[0]) {
    snprintf(ds->schema, sizeof ds->schema, "%s", schema);
    ds->dim = dim;
    ds->word_dims = wdims;
    if (blocks) ds->page.blocks = strcmp(blocks, "html5") == 0 ? TBK_BLOCKS_HTML5 : TBK_BLOCKS_PAPER;
    ds->page.min_chars = minc;
    ds->page.min_words = minw;
    ds->feat.attr_dims = adims;
    ds->feat.bigrams = (int)bigrams;
    ds->feat.word_dims = ds->word_dims;
  }
  if (strcmp(schema, ds->schema) != 0 || dim != ds->dim || wdims != ds->word_dims)
    st = tbk_fail(err, TBK_ERR_SCHEMA, "%s: schema %s (dim %u) is not %s (dim %u)", meta, schema, dim, ds->schema,
                  ds->dim);
done:
  tbk_jsonl_free(obj);
  return st;
}

/* Scratch for one row of each file, grown to the longest line. */
typedef struct row_buf {
  uint32_t *idx, *widx, *wcnt;
  double *val, *dense, *wval;
  size_t wcap;
} row_buf;

/* One aligned line of each file: added to ds, or why it is skipped in why
 * (then TBK_OK) and *bad the reader of the file the fault is in. */
static tbk_status read_row(tbk_dataset *ds, row_buf *b, line_reader *fr, line_reader *wr, line_reader *mr, ssize_t wlen,
                           char *why, size_t whylen, line_reader **bad, tbk_error *err) {
  int lab, wlab;
  size_t n, nw;
  size_t need = (size_t)wlen / 2 + 2; /* every word entry takes >= 4 chars */
  if (TBK_GROW_ALL(&b->wcap, need, TBK_ARRAY(b->widx), TBK_ARRAY(b->wval), TBK_ARRAY(b->wcnt)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_jsonl_obj *obj = NULL;
  *bad = fr;
  if (parse_svm(fr->buf, &lab, ds->dim, b->idx, b->val, &n)) snprintf(why, whylen, "malformed feature line");
  else if (parse_svm(wr->buf, &wlab, ds->word_dims, b->widx, b->wval, &nw))
    snprintf(why, whylen, "malformed words line"), *bad = wr;
  else if (lab != wlab) snprintf(why, whylen, "labels differ between features and words");
  else if (lab != 1 && lab != -1) snprintf(why, whylen, "label %d is not +1 or -1 (unlabelled data?)", lab);
  else if (tbk_jsonl_parse(mr->buf, strlen(mr->buf), &obj, NULL) != TBK_OK || !tbk_jsonl_str(obj, "site"))
    snprintf(why, whylen, "meta line is not a JSON object with a site"), *bad = mr;
  if (why[0]) {
    tbk_jsonl_free(obj);
    return TBK_OK;
  }
  memset(b->dense, 0, ds->dim * sizeof *b->dense);
  for (size_t k = 0; k < n; k++) b->dense[b->idx[k] - 1] = b->val[k];
  for (size_t k = 0; k < nw; k++) b->wcnt[k] = b->wval[k] > 0 && b->wval[k] < 4e9 ? (uint32_t)b->wval[k] : 1;
  const char *site = tbk_jsonl_str(obj, "site"), *pg = tbk_jsonl_str(obj, "page");
  ds->page_key = pg ? tbk_hash64(pg, strlen(pg)) ^ tbk_hash64(site, strlen(site)) : 0;
  if (ds->page_key == 0 && pg) ds->page_key = 1;
  tbk_status st = tbk_dataset_add(ds, site, lab, b->dense, b->widx, b->wcnt, nw, err);
  ds->page_key = 0;
  tbk_jsonl_free(obj);
  return st;
}

tbk_status tbk_dataset_read(tbk_dataset *ds, const char *features, const char *words, const char *meta,
                            tbk_warn_fn warn, void *warn_ctx, tbk_error *err) {
  line_reader fr = {0}, wr = {0}, mr = {0};
  row_buf b = {0};
  tbk_status st = TBK_OK;
  const char *paths[3] = {features, words, meta};
  FILE **files[3] = {&fr.f, &wr.f, &mr.f};
  for (int i = 0; i < 3; i++) {
    tbk_error e;
    if (tbk_open_read(paths[i], files[i], &e)) {
      st = tbk_fail(err, e.code, "%s: %s", paths[i], e.msg);
      goto done;
    }
  }
  if ((st = read_header(ds, &mr, meta, err))) goto done;
  b.idx = malloc((ds->dim + 1) * sizeof *b.idx);
  b.val = malloc((ds->dim + 1) * sizeof *b.val);
  b.dense = malloc((ds->dim + 1) * sizeof *b.dense);
  if (!b.idx || !b.val || !b.dense) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (;;) {
    ssize_t l1 = next_line(&fr), l2 = next_line(&wr), l3 = next_line(&mr);
    if (l1 < 0 && l2 < 0 && l3 < 0) break;
    if (l1 < 0 || l2 < 0 || l3 < 0) {
      st = tbk_fail(err, TBK_ERR_FORMAT, "%s, %s and %s do not have the same number of lines", features, words, meta);
      goto done;
    }
    if (fr.buf[0] == '#' || fr.buf[0] == '\n') continue;
    char why[96] = "";
    line_reader *bad = &fr;
    if ((st = read_row(ds, &b, &fr, &wr, &mr, l2, why, sizeof why, &bad, err))) goto done;
    if (why[0] && warn) {
      /* Named by the file the fault is in, at its own line number. */
      char msg[160];
      snprintf(msg, sizeof msg, "line %zu: %s (skipped)", bad->lineno, why);
      warn(warn_ctx, bad == &wr ? words : bad == &mr ? meta : features, msg);
    }
  }
done:
  if (fr.f) fclose(fr.f);
  if (wr.f) fclose(wr.f);
  if (mr.f) fclose(mr.f);
  free(fr.buf);
  free(wr.buf);
  free(mr.buf);
  free(b.idx);
  free(b.val);
  free(b.dense);
  free(b.widx);
  free(b.wval);
  free(b.wcnt);
  return st;
}
