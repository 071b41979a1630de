/* tbk-bench: throughput and memory of each page-reading stage, measured
 * against the bare libxml2 parse the stages are built on.
 *
 * Every page is read into memory before any clock starts, so disk and
 * page-cache effects stay out of the numbers. Each selected mode runs R
 * times, interleaved with the others (baseline, label, ... , baseline,
 * label, ...) so a burst of load from elsewhere hits all modes alike; the
 * best (smallest) time of each mode is reported, as is customary for
 * throughput on a shared machine. One thread, one page at a time. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tbk_internal.h"

enum mode { M_BASELINE, M_LABEL, M_FEATURES, M_PREDICT, M_COMBINED, M_COUNT };
static const char *const mode_names[M_COUNT] = {"baseline", "label", "features", "predict", "combined"};

typedef struct page_mem {
  char *data; /* owned: the raw bytes */
  size_t len;
  const tbk_page_ref *ref; /* borrowed from the page list */
} page_mem;

typedef struct mode_result {
  int selected, available;
  char why[600];     /* when not available */
  double best;       /* wall seconds, best repetition */
  double best_cpu;   /* process CPU seconds, best repetition */
  double *page_best; /* owned: per page, best over repetitions */
  size_t failures;   /* pages the stage refused (same every run) */
  double check;      /* a sum over the work done, printed so a run
                                that silently did nothing shows */
} mode_result;

static const char *prog = "tbk-bench";

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: error: ", prog);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time is the steadier figure when other work shares the machine:
 * time spent waiting for a core does not count. */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long max_rss_kb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss; /* kilobytes on Linux */
}

static void warn_input(void *ctx, const char *file, const char *msg) {
  (void)ctx;
  fprintf(stderr, "%s: warning: %s: %s (skipped)\n", prog, file, msg);
}

/* The labelled JSON Lines are produced in full and then dropped: the cost
 * of formatting them belongs to tbk-label, the cost of writing them out
 * does not. */
static int null_write(void *ctx, const char *data, size_t n) {
  (void)data;
  *(size_t *)ctx += n;
  return 0;
}

static tbk_page_options options_for(const tbk_page_options *base, const page_mem *pm) {
  tbk_page_options o = *base;
  if (pm->ref->charset && *pm->ref->charset) o.charset_hint = pm->ref->charset;
  return o;
}

/* ------------------------------------------------------------ the modes */

typedef struct bench_ctx {
  page_mem *pages;
  size_t n;
  tbk_page_options popt;       /* segmentation for label/features */
  tbk_page_options model_popt; /* segmentation the model was trained with */
  tbk_label_options lopt;
  tbk_features *fx;    /* owned */
  tbk_model *model;    /* owned */
  tbk_predictor *pred; /* owned */
} bench_ctx;

/* One pass of a mode over all pages; per-page seconds into t. Returns the
 * total seconds. Never inlined, so a profiler can collect exactly one mode
 * (valgrind --tool=callgrind --collect-atstart=no --toggle-collect=run_label). */
#define MODE_FN __attribute__((noinline)) static double
MODE_FN run_baseline(bench_ctx *c, double *t, mode_result *r) {
  double total = 0, check = 0;
  size_t fail = 0;
  for (size_t i = 0; i < c->n; i++) {
    tbk_page_options o = options_for(&c->popt, &c->pages[i]);
    size_t nodes = 0;
    tbk_error err;
    double t0 = now();
    tbk_status st = tbk_bench_parse_walk(c->pages[i].data, c->pages[i].len, &o, &nodes, &err);
    double dt = now() - t0;
    if (st == TBK_ERR_NOMEM) die("out of memory");
    fail += st != TBK_OK;
    t[i] = dt;
    total += dt;
    check += (double)nodes;
  }
  r->failures = fail;
  r->check = check;
  return total;
}

MODE_FN run_label(bench_ctx *c, double *t, mode_result *r) {
  double total = 0, check = 0;
  size_t fail = 0;
  for (size_t i = 0; i < c->n;) {
    size_t j = i;
    while (j < c->n && strcmp(c->pages[j].ref->site, c->pages[i].ref->site) == 0) j++;
    tbk_error err;
    tbk_labeler *lab;
    double t0 = now();
    if (tbk_labeler_new(c->pages[i].ref->site, &c->lopt, &lab, &err)) die("labeler: %s", err.msg);
    double site_overhead = now() - t0;
    for (size_t k = i; k < j; k++) {
      tbk_page_options o = options_for(&c->popt, &c->pages[k]);
      tbk_page *page;
      double p0 = now();
      tbk_status st = tbk_page_parse(c->pages[k].data, c->pages[k].len, &o, &page, &err);
      if (st == TBK_OK) {
        if (tbk_labeler_add_page(lab, c->pages[k].ref, page, &err)) die("labeler: %s", err.msg);
        tbk_page_free(page);
      } else if (st == TBK_ERR_NOMEM) {
        die("out of memory");
      }
      double dt = now() - p0;
      fail += st != TBK_OK;
      t[k] = dt;
      total += dt;
    }
    /* Pass 2 works on the whole site, so it has no per-page time: it is
     * spread evenly over the site's pages for the latency figures. */
    size_t out_bytes = 0;
    tbk_site_stats s;
    double f0 = now();
    if (tbk_labeler_finish(lab, null_write, &out_bytes, &s, &err)) die("labeler: %s", err.msg);
    tbk_labeler_free(lab);
    double site_time = site_overhead + (now() - f0);
    for (size_t k = i; k < j; k++) t[k] += site_time / (double)(j - i);
    total += site_time;
    check += (double)out_bytes;
    i = j;
  }
  r->failures = fail;
  r->check = check;
  return total;
}

MODE_FN run_features(bench_ctx *c, double *t, mode_result *r) {
  double total = 0, check = 0;
  size_t fail = 0;
  size_t dim = tbk_features_dim(c->fx);
  for (size_t i = 0; i < c->n; i++) {
    tbk_page_options o = options_for(&c->popt, &c->pages[i]);
    tbk_page *page;
    tbk_error err;
    double t0 = now();
    tbk_status st = tbk_page_parse(c->pages[i].data, c->pages[i].len, &o, &page, &err);
    if (st == TBK_OK) {
      st = tbk_features_page(c->fx, page, &err);
      tbk_page_free(page);
    }
    double dt = now() - t0;
    if (st == TBK_ERR_NOMEM) die("out of memory");
    fail += st != TBK_OK;
    if (st == TBK_OK && tbk_features_blocks(c->fx) && dim) check += tbk_features_values(c->fx, 0)[0];
    t[i] = dt;
    total += dt;
  }
  r->failures = fail;
  r->check = check;
  return total;
}

MODE_FN run_predict(bench_ctx *c, double *t, mode_result *r) {
  double total = 0, check = 0;
  size_t fail = 0;
  for (size_t i = 0; i < c->n; i++) {
    tbk_page_options o = options_for(&c->model_popt, &c->pages[i]);
    tbk_page *page;
    tbk_error err;
    double t0 = now();
    tbk_status st = tbk_page_parse(c->pages[i].data, c->pages[i].len, &o, &page, &err);
    size_t nb = 0;
    const double *probs = NULL;
    if (st == TBK_OK) {
      st = tbk_predict_page(c->pred, page, &probs, &err);
      nb = tbk_page_block_count(page);
      for (size_t b = 0; st == TBK_OK && b < nb; b++) check += probs[b];
      tbk_page_free(page);
    }
    double dt = now() - t0;
    if (st == TBK_ERR_NOMEM) die("out of memory");
    fail += st != TBK_OK;
    t[i] = dt;
    total += dt;
  }
  r->failures = fail;
  r->check = check;
  return total;
}

/* What tbk-predict does by default with a two-stage model: both stages and
 * the page's text without its boilerplate. */
MODE_FN run_combined(bench_ctx *c, double *t, mode_result *r) {
  double total = 0, check = 0;
  size_t fail = 0;
  tbk_buf out = {0};
  unsigned char *keep = NULL;
  size_t cap = 0;
  tbk_content_options co;
  tbk_content_options_init(&co);
  for (size_t i = 0; i < c->n; i++) {
    tbk_page_options o = options_for(&c->model_popt, &c->pages[i]);
    tbk_page *page;
    tbk_error err;
    double t0 = now();
    tbk_status st = tbk_page_parse(c->pages[i].data, c->pages[i].len, &o, &page, &err);
    if (st == TBK_OK) {
      const double *bp, *up;
      st = tbk_predict_units(c->pred, page, &bp, &up, &err);
      const tbk_units *ux = tbk_predictor_units(c->pred);
      size_t nu = st == TBK_OK ? tbk_units_count(ux) : 0;
      if (nu > cap && !(keep = realloc(keep, cap = nu * 2))) die("out of memory");
      if (st == TBK_OK) {
        tbk_content_decide(page, ux, up, &co, keep);
        out.len = 0;
        st = tbk_render_units_text(page, ux, keep, &co, &out, NULL);
        check += (double)out.len;
      }
      tbk_page_free(page);
    }
    double dt = now() - t0;
    if (st == TBK_ERR_NOMEM) die("out of memory");
    fail += st != TBK_OK;
    t[i] = dt;
    total += dt;
  }
  free(keep);
  tbk_buf_free(&out);
  r->failures = fail;
  r->check = check;
  return total;
}

typedef double (*run_fn)(bench_ctx *, double *, mode_result *);
static const run_fn runners[M_COUNT] = {run_baseline, run_label, run_features, run_predict, run_combined};

/* ------------------------------------------------------------ reporting */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted values. */
static double percentile(const double *sorted, size_t n, double p) {
  if (!n) return NAN;
  size_t k = (size_t)ceil(p / 100.0 * (double)n);
  if (k < 1) k = 1;
  if (k > n) k = n;
  return sorted[k - 1];
}

static void usage(void) {
  printf("Usage: tbk-bench [OPTION]... INPUT...\n"
         "Time the page-reading stages of tbk on pages held in memory, against a\n"
         "baseline of charset decoding + libxml2 parsing + one bare DOM walk.\n"
         "INPUT is anything tbk-label reads: a manifest .tsv, a directory, a WARC.\n\n"
         "Options:\n"
         "      --mode LIST        comma-separated modes among baseline, label, features,\n"
         "                         predict, combined (both stages and the text, as\n"
         "                         tbk-predict does with a two-stage model), or all\n"
         "                         (default: all). The baseline always\n"
         "                         runs too, interleaved, for the ratio column; with\n"
         "                         --no-baseline it does not (for a clean peak RSS).\n"
         "      --no-baseline      do not run the baseline alongside other modes\n"
         "  -m, --model FILE       model for predict (predict is skipped without one)\n"
         "  -r, --repeat R         repetitions per mode; the best is kept (3)\n"
         "      --limit N          only the first N pages (after sorting)\n"
         "      --cpu N            pin the process to CPU N\n"
         "      --per-page FILE    write per-page best times (TSV) to FILE\n"
         "  -h, --help             show this help and exit\n\n"
         "Standard output gets one TSV row per mode, after a header row:\n"
         "mode pages failures mbytes best_s pages_per_s mb_per_s ratio cpu_s ratio_cpu\n"
         "p50_ms p99_ms max_ms loaded_rss_mb peak_rss_mb check status\n"
         "(MB = 10^6 bytes of raw input; ratio = throughput / baseline throughput, by\n"
         "wall time; ratio_cpu = the same by process CPU time; p50/p99/max = per-page\n"
         "wall time, each page's best over the repetitions; loaded_rss = peak RSS once\n"
         "the pages are in memory, peak_rss = at the end).\n");
}

int main(int argc, char **argv) {
  const char *model_path = NULL, *per_page_path = NULL;
  int repeat = 3, cpu = -1, no_baseline = 0;
  size_t limit = 0;
  mode_result res[M_COUNT];
  memset(res, 0, sizeof res);
  int any_mode = 0;
  enum { OPT_MODE = 1000, OPT_LIMIT, OPT_CPU, OPT_PER_PAGE, OPT_NO_BASELINE };
  static const struct option longopts[] = {{"mode", required_argument, 0, OPT_MODE},
                                           {"model", required_argument, 0, 'm'},
                                           {"repeat", required_argument, 0, 'r'},
                                           {"limit", required_argument, 0, OPT_LIMIT},
                                           {"cpu", required_argument, 0, OPT_CPU},
                                           {"per-page", required_argument, 0, OPT_PER_PAGE},
                                           {"no-baseline", no_argument, 0, OPT_NO_BASELINE},
                                           {"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  int ch;
  while ((ch = getopt_long(argc, argv, "m:r:h", longopts, NULL)) != -1) {
    switch (ch) {
    case OPT_MODE: {
      char *list = strdup(optarg), *save = NULL;
      if (!list) die("out of memory");
      for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int k = 0; k < M_COUNT; k++)
          if (strcmp(m, mode_names[k]) == 0 || strcmp(m, "all") == 0) res[k].selected = found = 1;
        if (!found) die("--mode: '%s' is not baseline, label, features, predict, combined or all", m);
      }
      free(list);
      any_mode = 1;
      break;
    }
    case 'm': model_path = optarg; break;
    case 'r': {
      char *end;
      long v = strtol(optarg, &end, 10);
      if (*end || v < 1 || v > 1000) die("--repeat: '%s' is not a number in 1..1000", optarg);
      repeat = (int)v;
      break;
    }
    case OPT_LIMIT: {
      char *end;
      unsigned long long v = strtoull(optarg, &end, 10);
      if (*end || !*optarg) die("--limit: '%s' is not a number", optarg);
      limit = (size_t)v;
      break;
    }
    case OPT_CPU: cpu = atoi(optarg); break;
    case OPT_PER_PAGE: per_page_path = optarg; break;
    case OPT_NO_BASELINE: no_baseline = 1; break;
    case 'h': usage(); return 0;
    default: fprintf(stderr, "Try '%s --help'.\n", prog); return 2;
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "%s: error: no input given\nTry '%s --help'.\n", prog, prog);
    return 2;
  }
  if (!any_mode)
    for (int k = 0; k < M_COUNT; k++) res[k].selected = 1;
  if (!no_baseline) res[M_BASELINE].selected = 1;
  if (cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set)) die("--cpu %d: %s", cpu, strerror(errno));
  }

  /* ---- load every page before any clock starts */
  tbk_input_options iopt;
  tbk_input_options_init(&iopt);
  tbk_page_list list = {0};
  tbk_error err;
  for (int a = optind; a < argc; a++)
    if (tbk_page_list_add(&list, argv[a], &iopt, warn_input, NULL, &err)) die("%s: %s", argv[a], err.msg);
  tbk_page_list_sort(&list);
  size_t n = limit && limit < list.n ? limit : list.n;
  if (!n) die("no pages in the input");
  page_mem *pages = calloc(n, sizeof *pages);
  if (!pages) die("out of memory");
  size_t total_bytes = 0, unreadable = 0, kept = 0;
  for (size_t i = 0; i < n; i++) {
    tbk_buf b = {0};
    if (tbk_page_ref_read(&list.refs[i], &iopt, &b, &err)) {
      fprintf(stderr, "%s: warning: %s: %s (skipped)\n", prog, list.refs[i].file, err.msg);
      unreadable++;
      tbk_buf_free(&b);
      continue;
    }
    pages[kept].data = b.data ? b.data : calloc(1, 1);
    pages[kept].len = b.len;
    pages[kept].ref = &list.refs[i];
    total_bytes += b.len;
    kept++;
  }
  n = kept;
  if (!n) die("no readable pages");

  bench_ctx c = {.pages = pages, .n = n};
  tbk_page_options_init(&c.popt);
  c.model_popt = c.popt;
  tbk_label_options_init(&c.lopt);
  /* Every site is labelled, however small, so label processes the same
   * pages as the baseline (tbk-label would skip sites under --min-pages). */
  c.lopt.min_pages = 1;

  if (res[M_FEATURES].selected) {
    tbk_feature_options fo;
    tbk_feature_options_init(&fo);
    if (tbk_features_new(&fo, &c.fx, &err))
      snprintf(res[M_FEATURES].why, sizeof res[M_FEATURES].why, "tbk_features_new: %s", err.msg);
    else res[M_FEATURES].available = 1;
  }
  /* combined shares predict's set-up (model, predictor), not its runs */
  if (res[M_PREDICT].selected || res[M_COMBINED].selected) {
    if (!model_path) {
      snprintf(res[M_PREDICT].why, sizeof res[M_PREDICT].why, "no model given (-m)");
    } else if (tbk_model_load(model_path, &c.model, &err)) {
      snprintf(res[M_PREDICT].why, sizeof res[M_PREDICT].why, "%s: %s", model_path, err.msg);
    } else if (tbk_predictor_new(c.model, &c.pred, &err)) {
      snprintf(res[M_PREDICT].why, sizeof res[M_PREDICT].why, "%s: %s", model_path, err.msg);
    } else {
      tbk_model_page_options(c.model, &c.model_popt);
      c.model_popt.fingerprints = 0; /* as tbk-predict */
      res[M_PREDICT].available = res[M_PREDICT].selected;
      if (res[M_COMBINED].selected && !tbk_predictor_units(c.pred))
        snprintf(res[M_COMBINED].why, sizeof res[M_COMBINED].why, "%s: no content stage", model_path);
      else res[M_COMBINED].available = res[M_COMBINED].selected;
    }
    if (res[M_COMBINED].selected && !res[M_COMBINED].available && !res[M_COMBINED].why[0])
      memcpy(res[M_COMBINED].why, res[M_PREDICT].why, sizeof res[M_COMBINED].why);
  }
  res[M_BASELINE].available = res[M_BASELINE].selected;
  res[M_LABEL].available = res[M_LABEL].selected;

  /* A stage that refuses every page is not implemented yet (or broken):
   * probe one page so the run says so instead of timing error paths. */
  if (res[M_FEATURES].available) {
    int ok = 0;
    for (size_t i = 0; i < n && !ok; i++) {
      tbk_page *page;
      tbk_page_options o = options_for(&c.popt, &pages[i]);
      if (tbk_page_parse(pages[i].data, pages[i].len, &o, &page, &err)) continue;
      tbk_status st = tbk_features_page(c.fx, page, &err);
      tbk_page_free(page);
      if (st == TBK_OK) ok = 1;
      else {
        snprintf(res[M_FEATURES].why, sizeof res[M_FEATURES].why, "tbk_features_page: %s", err.msg);
        break;
      }
    }
    if (!ok) res[M_FEATURES].available = 0;
  }

  long loaded_rss = max_rss_kb();
  double *t = malloc(n * sizeof *t);
  if (!t) die("out of memory");
  for (int k = 0; k < M_COUNT; k++) {
    res[k].best = res[k].best_cpu = INFINITY;
    if (res[k].available && !(res[k].page_best = malloc(n * sizeof(double)))) die("out of memory");
    for (size_t i = 0; res[k].available && i < n; i++) res[k].page_best[i] = INFINITY;
  }
  fprintf(stderr, "%s: %zu pages, %.1f MB in memory (%zu unreadable); %d repetitions\n", prog, n,
          (double)total_bytes / 1e6, unreadable, repeat);
  for (int rep = 0; rep < repeat; rep++) {
    for (int k = 0; k < M_COUNT; k++) {
      if (!res[k].available) continue;
      double c0 = cpu_now();
      double sec = runners[k](&c, t, &res[k]);
      double cpu = cpu_now() - c0;
      if (sec < res[k].best) res[k].best = sec;
      if (cpu < res[k].best_cpu) res[k].best_cpu = cpu;
      for (size_t i = 0; i < n; i++)
        if (t[i] < res[k].page_best[i]) res[k].page_best[i] = t[i];
      fprintf(stderr, "%s: run %d %-8s %8.3f s (cpu %8.3f s) %8.1f pages/s\n", prog, rep + 1, mode_names[k], sec, cpu,
              (double)n / sec);
    }
  }
  long peak_rss = max_rss_kb();

  printf("mode\tpages\tfailures\tmbytes\tbest_s\tpages_per_s\tmb_per_s\tratio\tcpu_s\tratio_cpu\tp50_ms\tp99_ms\t"
         "max_ms\tloaded_rss_mb\tpeak_rss_mb\tcheck\tstatus\n");
  double base_tp = res[M_BASELINE].available ? (double)n / res[M_BASELINE].best : NAN;
  double base_cpu = res[M_BASELINE].available ? res[M_BASELINE].best_cpu : NAN;
  double mb = (double)total_bytes / 1e6;
  for (int k = 0; k < M_COUNT; k++) {
    if (!res[k].selected) continue;
    if (!res[k].available) {
      printf("%s\t%zu\t-\t%.3f\t-\t-\t-\t-\t-\t-\t-\t-\t-\t%.1f\t%.1f\t-\tskipped: %s\n", mode_names[k], n, mb,
             loaded_rss / 1024.0, peak_rss / 1024.0, res[k].why);
      continue;
    }
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted) die("out of memory");
    memcpy(sorted, res[k].page_best, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    double tp = (double)n / res[k].best;
    printf("%s\t%zu\t%zu\t%.3f\t%.4f\t%.1f\t%.2f\t%.3f\t%.4f\t%.3f\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\t%.6g\tok\n",
           mode_names[k], n, res[k].failures, mb, res[k].best, tp, mb / res[k].best,
           isnan(base_tp) ? NAN : tp / base_tp, res[k].best_cpu, base_cpu / res[k].best_cpu,
           percentile(sorted, n, 50) * 1e3, percentile(sorted, n, 99) * 1e3, sorted[n - 1] * 1e3, loaded_rss / 1024.0,
           peak_rss / 1024.0, res[k].check);
    free(sorted);
  }
  if (per_page_path) {
    FILE *f = fopen(per_page_path, "w");
    if (!f) die("%s: %s", per_page_path, strerror(errno));
    fprintf(f, "site\tpage\tbytes");
    for (int k = 0; k < M_COUNT; k++)
      if (res[k].available) fprintf(f, "\t%s_ms", mode_names[k]);
    fputc('\n', f);
    for (size_t i = 0; i < n; i++) {
      fprintf(f, "%s\t%s\t%zu", pages[i].ref->site, pages[i].ref->page, pages[i].len);
      for (int k = 0; k < M_COUNT; k++)
        if (res[k].available) fprintf(f, "\t%.4f", res[k].page_best[i] * 1e3);
      fputc('\n', f);
    }
    if (fclose(f)) die("%s: cannot write", per_page_path);
  }

  for (int k = 0; k < M_COUNT; k++) free(res[k].page_best);
  free(t);
  for (size_t i = 0; i < n; i++) free(pages[i].data);
  free(pages);
  tbk_predictor_free(c.pred);
  tbk_model_free(c.model);
  tbk_features_free(c.fx);
  tbk_page_list_free(&list);
  if (fflush(stdout) || ferror(stdout)) die("cannot write standard output");
  return 0;
}
