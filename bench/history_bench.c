/* The site-history store at scale (docs/experiments/benchmarks-parse.md "#35: site history, cost"):
 *
 *   tbk-bench-history DB PAGES [SITES] [FPS_PER_PAGE]
 *
 * builds a store of PAGES synthetic pages spread over SITES sites
 * (default 1000) in the order a crawl interleaves them, each page with
 * FPS_PER_PAGE block fingerprints (default 65: the distinct blocks of a page of the gold sets,
 * their mean), a third of them the site's template (drawn
 * from 100 per site, with optional ones), the rest unique; then reads the
 * counts of 10,000 further pages without writing (the decide pass of two).
 * Prints pages/s of each pass (wall clock) and the store's size.
 * The fingerprints are what tbk-predict --history reads and writes: what
 * is measured is the store, without the page parsing around it. */
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "tbk_internal.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Page i's fingerprints: template ones of its site, then unique ones. */
static void page_fps(uint64_t i, uint64_t site, size_t n, uint64_t *fp) {
  uint64_t s = (i + 1) * 0x9E3779B97F4A7C15ULL;
  size_t tmpl = n / 3;
  for (size_t k = 0; k < n; k++) {
    uint64_t v = k < tmpl ? (site << 20) | (rng(&s) % 100) : (1ULL << 62) | (i << 8) | k;
    fp[k] = v >> 1;
  }
}

static long arg(const char *s, long lo, long hi, const char *what) {
  char *e;
  long v = strtol(s, &e, 10);
  if (*e || e == s || v < lo || v > hi) {
    fprintf(stderr, "tbk-bench-history: bad %s: %s\n", what, s);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 5) {
    fprintf(stderr, "usage: tbk-bench-history DB PAGES [SITES] [FPS_PER_PAGE]\n");
    return 2;
  }
  const char *path = argv[1];
  long pages = arg(argv[2], 1, 100000000, "PAGES");
  long sites = argc > 3 ? arg(argv[3], 1, 10000000, "SITES") : 1000;
  size_t nfp = argc > 4 ? (size_t)arg(argv[4], 1, 100000, "FPS_PER_PAGE") : 65;
  uint64_t *fp = malloc(nfp * sizeof *fp);
  uint32_t *df = malloc(nfp * sizeof *df);
  if (!fp || !df) return 1;
  tbk_history_options o = tbk_history_options_default;
  o.identity = "bench";
  tbk_history *h;
  tbk_error err = {0};
  if (tbk_history_open(path, &o, &h, &err)) {
    fprintf(stderr, "tbk-bench-history: %s: %s\n", path, err.msg);
    return 1;
  }
  char site[32], key[32];
  double t0 = now();
  for (long i = 0; i < pages; i++) {
    uint64_t s = (uint64_t)(i % sites); /* a crawl interleaves its sites */
    snprintf(site, sizeof site, "site%llu.example", (unsigned long long)s);
    snprintf(key, sizeof key, "p%ld", i);
    page_fps((uint64_t)i, s, nfp, fp);
    if (tbk_history_begin(h, site, key, &err) || tbk_history_lookup(h, fp, nfp, df, &err) ||
        tbk_history_add(h, fp, nfp, &err)) {
      fprintf(stderr, "tbk-bench-history: page %ld: %s\n", i, err.msg);
      return 1;
    }
    if ((i + 1) % 100000 == 0)
      fprintf(stderr, "tbk-bench-history: %ld pages, %.0f pages/s\n", i + 1, (double)(i + 1) / (now() - t0));
  }
  if (tbk_history_commit(h, &err)) {
    fprintf(stderr, "tbk-bench-history: %s\n", err.msg);
    return 1;
  }
  double build = now() - t0;
  uint64_t ns, np, nf;
  if (tbk_history_totals(h, &ns, &np, &nf, &err)) return 1;
  tbk_history_close(h, &err);
  struct stat st;
  long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
  /* the decide pass of a two-pass run: counts read, nothing written */
  o.read_only = 1;
  if (tbk_history_open(path, &o, &h, &err)) return 1;
  long q = pages < 10000 ? pages : 10000;
  t0 = now();
  for (long k = 0; k < q; k++) {
    long i = (long)((uint64_t)k * 2654435761u % (uint64_t)pages);
    uint64_t s = (uint64_t)(i % sites);
    snprintf(site, sizeof site, "site%llu.example", (unsigned long long)s);
    snprintf(key, sizeof key, "p%ld", i);
    page_fps((uint64_t)i, s, nfp, fp);
    if (tbk_history_begin(h, site, key, &err) || tbk_history_lookup(h, fp, nfp, df, &err)) return 1;
  }
  double read = now() - t0;
  tbk_history_free(h);
  printf("pages\t%ld\nsites\t%llu\nfingerprints per page\t%zu\nstored pages\t%llu\nstored fingerprints\t%llu\n"
         "build s\t%.1f\nbuild pages/s\t%.0f\nstore bytes\t%lld\nbytes per page\t%.0f\nread pages/s\t%.0f\n",
         pages, (unsigned long long)ns, nfp, (unsigned long long)np, (unsigned long long)nf, build,
         (double)pages / build, bytes, (double)bytes / (double)pages, (double)q / read);
  free(fp);
  free(df);
  return 0;
}
