/* Progress of long runs on stderr. On a terminal: one line, redrawn in
 * place at most five times a second (done of total, rate, MB/s, ETA).
 * Elsewhere (a Slurm log, a pipe) nothing unless asked with --progress,
 * then a plain line every ten seconds and one at the end. Messages printed
 * meanwhile (cli_warn, cli_error) first clear the line, so they never mix. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static cli_progress *active; /* the one on screen, for vmsg to clear */

double cli_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void cli_progress_clear(void) {
  if (active && active->shown) {
    fputs("\r\033[K", stderr);
    active->shown = 0;
  }
}

void cli_progress_start(cli_progress *p, int want, const char *unit, size_t total) {
  memset(p, 0, sizeof *p);
  int tty = isatty(STDERR_FILENO);
  p->mode = want == CLI_PROGRESS_OFF  ? CLI_PROGRESS_OFF
            : tty                     ? CLI_PROGRESS_LINE
            : want == CLI_PROGRESS_ON ? CLI_PROGRESS_LOG
                                      : CLI_PROGRESS_OFF;
  p->unit = unit;
  p->total = total;
  p->t0 = cli_now();
  p->last = -1e9; /* the first step draws at once */
  if (p->mode != CLI_PROGRESS_OFF) active = p;
}

static void format_eta(char *b, size_t n, double s) {
  if (s < 0 || s > 1e7) snprintf(b, n, "?");
  else if (s < 60) snprintf(b, n, "%.0fs", s);
  else if (s < 3600) snprintf(b, n, "%dm%02ds", (int)s / 60, (int)s % 60);
  else snprintf(b, n, "%dh%02dm", (int)s / 3600, (int)s / 60 % 60);
}

static void show(cli_progress *p, const char *line, double t);

static void draw(cli_progress *p, double t, int final) {
  double el = t - p->t0 > 1e-9 ? t - p->t0 : 1e-9;
  char line[256], eta[32] = "";
  if (!p->unit) { /* steps without a count (training): time and what is being done */
    int k = snprintf(line, sizeof line, "%s: %.1fs", cli_prog(), el);
    if (p->note[0] && k > 0 && (size_t)k < sizeof line) snprintf(line + k, sizeof line - (size_t)k, " — %s", p->note);
    show(p, line, t);
    return;
  }
  int k = snprintf(line, sizeof line, "%s: %zu", cli_prog(), p->done);
  if (p->total) k += snprintf(line + k, sizeof line - (size_t)k, "/%zu", p->total);
  k += snprintf(line + k, sizeof line - (size_t)k, " %s", p->unit);
  if (p->total)
    k += snprintf(line + k, sizeof line - (size_t)k, " (%.1f%%)", 100.0 * (double)p->done / (double)p->total);
  k += snprintf(line + k, sizeof line - (size_t)k, ", %.0f %s/s", (double)p->done / el, p->unit);
  if (p->bytes) k += snprintf(line + k, sizeof line - (size_t)k, ", %.1f MB/s", (double)p->bytes / 1e6 / el);
  if (final) {
    k += snprintf(line + k, sizeof line - (size_t)k, ", %.1fs", el);
  } else if (p->total && p->done) {
    format_eta(eta, sizeof eta, el * (double)(p->total - p->done) / (double)p->done);
    k += snprintf(line + k, sizeof line - (size_t)k, ", ETA %s", eta);
  }
  if (p->note[0] && k > 0 && (size_t)k < sizeof line) snprintf(line + k, sizeof line - (size_t)k, " — %s", p->note);
  show(p, line, t);
}

static void show(cli_progress *p, const char *line, double t) {
  if (p->mode == CLI_PROGRESS_LINE) {
    fprintf(stderr, "\r\033[K%s", line);
    p->shown = 1;
  } else {
    fprintf(stderr, "%s: progress: %s\n", cli_prog(), line + strlen(cli_prog()) + 2);
  }
  fflush(stderr);
  p->last = t;
}

void cli_progress_step(cli_progress *p, size_t done, uint64_t bytes) {
  if (p->mode == CLI_PROGRESS_OFF) return;
  p->done = done;
  p->bytes += bytes;
  double t = cli_now();
  if (t - p->last >= (p->mode == CLI_PROGRESS_LINE ? 0.2 : 10.0)) draw(p, t, 0);
}

void cli_progress_note(cli_progress *p, const char *what) {
  if (p->mode == CLI_PROGRESS_OFF) return;
  snprintf(p->note, sizeof p->note, "%s", what);
  draw(p, cli_now(), 0);
}

void cli_progress_end(cli_progress *p) {
  if (p->mode == CLI_PROGRESS_OFF) return;
  if (p->mode == CLI_PROGRESS_LOG) draw(p, cli_now(), 1);
  cli_progress_clear();
  if (active == p) active = NULL;
  p->mode = CLI_PROGRESS_OFF;
}

int cli_progress_option(int *want, int code) {
  if (code == CLI_OPT_PROGRESS) *want = CLI_PROGRESS_ON;
  else if (code == CLI_OPT_NO_PROGRESS) *want = CLI_PROGRESS_OFF;
  else return 0;
  return 1;
}
