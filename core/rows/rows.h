/* The rows tbk-features writes, for training or for any page: one per
 * candidate block (features) or per text unit (units), each as a line of
 * three aligned files: the dense features and the hashed words, both in
 * svmlight format, and a JSON Lines meta file (a header line first) naming
 * the row's site, page, path, tag, text md5 and label. tbk_dataset_read
 * (core/ml) reads the three back. */
#ifndef TBK_ROWS_H
#define TBK_ROWS_H
#include "features.h"
#include "label.h"
#include "units.h"

typedef struct tbk_rows tbk_rows;

/* Rows of blocks (units = 0) or of text units (1), with options o (the
 * effective ones: the meta header records them as given). */
tbk_status tbk_rows_new(const tbk_feature_options *o, int units, tbk_rows **out, tbk_error *err);
void tbk_rows_free(tbk_rows *r);
const char *tbk_rows_schema_id(const tbk_rows *r);
size_t tbk_rows_dim(const tbk_rows *r);
const char *tbk_rows_name(const tbk_rows *r, size_t i);
const char *tbk_rows_kind(const tbk_rows *r, size_t i);
/* The schema as tbk-features prints it, appended to out: with id the
 * schema id on a line, with names a line "INDEX\tNAME\tKIND" per feature
 * (INDEX from 1, as in the rows). -1 when out of memory. */
int tbk_rows_schema_write(const tbk_rows *r, int id, int names, tbk_buf *out);

/* Where the three files go; a NULL words or meta context: not written. A
 * write that returns non-zero stops with TBK_ERR_IO. */
typedef struct tbk_rows_out {
  tbk_write_fn write;
  void *features, *words, *meta;
} tbk_rows_out;

/* The meta file's first line: {"schema","dim","word_dims","attr_dims",
 * "bigrams","blocks","min_chars","min_words"}; po is the segmentation the
 * rows were made with. */
tbk_status tbk_rows_meta_header(const tbk_rows *r, const tbk_page_options *po, const tbk_rows_out *out, tbk_error *err);

/* Compute and write the rows of one page (ref names it in the meta file).
 * block_p: for units, the template stage's block probabilities (NULL: the
 * tmpl.* features are 0); ignored for blocks. Without labels every row is
 * written with label 0. With labels only the labelled rows are, with their
 * label; a labelled row whose text changed since labelling goes to warn
 * (the page as file) and is counted in *changed. *written gets the rows
 * written. A page the features cannot be computed for fails with the
 * features' error and writes nothing. */
tbk_status tbk_rows_write_page(tbk_rows *r, const tbk_page_ref *ref, const tbk_page *page, const double *block_p,
                               tbk_label_set *labels, const tbk_rows_out *out, tbk_warn_fn warn, void *warn_ctx,
                               size_t *written, size_t *changed, tbk_error *err);
#endif
