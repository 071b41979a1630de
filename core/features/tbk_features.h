/* What the programs use of the features layer: feature extraction
 * (features.h) and leaf text units (units.h); the feature rows and the
 * units' gold labels are the rows layer's (tbk_rows.h). */
#ifndef TBK_FEATURES_PROGRAMS_H
#define TBK_FEATURES_PROGRAMS_H
#include "features.h"
#include "units.h"
#endif
