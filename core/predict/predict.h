/* The predict layer's calls for the programs of this tree, beyond the
 * public API: tbk_predict_render with every choice tbk-predict offers. */
#ifndef TBK_PREDICT_H
#define TBK_PREDICT_H
#include "tbk.h"

typedef struct tbk_render_options {
  int units; /* 1: the content stage decides every text unit (the
                      combined stage, or the content stage alone after
                      tbk_predictor_template_inputs(pr, 0)); 0: the
                      template stage decides every block */
  tbk_format fmt;
  tbk_content_options content; /* content.threshold: the template stage's
                                  threshold too */
  size_t explain;              /* 0 (default): no explanations; K > 0: every block or
                      unit explained by the K inputs that moved each
                      stage's logit most: an "explain" object in each JSONL
                      record, or, for TBK_FORMAT_TEXT, a readable listing
                      in place of the clean text (tbk_render_explain_*);
                      other formats take none (TBK_ERR_ARG) */
} tbk_render_options;

/* Why a stage decided as it did: the inputs that moved one block's or
 * unit's logit most. The logit is the stage's decision (sigmoid(logit) its
 * probability of the removal class: template block, boilerplate unit).
 * An input's contribution is what its encoding (MDL interval indicator
 * and scaled value: tbk_encode_contrib) adds to the logit beyond what the
 * value 0 would: so it is exactly how far the logit moves were that input
 * 0, an input at 0 contributes nothing, and base + every contribution =
 * logit. Positive: toward removal; negative: toward keeping. */
typedef struct tbk_explain_term {
  const char *name;    /* the input: a schema name, "text_score" (the
                          Naive-Bayes log-odds of the row's words), or a
                          contextual pass's "ctx.*" (borrowed: static or the
                          predictor's schema) */
  double value;        /* the input's value, as the extractor computed it */
  double contribution; /* to the logit */
} tbk_explain_term;

typedef struct tbk_explanation {
  double logit;                /* base + every input's contribution (the scorer's
                   decision, to the bit) */
  double base;                 /* the logit of a row whose inputs are all 0: the model's
                   bias plus what 0 encodes to for each input */
  double bias;                 /* the model's bias alone (a part of base) */
  double rest;                 /* the sum of the contributions not in top */
  size_t inputs;               /* inputs with a nonzero contribution */
  size_t n;                    /* entries of top: min(inputs, K) */
  const tbk_explain_term *top; /* by descending |contribution| */
} tbk_explanation;

/* Explanations on (k > 0: scoring keeps, per block and unit, the k inputs
 * that moved each logit most) or off (k = 0, the default: scoring does no
 * work for them). */
void tbk_predictor_explain(tbk_predictor *pr, size_t k);
/* With explanations on, after tbk_predict_page or tbk_predict_units: the
 * template stage's explanation of block b, or the content stage's of unit
 * i (its contextual pass's, when the model has one and the unit has
 * words); NULL when out of range or not computed (explanations off, or no
 * template stage ran). Borrowed until the next page is scored. */
const tbk_explanation *tbk_predictor_block_explanation(const tbk_predictor *pr, size_t b);
const tbk_explanation *tbk_predictor_unit_explanation(const tbk_predictor *pr, size_t i);

/* The explained renderings of a scored, decided page (explanations on):
 * the template stage's blocks (keep NULL, probs the blocks') or the
 * content stage's units (keep and why from tbk_content_decide_why, probs
 * the units').
 * jsonl: the records of tbk_render_jsonl or tbk_render_units_jsonl with an
 * "explain" object more; text: a readable listing, a block or unit a
 * paragraph (docs/content-stage.md "--explain"). Errors: TBK_ERR_NOMEM. */
tbk_status tbk_render_explain_jsonl(const tbk_predictor *pr, const tbk_page *page, const char *page_id,
                                    const double *probs, const unsigned char *keep, const unsigned char *why,
                                    const tbk_content_options *o, tbk_buf *out);
tbk_status tbk_render_explain_text(const tbk_predictor *pr, const tbk_page *page, const double *probs,
                                   const unsigned char *keep, const unsigned char *why, const tbk_content_options *o,
                                   tbk_buf *out);

/* One page scored, decided and rendered as o says, appended to out.
 * summary (may be NULL): what tbk_render_text or tbk_render_units_text
 * report, whatever the format. Errors: the predictor's (TBK_ERR_LIMIT for
 * a page a stage cannot take), TBK_ERR_NOMEM. */
tbk_status tbk_predict_render_as(tbk_predictor *pr, const tbk_page *page, const char *page_id,
                                 const tbk_render_options *o, tbk_buf *out, tbk_page_summary *summary, tbk_error *err);

/* The render options for model m as tbk-predict's --stage, --threshold
 * and --precision choose them: stage -1 = the model's best (combined with
 * a content stage, else template), 0 template, 1 combined, 2 content (the
 * content stage alone: the caller turns the predictor's template inputs
 * off); threshold NaN: the stage's operating point for precision, or with
 * precision NaN its default threshold. Sets o->units and
 * o->content.threshold. Errors: TBK_ERR_ARG, stage 1 or 2 of a model
 * without a content stage, or no operating point for precision. */
tbk_status tbk_render_options_for(const tbk_model *m, int stage, double threshold, double precision,
                                  tbk_render_options *o, tbk_error *err);
/* Site history (history.h) for the pages that follow: each page's blocks
 * are looked up in h's current page (tbk_history_begin first) and the
 * page is counted; a model with a history stage corrects its template and
 * content probabilities by them. rows, when not NULL, receives the
 * combiners' training rows (TSV: stage, page id, path, the site's other
 * pages, the row's count, its enclosing block's, the stage's p). NULL h
 * turns history off. Both borrowed. */
struct tbk_history;
void tbk_predictor_use_history(tbk_predictor *pr, struct tbk_history *h, tbk_buf *rows);
/* The page id the training rows name (borrowed until the next page). */
void tbk_predictor_page_id(tbk_predictor *pr, const char *id);

#endif
