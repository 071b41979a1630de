/* tbk-eval's subcommands (one file each) and the helpers they share. */
#ifndef TBK_EVAL_CLI_H
#define TBK_EVAL_CLI_H
#include "tbk.h"

int cmd_cv(int argc, char **argv);
int cmd_gold(int argc, char **argv);
int cmd_snippets(int argc, char **argv);
int cmd_chunks(int argc, char **argv);
int cmd_keywords(int argc, char **argv);
int cmd_cluster(int argc, char **argv);
int cmd_nodes(int argc, char **argv);

/* 1 when path is a regular file. */
int file_exists(const char *path);
/* "a/b", newly allocated (dies on out of memory). */
char *join(const char *a, const char *b);
/* The prediction of a page in DIR: the tbk-predict layout
 * (DIR/pages/<site>/<id>.txt for a manifest row "pages/<site>/<id>.html"),
 * else the bench/peers layout, which drops the leading "pages/". NULL when
 * neither exists. Caller frees. */
char *find_prediction(const char *dir, const char *page);
/* Append a number for JSON: null for NaN and infinities; 0 ok, -1 nomem. */
int json_num(tbk_buf *b, double v) __attribute__((warn_unused_result));
/* Write b to a temporary file for path (dies on failure); publish_files
 * renames it into place, so a run with several outputs leaves none of
 * them when one fails. */
void write_file(const char *path, const tbk_buf *b);
/* Call with the run's exit code once everything is written (stdout
 * included, see cli_exit): renames the files of write_file into place, or
 * removes them when code is TBK_EXIT_WRITE. Returns code. */
int publish_files(int code);
/* "%.4f", or "-" for NaN; buf holds 32 bytes. */
const char *fmt4(char *buf, double v);
#endif
