/* The JSON Lines object reader (core/jsonl.c). Its API is public, in the
 * features section of tbk.h, so the programs can read labels and meta
 * files too; this header stays for the library modules that include it. */
#ifndef TBK_JSONL_H
#define TBK_JSONL_H
#include "tbk.h"
#endif
