/* tbk-label --method chunks: the options and the per-site loop of the
 * table-text-chunk labeller (core/label/chunks.c). */
#ifndef TBK_LABEL_CHUNKS_CLI_H
#define TBK_LABEL_CHUNKS_CLI_H
#include "tbk_label.h"
#include "cli.h"

typedef struct label_chunks {
  int on; /* --method chunks */
  tbk_chunk_options opt;
  const char *strip_dir; /* --strip DIR */
  const char *given;     /* a chunk option given, for the error without --method chunks */
} label_chunks;

enum { LABEL_OPT_METHOD = 1100, LABEL_OPT_CHUNK_TAGS, LABEL_OPT_DF, LABEL_OPT_DF_FRAC, LABEL_OPT_KEY, LABEL_OPT_STRIP };
#define LABEL_CHUNK_LONGOPTS                                                                                      \
  {"method", required_argument, 0, LABEL_OPT_METHOD}, {"chunk-tags", required_argument, 0, LABEL_OPT_CHUNK_TAGS}, \
      {"df", required_argument, 0, LABEL_OPT_DF}, {"df-frac", required_argument, 0, LABEL_OPT_DF_FRAC},           \
      {"key", required_argument, 0, LABEL_OPT_KEY}, {                                                             \
    "strip", required_argument, 0, LABEL_OPT_STRIP                                                                \
  }

extern const char label_chunks_help[];
void label_chunks_init(label_chunks *c);
/* Handle one of LABEL_CHUNK_LONGOPTS; 1 when code was one. */
int label_chunks_option(label_chunks *c, int code, const char *arg);
/* Dies when a chunk option is given without --method chunks. */
void label_chunks_check(const label_chunks *c);
/* Label every site of list by its chunks; returns the exit code. */
int label_chunks_run(label_chunks *c, cli_pages *pages, const tbk_page_list *list, cli_out *out, const char *output,
                     const char *stats_path, size_t min_pages, int emit_ignored, int quiet);
#endif
