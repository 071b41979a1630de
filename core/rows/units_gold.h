/* Units labelled from a human gold text (tbk-label --gold): the content
 * stage's units (core/features) aligned with the gold (core/label). */
#ifndef TBK_UNITS_GOLD_H
#define TBK_UNITS_GOLD_H
#include "label.h"
#include "units.h"

/* Segment the page into units (as tbk_units_page does, without features;
 * tbk_units_get then reads them) and label them from a human gold text:
 * each unit's tokens are aligned with the gold's (tbk_align_gold, order-aware) and a
 * unit is content (-1) when at least min_share of its tokens are matched,
 * boilerplate (+1) otherwise; a unit without tokens gets 0 (no label).
 * labels, share: tbk_units_count entries (share may be NULL). */
tbk_status tbk_units_gold_labels(tbk_units *ux, const tbk_page *page, const char *gold, size_t gold_len,
                                 double min_share, signed char *labels, double *share, tbk_error *err);
/* tbk_units_gold_labels, as tbk-label --gold writes it: one JSON line per
 * labelled unit (site, page and url of ref; path, tag, md5, label
 * "content" or "boilerplate", aligned share, words, chars and the first
 * 200 bytes of text) appended to out, counted in *content and
 * *boilerplate. */
tbk_status tbk_units_gold_jsonl(tbk_units *ux, const tbk_page_ref *ref, const tbk_page *page, const char *gold,
                                size_t gold_len, double min_share, tbk_buf *out, size_t *content, size_t *boilerplate,
                                tbk_error *err);
#endif
