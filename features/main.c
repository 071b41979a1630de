/* tbk-features: feature vectors of page blocks (stage 2 of the pipeline),
 * for training (--labels: only auto-labelled blocks, +1/-1) or for any
 * page (every candidate block, label 0). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tbk_internal.h"

static void usage(void) {
  printf("Usage: tbk-features [OPTION]... INPUT...\n"
         "Compute the feature vectors of the blocks of every page.\n"
         "INPUT is a directory ROOT/<site>/.../*.html, a manifest .tsv, a .warc or\n"
         ".warc.gz file, or a single page ('-' = stdin), as for tbk-label.\n"
         "With --labels, only the blocks tbk-label labelled are written (template +1,\n"
         "content -1); without, every candidate block is written with label 0.\n\n"
         "Output files:\n"
         "  -o, --output FILE        dense features, LIBLINEAR/svmlight format\n"
         "                           \"LABEL idx:val ...\" (default: stdout)\n"
         "      --words FILE         hashed word counts \"LABEL idx:count ...\"\n"
         "      --meta FILE          JSON Lines: first line {\"schema\",\"dim\",\"word_dims\",...},\n"
         "                           then one {\"site\",\"page\",\"path\",\"tag\",\"md5\",\n"
         "                           \"label\",\"block\"} per vector\n"
         "The three files are aligned line by line (the meta file has one header line\n"
         "first). Every FILE appears only when complete.\n\n"
         "Options:\n"
         "      --labels FILE        JSON Lines labels written by tbk-label (--gold labels\n"
         "                           with --units: boilerplate +1, content -1)\n"
         "      --units              the content stage's rows: one per leaf text unit\n"
         "                           (schema tbk-units-1), instead of one per block\n"
         "  -m, --model FILE         with --units: the template model whose block\n"
         "                           probabilities become the units' tmpl.* features; its\n"
         "                           segmentation options are used (without -m the tmpl.*\n"
         "                           features are 0: rows for a content stage alone)\n"
         "      --attr-dims N        hashed class/id token features per scope (128;\n"
         "                           32 with --units)\n"
         "      --word-dims N        hashed word buckets of the words file (262144;\n"
         "                           16384 with --units)\n"
         "      --bigrams            also hash word bigrams into the words file\n"
         "      --schema             print every feature (index, name, kind; tab-separated)\n"
         "                           and exit\n"
         "      --schema-id          print the schema id and exit\n"
         "      --progress N         report progress every N pages on stderr\n"
         "  -h, --help               show this help and exit\n"
         "      --version            show the version and exit\n\n"
         "%s\n"
         "Exit status:\n"
         "  0  ok\n"
         "  1  fatal error\n"
         "  2  usage error\n"
         "  3  some pages, label lines or labelled blocks were skipped (each reported)\n"
         "  4  output could not be written\n"
         "  5  the --units -m model refused (missing, corrupt, truncated, or built for\n"
         "     another feature schema)\n",
         cli_page_options_help);
}

enum {
  OPT_WORDS = CLI_OPT_FIRST_FREE, OPT_META, OPT_LABELS, OPT_ATTR_DIMS, OPT_WORD_DIMS, OPT_BIGRAMS,
  OPT_SCHEMA, OPT_SCHEMA_ID, OPT_PROGRESS, OPT_VERSION, OPT_UNITS
};

/* ------------------------------------------------------------ label table */

typedef struct label_entry {
  size_t key;      /* offset of "page\0path\0" in the arena */
  size_t page_len, path_len;
  char md5[33];
  signed char label;
  unsigned char used;        /* 1 written or refused, 2 duplicate line */
  unsigned char page_loaded; /* on a page's first entry: page was read */
} label_entry;

typedef struct label_table {
  tbk_buf arena;        /* owned: keys */
  label_entry *e;       /* owned */
  size_t n, cap;
  uint32_t *slots;      /* owned: entry index + 1, 0 = empty */
  size_t nslots;
  uint32_t *page_slots; /* owned: entry index + 1 of a first entry per page */
  size_t npages;
} label_table;

static uint64_t fnv64(const char *s, size_t n, uint64_t h) {
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
  return h;
}
static uint64_t key_hash(const char *page, size_t pl, const char *path, size_t ql) {
  return fnv64(path, ql, fnv64("", 1, fnv64(page, pl, 1469598103934665603ULL)));
}

static const char *entry_page(const label_table *t, const label_entry *e) { return t->arena.data + e->key; }
static const char *entry_path(const label_table *t, const label_entry *e) {
  return t->arena.data + e->key + e->page_len + 1;
}

static label_entry *find_label(label_table *t, const char *page, const char *path) {
  if (!t->nslots) return NULL;
  size_t pl = strlen(page), ql = strlen(path);
  size_t h = key_hash(page, pl, path, ql) & (t->nslots - 1);
  for (; t->slots[h]; h = (h + 1) & (t->nslots - 1)) {
    label_entry *e = &t->e[t->slots[h] - 1];
    if (e->page_len == pl && e->path_len == ql && memcmp(entry_page(t, e), page, pl) == 0 &&
        memcmp(entry_path(t, e), path, ql) == 0)
      return e;
  }
  return NULL;
}

/* The first entry of a page, or NULL when the page has no labels. */
static label_entry *page_entry(const label_table *t, const char *page) {
  if (!t->npages) return NULL;
  size_t pl = strlen(page);
  size_t h = fnv64(page, pl, 1469598103934665603ULL) & (t->npages - 1);
  for (; t->page_slots[h]; h = (h + 1) & (t->npages - 1)) {
    label_entry *e = &t->e[t->page_slots[h] - 1];
    if (e->page_len == pl && memcmp(entry_page(t, e), page, pl) == 0) return e;
  }
  return NULL;
}

/* Hash both indexes once all entries are read (entries never move after). */
static void index_labels(label_table *t) {
  t->nslots = 16;
  while (t->nslots < 2 * t->n) t->nslots *= 2;
  t->npages = t->nslots;
  t->slots = calloc(t->nslots, sizeof *t->slots);
  t->page_slots = calloc(t->npages, sizeof *t->page_slots);
  if (!t->slots || !t->page_slots) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < t->n; i++) {
    label_entry *e = &t->e[i];
    if (find_label(t, entry_page(t, e), entry_path(t, e))) {
      e->used = 2; /* duplicate line: the first one wins */
      continue;
    }
    size_t h = key_hash(entry_page(t, e), e->page_len, entry_path(t, e), e->path_len) & (t->nslots - 1);
    while (t->slots[h]) h = (h + 1) & (t->nslots - 1);
    t->slots[h] = (uint32_t)i + 1;
    if (page_entry(t, entry_page(t, e))) continue;
    h = fnv64(entry_page(t, e), e->page_len, 1469598103934665603ULL) & (t->npages - 1);
    while (t->page_slots[h]) h = (h + 1) & (t->npages - 1);
    t->page_slots[h] = (uint32_t)i + 1;
  }
}

static int is_md5_hex(const char *s) {
  size_t n = 0;
  for (; s[n]; n++)
    if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'))) return 0;
  return n == 32;
}

/* Read tbk-label's JSON Lines. Broken lines are warned about (with their
 * line number), counted and skipped; ignored blocks are skipped silently. */
static size_t read_labels(const char *path, label_table *t) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
  if (!f) cli_die(TBK_EXIT_FAIL, "%s: cannot open labels", path);
  char *line = NULL;
  size_t cap = 0, lineno = 0, bad = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, f)) >= 0) {
    lineno++;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
    if (len == 0) continue;
    tbk_jsonl_obj *o = NULL;
    tbk_error err = {0};
    if (tbk_jsonl_parse(line, (size_t)len, &o, &err) != TBK_OK) {
      if (err.code == TBK_ERR_NOMEM) cli_die(TBK_EXIT_FAIL, "out of memory");
      cli_warn("%s:%zu: %s (skipped)", path, lineno, err.msg);
      bad++;
      continue;
    }
    const char *page = tbk_jsonl_str(o, "page"), *bpath = tbk_jsonl_str(o, "path");
    const char *md5 = tbk_jsonl_str(o, "md5"), *lab = tbk_jsonl_str(o, "label");
    int label = 0;
    if (lab)
      label = strcmp(lab, "template") == 0 || strcmp(lab, "boilerplate") == 0 ? 1 : strcmp(lab, "content") == 0 ? -1 : 0;
    else if (tbk_jsonl_has(o, "label")) {
      double d = tbk_jsonl_num(o, "label", 0);
      label = d == 1 ? 1 : d == -1 ? -1 : 0;
    }
    if (!page || !bpath || !md5 || !is_md5_hex(md5) || (!lab && !tbk_jsonl_has(o, "label"))) {
      cli_warn("%s:%zu: not a label line (needs page, path, md5 and label) (skipped)", path, lineno);
      bad++;
    } else if (label != 0) {
      if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 1024;
        label_entry *e = realloc(t->e, nc * sizeof *e);
        if (!e) cli_die(TBK_EXIT_FAIL, "out of memory");
        t->e = e;
        t->cap = nc;
      }
      label_entry *e = &t->e[t->n++];
      memset(e, 0, sizeof *e);
      e->key = t->arena.len;
      e->page_len = strlen(page);
      e->path_len = strlen(bpath);
      memcpy(e->md5, md5, 33);
      e->label = (signed char)label;
      if (tbk_buf_append(&t->arena, page, e->page_len + 1) || tbk_buf_append(&t->arena, bpath, e->path_len + 1))
        cli_die(TBK_EXIT_FAIL, "out of memory");
    }
    tbk_jsonl_free(o);
  }
  int rerr = ferror(f);
  free(line);
  if (f != stdin) fclose(f);
  if (rerr) cli_die(TBK_EXIT_FAIL, "%s: read error", path);
  index_labels(t);
  return bad;
}

static void free_labels(label_table *t) {
  tbk_buf_free(&t->arena);
  free(t->e);
  free(t->slots);
  free(t->page_slots);
}

/* ------------------------------------------------------------------ main */

static void put(cli_out *o, const char *what, const tbk_buf *b) {
  if (b->len && fwrite(b->data, 1, b->len, o->f) != b->len)
    cli_die(TBK_EXIT_WRITE, "%s: cannot write", o->path ? o->path : what);
}

int main(int argc, char **argv) {
  cli_init("tbk-features");
  cli_pages pages;
  cli_pages_init(&pages);
  tbk_feature_options fopt;
  tbk_feature_options_init(&fopt);
  const char *output = NULL, *words_path = NULL, *meta_path = NULL, *labels_path = NULL;
  int want_schema = 0, want_id = 0, units_mode = 0, attr_dims_given = 0, word_dims_given = 0;
  const char *model_path = NULL;
  size_t progress = 0;
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},
      {"words", required_argument, 0, OPT_WORDS},
      {"meta", required_argument, 0, OPT_META},
      {"labels", required_argument, 0, OPT_LABELS},
      {"attr-dims", required_argument, 0, OPT_ATTR_DIMS},
      {"word-dims", required_argument, 0, OPT_WORD_DIMS},
      {"bigrams", no_argument, 0, OPT_BIGRAMS},
      {"schema", no_argument, 0, OPT_SCHEMA},
      {"schema-id", no_argument, 0, OPT_SCHEMA_ID},
      {"progress", required_argument, 0, OPT_PROGRESS},
      {"units", no_argument, 0, OPT_UNITS},
      {"model", required_argument, 0, 'm'},
      {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, OPT_VERSION},
      CLI_PAGE_LONGOPTS,
      {0, 0, 0, 0}};
  int c;
  opterr = 0; /* our message format, not getopt's */
  while ((c = getopt_long(argc, argv, ":o:m:h", longopts, NULL)) != -1) {
    if (cli_pages_option(&pages, c, optarg)) continue;
    switch (c) {
    case 'o': output = optarg; break;
    case OPT_WORDS: words_path = optarg; break;
    case OPT_META: meta_path = optarg; break;
    case OPT_LABELS: labels_path = optarg; break;
    case OPT_ATTR_DIMS:
      fopt.attr_dims = (uint32_t)cli_long("--attr-dims", optarg, 0, 65536);
      attr_dims_given = 1;
      break;
    case OPT_WORD_DIMS:
      fopt.word_dims = (uint32_t)cli_long("--word-dims", optarg, 1, 1L << 24);
      word_dims_given = 1;
      break;
    case OPT_BIGRAMS: fopt.bigrams = 1; break;
    case OPT_SCHEMA: want_schema = 1; break;
    case OPT_SCHEMA_ID: want_id = 1; break;
    case OPT_UNITS: units_mode = 1; break;
    case 'm': model_path = optarg; break;
    case OPT_PROGRESS: progress = (size_t)cli_long("--progress", optarg, 1, 1000000000); break;
    case 'h': usage(); return cli_exit(TBK_EXIT_OK);
    case OPT_VERSION: return cli_version();
    default: cli_bad_option(c, argv);
    }
  }
  tbk_features *fx;
  tbk_error err = {0};
  if (tbk_features_new(&fopt, &fx, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  tbk_units *ux = NULL;
  /* Units have their own defaults (tbk_units_new), measured as accurate
   * as the blocks' and making a smaller model (EVALUATION.md). */
  if (units_mode && !attr_dims_given) fopt.attr_dims = TBK_UNITS_ATTR_DIMS;
  if (units_mode && !word_dims_given) fopt.word_dims = TBK_UNITS_WORD_DIMS;
  if (units_mode && tbk_units_new(&fopt, &ux, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  if (units_mode && (want_schema || want_id)) {
    if (want_id) printf("%s\n", tbk_units_schema_id(ux));
    for (size_t i = 0; want_schema && i < tbk_units_dim(ux); i++)
      printf("%zu\t%s\t%s\n", i + 1, tbk_units_name(ux, i), tbk_units_kind(ux, i));
    tbk_units_free(ux);
    tbk_features_free(fx);
    return cli_exit(TBK_EXIT_OK);
  }
  if (model_path && !units_mode) cli_usage_error("--model applies to --units");

  tbk_model *model = NULL;
  tbk_predictor *pred = NULL;
  if (units_mode && model_path) {
    if (tbk_model_load(model_path, &model, &err)) cli_die(TBK_EXIT_MODEL, "%s: %s", model_path, err.msg);
    tbk_status st = tbk_predictor_new(model, &pred, &err);
    if (st) cli_die(st == TBK_ERR_SCHEMA ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", model_path, err.msg);
    /* blocks are segmented as the template model was trained */
    tbk_page_options mo;
    tbk_model_page_options(model, &mo);
    pages.page.blocks = mo.blocks;
    pages.page.min_chars = mo.min_chars;
    pages.page.min_words = mo.min_words;
  }
  if (want_schema || want_id) {
    if (want_id) printf("%s\n", tbk_features_schema_id(fx));
    for (size_t i = 0; want_schema && i < tbk_features_dim(fx); i++)
      printf("%zu\t%s\t%s\n", i + 1, tbk_features_name(fx, i), tbk_features_kind(fx, i));
    tbk_features_free(fx);
    return cli_exit(TBK_EXIT_OK);
  }
  if (optind >= argc) cli_usage_error("no input given");
  if (labels_path && output && strcmp(labels_path, output) == 0) cli_usage_error("--labels and -o name the same file");

  /* Block fingerprints go into the meta file and check the labels. */
  pages.page.fingerprints = labels_path || meta_path;
  label_table labels = {0};
  size_t bad_label_lines = labels_path ? read_labels(labels_path, &labels) : 0;
  tbk_page_list list;
  cli_pages_list(&pages, argv + optind, argc - optind, &list);

  cli_out out, words, meta;
  cli_out_open(&out, output);
  if (words_path) cli_out_open(&words, words_path);
  if (meta_path) cli_out_open(&meta, meta_path);
  tbk_buf line = {0};
  if (meta_path) {
    if (tbk_buf_printf(&line, "{\"schema\":\"%s\",\"dim\":%zu,\"word_dims\":%u,\"attr_dims\":%u,\"bigrams\":%d,"
                              "\"blocks\":\"%s\",\"min_chars\":%zu,\"min_words\":%zu}\n",
                       units_mode ? tbk_units_schema_id(ux) : tbk_features_schema_id(fx),
                       units_mode ? tbk_units_dim(ux) : tbk_features_dim(fx), fopt.word_dims, fopt.attr_dims,
                       fopt.bigrams ? 1 : 0, pages.page.blocks == TBK_BLOCKS_HTML5 ? "html5" : "paper",
                       pages.page.min_chars, pages.page.min_words))
      cli_die(TBK_EXIT_FAIL, "out of memory");
    put(&meta, "meta", &line);
  }
  size_t vectors = 0, mismatched = 0, missing = 0, done_pages = 0;
  for (size_t i = 0; i < list.n; i++) {
    const tbk_page_ref *ref = &list.refs[i];
    if (progress && i && i % progress == 0)
      fprintf(stderr, "tbk-features: %zu/%zu pages, %zu vectors\n", i, list.n, vectors);
    label_entry *first = NULL;
    if (labels_path && !(first = page_entry(&labels, ref->page))) continue;
    tbk_page *page = cli_pages_load(&pages, ref);
    if (!page) continue;
    if (first) first->page_loaded = 1;
    done_pages++;
    const double *bp = NULL;
    tbk_status fst = !units_mode ? tbk_features_page(fx, page, &err) : pred ? tbk_predict_page(pred, page, &bp, &err) : TBK_OK;
    if (fst == TBK_OK && units_mode) fst = tbk_units_page(ux, page, bp, &err);
    if (fst) {
      if (err.code == TBK_ERR_NOMEM || pages.strict) cli_die(TBK_EXIT_FAIL, "%s: %s", ref->page, err.msg);
      cli_warn("%s: %s (skipped)", ref->page, err.msg);
      pages.bad_pages++;
      tbk_page_free(page);
      continue;
    }
    size_t nb = units_mode ? tbk_units_count(ux) : tbk_page_block_count(page);
    for (size_t b = 0; b < nb; b++) {
      const char *rpath, *rtag;
      const unsigned char *rmd5;
      tbk_unit un;
      if (units_mode) {
        tbk_units_get(ux, page, b, &un);
        rpath = un.path, rtag = un.tag, rmd5 = un.md5;
      } else {
        const tbk_block *blk = tbk_page_block(page, b);
        rpath = blk->path, rtag = blk->tag, rmd5 = blk->md5;
      }
      char hex[33];
      tbk_md5_hex(rmd5, hex);
      int label = 0;
      if (labels_path) {
        label_entry *e = find_label(&labels, ref->page, rpath);
        if (!e || e->used == 2) continue;
        e->used = 1;
        if (strcmp(e->md5, hex) != 0) {
          cli_warn("%s: %s %s: text changed since labelling (md5 %s, labels say %s) (skipped)", ref->page,
                   units_mode ? "unit" : "block", rpath, hex, e->md5);
          mismatched++;
          continue;
        }
        label = e->label;
      }
      line.len = 0;
      if (units_mode ? tbk_units_format(ux, b, label, 0, &line) : tbk_features_format(fx, b, label, 0, &line))
        cli_die(TBK_EXIT_FAIL, "out of memory");
      put(&out, "standard output", &line);
      if (words_path) {
        line.len = 0;
        if (units_mode ? tbk_units_format(ux, b, label, 1, &line) : tbk_features_format(fx, b, label, 1, &line))
          cli_die(TBK_EXIT_FAIL, "out of memory");
        put(&words, "words", &line);
      }
      if (meta_path) {
        line.len = 0;
        if (tbk_buf_puts(&line, "{\"site\":") || tbk_buf_json_str(&line, ref->site, strlen(ref->site)) ||
            tbk_buf_puts(&line, ",\"page\":") || tbk_buf_json_str(&line, ref->page, strlen(ref->page)) ||
            tbk_buf_puts(&line, ",\"path\":") || tbk_buf_json_str(&line, rpath, strlen(rpath)) ||
            tbk_buf_puts(&line, ",\"tag\":") || tbk_buf_json_str(&line, rtag, strlen(rtag)) ||
            tbk_buf_printf(&line, ",\"md5\":\"%s\",\"label\":%d,\"%s\":%zu}\n", hex, label,
                           units_mode ? "unit" : "block", b))
          cli_die(TBK_EXIT_FAIL, "out of memory");
        put(&meta, "meta", &line);
      }
      vectors++;
    }
    tbk_page_free(page);
  }
  if (labels_path) {
    /* Labelled blocks of pages that were read but whose block is gone
     * (labels of pages not among the inputs are simply not wanted). */
    for (size_t k = 0; k < labels.n; k++) {
      label_entry *e = &labels.e[k];
      if (e->used || !page_entry(&labels, entry_page(&labels, e))->page_loaded) continue;
      missing++;
      if (missing <= 10)
        cli_warn("%s: labelled block %s not found among the pages read (skipped)", entry_page(&labels, e),
                 entry_path(&labels, e));
    }
    if (missing > 10) cli_warn("%zu labelled blocks in all were not found", missing);
    size_t unread = 0;
    for (size_t k = 0; k < labels.n; k++)
      unread += !labels.e[k].used && !page_entry(&labels, entry_page(&labels, &labels.e[k]))->page_loaded;
    if (unread) cli_warn("note: %zu labelled blocks belong to pages not read", unread);
    if (bad_label_lines) cli_warn("%s: %zu broken lines skipped", labels_path, bad_label_lines);
  }
  if (progress) fprintf(stderr, "tbk-features: %zu pages read, %zu vectors\n", done_pages, vectors);
  tbk_buf_free(&line);
  free_labels(&labels);
  tbk_page_list_free(&list);
  tbk_features_free(fx);
  tbk_units_free(ux);
  tbk_predictor_free(pred);
  tbk_model_free(model);
  cli_out_commit(&out);
  if (words_path) cli_out_commit(&words);
  if (meta_path) cli_out_commit(&meta);
  int code = cli_pages_exit(&pages);
  if (code == TBK_EXIT_OK && (bad_label_lines || mismatched || missing)) code = TBK_EXIT_PARTIAL;
  return cli_exit(code);
}
