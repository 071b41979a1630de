/* tbk-label's runs besides --method chunks (chunks_cli.h): the paper's
 * block labels per site, and --gold's unit labels per page. */
#ifndef TBK_LABEL_CLI_H
#define TBK_LABEL_CLI_H
#include "cli.h"

/* --history DB and --history-only: the store the block labels count
 * with (path NULL: none). */
typedef struct label_history {
  const char *path; /* borrowed from argv */
  int read_only;
} label_history;
/* Dies with a usage error when the options misuse the store; other is
 * whether a method other than the block labeller's sites was chosen. */
void label_history_check(const label_history *h, int other);

/* Label every site of list by document frequency (tbk_labeler); cluster_of
 * (NULL: none) each entry's cluster index (--clusters); hist the store to
 * count with; output names out for messages (NULL: standard output),
 * stats_path the --stats file (NULL: none). Returns the exit code. */
int label_blocks_run(const tbk_label_options *o, cli_pages *pages, const tbk_page_list *list,
                     const uint32_t *cluster_of, const label_history *hist, cli_out *out, const char *output,
                     const char *stats_path, int quiet);
/* --gold: one line per unit of every page that has gold text
 * (tbk_units_gold_jsonl). Returns the exit code; dies when no page could
 * be labelled. */
int label_gold_run(cli_pages *pages, const tbk_page_list *list, cli_out *out, double share, int comments, int quiet);
#endif
