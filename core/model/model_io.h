/* The model file format (plain text, versioned, checksummed). */
#ifndef TBK_MODEL_IO_H
#define TBK_MODEL_IO_H
#include "model.h"

/* Model files are plain text (diffable), versioned, and end with an MD5
 * checksum line, so truncation or corruption is always detected. */
tbk_status tbk_model_write(const tbk_model *m, tbk_buf *out, tbk_error *err);
#endif
