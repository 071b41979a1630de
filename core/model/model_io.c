/* The model file: plain text, one record a line, versioned, ending in an
 * MD5 checksum of everything before it, so a truncated or edited file is
 * refused instead of silently mispredicting.
 *
 *   tbk-model 1
 *   schema <features schema id>      dim <n>   word_dims <n>   attr_dims <n>
 *   bigrams <0|1>   blocks <paper|html5>   min_chars <n>   min_words <n>
 *   encoding <mdl|raw|both>   parts <all|text|nontext>   C <c>
 *   train_rows <n>   train_sites <n>   cv_pr_auc <x|nan>
 *   op <precision> <threshold> <cv recall>          (0-3 lines)
 *   cols <ncols>
 *   enc <input> <bin_col> <raw_col> <lo> <hi> <ncuts> <cut>...   (used inputs)
 *   weights <n nonzero>
 *   <col> <weight>                                   (bias: col ncols+1)
 *   tbk-nb 1 ... end                                 (unless parts=nontext)
 *   checksum <md5 hex>
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "text.h"
#include "util.h"

static const char *ENC_NAMES[] = {"mdl", "raw", "both"};
static const char *PART_NAMES[] = {"all", "text", "nontext"};

/* "checksum <md5 of out[start..]>": what makes a cut or edited file fail. */
static tbk_status append_checksum(tbk_buf *out, size_t start, tbk_error *err) {
  unsigned char md5[16];
  char hex[33];
  tbk_md5(out->data + start, out->len - start, md5);
  tbk_md5_hex(md5, hex);
  if (tbk_buf_printf(out, "checksum %s\n", hex)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return TBK_OK;
}

static tbk_status write_stage(const tbk_model *m, tbk_buf *out, tbk_error *err) {
  size_t start = out->len;
  int bad = tbk_buf_printf(out, "%s %d\n", TBK_MODEL_MAGIC, TBK_MODEL_VERSION) ||
            tbk_buf_printf(out, "schema %s\ndim %u\nword_dims %u\nattr_dims %u\nbigrams %d\n", m->schema, m->dim,
                           m->word_dims, m->feat.attr_dims, m->feat.bigrams ? 1 : 0) ||
            tbk_buf_printf(out, "blocks %s\nmin_chars %zu\nmin_words %zu\n",
                           m->page.blocks == TBK_BLOCKS_HTML5 ? "html5" : "paper", m->page.min_chars,
                           m->page.min_words) ||
            tbk_buf_printf(out, "encoding %s\nparts %s\nC %.17g\ntrain_rows %zu\ntrain_sites %zu\ncv_pr_auc %.6f\n",
                           ENC_NAMES[m->enc.encoding], PART_NAMES[m->enc.parts], m->C, m->train_rows, m->train_sites,
                           m->cv_pr_auc);
  for (size_t i = 0; i < m->n_ops && !bad; i++)
    bad = tbk_buf_printf(out, "op %.2f %.17g %.6f\n", m->ops[i].precision, m->ops[i].threshold, m->ops[i].recall);
  bad = bad || tbk_buf_printf(out, "cols %u\n", m->enc.ncols);
  for (uint32_t j = 0; j < m->enc.nin && !bad; j++) {
    if (!m->enc.bin_col[j] && !m->enc.raw_col[j]) continue;
    bad = tbk_buf_printf(out, "enc %u %u %u %.17g %.17g %zu", j, m->enc.bin_col[j], m->enc.raw_col[j], m->enc.lo[j],
                         m->enc.hi[j], m->enc.ncuts[j]);
    for (size_t c = 0; c < m->enc.ncuts[j] && !bad; c++) bad = tbk_buf_printf(out, " %.17g", m->enc.cuts[j][c]);
    bad = bad || tbk_buf_puts(out, "\n");
  }
  size_t nz = 0;
  for (uint32_t c = 0; c <= m->enc.ncols; c++) nz += m->w[c] != 0.0;
  bad = bad || tbk_buf_printf(out, "weights %zu\n", nz);
  for (uint32_t c = 0; c <= m->enc.ncols && !bad; c++)
    if (m->w[c] != 0.0) bad = tbk_buf_printf(out, "%u %.17g\n", c + 1, m->w[c]);
  if (bad) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (m->nb) {
    tbk_status st = tbk_nb_write(m->nb, out, err);
    if (st) return st;
  }
  return append_checksum(out, start, err);
}

/* The site-history stage: its inputs' names (so that a file says what
 * each weight weighs), then a line of weights per stage. */
static tbk_status write_history(const double *w, tbk_buf *out, tbk_error *err) {
  if (tbk_buf_puts(out, "stage history\n")) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  size_t start = out->len;
  int bad = tbk_buf_printf(out, "%s\ninputs %d", TBK_HIST_MAGIC, TBK_HIST_DIM);
  for (int i = 0; i < TBK_HIST_DIM && !bad; i++) bad = tbk_buf_printf(out, " %s", tbk_history_input_names[i]);
  for (int s = 0; s < 2 && !bad; s++) {
    bad = tbk_buf_puts(out, s ? "\ncontent" : "\ntemplate");
    for (int i = 0; i < TBK_HIST_DIM && !bad; i++) bad = tbk_buf_printf(out, " %.17g", w[s * TBK_HIST_DIM + i]);
  }
  if (bad || tbk_buf_puts(out, "\n")) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return append_checksum(out, start, err);
}

tbk_status tbk_model_write(const tbk_model *m, tbk_buf *out, tbk_error *err) {
  if (!m->content) return write_stage(m, out, err);
  size_t start = out->len;
  if (tbk_buf_printf(out, "%s %d\nstage template\n", TBK_MODEL_MAGIC, TBK_MODEL_VERSION_STAGED))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_status st = write_stage(m, out, err);
  if (st) return st;
  if (tbk_buf_puts(out, "stage content\n")) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if ((st = write_stage(m->content, out, err))) return st;
  if (m->content->nontext) {
    if (tbk_buf_printf(out, "stage content-nontext %s\n", m->content->text_lang))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    if ((st = write_stage(m->content->nontext, out, err))) return st;
  }
  if (m->content->context) {
    if (tbk_buf_puts(out, "stage context\n")) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    if ((st = write_stage(m->content->context, out, err))) return st;
  }
  if (m->history && (st = write_history(m->history, out, err))) return st;
  return append_checksum(out, start, err);
}

typedef struct reader {
  const char *s, *end;
  size_t line;
  char buf[512]; /* the current line (long enc lines are read by parts) */
} reader;

/* Next line as a pointer into the text (not copied) and its length. */
static const char *next_line(reader *r, size_t *len) {
  if (r->s >= r->end) return NULL;
  const char *nl = memchr(r->s, '\n', (size_t)(r->end - r->s));
  const char *line = r->s;
  *len = nl ? (size_t)(nl - line) : (size_t)(r->end - line);
  r->s = nl ? nl + 1 : r->end;
  r->line++;
  return line;
}

/* "key value" line with the expected key; the value copied into r->buf. */
static const char *expect(reader *r, const char *key) {
  size_t len;
  const char *l = next_line(r, &len);
  size_t k = strlen(key);
  if (!l || len <= k + 1 || memcmp(l, key, k) != 0 || l[k] != ' ' || len - k - 1 >= sizeof r->buf) return NULL;
  memcpy(r->buf, l + k + 1, len - k - 1);
  r->buf[len - k - 1] = '\0';
  return r->buf;
}

static int to_ulong(const char *s, unsigned long max, unsigned long *v) {
  char *end;
  errno = 0;
  if (!s || *s == '-') return -1;
  *v = strtoul(s, &end, 10);
  return (errno || end == s || *end || *v > max) ? -1 : 0;
}

/* Bound on a model weight's magnitude (see the weights record). */
#define TBK_MAX_WEIGHT 1e6

static int to_double(const char *s, double *v) {
  char *end;
  errno = 0;
  if (!s) return -1;
  *v = tbk_strtod(s, &end);
  return (end == s || *end) ? -1 : 0;
}

static int name_index(const char *s, const char *const *names, int n) {
  for (int i = 0; s && i < n; i++)
    if (strcmp(s, names[i]) == 0) return i;
  return -1;
}

/* A malformed model: every parse error but out of memory (and the checks
 * that return their own status) is TBK_ERR_MODEL. */
#define BAD(...) return tbk_fail(err, TBK_ERR_MODEL, __VA_ARGS__)

/* A file whose last line is not its checksum was cut short, unless what
 * follows its last checksum line is not the start of a further stage:
 * then something was appended after a complete file. */
static tbk_status no_final_checksum(const char *text, size_t len, tbk_error *err) {
  const char *last = NULL;
  for (const char *p = text; p && p < text + len;) {
    if ((size_t)(text + len - p) > 9 && memcmp(p, "checksum ", 9) == 0) last = p;
    const char *nl = memchr(p, '\n', (size_t)(text + len - p));
    p = nl ? nl + 1 : NULL;
  }
  const char *tail = last ? memchr(last, '\n', (size_t)(text + len - last)) : NULL;
  if (tail) {
    tail++;
    size_t rest = (size_t)(text + len - tail);
    int stage = (rest >= 6 && memcmp(tail, "stage ", 6) == 0) || (rest >= 10 && memcmp(tail, "tbk-model ", 10) == 0);
    if (!stage) BAD("corrupt: content after the checksum line (byte %zu)", (size_t)(tail - text));
  }
  BAD("truncated or not a tbk model: no checksum line at the end");
}

/* The last line must be "checksum <md5 of everything before it>"; *last
 * receives where that line starts. */
static tbk_status verify_checksum(const char *text, size_t len, const char **last_out, tbk_error *err) {
  size_t body = len;
  while (body > 0 && text[body - 1] == '\n') body--;
  const char *last = body ? text + body - 1 : text;
  while (last > text && last[-1] != '\n') last--;
  if (body < 42 || (size_t)(text + body - last) != 41 || memcmp(last, "checksum ", 9) != 0)
    return no_final_checksum(text, len, err);
  unsigned char md5[16];
  char hex[33];
  tbk_md5(text, (size_t)(last - text), md5);
  tbk_md5_hex(md5, hex);
  if (memcmp(hex, last + 9, 32) != 0) BAD("corrupt: checksum does not match the content");
  *last_out = last;
  return TBK_OK;
}

/* Checksum first: nothing from a damaged file is trusted. The format is
 * printable ASCII lines. A control byte (a NUL above all, which would cut a
 * value short where it is copied as a C string) is damage, even when the
 * checksum was computed over it. */
static tbk_status verify_stage(const char *text, size_t len, const char **last, tbk_error *err) {
  tbk_status cs = verify_checksum(text, len, last, err);
  if (cs) return cs;
  for (const char *c = text; c < *last; c++)
    if (*c != '\n' && ((unsigned char)*c < 0x20 || *c == 0x7f))
      BAD("corrupt: control byte 0x%02x at byte %zu", (unsigned char)*c, (size_t)(c - text));
  return TBK_OK;
}

static tbk_status parse_magic(reader *r, tbk_error *err) {
  size_t ll;
  const char *l = next_line(r, &ll);
  char magic[32];
  snprintf(magic, sizeof magic, "%s %d", TBK_MODEL_MAGIC, TBK_MODEL_VERSION);
  if (l && ll == strlen(magic) && memcmp(l, magic, ll) == 0) return TBK_OK;
  size_t ml = strlen(TBK_MODEL_MAGIC);
  if (l && ll > ml && memcmp(l, TBK_MODEL_MAGIC " ", ml + 1) == 0)
    BAD("model format version %.*s is not supported (this build reads %d)", (int)(ll - ml - 1), l + ml + 1,
        TBK_MODEL_VERSION);
  BAD("not a tbk model (first line is not \"%s\")", magic);
}

/* The header lines: feature schema and options, segmentation, training
 * options and figures. */
static tbk_status parse_header(reader *r, tbk_model *m, int *enc, int *parts, tbk_error *err) {
  const char *v;
  unsigned long u;
  if (!(v = expect(r, "schema")) || strlen(v) >= sizeof m->schema) BAD("line %zu: expected schema", r->line);
  snprintf(m->schema, sizeof m->schema, "%s", v);
  if (to_ulong(expect(r, "dim"), TBK_MAX_DIM, &u)) BAD("line %zu: expected dim", r->line);
  m->dim = (uint32_t)u;
  if (to_ulong(expect(r, "word_dims"), TBK_MAX_WORD_DIMS, &u) || !u) BAD("line %zu: expected word_dims", r->line);
  m->word_dims = (uint32_t)u;
  m->feat.word_dims = m->word_dims;
  if (to_ulong(expect(r, "attr_dims"), TBK_MAX_ATTR_DIMS, &u)) BAD("line %zu: expected attr_dims", r->line);
  m->feat.attr_dims = (uint32_t)u;
  if (to_ulong(expect(r, "bigrams"), 1, &u)) BAD("line %zu: expected bigrams", r->line);
  m->feat.bigrams = (int)u;
  tbk_page_options_init(&m->page);
  int bl = name_index(expect(r, "blocks"), (const char *const[]){"paper", "html5"}, 2);
  if (bl < 0) BAD("line %zu: expected blocks paper|html5", r->line);
  m->page.blocks = (tbk_blockset)bl;
  if (to_ulong(expect(r, "min_chars"), TBK_MAX_MIN_CHARS, &u)) BAD("line %zu: expected min_chars", r->line);
  m->page.min_chars = u;
  if (to_ulong(expect(r, "min_words"), TBK_MAX_MIN_CHARS, &u)) BAD("line %zu: expected min_words", r->line);
  m->page.min_words = u;
  if ((*enc = name_index(expect(r, "encoding"), ENC_NAMES, 3)) < 0) BAD("line %zu: expected encoding", r->line);
  if ((*parts = name_index(expect(r, "parts"), PART_NAMES, 3)) < 0) BAD("line %zu: expected parts", r->line);
  if (to_double(expect(r, "C"), &m->C) || !(m->C > 0) || !isfinite(m->C)) BAD("line %zu: expected C", r->line);
  if (to_ulong(expect(r, "train_rows"), ULONG_MAX, &u)) BAD("line %zu: expected train_rows", r->line);
  m->train_rows = u;
  if (to_ulong(expect(r, "train_sites"), ULONG_MAX, &u)) BAD("line %zu: expected train_sites", r->line);
  m->train_sites = u;
  /* An area under a curve, or nan when there was no cross-validation. */
  if (to_double(expect(r, "cv_pr_auc"), &m->cv_pr_auc) ||
      !(isnan(m->cv_pr_auc) || (m->cv_pr_auc >= 0 && m->cv_pr_auc <= 1)))
    BAD("line %zu: expected cv_pr_auc (between 0 and 1, or nan)", r->line);
  return TBK_OK;
}

/* "op PRECISION THRESHOLD RECALL" lines, as many as there are. */
static tbk_status parse_ops(reader *r, tbk_model *m, tbk_error *err) {
  for (;;) {
    const char *save = r->s, *v;
    size_t save_line = r->line;
    if (!(v = expect(r, "op"))) {
      r->s = save;
      r->line = save_line;
      return TBK_OK;
    }
    if (m->n_ops >= TBK_MAX_OPS) BAD("line %zu: too many operating points", r->line);
    tbk_operating_point *op = &m->ops[m->n_ops++];
    double *field[3] = {&op->precision, &op->threshold, &op->recall};
    int nf = 0;
    for (const char *p = v; nf < 3; nf++) {
      char *end;
      *field[nf] = tbk_strtod(p, &end);
      if (end == p) break;
      p = end;
    }
    /* The threshold is on a probability (inf: nothing reaches it); the
     * recall is a share. */
    if (nf != 3 || !(op->precision > 0) || !(op->precision <= 1) ||
        !(op->threshold >= 0 && (op->threshold <= 1 || isinf(op->threshold))) || !(op->recall >= 0 && op->recall <= 1))
      BAD("line %zu: bad operating point", r->line);
  }
}

/* "enc J BIN_COL RAW_COL LO HI NCUTS CUT..." (line without "enc "):
 * 0 ok, -1 malformed, -2 out of memory. Parsed in place: a line carries up
 * to MDL_MAX_CUTS doubles. */
static int parse_enc_line(tbk_encoder *e, const char *l, size_t ll) {
  char *line = strndup(l, ll);
  if (!line) return -2;
  char *p = line, *end;
  unsigned long j = strtoul(p, &end, 10), bc, rc, nc;
  int ok = end != p;
  bc = strtoul(p = end, &end, 10);
  ok = ok && end != p;
  rc = strtoul(p = end, &end, 10);
  ok = ok && end != p;
  double lo = tbk_strtod(p = end, &end);
  ok = ok && end != p && isfinite(lo);
  double hi = tbk_strtod(p = end, &end);
  ok = ok && end != p && isfinite(hi);
  nc = strtoul(p = end, &end, 10);
  ok = ok && end != p;
  /* bc <= ncols first: a huge bc would wrap bc + nc around. */
  ok = ok && j < e->nin && bc <= e->ncols && nc <= e->ncols - bc && rc <= e->ncols && nc <= 1024 && !e->ncuts[j] &&
       (bc > 0) == (nc > 0);
  double *cuts = ok && nc ? malloc(nc * sizeof *cuts) : NULL;
  for (unsigned long c = 0; ok && c < nc; c++) {
    cuts[c] = tbk_strtod(p = end, &end);
    ok = end != p && isfinite(cuts[c]) && (c == 0 || cuts[c] > cuts[c - 1]);
  }
  while (ok && *end == ' ') end++;
  ok = ok && *end == '\0';
  free(line);
  if (!ok) {
    free(cuts);
    return -1;
  }
  e->bin_col[j] = (uint32_t)bc;
  e->raw_col[j] = (uint32_t)rc;
  e->lo[j] = lo;
  e->hi[j] = hi;
  e->ncuts[j] = nc;
  e->cuts[j] = cuts;
  return 0;
}

/* "cols N", the enc lines, and "weights N": *nweights gets N. */
static tbk_status parse_encoder(reader *r, tbk_model *m, int enc, int parts, unsigned long *nweights, tbk_error *err) {
  unsigned long u;
  if (to_ulong(expect(r, "cols"), 100000000, &u)) BAD("line %zu: expected cols", r->line);
  tbk_encoder *e = &m->enc;
  int bad = tbk_encoder_alloc(e, m->dim + 1);
  e->ncols = (uint32_t)u;
  e->encoding = (tbk_encoding)enc;
  e->parts = (tbk_parts)parts;
  m->w = calloc((size_t)e->ncols + 1, sizeof *m->w);
  if (bad || !m->w) BAD("out of memory loading the model");
  for (;;) {
    size_t ll;
    const char *l = next_line(r, &ll);
    if (!l) BAD("line %zu: unexpected end of model", r->line);
    if (ll > 4 && memcmp(l, "enc ", 4) == 0) {
      int rc = parse_enc_line(e, l + 4, ll - 4);
      if (rc == -2) BAD("out of memory loading the model");
      if (rc) BAD("line %zu: bad enc record", r->line);
      continue;
    }
    if (ll > 8 && memcmp(l, "weights ", 8) == 0) {
      char tmp[32];
      snprintf(tmp, sizeof tmp, "%.*s", (int)(ll - 8 < 31 ? ll - 8 : 31), l + 8);
      if (to_ulong(tmp, (unsigned long)e->ncols + 1, nweights)) BAD("line %zu: bad weights count", r->line);
      return TBK_OK;
    }
    BAD("line %zu: expected enc or weights", r->line);
  }
}

/* n "COLUMN WEIGHT" lines. */
static tbk_status parse_weights(reader *r, tbk_model *m, unsigned long n, tbk_error *err) {
  for (unsigned long k = 0; k < n; k++) {
    size_t ll;
    const char *l = next_line(r, &ll);
    char tmp[64];
    unsigned long col;
    double d;
    if (!l || ll >= sizeof tmp) BAD("line %zu: expected a weight", r->line);
    memcpy(tmp, l, ll);
    tmp[ll] = '\0';
    char *sp = strchr(tmp, ' ');
    if (!sp) BAD("line %zu: expected \"column weight\"", r->line);
    *sp = '\0';
    if (to_ulong(tmp, (unsigned long)m->enc.ncols + 1, &col) || col == 0 || to_double(sp + 1, &d) || !isfinite(d))
      BAD("line %zu: bad weight", r->line);
    /* Trained weights stay within tens (the shipped model's largest is 7.4);
     * an absurd one would overflow the decision to inf - inf = NaN. */
    if (fabs(d) > TBK_MAX_WEIGHT) BAD("line %zu: weight %g out of range (|w| > %g)", r->line, d, TBK_MAX_WEIGHT);
    m->w[col - 1] = d;
  }
  return TBK_OK;
}

/* The Naive-Bayes text model, when the model uses text, then the end. */
static tbk_status parse_nb(reader *r, tbk_model *m, tbk_error *err) {
  if (m->enc.parts != TBK_PARTS_NONTEXT) {
    size_t used;
    tbk_status st = tbk_nb_read(r->s, (size_t)(r->end - r->s), &m->nb, &used, err);
    if (st && st != TBK_ERR_NOMEM && err) {
      /* The Naive-Bayes reader counts its own lines: give the model's. */
      char msg[sizeof err->msg];
      snprintf(msg, sizeof msg, "%s", err->msg);
      unsigned long k = 0;
      int off = 0;
      if (sscanf(msg, "naive bayes model line %lu: %n", &k, &off) == 1 && off > 0)
        tbk_fail(err, st, "line %zu: naive bayes model: %s", r->line + (size_t)k, msg + off);
      else if (strncmp(msg, "naive bayes model: ", 19) == 0)
        tbk_fail(err, st, "naive bayes model (from line %zu): %s", r->line + 1, msg + 19);
    }
    if (st) return st;
    r->s += used;
    if (tbk_nb_get_options(m->nb)->dim != m->word_dims) BAD("Naive-Bayes dimension does not match word_dims");
  }
  if (r->s != r->end) BAD("unexpected content before the checksum line");
  return TBK_OK;
}

/* A stage at text, whose first line is line skip + 1 of its file: messages
 * name the file's line, not the stage's. */
static tbk_status parse_stage(const char *text, size_t len, size_t skip, tbk_model **out, tbk_error *err) {
  *out = NULL;
  const char *last;
  tbk_status st = verify_stage(text, len, &last, err);
  if (st) return st;
  reader r = {text, last, skip, {0}};
  tbk_model *m = calloc(1, sizeof *m);
  if (!m) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  int enc = 0, parts = 0;
  unsigned long nweights = 0;
  if ((st = parse_magic(&r, err)) || (st = parse_header(&r, m, &enc, &parts, err)) || (st = parse_ops(&r, m, err)) ||
      (st = parse_encoder(&r, m, enc, parts, &nweights, err)) || (st = parse_weights(&r, m, nweights, err)) ||
      (st = parse_nb(&r, m, err))) {
    tbk_model_free(m);
    return st;
  }
  tbk_encoder_prepare(&m->enc);
  *out = m;
  return TBK_OK;
}

static size_t lines_in(const char *from, const char *to) {
  size_t n = 0;
  for (const char *p = from; (p = memchr(p, '\n', (size_t)(to - p))) != NULL; p++) n++;
  return n;
}

/* Length of the stage that starts at text: through its first checksum
 * line (a stage ends with the only "checksum " line it has). */
static size_t stage_len(const char *text, size_t len) {
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(text + i, '\n', len - i);
    size_t e = nl ? (size_t)(nl - text) + 1 : len;
    if (e - i >= 9 && memcmp(text + i, "checksum ", 9) == 0) return e;
    i = e;
  }
  return 0;
}

/* Past the line tag at *s: 1 and the following stage's length in *n (0 when
 * it has no checksum line), or 0 when the tag is not there. */
static int tagged_stage(const char **s, const char *end, const char *tag, size_t *n) {
  size_t tl = strlen(tag);
  if ((size_t)(end - *s) < tl || memcmp(*s, tag, tl) != 0) return 0;
  *s += tl;
  *n = stage_len(*s, (size_t)(end - *s));
  return 1;
}

/* The content stage at s (n bytes), attached to the template stage m. */
static tbk_status parse_content(tbk_model *m, const char *s, size_t n, size_t skip, tbk_error *err) {
  tbk_model *c = NULL;
  tbk_status st;
  if ((st = parse_stage(s, n, skip, &c, err)) || (st = tbk_model_attach_content(m, c, err))) {
    if (!m->content) tbk_model_free(c);
    /* a stage of the wrong kind is a damaged file, not a schema choice */
    if (st == TBK_ERR_SCHEMA && err) err->code = TBK_ERR_MODEL;
    return st == TBK_ERR_SCHEMA ? TBK_ERR_MODEL : st;
  }
  return TBK_OK;
}

/* The content stage without the text model, when *s is its tag ("stage
 * content-nontext LANG"); *s moved past it. */
static tbk_status parse_nontext(tbk_model *c, const char **sp, const char *end, size_t skip, tbk_error *err) {
  static const char tag[] = "stage content-nontext ";
  const char *s = *sp;
  size_t tl = sizeof tag - 1;
  if ((size_t)(end - s) < tl || memcmp(s, tag, tl) != 0) return TBK_OK;
  const char *lang = s + tl, *nl = memchr(lang, '\n', (size_t)(end - lang));
  size_t ll = nl ? (size_t)(nl - lang) : 0;
  if (!tbk_model_lang_ok(lang, ll))
    BAD("line %zu: expected \"stage content-nontext LANG\" (a language code)", skip + 1);
  s = nl + 1;
  size_t n = stage_len(s, (size_t)(end - s));
  if (s == end || !n) BAD("content-nontext stage has no checksum line");
  *sp = s + n;
  tbk_model *x = NULL;
  tbk_status st = parse_stage(s, n, skip + 1, &x, err);
  if (st) return st;
  if (strcmp(x->schema, c->schema) != 0 || x->dim != c->dim || x->enc.parts != TBK_PARTS_NONTEXT) {
    tbk_model_free(x);
    BAD("content-nontext stage is not the content stage's schema (%s) without the text model", c->schema);
  }
  memcpy(c->text_lang, lang, ll);
  c->text_lang[ll] = '\0';
  c->nontext = x;
  return TBK_OK;
}

/* The content stage's contextual pass, when *s is its tag; *s moved past
 * it. */
static tbk_status parse_context(tbk_model *c, const char **sp, const char *end, size_t skip, tbk_error *err) {
  const char *s = *sp;
  size_t n = 0;
  if (!tagged_stage(&s, end, "stage context\n", &n)) return TBK_OK;
  if (s == end || !n) BAD("context stage has no checksum line");
  *sp = s + n;
  if (c->nontext) BAD("a content stage without the text model and a contextual pass cannot be combined");
  tbk_model *x = NULL;
  tbk_status st = parse_stage(s, n, skip + 1, &x, err);
  if (st) return st;
  char want[160];
  snprintf(want, sizeof want, "%s%s", c->schema, TBK_CTX_SUFFIX);
  if (strcmp(x->schema, want) != 0 || x->dim != c->dim + TBK_CTX_DIM) {
    tbk_model_free(x);
    BAD("context stage does not belong to the content stage (schema %s)", want);
  }
  c->context = x;
  return TBK_OK;
}

/* The site-history stage (write_history), the last of the file. */
static tbk_status parse_history(tbk_model *m, const char *s, const char *end, size_t skip, tbk_error *err) {
  if (s == end) return TBK_OK;
  size_t n = 0;
  if (!tagged_stage(&s, end, "stage history\n", &n) || s == end || !n || s + n != end)
    BAD("unexpected content after the content stage");
  const char *last;
  tbk_status st = verify_stage(s, n, &last, err);
  if (st) return st;
  reader r = {s, last, skip + 1, {0}};
  size_t ll;
  const char *l = next_line(&r, &ll);
  if (!l || ll != strlen(TBK_HIST_MAGIC) || memcmp(l, TBK_HIST_MAGIC, ll) != 0)
    BAD("line %zu: expected \"%s\"", r.line, TBK_HIST_MAGIC);
  char names[2048];
  int k = snprintf(names, sizeof names, "inputs %d", TBK_HIST_DIM);
  for (int i = 0; i < TBK_HIST_DIM; i++)
    k += snprintf(names + k, sizeof names - (size_t)k, " %s", tbk_history_input_names[i]);
  l = next_line(&r, &ll);
  if (!l || ll != (size_t)k || memcmp(l, names, ll) != 0)
    BAD("line %zu: the history stage's inputs are not this build's (%s)", r.line, names);
  double *w = malloc(2 * TBK_HIST_DIM * sizeof *w);
  if (!w) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (int t = 0; t < 2; t++) {
    const char *tag = t ? "content" : "template";
    l = next_line(&r, &ll);
    char buf[2048];
    if (!l || ll >= sizeof buf) {
      free(w);
      BAD("line %zu: expected %s weights", r.line, tag);
    }
    memcpy(buf, l, ll);
    buf[ll] = 0;
    size_t tl = strlen(tag);
    char *p = buf + tl, *e;
    if (strncmp(buf, tag, tl) != 0) {
      free(w);
      BAD("line %zu: expected %s weights", r.line, tag);
    }
    for (int i = 0; i < TBK_HIST_DIM; i++) {
      errno = 0;
      double v = *p == ' ' ? tbk_strtod(p + 1, &e) : NAN;
      if (*p != ' ' || e == p + 1 || !isfinite(v) || fabs(v) > TBK_MAX_WEIGHT) {
        free(w);
        BAD("line %zu: bad %s weight %d", r.line, tag, i + 1);
      }
      w[t * TBK_HIST_DIM + i] = v;
      p = e;
    }
    if (*p) {
      free(w);
      BAD("line %zu: more than %d %s weights", r.line, TBK_HIST_DIM, tag);
    }
  }
  if (r.s != r.end) {
    free(w);
    BAD("line %zu: unexpected content in the history stage", r.line + 1);
  }
  m->history = w;
  return TBK_OK;
}

/* "tbk-model 2": stage template, stage content, optionally stage
 * content-nontext or stage context, optionally stage history, and the
 * outer checksum. */
static tbk_status parse_two_stage(const char *text, size_t len, size_t head, tbk_model **out, tbk_error *err) {
  /* The outer checksum covers both stages, so a file cut between them is
   * refused rather than read as a template-only model. */
  const char *last;
  tbk_status st = verify_checksum(text, len, &last, err);
  if (st) return st;
  const char *s = text + head, *end = last;
  size_t n1, n2;
  if (!tagged_stage(&s, end, "stage template\n", &n1)) BAD("two-stage model without a \"stage template\" line");
  if (!n1) BAD("template stage has no checksum line");
  tbk_model *m = NULL;
  if ((st = parse_stage(s, n1, 2, &m, err))) return st;
  s += n1;
  size_t skip = lines_in(text, s) + 1; /* through "stage content" */
  if (!tagged_stage(&s, end, "stage content\n", &n2))
    st = tbk_fail(err, TBK_ERR_MODEL, "two-stage model without a \"stage content\" line");
  else if (!n2) st = tbk_fail(err, TBK_ERR_MODEL, "content stage has no checksum line");
  else if (!(st = parse_content(m, s, n2, skip, err))) {
    const char *rest = s + n2;
    skip += lines_in(s, rest);
    if (!(st = parse_nontext(m->content, &rest, end, skip, err))) {
      skip += lines_in(s + n2, rest);
      const char *from = rest;
      if (!(st = parse_context(m->content, &rest, end, skip, err)))
        st = parse_history(m, rest, end, skip + lines_in(from, rest), err);
    }
  }
  if (st) {
    tbk_model_free(m);
    return st;
  }
  *out = m;
  return TBK_OK;
}

tbk_status tbk_model_parse(const char *text, size_t len, tbk_model **out, tbk_error *err) {
  *out = NULL;
  char staged[32];
  int sl = snprintf(staged, sizeof staged, "%s %d\n", TBK_MODEL_MAGIC, TBK_MODEL_VERSION_STAGED);
  if (len < (size_t)sl || memcmp(text, staged, (size_t)sl) != 0) return parse_stage(text, len, 0, out, err);
  return parse_two_stage(text, len, (size_t)sl, out, err);
}
#undef BAD

tbk_status tbk_model_load(const char *path, tbk_model **out, tbk_error *err) {
  tbk_buf b = {0};
  *out = NULL;
  tbk_status st = tbk_read_file(path, (size_t)1 << 30, &b, err);
  /* A model saved with CRLF line ends (or a BOM) is the same model. */
  tbk_error side = {0};
  if (st == TBK_OK && (st = tbk_side_text(&b, 0, &side)) != TBK_OK)
    st = st == TBK_ERR_NOMEM ? tbk_fail(err, st, "out of memory")
                             : tbk_fail(err, st, "truncated or not a tbk model (%s)", side.msg);
  if (st == TBK_OK) st = tbk_model_parse(b.data ? b.data : "", b.len, out, err);
  tbk_buf_free(&b);
  return st;
}
