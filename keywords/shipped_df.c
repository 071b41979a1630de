/* The background table tbk-keywords uses when no --df is given. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "usage.h"

/* keywords.df beside the model: the shipped one sits beside the shipped
 * model (installed, or copied into the build tree), and a user's model
 * directory may hold its own. */
const char *kw_shipped_df(const char *model_path) {
  static char path[PATH_MAX];
  const char *slash = strrchr(model_path, '/');
  int dir = slash ? (int)(slash - model_path) : 1;
  const char *base = slash ? model_path : ".";
  int n = snprintf(path, sizeof path, "%.*s/keywords.df", dir, base);
  return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0 ? path : NULL;
}
