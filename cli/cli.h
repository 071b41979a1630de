/* Shared helpers of the tbk command-line programs: one message format
 * ("tbk-xxx: error: FILE: what went wrong"), one exit-code table, checked
 * number parsing, and output files that appear only when complete. */
#ifndef TBK_CLI_H
#define TBK_CLI_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <getopt.h>

#include "tbk.h"
#include "tbk_base.h"
#include "tbk_io.h"
#include "tbk_label.h"
#include "tbk_ml.h"

/* Exit codes, shared by every tbk program (documented in docs/programs.md "Exit codes"). */
enum tbk_exit {
  TBK_EXIT_OK = 0,      /* everything processed */
  TBK_EXIT_FAIL = 1,    /* fatal error: nothing (more) could be done */
  TBK_EXIT_USAGE = 2,   /* bad command line */
  TBK_EXIT_PARTIAL = 3, /* finished, but some input was skipped (reported) */
  TBK_EXIT_WRITE = 4,   /* output could not be written (disk full, ...) */
  TBK_EXIT_MODEL = 5    /* model refused: corrupt, truncated, other schema */
};

/* Set once from main: the program name used in every message. */
void cli_init(const char *prog);
const char *cli_prog(void);

/* "prog: error: msg" on stderr, then exit(code). */
void cli_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Dies with "out of memory" when a tbk_buf_* append failed (r != 0). */
void cli_mem(int r);
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Usage error: message plus "Try 'prog --help'.", exit 2. */
void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* For getopt_long run with opterr = 0 and an optstring starting with ':':
 * report the option getopt rejected (c is ':' or '?') in our format and
 * exit 2. */
void cli_bad_option(int c, char **argv) __attribute__((noreturn));

/* Strict number parsing: the whole string, in range, or a usage error that
 * names the option. */
size_t cli_size(const char *opt, const char *s);
long cli_long(const char *opt, const char *s, long lo, long hi);
double cli_double(const char *opt, const char *s, double lo, double hi);
/* The index of arg in names (NULL-terminated), or a usage error
 * "OPT: 'ARG' is not EXPECTED" (expected: "text, jsonl or html"). */
int cli_choice(const char *opt, const char *arg, const char *const *names, const char *expected);

/* An output stream: stdout for NULL or "-", else a temporary file beside
 * the target, renamed over it by cli_out_commit only when everything was
 * written. The temporary file is unnamed where Linux allows (O_TMPFILE),
 * so even SIGKILL leaves nothing; it gets its name (tmp) only at commit.
 * cli_out_abort removes the temporary file. */
typedef struct cli_out {
  FILE *f;    /* the stream to write (owned unless stdout) */
  char *path; /* target path (owned), NULL for stdout */
  char *tmp;  /* temporary path (owned), NULL for stdout */
  int anon;   /* 1 while the temporary file has no name yet */
} cli_out;

/* Dies with a usage error (exit 2) when path is "" (it names no file), a
 * file this run reads (see cli_reads_add), or the target of another output
 * still open: compared by device and inode, so no spelling of an input is
 * overwritten. */
void cli_out_open(cli_out *o, const char *path);
/* Record a file the run reads (the inputs, every page, WARC and gold file
 * they list, the model, labels, rows); cli_pages_list and cli_predictor
 * record theirs. Not regular files (devices, pipes, directories) are not
 * recorded: writing them replaces nothing. */
void cli_reads_add(const char *path);
void cli_reads_argv(char **paths, int n);
/* The checks of cli_out_open on an output named by option opt, for a
 * program to make before its work when it opens the output only after. */
void cli_output_check(const char *opt, const char *path);
/* Flush, check for write errors, fsync and rename; dies with
 * TBK_EXIT_WRITE on failure (removing the temporary file). */
void cli_out_commit(cli_out *o);
void cli_out_abort(cli_out *o);
/* The two halves of cli_out_commit, for a run with several outputs: finish
 * every output (flush, fsync: where a full disk shows) before publishing
 * (renaming) any, so a run that fails leaves none of them behind. A
 * finished output not yet published is removed by cli_die. */
void cli_out_finish(cli_out *o);
void cli_out_publish(cli_out *o);
/* Publish a finished output, or remove it when code (what cli_exit
 * returned) is TBK_EXIT_WRITE: stdout failed, so the run did. Returns code. */
int cli_out_settle(cli_out *o, int code);
/* Finish all of outs (NULL entries skipped), then publish them all. */
void cli_out_commit_all(cli_out *const *outs, size_t n);
/* tbk_write_fn adaptor: ctx is a cli_out. */
int cli_out_write(void *ctx, const char *data, size_t n);
/* The same, but a write that fails dies ("FILE: cannot write", exit 4). */
int cli_out_put(void *ctx, const char *data, size_t n);
/* A tbk_buf sink (util.h) for JSONL lines: each line's "page" member is
 * followed by trace (a WARC record's, tbk_page_ref_trace), the lines
 * written with write(ctx, ...). */
typedef struct cli_trace_sink {
  tbk_write_fn write;
  void *ctx;
  const tbk_buf *trace; /* borrowed; empty: lines go through unchanged */
} cli_trace_sink;
int cli_trace_put(void *ctx, const char *data, size_t n);

/* Call last in main: flushes stdout and turns a write error into
 * TBK_EXIT_WRITE (like jq, a full disk is never a silent success). */
int cli_exit(int code);
/* --version: "prog VERSION" on stdout (the library's version, one for all
 * programs), then the code for cli_exit(TBK_EXIT_OK). */
int cli_version(void);

/* ----- options and page loading shared by label, features and predict */

/* Long-option codes for the page/input options every page-reading program
 * takes; add CLI_PAGE_LONGOPTS to the program's option table. */
enum {
  CLI_OPT_BLOCKS = 1000,
  CLI_OPT_MIN_CHARS,
  CLI_OPT_MIN_WORDS,
  CLI_OPT_SITE_KEY,
  CLI_OPT_MAX_PAGE_BYTES,
  CLI_OPT_MAX_RECORD_BYTES,
  CLI_OPT_MAX_DEPTH,
  CLI_OPT_MAX_BLOCKS,
  CLI_OPT_STRICT,
  CLI_OPT_PROGRESS,
  CLI_OPT_NO_PROGRESS,
  CLI_OPT_STATUS,
  CLI_OPT_WARC_SUMMARY,
  CLI_OPT_PARSER,
  CLI_OPT_FIRST_FREE
};
#define CLI_PAGE_LONGOPTS                                                                                           \
  {"blocks", required_argument, 0, CLI_OPT_BLOCKS}, {"min-chars", required_argument, 0, CLI_OPT_MIN_CHARS},         \
      {"min-words", required_argument, 0, CLI_OPT_MIN_WORDS}, {"site-key", required_argument, 0, CLI_OPT_SITE_KEY}, \
      {"max-page-bytes", required_argument, 0, CLI_OPT_MAX_PAGE_BYTES},                                             \
      {"max-record-bytes", required_argument, 0, CLI_OPT_MAX_RECORD_BYTES},                                         \
      {"max-depth", required_argument, 0, CLI_OPT_MAX_DEPTH},                                                       \
      {"max-blocks", required_argument, 0, CLI_OPT_MAX_BLOCKS}, {"strict", no_argument, 0, CLI_OPT_STRICT},         \
      {"status", required_argument, 0, CLI_OPT_STATUS}, {"warc-summary", no_argument, 0, CLI_OPT_WARC_SUMMARY},     \
      {"parser", required_argument, 0, CLI_OPT_PARSER}, CLI_PROGRESS_LONGOPTS

/* Monotonic seconds, for the timings programs report. */
double cli_now(void);

/* --progress / --no-progress, for every long-running program (-q, where
 * a program has it, also silences progress). */
#define CLI_PROGRESS_LONGOPTS \
  {"progress", no_argument, 0, CLI_OPT_PROGRESS}, { "no-progress", no_argument, 0, CLI_OPT_NO_PROGRESS }
/* The rows every program's exit-status table in --help starts with (the
 * codes of enum tbk_exit); each adds its own 3, 4 and 5. */
#define CLI_EXIT_STATUS_HELP \
  "Exit status:\n"           \
  "  0  ok\n"                \
  "  1  fatal error\n"       \
  "  2  usage error (also: an output that is a file the run reads)\n"
/* How every page-reading program tells its inputs apart (input.c). */
#define CLI_INPUT_BY_CONTENT_HELP                                                  \
  "A WARC (plain or gzip) is told by its first bytes, on a file, stdin or a\n"     \
  "pipe, whatever its name; an ARC file (filedesc://) is refused. An input of\n"   \
  "several that cannot be read (ARC, no HTML record, damaged) is skipped with\n"   \
  "a warning (exit 3). A WARC record cut off in a truncated gzip member is read\n" \
  "as far as it inflates, with a warning (exit 3); records that are no HTML\n"     \
  "page (request, revisit, an image, a status --status does not take) are\n"       \
  "skipped and counted: --warc-summary prints every record's outcome and reason.\n"
/* What a WARC gives the page-reading programs, and how repeated captures
 * count (the programs that tell them apart), in their --help. */
#define CLI_WARC_RECORDS_HELP                                            \
  "A WARC's HTML records are read: response (status 200) and resource\n" \
  "records, the Content-Type sniffed from the body when missing or generic.\n"
#define CLI_REPEATED_CAPTURES_HELP                                          \
  "The same capture twice (WARC records with one URL and payload) counts\n" \
  "once, with a warning and a count.\n"
#define CLI_PROGRESS_HELP                                                  \
  "      --progress            progress on stderr even when it is not a\n" \
  "                            terminal (a line every 10 s, for logs)\n"   \
  "      --no-progress         no progress line (default: one on a terminal)\n"

/* Progress of a long run (progress.c): on a terminal one self-updating
 * line on stderr (done of total, rate, MB/s, ETA); not on a terminal,
 * nothing unless --progress, then a plain line every 10 s and at the end. */
enum { CLI_PROGRESS_AUTO = -1, CLI_PROGRESS_OFF = 0, CLI_PROGRESS_ON = 1, CLI_PROGRESS_LINE = 2, CLI_PROGRESS_LOG = 3 };
typedef struct cli_progress {
  int mode;         /* CLI_PROGRESS_OFF, _LINE or _LOG */
  const char *unit; /* "pages", "rows" (borrowed) */
  size_t total;     /* 0: unknown */
  size_t done;
  uint64_t bytes;  /* input read so far */
  double t0, last; /* monotonic seconds: start, last drawn */
  int shown;       /* a terminal line is on screen */
  char note[96];   /* what is being done (train: the fit, the fold) */
} cli_progress;
/* want: CLI_PROGRESS_AUTO (default), _ON (--progress), _OFF. */
void cli_progress_start(cli_progress *p, int want, const char *unit, size_t total);
/* done so far, and bytes read since the last step; cheap enough per page. */
void cli_progress_step(cli_progress *p, size_t done, uint64_t bytes);
void cli_progress_note(cli_progress *p, const char *what);
void cli_progress_end(cli_progress *p);
/* Clear the progress line before another message (cli_warn does). */
void cli_progress_clear(void);
/* --progress or --no-progress into *want; 1 when code was one of them. */
int cli_progress_option(int *want, int code);

/* Help text for those options, to paste into each program's --help; the
 * input one leaves out the segmentation options (--blocks, --min-chars,
 * --min-words), for a program that takes them from the model. */
extern const char cli_page_options_help[];
extern const char cli_input_options_help[];

typedef struct cli_pages {
  tbk_page_options page;   /* parse/segment options */
  tbk_input_options input; /* input listing options */
  int strict;              /* first bad page is fatal */
  size_t bad_pages;        /* pages skipped so far */
  int progress;            /* CLI_PROGRESS_AUTO, _ON or _OFF */
  cli_progress meter;      /* the run's progress over its pages */
  size_t loaded;           /* pages cli_pages_load was asked for */
  int captures;            /* the program tells repeated captures apart
                              (cli_pages_repeat_capture): digest is computed */
  uint64_t digest[2];      /* the last loaded page's URL and bytes, hashed */
  size_t dup_captures;     /* repeated captures counted once (#32 item 3) */
  tbk_warc_counts records; /* the WARC records met, by why */
  int has_records;         /* a WARC was listed */
  int warc_summary;        /* print them at the end (cli_pages_exit) */
} cli_pages;

/* The captures (URL, payload digest) seen in one group of pages (a site,
 * or a whole clustering run): an identical capture twice (a re-crawl, the
 * same WARC read twice under two names) would count twice in every document
 * frequency. */
typedef struct cli_captures {
  uint64_t *slots; /* 3 words a slot: the digest ({0, 0}: empty), a value */
  size_t cap, n;
} cli_captures;
void cli_captures_free(cli_captures *s);
/* After cli_pages_load(ref) returned a page, in a program that set
 * c->captures before loading: 1 when the same URL with the
 * same bytes was seen in s already (warned about, counted in
 * c->dup_captures; *first, when not NULL, = the val it was remembered
 * with), else 0 (and remembered with val). Only WARC records are captures:
 * page files (a manifest may give two files one URL) are never repeats. */
int cli_pages_repeat_capture(cli_pages *c, cli_captures *s, const tbk_page_ref *ref, uint64_t val, uint64_t *first);
/* The count of repeated captures, once at the end of a run (when any). */
void cli_pages_captures_summary(const cli_pages *c);

void cli_pages_init(cli_pages *c);
/* Handle one of the CLI_PAGE_LONGOPTS; returns 1 when the code was one. */
int cli_pages_option(cli_pages *c, int code, const char *arg);
/* List the pages of all inputs (sorted). Problems that skip part of an
 * input are warned about and counted; a fatal input error dies. */
void cli_pages_list(cli_pages *c, char **inputs, int n, tbk_page_list *out);
/* Read and parse one page. On failure warns "FILE: reason (skipped)",
 * counts it, and returns NULL (or dies with --strict). */
tbk_page *cli_pages_load(cli_pages *c, const tbk_page_ref *ref);
/* A loaded page whose declared charset was overruled (it decoded to
 * mostly U+FFFD): a warning naming both charsets; the page is kept. */
void cli_pages_charset_warn(const tbk_page_ref *ref, const tbk_page *page);
/* A page whose HTML rendering left out characters its declared charset
 * cannot write: a warning with their count; the output is kept. */
void cli_pages_html_warn(const tbk_page_ref *ref, const tbk_page *page);
/* A page that read and parsed but cannot be processed (a limit of a later
 * stage): warned about and counted like an unreadable one, fatal with
 * --strict. */
void cli_pages_skip(cli_pages *c, const tbk_page_ref *ref, const char *why);
/* Progress over the pages cli_pages_load will read (total: the list's
 * size); each load is a step. */
void cli_pages_progress_start(cli_pages *c, size_t total);
void cli_pages_progress_end(cli_pages *c);
/* tbk_label_set_read(path), dying on failure. Each bad line (broken, over
 * the line limit, an invalid label, a conflicting one) is warned about and
 * counted in *bad_lines; with strict the first one is fatal. */
tbk_label_set *cli_labels_read(const char *path, int strict, size_t *bad_lines);
/* Labels (read from path) that name none of the pages of l, though l has
 * pages: their names are spelt otherwise (./pages/x.html, an absolute
 * path) or they are another run's. fatal: dies (exit 1) naming one of
 * each; else a warning with the counts (a shard may hold no labelled page). */
void cli_labels_check_pages(const char *path, const tbk_label_set *labels, const tbk_page_list *l, int fatal);
/* After the pages: the labelled blocks (of labels, read from path) not
 * found in the pages read, the first ten named, and the bad_lines
 * cli_labels_read counted, as warnings (strict: a block not found is
 * fatal). Returns the blocks not found. */
size_t cli_labels_report(const char *path, const tbk_label_set *labels, int strict, size_t bad_lines);

/* One line of a TSV file read in place: a trailing CR dropped, split at tabs
 * into at most max fields (the last keeps any further tabs). The count. */
int cli_tsv_split(char *line, char **f, int max);
/* Where each of the n names stands among a header's nf fields, -1 where it
 * does not (the last of equal names counts). */
void cli_tsv_columns(char **f, int nf, const char *const *names, size_t n, int *at);

/* The exit code a run ends with: PARTIAL when pages were skipped. Call
 * once, at the end: with --warc-summary it prints the WARC records' table
 * (cli_pages_records_summary) first. */
int cli_pages_exit(const cli_pages *c);
/* The WARC records met, by outcome and reason, on stderr: a line
 * "records<TAB>OUTCOME<TAB>REASON<TAB>N" each (read before skipped), then
 * "records<TAB>total<TAB>read R, skipped S<TAB>N" (R + S = N). Nothing
 * when no WARC was read. */
void cli_pages_records_summary(const cli_pages *c);
/* A listed WARC record the run leaves out after all (why: TBK_WREC_
 * LISTED_TWICE, _DUP_CAPTURE, _PAGE_FAILED): counted there instead. */
void cli_pages_record_moved(cli_pages *c, const tbk_page_ref *ref, tbk_wrec why);
/* Segment pages as the model's training did (--blocks, --min-chars and
 * --min-words from the model; the resource limits stay the user's). */
void cli_pages_segment_as(cli_pages *c, const tbk_model *model);

/* Load the model at path and its predictor; a refused model dies with exit
 * 5, other failures with exit 1. */
tbk_predictor *cli_predictor(const char *path, tbk_model **model);

/* DIR/<page id> with a new extension (".txt"): URL schemes dropped,
 * "? # : \\" replaced, leading ".." defused, so nothing lands outside DIR;
 * a part over 200 bytes keeps 150 and the hash of the whole, and all past
 * the first part is hashed when the rest is still over 2048 bytes, so no
 * URL is too long for a file system. The one mapping tbk-predict
 * --output-dir writes for a page not from a WARC and tbk-eval reads.
 * Caller frees. */
char *cli_output_name(const char *dir, const char *page, const char *ext);
/* The output names of every page of l under dir (cli_output_name each, a
 * WARC page's cli_url_output_name), checked by cli_output_check and made
 * unique: a page whose name an earlier page of the (sorted) list took gets
 * "~2", "~3", ... before the extension, with a warning naming both pages
 * (none for captures of one URL), so the same inputs always get the same
 * names. index: DIR gets an index (cli_index), whose names no page's
 * directory may take. dir "" is a usage error. Caller frees each and the
 * array. */
char **cli_output_names(const char *dir, const tbk_page_list *l, const char *ext, int index);
/* DIR/<name> of a page from a WARC, from its URL (the page's id): its
 * scheme and host (case-folded, a port's ':' escaped) and the parts of its
 * path as directories, the last part ("index" when empty) with the query
 * and fragment as the file, then ext. Bytes outside A-Z a-z 0-9 and
 * -._!$&'()+,;=@[] are %XX, valid UTF-8 stays, so '/', '?', '%', '~' and
 * control bytes of the URL never reach a name, and a part's leading '.' is
 * %2E (no "..", no hidden file). A part over 200 bytes keeps 150 and gets
 * "~" and the MD5 of the whole (*shortened set); a name over 2048 bytes
 * keeps scheme and host and hashes the rest. Caller frees. */
char *cli_url_output_name(const char *dir, const char *url, const char *ext, int *shortened);
/* tbk-predict --output-dir's index of what went where: DIR/index.tsv, or
 * DIR/index-K-of-N.tsv under --shard K/N (K as wide as N, the header in
 * shard 1 only, so the sorted files joined are one run's), written as any
 * output (cli_out). A row per output file: file (relative to DIR), url,
 * record_id, warc_file, warc_offset, date, warc_skip, page, fields
 * TSV-escaped (cli_tsv_field); the WARC ones empty for a page not from a
 * WARC. */
typedef struct cli_index {
  cli_out out;
  char *path; /* owned */
  size_t dirlen;
  tbk_buf row;
} cli_index;
/* The index's path under dir. Caller frees. */
char *cli_index_name(const char *dir);
/* 1 when a page name's first part under DIR is a name an index of any
 * shard takes (index.tsv, index-*.tsv). */
int cli_index_reserved(const char *part, size_t n);
void cli_index_open(cli_index *x, const char *dir);
/* The row of the file name (one of cli_output_names(DIR)) made from ref;
 * trace is its tbk_page_ref_trace. */
void cli_index_add(cli_index *x, const char *name, const tbk_page_ref *ref, const tbk_buf *trace);
void cli_index_commit(cli_index *x);
/* Append s to b as a TSV field: backslash, tab, newline and carriage
 * return as \\, \t, \n and \r. 0, or -1 when out of memory. */
int cli_tsv_field(tbk_buf *b, const char *s);
/* The members of a tbk_page_ref_trace as an object to look keys up in;
 * NULL when there are none. Free with tbk_jsonl_free. */
tbk_jsonl_obj *cli_trace_parse(const tbk_buf *trace);
/* A string member of o (NULL: none), "" when absent. */
const char *cli_trace_str(const tbk_jsonl_obj *o, const char *key);
/* mkdir -p DIR; 0 or -1 with errno. */
int cli_mkdirs(const char *dir);
/* Remove dir and its files if SIGINT, SIGTERM or SIGHUP ends the program
 * (a staging directory, as tbk-eval cv --out's); NULL: no longer (call it
 * before renaming dir into place). One directory at a time. */
void cli_guard_dir(const char *dir);
/* Hold SIGINT, SIGTERM and SIGHUP until cli_signals_release (old: the mask
 * to restore): one arriving while a guarded directory is made, or while a
 * staged output is moved into place (after cli_guard_dir(NULL)), is
 * delivered once that is done, so a kill leaves all of an output or none. */
void cli_signals_hold(sigset_t *old);
void cli_signals_release(const sigset_t *old);
/* mkdtemp(tmpl) with the usual mode (not 0700), guarded as by
 * cli_guard_dir from the moment it exists; dies (exit 4) naming target
 * when it cannot be made. */
void cli_mkdtemp_guarded(char *tmpl, const char *target);
/* An output directory (tbk-label --strip, --template-html) built in
 * DIR.tmp.XXXXXX beside it and moved into place by cli_stage_publish only
 * when the run succeeded: a run that fails (cli_die, any exit before the
 * publish) or is ended by SIGINT, SIGTERM or SIGHUP leaves nothing in DIR
 * and no staging directory. One a run. */
typedef struct cli_stage {
  char *dir, *tmp; /* owned */
} cli_stage;
void cli_stage_open(cli_stage *st, const char *dir);
/* The staged name of name (one of cli_output_names(dir, ...)). Caller frees. */
char *cli_stage_name(const cli_stage *st, const char *name);
/* The per-page output names of DIR (cli_output_names, no index), checked
 * as DIR's and moved into st, opened on DIR: one file a page, written to
 * the staged directory. The array and names are the caller's to free. */
char **cli_stage_page_names(cli_stage *st, const char *dir, const tbk_page_list *l, const char *ext);
/* Move the staged files into DIR: DIR renamed into place when new, else
 * merged into it (a file replaces the file of its name). Dies with
 * TBK_EXIT_WRITE when it cannot. */
void cli_stage_publish(cli_stage *st);
/* Remove the staged directory now, DIR untouched (an output that failed). */
void cli_stage_discard(cli_stage *st);
/* Write data to the file name (one of cli_output_names'), creating its
 * directories, through cli_out: it appears only when complete. Dies with
 * TBK_EXIT_WRITE when it cannot. */
void cli_write_file(char *name, const char *data, size_t n);
/* cli_write_file in parts: the output opened (its directories made), then
 * written through o and committed by the caller (cli_out_commit), or
 * abandoned (cli_out_abort). */
void cli_out_open_file(cli_out *o, char *name);

/* The model to load: given (-m) when not NULL, else $TBK_MODEL, else the
 * shipped default.model of this installation (or build tree). */
const char *cli_model_path(const char *given);

/* A tbk_warn_fn that warns "FILE: msg". */
void cli_warn_file(void *ctx, const char *file, const char *msg);
/* A tbk_warn_fn for malformed rows: counts them in *(size_t *)ctx and warns
 * about the first 20, then once that only the count will follow. */
void cli_warn_row(void *ctx, const char *file, const char *msg);

/* Read argv[first..argc) as FEATURES WORDS META triples (what tbk-features
 * writes) into a new dataset: usage error unless they come in threes,
 * malformed rows warned about and counted in *skipped, a schema mismatch
 * exit 5, other errors exit 1 (the library's message names the file). */
tbk_dataset *cli_read_dataset(int argc, char **argv, int first, size_t *skipped);

/* ----- training options shared by tbk-train and tbk-eval cv */
enum {
  CLI_OPT_ENCODING = 1100,
  CLI_OPT_AUTO_C,
  CLI_OPT_WEIGHT_T,
  CLI_OPT_WEIGHT_C,
  CLI_OPT_NB_ALPHA,
  CLI_OPT_NB_FOLDS,
  CLI_OPT_NO_DEDUP,
  CLI_OPT_NO_BALANCE,
  CLI_OPT_MAX_SITE_ROWS,
  CLI_OPT_SPARSE_INTERVALS
};
#define CLI_TRAIN_LONGOPTS                                                                                        \
  {"encoding", required_argument, 0, CLI_OPT_ENCODING}, {"cost", required_argument, 0, 'C'},                      \
      {"auto-C", no_argument, 0, CLI_OPT_AUTO_C}, {"weight-template", required_argument, 0, CLI_OPT_WEIGHT_T},    \
      {"weight-content", required_argument, 0, CLI_OPT_WEIGHT_C},                                                 \
      {"nb-alpha", required_argument, 0, CLI_OPT_NB_ALPHA}, {"nb-folds", required_argument, 0, CLI_OPT_NB_FOLDS}, \
      {"no-dedup", no_argument, 0, CLI_OPT_NO_DEDUP}, {"no-balance", no_argument, 0, CLI_OPT_NO_BALANCE},         \
      {"max-site-rows", required_argument, 0, CLI_OPT_MAX_SITE_ROWS}, {                                           \
    "sparse-intervals", no_argument, 0, CLI_OPT_SPARSE_INTERVALS                                                  \
  }
extern const char cli_train_options_help[];
/* Handle one of CLI_TRAIN_LONGOPTS (or -C); returns 1 when it was one. */
int cli_train_option(tbk_train_options *o, int code, const char *arg);
#endif
