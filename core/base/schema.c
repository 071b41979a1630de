#include <string.h>

#include "schema.h"

void tbk_feature_options_init(tbk_feature_options *o) {
  memset(o, 0, sizeof *o);
  o->attr_dims = 128;
  o->word_dims = 1u << 18;
  o->bigrams = 0;
}

const tbk_stage_info tbk_stages[2] = {
    [TBK_STAGE_BLOCKS] = {"tbk-features-", "block"},
    [TBK_STAGE_UNITS] = {"tbk-units-", "unit"},
};

tbk_stage tbk_schema_stage(const char *schema) {
  const char *units = tbk_stages[TBK_STAGE_UNITS].schema_prefix;
  return schema && strncmp(schema, units, strlen(units)) == 0 ? TBK_STAGE_UNITS : TBK_STAGE_BLOCKS;
}
