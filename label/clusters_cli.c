/* tbk-label --clusters: tbk-cluster's assignment, so that a host with
 * several templates is labelled one template at a time and an unsorted crawl
 * is labelled at all. The block labeller keeps the site as the group and
 * takes each page's cluster index (tbk_labeler_add_clustered); --method
 * chunks, etdm and --gold label each cluster as a site. */
#include <stdlib.h>
#include <string.h>

#include "clusters_cli.h"

typedef struct row {
  const char *page, *cluster;
} row;

static int cmp_row(const void *a, const void *b) { return strcmp(((const row *)a)->page, ((const row *)b)->page); }

/* The rows of the TSV in b (its header names the columns), sorted by page. */
static row *read_rows(const char *file, tbk_buf *b, size_t *n) {
  row *rows = NULL;
  size_t cap = 0, line = 0;
  int cp = -1, cc = -1;
  *n = 0;
  char *save = NULL;
  for (char *l = b->len ? strtok_r(b->data, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
    line++;
    char *f[16];
    int nf = cli_tsv_split(l, f, 16);
    if (line == 1) {
      static const char *const names[] = {"page", "cluster"};
      int at[2];
      cli_tsv_columns(f, nf, names, 2, at);
      cp = at[0], cc = at[1];
      if (cp < 0 || cc < 0) cli_die(TBK_EXIT_FAIL, "%s: header needs \"page\" and \"cluster\" columns", file);
      continue;
    }
    if (cp >= nf || cc >= nf || !*f[cc]) cli_die(TBK_EXIT_FAIL, "%s:%zu: no cluster", file, line);
    if (tbk_grow(&rows, &cap, *n + 1, sizeof *rows)) cli_die(TBK_EXIT_FAIL, "out of memory");
    rows[(*n)++] = (row){f[cp], f[cc]};
  }
  if (!line) cli_die(TBK_EXIT_FAIL, "%s: empty file (%zu bytes, no header line)", file, b->len);
  if (!*n) cli_die(TBK_EXIT_FAIL, "%s: no rows below the header (no page is in a cluster)", file);
  if (*n) qsort(rows, *n, sizeof *rows, cmp_row);
  for (size_t i = 1; i < *n; i++)
    if (strcmp(rows[i].page, rows[i - 1].page) == 0 && strcmp(rows[i].cluster, rows[i - 1].cluster) != 0)
      cli_die(TBK_EXIT_FAIL, "%s: page %s is in two clusters", file, rows[i].page);
  return rows;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

uint32_t *label_clusters_apply(cli_pages *pages, const char *file, tbk_page_list *list, int as_sites) {
  tbk_buf b = {0};
  tbk_error err = {0};
  cli_reads_add(file);
  if (tbk_read_file(file, 0, &b, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", file, err.msg);
  size_t n;
  row *rows = read_rows(file, &b, &n);
  unsigned char *drop = calloc(list->n + 1, 1);
  if (!drop) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < list->n; i++) {
    tbk_page_ref *r = &list->refs[i];
    row key = {r->page, NULL};
    const row *hit = n ? bsearch(&key, rows, n, sizeof *rows, cmp_row) : NULL;
    if (!hit) {
      cli_warn("%s: in no cluster of %s (skipped)", r->page, file);
      pages->bad_pages++;
      drop[i] = 1;
      continue;
    }
    if (!as_sites) continue;
    size_t len = strlen(hit->cluster) + 2;
    char *site = malloc(len);
    if (!site) cli_die(TBK_EXIT_FAIL, "out of memory");
    tbk_snprintf(site, len, "c%s", hit->cluster);
    free(r->site);
    r->site = site;
  }
  size_t dropped = 0;
  for (size_t i = 0; i < list->n; i++) dropped += drop[i];
  if (list->n && dropped == list->n)
    cli_die(TBK_EXIT_FAIL,
            "%s: none of the %zu pages read is in it (pages match by name as listed: it names %s, "
            "the inputs give %s)",
            file, list->n, rows[0].page, list->refs[0].page);
  tbk_page_list_drop(list, drop);
  free(drop);
  uint32_t *of = NULL;
  if (as_sites) {
    tbk_page_list_sort(list);
  } else {
    /* A cluster's index is its name's rank among the distinct names: dense,
     * so a labeller's per-cluster page counts stay small. */
    const char **names = malloc((n ? n : 1) * sizeof *names);
    of = malloc((list->n ? list->n : 1) * sizeof *of);
    if (!names || !of) cli_die(TBK_EXIT_FAIL, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++) names[k++] = rows[i].cluster;
    if (k) qsort(names, k, sizeof *names, cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
      if (!u || strcmp(names[i], names[u - 1]) != 0) names[u++] = names[i];
    if (u >= TBK_NO_CLUSTER) cli_die(TBK_EXIT_FAIL, "%s: too many clusters", file);
    for (size_t i = 0; i < list->n; i++) {
      row key = {list->refs[i].page, NULL};
      const row *hit = bsearch(&key, rows, n, sizeof *rows, cmp_row);
      const char *const *at = bsearch(&hit->cluster, names, u, sizeof *names, cmp_str);
      of[i] = (uint32_t)(at - names);
    }
    free(names);
  }
  free(rows);
  tbk_buf_free(&b);
  return of;
}
