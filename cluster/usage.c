/* tbk-cluster --help, kept apart from the option parsing it documents. */
#include <stdio.h>

#include "cli.h"
#include "usage.h"

void cluster_usage(void) {
  printf("Usage: tbk-cluster [OPTION]... INPUT...\n"
         "Group pages by template: each page is the set of its tag paths, and the\n"
         "clustering kept is the one that describes the pages' non-content paths in\n"
         "the fewest bits (MDL), found by merging, from single pages up, the pair of\n"
         "clusters that lowers the description length most; only pairs that share a\n"
         "MinHash/LSH bucket are compared.\n"
         "INPUT is a directory ROOT/<site>/.../*.html, a manifest .tsv (site page url\n"
         "gold), a WARC file, or a single page ('-' = stdin).\n" CLI_INPUT_BY_CONTENT_HELP CLI_WARC_RECORDS_HELP
             CLI_REPEATED_CAPTURES_HELP "Writes one row per page: page, site, cluster, size (the cluster's pages),\n"
         "with a header; 'tbk-label --clusters FILE' judges template blocks within\n"
         "each cluster. A row of a WARC page names its record: in TSV (when a page\n"
         "read is from a WARC) the columns warc_file, warc_offset, warc_record_id,\n"
         "warc_date, warc_skip (empty for a page from a file); in JSONL the keys\n"
         "after site, as tbk-predict's.\n\n"
         "Options:\n"
         "  -o, --output FILE        write the assignment to FILE (default: stdout); FILE\n"
         "                           appears only when complete\n"
         "      --format F           tsv or jsonl (tsv)\n"
         "      --sites              cluster the pages of each site apart (default: all\n"
         "                           pages together, the site keys unused)\n"
         "      --paths KIND         tags: a path is its elements' tag names (the\n"
         "                           paper's); attrs: also each element's id and class,\n"
         "                           digits left out (tags)\n"
         "      --pathno SCOPE       over which pages a path's pathno (pages holding\n"
         "                           it) is counted: component: the pages its page is\n"
         "                           linked to by LSH candidate pairs, found first;\n"
         "                           group: all pages together, or the site's with\n"
         "                           --sites (the paper's) (component)\n"
         "      --bands N            LSH bands (20)\n"
         "      --rows N             MinHash values per band (4)\n"
         "      --seed N             MinHash seed (fixed: the same input always gives\n"
         "                           the same clusters)\n"
         "  -q, --quiet              no summary on stderr\n"
         "  -h, --help               show this help and exit\n"
         "      --version            show the version and exit\n\n"
         "%s\n" CLI_EXIT_STATUS_HELP "  3  some pages or inputs were skipped (each reported)\n"
         "  4  output could not be written\n",
         cli_page_options_help);
}
