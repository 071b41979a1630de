/* tbk-eval nodes: node-level recall, precision and F1 of a template
 * against a reference template, page by page, as Alarte et al. 2015's
 * Table 1 reports them (template nodes retrieved / reference, / retrieved). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eval_cli.h"

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

typedef struct page_score {
  char *site, *page;
  size_t nodes, ref, retrieved, correct, unknown;
  int seen; /* TEMPLATE has a line of it */
} page_score;

typedef struct slot {
  char *key;  /* page \t xpath, or page (pages table) */
  uint64_t h;
  size_t val; /* gold flag | page index << 1; page index */
} slot;

typedef struct table {
  slot *s;
  size_t cap, n;
} table;

static slot *find(table *t, const char *key, size_t klen, uint64_t h) {
  size_t i = h & (t->cap - 1);
  while (t->s[i].key && !(t->s[i].h == h && strncmp(t->s[i].key, key, klen) == 0 && !t->s[i].key[klen]))
    i = (i + 1) & (t->cap - 1);
  return &t->s[i];
}

static slot *lookup_or_add(table *t, const char *key, size_t klen, int *added) {
  if ((t->n + 1) * 2 > t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 1024;
    slot *ns = calloc(cap, sizeof *ns);
    if (!ns) cli_die(TBK_EXIT_FAIL, "out of memory");
    table nt = {ns, cap, t->n};
    for (size_t i = 0; i < t->cap; i++)
      if (t->s[i].key) *find(&nt, t->s[i].key, strlen(t->s[i].key), t->s[i].h) = t->s[i];
    free(t->s);
    *t = nt;
  }
  uint64_t h = tbk_hash64(key, klen);
  slot *s = find(t, key, klen, h);
  *added = !s->key;
  if (!s->key) {
    s->key = malloc(klen + 1);
    if (!s->key) cli_die(TBK_EXIT_FAIL, "out of memory");
    memcpy(s->key, key, klen);
    s->key[klen] = '\0';
    s->h = h;
    t->n++;
  }
  return s;
}

static void table_free(table *t) {
  for (size_t i = 0; i < t->cap; i++) free(t->s[i].key);
  free(t->s);
}

typedef struct scoring {
  table nodes, pages;
  page_score *ps;
  size_t nps, cap_ps;
  size_t bad_lines;
  tbk_buf key;
} scoring;

/* Read one file: the reference (gold 1), whose pages and elements are
 * registered, or the template, whose lines are scored against them. */
static void read_nodes(scoring *sc, const char *path, int gold) {
  FILE *f;
  tbk_error err = {0};
  if (tbk_open_read(path, &f, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", path, err.msg);
  char *line = NULL;
  size_t cap = 0, lineno = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, f)) > 0) {
    lineno++;
    tbk_jsonl_obj *o;
    if (tbk_jsonl_parse(line, (size_t)n, &o, &err)) {
      cli_warn("%s:%zu: %s (skipped)", path, lineno, err.msg);
      sc->bad_lines++;
      continue;
    }
    const char *page = tbk_jsonl_str(o, "page"), *xpath = tbk_jsonl_str(o, "xpath"), *site = tbk_jsonl_str(o, "site");
    double flag = tbk_jsonl_num(o, "template", NAN);
    if (!page || !xpath || !(flag == 0 || flag == 1)) {
      cli_warn("%s:%zu: a line needs \"page\", \"xpath\" and \"template\" 1 or 0 (skipped)", path, lineno);
      sc->bad_lines++;
      tbk_jsonl_free(o);
      continue;
    }
    int added;
    slot *ps = lookup_or_add(&sc->pages, page, strlen(page), &added);
    if (added) {
      if (!gold) {
        cli_warn("%s: page %s is not in the reference (skipped)", path, page);
        ps->val = SIZE_MAX;
      } else {
        cli_mem(tbk_grow(&sc->ps, &sc->cap_ps, sc->nps + 1, sizeof *sc->ps));
        page_score *p = &sc->ps[sc->nps];
        memset(p, 0, sizeof *p);
        p->page = strdup(page);
        p->site = strdup(site ? site : "-");
        if (!p->page || !p->site) cli_die(TBK_EXIT_FAIL, "out of memory");
        ps->val = sc->nps++;
      }
    }
    if (ps->val == SIZE_MAX) {
      tbk_jsonl_free(o);
      continue;
    }
    page_score *p = &sc->ps[ps->val];
    sc->key.len = 0;
    cli_mem(tbk_buf_puts(&sc->key, page) || tbk_buf_append(&sc->key, "\t", 1) || tbk_buf_puts(&sc->key, xpath));
    slot *ns = lookup_or_add(&sc->nodes, sc->key.data, sc->key.len, &added);
    if (gold) {
      if (added) {
        ns->val = (size_t)flag;
        p->nodes++;
        p->ref += flag == 1;
      }
    } else {
      p->seen = 1;
      if (added) {
        ns->val = 2; /* not in the reference: counted once */
        p->unknown++;
      }
      if (flag == 1) {
        p->retrieved++;
        p->correct += ns->val == 1;
      }
    }
    tbk_jsonl_free(o);
  }
  int rerr = ferror(f);
  free(line);
  if (f != stdin) fclose(f);
  if (rerr) cli_die(TBK_EXIT_FAIL, "%s: cannot read: %s", path, strerror(errno));
}

typedef struct sums {
  size_t pages, nodes, ref, retrieved, correct;
  double r, p, f;
} sums;

static void scores(const page_score *p, double *r, double *pr, double *f) {
  *r = p->ref ? (double)p->correct / (double)p->ref : 1.0;
  *pr = p->retrieved ? (double)p->correct / (double)p->retrieved : 1.0;
  *f = *r + *pr > 0 ? 2 * *r * *pr / (*r + *pr) : 0.0;
  if (!p->seen) *r = *pr = *f = 0.0;
}

static void add(sums *s, const page_score *p) {
  double r, pr, f;
  scores(p, &r, &pr, &f);
  s->pages++;
  s->nodes += p->nodes, s->ref += p->ref, s->retrieved += p->retrieved, s->correct += p->correct;
  s->r += r, s->p += pr, s->f += f;
}

static void row(tbk_buf *b, const char *site, const sums *s) {
  double n = s->pages ? (double)s->pages : 1.0;
  cli_mem(tbk_buf_printf(b, "%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%.4f\t%.4f\t%.4f\n", site, s->pages, s->nodes, s->ref,
                         s->retrieved, s->correct, s->r / n, s->p / n, s->f / n));
}

static int cmp_site(const void *a, const void *b) {
  const page_score *x = a, *y = b;
  int c = strcmp(x->site, y->site);
  return c ? c : strcmp(x->page, y->page);
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
  scoring sc = {0};
  read_nodes(&sc, gold, 1);
  read_nodes(&sc, pred, 0);
  if (!sc.nps) cli_die(TBK_EXIT_FAIL, "%s: no page to score", gold);
  qsort(sc.ps, sc.nps, sizeof *sc.ps, cmp_site);
  tbk_buf table = {0}, pages = {0};
  cli_mem(tbk_buf_puts(&table, "site\tpages\tnodes\treference\tretrieved\tcorrect\trecall\tprecision\tf1\n"));
  cli_mem(tbk_buf_puts(&pages, "site\tpage\tnodes\treference\tretrieved\tcorrect\trecall\tprecision\tf1\n"));
  sums all = {0}, site = {0};
  size_t missing = 0, unknown_pages = 0;
  for (size_t i = 0; i < sc.nps; i++) {
    const page_score *p = &sc.ps[i];
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
    scores(p, &r, &pr, &f);
    cli_mem(tbk_buf_printf(&pages, "%s\t%s\t%zu\t%zu\t%zu\t%zu\t%.4f\t%.4f\t%.4f\n", p->site, p->page, p->nodes,
                           p->ref, p->retrieved, p->correct, r, pr, f));
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
  for (size_t i = 0; i < sc.nps; i++) {
    free(sc.ps[i].site);
    free(sc.ps[i].page);
  }
  free(sc.ps);
  table_free(&sc.nodes);
  table_free(&sc.pages);
  tbk_buf_free(&sc.key);
  tbk_buf_free(&table);
  tbk_buf_free(&pages);
  return cli_exit(sc.bad_lines || missing || unknown_pages ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
}
