/* Everything the library holds, for the programs, tests, fuzzers and
 * benchmarks of this tree (which link the static library). Library users
 * outside the tree get tbk.h alone: this header is not installed. */
#ifndef TBK_INTERNAL_H
#define TBK_INTERNAL_H
#include "tbk.h"

#include "util.h"
#include "jsonl.h"
#include "text.h"
#include "charset.h"
#include "measure.h"
#include "io.h"
#include "warc.h"
#include "page_internal.h"
#include "label.h"
#include "chunks.h"
#include "cluster.h"
#include "features.h"
#include "units.h"
#include "rows.h"
#include "units_gold.h"
#include "ml.h"
#include "model.h"
#include "model_io.h"
#include "history.h"
#include "predict.h"
#include "keywords.h"
#include "eval.h"
#include "chunks_eval.h"
#include "keyword_metrics.h"
#endif
