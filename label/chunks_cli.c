/* tbk-label --method chunks: per site, pass 1 over its pages, then the
 * labels (and with --strip each page's text without its template chunks). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chunks_cli.h"
#include "shard.h"

const char label_chunks_help[] = "Labeller options:\n"
                                 "      --method M           blocks (default): Kolcz & Yih's DOM blocks; chunks: Ma\n"
                                 "                           et al.'s table text chunks (text cut at every table tag,\n"
                                 "                           keyed by the MD5 of its normalized text); etdm: Alarte\n"
                                 "                           et al.'s template mapped from linked pages (below)\n"
                                 "      --chunk-tags LIST    tags that close a chunk (default\n"
                                 "                           " TBK_CHUNK_TAGS_DEFAULT ")\n"
                                 "      --df N               chunks: template if df >= N\n"
                                 "      --df-frac F          chunks: template if df >= max(ceil(F x pages), 3) (0.10)\n"
                                 "      --key K              chunks: text (default) or text+path (the chunk's tag\n"
                                 "                           path is part of its key)\n"
                                 "      --strip DIR          chunks: also write each page's text without its\n"
                                 "                           template chunks, one chunk a line, to DIR/<page>.txt\n"
                                 "                           (staged: DIR gets them only when the run succeeds)\n"
                                 "With --method chunks a line per chunk: page, chunk (its index on the page),\n"
                                 "path and tag (the innermost chunk tag around it), block (1: the chunk is a\n"
                                 "candidate block, whose path and md5 these are: tbk-features trains on those\n"
                                 "lines only), md5, key, df, label (template: df >= the threshold; content: df\n"
                                 "1 and once on its page; else ignored, with --all), chars, words, text.\n";

void label_chunks_init(label_chunks *c) {
  memset(c, 0, sizeof *c);
  tbk_chunk_options_init(&c->opt);
}

int label_chunks_option(label_chunks *c, int code, const char *arg) {
  tbk_error err = {0};
  switch (code) {
  case LABEL_OPT_METHOD:
    if (strcmp(arg, "chunks") == 0) c->on = 1;
    else if (strcmp(arg, "blocks") == 0) c->on = 0;
    else cli_usage_error("--method: '%s' is not blocks, chunks or etdm", arg);
    return 1;
  case LABEL_OPT_CHUNK_TAGS:
    if (tbk_chunk_tags_parse(&c->opt, arg, &err)) cli_usage_error("--chunk-tags: %s", err.msg);
    c->given = "--chunk-tags";
    return 1;
  case LABEL_OPT_DF:
    c->opt.df = (size_t)cli_long("--df", arg, 1, 1000000000);
    c->given = "--df";
    return 1;
  case LABEL_OPT_DF_FRAC:
    c->opt.df_frac = cli_double("--df-frac", arg, 0.0, 1.0);
    c->opt.df = 0;
    c->given = "--df-frac";
    return 1;
  case LABEL_OPT_KEY:
    if (strcmp(arg, "text") == 0) c->opt.key = TBK_CHUNK_KEY_TEXT;
    else if (strcmp(arg, "text+path") == 0) c->opt.key = TBK_CHUNK_KEY_TEXT_PATH;
    else cli_usage_error("--key: '%s' is neither text nor text+path", arg);
    c->given = "--key";
    return 1;
  case LABEL_OPT_STRIP:
    c->strip_dir = arg;
    c->given = "--strip";
    return 1;
  default: return 0;
  }
}

void label_chunks_check(const label_chunks *c) {
  if (!c->on && c->given) cli_usage_error("%s applies to --method chunks", c->given);
}

typedef struct strip_ctx {
  char **names;  /* every page's output name (cli_output_names) */
  size_t *added; /* list index of each page the chunker took, this site */
  tbk_buf buf;
} strip_ctx;

static int write_stripped(void *ctx, const tbk_chunk_page *p) {
  strip_ctx *s = ctx;
  s->buf.len = 0;
  if (tbk_chunk_page_strip(p, &s->buf)) cli_die(TBK_EXIT_FAIL, "out of memory");
  cli_write_file(s->names[s->added[p->index]], s->buf.data, s->buf.len);
  return 0;
}

static int write_stats(cli_out *o, const char *site, size_t bad, const tbk_chunk_stats *s, const char *status) {
  char atf[32], share[32];
  tbk_snprintf(atf, sizeof atf, "%.4f", s->atf);
  tbk_snprintf(share, sizeof share, "%.4f", s->template_share);
  return fprintf(o->f, "%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%s\t%s\t%s\n", site, s->pages, bad, s->chunks,
                 s->keys, s->threshold, s->template_keys, s->templates, s->contents, s->ignored, atf, share,
                 status) < 0;
}

int label_chunks_run(label_chunks *c, cli_pages *pages, const tbk_page_list *list, cli_out *out, const char *output,
                     const char *stats_path, size_t min_pages, int emit_ignored, int quiet) {
  c->opt.emit_ignored = emit_ignored;
  c->opt.keep_text = c->strip_dir != NULL;
  strip_ctx sx = {0};
  cli_stage stage = {0};
  if (c->strip_dir) {
    /* Checked as DIR's names, written to a staged DIR moved into place at the end. */
    sx.names = cli_stage_page_names(&stage, c->strip_dir, list, ".txt");
    sx.added = malloc((list->n ? list->n : 1) * sizeof *sx.added);
    if (!sx.added) cli_die(TBK_EXIT_FAIL, "out of memory");
  }
  cli_out stats;
  if (stats_path) {
    cli_out_open(&stats, stats_path);
    if (cli_shard_headers() &&
        fputs("site\tpages\tbad_pages\tchunks\tkeys\tthreshold\ttemplate_keys\ttemplate\tcontent\tignored\tatf\t"
              "template_share\tstatus\n",
              stats.f) < 0)
      cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
  }
  if (!quiet)
    fprintf(stderr, "%-32s %6s %6s %9s %5s %8s %8s %6s %6s\n", "site", "pages", "bad", "chunks", "df>=", "tkeys",
            "template", "atf", "tshare");
  size_t skipped_sites = 0;
  for (size_t i = 0; i < list->n;) {
    size_t j = i;
    while (j < list->n && strcmp(list->refs[j].site, list->refs[i].site) == 0) j++;
    const char *site = list->refs[i].site;
    tbk_chunk_stats s = {0};
    if (j - i < min_pages) {
      s.pages = j - i;
      cli_warn("site %s: %zu pages < --min-pages %zu (skipped)", site, j - i, min_pages);
      if (stats_path && write_stats(&stats, site, 0, &s, "too-few-pages"))
        cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
      skipped_sites++;
      i = j;
      continue;
    }
    tbk_chunker *ck;
    tbk_error err = {0};
    if (tbk_chunker_new(site, &c->opt, &ck, &err)) cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
    size_t bad_before = pages->bad_pages, nadded = 0, dup_before = pages->dup_captures;
    cli_captures seen = {0};
    for (size_t k = i; k < j; k++) {
      tbk_page *page = cli_pages_load(pages, &list->refs[k]);
      if (!page) continue;
      if (cli_pages_repeat_capture(pages, &seen, &list->refs[k], k, NULL)) {
        tbk_page_free(page);
        continue;
      }
      if (sx.added) sx.added[nadded++] = k;
      if (tbk_chunker_add_page(ck, &list->refs[k], page, &err)) cli_die(TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
      tbk_page_free(page);
    }
    cli_captures_free(&seen);
    size_t bad = pages->bad_pages - bad_before, dups = pages->dup_captures - dup_before;
    const char *status = "labelled";
    if (j - i - bad - dups < min_pages) {
      cli_warn("site %s: only %zu readable pages < --min-pages %zu (skipped)", site, j - i - bad - dups, min_pages);
      s.pages = j - i - bad - dups;
      status = "too-few-pages";
      skipped_sites++;
    } else if (tbk_chunker_finish(ck, cli_out_write, out, c->strip_dir ? write_stripped : NULL, &sx, &s, &err)) {
      if (ferror(out->f))
        cli_die(TBK_EXIT_WRITE, "%s: cannot write output: %s", output ? output : "standard output", strerror(errno));
      cli_die(err.code == TBK_ERR_IO ? TBK_EXIT_WRITE : TBK_EXIT_FAIL, "site %s: %s", site, err.msg);
    }
    tbk_chunker_free(ck);
    if (!quiet)
      fprintf(stderr, "%-32s %6zu %6zu %9zu %5zu %8zu %8zu %6.3f %6.3f\n", site, s.pages, bad, s.chunks, s.threshold,
              s.template_keys, s.templates, s.atf, s.template_share);
    if (stats_path && write_stats(&stats, site, bad, &s, status))
      cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
    if (ferror(out->f)) cli_die(TBK_EXIT_WRITE, "%s: cannot write output", output ? output : "standard output");
    i = j;
  }
  cli_pages_captures_summary(pages);
  tbk_buf_free(&sx.buf);
  if (sx.names) {
    for (size_t k = 0; k < list->n; k++) free(sx.names[k]);
    free(sx.names);
  }
  free(sx.added);
  /* Every output complete before any is published: a failed -o or --stats
   * leaves neither them nor DIR's files. */
  cli_out_finish(out);
  if (stats_path) cli_out_finish(&stats);
  if (c->strip_dir) cli_stage_publish(&stage);
  cli_out_publish(out);
  if (stats_path) cli_out_publish(&stats);
  int code = cli_pages_exit(pages);
  if (code == TBK_EXIT_OK && skipped_sites) code = TBK_EXIT_PARTIAL;
  return code;
}
