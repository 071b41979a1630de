/* What the programs use of the rows layer: the feature rows of labelled
 * blocks and units and their schema (rows.h), and the text units' labels
 * from human gold text (units_gold.h). */
#ifndef TBK_ROWS_PROGRAMS_H
#define TBK_ROWS_PROGRAMS_H
#include "rows.h"
#include "units_gold.h"
#endif
