/* tbk-label --clusters FILE: a tbk-cluster assignment as the grouping key. */
#ifndef TBK_LABEL_CLUSTERS_CLI_H
#define TBK_LABEL_CLUSTERS_CLI_H
#include "cli.h"

/* Each page's cluster of FILE, found by page. as_sites: replace the site by
 * the cluster ("c" and its name) and sort the list again, so each cluster is
 * labelled as a site; returns NULL. Otherwise the sites stay and the result
 * (free it) holds each list entry's cluster index (its name's rank among
 * FILE's cluster names). A page FILE does not list is warned about, dropped
 * and counted as skipped; a FILE that cannot be read or has no page or
 * cluster column dies. */
uint32_t *label_clusters_apply(cli_pages *pages, const char *file, tbk_page_list *list, int as_sites);
#endif
