/* tbk-train --help: what every option means (docs/man/tbk-train.1 is
 * generated from it). */
#include "cli.h"
#include "usage.h"

void train_usage(void) {
  printf("Usage: tbk-train [OPTION]... -o MODEL FEATURES WORDS META [FEATURES WORDS META]...\n"
         "Fit a template-block model on what tbk-features wrote for labelled blocks:\n"
         "each data set is its features file, its words file and its meta file.\n"
         "Rows are deduplicated, every numeric feature is discretized by Fayyad-Irani\n"
         "MDL, a Naive-Bayes text score (out-of-fold, folds by site) joins them, and\n"
         "L2 logistic regression (LIBLINEAR) is fitted. Operating points for template\n"
         "precision 0.80/0.90/0.95 are measured by cross-site cross-validation.\n\n"
         "Options:\n"
         "  -o, --output MODEL       model file to write (required); appears when complete\n"
         "      --parts P            all, text (NB only) or nontext (default all)\n"
         "      --cv-folds K         cross-site CV folds for operating points (default 5;\n"
         "                           0 = none)\n"
         "      --threads N          fit N cross-validation folds at once (default 1;\n"
         "                           the model is the same for any N)\n"
         "      --template MODEL     the rows are the content stage's (tbk-features --units\n"
         "                           -m MODEL): write a two-stage model, MODEL's template\n"
         "                           stage with the content stage fitted here\n"
         "      --context K          with --template: add the contextual pass, trained on\n"
         "                           K-fold (by site) out-of-fold first-pass probabilities\n"
         "                           (0 = none, the default)\n"
         "  -q, --quiet              no progress and no summary on stderr\n"
         CLI_PROGRESS_HELP
         "  -h, --help               show this help and exit\n"
         "      --version            show the version and exit\n\n"
         "%s\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error (including no usable data)\n"
         "  2  usage error\n"
         "  3  trained, but malformed rows were skipped\n"
         "  4  model could not be written\n"
         "  5  the data sets were made with different feature schemas, or the --template\n"
         "     model was refused (missing, corrupt, truncated, or of another schema)\n",
         cli_train_options_help);
}
