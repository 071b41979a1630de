/* A plain main() for the fuzz targets: feeds every file named on the command
 * line, and every file of every directory named (sorted, not recursive), to
 * LLVMFuzzerTestOneInput once. This lets gcc + ASan builds run the seed and
 * regression corpora as ordinary ctest tests, without libFuzzer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return -1;
  }
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      uint8_t *b = realloc(buf, cap *= 2);
      if (!b) free(buf);
      buf = b;
    }
  }
  int bad = !buf || ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "%s: cannot read\n", path);
    free(buf);
    return -1;
  }
  /* An exact-size copy, so ASan sees any read past the input's end. */
  uint8_t *exact = malloc(n ? n : 1);
  if (!exact) {
    free(buf);
    return -1;
  }
  memcpy(exact, buf, n);
  free(buf);
  LLVMFuzzerTestOneInput(exact, n);
  free(exact);
  return 0;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_dir(const char *dir, size_t *count) {
  DIR *d = opendir(dir);
  if (!d) {
    perror(dir);
    return -1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      char **p = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *p);
      if (!p) break;
      names = p;
    }
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_names);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(dir) + strlen(names[i]) + 2;
    char *path = malloc(len);
    snprintf(path, len, "%s/%s", dir, names[i]);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      if (run_file(path)) rc = -1;
      else ++*count;
    }
    free(path);
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
    return 2;
  }
  size_t count = 0;
  int rc = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      rc = 1;
    } else if (S_ISDIR(st.st_mode)) {
      if (run_dir(argv[i], &count)) rc = 1;
    } else if (run_file(argv[i])) {
      rc = 1;
    } else {
      count++;
    }
  }
  fprintf(stderr, "%s: %zu inputs replayed\n", argv[0], count);
  if (count == 0) {
    fprintf(stderr, "%s: no inputs found\n", argv[0]);
    return 1;
  }
  return rc;
}
