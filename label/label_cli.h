/* tbk-label's runs besides --method chunks (chunks_cli.h): the paper's
 * block labels per site, and --gold's unit labels per page. */
#ifndef TBK_LABEL_CLI_H
#define TBK_LABEL_CLI_H
#include "cli.h"

/* Label every site of list by document frequency (tbk_labeler); cluster_of
 * (NULL: none) each entry's cluster index (--clusters); output names out
 * for messages (NULL: standard output), stats_path the --stats file (NULL:
 * none). Returns the exit code. */
int label_blocks_run(const tbk_label_options *o, cli_pages *pages, const tbk_page_list *list,
                     const uint32_t *cluster_of, cli_out *out, const char *output, const char *stats_path, int quiet);
/* --gold: one line per unit of every page that has gold text
 * (tbk_units_gold_jsonl). Returns the exit code; dies when no page could
 * be labelled. */
int label_gold_run(cli_pages *pages, const tbk_page_list *list, cli_out *out, double share, int comments, int quiet);
#endif
