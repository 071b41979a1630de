/* Ma et al.'s metrics for the chunk labeller (tbk-eval chunks): the
 * template table discovery ratio against a known template, the average
 * template fraction, agreement with the blocks labeller, and a line plot
 * for the sampling and threshold curves. */
#ifndef TBK_CHUNKS_EVAL_H
#define TBK_CHUNKS_EVAL_H
#include "chunks.h"

/* The known template of synthetic sites (datasets/synth_table_sites.py's
 * chunk_truth.tsv): one node per template chunk at one place. */
typedef struct tbk_chunk_node {
  char *site, *node, *variant, *tpath; /* owned by the truth */
  unsigned char md5[16];               /* of the node's normalized text */
  unsigned pages;                      /* pages that hold it */
} tbk_chunk_node;
typedef struct tbk_chunk_truth {
  tbk_chunk_node *nodes; /* sorted by site, then file order */
  size_t n;
} tbk_chunk_truth;
/* Read a TSV whose header names at least site, md5 and tpath (node,
 * variant and pages are optional). Errors: TBK_ERR_IO, TBK_ERR_FORMAT
 * ("LINE: why"), TBK_ERR_NOMEM. */
tbk_status tbk_chunk_truth_read(const char *path, tbk_chunk_truth *out, tbk_error *err);
void tbk_chunk_truth_free(tbk_chunk_truth *t);
/* The nodes of one site (none: 0). */
size_t tbk_chunk_truth_site(const tbk_chunk_truth *t, const char *site, const tbk_chunk_node **nodes);

/* A site's discovered template, place by place: a place is a chunk's text
 * (its md5) at its tag path. Fed the pages of tbk_chunker_finish. */
typedef struct tbk_chunk_places tbk_chunk_places;
tbk_chunk_places *tbk_chunk_places_new(void);
void tbk_chunk_places_free(tbk_chunk_places *p);
void tbk_chunk_places_clear(tbk_chunk_places *p);
/* Every template chunk of the page; 0, or -1 out of memory. */
int tbk_chunk_places_add_page(tbk_chunk_places *p, const tbk_chunk_page *pg);
int tbk_chunk_places_add(tbk_chunk_places *p, const unsigned char md5[16], const char *tpath);
int tbk_chunk_places_has(const tbk_chunk_places *p, const unsigned char md5[16], const char *tpath);
size_t tbk_chunk_places_count(const tbk_chunk_places *p);
/* Visit every place (for a reference built from a run). */
void tbk_chunk_places_each(const tbk_chunk_places *p,
                           void (*fn)(void *ctx, const unsigned char md5[16], const char *tpath), void *ctx);

/* The discovery ratio against nt reference places: nd = the reference
 * places discovered (found) + discovered places the reference lacks
 * (extra); ttdr = nd / nt (Ma et al. definition 4.1.2: 1 every template
 * node found, > 1 more than the template, < 1 some missed). */
typedef struct tbk_ttdr {
  size_t nt, found, extra;
  double ttdr; /* NaN for nt = 0 */
} tbk_ttdr;
tbk_ttdr tbk_chunk_ttdr_nodes(const tbk_chunk_places *found, const tbk_chunk_node *ref, size_t nref);
tbk_ttdr tbk_chunk_ttdr_places(const tbk_chunk_places *found, const tbk_chunk_places *ref);

/* Agreement of two labellings of the same text, in characters: a = text
 * the chunks call template, b = text the other calls template, both =
 * text both call template. */
typedef struct tbk_agreement {
  uint64_t a, b, both;
} tbk_agreement;
/* precision both/a, recall both/b, Jaccard both/(a+b-both); NaN on 0/0. */
void tbk_agreement_rates(const tbk_agreement *g, double *precision, double *recall, double *jaccard);

/* One chunking of some pages of a site, scored (chunk_run.c): the
 * template places it finds and, given the blocks labeller's labels, its
 * agreement with them (per chunk, the characters inside blocks labelled
 * template). Pages are added one at a time, then finished; a finished run
 * may be finished again at another threshold (tbk_chunk_run_again). */
typedef struct tbk_chunk_run {
  tbk_chunker *ck; /* owned */
  tbk_chunk_options opt;
  tbk_label_set *blocks;    /* borrowed (matching marks its blocks found);
                                  NULL: no agreement */
  tbk_chunk_stats st;       /* of the last pass */
  tbk_chunk_places *places; /* owned: the template places found */
  tbk_agreement agree;      /* with blocks (zeros without) */
  size_t added;             /* pages added */
  uint32_t *ovl;            /* owned, per chunk of the pages added: its
                                  characters inside blocks' template */
  size_t n_ovl, cap_ovl, at;
  tbk_buf mask;         /* owned scratch */
  const tbk_page *page; /* borrowed: the page being added */
} tbk_chunk_run;
/* Errors: TBK_ERR_NOMEM, tbk_chunker_new's. */
tbk_status tbk_chunk_run_new(tbk_chunk_run *r, const char *site, const tbk_chunk_options *o, tbk_label_set *blocks,
                             tbk_error *err);
tbk_status tbk_chunk_run_add(tbk_chunk_run *r, const tbk_page_ref *ref, const tbk_page *page, tbk_error *err);
tbk_status tbk_chunk_run_finish(tbk_chunk_run *r, tbk_error *err);
/* The pass again with document-frequency threshold df. */
tbk_status tbk_chunk_run_again(tbk_chunk_run *r, size_t df, tbk_error *err);
/* The places found against the known template (nt nodes), else against
 * reference places ref, else ttdr NaN. */
tbk_ttdr tbk_chunk_run_ttdr(const tbk_chunk_run *r, const tbk_chunk_node *truth, size_t nt,
                            const tbk_chunk_places *ref);
void tbk_chunk_run_free(tbk_chunk_run *r);

/* A line plot (SVG) of a few series: linear axes from the data (y from 0),
 * one colour and dash per series, a legend at the right. */
typedef struct tbk_line_series {
  const char *name;
  const double *x, *y; /* n points, x increasing; NaN y are skipped */
  size_t n;
} tbk_line_series;
tbk_status tbk_line_svg(const tbk_line_series *s, size_t ns, const char *title, const char *xlabel, const char *ylabel,
                        tbk_buf *out, tbk_error *err);
#endif
