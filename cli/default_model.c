/* Where a program finds the shipped model when neither -m nor $TBK_MODEL
 * names one. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Relative to this program's directory first, so a moved installation and
 * the build tree (which keeps a copy at the same relative place) find
 * theirs; no build path is compiled in. */
const char *cli_model_path(const char *given) {
  if (given) return given;
  const char *env = getenv("TBK_MODEL");
  if (env && *env) return env;
  static char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path);
  char *slash = NULL;
  if (n > 0 && (size_t)n < sizeof path) {
    path[n] = '\0';
    slash = strrchr(path, '/');
  }
  size_t rel = strlen(TBK_MODEL_FROM_BIN);
  if (slash && (size_t)(slash + 1 - path) + rel < sizeof path) {
    memcpy(slash + 1, TBK_MODEL_FROM_BIN, rel + 1);
    if (access(path, R_OK) == 0) return path;
  }
  return TBK_INSTALLED_MODEL;
}
