/* What the predict layer's files share beyond the public API. */
#ifndef TBK_PREDICT_INTERNAL_H
#define TBK_PREDICT_INTERNAL_H
#include "model.h"

/* The combined stage's defaults, for the two exported default objects
 * (tbk_content_options_default, tbk_predict_options_default.content): a
 * const object cannot initialize another at file scope, and two copies
 * of the numbers drift apart. */
#define TBK_CONTENT_OPTIONS_DEFAULT                                                                                \
  {                                                                                                                \
    .threshold = 0.5, .title = 1, .keep_comments = 0, .min_kept_words = 60, .fallback_threshold = 0.95, .body = 0, \
    .prose_share = 0.3, .text_share = 0.5                                                                          \
  }

/* Why a text unit is page furniture whatever the model says (content_rules.c). */
enum {
  TBK_FURNITURE_NOTICE = 1, /* "requires JavaScript", an ad's label, a sign-up heading, a cookie notice */
  TBK_FURNITURE_LINKS,      /* a tag or category line, an archive entry with its count, "Read more: …" */
  TBK_FURNITURE_CAPTION,    /* an image's caption or credit line */
  TBK_FURNITURE_DATE,       /* a date or time stamp alone */
  TBK_FURNITURE_BOX         /* in a widget or related items beside the text */
};
/* Whether unit i of ux (the units of page) is furniture: 0 no, else a
 * TBK_FURNITURE_* reason. */
int tbk_unit_furniture(const tbk_page *page, const tbk_units *ux, size_t i);
/* Whether unit i is outside schema.org's articleBody though it belongs to
 * the article: 0 no, TBK_OUTSIDE_META for its headline (h1), byline or
 * date line, or what its <header> holds, TBK_OUTSIDE_LEAD for a
 * standfirst or summary (by the class or id of a small element around
 * it). */
enum { TBK_OUTSIDE_META = 1, TBK_OUTSIDE_LEAD };
int tbk_unit_outside_body(const tbk_page *page, const tbk_units *ux, size_t i);
/* Whether unit i sits in a box beside the page's text, named so by an
 * element's class or id (a sidebar's widget, a teaser, a dialog). */
int tbk_unit_side_box(const tbk_page *page, const tbk_units *ux, size_t i);
/* Whether unit i only points away: a pointer heading ("Related
 * articles") or a lead-in with nothing after its colon ("Related:",
 * "Also on HuffPost:"). */
int tbk_unit_whole_pointer(const tbk_page *page, const tbk_units *ux, size_t i);
/* Whether unit i lies in a widget or among related items beside the
 * text, named so by an element's class (TBK_FURNITURE_BOX). */
int tbk_unit_box_beside(const tbk_page *page, const tbk_units *ux, size_t i);
/* Whether the phrase lists the rules search by first byte are sorted so
 * (a test's check: a phrase added out of order would never match). */
int tbk_rules_phrases_sorted(void);

/* For each unit of ux that keep[] does not keep and that lies in a record
 * beside one holding unit anchor (an element of the same tag and class,
 * a sibling, named by a class), on the way down from its record that a
 * unit kept in the anchor's record takes: take(ctx, i), which may keep
 * it (the records a level up then see it kept). */
void tbk_records_like(const tbk_page *page, const tbk_units *ux, size_t anchor, const unsigned char *keep,
                      void (*take)(void *ctx, size_t i), void *ctx);

/* Which step of tbk_content_decide last turned a unit's decision: the
 * model's own (TBK_RULE_MODEL) or one of its rules (docs/content-stage.md
 * "Decision rules"), in the order they run. */
enum {
  TBK_RULE_MODEL = 0,
  TBK_RULE_MARGIN,      /* the page's own prose, kept within PROSE_MARGIN */
  TBK_RULE_COMMENTS,    /* under an element named comment(s) */
  TBK_RULE_FIXED,       /* a fixed rule: a thread, the headline, a byline, furniture, a gallery, a pointer */
  TBK_RULE_GAP,         /* a gap between kept units of one parent */
  TBK_RULE_TABLE,       /* a data table among the article's paragraphs */
  TBK_RULE_DECLARED,    /* the declared article body */
  TBK_RULE_PAGE_PROSE,  /* the page-level check on the page's prose */
  TBK_RULE_ARTICLE,     /* the article's element */
  TBK_RULE_PAGE_TEXT,   /* the page-level check on the page's own text */
  TBK_RULE_RECORDS,     /* records like the article's: a thread's posts */
  TBK_RULE_RECIPE,      /* the recipe the page declares in JSON-LD */
  TBK_RULE_HEADINGS,    /* a heading over kept text */
  TBK_RULE_BODY_START,  /* --body: headings before the body's first paragraph */
  TBK_RULE_LAST_RESORT, /* a page that kept almost nothing */
  TBK_RULE_COUNT
};
/* tbk_content_decide, and into why (may be NULL; unit count) the
 * TBK_RULE_* that last turned each unit's decision. */
void tbk_content_decide_why(const tbk_page *page, const tbk_units *ux, const double *unit_p,
                            const tbk_content_options *o, unsigned char *keep, unsigned char *why);
/* A rule's name, as --explain writes it ("the article's element"). */
const char *tbk_content_rule_name(int rule);

/* The predictor's hold on the last page given up (its units and what its
 * features kept of it; tbk_predictor_units then has none), a big page's
 * arrays freed: once the page is rendered, so that they are not alive
 * while the next page is parsed. */
void tbk_predictor_page_done(tbk_predictor *pr);
/* Whether the content stage without the text model scored the last page
 * (the model has one and the page is not in its text model's language). */
int tbk_predictor_nontext_page(const tbk_predictor *pr);
/* The model a predictor was made from (borrowed). */
const tbk_model *tbk_predictor_model(const tbk_predictor *pr);

/* One JSONL record of block b (tbk_render_jsonl's) or unit i
 * (tbk_render_units_jsonl's, after tbk_units_paths) without its closing
 * "}\n", so a rendering may add fields: 0 ok, -1 out of memory. */
int tbk_block_record(const tbk_page *page, const char *page_id, const double *probs, double threshold, size_t b,
                     tbk_buf *out);
int tbk_unit_record(const tbk_page *page, const tbk_units *ux, const char *page_id, const double *unit_p,
                    const unsigned char *keep, size_t i, tbk_buf *out);
/* The block that holds most of unit i's text (by bytes), -1 = none: the
 * block whose template probability is most of the unit's tmpl.p. */
int32_t tbk_unit_block(const tbk_page *page, const tbk_units *ux, size_t i);
/* The annotated renderings (annotate.c): the whole page, each block or
 * unit's element marked with its probability, its decision and a tooltip,
 * a style that shows the decisions and a legend. */
tbk_status tbk_render_blocks_annotated(const tbk_page *page, const double *probs, double threshold, tbk_buf *out);
tbk_status tbk_render_units_annotated(const tbk_page *page, const tbk_units *ux, const unsigned char *keep,
                                      const double *unit_p, tbk_buf *out);
#endif
