/* tbk_page_metadata: what a page declares about itself (title, author,
 * dates, site name, language...) from its decoded source: <meta> (Open
 * Graph, Dublin Core, article:*, itemprop), JSON-LD, <html lang>, <link
 * rel=canonical> and <title>. A byte scanner over the decoded source, not
 * a second parse: tags are found as an HTML tokenizer finds them (comments,
 * script and style contents skipped), attribute values entity-decoded.
 * The same scan gives the parse a Recipe's declared text
 * (tbk_jsonld_recipe), which the content stage keeps. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "page_internal.h"

enum field { F_TITLE, F_AUTHOR, F_DATE, F_MODIFIED, F_SITE, F_LANG, F_DESC, F_URL, F_IMAGE, F_KEYWORDS, F_TYPE, F_N };
static const char *const field_names[F_N] = {"title",       "author", "date",  "date_modified", "site_name", "language",
                                             "description", "url",    "image", "keywords",      "type"};

/* The <meta> keys of each field (name, property or itemprop, lower case),
 * best first. */
static const char *const meta_keys[F_N][12] = {
    [F_TITLE] = {"og:title", "twitter:title", "dc.title", "citation_title", "headline", NULL},
    [F_AUTHOR] = {"author", "article:author", "og:article:author", "byl", "dc.creator", "dcterms.creator",
                  "parsely-author", "sailthru.author", "citation_author", NULL},
    [F_DATE] = {"article:published_time", "og:article:published_time", "datepublished", "published_time", "pubdate",
                "publishdate", "date", "dc.date.issued", "dc.date", "dcterms.created", "parsely-pub-date",
                "citation_publication_date"},
    [F_MODIFIED] = {"article:modified_time", "og:updated_time", "datemodified", "dcterms.modified", "last-modified",
                    NULL},
    [F_SITE] = {"og:site_name", "application-name", "publisher", NULL},
    [F_LANG] = {"content-language", "og:locale", "dc.language", "inlanguage", "language", NULL},
    [F_DESC] = {"og:description", "description", "twitter:description", "dc.description", NULL},
    [F_URL] = {"og:url", "twitter:url", NULL},
    [F_IMAGE] = {"og:image", "og:image:url", "twitter:image", NULL},
    [F_KEYWORDS] = {"keywords", "news_keywords", NULL},
    [F_TYPE] = {"og:type", NULL},
};

/* Ranks outside the meta keys' 0..11: preferred sources and fallbacks. */
#define RANK_FIRST (-1)
#define RANK_LAST 100
#define RANK_NONE 1000

typedef struct meta {
  tbk_buf val[F_N];
  int rank[F_N];
  int oom;
  tbk_buf *recipe; /* non-NULL: collect a Recipe's declared text here (tbk_jsonld_recipe) */
} meta;

static void offer(meta *m, int f, int rank, const char *s, size_t n) {
  while (n && isspace((unsigned char)*s)) s++, n--;
  while (n && isspace((unsigned char)s[n - 1])) n--;
  if (!n || rank >= m->rank[f]) return;
  m->val[f].len = 0;
  if (tbk_buf_append(&m->val[f], s, n)) m->oom = 1;
  m->rank[f] = rank;
}

/* ----------------------------------------------------------- attributes */

static int lc_eq(const char *s, size_t n, const char *want) {
  return strlen(want) == n && strncasecmp(s, want, n) == 0;
}

static int put_utf8(tbk_buf *b, unsigned long c) {
  char u[4];
  size_t k;
  if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
  if (c < 0x80) u[0] = (char)c, k = 1;
  else if (c < 0x800) u[0] = (char)(0xC0 | c >> 6), u[1] = (char)(0x80 | (c & 0x3F)), k = 2;
  else if (c < 0x10000)
    u[0] = (char)(0xE0 | c >> 12), u[1] = (char)(0x80 | ((c >> 6) & 0x3F)), u[2] = (char)(0x80 | (c & 0x3F)), k = 3;
  else
    u[0] = (char)(0xF0 | c >> 18), u[1] = (char)(0x80 | ((c >> 12) & 0x3F)), u[2] = (char)(0x80 | ((c >> 6) & 0x3F)),
    u[3] = (char)(0x80 | (c & 0x3F)), k = 4;
  return tbk_buf_append(b, u, k);
}

/* s[0..n) with the common character references decoded, into out. */
static int decode_entities(const char *s, size_t n, tbk_buf *out) {
  static const struct {
    const char *name;
    unsigned long c;
  } named[] = {{"amp", '&'},      {"lt", '<'},       {"gt", '>'},       {"quot", '"'},      {"apos", '\''},
               {"nbsp", 0xA0},    {"ndash", 0x2013}, {"mdash", 0x2014}, {"hellip", 0x2026}, {"rsquo", 0x2019},
               {"lsquo", 0x2018}, {"ldquo", 0x201C}, {"rdquo", 0x201D}, {"copy", 0xA9},     {"reg", 0xAE},
               {"auml", 0xE4},    {"ouml", 0xF6},    {"uuml", 0xFC},    {"Auml", 0xC4},     {"Ouml", 0xD6},
               {"Uuml", 0xDC},    {"szlig", 0xDF},   {"eacute", 0xE9},  {"egrave", 0xE8},   {"ecirc", 0xEA},
               {"agrave", 0xE0},  {"aacute", 0xE1},  {"acirc", 0xE2},   {"ccedil", 0xE7},   {"iacute", 0xED},
               {"oacute", 0xF3},  {"uacute", 0xFA},  {"ntilde", 0xF1},  {"Eacute", 0xC9}};
  out->len = 0;
  for (size_t i = 0; i < n;) {
    if (s[i] == '&') {
      size_t j = i + 1;
      unsigned long c = 0;
      int ok = 0;
      if (j < n && s[j] == '#') {
        int hex = j + 1 < n && (s[j + 1] == 'x' || s[j + 1] == 'X');
        size_t k = j + 1 + (size_t)hex, d0 = k;
        for (; k < n && (hex ? isxdigit((unsigned char)s[k]) : isdigit((unsigned char)s[k])) && k - d0 < 8; k++)
          c = c * (hex ? 16 : 10) +
              (unsigned long)(isdigit((unsigned char)s[k]) ? s[k] - '0' : (tolower((unsigned char)s[k]) - 'a' + 10));
        if (k > d0) ok = 1, j = k;
      } else {
        for (size_t e = 0; e < sizeof named / sizeof *named; e++) {
          size_t l = strlen(named[e].name);
          if (j + l <= n && memcmp(s + j, named[e].name, l) == 0) {
            c = named[e].c, ok = 1, j += l;
            break;
          }
        }
      }
      if (ok) {
        if (j < n && s[j] == ';') j++;
        if (put_utf8(out, c)) return -1;
        i = j;
        continue;
      }
    }
    if (tbk_buf_append(out, s + i, 1)) return -1;
    i++;
  }
  return tbk_buf_append(out, "", 0);
}

typedef struct attr {
  const char *name, *val;
  size_t nn, vn;
} attr;

/* The attributes of the tag whose name ends at s[*i]; *i moves past its
 * '>'. Returns how many were stored (at most cap). */
static size_t read_attrs(const char *s, size_t n, size_t *i, attr *a, size_t cap) {
  size_t k = 0, p = *i;
  while (p < n && s[p] != '>') {
    if (isspace((unsigned char)s[p]) || s[p] == '/') {
      p++;
      continue;
    }
    size_t ns = p;
    while (p < n && !isspace((unsigned char)s[p]) && s[p] != '=' && s[p] != '>' && s[p] != '/') p++;
    attr at = {s + ns, "", p - ns, 0};
    while (p < n && isspace((unsigned char)s[p])) p++;
    if (p < n && s[p] == '=') {
      p++;
      while (p < n && isspace((unsigned char)s[p])) p++;
      if (p < n && (s[p] == '"' || s[p] == '\'')) {
        char q = s[p++];
        size_t vs = p;
        while (p < n && s[p] != q) p++;
        at.val = s + vs, at.vn = p - vs;
        if (p < n) p++;
      } else {
        size_t vs = p;
        while (p < n && !isspace((unsigned char)s[p]) && s[p] != '>') p++;
        at.val = s + vs, at.vn = p - vs;
      }
    }
    if (at.nn && k < cap) a[k++] = at;
  }
  *i = p < n ? p + 1 : n;
  return k;
}

static const attr *find_attr(const attr *a, size_t k, const char *name) {
  for (size_t i = 0; i < k; i++)
    if (lc_eq(a[i].name, a[i].nn, name)) return &a[i];
  return NULL;
}

/* ---------------------------------------------------------------- JSON-LD */

/* A small JSON tree: nodes in document order, children linked. */
enum jtype { J_OBJ, J_ARR, J_STR, J_OTHER };
typedef struct jnode {
  int type;
  size_t key;   /* offset of the member's key in strs (SIZE_MAX: none) */
  size_t str;   /* J_STR: offset of the value in strs */
  size_t first; /* first child (SIZE_MAX: none) */
  size_t next;  /* next sibling */
} jnode;
typedef struct jtree {
  jnode *n;
  size_t len, cap;
  tbk_buf strs;
  const char *s;
  size_t sn, pos;
  int bad;
} jtree;

#define JNONE ((size_t)-1)
#define JMAX_NODES 200000
#define JMAX_DEPTH 64

static void jws(jtree *t) {
  while (t->pos < t->sn && isspace((unsigned char)t->s[t->pos])) t->pos++;
}

static size_t jstr(jtree *t) {
  size_t off = t->strs.len;
  const char *why;
  if (tbk_json_read_str(t->s, t->sn, &t->pos, &t->strs, 1, &why) || tbk_buf_append(&t->strs, "", 1)) {
    t->bad = 1;
    return 0;
  }
  return off;
}

static size_t jnew(jtree *t, int type, size_t key) {
  if (t->len >= JMAX_NODES) {
    t->bad = 1;
    return JNONE;
  }
  if (t->len == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 64;
    jnode *n = realloc(t->n, cap * sizeof *n);
    if (!n) {
      t->bad = 1;
      return JNONE;
    }
    t->n = n, t->cap = cap;
  }
  t->n[t->len] = (jnode){type, key, 0, JNONE, JNONE};
  return t->len++;
}

static size_t jvalue(jtree *t, size_t key, int depth) {
  jws(t);
  if (t->bad || t->pos >= t->sn || depth > JMAX_DEPTH) {
    t->bad = 1;
    return JNONE;
  }
  char c = t->s[t->pos];
  if (c == '"') {
    size_t off = jstr(t);
    size_t x = jnew(t, J_STR, key);
    if (x != JNONE) t->n[x].str = off;
    return x;
  }
  if (c == '{' || c == '[') {
    size_t x = jnew(t, c == '{' ? J_OBJ : J_ARR, key);
    if (x == JNONE) return x;
    t->pos++;
    size_t last = JNONE;
    for (;;) {
      jws(t);
      if (t->pos >= t->sn) {
        t->bad = 1;
        return JNONE;
      }
      if (t->s[t->pos] == (c == '{' ? '}' : ']')) {
        t->pos++;
        return x;
      }
      if (last != JNONE) {
        if (t->s[t->pos] != ',') {
          t->bad = 1;
          return JNONE;
        }
        t->pos++;
        jws(t);
      }
      size_t k = JNONE;
      if (c == '{') {
        if (t->pos >= t->sn || t->s[t->pos] != '"') {
          t->bad = 1;
          return JNONE;
        }
        k = jstr(t);
        jws(t);
        if (t->bad || t->pos >= t->sn || t->s[t->pos] != ':') {
          t->bad = 1;
          return JNONE;
        }
        t->pos++;
      }
      size_t v = jvalue(t, k, depth + 1);
      if (v == JNONE) return JNONE;
      if (last == JNONE) t->n[x].first = v;
      else t->n[last].next = v;
      last = v;
    }
  }
  /* number, true, false, null */
  size_t st = t->pos;
  while (t->pos < t->sn && (isalnum((unsigned char)t->s[t->pos]) || strchr("+-.", t->s[t->pos]))) t->pos++;
  if (t->pos == st) {
    t->bad = 1;
    return JNONE;
  }
  return jnew(t, J_OTHER, key);
}

static const char *jkey(const jtree *t, size_t x) { return t->n[x].key == JNONE ? "" : t->strs.data + t->n[x].key; }
static const char *jsval(const jtree *t, size_t x) { return t->strs.data + t->n[x].str; }

static size_t jmember(const jtree *t, size_t obj, const char *key) {
  if (t->n[obj].type != J_OBJ) return JNONE;
  for (size_t c = t->n[obj].first; c != JNONE; c = t->n[c].next)
    if (strcmp(jkey(t, c), key) == 0) return c;
  return JNONE;
}

/* The string of a member (or of its first string element, or of its
 * object's "name" / "@value"), NULL when none. */
static const char *jtext(const jtree *t, size_t x) {
  if (x == JNONE) return NULL;
  if (t->n[x].type == J_STR) return jsval(t, x);
  if (t->n[x].type == J_OBJ) {
    const char *s = jtext(t, jmember(t, x, "name"));
    return s ? s : jtext(t, jmember(t, x, "@value"));
  }
  if (t->n[x].type == J_ARR)
    for (size_t c = t->n[x].first; c != JNONE; c = t->n[c].next) {
      const char *s = jtext(t, c);
      if (s && *s) return s;
    }
  return NULL;
}

static int type_has(const jtree *t, size_t obj, const char *const *words) {
  size_t ty = jmember(t, obj, "@type");
  if (ty == JNONE) return 0;
  size_t one = ty, end = t->n[ty].next;
  if (t->n[ty].type == J_ARR) one = t->n[ty].first, end = JNONE;
  for (size_t c = one; c != end && c != JNONE; c = t->n[c].next) {
    if (t->n[c].type != J_STR) continue;
    for (const char *const *w = words; *w; w++)
      if (strstr(jsval(t, c), *w)) return 1;
    if (one == ty) break;
  }
  return 0;
}

/* Every author name of an object's "author" (a string, a Person, or an
 * array of them), "; "-separated, into out. */
static int jauthors(const jtree *t, size_t x, tbk_buf *out) {
  out->len = 0;
  if (x == JNONE) return 0;
  size_t one = x, end = t->n[x].next;
  if (t->n[x].type == J_ARR) one = t->n[x].first, end = JNONE;
  for (size_t c = one; c != end && c != JNONE; c = t->n[c].next) {
    const char *s = t->n[c].type == J_ARR ? NULL : jtext(t, c);
    if (!s || !*s || strncmp(s, "http", 4) == 0) continue;
    if ((out->len && tbk_buf_puts(out, "; ")) || tbk_buf_puts(out, s)) return -1;
    if (one == x) break;
  }
  return 0;
}

/* A recipe's text as JSON-LD writes it: a string, an array of them, a
 * HowToStep's "text", a HowToSection's "itemListElement"; each string
 * with its whitespace collapsed as the page's text is (tbk_text_normalize),
 * NUL-terminated, into out, up to RECIPE_MAX bytes: the content stage
 * searches every unit's text in it, and a hostile page could declare
 * megabytes. */
#define RECIPE_MAX 32768
static int recipe_strings(const jtree *t, size_t x, int depth, tbk_buf *out) {
  if (x == JNONE || depth > JMAX_DEPTH || out->len >= RECIPE_MAX) return 0;
  if (t->n[x].type == J_STR) {
    const char *v = jsval(t, x);
    size_t before = out->len;
    if (tbk_text_normalize(v, strlen(v), out)) return -1;
    if (out->len > RECIPE_MAX) out->len = RECIPE_MAX;
    return out->len > before && tbk_buf_append(out, "", 1) ? -1 : 0;
  }
  if (t->n[x].type == J_ARR) {
    for (size_t c = t->n[x].first; c != JNONE; c = t->n[c].next)
      if (recipe_strings(t, c, depth + 1, out)) return -1;
    return 0;
  }
  if (t->n[x].type != J_OBJ) return 0;
  size_t text = jmember(t, x, "text");
  return recipe_strings(t, text != JNONE ? text : jmember(t, x, "itemListElement"), depth + 1, out);
}

static void jsonld_object(meta *m, const jtree *t, size_t o, tbk_buf *tmp) {
  static const char *const article[] = {"Article", "Posting", "Report", "Review", "Recipe", NULL};
  static const char *const site[] = {"WebSite", "Organization", NULL};
  static const char *const recipe[] = {"Recipe", NULL};
  if (m->recipe && type_has(t, o, recipe) &&
      (recipe_strings(t, jmember(t, o, "recipeIngredient"), 0, m->recipe) ||
       recipe_strings(t, jmember(t, o, "recipeInstructions"), 0, m->recipe)))
    m->oom = 1;
  if (m->recipe) return;
  int is_article = type_has(t, o, article);
  if (is_article) {
    const char *s;
    if ((s = jtext(t, jmember(t, o, "headline")))) offer(m, F_TITLE, RANK_LAST - 1, s, strlen(s));
    if (jauthors(t, jmember(t, o, "author"), tmp)) m->oom = 1;
    else offer(m, F_AUTHOR, RANK_FIRST, tmp->data, tmp->len);
    if ((s = jtext(t, jmember(t, o, "datePublished")))) offer(m, F_DATE, RANK_FIRST, s, strlen(s));
    if ((s = jtext(t, jmember(t, o, "dateModified")))) offer(m, F_MODIFIED, RANK_FIRST, s, strlen(s));
    if ((s = jtext(t, jmember(t, o, "publisher")))) offer(m, F_SITE, RANK_LAST - 1, s, strlen(s));
    if ((s = jtext(t, jmember(t, o, "inLanguage")))) offer(m, F_LANG, RANK_LAST - 1, s, strlen(s));
    if ((s = jtext(t, jmember(t, o, "description")))) offer(m, F_DESC, RANK_LAST - 1, s, strlen(s));
    if ((s = jtext(t, jmember(t, o, "@type")))) offer(m, F_TYPE, RANK_LAST - 1, s, strlen(s));
  } else if (type_has(t, o, site)) {
    const char *s = jtext(t, jmember(t, o, "name"));
    if (s) offer(m, F_SITE, RANK_LAST, s, strlen(s));
  }
}

static void jsonld(meta *m, const char *s, size_t n) {
  jtree t = {0};
  t.s = s, t.sn = n;
  /* Some sites wrap the JSON in <!-- --> or CDATA. */
  jws(&t);
  if (t.pos + 4 <= n && memcmp(s + t.pos, "<!--", 4) == 0) t.pos += 4;
  size_t root = jvalue(&t, JNONE, 0);
  if (root != JNONE && !t.bad) {
    tbk_buf tmp = {0};
    for (size_t x = 0; x < t.len; x++)
      if (t.n[x].type == J_OBJ) jsonld_object(m, &t, x, &tmp);
    tbk_buf_free(&tmp);
  }
  free(t.n);
  tbk_buf_free(&t.strs);
}

/* ---------------------------------------------------------------- scan */

static const char *find_ci(const char *s, size_t n, size_t from, const char *w) {
  size_t l = strlen(w);
  for (size_t i = from; i + l <= n; i++)
    if (strncasecmp(s + i, w, l) == 0) return s + i;
  return NULL;
}

static void meta_tag(meta *m, const attr *a, size_t k, tbk_buf *tmp) {
  const attr *content = find_attr(a, k, "content");
  if (!content) return;
  const char *keys[] = {"property", "name", "itemprop", "http-equiv"};
  for (size_t w = 0; w < 4; w++) {
    const attr *ka = find_attr(a, k, keys[w]);
    if (!ka) continue;
    for (int f = 0; f < F_N; f++)
      for (int r = 0; r < 12 && meta_keys[f][r]; r++) {
        if (!lc_eq(ka->val, ka->vn, meta_keys[f][r])) continue;
        if (decode_entities(content->val, content->vn, tmp)) {
          m->oom = 1;
          return;
        }
        /* article:author is often a profile URL, not a name */
        if (f == F_AUTHOR && strncmp(tmp->data, "http", 4) == 0) continue;
        offer(m, f, r, tmp->data, tmp->len);
      }
  }
}

static void scan(meta *m, const char *s, size_t n) {
  attr a[64];
  tbk_buf tmp = {0};
  for (size_t i = 0; i < n && !m->oom;) {
    const char *lt = memchr(s + i, '<', n - i);
    if (!lt) break;
    i = (size_t)(lt - s) + 1;
    if (i + 3 <= n && memcmp(s + i, "!--", 3) == 0) {
      const char *e = find_ci(s, n, i + 3, "-->");
      i = e ? (size_t)(e - s) + 3 : n;
      continue;
    }
    if (i >= n || !isalpha((unsigned char)s[i])) continue;
    size_t ns = i;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == ':')) i++;
    const char *name = s + ns;
    size_t nn = i - ns;
    size_t k = read_attrs(s, n, &i, a, sizeof a / sizeof *a);
    if (lc_eq(name, nn, "meta")) {
      meta_tag(m, a, k, &tmp);
    } else if (lc_eq(name, nn, "html")) {
      const attr *l = find_attr(a, k, "lang");
      if (!l) l = find_attr(a, k, "xml:lang");
      if (l) offer(m, F_LANG, RANK_FIRST, l->val, l->vn);
    } else if (lc_eq(name, nn, "link")) {
      const attr *rel = find_attr(a, k, "rel"), *href = find_attr(a, k, "href");
      if (rel && href && lc_eq(rel->val, rel->vn, "canonical")) {
        if (decode_entities(href->val, href->vn, &tmp)) m->oom = 1;
        else offer(m, F_URL, RANK_FIRST, tmp.data, tmp.len);
      }
    } else if (lc_eq(name, nn, "script") || lc_eq(name, nn, "style") || lc_eq(name, nn, "textarea")) {
      const char *close = lc_eq(name, nn, "script") ? "</script" : lc_eq(name, nn, "style") ? "</style" : "</textarea";
      const char *e = find_ci(s, n, i, close);
      size_t end = e ? (size_t)(e - s) : n;
      const attr *ty = find_attr(a, k, "type");
      if (ty && lc_eq(name, nn, "script") && ty->vn >= 7 && find_ci(ty->val, ty->vn, 0, "ld+json"))
        jsonld(m, s + i, end - i);
      i = end;
    }
  }
  tbk_buf_free(&tmp);
}

/* Whether src holds "recipeIn (both keys, "recipeIngredient" and
 * "recipeInstructions", start so). The parse of every page pays this
 * scan: memchr for the rare capital I is several times cheaper than
 * memmem (callgrind, site_mirrors' pages: about 6,000 instructions a
 * page against 60,000). */
static int has_recipe_key(const char *src, size_t n) {
  for (const char *p = src + 7, *end = src + n; p + 2 <= end && (p = memchr(p, 'I', (size_t)(end - p))); p++)
    if (p + 2 <= end && memcmp(p - 7, "\"recipeIn", 9) == 0) return 1;
  return 0;
}

int tbk_jsonld_recipe(const char *src, size_t n, tbk_buf *out) {
  if (n < 9 || !has_recipe_key(src, n)) return 0;
  meta m;
  memset(&m, 0, sizeof m);
  m.recipe = out;
  scan(&m, src, n);
  for (int f = 0; f < F_N; f++) tbk_buf_free(&m.val[f]); /* the <meta> tags it read on the way */
  return m.oom ? -1 : 0;
}

tbk_status tbk_page_metadata(const tbk_page *page, tbk_buf *out, tbk_error *err) {
  if (!page || !out) return tbk_fail(err, TBK_ERR_ARG, "tbk_page_metadata: bad argument");
  tbk_buf html = {0};
  const char *src;
  size_t n;
  if (page->source.len) {
    src = page->source.data, n = page->source.len;
  } else if (page->arena.keep) {
    tbk_status st = tbk_page_html(page, NULL, &html);
    if (st) {
      tbk_buf_free(&html); /* what was written before it failed */
      if (st == TBK_ERR_FORMAT && *tbk_page_html_note(page)) return tbk_fail(err, st, "%s", tbk_page_html_note(page));
      return tbk_fail(err, st, "out of memory");
    }
    src = html.data ? html.data : "", n = html.len;
  } else if (page->no_html) {
    return tbk_fail(err, TBK_ERR_ARG, "the page was parsed without its source (keep_dom < 0): no metadata");
  } else {
    src = "", n = 0;
  }
  meta m;
  memset(&m, 0, sizeof m);
  for (int f = 0; f < F_N; f++) m.rank[f] = RANK_NONE;
  scan(&m, src, n);
  tbk_buf title = {0};
  if (!m.oom && tbk_page_title(page, 4096, &title)) m.oom = 1;
  if (!m.oom && title.len) offer(&m, F_TITLE, RANK_LAST, title.data, title.len);
  tbk_buf_free(&title);
  int oom = m.oom || tbk_buf_puts(out, "{");
  for (int f = 0; f < F_N && !oom; f++) {
    oom = tbk_buf_printf(out, "%s\"%s\": ", f ? ", " : "", field_names[f]) ||
          (m.rank[f] == RANK_NONE ? tbk_buf_puts(out, "null") : tbk_buf_json_str(out, m.val[f].data, m.val[f].len));
  }
  oom = oom || tbk_buf_puts(out, "}");
  for (int f = 0; f < F_N; f++) tbk_buf_free(&m.val[f]);
  tbk_buf_free(&html);
  return oom ? tbk_fail(err, TBK_ERR_NOMEM, "out of memory") : TBK_OK;
}
