/* What the predict layer's files share beyond the public API. */
#ifndef TBK_PREDICT_INTERNAL_H
#define TBK_PREDICT_INTERNAL_H
#include "model.h"

/* The model a predictor was made from (borrowed). */
const tbk_model *tbk_predictor_model(const tbk_predictor *pr);
#endif
