/* O_TMPFILE (unnamed output files) is a GNU/Linux extension. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tbk_page.h"

static const char *prog_name = "tbk";
static cli_out *open_outs[16]; /* removed on cli_die, so no half file stays */

void cli_init(const char *prog) { prog_name = prog; }

/* The staging directory a signal must not leave behind: its descriptor and
 * path, set before the handlers can run. */
static volatile sig_atomic_t guard_fd = -1;
static char guard_path[4096];

/* Empties the directory open as fd, its subdirectories too (up to depth
 * levels down), with async-signal-safe calls only (getdents64, openat,
 * unlinkat). */
static void empty_dir_at(int fd, int depth) {
#ifdef SYS_getdents64
  struct entry {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
  };
  _Alignas(8) char buf[2048];
  int removed = 1;
  while (removed && lseek(fd, 0, SEEK_SET) == 0) {
    long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
    removed = 0;
    for (long off = 0; off < n;) {
      const struct entry *e = (const struct entry *)(void *)(buf + off);
      off += e->reclen;
      if (!strcmp(e->name, ".") || !strcmp(e->name, "..")) continue;
      if (unlinkat(fd, e->name, 0) == 0) {
        removed = 1;
        continue;
      }
      int sub = depth > 0 ? openat(fd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
      if (sub < 0) continue;
      empty_dir_at(sub, depth - 1);
      close(sub);
      if (unlinkat(fd, e->name, AT_REMOVEDIR) == 0) removed = 1;
    }
  }
#else
  (void)fd;
  (void)depth;
#endif
}

/* Empties and removes the guarded directory, then dies of the signal as
 * before. */
static void guard_on_signal(int sig) {
  int fd = guard_fd;
  if (fd >= 0) {
    empty_dir_at(fd, 64);
    rmdir(guard_path);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void cli_guard_dir(const char *dir) {
  int old = guard_fd;
  guard_fd = -1;
  if (old >= 0) close(old);
  if (!dir || strlen(dir) >= sizeof guard_path) return;
  snprintf(guard_path, sizeof guard_path, "%s", dir);
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = guard_on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  guard_fd = fd;
}
void cli_signals_hold(sigset_t *old) {
  sigset_t hold;
  sigemptyset(&hold);
  sigaddset(&hold, SIGINT);
  sigaddset(&hold, SIGTERM);
  sigaddset(&hold, SIGHUP);
  sigprocmask(SIG_BLOCK, &hold, old);
}

void cli_signals_release(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

void cli_mkdtemp_guarded(char *tmpl, const char *target) {
  /* The guarded signals are held from before the directory exists until
   * its guard is set: one arriving in between would leave it behind (the
   * atexit handlers do not run on a signal). */
  sigset_t old;
  cli_signals_hold(&old);
  if (!mkdtemp(tmpl)) cli_die(TBK_EXIT_WRITE, "%s: cannot create directory: %s", target, strerror(errno));
  mode_t um = umask(0); /* mkdtemp makes it 0700; the target gets the usual mode */
  umask(um);
  if (chmod(tmpl, 0777 & ~um)) {
    int e = errno;
    rmdir(tmpl);
    cli_die(TBK_EXIT_WRITE, "%s: cannot set mode: %s", tmpl, strerror(e));
  }
  cli_guard_dir(tmpl);
  cli_signals_release(&old);
}

const char *cli_prog(void) { return prog_name; }

static void vmsg(const char *kind, const char *fmt, va_list ap) {
  cli_progress_clear();
  fprintf(stderr, "%s: %s: ", prog_name, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("error", fmt, ap);
  va_end(ap);
}

void cli_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("warning", fmt, ap);
  va_end(ap);
}

static void abort_all_outs(void) {
  for (size_t i = 0; i < sizeof open_outs / sizeof open_outs[0]; i++)
    if (open_outs[i]) cli_out_abort(open_outs[i]);
}

void cli_mem(int r) {
  if (r) cli_die(TBK_EXIT_FAIL, "out of memory");
}

void cli_die(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("error", fmt, ap);
  va_end(ap);
  abort_all_outs();
  fflush(stdout);
  exit(code);
}

void cli_usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("error", fmt, ap);
  va_end(ap);
  fprintf(stderr, "Try '%s --help' for more information.\n", prog_name);
  abort_all_outs();
  exit(TBK_EXIT_USAGE);
}

void cli_bad_option(int c, char **argv) {
  if (c == ':') cli_usage_error("option '%s' needs an argument", argv[optind - 1]);
  if (optopt > 0 && optopt < 128) cli_usage_error("invalid option '-%c'", optopt);
  cli_usage_error("invalid option '%s'", argv[optind - 1]);
}

long cli_long(const char *opt, const char *s, long lo, long hi) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi)
    cli_usage_error("%s: '%s' is not an integer in [%ld, %ld]", opt, s, lo, hi);
  return v;
}

size_t cli_size(const char *opt, const char *s) {
  char *end;
  errno = 0;
  if (*s == '-') cli_usage_error("%s: '%s' must not be negative", opt, s);
  unsigned long long v = strtoull(s, &end, 10);
  unsigned long long mult = 1;
  if (*end == 'K' || *end == 'k') mult = 1ULL << 10;
  else if (*end == 'M' || *end == 'm') mult = 1ULL << 20;
  else if (*end == 'G' || *end == 'g') mult = 1ULL << 30;
  if (mult != 1) end++;
  if (errno || end == s || *end || v > SIZE_MAX / mult)
    cli_usage_error("%s: '%s' is not a size (a number, optionally with K, M or G)", opt, s);
  return (size_t)(v * mult);
}

double cli_double(const char *opt, const char *s, double lo, double hi) {
  char *end;
  errno = 0;
  double v = tbk_strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi)
    cli_usage_error("%s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
  return v;
}

int cli_choice(const char *opt, const char *arg, const char *const *names, const char *expected) {
  for (int i = 0; names[i]; i++)
    if (strcmp(arg, names[i]) == 0) return i;
  cli_usage_error("%s: '%s' is not %s", opt, arg, expected);
}

/* An unnamed file in the target's directory (Linux O_TMPFILE): a run killed
 * by SIGKILL leaves nothing behind, where a named temporary file would stay.
 * -1 where the file system or kernel cannot, or /proc (needed to give the
 * file a name at commit) is missing: the caller falls back to mkstemp. */
static int open_anonymous(const char *path) {
#ifdef O_TMPFILE
  if (access("/proc/self/fd", X_OK) != 0) return -1;
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  if (!dir) return -1;
  int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  free(dir);
  return fd;
#else
  (void)path;
  return -1;
#endif
}

/* Give the unnamed file o->f a fresh name from the o->tmp template. */
static int name_anonymous(cli_out *o) {
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(o->f));
  char *x = o->tmp + strlen(o->tmp) - 6;
  unsigned long r = (unsigned long)getpid() * 2654435761u ^ (unsigned long)time(NULL);
  for (int tries = 0; tries < 100; tries++) {
    for (int i = 0; i < 6; i++) {
      r = r * 6364136223846793005u + 1442695040888963407u;
      x[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[(r >> 33) % 36];
    }
    if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0) {
      o->anon = 0;
      return 0;
    }
    if (errno != EEXIST) return -1;
  }
  return -1;
}

/* ------------------------------------------------ staged directories */

/* The one staged directory of this run (cli_stage_open): removed at exit
 * unless published. */
static char *stage_tmp;

static void remove_tree(const char *path) {
  DIR *d = opendir(path);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    size_t n = strlen(path) + strlen(e->d_name) + 2;
    char *p = malloc(n);
    if (!p) break;
    snprintf(p, n, "%s/%s", path, e->d_name);
    struct stat sb;
    if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) remove_tree(p);
    else unlink(p);
    free(p);
  }
  if (d) closedir(d);
  rmdir(path);
}

static void stage_remove(void) {
  if (!stage_tmp) return;
  cli_guard_dir(NULL);
  remove_tree(stage_tmp);
  free(stage_tmp);
  stage_tmp = NULL;
}

void cli_stage_open(cli_stage *st, const char *dir) {
  if (stage_tmp) cli_die(TBK_EXIT_FAIL, "%s: one staged directory a run", dir);
  const char *slash = strrchr(dir, '/');
  if (slash && slash != dir) {
    char *parent = strndup(dir, (size_t)(slash - dir));
    if (!parent) cli_die(TBK_EXIT_FAIL, "out of memory");
    if (cli_mkdirs(parent)) cli_die(TBK_EXIT_WRITE, "%s: cannot create directory: %s", parent, strerror(errno));
    free(parent);
  }
  size_t n = strlen(dir) + 16;
  st->dir = strdup(dir);
  st->tmp = malloc(n);
  if (!st->dir || !st->tmp) cli_die(TBK_EXIT_FAIL, "out of memory");
  snprintf(st->tmp, n, "%s.tmp.XXXXXX", dir);
  static int registered;
  if (!registered++) atexit(stage_remove);
  cli_mkdtemp_guarded(st->tmp, dir);
  stage_tmp = strdup(st->tmp);
  if (!stage_tmp) cli_die(TBK_EXIT_FAIL, "out of memory");
}

char *cli_stage_name(const cli_stage *st, const char *name) {
  size_t dl = strlen(st->dir);
  if (strncmp(name, st->dir, dl) != 0 || name[dl] != '/')
    cli_die(TBK_EXIT_FAIL, "%s: not a name under %s", name, st->dir);
  size_t n = strlen(st->tmp) + strlen(name + dl) + 1;
  char *out = malloc(n);
  if (!out) cli_die(TBK_EXIT_FAIL, "out of memory");
  snprintf(out, n, "%s%s", st->tmp, name + dl);
  return out;
}

char **cli_stage_page_names(cli_stage *st, const char *dir, const tbk_page_list *l, const char *ext) {
  char **names = cli_output_names(dir, l, ext, 0);
  cli_stage_open(st, dir);
  for (size_t k = 0; k < l->n; k++) {
    char *staged = cli_stage_name(st, names[k]);
    free(names[k]);
    names[k] = staged;
  }
  return names;
}

/* from (staged) into to: renamed when to is not there (or an empty
 * directory, or a file), merged entry by entry when both are directories. */
static void merge_into(const char *from, const char *to) {
  if (rename(from, to) == 0) return;
  int e = errno;
  struct stat sf, sto;
  if ((e != EEXIST && e != ENOTEMPTY) || lstat(from, &sf) || stat(to, &sto) || !S_ISDIR(sf.st_mode) ||
      !S_ISDIR(sto.st_mode))
    cli_die(TBK_EXIT_WRITE, "%s: cannot write output: %s", to, strerror(e));
  DIR *d = opendir(from);
  if (!d) cli_die(TBK_EXIT_WRITE, "%s: cannot read: %s", from, strerror(errno));
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    size_t nf = strlen(from) + strlen(de->d_name) + 2, nt = strlen(to) + strlen(de->d_name) + 2;
    char *f = malloc(nf), *t = malloc(nt);
    if (!f || !t) cli_die(TBK_EXIT_FAIL, "out of memory");
    snprintf(f, nf, "%s/%s", from, de->d_name);
    snprintf(t, nt, "%s/%s", to, de->d_name);
    merge_into(f, t);
    free(f);
    free(t);
  }
  closedir(d);
  rmdir(from);
}

/* The stage's names, once it is published or discarded. */
static void stage_forget(cli_stage *st) {
  free(st->dir);
  free(st->tmp);
  st->dir = st->tmp = NULL;
}

void cli_stage_publish(cli_stage *st) {
  sigset_t old;
  cli_signals_hold(&old); /* unguarded, the stage would outlive a kill */
  cli_guard_dir(NULL);    /* it is about to become DIR */
  merge_into(st->tmp, st->dir);
  stage_remove(); /* what a merge left: empty directories */
  cli_signals_release(&old);
  stage_forget(st);
}

void cli_stage_discard(cli_stage *st) {
  stage_remove();
  stage_forget(st);
}

/* ------------------------------------------------ outputs vs inputs */

/* The regular files this run reads, by device and inode: an output is
 * compared with them, so no spelling of an input (./x, a link, a/../x)
 * gets overwritten. Kept sorted on demand for bsearch. */
typedef struct file_id {
  dev_t dev;
  ino_t ino;
  const char *path; /* as first given (owned) */
} file_id;
static file_id *reads;
static size_t nreads, creads, sorted_reads;

static int id_cmp(const void *a, const void *b) {
  const file_id *x = a, *y = b;
  if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
  return x->ino < y->ino ? -1 : x->ino > y->ino;
}

void cli_reads_add(const char *path) {
  struct stat sb;
  if (!path || !*path || strcmp(path, "-") == 0 || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return;
  if (nreads && reads[nreads - 1].dev == sb.st_dev && reads[nreads - 1].ino == sb.st_ino) return;
  if (tbk_grow(&reads, &creads, nreads + 1, sizeof *reads)) cli_die(TBK_EXIT_FAIL, "out of memory");
  char *copy = strdup(path);
  if (!copy) cli_die(TBK_EXIT_FAIL, "out of memory");
  reads[nreads++] = (file_id){sb.st_dev, sb.st_ino, copy};
}

void cli_reads_argv(char **paths, int n) {
  for (int i = 0; i < n; i++) cli_reads_add(paths[i]);
}

/* The input that path is, or NULL. */
static const char *read_as(const char *path) {
  struct stat sb;
  if (nreads == 0 || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return NULL; /* bsearch wants a table */
  if (sorted_reads != nreads) {
    qsort(reads, nreads, sizeof *reads, id_cmp);
    sorted_reads = nreads;
  }
  file_id key = {sb.st_dev, sb.st_ino, NULL};
  const file_id *hit = bsearch(&key, reads, nreads, sizeof *reads, id_cmp);
  return hit ? hit->path : NULL;
}

void cli_output_check(const char *opt, const char *path) {
  if (!path) return;
  if (!*path) cli_usage_error("%s: an empty file name names no file (use - for standard output)", opt);
  if (strcmp(path, "-") == 0) return;
  const char *in = read_as(path);
  if (in && strcmp(in, path) == 0)
    cli_usage_error("%s: output is also an input of this run (it would be overwritten)", path);
  if (in) cli_usage_error("%s: output is the same file as the input %s (it would be overwritten)", path, in);
}

/* The same file as an output already open (device and inode; for a file
 * yet to be made, the same name in the same directory). */
static int same_target(const char *a, const char *b) {
  struct stat sa, sb;
  int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
  if (ea && eb) return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea || eb) return 0;
  const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');
  ba = ba ? ba + 1 : a;
  bb = bb ? bb + 1 : b;
  if (strcmp(ba, bb) != 0) return 0;
  char *da = ba > a ? strndup(a, (size_t)(ba - a)) : strdup("."),
       *db = bb > b ? strndup(b, (size_t)(bb - b)) : strdup(".");
  if (!da || !db) cli_die(TBK_EXIT_FAIL, "out of memory");
  int same = stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  free(da);
  free(db);
  return same;
}

void cli_out_open(cli_out *o, const char *path) {
  memset(o, 0, sizeof *o);
  if (!path || strcmp(path, "-") == 0) {
    o->f = stdout;
    return;
  }
  cli_output_check("the output", path);
  for (size_t i = 0; i < sizeof open_outs / sizeof open_outs[0]; i++)
    if (open_outs[i] && same_target(open_outs[i]->path, path))
      cli_usage_error("%s: named as two outputs of this run (%s)", path, open_outs[i]->path);
  struct stat sb;
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    /* A device or pipe (/dev/null, /dev/full, a FIFO): renaming a file over
     * it would replace the device, so write to it directly. */
    o->f = fopen(path, "w");
    if (!o->f) cli_die(TBK_EXIT_WRITE, "%s: cannot open output: %s", path, strerror(errno));
    o->path = strdup(path);
    if (!o->path) cli_die(TBK_EXIT_FAIL, "out of memory");
    return;
  }
  size_t n = strlen(path) + 16;
  o->path = strdup(path);
  o->tmp = malloc(n);
  if (!o->path || !o->tmp) cli_die(TBK_EXIT_FAIL, "out of memory");
  snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
  int fd = open_anonymous(path);
  if (fd >= 0) {
    o->anon = 1;
  } else {
    fd = mkstemp(o->tmp);
    if (fd < 0) cli_die(TBK_EXIT_WRITE, "%s: cannot create output: %s", path, strerror(errno));
    /* mkstemp makes the file 0600; the output should get the usual mode. */
    mode_t um = umask(0);
    umask(um);
    if (fchmod(fd, 0666 & ~um)) cli_die(TBK_EXIT_WRITE, "%s: cannot set mode: %s", o->tmp, strerror(errno));
  }
  o->f = fdopen(fd, "w");
  if (!o->f) cli_die(TBK_EXIT_WRITE, "%s: cannot create output: %s", path, strerror(errno));
  for (size_t i = 0; i < sizeof open_outs / sizeof open_outs[0]; i++)
    if (!open_outs[i]) {
      open_outs[i] = o;
      return;
    }
  /* An unregistered output would survive cli_die half written. */
  cli_die(TBK_EXIT_FAIL, "%s: more outputs than the %zu one run may hold", path,
          sizeof open_outs / sizeof open_outs[0]);
}

static void forget(cli_out *o) {
  for (size_t i = 0; i < sizeof open_outs / sizeof open_outs[0]; i++)
    if (open_outs[i] == o) open_outs[i] = NULL;
  free(o->path);
  free(o->tmp);
  o->path = o->tmp = NULL;
  o->f = NULL;
}

void cli_out_abort(cli_out *o) {
  if (!o->tmp) {
    if (o->f && o->f != stdout) fclose(o->f);
    o->f = NULL;
    free(o->path);
    o->path = NULL;
    return;
  }
  if (o->f) fclose(o->f);
  /* A finished file has its temporary name already (see cli_out_finish). */
  if (!o->anon) unlink(o->tmp);
  forget(o);
}

void cli_out_finish(cli_out *o) {
  if (!o->tmp) {
    FILE *f = o->f;
    if (!f) return;
    const char *name = o->path ? o->path : "standard output";
    int bad = fflush(f) || ferror(f);
    if (f != stdout && fclose(f)) bad = 1;
    o->f = NULL;
    if (bad) cli_die(TBK_EXIT_WRITE, "%s: cannot write output: %s", name, strerror(errno));
    return;
  }
  if (!o->f) return;
  int bad = fflush(o->f) || ferror(o->f) || fsync(fileno(o->f));
  int saved = errno;
  /* The unnamed file needs its descriptor to get a name: before fclose. */
  if (!bad && o->anon && name_anonymous(o)) {
    bad = 1;
    saved = errno;
  }
  if (fclose(o->f)) {
    bad = 1;
    saved = errno;
  }
  o->f = NULL;
  /* Still registered: cli_die removes this file with every other one. */
  if (bad) cli_die(TBK_EXIT_WRITE, "%s: cannot write output: %s", o->path, strerror(saved));
}

void cli_out_publish(cli_out *o) {
  if (o->tmp && rename(o->tmp, o->path)) {
    int saved = errno;
    if (!o->anon) unlink(o->tmp);
    char *path = o->path;
    o->path = NULL;
    forget(o);
    cli_die(TBK_EXIT_WRITE, "%s: cannot write output: %s", path, strerror(saved));
  }
  forget(o);
}

void cli_out_commit(cli_out *o) {
  cli_out_finish(o);
  cli_out_publish(o);
}

int cli_out_settle(cli_out *o, int code) {
  if (code == TBK_EXIT_WRITE) cli_out_abort(o);
  else cli_out_publish(o);
  return code;
}

void cli_out_commit_all(cli_out *const *outs, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (outs[i]) cli_out_finish(outs[i]);
  for (size_t i = 0; i < n; i++)
    if (outs[i]) cli_out_publish(outs[i]);
}

int cli_out_write(void *ctx, const char *data, size_t n) {
  cli_out *o = ctx;
  return fwrite(data, 1, n, o->f) != n;
}

int cli_out_put(void *ctx, const char *data, size_t n) {
  cli_out *o = ctx;
  if (cli_out_write(o, data, n)) cli_die(TBK_EXIT_WRITE, "%s: cannot write", o->path ? o->path : "standard output");
  return 0;
}

int cli_exit(int code) {
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "%s: error: cannot write to standard output: %s\n", prog_name, strerror(errno));
    return TBK_EXIT_WRITE;
  }
  return code;
}

int cli_version(void) {
  printf("%s %s\n", prog_name, tbk_version());
  return cli_exit(TBK_EXIT_OK);
}

/* ------------------------------------------------------------ pages */

#define SEGMENT_HELP                                                                       \
  "      --blocks SET          candidate block tags: paper (Kolcz & Yih's set, default)\n" \
  "                            or html5 (adds article aside footer header main nav\n"      \
  "                            section form p figure details fieldset address)\n"          \
  "      --min-chars N         a block needs >= N characters of text (40), counted\n"      \
  "                            as Latin-equivalent: one per code point, 3.7 per Han,\n"    \
  "                            Kana or fullwidth one (a Chinese word is 1.6 of them,\n"    \
  "                            an English one 5.9 characters with its space)\n"            \
  "      --min-words N         ... and >= N distinct words (3): runs of letters and\n"     \
  "                            digits between spaces and punctuation; Han and Kana\n"      \
  "                            letters in a row count as their overlapping bigrams,\n"     \
  "                            Thai, Lao, Khmer and Myanmar as their syllables\n"
#define INPUT_HELP                                                                        \
  "      --site-key KEY        WARC site grouping: domain (registered domain, default)\n" \
  "                            or host\n"                                                 \
  "      --max-page-bytes N    refuse larger pages (64M; K/M/G suffixes)\n"               \
  "      --max-record-bytes N  refuse larger decompressed WARC records (64M)\n"           \
  "      --max-depth N         refuse pages nested deeper (4096)\n"                       \
  "      --max-blocks N        refuse pages with more candidate blocks (100000)\n"        \
  "      --parser NAME         tbk (default: libxml2 2.9.14's HTML parser, the same\n"    \
  "                            tree with every libxml2) or libxml2 (the installed\n"      \
  "                            one's own: HTML5 from 2.14 on, other trees)\n"             \
  "      --strict              stop at the first bad page instead of skipping it\n"       \
  "      --status LIST         WARC: read HTML responses of these HTTP statuses:\n"       \
  "                            codes (200,404), or all (any); default 200. The\n"         \
  "                            others are skipped and counted\n"                          \
  "      --warc-summary        WARC: every record met, counted by outcome (read,\n"       \
  "                            skipped) and reason, as a table on stderr at the end\n" CLI_PROGRESS_HELP

const char cli_page_options_help[] = "Page options:\n" SEGMENT_HELP INPUT_HELP;
const char cli_input_options_help[] = "Page options:\n" INPUT_HELP;
#undef SEGMENT_HELP
#undef INPUT_HELP

void cli_pages_init(cli_pages *c) {
  memset(c, 0, sizeof *c);
  c->progress = CLI_PROGRESS_AUTO;
  tbk_page_options_init(&c->page);
  tbk_input_options_init(&c->input);
}

/* --status LIST: "all" or "any", or HTTP status codes separated by
 * commas; the list replaces the default (200). */
static void parse_status(tbk_input_options *in, const char *arg) {
  if (strcmp(arg, "all") == 0 || strcmp(arg, "any") == 0) {
    in->any_status = 1;
    return;
  }
  unsigned char set[sizeof in->status] = {0};
  const char *p = arg;
  for (;;) {
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (end == p || errno || v < 100 || v > 599 || (*end && *end != ',') || *p == '+' || *p == '-' || *p == ' ')
      cli_usage_error("--status: '%s' is not 'all' or a list of HTTP status codes (100 to 599, e.g. 200,404)", arg);
    set[v / 8] |= (unsigned char)(1u << (v % 8));
    if (!*end) break;
    p = end + 1;
  }
  memcpy(in->status, set, sizeof set);
  in->any_status = 0;
}

int cli_pages_option(cli_pages *c, int code, const char *arg) {
  switch (code) {
  case CLI_OPT_BLOCKS: {
    static const char *const names[] = {"paper", "html5", NULL};
    static const tbk_blockset sets[] = {TBK_BLOCKS_PAPER, TBK_BLOCKS_HTML5};
    c->page.blocks = sets[cli_choice("--blocks", arg, names, "'paper' or 'html5'")];
    return 1;
  }
  case CLI_OPT_MIN_CHARS: c->page.min_chars = (size_t)cli_long("--min-chars", arg, 0, 1000000); return 1;
  case CLI_OPT_MIN_WORDS: c->page.min_words = (size_t)cli_long("--min-words", arg, 0, 1000000); return 1;
  case CLI_OPT_SITE_KEY: {
    static const char *const names[] = {"domain", "host", NULL};
    static const tbk_site_key keys[] = {TBK_SITE_DOMAIN, TBK_SITE_HOST};
    c->input.site_key = keys[cli_choice("--site-key", arg, names, "'domain' or 'host'")];
    return 1;
  }
  case CLI_OPT_MAX_PAGE_BYTES: c->page.max_page_bytes = cli_size("--max-page-bytes", arg); return 1;
  case CLI_OPT_MAX_RECORD_BYTES: c->input.max_record_bytes = cli_size("--max-record-bytes", arg); return 1;
  case CLI_OPT_MAX_DEPTH: c->page.max_depth = (size_t)cli_long("--max-depth", arg, 1, 100000000); return 1;
  case CLI_OPT_MAX_BLOCKS: c->page.max_blocks = (size_t)cli_long("--max-blocks", arg, 1, 100000000); return 1;
  case CLI_OPT_PARSER: {
    static const char *const names[] = {"tbk", "libxml2", NULL};
    static const tbk_parser parsers[] = {TBK_PARSER_TBK, TBK_PARSER_LIBXML2};
    c->page.parser = parsers[cli_choice("--parser", arg, names, "'tbk' or 'libxml2'")];
    return 1;
  }
  case CLI_OPT_STRICT: c->strict = 1; return 1;
  case CLI_OPT_STATUS: parse_status(&c->input, arg); return 1;
  case CLI_OPT_WARC_SUMMARY: c->warc_summary = 1; return 1;
  case CLI_OPT_PROGRESS: c->progress = CLI_PROGRESS_ON; return 1;
  case CLI_OPT_NO_PROGRESS: c->progress = CLI_PROGRESS_OFF; return 1;
  }
  return 0;
}

void cli_warn_file(void *ctx, const char *file, const char *msg) {
  (void)ctx;
  cli_warn("%s: %s", file, msg);
}

/* A page listed twice (the same file or WARC record reached through two
 * inputs, two manifest rows or two spellings) would count twice in every
 * document frequency: the later copies (in list order) are dropped, warned
 * about with a count; fatal with --strict. */
typedef struct page_id {
  dev_t dev;
  ino_t ino;
  uint64_t offset, skip;
  size_t index;
} page_id;

static int page_id_cmp(const void *a, const void *b) {
  const page_id *x = a, *y = b;
  if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
  if (x->ino != y->ino) return x->ino < y->ino ? -1 : 1;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  if (x->skip != y->skip) return x->skip < y->skip ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static void drop_duplicates(cli_pages *c, tbk_page_list *l) {
  page_id *ids = malloc((l->n ? l->n : 1) * sizeof *ids);
  unsigned char *drop = calloc(l->n ? l->n : 1, 1);
  if (!ids || !drop) cli_die(TBK_EXIT_FAIL, "out of memory");
  size_t m = 0, dups = 0;
  struct stat sb;
  for (size_t i = 0; i < l->n; i++)
    if (!l->refs[i].is_temp && stat(l->refs[i].file, &sb) == 0 && S_ISREG(sb.st_mode))
      ids[m++] = (page_id){sb.st_dev, sb.st_ino, l->refs[i].offset, l->refs[i].skip, i};
  qsort(ids, m, sizeof *ids, page_id_cmp);
  for (size_t i = 1, first = 0; i < m; i++) {
    const page_id *a = &ids[i], *b = &ids[first];
    if (a->dev != b->dev || a->ino != b->ino || a->offset != b->offset || a->skip != b->skip) {
      first = i;
      continue;
    }
    const char *page = l->refs[a->index].page, *same = l->refs[b->index].page;
    if (c->strict) cli_die(TBK_EXIT_FAIL, "%s: the same page as %s, listed twice (--strict)", page, same);
    if (++dups <= 20) cli_warn("%s: the same page as %s, listed twice (read once)", page, same);
    drop[a->index] = 1;
    cli_pages_record_moved(c, &l->refs[a->index], TBK_WREC_LISTED_TWICE);
  }
  free(ids);
  if (dups) cli_warn("%zu pages listed more than once: the copies were dropped", dups);
  tbk_page_list_drop(l, drop);
  free(drop);
}

void cli_pages_list(cli_pages *c, char **inputs, int n, tbk_page_list *out) {
  memset(out, 0, sizeof *out);
  /* An input that cannot be listed (damaged, no HTML record, an ARC file,
   * unreadable) is fatal when it is the only one, or with --strict; among
   * several it is warned about and skipped, and the others are read. */
  int failed = 0;
  for (int i = 0; i < n; i++) {
    tbk_error err = {0};
    size_t before = out->skipped;
    tbk_status st = tbk_page_list_add(out, inputs[i], &c->input, cli_warn_file, NULL, &err);
    if (st != TBK_OK && (n == 1 || c->strict || st == TBK_ERR_NOMEM)) {
      /* Why a WARC held no page to read is what the table says. */
      if (c->warc_summary && out->has_counts && st != TBK_ERR_NOMEM) {
        tbk_warc_counts_add(&c->records, &out->counts);
        c->has_records = 1;
        cli_pages_records_summary(c);
      }
      cli_die(TBK_EXIT_FAIL, "%s: %s", inputs[i], err.msg);
    }
    if (st != TBK_OK) {
      cli_warn("%s: %s (input skipped)", inputs[i], err.msg);
      out->skipped++;
      failed++;
    }
    if (out->skipped > before && c->strict) cli_die(TBK_EXIT_FAIL, "%s: input skipped in part (--strict)", inputs[i]);
  }
  if (out->has_counts) {
    tbk_warc_counts_add(&c->records, &out->counts);
    c->has_records = 1;
  }
  if (failed == n) cli_die(TBK_EXIT_FAIL, "none of the %d inputs could be read", n);
  c->bad_pages += out->skipped;
  tbk_page_list_sort(out);
  drop_duplicates(c, out);
  cli_reads_argv(inputs, n);
  for (size_t i = 0; i < out->n; i++) {
    if (!out->refs[i].is_temp) cli_reads_add(out->refs[i].file);
    cli_reads_add(out->refs[i].gold);
  }
}

static const char *cli_page_where(const tbk_page_ref *ref);

/* 128 bits of the URL and the payload: FNV-1a and a multiply-xorshift hash,
 * for telling identical captures apart from different ones (not a defence
 * against forged collisions, which would only merge two pages' counts). */
static void capture_digest(uint64_t d[2], const char *url, const char *p, size_t n) {
  uint64_t a = 0xcbf29ce484222325ULL, b = 0x9e3779b97f4a7c15ULL;
  for (int part = 0; part < 2; part++) {
    const unsigned char *q = part ? (const unsigned char *)p : (const unsigned char *)url;
    size_t k = part ? n : (url ? strlen(url) + 1 : 0);
    for (size_t i = 0; q && i < k; i++) {
      a = (a ^ q[i]) * 0x100000001b3ULL;
      b = (b + q[i] + 1) * 0xff51afd7ed558ccdULL;
      b ^= b >> 29;
    }
  }
  d[0] = a | 1; /* never {0, 0}: that marks an empty slot */
  d[1] = b;
}

void cli_captures_free(cli_captures *s) {
  free(s->slots);
  memset(s, 0, sizeof *s);
}

/* Slots of 3 words: the digest ({0, 0}: empty) and the caller's value. */
static int captures_insert(cli_captures *s, const uint64_t d[2], uint64_t val, uint64_t *first) {
  if (2 * (s->n + 1) > s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    uint64_t *slots = calloc(cap, 3 * sizeof *slots);
    if (!slots) cli_die(TBK_EXIT_FAIL, "out of memory");
    for (size_t i = 0; i < s->cap; i++) {
      uint64_t *o = s->slots + 3 * i;
      if (!o[0] && !o[1]) continue;
      size_t j = (size_t)(o[1] & (cap - 1));
      while (slots[3 * j] || slots[3 * j + 1]) j = (j + 1) & (cap - 1);
      memcpy(slots + 3 * j, o, 3 * sizeof *o);
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
  }
  size_t j = (size_t)(d[1] & (s->cap - 1));
  for (;;) {
    uint64_t *o = s->slots + 3 * j;
    if (!o[0] && !o[1]) {
      o[0] = d[0], o[1] = d[1], o[2] = val;
      s->n++;
      return 0;
    }
    if (o[0] == d[0] && o[1] == d[1]) {
      if (first) *first = o[2];
      return 1;
    }
    j = (j + 1) & (s->cap - 1);
  }
}

int cli_pages_repeat_capture(cli_pages *c, cli_captures *s, const tbk_page_ref *ref, uint64_t val, uint64_t *first) {
  if (!ref->is_warc || !ref->url || !*ref->url) return 0;
  if (!c->captures) cli_die(TBK_EXIT_FAIL, "internal error: repeated captures asked for without c->captures");
  if (!captures_insert(s, c->digest, val, first)) return 0;
  cli_pages_record_moved(c, ref, TBK_WREC_DUP_CAPTURE);
  if (++c->dup_captures <= 20)
    cli_warn("%s: the same capture (URL and payload) as an earlier page; counted once", cli_page_where(ref));
  return 1;
}

void cli_pages_captures_summary(const cli_pages *c) {
  if (c->dup_captures) cli_warn("%zu repeated captures (same URL and payload) counted once", c->dup_captures);
}

tbk_page *cli_pages_load(cli_pages *c, const tbk_page_ref *ref) {
  tbk_buf raw = {0};
  tbk_error err = {0};
  tbk_page *page = NULL;
  /* A page file is one page, so max-page-bytes is its limit; max-record-bytes
   * is for the (decompressed) records of a WARC file. */
  tbk_input_options in = c->input;
  if (!ref->is_warc) in.max_record_bytes = c->page.max_page_bytes;
  tbk_status st = tbk_page_ref_read(ref, &in, &raw, &err);
  if (st == TBK_OK) {
    tbk_page_options o = c->page;
    if (ref->charset && *ref->charset) o.charset_hint = ref->charset;
    /* A record read from a WARC may be a few bytes over the page limit
     * only when the limits differ; the page limit is the one that speaks. */
    st = tbk_page_parse(raw.data ? raw.data : "", raw.len, &o, &page, &err);
  }
  cli_progress_step(&c->meter, ++c->loaded, raw.len);
  /* A byte-by-byte hash of every page: 6 % of tbk-predict's instructions
   * on a WARC crawl, for a program that never asks (BENCHMARKS.md #32). */
  if (c->captures && ref->is_warc) capture_digest(c->digest, ref->url, raw.data, raw.len);
  tbk_buf_free(&raw);
  if (st == TBK_OK) cli_pages_charset_warn(ref, page);
  if (st == TBK_OK) return page;
  cli_pages_skip(c, ref, err.msg);
  return NULL;
}

void cli_pages_progress_start(cli_pages *c, size_t total) {
  cli_progress_start(&c->meter, c->progress, "pages", total);
  c->loaded = 0;
}

void cli_pages_progress_end(cli_pages *c) { cli_progress_end(&c->meter); }

/* A page as messages name it: stdin is read through a temporary file,
 * named "-" as it was given (a pipe as it was given); a WARC record by its
 * file, offset and URI. */
static const char *cli_page_where(const tbk_page_ref *ref) {
  static char where[4096];
  const char *file = tbk_page_ref_file(ref);
  if (ref->is_warc && ref->skip)
    snprintf(where, sizeof where, "%s: record at offset %llu+%llu (%s)", file, (unsigned long long)ref->offset,
             (unsigned long long)ref->skip, ref->page);
  else if (ref->is_warc)
    snprintf(where, sizeof where, "%s: record at offset %llu (%s)", file, (unsigned long long)ref->offset, ref->page);
  else snprintf(where, sizeof where, "%s", file);
  return where;
}

void cli_pages_charset_warn(const tbk_page_ref *ref, const tbk_page *page) {
  if (page && *tbk_page_charset_note(page)) cli_warn("%s: %s", cli_page_where(ref), tbk_page_charset_note(page));
}

void cli_pages_html_warn(const tbk_page_ref *ref, const tbk_page *page) {
  if (page && *tbk_page_html_note(page)) cli_warn("%s: %s", cli_page_where(ref), tbk_page_html_note(page));
}

void cli_pages_skip(cli_pages *c, const tbk_page_ref *ref, const char *why) {
  const char *where = cli_page_where(ref);
  if (c->strict) cli_die(TBK_EXIT_FAIL, "%s: %s", where, why);
  cli_warn("%s: %s (skipped)", where, why);
  c->bad_pages++;
  cli_pages_record_moved(c, ref, TBK_WREC_PAGE_FAILED);
}

void cli_pages_record_moved(cli_pages *c, const tbk_page_ref *ref, tbk_wrec why) {
  tbk_warc_counts *k = &c->records;
  if (!ref->is_warc || !c->has_records || !k->n[ref->why]) return;
  k->n[ref->why]--;
  if (ref->why == TBK_WREC_STATUS_READ && ref->status > 0 && ref->status < 1000 && k->status_read[ref->status])
    k->status_read[ref->status]--;
  k->n[why]++;
}

void cli_pages_records_summary(const cli_pages *c) {
  const tbk_warc_counts *k = &c->records;
  if (!c->has_records) return;
  cli_progress_clear();
  size_t read = 0, skipped = 0;
  for (int outcome = 1; outcome >= 0; outcome--)
    for (int w = 0; w < TBK_WREC_N; w++) {
      if (tbk_wrec_is_read((tbk_wrec)w) != outcome || !k->n[w]) continue;
      const char *o = outcome ? "read" : "skipped";
      if (outcome) read += k->n[w];
      else skipped += k->n[w];
      if (w != TBK_WREC_STATUS && w != TBK_WREC_STATUS_READ) {
        fprintf(stderr, "records\t%s\t%s\t%zu\n", o, tbk_wrec_name((tbk_wrec)w), k->n[w]);
        continue;
      }
      /* One line a status code; a record moved out of the count (listed
       * twice, ...) leaves the codes' sum above it, so the rest goes last. */
      const size_t *by = w == TBK_WREC_STATUS ? k->status : k->status_read;
      size_t left = k->n[w];
      for (int code = 0; code < 1000 && left; code++) {
        size_t m = by[code] < left ? by[code] : left;
        if (!m) continue;
        fprintf(stderr, "records\t%s\t%s %d\t%zu\n", o, tbk_wrec_name((tbk_wrec)w), code, m);
        left -= m;
      }
      if (left) fprintf(stderr, "records\t%s\t%s\t%zu\n", o, tbk_wrec_name((tbk_wrec)w), left);
    }
  fprintf(stderr, "records\ttotal\tread %zu, skipped %zu\t%zu\n", read, skipped, read + skipped);
}

/* A bad labels line with --strict: the run stops at it, named as warned. */
static void warn_label_line(void *ctx, const char *file, const char *msg) {
  if (!*(const int *)ctx) {
    cli_warn("%s: %s", file, msg);
    return;
  }
  size_t n = strlen(msg), k = strlen(" (skipped)");
  if (n >= k && strcmp(msg + n - k, " (skipped)") == 0) n -= k;
  cli_die(TBK_EXIT_FAIL, "%s: %.*s (--strict)", file, (int)n, msg);
}

tbk_label_set *cli_labels_read(const char *path, int strict, size_t *bad_lines) {
  static int strict_ctx;
  strict_ctx = strict;
  tbk_label_set *labels;
  tbk_error err = {0};
  cli_reads_add(path);
  if (tbk_label_set_read(path, warn_label_line, &strict_ctx, &labels, bad_lines, &err))
    cli_die(TBK_EXIT_FAIL, "%s: %s", path, err.msg);
  return labels;
}

void cli_labels_check_pages(const char *path, const tbk_label_set *labels, const tbk_page_list *l, int fatal) {
  const char *first;
  size_t labelled = tbk_label_set_pages(labels, &first);
  if (!labelled || !l->n) return;
  for (size_t i = 0; i < l->n; i++)
    if (tbk_label_set_has_page(labels, l->refs[i].page)) return;
  if (fatal)
    cli_die(TBK_EXIT_FAIL,
            "%s: none of the %zu pages it labels is among the %zu pages read (pages match by name as "
            "listed: it names %s, the inputs give %s)",
            path, labelled, l->n, first, l->refs[0].page);
  cli_warn("%s: none of the %zu pages it labels is among the %zu pages of this shard", path, labelled, l->n);
}

/* Labelled blocks of pages read whose block is gone: the first ten. */
static void warn_missing(void *ctx, const char *page, const char *msg) {
  if (++*(size_t *)ctx <= 10) cli_warn("%s: %s", page, msg);
}

size_t cli_labels_report(const char *path, const tbk_label_set *labels, int strict, size_t bad_lines) {
  size_t shown = 0, unread, missing = tbk_label_set_unmatched(labels, warn_missing, &shown, &unread);
  if (missing && strict) cli_die(TBK_EXIT_FAIL, "%s: %zu labelled blocks not found (--strict)", path, missing);
  if (missing) cli_warn("%s: %zu labelled blocks in all were not found", path, missing);
  if (unread) cli_warn("note: %zu labelled blocks belong to pages not read", unread);
  if (bad_lines) cli_warn("%s: %zu label lines skipped (broken, invalid or conflicting)", path, bad_lines);
  return missing;
}

int cli_pages_exit(const cli_pages *c) {
  if (c->warc_summary) cli_pages_records_summary(c);
  return c->bad_pages ? TBK_EXIT_PARTIAL : TBK_EXIT_OK;
}

void cli_pages_segment_as(cli_pages *c, const tbk_model *model) {
  tbk_page_options mo;
  tbk_model_page_options(model, &mo);
  c->page.blocks = mo.blocks;
  c->page.min_chars = mo.min_chars;
  c->page.min_words = mo.min_words;
}

tbk_predictor *cli_predictor(const char *path, tbk_model **model) {
  cli_reads_add(path);
  tbk_error err = {0};
  tbk_predictor *pred;
  if (tbk_model_load(path, model, &err)) cli_die(TBK_EXIT_MODEL, "%s: %s", path, err.msg);
  tbk_status st = tbk_predictor_new(*model, &pred, &err);
  if (st) cli_die(st == TBK_ERR_SCHEMA ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", path, err.msg);
  return pred;
}

static char *const *sort_names;
static const char *sort_key;

static int name_cmp(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  int c = strcmp(sort_names[x], sort_names[y]);
  return c ? c : (x > y) - (x < y);
}

static int name_key_cmp(const void *key, const void *elem) {
  (void)key;
  return strcmp(sort_key, sort_names[*(const size_t *)elem]);
}

static char *output_name(const char *dir, const char *page, const char *ext, int *shortened);

/* names[k] told apart: its stem with the first ~N (from suffix on) that no
 * name as mapped holds (order: the names sorted). Another group's suffixed
 * names have other stems: only the names as mapped can be taken. */
static char *alt_name(char **names, const size_t *order, size_t n, size_t k, const char *ext, size_t suffix) {
  size_t extlen = strlen(ext), len = strlen(names[k]) + 24;
  char *alt = malloc(len);
  if (!alt) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (;; suffix++) {
    snprintf(alt, len, "%.*s~%zu%s", (int)(strlen(names[k]) - extlen), names[k], suffix, ext);
    sort_key = alt;
    if (!bsearch(&sort_key, order, n, sizeof *order, name_key_cmp)) return alt;
  }
}

/* The told-apart names replace the mapped ones only now, so every lookup
 * above saw the names as mapped. */
static void apply_alts(char **names, char **alts, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (alts[i]) {
      free(names[i]);
      names[i] = alts[i];
    }
  free(alts);
}

/* The first place in order (sorted names) at or after from whose name is
 * x followed by '/', or n: where a name of x's would need x as a directory. */
static size_t dir_user(char **names, const size_t *order, size_t from, size_t n, const char *x) {
  size_t xl = strlen(x), lo = from, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const char *m = names[order[mid]];
    int c = strncmp(m, x, xl);
    if (c < 0 || (c == 0 && (unsigned char)m[xl] < '/')) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && strncmp(names[order[lo]], x, xl) == 0 && names[order[lo]][xl] == '/' ? lo : n;
}

/* A name that another page's name goes on below ("h/a.txt" and
 * "h/a.txt/b.txt") cannot be a file and a directory at once: the file is
 * told apart as equal names are, and the directory keeps its name. */
static void files_off_dirs(char **names, size_t *order, const tbk_page_list *l, const char *ext) {
  sort_names = names;
  qsort(order, l->n, sizeof *order, name_cmp);
  char **alts = calloc(l->n ? l->n : 1, sizeof *alts);
  if (!alts) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < l->n; i++) {
    size_t k = order[i], user = dir_user(names, order, i + 1, l->n, names[k]);
    if (user == l->n) continue;
    char *alt = alt_name(names, order, l->n, k, ext, 2);
    cli_warn("%s: its output name %s is a directory for %s; written as %s", l->refs[k].page, names[k],
             l->refs[order[user]].page, alt);
    cli_output_check("--output-dir", alt);
    alts[k] = alt;
  }
  apply_alts(names, alts, l->n);
}

/* A name whose first part under dir is where an index goes gets that
 * part told apart ("index.tsv~2/"): the index is a file. */
static char *off_index(const tbk_page_ref *ref, char *name, size_t dirlen) {
  char *part = name + dirlen + 1;
  while (part[0] == '.' && part[1] == '/') part += 2; /* "./index.tsv/" is DIR's index.tsv too */
  char *slash = strchr(part, '/');
  if (!slash || !cli_index_reserved(part, (size_t)(slash - part))) return name;
  size_t n = strlen(name) + 3;
  char *alt = malloc(n);
  if (!alt) cli_die(TBK_EXIT_FAIL, "out of memory");
  snprintf(alt, n, "%.*s~2%s", (int)(slash - name), name, slash);
  cli_warn("%s: its output name %s would make a directory of the index's name; written as %s", ref->page, name, alt);
  free(name);
  return alt;
}

char **cli_output_names(const char *dir, const tbk_page_list *l, const char *ext, int index) {
  if (!*dir) cli_usage_error("--output-dir: an empty directory name names no directory");
  char **names = calloc(l->n ? l->n : 1, sizeof *names), **alts = calloc(l->n ? l->n : 1, sizeof *alts);
  size_t *order = malloc((l->n ? l->n : 1) * sizeof *order);
  if (!names || !alts || !order) cli_die(TBK_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < l->n; i++) {
    const tbk_page_ref *ref = &l->refs[i];
    int shortened;
    /* A WARC page's name is its whole URL's (scheme and query kept); a
     * long one is shortened by the naming rule, which the index records. */
    if (ref->is_warc) names[i] = cli_url_output_name(dir, ref->page, ext, &shortened);
    else {
      names[i] = output_name(dir, ref->page, ext, &shortened);
      if (shortened) cli_warn("%s: its output name is too long for a file system; written as %s", ref->page, names[i]);
    }
    if (index) names[i] = off_index(ref, names[i], strlen(dir));
    cli_output_check("--output-dir", names[i]);
    order[i] = i;
  }
  /* Group equal names, first page of the list first. */
  sort_names = names;
  qsort(order, l->n, sizeof *order, name_cmp);
  for (size_t i = 1; i < l->n; i++) {
    size_t first = order[i - 1], k = order[i];
    if (strcmp(names[first], names[k]) != 0) continue;
    size_t g = i;
    while (g > 0 && strcmp(names[order[g - 1]], names[k]) == 0) g--;
    char *alt = alt_name(names, order, l->n, k, ext, i - g + 1);
    const tbk_page_ref *a = &l->refs[order[g]], *b = &l->refs[k];
    /* Captures of one URL are expected in a crawl, told apart by "~N" in
     * record order; two pages named alike are not. */
    if (!(a->is_warc && b->is_warc && strcmp(a->page, b->page) == 0))
      cli_warn("%s: its output name %s is taken by %s; written as %s", b->page, names[k], a->page, alt);
    cli_output_check("--output-dir", alt);
    alts[k] = alt;
  }
  apply_alts(names, alts, l->n);
  files_off_dirs(names, order, l, ext);
  free(order);
  return names;
}

/* File systems refuse a name part over NAME_MAX (255 bytes) and a path
 * over PATH_MAX, and a URL can be longer than either: such a part keeps its
 * first bytes and gets the hash of the whole, so one long URL is written
 * under a stable name instead of ending the run. */
enum { NAME_PART_MAX = 200, NAME_PART_KEEP = 150, NAME_REL_MAX = 2048 };

/* Shorten rel in place: every part over NAME_PART_MAX, then all past the
 * first part when the whole is still over NAME_REL_MAX. 1 when shortened. */
static int shorten_rel(char *rel) {
  size_t n = strlen(rel), k = 0;
  int shortened = 0;
  for (size_t i = 0; i <= n; i++) {
    size_t j = i;
    while (j < n && rel[j] != '/') j++;
    size_t len = j - i, keep = len > NAME_PART_MAX ? tbk_utf8_cut(rel + i, len, NAME_PART_KEEP) : len;
    unsigned long long h = (unsigned long long)tbk_hash64(rel + i, len);
    memmove(rel + k, rel + i, keep); /* k <= i: only bytes already read are overwritten */
    k += keep;
    if (keep < len) k += (size_t)snprintf(rel + k, 18, "~%016llx", h), shortened = 1;
    if (j < n) rel[k++] = '/';
    i = j;
  }
  rel[k] = '\0';
  char *slash = strchr(rel, '/');
  if (k > NAME_REL_MAX && slash) {
    snprintf(slash + 1, 18, "~%016llx", (unsigned long long)tbk_hash64(slash + 1, strlen(slash + 1)));
    shortened = 1;
  }
  return shortened;
}

static char *output_name(const char *dir, const char *page, const char *ext, int *shortened) {
  size_t n = strlen(dir) + strlen(page) + strlen(ext) + 24;
  char *out = malloc(n), *rel = malloc(strlen(page) + 24);
  if (!out || !rel) cli_die(TBK_EXIT_FAIL, "out of memory");
  const char *s = strstr(page, "://") ? strstr(page, "://") + 3 : page;
  size_t k = 0;
  for (; *s; s++) {
    char ch = *s;
    if (ch == '?' || ch == '#' || ch == ':' || ch == '\\') ch = '_';
    if (ch == '/' && (k == 0 || rel[k - 1] == '/')) continue;
    if (ch == '.' && (k == 0 || rel[k - 1] == '/') && s[1] == '.') {
      rel[k++] = '_';
      continue;
    }
    rel[k++] = ch;
  }
  while (k && rel[k - 1] == '/') k--;
  rel[k] = '\0';
  char *slash = strrchr(rel, '/'), *dot = strrchr(rel, '.');
  if (dot && (!slash || dot > slash) && dot != rel) *dot = '\0';
  *shortened = shorten_rel(rel);
  snprintf(out, n, "%s/%s%s", dir, *rel ? rel : "page", ext);
  free(rel);
  return out;
}

char *cli_output_name(const char *dir, const char *page, const char *ext) {
  int shortened;
  return output_name(dir, page, ext, &shortened);
}

const char cli_train_options_help[] =
    "Training options:\n"
    "      --encoding E         mdl, raw or both (default both)\n"
    "  -C, --cost C             LIBLINEAR C (default 1)\n"
    "      --auto-C             choose C by cross-site CV in {0.03,0.1,0.3,1,3}\n"
    "      --weight-template W  class weight of template rows (default 1)\n"
    "      --weight-content W   class weight of content rows (default 1)\n"
    "      --nb-alpha A         Naive-Bayes smoothing (default 1)\n"
    "      --nb-folds K         folds of the out-of-fold NB score (default 5)\n"
    "      --no-dedup           keep duplicate rows\n"
    "      --no-balance         do not reweight the classes to equal total weight\n"
    "      --max-site-rows N    cap rows per site, evenly spaced (default 3000;\n"
    "                           0 = no cap)\n"
    "      --sparse-intervals   leave each MDL-binned feature's most frequent interval\n"
    "                           out of the fit (weight 0, the bias absorbs it): about\n"
    "                           a third of the memory of a large fit, a slightly\n"
    "                           different model\n";

int cli_train_option(tbk_train_options *o, int code, const char *arg) {
  switch (code) {
  case CLI_OPT_ENCODING:
    if (strcmp(arg, "mdl") == 0) o->encoding = TBK_ENC_MDL;
    else if (strcmp(arg, "raw") == 0) o->encoding = TBK_ENC_RAW;
    else if (strcmp(arg, "both") == 0) o->encoding = TBK_ENC_BOTH;
    else cli_usage_error("--encoding: '%s' is not mdl, raw or both", arg);
    return 1;
  case 'C': o->C = cli_double("--cost", arg, 1e-6, 1e6); return 1;
  case CLI_OPT_AUTO_C: o->auto_C = 1; return 1;
  case CLI_OPT_WEIGHT_T: o->weight_pos = cli_double("--weight-template", arg, 1e-6, 1e6); return 1;
  case CLI_OPT_WEIGHT_C: o->weight_neg = cli_double("--weight-content", arg, 1e-6, 1e6); return 1;
  case CLI_OPT_NB_ALPHA: o->nb_alpha = cli_double("--nb-alpha", arg, 1e-9, 1e6); return 1;
  case CLI_OPT_NB_FOLDS: o->nb_folds = (unsigned)cli_long("--nb-folds", arg, 2, 100); return 1;
  case CLI_OPT_NO_DEDUP: o->dedup = 0; return 1;
  case CLI_OPT_NO_BALANCE: o->balance = 0; return 1;
  case CLI_OPT_MAX_SITE_ROWS: o->max_site_rows = cli_size("--max-site-rows", arg); return 1;
  case CLI_OPT_SPARSE_INTERVALS: o->sparse_intervals = 1; return 1;
  }
  return 0;
}

int cli_mkdirs(const char *dir) {
  char *p = strdup(dir);
  if (!p) return -1;
  for (char *s = p + 1;; s++) {
    if (*s != '/' && *s != '\0') continue;
    char ch = *s;
    *s = '\0';
    if (mkdir(p, 0777) && errno != EEXIST) {
      free(p);
      return -1;
    }
    *s = ch;
    if (!ch) break;
  }
  free(p);
  return 0;
}

void cli_out_open_file(cli_out *o, char *name) {
  char *slash = strrchr(name, '/');
  if (slash) *slash = '\0';
  int bad = slash && cli_mkdirs(name);
  if (slash) *slash = '/';
  if (bad) cli_die(TBK_EXIT_WRITE, "%s: cannot create directory: %s", name, strerror(errno));
  cli_out_open(o, name);
}

void cli_write_file(char *name, const char *data, size_t n) {
  cli_out o;
  cli_out_open_file(&o, name);
  if (n && fwrite(data, 1, n, o.f) != n) cli_die(TBK_EXIT_WRITE, "%s: cannot write", name);
  cli_out_commit(&o);
}

void cli_warn_row(void *ctx, const char *file, const char *msg) {
  size_t *count = ctx;
  ++*count;
  if (*count <= 20) cli_warn("%s: %s", file, msg);
  else if (*count == 21) cli_warn("more malformed rows; only the count will be reported");
}

tbk_dataset *cli_read_dataset(int argc, char **argv, int first, size_t *skipped) {
  int n = argc - first;
  if (n <= 0 || n % 3) cli_usage_error("expected FEATURES WORDS META triples, got %d file(s)", n < 0 ? 0 : n);
  tbk_dataset *ds;
  tbk_error err = {0};
  if (tbk_dataset_new(NULL, 0, 0, &ds, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  for (int i = first; i < argc; i++) cli_reads_add(argv[i]);
  for (int i = first; i < argc; i += 3) {
    tbk_status st = tbk_dataset_read(ds, argv[i], argv[i + 1], argv[i + 2], cli_warn_row, skipped, &err);
    if (st) cli_die(st == TBK_ERR_SCHEMA ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s", err.msg);
  }
  if (*skipped) cli_warn("%zu malformed rows skipped", *skipped);
  return ds;
}

int cli_tsv_split(char *line, char **f, int max) {
  size_t n = strlen(line);
  if (n && line[n - 1] == '\r') line[n - 1] = '\0';
  int nf = 0;
  for (char *p = line; nf < max;) {
    f[nf++] = p;
    char *tab = strchr(p, '\t');
    if (!tab) break;
    *tab = '\0';
    p = tab + 1;
  }
  return nf;
}

void cli_tsv_columns(char **f, int nf, const char *const *names, size_t n, int *at) {
  for (size_t c = 0; c < n; c++) {
    at[c] = -1;
    for (int i = 0; i < nf; i++)
      if (strcmp(f[i], names[c]) == 0) at[c] = i;
  }
}
