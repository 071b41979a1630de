/* The article body as the page's own markup declares it (schema.org): an
 * element whose itemprop is articleBody, which many news pages carry for
 * search engines. The content decision reads it (../predict/content.c),
 * measured in EVALUATION.md "Content stage" (the JSON-LD articleBody text
 * was measured too and left out: it helped nowhere). And the comment
 * thread a heading opens ("119 Comments", <h2 id="comments">), which
 * blog engines (Movable Type, TypePad, WordPress themes, Blogger) put
 * before comments that are not otherwise named. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"

/* An element's packed attributes hold itemprop="... articleBody ...". */
static int body_prop(const char *attrs) {
  const char *p = attrs, *name, *value;
  while ((name = tbk_attr_next(&p, &value)))
    if (value && strcasecmp(name, "itemprop") == 0 && strcasestr(value, "articlebody")) return 1;
  return 0;
}

/* in[u] = 1 for the units whose line element is under an articleBody
 * element; returns how many such elements the page has (one nested in
 * another counts too). */
static size_t mark_containers(const tbk_page *p, tbk_units *ux, unsigned char *in) {
  const tbk_page_view pv = tbk_page_view_of(p);
  size_t found = 0;
  uint32_t from = 0, to = 0; /* the span of nodes under the outermost one */
  for (uint32_t k = 0; k < pv.n_nodes; k++) {
    const tbk_node *nd = &pv.nodes[k];
    if (nd->attrs && nd->attrs[0] && body_prop(nd->attrs)) {
      if (!found++) from = k;
      if (nd->end > to) to = nd->end;
    }
  }
  /* Several disjoint ones (a page of teasers each marked up as an
   * article) are the span from the first to the end of the last: rare,
   * and then the rule that reads it needs most kept text inside anyway. */
  for (size_t i = 0; i < ux->n; i++) in[i] = found && ux->u[i].elem >= from && ux->u[i].elem < to;
  return found;
}

/* Token t (n bytes, lower-cased) names comments: "comment(s)", a
 * compound ending so ("usercomments") or one naming the thread's parts
 * ("commentlist", "commentbody"); not "commented", "commentary". */
static int comment_token(const char *t, size_t n) {
  static const char *const parts[] = {"",     "s",      "list",    "body",    "text",      "content",
                                      "area", "thread", "wrap",    "wrapper", "container", "entry",
                                      "item", "block",  "section", "holder",  "box",       NULL};
  if (n >= 8 && memcmp(t + n - 8, "comments", 8) == 0) return 1;
  if (n < 7 || memcmp(t, "comment", 7) != 0) return 0;
  for (size_t i = 0; parts[i]; i++)
    if (n - 7 == strlen(parts[i]) && memcmp(t + 7, parts[i], n - 7) == 0) return 1;
  return 0;
}

/* A class, id or name value names comments: one of its tokens does
 * (split at anything but letters and at camelCase, as features_attr.c
 * splits them). */
static int names_comments(const char *v) {
  /* Every such token holds "comment": most values are ruled out by a
   * search for its "c" (glibc's vectorized strpbrk) before splitting. */
  const char *c = v;
  while ((c = strpbrk(c, "cC")) && strncasecmp(c + 1, "omment", 6) != 0) c++;
  if (!c) return 0;
  char tok[32];
  size_t n = 0;
  for (const unsigned char *s = (const unsigned char *)v;; s++) {
    int upper = *s >= 'A' && *s <= 'Z', lower = *s >= 'a' && *s <= 'z';
    if (!upper && !lower) {
      if (n && n < sizeof tok && comment_token(tok, n)) return 1;
      n = 0;
      if (!*s) return 0;
      continue;
    }
    if (upper && n && s[-1] >= 'a' && s[-1] <= 'z') {
      if (n < sizeof tok && comment_token(tok, n)) return 1;
      n = 0;
    }
    if (n < sizeof tok) tok[n] = (char)(upper ? *s + 32 : *s);
    n++;
  }
}

static int attrs_name_comments(const char *a, int class_too) {
  const char *name, *value;
  while (a && (name = tbk_attr_next(&a, &value)))
    if (value &&
        (strcasecmp(name, "id") == 0 || strcasecmp(name, "name") == 0 ||
         (class_too && strcasecmp(name, "class") == 0)) &&
        names_comments(value))
      return 1;
  return 0;
}

/* Heading k is named comments (class or id), or holds an anchor that is
 * (<h2><a id="comments"></a>Comments</h2>); a class inside it names a
 * link's style ("comment-count" beside a headline), not the heading. */
static int heading_named(const tbk_page_view *pv, uint32_t k) {
  for (uint32_t d = k; d < pv->nodes[k].end; d++)
    if (attrs_name_comments(pv->nodes[d].attrs, d == k)) return 1;
  return 0;
}

/* A heading's text that opens a comment thread: a count and the word
 * ("119 Comments", "12 Responses to ...", "3 comments:"); without a
 * count the word alone opens nothing (a reference page's section on code
 * comments is not a thread). */
static int heading_counts_comments(const char *t, size_t n) {
  static const char *const words[] = {"comment",     "response",   "repl",     "reaction", "kommentar",
                                      "commentaire", "comentario", "commento", "reactie",  NULL};
  size_t i = 0;
  while (i < n && !isalnum((unsigned char)t[i])) i++;
  size_t digits = i;
  while (i < n && isdigit((unsigned char)t[i])) i++;
  if (i == digits || n > 120) return 0;
  while (i < n && (t[i] == ' ' || t[i] == '\t')) i++;
  for (size_t w = 0; words[w]; w++)
    if (n - i >= strlen(words[w]) && strncasecmp(t + i, words[w], strlen(words[w])) == 0) return 1;
  return 0;
}

/* 1 if element e or one of its ancestors below <body> is named comments
 * (an element holding the page's first <h1>, at h1, does not count), else
 * 2. A unit's line element may come before the elements of the units
 * before it (text after a nested block), so units cannot share one walk;
 * the answer is kept per element in memo (0: not yet known) for e and
 * every ancestor the walk passed, and each element's attributes are read
 * at most once a page (a walk up to <body> for every unit cost 12 % more
 * instructions in tbk-predict on site_mirrors: BENCHMARKS.md, #31). */
static unsigned char named_below_body(const tbk_page_view *pv, uint32_t h1, unsigned char *memo, uint32_t e) {
  unsigned char r = 2;
  uint32_t k;
  for (k = e; k != TBK_NONE; k = pv->nodes[k].parent) {
    const tbk_node *nd = &pv->nodes[k];
    if (memo[k]) {
      r = memo[k];
      break;
    }
    if (nd->tag == TBK_TAG_BODY || nd->tag == TBK_TAG_HTML) break;
    if (nd->attrs && nd->attrs[0] && !(h1 != TBK_NONE && h1 >= k && h1 < nd->end) &&
        attrs_name_comments(nd->attrs, 1)) {
      r = 1;
      break;
    }
  }
  for (uint32_t j = e; j != k; j = pv->nodes[j].parent) memo[j] = r;
  if (k != TBK_NONE) memo[k] = r;
  return r;
}

/* thread[u] = 1 for the units under an element named comments, and for
 * the units after a heading that opens a comment thread (named so, or
 * counting comments), inside the heading's parent, up to the next heading
 * of its level or above. An element that holds the page's first <h1>
 * (a <body class="... f_amp_comments_on">, an <article> around the
 * headline) is the article's, never a thread; an <h1> is the page's
 * headline, never a thread's heading. */
static void mark_thread(const tbk_page *p, const tbk_units *ux, unsigned char *thread, unsigned char *memo) {
  const tbk_page_view pv = tbk_page_view_of(p);
  const uint32_t h1 = ux->body.h1;
  size_t i;
  for (i = 0; i < ux->n; i++) thread[i] = named_below_body(&pv, h1, memo, ux->u[i].elem) == 1;
  uint32_t from = 0, to = 0;
  int level = 0; /* of the open thread's heading; 0: none open */
  for (i = 0; i < ux->n; i++) {
    uint32_t e = ux->u[i].elem;
    int tag = pv.nodes[e].tag, h = tag >= TBK_TAG_H1 && tag <= TBK_TAG_H6 ? tag - TBK_TAG_H1 + 1 : 0;
    if (level && (e < from || e >= to || (h && h <= level))) level = 0;
    if (level) thread[i] = 1;
    if (level || h < 2) continue;
    const char *t = pv.text + ux->u[i].start;
    if (heading_counts_comments(t, ux->u[i].end - ux->u[i].start) || heading_named(&pv, e)) {
      uint32_t parent = pv.nodes[e].parent;
      if (parent == TBK_NONE || (h1 != TBK_NONE && tbk_view_holds(&pv, parent, h1))) continue;
      from = e, to = pv.nodes[parent].end, level = h;
    }
  }
}

/* The picture agencies whose name starts with the lower-case letter f.
 * A switch, not content_rules.c's sorted list and binary search
 * (phrases_from): most tokens start with a letter no agency does, and the
 * search per token cost 3 M more instructions on debian_docs' benchmark
 * sample (docs/experiments/benchmarks-content-stage.md). */
static const char *const *agencies_from(char f) {
  static const char *const a[] = {"afp", "alamy", "anadolu", "ansa", "ap", NULL}, *const b[] = {"bloomberg", NULL},
                           *const c[] = {"corbis", NULL}, *const d[] = {"dpa", NULL}, *const e[] = {"efe", "epa", NULL},
                           *const g[] = {"getty", NULL}, *const i[] = {"istock", "istockphoto", NULL},
                           *const r[] = {"reuters", "rex", NULL}, *const s[] = {"shutterstock", "sipa", NULL},
                           *const w[] = {"wireimage", NULL}, *const x[] = {"xinhua", NULL};
  switch (f) {
  case 'a': return a;
  case 'b': return b;
  case 'c': return c;
  case 'd': return d;
  case 'e': return e;
  case 'g': return g;
  case 'i': return i;
  case 'r': return r;
  case 's': return s;
  case 'w': return w;
  case 'x': return x;
  default: return NULL;
  }
}

/* A picture's credit line alone: at most six words naming a picture
 * agency ("Getty Images", "Jung Yeon-Je/AFP/Getty Images", "Reuters") or
 * led by "Photo:"/"Credit:". */
static int is_credit_line(const char *t, size_t n, uint32_t words) {
  static const char *const leads[] = {
      "photo:", "photos:", "image:", "images:", "credit:", "photograph:", "picture:", "foto:", NULL};
  if (!words || words > 6 || n > 80) return 0;
  /* every lead ends in a colon within its first 12 bytes: most lines have none there */
  if (memchr(t, ':', n < 12 ? n : 12))
    for (size_t k = 0; leads[k]; k++)
      if (n > strlen(leads[k]) && strncasecmp(t, leads[k], strlen(leads[k])) == 0) return 1;
  /* whole tokens between anything but letters, each compared with the
   * agencies of its first letter only (the token loop runs on every short
   * unit of every page) */
  for (size_t i = 0; i < n;) {
    while (i < n && !(((t[i] | 0x20) >= 'a' && (t[i] | 0x20) <= 'z'))) i++;
    size_t j = i;
    while (j < n && ((t[j] | 0x20) >= 'a' && (t[j] | 0x20) <= 'z')) j++;
    for (const char *const *ag = j > i ? agencies_from((char)(t[i] | 0x20)) : NULL; ag && *ag; ag++)
      if (strlen(*ag) == j - i && strncasecmp(t + i, *ag, j - i) == 0) return 1;
    i = j;
  }
  return 0;
}

/* gallery[u] = 1 for a photo gallery's items: on a page with three or
 * more credit lines, each credit line and the caption just before it when
 * the two are alone in a small element (a slide: at most three units and
 * 800 characters) that does not hold the page's <h1> (the article's
 * head: its dek and its lead photo's credit). A single credited photo in
 * an article is not one. */
static void mark_gallery(const tbk_page *p, const tbk_units *ux, unsigned char *gallery) {
  const tbk_page_view pv = tbk_page_view_of(p);
  enum { DEPTH = 32, MIN_CREDITS = 3, SLIDE_UNITS = 3, SLIDE_CHARS = 800 };
  size_t credits = 0;
  for (size_t i = 0; i < ux->n; i++) {
    const tbk_unit_rec *u = &ux->u[i];
    gallery[i] = (unsigned char)is_credit_line(pv.text + u->start, u->end - u->start, u->words);
    credits += gallery[i];
  }
  if (credits < MIN_CREDITS) {
    memset(gallery, 0, ux->n);
    return;
  }
  const uint32_t h1 = ux->body.h1;
  for (size_t i = 1; i < ux->n; i++) {
    if (gallery[i] != 1 || (ux->u[i - 1].anc_flags >> UA_HEADER & 1)) continue;
    int tag = pv.nodes[ux->u[i - 1].elem].tag;
    if (tag >= TBK_TAG_H1 && tag <= TBK_TAG_H6) continue;
    uint32_t anc[DEPTH];
    size_t na = 0;
    for (uint32_t k = ux->u[i].elem; k != TBK_NONE && na < DEPTH; k = pv.nodes[k].parent) anc[na++] = k;
    uint32_t k = ux->u[i - 1].elem;
    for (size_t up = 0; k != TBK_NONE && up < DEPTH; up++, k = pv.nodes[k].parent) {
      size_t a = 0;
      while (a < na && anc[a] != k) a++;
      if (a == na) continue;
      int holds_h1 = h1 != TBK_NONE && tbk_view_holds(&pv, k, h1);
      if (ux->nd[k].units <= SLIDE_UNITS && ux->nd[k].chars <= SLIDE_CHARS && !holds_h1 && !gallery[i - 1])
        gallery[i - 1] = 2;
      break;
    }
  }
}

tbk_status tbk_units_body_markup(tbk_units *ux, const tbk_page *p, tbk_error *err) {
  const tbk_page_view pv = tbk_page_view_of(p);
  tbk_units_body *b = &ux->body;
  size_t n = ux->n ? ux->n : 1;
  if (n > b->cap) {
    unsigned char *in = realloc(b->in, n);
    if (!in) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    b->in = in;
    unsigned char *thread = realloc(b->thread, n);
    if (!thread) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    b->thread = thread;
    unsigned char *gallery = realloc(b->gallery, n);
    if (!gallery) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    b->gallery = gallery;
    unsigned char *pointed = realloc(b->pointed, n);
    if (!pointed) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    b->pointed = pointed;
    b->cap = n;
  }
  if (pv.n_nodes > b->memo_cap) {
    unsigned char *memo = realloc(b->memo, pv.n_nodes);
    if (!memo) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    b->memo = memo;
    b->memo_cap = pv.n_nodes;
  }
  if (pv.n_nodes) memset(b->memo, 0, pv.n_nodes);
  b->h1 = TBK_NONE;
  for (uint32_t k = 0; k < pv.n_nodes && b->h1 == TBK_NONE; k++)
    if (pv.nodes[k].tag == TBK_TAG_H1) b->h1 = k;
  b->containers = mark_containers(p, ux, b->in);
  mark_thread(p, ux, b->thread, b->memo);
  mark_gallery(p, ux, b->gallery);
  memset(b->pointed, 0, n);
  return TBK_OK;
}

void tbk_units_body_free(tbk_units *ux) {
  free(ux->body.in);
  free(ux->body.thread);
  free(ux->body.gallery);
  free(ux->body.pointed);
  free(ux->body.memo);
}
