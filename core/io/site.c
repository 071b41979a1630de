/* Site keys: which pages are auto-labelled together. A site is a URL's
 * host without "www.", or its registered domain under the public-suffix
 * list (news.bbc.co.uk and www.bbc.co.uk are both the site bbc.co.uk). */
#include <ctype.h>
#include <libpsl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

/* Loaded once per process and never freed: reloading the list per URL would
 * dominate the cost of listing a WARC. */
static const psl_ctx_t *site_psl;
static pthread_once_t site_psl_once = PTHREAD_ONCE_INIT;

static void site_psl_load(void) {
  /* The distribution's list (Debian: /usr/share/publicsuffix) is newer than
   * the one compiled into libpsl. */
  site_psl = psl_latest(NULL);
  if (!site_psl) site_psl = psl_builtin();
}

static int is_ipv4(const char *h) {
  int dots = 0, digits = 0;
  for (; *h; h++) {
    if (*h == '.') {
      if (!digits) return 0;
      dots++;
      digits = 0;
    } else if (isdigit((unsigned char)*h)) {
      if (++digits > 3) return 0;
    } else {
      return 0;
    }
  }
  return dots == 3 && digits;
}

char *tbk_site_of_url(const char *url, tbk_site_key key) {
  if (!url) return NULL;
  const char *p = url;
  if (isalpha((unsigned char)*p)) {
    const char *q = p;
    while (isalnum((unsigned char)*q) || *q == '+' || *q == '-' || *q == '.') q++;
    if (strncmp(q, "://", 3) != 0) return NULL;
    p = q + 3;
  } else if (strncmp(p, "//", 2) == 0) {
    p += 2;
  } else {
    return NULL;
  }
  size_t alen = strcspn(p, "/?#");
  const char *host = p;
  for (size_t i = alen; i > 0; i--)
    if (p[i - 1] == '@') {
      host = p + i;
      break;
    }
  size_t hlen = alen - (size_t)(host - p);
  if (hlen && host[0] == '[') {
    const char *close = memchr(host, ']', hlen);
    if (!close) return NULL;
    host++;
    hlen = (size_t)(close - host);
  } else {
    const char *colon = memchr(host, ':', hlen);
    if (colon) hlen = (size_t)(colon - host);
  }
  while (hlen && host[hlen - 1] == '.') hlen--;
  if (hlen == 0) return NULL;
  char *h = malloc(hlen + 1);
  if (!h) return NULL;
  for (size_t i = 0; i < hlen; i++) {
    unsigned char c = (unsigned char)host[i];
    if (c <= ' ' || c == '\\' || c == '"' || c == '<' || c == '>') {
      free(h);
      return NULL;
    }
    h[i] = (char)tolower(c);
  }
  h[hlen] = '\0';
  if (memchr(h, ':', hlen) || is_ipv4(h)) return h; /* IP literal */

  const char *bare = h;
  if (strncmp(h, "www.", 4) == 0 && h[4]) bare = h + 4;
  const char *keep = bare;
  if (key == TBK_SITE_DOMAIN) {
    pthread_once(&site_psl_once, site_psl_load);
    const char *reg = site_psl ? psl_registrable_domain(site_psl, h) : NULL;
    if (reg) keep = reg;
  }
  if (keep != h) memmove(h, keep, strlen(keep) + 1);
  return h;
}
