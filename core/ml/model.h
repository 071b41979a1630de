/* Internal model and dataset structures shared by training, model I/O and
 * prediction. */
#ifndef TBK_MODEL_H
#define TBK_MODEL_H
#include <math.h>

#include "ml.h"
#include "sizes.h"
#include "util.h"

#define TBK_MODEL_MAGIC "tbk-model"
#define TBK_MODEL_VERSION 1
/* A two-stage model file: "tbk-model 2", then "stage template" and a
 * complete version-1 model, "stage content" and another, optionally
 * "stage content-nontext LANG" or "stage context" and another, optionally
 * the history stage, then a checksum over everything (model_io.c). */
#define TBK_MODEL_VERSION_STAGED 2
#define TBK_MAX_OPS 3

/* How one input feature (dense feature j, or the NB score as j = dim)
 * becomes columns of the logistic model. */
typedef struct tbk_encoder {
  uint32_t nin; /* inputs: dim dense features + 1 NB score */
  tbk_encoding encoding;
  tbk_parts parts;
  size_t *ncuts;     /* owned, nin: MDL cut count of input j */
  double **cuts;     /* owned, nin arrays (NULL when no cuts) */
  uint32_t *bin_col; /* owned, nin: first 1-based column of j's bins, 0 = none */
  double *lo, *hi;   /* owned, nin: raw scaling range (after log compression) */
  uint32_t *raw_col; /* owned, nin: 1-based raw column of j, 0 = none */
  uint32_t ncols;    /* columns of the logistic model */
  /* Most inputs are 0 on most blocks: what 0 encodes to, per input, so the
   * common case skips the cut search and the log (tbk_encoder_prepare). */
  uint32_t *zero_bin; /* owned, nin: column of 0's interval, 0 = none */
  double *zero_raw;   /* owned, nin: scaled value of 0 (0 = no entry) */
} tbk_encoder;

struct tbk_model {
  char schema[128];
  uint32_t dim, word_dims;
  tbk_page_options page; /* blocks, min_chars, min_words */
  tbk_feature_options feat;
  tbk_encoder enc;
  tbk_nb *nb; /* owned; NULL when parts = NONTEXT */
  double *w;  /* owned: enc.ncols + 1 (bias last) */
  double C;
  tbk_operating_point ops[TBK_MAX_OPS];
  size_t n_ops;
  double cv_pr_auc; /* NaN when no CV was run */
  size_t train_rows, train_sites;
  struct tbk_model *content; /* owned: the content stage of a two-stage
                                  model (tbk-units schema), else NULL */
  struct tbk_model *context; /* owned, on a content stage only: the
                                  contextual pass over the units' first-pass
                                  probabilities (schema "<units>+ctx1"), or
                                  NULL */
  struct tbk_model *nontext; /* owned, on a content stage only: the
                                  content stage fitted again without the
                                  text model (parts nontext), which scores
                                  the pages whose language is not
                                  text_lang; or NULL. Never beside a
                                  contextual pass. */
  char text_lang[8];         /* with nontext: the function-word list
                                  (tbk_stop_codes) of the language the text
                                  model learned */
  double *history;           /* owned, on a two-stage model's template
                                  stage: the site-history combiners'
                                  weights, TBK_HIST_DIM for the template
                                  stage then TBK_HIST_DIM for the content
                                  stage (history_stage.c), or NULL */
};

struct tbk_dataset {
  char schema[128];
  /* Options the rows were extracted with, from the meta header (defaults
   * when the header does not say). The model records them. */
  tbk_page_options page;
  tbk_feature_options feat;
  uint32_t dim, word_dims;
  size_t n, cap;
  /* Each row packed into bytes (a block has a few dozen of the schema's
   * hundreds of features and a few dozen words; a dense n x dim copy, then
   * 12 bytes a value and 16 a word, were most of training's memory at a
   * million rows). Row r is bytes[row_ptr[r] .. row_ptr[r+1]): varint V,
   * V bytes of values, then the words to the end. A value is varint
   * (column gap << 2 | kind) and then its number: kind 0 a whole number
   * 1..2^32-1 as a varint, 1 its negative, 2 a float that holds it exactly
   * (-0.0 too), 3 the double; a word is varint index gap, varint count.
   * One value has one encoding, so two rows are equal exactly when their
   * bytes are (what deduplication compares). */
  size_t *row_ptr;      /* owned: n + 1 offsets into bytes */
  unsigned char *bytes; /* owned */
  size_t nbytes, capbytes;
  size_t released;    /* bytes[0 .. released) given back to the system
                          (tbk_dataset_release_before): never read again */
  size_t max_words;   /* the most words of a row: scratch for tbk_dataset_words */
  signed char *label; /* owned: n */
  uint32_t *site;     /* owned: n, index into sites */
  uint32_t *pageno;   /* owned: n, page of the row (rows of a page are
                          consecutive: a new id when the page changes) */
  uint64_t page_key;  /* set by the reader before each add: the row's
                          page; 0 = the site stands for the page */
  uint64_t last_key;
  uint32_t npages;
  char **sites; /* owned site names */
  size_t nsites, capsites;
  uint32_t *site_slots; /* owned hash of site names -> index + 1 */
  size_t nslots;
};

/* The packed rows before row r will never be read again (a fit that
 * encodes rows in order, then frees them: tbk_train_consume): their memory
 * is given back to the system now, so it is not held beside what they are
 * encoded into. Reading a row before r afterwards is undefined; rows from r
 * on are unchanged. */
void tbk_dataset_release_before(tbk_dataset *ds, size_t r);
/* All of the packed rows freed, for a dataset nobody reads again
 * (tbk_train_consume); freeing the dataset still works. */
void tbk_dataset_release_all(tbk_dataset *ds);
/* Row r's values as a dense vector x of ds->dim entries. */
void tbk_dataset_dense(const tbk_dataset *ds, size_t r, double *x);
/* Row r's value of column j (from 0). */
double tbk_dataset_value(const tbk_dataset *ds, size_t r, uint32_t j);
/* Row r's words (out: room for ds->max_words terms); returns their number. */
size_t tbk_dataset_words(const tbk_dataset *ds, size_t r, tbk_term *out);
/* Row r's nonzero values in column order: tbk_values_start, then col and
 * v are the current value while tbk_values_next returns 1 (col is
 * UINT32_MAX past the last). */
typedef struct tbk_values {
  const unsigned char *p, *end;
  uint32_t col;
  double v;
} tbk_values;
void tbk_values_start(const tbk_dataset *ds, size_t r, tbk_values *it);
int tbk_values_next(tbk_values *it);

/* Map dense values x (dim) and NB score s to sparse LR columns; idx/val
 * must hold enc->nin * 2 entries. Returns nnz. Indices ascending. */
size_t tbk_encode(const tbk_encoder *enc, const double *x, double s, uint32_t *idx, double *val);
/* What input j with value v adds to the logistic decision under weights w
 * (ncols + 1, bias last): the terms tbk_encode would emit for it, summed. */
double tbk_encode_contrib(const tbk_encoder *enc, const double *w, uint32_t j, double v);
/* log1p(i) for i = 0 .. TBK_LOG1P_TABLE - 1, what tbk_encode_compress
 * gives a whole number below it (a process-wide table, made once). */
#define TBK_LOG1P_TABLE 1024
const double *tbk_encode_log1p_table(void);

/* What one input's contribution needs, gathered from the encoder and the
 * weights (tbk_encode_contrib reads them from six arrays), so a value
 * costs its interval search and its log, little more: the scorer's. */
typedef struct tbk_contrib_input {
  const double *cuts; /* borrowed from the encoder: ncuts ascending */
  const double *wbin; /* borrowed from the weights: the weight of the
                          input's first bin column, or NULL (no bins) */
  double wraw;        /* the raw column's weight (has_raw) */
  double lo, span;    /* the raw column's range: lo, hi - lo */
  double zero;        /* tbk_encode_contrib(j, 0) */
  uint32_t ncuts;
  int has_raw;
} tbk_contrib_input;
void tbk_contrib_input_init(const tbk_encoder *enc, const double *w, uint32_t j, tbk_contrib_input *in);

/* tbk_encode_contrib(enc, w, j, v) for a nonzero v, with the same
 * operations in the same order, so the same bits: the count of cuts <= v
 * (tbk_mdl_bin's answer, searched without branches), then the raw
 * column's compressed, scaled and clipped value. log1p_table is
 * tbk_encode_log1p_table(). */
static inline double tbk_contrib(const tbk_contrib_input *in, const double *log1p_table, double v) {
  double z = 0;
  if (in->wbin) {
    const double *base = in->cuts;
    size_t len = in->ncuts;
    if (len) {
      while (len > 1) {
        size_t half = len / 2;
        base = base[half - 1] <= v ? base + half : base;
        len -= half;
      }
      base += base[0] <= v;
    }
    z += in->wbin[base - in->cuts];
  }
  if (in->has_raw) {
    double a = fabs(v);
    double c = a < TBK_LOG1P_TABLE && a == (double)(int)a ? log1p_table[(int)a] : log1p(a);
    c = v > 0 ? c : -c;
    double r = in->span > 0 ? (c - in->lo) / in->span : 0.0;
    if (r < 0) r = 0;
    if (r > 1) r = 1;
    z += in->wraw * r;
  }
  return z;
}
/* Zeroed per-input arrays for nin inputs; 0 ok, -1 out of memory (what was
 * allocated is released by tbk_encoder_free). */
int tbk_encoder_alloc(tbk_encoder *enc, uint32_t nin);
/* Fill the zero caches once cuts and ranges are final (after fitting or
 * loading). */
void tbk_encoder_prepare(tbk_encoder *enc);
void tbk_encoder_free(tbk_encoder *enc);
/* Sign-symmetric log1p, the compression of raw inputs before scaling. */
double tbk_encode_compress(double v);
/* The contextual pass of the content stage: features of a unit from the
 * first-pass boilerplate probabilities p of its page's units (in reading
 * order, units without words left out) and their character counts. */
#define TBK_CTX_DIM 12
#define TBK_CTX_SUFFIX "+ctx1"
void tbk_context_features(const double *p, const double *chars, size_t n, size_t i, double *out);

/* The site-history combiners (history_stage.c): a stage's probability of
 * template (boilerplate) and the counts of the row's fingerprint among the
 * site's other pages, as the inputs of one logistic model per band of the
 * site's page count. With no other page there is no row: the stage's own
 * probability stands. */
#define TBK_HIST_BANDS 5
#define TBK_HIST_PER_BAND 5
#define TBK_HIST_DIM (TBK_HIST_BANDS * TBK_HIST_PER_BAND)
#define TBK_HIST_MAGIC "tbk-history-model 1"
/* pages >= 1: the site's other pages; df: those holding the row's
 * fingerprint; outer_df: those holding its enclosing block's (a unit's
 * block, a block's parent; df when it has none). */
void tbk_history_inputs(double p, uint32_t pages, uint32_t df, uint32_t outer_df, double x[TBK_HIST_DIM]);
double tbk_history_prob(const double *w, const double x[TBK_HIST_DIM]);
extern const char *const tbk_history_input_names[TBK_HIST_DIM];
/* Feature options the model was trained with; prediction must use them. */
void tbk_model_feature_options(const tbk_model *m, tbk_feature_options *o);
/* A two-stage model: a template model (the paper's) with a content model
 * (trained on tbk-units rows) attached. The model takes ownership of
 * content, which must be a single-stage model of a tbk-units schema whose
 * features were computed with this template model. */
tbk_status tbk_model_attach_content(tbk_model *m, tbk_model *content, tbk_error *err);
/* The content stage (borrowed), or NULL for a template-only model. */
const tbk_model *tbk_model_content(const tbk_model *m);
/* Free the content stage: m becomes its template stage alone. */
void tbk_model_drop_content(tbk_model *m);
/* Attach nontext, a content stage fitted on the same rows without the text
 * model (parts nontext), to the content stage c (or a two-stage model's
 * content stage), for the pages whose
 * language (a code of tbk_stop_codes, 2-7 lower-case letters) is not lang:
 * ownership moves to c. TBK_ERR_SCHEMA when the schemas differ or nontext
 * reads the text model; TBK_ERR_ARG for a bad code, a c that has a
 * contextual pass or already a nontext stage. */
tbk_status tbk_model_attach_nontext(tbk_model *c, tbk_model *nontext, const char *lang, tbk_error *err);
/* Whether s[0..n) is a language code a model file can name: 2 to 7
 * letters a-z (what tbk_model_attach_nontext and the file's
 * "stage content-nontext" line take). */
int tbk_model_lang_ok(const char *s, size_t n);
#endif
