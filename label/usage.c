/* tbk-label --help, kept apart from the option parsing it documents. */
#include <stdio.h>

#include "chunks_cli.h"
#include "etdm_cli.h"
#include "label_cli.h"
#include "usage.h"

void label_usage(void) {
  printf("Usage: tbk-label [OPTION]... INPUT...\n"
         "Auto-label the blocks of every site's pages: blocks on many of a site's\n"
         "pages are template, blocks on exactly one page (top-most) are content.\n"
         "INPUT is a directory ROOT/<site>/.../*.html, a manifest .tsv (site page url\n"
         "gold), a .warc or .warc.gz file, or a single page ('-' = stdin).\n"
         "Writes one JSON object per labelled block (JSON Lines).\n\n"
         "Options:\n"
         "  -o, --output FILE        write labels to FILE (default: stdout); FILE appears\n"
         "                           only when complete\n"
         "      --stats FILE         write the per-site summary (TSV) to FILE\n"
         "      --template-share F   template if df >= ceil(F x pages) ... (0.10)\n"
         "      --template-min-df N  ... and df >= N (3)\n"
         "      --min-pages N        skip sites with fewer pages (10)\n"
         "      --all                also emit ignored blocks, with a reason\n"
         "  -q, --quiet              no per-site summary on stderr\n"
         "      --gold               label the content stage's units from human gold text\n"
         "                           instead (a manifest's gold column): a unit whose\n"
         "                           tokens align with the gold is content, else\n"
         "                           boilerplate; pages without gold are skipped\n"
         "      --gold-share F       content when >= F of a unit's tokens align (0.5)\n"
         "      --gold-comments      the gold also holds the page's user comments\n"
         "                           (GOLD.comments.txt next to GOLD.txt, when present)\n"
         "      --shard K/N          only the K-th of N runs over the same inputs: whole\n"
         "                           sites, balanced by pages; the N outputs joined in\n"
         "                           order (cat) are one run's (header: shard 1 only)\n"
         "      --clusters FILE      group pages by their cluster in FILE (tbk-cluster's\n"
         "                           TSV) instead of their site; pages it lacks are\n"
         "                           skipped (with --shard, cluster with --sites)\n"
         "  -h, --help               show this help and exit\n"
         "      --version            show the version and exit\n\n"
         "%s\n"
         "%s\n"
         "%s\n"
         CLI_EXIT_STATUS_HELP
         "  3  some pages or sites were skipped (each reported)\n"
         "  4  output could not be written\n",
         label_chunks_help, label_etdm_help, cli_page_options_help);
}
