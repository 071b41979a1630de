/* What the programs use of the features layer: feature options
 * (features.h), leaf text units and their gold labels (units.h), the
 * feature rows and their schema (rows.h). */
#ifndef TBK_FEATURES_PROGRAMS_H
#define TBK_FEATURES_PROGRAMS_H
#include "features.h"
#include "units.h"
#include "rows.h"
#endif
