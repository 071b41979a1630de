/* What tbk-eval uses of the eval layer: ranking metrics, token
 * overlap, snippets and PR plots (eval.h), chunk truth and agreement
 * (chunks_eval.h), keyword metrics (keyword_metrics.h), a page scored
 * against its gold text (gold_eval.h), element-level templates scored
 * (nodes_eval.h), the rows of a cross-validation by site (cv_eval.h),
 * clustering scores and scaled page sets (cluster_eval.h). */
#ifndef TBK_EVAL_PROGRAMS_H
#define TBK_EVAL_PROGRAMS_H
#include "eval.h"
#include "chunks_eval.h"
#include "keyword_metrics.h"
#include "gold_eval.h"
#include "nodes_eval.h"
#include "cv_eval.h"
#include "cluster_eval.h"
#endif
