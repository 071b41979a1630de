/* tbk-eval: measure the model. Cross-site cross-validation of the whole
 * training procedure (with the paper's text / non-text ablation), the token
 * overlap of extracted text with human gold text, and trafilatura's
 * must-have / must-not-have snippets. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "eval_cli.h"

static void usage(void) {
  printf("Usage: tbk-eval COMMAND [OPTION]... ARG...\n"
         "Evaluate template-block detection.\n\n"
         "Commands:\n"
         "  cv        cross-site k-fold cross-validation of the training procedure on\n"
         "            labelled blocks, with the text / non-text ablation\n"
         "  gold      token precision/recall/F1 of extracted text against gold text\n"
         "  snippets  trafilatura's must-have / must-not-have snippet evaluation\n"
         "  chunks    Ma et al.'s metrics of the table-text-chunk labeller (atf, ttdr,\n"
         "            agreement with the blocks labeller), the sampling and threshold\n"
         "            experiments\n"
         "  keywords  keyword extraction with and without template removal, the\n"
         "            paper's top-N scores and paired t-tests\n"
         "  nodes     node-level recall/precision/F1 of a template against a reference\n"
         "            template (Alarte et al.'s Table 1)\n"
         "  cluster   a tbk-cluster assignment against a reference grouping (ARI,\n"
         "            purity), and the clustering's cost and time against pages\n\n"
         "Run 'tbk-eval COMMAND --help' for the options and exit statuses of each\n"
         "command.\n\n"
         "Options:\n"
         "  -h, --help     show this help and exit\n"
         "      --version  show the version and exit\n\n" CLI_EXIT_STATUS_HELP
         "  3  done, but some input was skipped (each reported)\n"
         "  4  an output could not be written\n"
         "  5  cv: the data sets were made with different feature schemas; keywords:\n"
         "     the model refused\n");
}

int main(int argc, char **argv) {
  cli_init("tbk-eval");
  if (argc < 2) cli_usage_error("no command given (cv, gold, snippets, chunks, keywords, nodes or cluster)");
  const char *cmd = argv[1];
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
    usage();
    return cli_exit(TBK_EXIT_OK);
  }
  if (strcmp(cmd, "--version") == 0) return cli_version();
  if (strcmp(cmd, "cv") == 0) return cmd_cv(argc - 1, argv + 1);
  if (strcmp(cmd, "gold") == 0) return publish_files(cmd_gold(argc - 1, argv + 1));
  if (strcmp(cmd, "snippets") == 0) return publish_files(cmd_snippets(argc - 1, argv + 1));
  if (strcmp(cmd, "chunks") == 0) return publish_files(cmd_chunks(argc - 1, argv + 1));
  if (strcmp(cmd, "keywords") == 0) return publish_files(cmd_keywords(argc - 1, argv + 1));
  if (strcmp(cmd, "cluster") == 0) return publish_files(cmd_cluster(argc - 1, argv + 1));
  if (strcmp(cmd, "nodes") == 0) return publish_files(cmd_nodes(argc - 1, argv + 1));
  cli_usage_error("unknown command '%s' (cv, gold, snippets, chunks, keywords, nodes or cluster)", cmd);
}
