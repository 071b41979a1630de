/* tbk-cluster's output (output.c). */
#ifndef TBK_CLUSTER_OUTPUT_H
#define TBK_CLUSTER_OUTPUT_H
#include "cli.h"
#include "tbk_label.h"

/* Row r (of rows) is page order[r] of list, in the cluster of clusterer
 * page copy_of[r]; the header first in TSV. */
void cluster_write(cli_out *o, int jsonl, const tbk_page_list *list, const size_t *order, const size_t *copy_of,
                   size_t rows, const tbk_cluster_result *res);
#endif
