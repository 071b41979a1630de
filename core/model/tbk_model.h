/* What the programs use of the model layer: writing a model file
 * (model_io.h). */
#ifndef TBK_MODEL_PROGRAMS_H
#define TBK_MODEL_PROGRAMS_H
#include "model_io.h"
#endif
