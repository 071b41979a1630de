/* tbk-eval nodes: node-level recall, precision and F1 of a template
 * against a reference template, page by page, as Alarte et al. 2015's
 * Table 1 reports them (template nodes retrieved / reference, / retrieved). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eval_cli.h"
#include "tbk_eval.h"

static void usage_nodes(void) {
  printf("Usage: tbk-eval nodes [OPTION]... --gold REFERENCE TEMPLATE\n"
         "Score a node-level template against a reference, page by page: for each page\n"
         "of REFERENCE, recall = template nodes of TEMPLATE that the reference has too /\n"
         "template nodes of the reference, precision = the same / template nodes of\n"
         "TEMPLATE, F1 = 2PR/(P+R) (nothing retrieved: precision 1; an empty reference:\n"
         "recall 1; P + R = 0: F1 0). Both files are JSON Lines, one element a line with\n"
         "\"page\", \"xpath\" and \"template\" (1 or 0; \"site\" optional), as tbk-label\n"
         "--method etdm --nodes and datasets/synth_sites.py --links write them.\n"
         "Prints one row per site and one for all pages (TSV: site, pages, nodes,\n"
         "reference, retrieved, correct, and the means over pages of recall, precision\n"
         "and F1).\n\n"
         "Options:\n"
         "      --gold FILE        the reference template (required)\n"
         "  -o, --output FILE      the table (default: stdout)\n"
         "      --per-page FILE    also one row per page (TSV: site, page, nodes,\n"
         "                         reference, retrieved, correct, recall, precision, f1)\n"
         "  -h, --help             show this help and exit\n\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error\n"
         "  2  usage error (also: an output that is a file the run reads)\n"
         "  3  done, but some lines were broken or pages of the reference have no\n"
         "     line in TEMPLATE (each reported; such a page scores 0), or TEMPLATE\n"
         "     names elements the reference does not have (reported per page)\n"
         "  4  an output could not be written\n");
}

enum { NODES_GOLD = CLI_OPT_FIRST_FREE, NODES_PER_PAGE };

typedef struct sums {
  size_t pages, nodes, ref, retrieved, correct;
  double r, p, f;
} sums;

static void add(sums *s, const tbk_nodes_page *p) {
  double r, pr, f;
  tbk_nodes_page_scores(p, &r, &pr, &f);
  s->pages++;
  s->nodes += p->nodes, s->ref += p->ref, s->retrieved += p->retrieved, s->correct += p->correct;
  s->r += r, s->p += pr, s->f += f;
}

static void row(tbk_buf *b, const char *site, const sums *s) {
  double n = s->pages ? (double)s->pages : 1.0;
  cli_mem(tbk_buf_printf(b, "%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%.4f\t%.4f\t%.4f\n", site, s->pages, s->nodes, s->ref,
                         s->retrieved, s->correct, s->r / n, s->p / n, s->f / n));
}

int cmd_nodes(int argc, char **argv) {
  cli_init("tbk-eval nodes");
  const char *gold = NULL, *output = NULL, *per_page = NULL;
  static const struct option longopts[] = {{"gold", required_argument, 0, NODES_GOLD},
                                           {"output", required_argument, 0, 'o'},
                                           {"per-page", required_argument, 0, NODES_PER_PAGE},
                                           {"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
    switch (c) {
    case NODES_GOLD: gold = optarg; break;
    case 'o': output = optarg; break;
    case NODES_PER_PAGE: per_page = optarg; break;
    case 'h': usage_nodes(); return TBK_EXIT_OK;
    default: cli_bad_option(c, argv);
    }
  }
  if (!gold) cli_usage_error("--gold is required");
  if (optind + 1 != argc) cli_usage_error(optind >= argc ? "no TEMPLATE given" : "one TEMPLATE file only");
  const char *pred = argv[optind];
  cli_reads_add(gold);
  cli_reads_add(pred);
  cli_output_check("-o", output);
  cli_output_check("--per-page", per_page);
  tbk_nodes_eval sc = {0};
  tbk_error err = {0};
  if (tbk_nodes_eval_read(&sc, gold, 1, cli_warn_file, NULL, &err) ||
      tbk_nodes_eval_read(&sc, pred, 0, cli_warn_file, NULL, &err))
    cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  if (!sc.nps) cli_die(TBK_EXIT_FAIL, "%s: no page to score", gold);
  tbk_nodes_eval_sort(&sc);
  tbk_buf table = {0}, pages = {0};
  cli_mem(tbk_buf_puts(&table, "site\tpages\tnodes\treference\tretrieved\tcorrect\trecall\tprecision\tf1\n"));
  cli_mem(tbk_buf_puts(&pages, "site\tpage\tnodes\treference\tretrieved\tcorrect\trecall\tprecision\tf1\n"));
  sums all = {0}, site = {0};
  size_t missing = 0, unknown_pages = 0;
  for (size_t i = 0; i < sc.nps; i++) {
    const tbk_nodes_page *p = &sc.ps[i];
    if (!p->seen) {
      cli_warn("%s: page %s has no line (scored 0)", pred, p->page);
      missing++;
    }
    if (p->unknown) {
      cli_warn("%s: page %s: %zu elements the reference does not have", pred, p->page, p->unknown);
      unknown_pages++;
    }
    add(&all, p);
    add(&site, p);
    double r, pr, f;
    tbk_nodes_page_scores(p, &r, &pr, &f);
    cli_mem(tbk_buf_printf(&pages, "%s\t%s\t%zu\t%zu\t%zu\t%zu\t%.4f\t%.4f\t%.4f\n", p->site, p->page, p->nodes, p->ref,
                           p->retrieved, p->correct, r, pr, f));
    if (i + 1 == sc.nps || strcmp(sc.ps[i + 1].site, p->site) != 0) {
      row(&table, p->site, &site);
      memset(&site, 0, sizeof site);
    }
  }
  row(&table, "all", &all);
  if (output) write_file(output, &table);
  else if (table.len && fwrite(table.data, 1, table.len, stdout) != table.len)
    cli_die(TBK_EXIT_WRITE, "standard output: cannot write");
  if (per_page) write_file(per_page, &pages);
  tbk_nodes_eval_free(&sc);
  tbk_buf_free(&table);
  tbk_buf_free(&pages);
  return cli_exit(sc.bad_lines || missing || unknown_pages ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
}
