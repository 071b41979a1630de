/* What the programs use of the history layer: the site-history
 * store, opened and fed pages (history.h). */
#ifndef TBK_HISTORY_PROGRAMS_H
#define TBK_HISTORY_PROGRAMS_H
#include "history.h"
#endif
