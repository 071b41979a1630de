/* WARC pages' JSONL with each record's trace after its "page" member
 * (cli.h: cli_trace_put). */
#include <string.h>

#include "cli.h"

/* The buffer's sink writes whole lines only, so every chunk starts at a
 * line start. */
int cli_trace_put(void *ctx, const char *data, size_t n) {
  cli_trace_sink *t = ctx;
  static const char key[] = "{\"page\":\"";
  const size_t kl = sizeof key - 1;
  if (!t->trace->len) return t->write(t->ctx, data, n);
  while (n) {
    const char *nl = memchr(data, '\n', n);
    size_t len = nl ? (size_t)(nl - data) + 1 : n, at = 0;
    if (len > kl && memcmp(data, key, kl) == 0)
      for (size_t i = kl; i < len; i++) {
        if (data[i] == '\\') i++;
        else if (data[i] == '"') {
          at = i + 1;
          break;
        }
      }
    if (at && (t->write(t->ctx, data, at) || t->write(t->ctx, t->trace->data, t->trace->len))) return -1;
    if (t->write(t->ctx, data + at, len - at)) return -1;
    data += len, n -= len;
  }
  return 0;
}
