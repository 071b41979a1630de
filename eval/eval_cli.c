/* Helpers the tbk-eval subcommands share. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "eval_cli.h"

int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (!s) cli_die(TBK_EXIT_FAIL, "out of memory");
  snprintf(s, n, "%s/%s", a, b);
  return s;
}

/* The prediction of a page in DIR: the tbk-predict layout
 * (DIR/pages/<site>/<id>.txt for a manifest row "pages/<site>/<id>.html"),
 * else the bench/peers layout, which drops the leading "pages/". NULL when
 * neither exists. */
char *find_prediction(const char *dir, const char *page) {
  char *p = cli_output_name(dir, page, ".txt");
  if (file_exists(p)) return p;
  free(p);
  if (strncmp(page, "pages/", 6) == 0) {
    p = cli_output_name(dir, page + 6, ".txt");
    if (file_exists(p)) return p;
    free(p);
  }
  return NULL;
}

int json_num(tbk_buf *b, double v) {
  return isnan(v) || isinf(v) ? tbk_buf_puts(b, "null") : tbk_buf_printf(b, "%.4f", v);
}

/* Files written but not yet renamed into place (see publish_files). */
static cli_out **pending;
static size_t npending;

void write_file(const char *path, const tbk_buf *b) {
  cli_out **grown = realloc(pending, (npending + 1) * sizeof *pending);
  cli_out *o = malloc(sizeof *o);
  if (!grown || !o) cli_die(TBK_EXIT_FAIL, "out of memory");
  pending = grown;
  cli_out_open(o, path);
  if (b->len && fwrite(b->data, 1, b->len, o->f) != b->len) cli_die(TBK_EXIT_WRITE, "%s: cannot write", path);
  cli_out_finish(o);
  pending[npending++] = o;
}

int publish_files(int code) {
  for (size_t i = 0; i < npending; i++) {
    cli_out_settle(pending[i], code);
    free(pending[i]);
  }
  free(pending);
  pending = NULL;
  npending = 0;
  return code;
}

const char *fmt4(char *buf, double v) {
  if (isnan(v)) return "-";
  tbk_snprintf(buf, 32, "%.4f", v);
  return buf;
}
