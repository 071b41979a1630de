/* tbk-eval gold: token overlap of extracted text with human gold text. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "eval_cli.h"
#include "tbk_eval.h"

/* ------------------------------------------------------------------- gold */

static void usage_gold(void) {
  printf("Usage: tbk-eval gold [OPTION]... MANIFEST [PRED_DIR]\n"
         "Score extracted text against human gold text, page by page: both are cut into\n"
         "case-folded Unicode word tokens (the library tokenizer) and compared as\n"
         "multisets: P = common/extracted, R = common/gold, F1 = 2PR/(P+R); both empty\n"
         "= 1/1/1, one empty = 0/0/0. Reports the mean and median over the pages as one\n"
         "JSON line.\n\n"
         "Pages are the MANIFEST rows with a gold file. The extraction of page\n"
         "\"pages/S/ID.html\" is PRED_DIR/pages/S/ID.txt (tbk-predict --output-dir) or\n"
         "else PRED_DIR/S/ID.txt (bench/peers/run_peers.sh); a missing file is an empty\n"
         "extraction (counted in missing_outputs).\n\n"
         "Options:\n"
         "      --baseline         no PRED_DIR: score each page's whole visible text\n"
         "                         (no removal at all)\n"
         "      --comments         gold = the gold file plus, when it exists, the\n"
         "                         file beside it with .comments.txt for .txt (Dragnet\n"
         "                         and synth_sites.py keep user comments there): the\n"
         "                         whole non-template text of the page\n"
         "      --per-page FILE    also write per-page figures (TSV: site, page,\n"
         "                         precision, recall, f1, pred_tokens, gold_tokens)\n"
         "      --name NAME        the \"name\" field of the JSON line (default: PRED_DIR,\n"
         "                         or \"baseline\")\n"
         "  -h, --help             show this help and exit\n\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error\n"
         "  2  usage error (also: an output that is a file the run reads)\n"
         "  3  done, but some gold or page files could not be read (each reported;\n"
         "     scored as empty)\n"
         "  4  the --per-page file could not be written\n");
}

enum { GOLD_BASELINE = CLI_OPT_FIRST_FREE, GOLD_PER_PAGE, GOLD_NAME, GOLD_COMMENTS };

/* X.comments.txt for gold file X.txt (NULL when the name does not end in
 * .txt or no such file exists). */
static char *comments_file(const char *gold) {
  char *c = tbk_gold_comments_path(gold);
  if (c && file_exists(c)) return c;
  free(c);
  return NULL;
}

int cmd_gold(int argc, char **argv) {
  cli_init("tbk-eval gold");
  int baseline = 0, comments = 0;
  const char *per_page = NULL, *name = NULL;
  static const struct option longopts[] = {{"baseline", no_argument, 0, GOLD_BASELINE},
                                           {"comments", no_argument, 0, GOLD_COMMENTS},
                                           {"per-page", required_argument, 0, GOLD_PER_PAGE},
                                           {"name", required_argument, 0, GOLD_NAME},
                                           {"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    switch (c) {
    case GOLD_BASELINE: baseline = 1; break;
    case GOLD_COMMENTS: comments = 1; break;
    case GOLD_PER_PAGE: per_page = optarg; break;
    case GOLD_NAME: name = optarg; break;
    case 'h': usage_gold(); return cli_exit(TBK_EXIT_OK);
    default: cli_bad_option(c, argv);
    }
  }
  int n = argc - optind;
  if (baseline ? n != 1 : n != 2)
    cli_usage_error(baseline ? "expected MANIFEST (and no PRED_DIR with --baseline)" : "expected MANIFEST PRED_DIR");
  const char *manifest = argv[optind], *pred_dir = baseline ? NULL : argv[optind + 1];
  if (pred_dir) {
    struct stat st;
    if (stat(pred_dir, &st) || !S_ISDIR(st.st_mode)) cli_die(TBK_EXIT_FAIL, "%s: not a directory", pred_dir);
  }
  tbk_page_list list = {0};
  tbk_input_options iopt;
  tbk_input_options_init(&iopt);
  tbk_error err = {0};
  if (tbk_page_list_add(&list, manifest, &iopt, NULL, NULL, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", manifest, err.msg);
  tbk_page_list_sort(&list);
  cli_reads_add(manifest);
  /* Every file read: pages, gold files (and their comments), predictions. */
  for (size_t i = 0; i < list.n; i++) {
    const tbk_page_ref *ref = &list.refs[i];
    cli_reads_add(ref->file);
    cli_reads_add(ref->gold);
    if (!ref->gold[0]) continue;
    char *extra = comments ? comments_file(ref->gold) : NULL;
    cli_reads_add(extra);
    free(extra);
    extra = pred_dir ? find_prediction(pred_dir, ref->page) : NULL;
    cli_reads_add(extra);
    free(extra);
  }
  cli_output_check("--per-page", per_page);
  tbk_gold_eval ge;
  if (tbk_gold_eval_init(&ge, baseline, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);

  size_t npages = 0, missing = 0, empty = 0, problems = 0;
  double *P = malloc((list.n ? list.n : 1) * sizeof *P), *R = malloc((list.n ? list.n : 1) * sizeof *R),
         *F = malloc((list.n ? list.n : 1) * sizeof *F);
  if (!P || !R || !F) cli_die(TBK_EXIT_FAIL, "out of memory");
  cli_out pp;
  if (per_page) {
    cli_out_open(&pp, per_page);
    fputs("site\tpage\tprecision\trecall\tf1\tpred_tokens\tgold_tokens\n", pp.f);
  }
  for (size_t i = 0; i < list.n; i++) {
    const tbk_page_ref *ref = &list.refs[i];
    if (!ref->gold[0]) continue;
    char *cfile = comments ? comments_file(ref->gold) : NULL;
    char *path = pred_dir ? find_prediction(pred_dir, ref->page) : NULL;
    missing += pred_dir && !path;
    tbk_overlap ov;
    if (tbk_gold_eval_page(&ge, ref, cfile, path, &ov, &problems, cli_warn_file, NULL, &err))
      cli_die(TBK_EXIT_FAIL, "%s", err.msg);
    free(cfile);
    free(path);
    P[npages] = ov.precision;
    R[npages] = ov.recall;
    F[npages] = ov.f1;
    npages++;
    empty += ov.pred_tokens == 0;
    if (per_page) {
      char prf[96];
      tbk_snprintf(prf, sizeof prf, "%.4f\t%.4f\t%.4f", ov.precision, ov.recall, ov.f1);
      fprintf(pp.f, "%s\t%s\t%s\t%zu\t%zu\n", ref->site, ref->page, prf, ov.pred_tokens, ov.gold_tokens);
    }
  }
  if (per_page) cli_out_finish(&pp); /* renamed into place once stdout is written too */
  if (npages == 0) cli_die(TBK_EXIT_FAIL, "%s: no page has a gold file", manifest);
  double pm, pmed, rm, rmed, fm, fmed;
  tbk_mean_median(P, npages, &pm, &pmed);
  tbk_mean_median(R, npages, &rm, &rmed);
  tbk_mean_median(F, npages, &fm, &fmed);
  tbk_buf js = {0};
  cli_mem(tbk_buf_puts(&js, "{\"name\": "));
  const char *nm = name ? name : baseline ? "baseline" : pred_dir;
  cli_mem(tbk_buf_json_str(&js, nm, strlen(nm)));
  cli_mem(tbk_buf_puts(&js, ", \"manifest\": "));
  cli_mem(tbk_buf_json_str(&js, manifest, strlen(manifest)));
  cli_mem(tbk_buf_printf(&js, ", \"gold\": \"%s\", \"pages\": %zu, \"missing_outputs\": %zu, \"empty_outputs\": %zu",
                         comments ? "main+comments" : "main", npages, missing, empty));
  const char *keys[6] = {"precision_mean", "recall_mean", "f1_mean", "precision_median", "recall_median", "f1_median"};
  double vals[6] = {pm, rm, fm, pmed, rmed, fmed};
  for (int k = 0; k < 6; k++) {
    cli_mem(tbk_buf_printf(&js, ", \"%s\": ", keys[k]));
    cli_mem(json_num(&js, vals[k]));
  }
  cli_mem(tbk_buf_puts(&js, "}\n"));
  fwrite(js.data, 1, js.len, stdout);
  tbk_buf_free(&js);
  free(P);
  free(R);
  free(F);
  tbk_gold_eval_free(&ge);
  tbk_page_list_free(&list);
  int code = cli_exit(problems ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
  return per_page ? cli_out_settle(&pp, code) : code;
}
