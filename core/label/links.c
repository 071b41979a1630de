/* URL resolution and normalization, and the site's link graph built from
 * them (links.h). Resolution follows RFC 3986 section 5.2; the cleaning of
 * an href before it (whitespace, backslashes) follows what browsers do, so
 * a link resolves here to the page a browser would load. */
#include <stdlib.h>
#include <string.h>

#include "links.h"

typedef struct url_parts {
  const char *scheme, *auth, *path, *query;
  size_t scheme_n, auth_n, path_n, query_n;
  int has_scheme, has_auth, has_query;
} url_parts;

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
static int hexval(int c) {
  if (is_digit(c)) return c - '0';
  c = lower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Split a reference by RFC 3986 appendix B; the fragment is dropped. */
static void url_split(const char *s, size_t n, url_parts *u) {
  memset(u, 0, sizeof *u);
  size_t i = 0;
  if (n && is_alpha((unsigned char)s[0])) {
    size_t k = 1;
    while (k < n && (is_alpha((unsigned char)s[k]) || is_digit((unsigned char)s[k]) || s[k] == '+' || s[k] == '-' ||
                     s[k] == '.'))
      k++;
    if (k < n && s[k] == ':') {
      u->has_scheme = 1;
      u->scheme = s;
      u->scheme_n = k;
      i = k + 1;
    }
  }
  if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
    size_t k = i + 2;
    while (k < n && s[k] != '/' && s[k] != '?' && s[k] != '#') k++;
    u->has_auth = 1;
    u->auth = s + i + 2;
    u->auth_n = k - i - 2;
    i = k;
  }
  size_t k = i;
  while (k < n && s[k] != '?' && s[k] != '#') k++;
  u->path = s + i;
  u->path_n = k - i;
  i = k;
  if (i < n && s[i] == '?') {
    k = i + 1;
    while (k < n && s[k] != '#') k++;
    u->has_query = 1;
    u->query = s + i + 1;
    u->query_n = k - i - 1;
  }
}

static int scheme_is(const url_parts *u, const char *name) {
  size_t n = strlen(name);
  if (u->scheme_n != n) return 0;
  for (size_t i = 0; i < n; i++)
    if (lower((unsigned char)u->scheme[i]) != name[i]) return 0;
  return 1;
}

/* RFC 3986 5.2.4, on the path in p (n bytes), appended to out. */
static int remove_dots(const char *p, size_t n, tbk_buf *out) {
  size_t start = out->len;
  size_t i = 0;
  while (i < n) {
    const char *s = p + i;
    size_t left = n - i;
    if (left >= 3 && memcmp(s, "../", 3) == 0) i += 3;
    else if (left >= 2 && memcmp(s, "./", 2) == 0) i += 2;
    else if (left >= 3 && memcmp(s, "/./", 3) == 0) i += 2;
    else if (left == 2 && memcmp(s, "/.", 2) == 0) {
      if (tbk_buf_append(out, "/", 1)) return -1;
      i = n;
    } else if ((left >= 4 && memcmp(s, "/../", 4) == 0) || (left == 3 && memcmp(s, "/..", 3) == 0)) {
      while (out->len > start && out->data[out->len - 1] != '/') out->len--;
      if (out->len > start) out->len--;
      if (left == 3) {
        if (tbk_buf_append(out, "/", 1)) return -1;
        i = n;
      } else i += 3;
    } else if ((left == 1 && s[0] == '.') || (left == 2 && memcmp(s, "..", 2) == 0)) i = n;
    else {
      size_t k = s[0] == '/' ? 1 : 0;
      while (k < left && s[k] != '/') k++;
      if (tbk_buf_append(out, s, k)) return -1;
      i += k;
    }
  }
  if (out->data) out->data[out->len] = '\0';
  return 0;
}

static int unreserved(int c) { return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~'; }

/* Percent-encoding made canonical: escapes of unreserved characters
 * decoded, the others in upper case, a stray '%' escaped, and bytes a
 * browser would escape (controls, space, non-ASCII, quotes, angles)
 * escaped. */
static int pct_norm(const char *s, size_t n, tbk_buf *out) {
  static const char hex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    int v = -1;
    if (c == '%' && i + 2 < n) {
      int h1 = hexval((unsigned char)s[i + 1]), h2 = hexval((unsigned char)s[i + 2]);
      if (h1 >= 0 && h2 >= 0) v = h1 * 16 + h2;
    }
    if (v >= 0) {
      i += 2;
      if (unreserved(v)) {
        char ch = (char)v;
        if (tbk_buf_append(out, &ch, 1)) return -1;
        continue;
      }
      c = (unsigned char)v;
    } else if (!(c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '%')) {
      if (tbk_buf_append(out, s + i, 1)) return -1;
      continue;
    }
    char e[3] = {'%', hex[c >> 4], hex[c & 15]};
    if (tbk_buf_append(out, e, 3)) return -1;
  }
  return 0;
}

static const char *const index_files[] = {"index.html",  "index.htm",    "index.php",   "index.shtml",
                                          "default.htm", "default.html", "default.asp", "default.aspx"};

/* The authority without user info, host in lower case, a default port
 * (or an empty one) dropped. */
static int put_authority(const char *a, size_t n, int https, tbk_buf *out) {
  const char *at = memchr(a, '@', n);
  if (at) {
    n -= (size_t)(at + 1 - a);
    a = at + 1;
  }
  size_t host_n = n;
  /* An IPv6 literal's colons are not the port's. */
  const char *close = n && a[0] == '[' ? memchr(a, ']', n) : NULL;
  size_t from = close ? (size_t)(close - a) : 0;
  for (size_t i = n; i-- > from;)
    if (a[i] == ':') {
      host_n = i;
      break;
    }
  for (size_t i = 0; i < host_n; i++) {
    char c = (char)lower((unsigned char)a[i]);
    if (tbk_buf_append(out, &c, 1)) return -1;
  }
  if (host_n < n) {
    const char *port = a + host_n + 1;
    size_t pn = n - host_n - 1;
    while (pn > 1 && port[0] == '0') port++, pn--;
    int dflt = pn == 0 || (pn == 2 && memcmp(port, "80", 2) == 0 && !https) ||
               (pn == 3 && memcmp(port, "443", 3) == 0 && https);
    if (!dflt && (tbk_buf_append(out, ":", 1) || tbk_buf_append(out, port, pn))) return -1;
  }
  return 0;
}

/* Browsers strip leading and trailing C0 controls and spaces, drop tabs
 * and newlines anywhere, and read '\\' as '/' in http(s) URLs. */
static int clean_href(const char *href, size_t n, tbk_buf *ref) {
  while (n && (unsigned char)href[0] <= 0x20) href++, n--;
  while (n && (unsigned char)href[n - 1] <= 0x20) n--;
  if (tbk_buf_reserve(ref, n + 1)) return -1;
  for (size_t i = 0; i < n; i++) {
    char c = href[i];
    if (c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '\\') c = '/';
    if (tbk_buf_append(ref, &c, 1)) return -1;
  }
  return 0;
}

/* RFC 3986 5.2.2's target before it is written: whose scheme, which
 * authority and query; its dot-free path is in a buffer beside it. */
typedef struct url_target {
  const url_parts *scheme_of;
  const char *auth, *query;
  size_t auth_n, query_n;
  int has_query;
} url_target;

static void take_query(url_target *t, const url_parts *u) {
  t->query = u->query, t->query_n = u->query_n, t->has_query = u->has_query;
}

/* A reference with its own authority keeps its path and query. */
static int own_authority(const url_parts *r, url_target *t, tbk_buf *path) {
  t->auth = r->auth, t->auth_n = r->auth_n;
  take_query(t, r);
  return remove_dots(r->path, r->path_n, path) ? -1 : 1;
}

/* A relative path is merged with the base's directory (5.2.3). */
static int merge_path(const url_parts *r, const url_parts *b, tbk_buf *merged, tbk_buf *path) {
  if (r->path[0] == '/') {
    if (tbk_buf_append(merged, r->path, r->path_n)) return -1;
  } else {
    size_t keep = b->path_n;
    while (keep && b->path[keep - 1] != '/') keep--;
    if (!b->path_n && tbk_buf_append(merged, "/", 1)) return -1;
    if (tbk_buf_append(merged, b->path, keep) || tbk_buf_append(merged, r->path, r->path_n)) return -1;
  }
  return remove_dots(merged->data, merged->len, path) ? -1 : 1;
}

/* 1 the target is an http(s) URL, 0 it names none, -1 out of memory. The
 * target may point into b, so b lives in the caller. */
static int resolve_target(const url_parts *r, const char *base, url_parts *b, url_target *t, tbk_buf *merged,
                          tbk_buf *path) {
  if (r->has_scheme && r->has_auth) {
    t->scheme_of = r;
    return own_authority(r, t, path);
  }
  if (!base || !*base) return 0;
  url_split(base, strlen(base), b);
  if (!b->has_auth || !(scheme_is(b, "http") || scheme_is(b, "https"))) return 0;
  /* "http:page" with the base's scheme is relative (RFC 3986 5.2.2's
   * non-strict reading, as browsers do); another scheme names no host. */
  if (r->has_scheme && !scheme_is(b, r->scheme_n == 4 ? "http" : "https")) return 0;
  t->scheme_of = b;
  if (r->has_auth) return own_authority(r, t, path);
  t->auth = b->auth, t->auth_n = b->auth_n;
  if (!r->path_n) {
    take_query(t, r->has_query ? r : b);
    return tbk_buf_append(path, b->path, b->path_n) ? -1 : 1;
  }
  take_query(t, r);
  return merge_path(r, b, merged, path);
}

/* A trailing index file names its directory. */
static void drop_index_file(tbk_buf *out, size_t path_at) {
  size_t seg = out->len;
  while (seg > path_at && out->data[seg - 1] != '/') seg--;
  for (size_t k = 0; k < sizeof index_files / sizeof *index_files; k++) {
    size_t fl = strlen(index_files[k]);
    if (out->len - seg != fl) continue;
    size_t j = 0;
    while (j < fl && lower((unsigned char)out->data[seg + j]) == index_files[k][j]) j++;
    if (j == fl) {
      out->len = seg;
      return;
    }
  }
}

static int write_url(const url_target *t, const tbk_buf *path, tbk_buf *out) {
  int https = scheme_is(t->scheme_of, "https");
  if (tbk_buf_puts(out, https ? "https://" : "http://") || put_authority(t->auth, t->auth_n, https, out)) return -1;
  size_t path_at = out->len;
  if ((!path->len || path->data[0] != '/') && tbk_buf_append(out, "/", 1)) return -1;
  if (path->len && pct_norm(path->data, path->len, out)) return -1;
  drop_index_file(out, path_at);
  if (t->has_query && t->query_n && (tbk_buf_append(out, "?", 1) || pct_norm(t->query, t->query_n, out))) return -1;
  if (tbk_buf_reserve(out, 1)) return -1;
  out->data[out->len] = '\0';
  return 0;
}

int tbk_url_resolve(const char *base, const char *href, size_t n, tbk_buf *out) {
  tbk_buf ref = {0}, path = {0}, merged = {0};
  url_parts r, b;
  url_target t = {0};
  int rc = clean_href(href, n, &ref);
  if (rc == 0) {
    url_split(ref.data ? ref.data : "", ref.len, &r);
    int skip = !ref.len || ref.data[0] == '#' || (r.has_scheme && !scheme_is(&r, "http") && !scheme_is(&r, "https"));
    rc = skip ? 0 : resolve_target(&r, base, &b, &t, &merged, &path);
    if (rc == 1 && !t.auth_n) rc = 0;
    if (rc == 1) {
      size_t start = out->len;
      rc = write_url(&t, &path, out);
      if (rc) {
        out->len = start;
        if (out->data) out->data[out->len] = '\0';
      }
    } else if (rc == 0) {
      rc = 1;
    }
  }
  tbk_buf_free(&ref);
  tbk_buf_free(&path);
  tbk_buf_free(&merged);
  return rc;
}

int tbk_url_key(const char *url, tbk_buf *out) {
  const char *s = strstr(url, "://");
  s = s ? s + 3 : url;
  if (strncmp(s, "www.", 4) == 0) s += 4;
  return tbk_buf_puts(out, s);
}

typedef struct href_acc {
  tbk_buf *buf;
  int in_href, done;
} href_acc;

static void take_href(void *ctx, const char *name, const char *chunk) {
  href_acc *h = ctx;
  if (h->done < 0 || strcmp(name, "href") != 0) return;
  if (!chunk) {
    if (h->in_href) h->done = 1;
    h->in_href = 0;
    return;
  }
  if (h->done) return; /* a second href attribute: the first counts */
  h->in_href = 1;
  if (tbk_buf_puts(h->buf, chunk)) h->done = -1;
}

int tbk_page_link_base(const tbk_page *page, const char *site, const char *page_id, const char *url, tbk_buf *out) {
  tbk_buf own = {0}, bh = {0};
  int rc = 1;
  if (url && *url) {
    int r = tbk_url_resolve(NULL, url, strlen(url), &own);
    if (r < 0) goto nomem;
  }
  if (page && tbk_page_base_href(page, &bh)) goto nomem;
  if (!own.len && page_id && site && *site) {
    /* A mirror on disk: the path below the directory named after the site. */
    size_t sl = strlen(site);
    const char *rel = page_id;
    for (const char *p = page_id; *p; p++)
      if ((p == page_id || p[-1] == '/') && strncmp(p, site, sl) == 0 && p[sl] == '/') {
        rel = p + sl + 1;
        break;
      }
    tbk_buf tmp = {0};
    int bad = tbk_buf_puts(&tmp, "http://") || tbk_buf_puts(&tmp, site) || tbk_buf_puts(&tmp, "/") ||
              tbk_buf_puts(&tmp, rel);
    int r = bad ? -1 : tbk_url_resolve(NULL, tmp.data, tmp.len, &own);
    tbk_buf_free(&tmp);
    if (r < 0) goto nomem;
  }
  if (bh.len) {
    int r = tbk_url_resolve(own.len ? own.data : NULL, bh.data, bh.len, out);
    if (r < 0) goto nomem;
    if (r == 0) {
      rc = 0;
      goto done;
    }
  }
  if (own.len) {
    if (tbk_buf_append(out, own.data, own.len) || tbk_buf_reserve(out, 1)) goto nomem;
    out->data[out->len] = '\0';
    rc = 0;
  }
  goto done;
nomem:
  rc = -1;
done:
  tbk_buf_free(&own);
  tbk_buf_free(&bh);
  return rc;
}

/* ----- the graph */

struct tbk_link_builder {
  tbk_buf arena;      /* NUL-terminated keys */
  size_t *page_key;   /* each page's key in arena, SIZE_MAX: none */
  size_t *link_start; /* each page's first entry of links */
  size_t n_pages, cap_pages;
  size_t *links; /* keys in arena, pages' links one after another */
  size_t n_links, cap_links;
  size_t resolved;
};

tbk_status tbk_link_builder_new(tbk_link_builder **out, tbk_error *err) {
  *out = calloc(1, sizeof **out);
  return *out ? TBK_OK : tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
}

void tbk_link_builder_free(tbk_link_builder *b) {
  if (!b) return;
  tbk_buf_free(&b->arena);
  free(b->page_key);
  free(b->link_start);
  free(b->links);
  free(b);
}

static int arena_key(tbk_link_builder *b, const char *url, size_t *at) {
  *at = b->arena.len;
  return tbk_url_key(url, &b->arena) || tbk_buf_append(&b->arena, "", 1);
}

tbk_status tbk_link_builder_add(tbk_link_builder *b, const tbk_page *page, const char *site, const char *page_id,
                                const char *url, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(page);
  tbk_buf base = {0}, href = {0}, abs = {0};
  tbk_status st = TBK_OK;
  if (TBK_GROW_ALL(&b->cap_pages, b->n_pages + 1, TBK_ARRAY(b->page_key), TBK_ARRAY(b->link_start))) goto nomem;
  size_t i = b->n_pages;
  b->page_key[i] = SIZE_MAX;
  b->link_start[i] = b->n_links;
  /* The page's own key: its URL, else its mirror path (not its <base>). */
  int r = tbk_page_link_base(NULL, site, page_id, url, &abs);
  if (r < 0) goto nomem;
  if (r == 0 && arena_key(b, abs.data, &b->page_key[i])) goto nomem;
  r = tbk_page_link_base(page, site, page_id, url, &base);
  if (r < 0) goto nomem;
  for (size_t k = 0; k < pv.n_nodes; k++) {
    if (pv.nodes[k].tag != TBK_TAG_A) continue;
    href.len = 0;
    href_acc h = {&href, 0, 0};
    tbk_node_attrs(&pv.nodes[k], take_href, &h);
    if (h.done < 0) goto nomem;
    if (!h.done) continue;
    abs.len = 0;
    r = tbk_url_resolve(base.len ? base.data : NULL, href.data ? href.data : "", href.len, &abs);
    if (r < 0) goto nomem;
    if (r) continue;
    if (tbk_grow(&b->links, &b->cap_links, b->n_links + 1, sizeof *b->links)) goto nomem;
    if (arena_key(b, abs.data, &b->links[b->n_links])) goto nomem;
    b->n_links++;
    b->resolved++;
  }
  b->n_pages++;
  goto done;
nomem:
  b->n_links = b->n_pages < b->cap_pages ? b->link_start[b->n_pages] : b->n_links;
  st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
done:
  tbk_buf_free(&base);
  tbk_buf_free(&href);
  tbk_buf_free(&abs);
  return st;
}

typedef struct key_slot {
  uint64_t hash;
  size_t key; /* in arena */
  uint32_t page;
  int used;
} key_slot;

/* The slot of key k in t (cap a power of two): its own, or the free one
 * where it would go; *h gets its hash. */
static size_t slot_of(const key_slot *t, size_t cap, const char *arena, const char *k, uint64_t *h) {
  *h = tbk_hash64(k, strlen(k));
  size_t s = *h & (cap - 1);
  while (t[s].used && !(t[s].hash == *h && strcmp(arena + t[s].key, k) == 0)) s = (s + 1) & (cap - 1);
  return s;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

tbk_status tbk_link_builder_finish(tbk_link_builder *b, tbk_link_graph *g, tbk_error *err) {
  memset(g, 0, sizeof *g);
  size_t cap = 16;
  while (cap < b->n_pages * 2 + 2) cap *= 2;
  key_slot *t = calloc(cap, sizeof *t);
  uint32_t *seen = calloc(b->n_pages + 1, sizeof *seen);
  g->off = malloc((b->n_pages + 1) * sizeof *g->off);
  g->dst = malloc((b->n_links + 1) * sizeof *g->dst);
  g->sorted = malloc((b->n_links + 1) * sizeof *g->sorted);
  if (!t || !seen || !g->off || !g->dst || !g->sorted) {
    free(t);
    free(seen);
    tbk_link_graph_free(g);
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  for (size_t i = 0; i < b->n_pages; i++) {
    if (b->page_key[i] == SIZE_MAX) continue;
    uint64_t h;
    size_t s = slot_of(t, cap, b->arena.data, b->arena.data + b->page_key[i], &h);
    if (!t[s].used) t[s] = (key_slot){h, b->page_key[i], (uint32_t)i, 1};
  }
  size_t n = 0;
  for (size_t i = 0; i < b->n_pages; i++) {
    g->off[i] = (uint32_t)n;
    size_t end = i + 1 < b->n_pages ? b->link_start[i + 1] : b->n_links;
    for (size_t l = b->link_start[i]; l < end; l++) {
      uint64_t h;
      size_t s = slot_of(t, cap, b->arena.data, b->arena.data + b->links[l], &h);
      if (!t[s].used || t[s].page == i) continue;
      uint32_t d = t[s].page;
      /* seen[d] holds 1 + the last page that linked to d. */
      if (seen[d] == i + 1) continue;
      seen[d] = (uint32_t)i + 1;
      g->dst[n++] = d;
    }
    memcpy(g->sorted + g->off[i], g->dst + g->off[i], (n - g->off[i]) * sizeof *g->dst);
    qsort(g->sorted + g->off[i], n - g->off[i], sizeof *g->sorted, cmp_u32);
  }
  g->off[b->n_pages] = (uint32_t)n;
  g->n = b->n_pages;
  g->n_links = b->resolved;
  free(t);
  free(seen);
  return TBK_OK;
}

void tbk_link_graph_free(tbk_link_graph *g) {
  free(g->off);
  free(g->dst);
  free(g->sorted);
  memset(g, 0, sizeof *g);
}

int tbk_link_graph_has(const tbk_link_graph *g, uint32_t a, uint32_t b) {
  if (a >= g->n) return 0;
  const uint32_t *lo = g->sorted + g->off[a];
  size_t n = g->off[a + 1] - g->off[a];
  while (n) {
    size_t h = n / 2;
    if (lo[h] < b) {
      lo += h + 1;
      n -= h + 1;
    } else n = h;
  }
  return lo < g->sorted + g->off[a + 1] && *lo == b;
}
