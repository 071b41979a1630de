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
         "gold), a WARC file, or a single page ('-' = stdin).\n"
         CLI_INPUT_BY_CONTENT_HELP
         CLI_WARC_RECORDS_HELP
         CLI_REPEATED_CAPTURES_HELP
         "Writes one JSON object per labelled block (JSON Lines); every line of a\n"
         "page from a WARC (every method, --nodes too) names its record: warc_file,\n"
         "warc_offset, warc_record_id, warc_date, after url (--nodes: after page);\n"
         "a site's WARC records in input (record) order.\n\n"
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
         "      --clusters FILE      template clusters of the pages (tbk-cluster's TSV):\n"
         "                           a block is template by its df within its cluster\n"
         "                           and site, df >= the site rule's threshold for the\n"
         "                           cluster's pages, raised to --min-pages or to a\n"
         "                           quarter of them if less; content stays df 1 on the\n"
         "                           site (the whole input without site keys); with\n"
         "                           --method chunks or etdm each cluster is a site;\n"
         "                           pages FILE lacks are skipped; an empty FILE, or one\n"
         "                           naming none of the pages read, is an error (exit 1)\n"
         "  -h, --help               show this help and exit\n"
         "      --version            show the version and exit\n\n"
         "%s\n"
         "%s\n"
         "%s\n"
         CLI_EXIT_STATUS_HELP
         "  3  some pages, sites or inputs were skipped (each reported)\n"
         "  4  output could not be written\n",
         label_chunks_help, label_etdm_help, cli_page_options_help);
}
