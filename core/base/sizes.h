/* Bounds on the sizes a model file or a features file may declare. Real
 * values are far below (dim 489, word_dims 2^18, attr_dims 128): a file
 * claiming more is damaged, not big, and its readers refuse it before
 * allocating anything by it. The feature extractor takes the same bounds
 * as options. */
#ifndef TBK_SIZES_H
#define TBK_SIZES_H

#define TBK_MAX_DIM 100000u
#define TBK_MAX_WORD_DIMS (1u << 24)
#define TBK_MAX_ATTR_DIMS (1u << 16)
#define TBK_MAX_MIN_CHARS 1000000u /* also bounds min_words */

#endif
