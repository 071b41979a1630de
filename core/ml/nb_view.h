/* A finished Naive Bayes model's numbers, for prediction's scorer: it adds
 * a row's terms itself, in tbk_nb_score's order and arithmetic, without
 * copying them into tbk_term records and checking them on every row. */
#ifndef TBK_NB_VIEW_H
#define TBK_NB_VIEW_H
#include "ml.h"

/* Every pointer is borrowed from the model. */
typedef struct tbk_nb_view {
  const uint16_t *slot16; /* dim: word i's count pair, or NULL ... */
  const uint32_t *slot32; /* ... these (more than 65,535 pairs) */
  const double *ratio;    /* the pairs' log ratios: word i's is
                             ratio[slot[i]] */
  double base;            /* score of the empty document */
  uint32_t dim;
  int bernoulli; /* every present word counts 1 */
} tbk_nb_view;

/* 0 and *v filled for a finished model, else -1. */
int tbk_nb_get_view(const tbk_nb *nb, tbk_nb_view *v);
#endif
