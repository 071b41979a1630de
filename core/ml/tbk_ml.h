/* What the programs use of the ml layer: datasets, training and
 * cross-validation (ml.h), the in-memory model's content stage
 * (model.h). */
#ifndef TBK_ML_PROGRAMS_H
#define TBK_ML_PROGRAMS_H
#include "ml.h"
#include "model.h"
#endif
