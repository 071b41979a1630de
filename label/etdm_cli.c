/* tbk-label --method etdm: its options, and per site the two passes of
 * core/label/etdm_site.c (the link graph; each page's template from its
 * n-CS, Algorithms 1 and 2) over the pages loaded here, each template
 * written as block labels, and with --nodes / --template-html as element
 * flags and HTML. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "etdm_cli.h"
#include "tbk_text.h"
#include "tbk_page.h"

const char label_etdm_help[] = "Template extraction by hyperlink analysis (--method etdm, Alarte et al. 2015):\n"
                               "each page (the key page) is mapped, top down and equal node to equal node,\n"
                               "onto the pages it links to that all link to each other (the menu's complete\n"
                               "subdigraph, CS); what stays mapped on every one is the page's template.\n"
                               "      --cs-size N          pages of the CS searched for (4); when there is no\n"
                               "                           N-CS, the largest found\n"
                               "      --node-equal E       when two nodes are equal: tag, tag+id+class, or\n"
                               "                           weighted (default): same tag and 0.30 id + 0.25\n"
                               "                           classes + 0.15 child count + 0.10 position + 0.20\n"
                               "                           attribute names >= 0.8; these two leave out the\n"
                               "                           marks of a page's own menu entry: classes with an\n"
                               "                           active, current or selected part (is-active,\n"
                               "                           current-menu-item...), aria-current, aria-selected\n"
                               "      --nodes FILE         also write every element of every page (JSON Lines:\n"
                               "                           site, page, xpath, tag, template 1 or 0, cs; a\n"
                               "                           WARC page's warc_* keys after page)\n"
                               "      --template-html DIR  also write each page's template as HTML (the page\n"
                               "                           without its non-template elements) to DIR/<page>.html\n"
                               "                           (staged: DIR gets them only when the run succeeds)\n"
                               "With --method etdm a block is template when its element and every element in\n"
                               "it are in the template, content when none is (the top-most such block); df\n"
                               "is 1 + the CS pages that mapped its element, pages 1 + the CS's size. Links\n"
                               "are <a href> resolved against the page's URL, its <base>, or its path below\n"
                               "the directory named after its site, and kept when they lead to a page of the\n"
                               "input's same site; a page that links to none gets no labels (counted as\n"
                               "no_cs per site; --nodes and --template-html give it the whole page).\n";

void label_etdm_init(label_etdm *e) {
  memset(e, 0, sizeof *e);
  e->cs_size = 4;
  e->eq = TBK_NODE_EQ_WEIGHTED;
}

int label_etdm_option(label_etdm *e, int code, const char *arg, int method_code) {
  if (code == method_code) {
    e->on = strcmp(arg, "etdm") == 0;
    return e->on;
  }
  switch (code) {
  case LABEL_OPT_CS_SIZE:
    e->cs_size = (size_t)cli_long("--cs-size", arg, 1, 64);
    e->given = "--cs-size";
    return 1;
  case LABEL_OPT_NODE_EQUAL:
    if (tbk_node_eq_parse(arg, &e->eq)) cli_usage_error("--node-equal: '%s' is not tag, tag+id+class or weighted", arg);
    e->given = "--node-equal";
    return 1;
  case LABEL_OPT_NODES:
    e->nodes_path = arg;
    e->given = "--nodes";
    return 1;
  case LABEL_OPT_TEMPLATE_HTML:
    e->html_dir = arg;
    e->given = "--template-html";
    return 1;
  default: return 0;
  }
}

void label_etdm_check(const label_etdm *e) {
  if (!e->on && e->given) cli_usage_error("%s applies to --method etdm", e->given);
  if (e->html_dir && !*e->html_dir) cli_usage_error("--template-html needs a directory");
  if (e->nodes_path) cli_output_check("--nodes", e->nodes_path);
}

typedef struct site_stats {
  size_t pages, bad, links, no_cs, cs_sum, loads_sum, templates, contents, ignored;
  double node_share_sum; /* template nodes / nodes, summed over key pages */
  size_t keys;
} site_stats;

typedef struct run_ctx {
  label_etdm *e;
  cli_pages *pages;
  const tbk_page_list *list;
  cli_out *out, *nodes;
  const char *output;
  char **html_names;
  int emit_ignored;
  tbk_buf line, arena, html;
  tbk_buf trace; /* the key page's record (tbk_page_ref_trace), empty when not from a WARC */
} run_ctx;

static void put(run_ctx *r, cli_out *o, const char *name) {
  if (fwrite(r->line.data, 1, r->line.len, o->f) != r->line.len)
    cli_die(TBK_EXIT_WRITE, "%s: cannot write output: %s", name ? name : "standard output", strerror(errno));
}

static void write_labels(run_ctx *r, const tbk_page_ref *ref, const tbk_page *page, const uint8_t *keep,
                         const uint32_t *hits, size_t cs_n, site_stats *s) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t nb = pv.n_blocks;
  tbk_label *labels = malloc((nb + 1) * sizeof *labels);
  const char **reasons = malloc((nb + 1) * sizeof *reasons);
  tbk_error err = {0};
  if (!labels || !reasons) cli_die(TBK_EXIT_FAIL, "out of memory");
  if (tbk_etdm_block_labels(page, keep, labels, reasons, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
  for (size_t b = 0; b < nb; b++) {
    const tbk_block *bl = &pv.blocks[b];
    tbk_label lab = labels[b];
    s->templates += lab == TBK_LABEL_TEMPLATE;
    s->contents += lab == TBK_LABEL_CONTENT;
    s->ignored += lab == TBK_LABEL_IGNORED;
    if (lab == TBK_LABEL_IGNORED && !r->emit_ignored) continue;
    tbk_label_record rec = {.site = ref->site,
                            .site_len = strlen(ref->site),
                            .page = ref->page,
                            .page_len = strlen(ref->page),
                            .url = ref->url,
                            .url_len = strlen(ref->url),
                            .trace = r->trace.data,
                            .trace_len = r->trace.len,
                            .path = bl->path,
                            .path_len = strlen(bl->path),
                            .tag = bl->tag,
                            .tag_len = strlen(bl->tag),
                            .chunk = -1,
                            .md5 = bl->md5,
                            .df = 1 + hits[bl->node],
                            .pages = 1 + cs_n,
                            .label = lab,
                            .reason = reasons[b],
                            .chars = bl->text_chars,
                            .line = bl->line,
                            .depth = bl->depth,
                            .text = bl->text,
                            .text_len = bl->text_len};
    r->line.len = 0;
    cli_mem(tbk_label_record_write(&r->line, &rec));
    put(r, r->out, r->output);
  }
  free(labels);
  free(reasons);
}

static void write_nodes(run_ctx *r, const tbk_page_ref *ref, const tbk_page *page, const uint8_t *keep, size_t cs_n) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t *off;
  tbk_error err = {0};
  if (tbk_etdm_xpaths(page, &r->arena, &off, &err)) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
  for (size_t i = 0; i < pv.n_nodes; i++) {
    const char *x = r->arena.data + off[i], *tag = tbk_node_name(&pv.nodes[i]);
    r->line.len = 0;
    cli_mem(tbk_buf_puts(&r->line, "{\"site\":") || tbk_buf_json_str(&r->line, ref->site, strlen(ref->site)) ||
            tbk_buf_puts(&r->line, ",\"page\":") || tbk_buf_json_str(&r->line, ref->page, strlen(ref->page)) ||
            (r->trace.len && tbk_buf_append(&r->line, r->trace.data, r->trace.len)) ||
            tbk_buf_puts(&r->line, ",\"xpath\":") || tbk_buf_json_str(&r->line, x, strlen(x)) ||
            tbk_buf_puts(&r->line, ",\"tag\":") || tbk_buf_json_str(&r->line, tag, strlen(tag)) ||
            tbk_buf_printf(&r->line, ",\"template\":%d,\"cs\":%zu}\n", keep[i] != 0, cs_n));
    put(r, r->nodes, r->e->nodes_path);
  }
  free(off);
}

static void write_html(run_ctx *r, size_t idx, const tbk_page *page, const uint8_t *keep) {
  const tbk_page_view pv = tbk_page_view_of(page);
  /* The outermost elements out of the template go, with all inside them. */
  tbk_html_drop *drop = malloc((pv.n_nodes + 1) * sizeof *drop);
  if (!drop) cli_die(TBK_EXIT_FAIL, "out of memory");
  size_t nd = 0;
  for (size_t i = 0; i < pv.n_nodes; i++) {
    uint32_t p = pv.nodes[i].parent;
    if (!keep[i] && (p == TBK_NONE || keep[p])) drop[nd++] = (tbk_html_drop){(uint32_t)i, 0};
  }
  tbk_html_edit ed = {.drop = drop, .n_drop = nd};
  r->html.len = 0;
  tbk_status st = tbk_page_html(page, &ed, &r->html);
  free(drop);
  if (st)
    cli_die(TBK_EXIT_FAIL, "%s: cannot render the template: %s", r->list->refs[idx].page,
            st == TBK_ERR_FORMAT && *tbk_page_html_note(page) ? tbk_page_html_note(page) : tbk_status_str(st));
  cli_pages_html_warn(&r->list->refs[idx], page);
  cli_write_file(r->html_names[idx], r->html.data ? r->html.data : "", r->html.len);
}

static tbk_page *load_page(void *ctx, size_t i) {
  run_ctx *r = ctx;
  return cli_pages_load(r->pages, &r->list->refs[i]);
}

/* One key page: its template (its CS, the mapping with each CS page), the
 * outputs. */
static void key_page(run_ctx *r, tbk_etdm_site *site, size_t q, site_stats *s) {
  tbk_etdm_key k;
  tbk_error err = {0};
  tbk_status st = tbk_etdm_site_key(site, q, &k, &err);
  const tbk_page_ref *ref = &r->list->refs[k.index];
  if (st || (k.page && tbk_page_ref_trace(ref, &r->trace, &err))) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
  if (!k.page) return;
  size_t n = tbk_page_view_of(k.page).n_nodes;
  s->keys++;
  s->loads_sum += k.loads;
  s->cs_sum += k.cs_n;
  if (!k.cs_n) s->no_cs++;
  else {
    s->node_share_sum += n ? (double)k.kept / (double)n : 0.0;
    write_labels(r, ref, k.page, k.keep, k.hits, k.cs_n, s);
  }
  if (r->nodes) write_nodes(r, ref, k.page, k.keep, k.cs_n);
  if (r->html_names) write_html(r, k.index, k.page, k.keep);
  tbk_etdm_key_clear(&k);
}

static void site_run(run_ctx *r, size_t i, size_t j, site_stats *s) {
  const char *name = r->list->refs[i].site;
  tbk_etdm_site *site;
  tbk_error err = {0};
  if (tbk_etdm_site_new(r->e->cs_size, r->e->eq, load_page, r, &site, &err)) cli_die(TBK_EXIT_FAIL, "out of memory");
  size_t bad_before = r->pages->bad_pages;
  cli_captures seen = {0};
  for (size_t k = i; k < j; k++) {
    const tbk_page_ref *ref = &r->list->refs[k];
    tbk_page *page = cli_pages_load(r->pages, ref);
    if (!page) continue;
    if (cli_pages_repeat_capture(r->pages, &seen, ref, k, NULL)) { /* one capture: one page of the graph */
      tbk_page_free(page);
      continue;
    }
    if (tbk_etdm_site_add(site, k, page, ref->site, ref->page, ref->url, &err))
      cli_die(TBK_EXIT_FAIL, "site %s: %s", name, err.msg);
    tbk_page_free(page);
  }
  cli_captures_free(&seen);
  s->pages = j - i;
  s->bad = r->pages->bad_pages - bad_before;
  size_t keys;
  if (tbk_etdm_site_finish(site, &keys, &s->links, &err)) cli_die(TBK_EXIT_FAIL, "site %s: %s", name, err.msg);
  for (size_t q = 0; q < keys; q++) key_page(r, site, q, s);
  tbk_etdm_site_free(site);
}

static int write_stats(cli_out *o, const char *site, const site_stats *s) {
  char cs[32], loads[32], share[32];
  size_t with = s->keys - s->no_cs;
  tbk_snprintf(cs, sizeof cs, "%.2f", s->keys ? (double)s->cs_sum / (double)s->keys : 0.0);
  tbk_snprintf(loads, sizeof loads, "%.2f", s->keys ? (double)s->loads_sum / (double)s->keys : 0.0);
  tbk_snprintf(share, sizeof share, "%.4f", with ? s->node_share_sum / (double)with : 0.0);
  return fprintf(o->f, "%s\t%zu\t%zu\t%zu\t%zu\t%s\t%s\t%s\t%zu\t%zu\t%zu\n", site, s->pages, s->bad, s->links,
                 s->no_cs, cs, loads, share, s->templates, s->contents, s->ignored) < 0;
}

int label_etdm_run(label_etdm *e, cli_pages *pages, const tbk_page_list *list, cli_out *out, const char *output,
                   const char *stats_path, int emit_ignored, int quiet) {
  run_ctx r = {.e = e, .pages = pages, .list = list, .out = out, .output = output, .emit_ignored = emit_ignored};
  cli_out nodes, stats;
  if (e->nodes_path) {
    cli_out_open(&nodes, e->nodes_path);
    r.nodes = &nodes;
  }
  cli_stage stage = {0};
  if (e->html_dir) {
    /* Checked as DIR's names, written to a staged DIR moved into place at the end. */
    r.html_names = cli_stage_page_names(&stage, e->html_dir, list, ".html");
  }
  if (stats_path) {
    cli_out_open(&stats, stats_path);
    if (fputs("site\tpages\tbad_pages\tlinks\tno_cs\tmean_cs\tmean_loads\ttemplate_node_share\ttemplate\tcontent\t"
              "ignored\n",
              stats.f) < 0)
      cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
  }
  if (!quiet)
    fprintf(stderr, "%-32s %6s %6s %7s %6s %5s %6s %6s %8s %8s\n", "site", "pages", "bad", "links", "no_cs", "cs",
            "loads", "tnodes", "template", "content");
  for (size_t i = 0, j; i < list->n; i = j) {
    for (j = i; j < list->n && strcmp(list->refs[j].site, list->refs[i].site) == 0;) j++;
    site_stats s = {0};
    site_run(&r, i, j, &s);
    const char *site = list->refs[i].site;
    if (s.no_cs) cli_warn("site %s: %zu of %zu pages link to no page of the site (no labels)", site, s.no_cs, s.keys);
    if (!quiet) {
      size_t with = s.keys - s.no_cs;
      fprintf(stderr, "%-32s %6zu %6zu %7zu %6zu %5.2f %6.2f %6.3f %8zu %8zu\n", site, s.pages, s.bad, s.links, s.no_cs,
              s.keys ? (double)s.cs_sum / (double)s.keys : 0.0, s.keys ? (double)s.loads_sum / (double)s.keys : 0.0,
              with ? s.node_share_sum / (double)with : 0.0, s.templates, s.contents);
    }
    if (stats_path && write_stats(&stats, site, &s)) cli_die(TBK_EXIT_WRITE, "%s: cannot write", stats_path);
  }
  cli_pages_captures_summary(pages);
  tbk_buf_free(&r.line);
  tbk_buf_free(&r.arena);
  tbk_buf_free(&r.html);
  tbk_buf_free(&r.trace);
  if (r.html_names) {
    for (size_t k = 0; k < list->n; k++) free(r.html_names[k]);
    free(r.html_names);
  }
  /* Every output complete before any is published: a failed -o, --stats or
   * --nodes leaves none of them nor DIR's files. */
  cli_out *const outs[] = {out, stats_path ? &stats : NULL, r.nodes};
  for (size_t k = 0; k < 3; k++)
    if (outs[k]) cli_out_finish(outs[k]);
  if (e->html_dir) cli_stage_publish(&stage);
  for (size_t k = 0; k < 3; k++)
    if (outs[k]) cli_out_publish(outs[k]);
  return cli_pages_exit(pages);
}
