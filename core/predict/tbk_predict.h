/* What the programs use of the predict layer beyond tbk.h: the
 * renderings with every choice tbk-predict offers, the page ids and the
 * history store of a predictor (predict.h). */
#ifndef TBK_PREDICT_PROGRAMS_H
#define TBK_PREDICT_PROGRAMS_H
#include "predict.h"
#endif
