/* What the programs use of the base layer: tbk_buf's appends and
 * printf, growable arrays (tbk_grow), whole-file reading, hashing, UTF-8
 * sequences, locale-free number parsing (util.h) and the JSON Lines
 * reader (jsonl.h). */
#ifndef TBK_BASE_PROGRAMS_H
#define TBK_BASE_PROGRAMS_H
#include "util.h"
#include "jsonl.h"
#endif
