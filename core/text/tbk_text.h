/* What the programs use of the text layer: MD5 (the block and unit
 * fingerprints they print) and the word tokenizer (text.h). */
#ifndef TBK_TEXT_PROGRAMS_H
#define TBK_TEXT_PROGRAMS_H
#include "text.h"
#endif
