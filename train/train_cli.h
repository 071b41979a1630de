/* What tbk-train's main.c and options.c share: the run's options. */
#ifndef TBK_TRAIN_CLI_H
#define TBK_TRAIN_CLI_H
#include "cli.h"
#include "tbk_model.h"

typedef struct run {
  tbk_train_options opt;
  const char *output, *template_path;
  const char *nontext_lang; /* --nontext-stage: the text model's language */
  int keep_content;         /* --keep-content: --template's content stage stays */
  int quiet, want_progress, strict;
  unsigned context_folds;
} run;

void train_parse_options(run *r, int argc, char **argv);
#endif
