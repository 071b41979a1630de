/* What the programs use of the keywords layer: the extractor, the
 * background document frequencies, gold keywords and the ranker's
 * trainer (keywords.h). */
#ifndef TBK_KEYWORDS_PROGRAMS_H
#define TBK_KEYWORDS_PROGRAMS_H
#include "keywords.h"
#endif
