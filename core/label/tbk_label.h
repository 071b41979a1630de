/* What the programs use of the label layer: the auto-labeller and
 * label sets (label.h), page chunks and the chunker (chunks.h), template
 * clustering and its scores (cluster.h), the link graph (links.h) and
 * etdm's n-CS search and mapping (etdm.h). */
#ifndef TBK_LABEL_PROGRAMS_H
#define TBK_LABEL_PROGRAMS_H
#include "label.h"
#include "chunks.h"
#include "cluster.h"
#include "links.h"
#include "etdm.h"
#endif
