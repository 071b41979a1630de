/* tbk-label --clusters FILE: a tbk-cluster assignment as the grouping key. */
#ifndef TBK_LABEL_CLUSTERS_CLI_H
#define TBK_LABEL_CLUSTERS_CLI_H
#include "cli.h"

/* Replace each page's site by its cluster of FILE ("c" and the number),
 * found by page, and sort the list again so each cluster is labelled as a
 * site. A page FILE does not list is warned about, dropped and counted as
 * skipped; a FILE that cannot be read or has no page or cluster column
 * dies. */
void label_clusters_apply(cli_pages *pages, const char *file, tbk_page_list *list);
#endif
