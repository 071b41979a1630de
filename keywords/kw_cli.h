/* What tbk-keywords' main.c and load.c share: the run, and its inputs
 * loaded (the pages one by one, the tables once). */
#ifndef TBK_KW_CLI_H
#define TBK_KW_CLI_H
#include "cli.h"
#include "tbk_keywords.h"

typedef struct run {
  cli_pages pages;
  int text; /* --text */
  tbk_kw_denoise denoise;
  tbk_predictor *pred;
  tbk_kw_extractor *x;
  tbk_buf raw, gold;
} run;

/* One input document into the extractor (its meta keywords into gold when
 * asked); 0 when it was skipped. */
int kw_load_page(run *r, const tbk_page_ref *ref, int want_gold);
/* The background table and the ranker (each NULL: none), refused unless
 * the ranker was trained with that table; returns the table's id. */
const char *kw_load_tables(const char *df_path, const char *ranker_path, tbk_kw_df **df, tbk_kw_ranker *ranker);
#endif
