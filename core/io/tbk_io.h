/* What the programs use of the io layer: inputs listed as page
 * references (directories, manifests, WARC, stdin), each read on demand
 * and traced; gold text files with their comments (io.h); WARC record
 * names and counts (warc.h). */
#ifndef TBK_IO_PROGRAMS_H
#define TBK_IO_PROGRAMS_H
#include "io.h"
#include "warc.h"
#endif
