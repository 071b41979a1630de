/* What a rows file or a model records of the features it was made with:
 * the options that shaped the schema, and the schema id, whose name says
 * which of the model's two stages the rows are for. It sits below both the
 * extractors (core/features) and the learner (core/ml), which reads rows
 * and writes models without extracting anything. */
#ifndef TBK_SCHEMA_H
#define TBK_SCHEMA_H
#include <stdint.h>

/* The options of a feature schema. Every feature has a schema name and
 * kind; the schema id hashes all names, kinds and options, and models
 * record it so data from another schema is refused (TBK_ERR_SCHEMA). */
typedef struct tbk_feature_options {
  uint32_t attr_dims; /* hashed class/id/role token features, per scope
                         (self, ancestors) (default 128; 0 = none) */
  uint32_t word_dims; /* hashed word indices for the Naive-Bayes words
                         (default 1<<18) */
  int bigrams;        /* also hash word bigrams (default 0) */
} tbk_feature_options;

void tbk_feature_options_init(tbk_feature_options *o);

/* The content stage's hashed class/id buckets per scope when not given
 * (measured as accurate as 128, EVALUATION.md, for a smaller, faster
 * model): tbk_units_new's default, and what rows of that stage read
 * without a meta header were made with. */
#define TBK_UNITS_ATTR_DIMS 32

/* The model's two stages: the template stage scores candidate blocks,
 * the content stage the page's text units. */
typedef enum tbk_stage { TBK_STAGE_BLOCKS = 0, TBK_STAGE_UNITS = 1 } tbk_stage;

typedef struct tbk_stage_info {
  const char *schema_prefix; /* how its schema ids start, any version */
  const char *row;           /* what a row is: "block", "unit" */
} tbk_stage_info;

/* Indexed by tbk_stage. */
extern const tbk_stage_info tbk_stages[2];

/* The stage rows or a model of schema id schema are for: units when it is
 * the units' schema, blocks otherwise (NULL too). */
tbk_stage tbk_schema_stage(const char *schema);
#endif
