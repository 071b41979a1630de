/* tbk-eval nodes' scoring (nodes_eval.c): an element-level template
 * (tbk-label --method etdm --nodes: JSON Lines of page, xpath and template
 * 1 or 0) against a reference of the same form, page by page, as Alarte
 * et al. 2015's Table 1 counts it. */
#ifndef TBK_NODES_EVAL_H
#define TBK_NODES_EVAL_H
#include "util.h"

typedef struct tbk_nodes_page {
  char *site, *page; /* owned */
  size_t nodes;      /* elements of the reference */
  size_t ref;        /* of them in the reference's template */
  size_t retrieved;  /* elements the template marks */
  size_t correct;    /* of them in the reference's template */
  size_t unknown;    /* elements of the template the reference lacks */
  int seen;          /* the template has a line of the page */
} tbk_nodes_page;

/* page \t xpath (or page) -> what is known of it; open addressing. */
typedef struct tbk_nodes_table {
  struct tbk_nodes_slot *s; /* owned, cap entries */
  size_t cap, n;
} tbk_nodes_table;

typedef struct tbk_nodes_eval {
  tbk_nodes_page *ps; /* owned: the reference's pages, in file order
                                  until tbk_nodes_eval_sort */
  size_t nps, cap_ps;
  size_t bad_lines;             /* lines skipped (each reported) */
  tbk_nodes_table nodes, pages; /* owned */
  tbk_buf key;                  /* owned scratch */
} tbk_nodes_eval;

/* One file read into e (zeroed before the first): the reference first
 * (reference 1), whose pages and elements are registered, then the
 * template, whose lines are counted against them. A line that is not
 * JSON or lacks a member, and a template's page the reference does not
 * have, are skipped and reported through warn(ctx, "FILE:LINE" or FILE,
 * why). Errors: the file cannot be opened or read (the message names it),
 * TBK_ERR_NOMEM. */
tbk_status tbk_nodes_eval_read(tbk_nodes_eval *e, const char *path, int reference, tbk_warn_fn warn, void *ctx,
                               tbk_error *err);
/* The pages by site, then page. */
void tbk_nodes_eval_sort(tbk_nodes_eval *e);
/* A page's recall, precision and F1 (an empty reference template or an
 * empty retrieval counts 1; a page the template lacks scores 0). */
void tbk_nodes_page_scores(const tbk_nodes_page *p, double *recall, double *precision, double *f1);
void tbk_nodes_eval_free(tbk_nodes_eval *e);
#endif
