/* tbk-keywords' inputs: each page into the extractor, and the tables it
 * ranks with. */
#include <string.h>

#include "kw_cli.h"

int kw_load_page(run *r, const tbk_page_ref *ref, int want_gold) {
  tbk_error err = {0};
  tbk_page *page = NULL;
  tbk_status st = tbk_kw_page_read(ref, &r->pages.input, &r->pages.page, &r->raw, r->text ? NULL : &page,
                                   want_gold ? &r->gold : NULL, &err);
  cli_progress_step(&r->pages.meter, ++r->pages.loaded, r->raw.len);
  if (!st) {
    cli_pages_charset_warn(ref, page);
    st = page ? tbk_kw_extract_page(r->x, r->pred, page, r->denoise, &err)
              : tbk_kw_extract_text(r->x, r->raw.data ? r->raw.data : "", r->raw.len, &err);
    tbk_page_free(page);
    if (st && st != TBK_ERR_LIMIT) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
  }
  if (st) cli_pages_skip(&r->pages, ref, err.msg);
  return !st;
}

/* A file refused by its loader: exit 5, unless it could not be read. */
static void check_load(tbk_status st, const char *path, const tbk_error *err) {
  if (st) cli_die(st == TBK_ERR_IO ? TBK_EXIT_FAIL : TBK_EXIT_MODEL, "%s: %s", path, err->msg);
}

const char *kw_load_tables(const char *df_path, const char *ranker_path, tbk_kw_df **df, tbk_kw_ranker *ranker) {
  tbk_error err = {0};
  cli_reads_add(df_path);
  cli_reads_add(ranker_path);
  if (df_path) check_load(tbk_kw_df_load(df_path, df, &err), df_path, &err);
  if (ranker_path) check_load(tbk_kw_ranker_load(ranker_path, ranker, &err), ranker_path, &err);
  /* A ranker's weights are for the idf of the table it was trained with. */
  const char *df_id = *df ? tbk_kw_df_id(*df) : "none";
  if (ranker_path && ranker->df_id[0] && strcmp(ranker->df_id, df_id) != 0) {
    if (!strcmp(ranker->df_id, "none"))
      cli_die(TBK_EXIT_MODEL, "%s: trained without a DF table, not with %s: give --df none", ranker_path, df_path);
    if (!*df)
      cli_die(TBK_EXIT_MODEL, "%s: trained with the DF table %s: give it with --df", ranker_path, ranker->df_id);
    cli_die(TBK_EXIT_MODEL, "%s: trained with the DF table %s, not %s (%s%s): give --df the table it was trained with",
            ranker_path, ranker->df_id, df_path, df_id[0] ? "" : "a table without an id", df_id);
  }
  return df_id;
}
