/* Recovery of pages whose text libxml2 2.9's HTML parser loses.
 *
 * In recover mode the parser keeps an element open to the end of the
 * document when its end tag never comes, and some of those elements hide
 * everything inside them: <script> and <style> read the rest of the page
 * as raw text (only their own end tag stops them), an unclosed <title>
 * takes in the elements after it until </head> or <body>, and <noscript>,
 * <iframe>, <object>, <svg>, <template>… take in the elements after them
 * like any container, all of which we drop as invisible; such a container
 * also stays open past its own end tag when an element of higher end
 * priority (<div>, <td>, <tr>, <table>…) opened inside it is still open
 * there (<noscript><div id=x></noscript>). Broken comments
 * (<!-->, <!--->, "-- >", no "-->" at all) run to the next "-->" or the
 * end. Tags such as <textarea>, <xmp>, <plaintext>, <noembed> and
 * <noframes> left open, and a stray </body> or </html> mid-page, lose no
 * text in 2.9.14: their content stays in the tree and is walked.
 *
 * One scan over the decoded source estimates the text a forgiving parser
 * would show (bytes outside tags, comments, scripts, styles and titles)
 * and notes a repair for each shape above. It only runs when the visible
 * text is under 1/TBK_RECOVER_RATIO of the source's bytes, since the
 * estimate cannot exceed them, so normal pages pay one comparison. A
 * repair deletes bytes or inserts an end tag but never adds or removes a
 * newline, so source line numbers keep their meaning. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "page_xml.h"

enum { TBK_RECOVER_RATIO = 20, TBK_RECOVER_MIN_TEXT = 500 };
/* How far down the blockers open in containers an end tag looks for its
 * own (the model keeps some that libxml2 closed, so the walk is bounded
 * to stay linear: past it the blocker is taken for still open). */
enum { TBK_BLOCKER_REACH = 64 };

/* Elements that can swallow the rest of a page: script and style (raw
 * text to their end tag), title (whose content should hold no tag), then
 * the dropped containers ("boxes"). */
enum { W_SCRIPT, W_STYLE, W_TITLE, W_FIRST_BOX };
static const char *const watched[] = {"script", "style", "title",    "noscript", "iframe", "object",
                                      "svg",    "math",  "template", "audio",    "video",  "canvas"};
enum { N_WATCHED = sizeof watched / sizeof watched[0] };

/* Elements whose end priority (htmlGetEndPriority) is above a dropped
 * container's: open inside one, they make libxml2 ignore its end tag
 * (htmlAutoCloseOnClose closes nothing over a higher priority), so
 * <noscript><div id=x></noscript> keeps the noscript open to the end. */
static const struct {
  const char *name;
  int prio;
} blockers[] = {
    {"div", 150}, {"td", 160}, {"th", 160}, {"tr", 170}, {"thead", 180}, {"tbody", 180}, {"tfoot", 180}, {"table", 190},
};
enum { N_BLOCKERS = sizeof blockers / sizeof blockers[0] };

typedef struct inner {
  size_t after; /* just past the start tag's '>' */
  int blocker;  /* index in blockers */
} inner;

typedef struct repair {
  size_t pos, end; /* delete [pos, end) but its newlines; pos == end: insert */
  size_t opened;   /* where the element whose end tag is inserted starts */
  int name;        /* inserted end tag (watched index), -1 for a deletion */
} repair;

typedef struct opening {
  size_t after; /* just past the start tag's '>' */
  int name;
  size_t outer; /* enclosing open element of the same name, or SIZE_MAX */
  int closed;
} opening;

typedef struct scanner {
  const char *s;
  size_t n;
  size_t text; /* estimate of the visible bytes */
  repair *rep;
  size_t n_rep, cap_rep;
  opening *open;
  size_t n_open, cap_open;
  inner *in; /* blockers opened inside containers, innermost last */
  size_t n_in, cap_in;
  size_t n_boxes;           /* containers open */
  size_t top[N_WATCHED];    /* innermost unclosed opening of each name */
  size_t last_end[W_TITLE]; /* last "</script", "</style" in the source */
  size_t box_from, box_at;  /* memo of the last box_close_point query */
  int nomem;
} scanner;

static int is_alpha(unsigned char c) { return (unsigned char)((c | 32) - 'a') < 26; }
static int is_alnum(unsigned char c) { return is_alpha(c) || (unsigned char)(c - '0') < 10; }

/* The tag name at s[i, n), lowercased into name (empty when longer than
 * it can hold); returns the index just past it. */
static size_t tag_name(const char *s, size_t n, size_t i, char *name, size_t cap) {
  size_t k = 0;
  for (; i < n && is_alnum((unsigned char)s[i]); i++, k++)
    if (k + 1 < cap) name[k] = (char)(is_alpha((unsigned char)s[i]) ? s[i] | 32 : s[i]);
  name[k + 1 < cap ? k : 0] = '\0';
  return i;
}

static int watched_id(const char *name) {
  for (int k = 0; k < N_WATCHED; k++) /* the first letter rules out most */
    if (name[0] == watched[k][0] && !strcmp(name, watched[k])) return k;
  return -1;
}

/* A known tag's name at s[i] ends here: not a word in script or prose. */
static int name_ends(const char *s, size_t n, size_t i) {
  return i >= n || tbk_html_space((unsigned char)s[i]) || s[i] == '>' || s[i] == '/';
}

/* Where an element left open should have ended: at the first '<' from i
 * that starts a comment, a doctype, an end tag, or a start tag of a known
 * element (with a line break, for containers: an <img> or <a> is what a
 * <noscript> or <object> holds). */
static size_t close_point(const scanner *sc, size_t i, int box) {
  const char *s = sc->s;
  size_t n = sc->n;
  for (const char *q; i < n && (q = memchr(s + i, '<', n - i)); i++) {
    i = (size_t)(q - s);
    if (i + 1 >= n) return n;
    unsigned char c = (unsigned char)s[i + 1];
    if (c == '!' || (c == '/' && i + 2 < n && is_alpha((unsigned char)s[i + 2]))) return i;
    if (!is_alpha(c)) continue;
    char name[16];
    size_t e = tag_name(s, n, i + 1, name, sizeof name);
    tbk_tag t = tbk_tag_lookup(name);
    if (t != TBK_TAG_OTHER && name_ends(s, n, e) && (!box || (tbk_tag_flags(t) & TAG_BREAK))) return i;
  }
  return n;
}

/* Containers are closed in document order, so one memo keeps many
 * unclosed ones (<svg><svg>… to the end) from rescanning the same text. */
static size_t box_close_point(scanner *sc, size_t i) {
  if (sc->box_at != SIZE_MAX && sc->box_from <= i && sc->box_at >= i) return sc->box_at;
  sc->box_from = i;
  sc->box_at = close_point(sc, i, 1);
  return sc->box_at;
}

static void add_repair(scanner *sc, size_t pos, size_t end, size_t opened, int name) {
  if (tbk_grow(&sc->rep, &sc->cap_rep, sc->n_rep + 1, sizeof *sc->rep)) {
    sc->nomem = 1;
    return;
  }
  sc->rep[sc->n_rep++] = (repair){pos, end, opened, name};
}

static void add_opening(scanner *sc, size_t after, int name) {
  if (tbk_grow(&sc->open, &sc->cap_open, sc->n_open + 1, sizeof *sc->open)) {
    sc->nomem = 1;
    return;
  }
  sc->open[sc->n_open] = (opening){after, name, sc->top[name], 0};
  sc->top[name] = sc->n_open++;
  sc->n_boxes++;
}

static void close_box(scanner *sc, int w) {
  sc->open[sc->top[w]].closed = 1;
  sc->top[w] = sc->open[sc->top[w]].outer;
  sc->n_boxes--;
}

static int blocker_id(const char *name) {
  for (int k = 0; k < N_BLOCKERS; k++)
    if (!strcmp(name, blockers[k].name)) return k;
  return -1;
}

/* A blocker's start tag inside a container. A start tag may close it
 * again in libxml2 (<td> closes an open <td>), which is not followed:
 * the model can only think more of them open than there are, which costs
 * a harmless repair (see end_box). */
static void open_blocker(scanner *sc, size_t after, int b) {
  if (tbk_grow(&sc->in, &sc->cap_in, sc->n_in + 1, sizeof *sc->in)) {
    sc->nomem = 1;
    return;
  }
  sc->in[sc->n_in++] = (inner){after, b};
}

/* A blocker's end tag: libxml2 closes the innermost open one of that name
 * unless an element of higher priority is open above it (every element
 * not a blocker ranks below), and with it the containers opened inside.
 * One out of reach stays open in the model: a cut it did not need. */
static void close_blocker(scanner *sc, int b) {
  size_t k = sc->n_in, stop = k > TBK_BLOCKER_REACH ? k - TBK_BLOCKER_REACH : 0;
  while (k > stop && sc->in[k - 1].blocker != b) k--;
  if (k == stop) return;
  for (size_t j = k; j < sc->n_in; j++)
    if (blockers[sc->in[j].blocker].prio > blockers[b].prio) return;
  size_t at = sc->in[k - 1].after;
  sc->n_in = k - 1;
  for (int w = W_FIRST_BOX; w < N_WATCHED; w++)
    while (sc->top[w] != SIZE_MAX && sc->open[sc->top[w]].after > at) close_box(sc, w);
}

/* A container's end tag at lt. With a blocker open inside it libxml2
 * ignores the end tag; the container's content is cut out (its newlines
 * kept), so that the end tag closes it. What is cut was dropped with the
 * container anyway, and a browser reads a <noscript>'s or an <iframe>'s
 * content as raw text, so the elements opened in it end with it. */
static void end_box(scanner *sc, size_t lt, int w) {
  size_t from = sc->open[sc->top[w]].after;
  if (sc->n_in && sc->in[sc->n_in - 1].after > from) {
    while (sc->n_in && sc->in[sc->n_in - 1].after > from) sc->n_in--;
    add_repair(sc, from, lt, 0, -1);
  }
  close_box(sc, w);
}

/* Position of "</name" (any case) from i, or SIZE_MAX. */
static size_t find_end_tag(const char *s, size_t n, size_t i, const char *name) {
  size_t k = strlen(name);
  for (const char *q; i < n && (q = memchr(s + i, '<', n - i)); i++) {
    i = (size_t)(q - s);
    if (i + 2 + k <= n && s[i + 1] == '/' && !strncasecmp(s + i + 2, name, k)) return i;
  }
  return SIZE_MAX;
}

static size_t last_end_tag(const char *s, size_t n, const char *name) {
  size_t k = strlen(name);
  for (size_t lim = n; lim > 0;) {
    const char *q = memrchr(s, '<', lim);
    if (!q) break;
    size_t i = (size_t)(q - s);
    if (i + 2 + k <= n && s[i + 1] == '/' && !strncasecmp(s + i + 2, name, k)) return i;
    lim = i;
  }
  return SIZE_MAX;
}

/* A comment at s[i] ("<!--"): returns where scanning goes on, noting a
 * repair when libxml2 would read past where the comment ends. */
static size_t comment(scanner *sc, size_t i, size_t *last_close) {
  const char *s = sc->s;
  size_t n = sc->n, c = i + 4;
  /* <!--> and <!---> are empty comments (HTML5); libxml2 reads on. */
  if (c < n && s[c] == '>') {
    add_repair(sc, i, c + 1, 0, -1);
    return c + 1;
  }
  if (c + 1 < n && s[c] == '-' && s[c + 1] == '>') {
    add_repair(sc, i, c + 2, 0, -1);
    return c + 2;
  }
  if (*last_close == SIZE_MAX - 1) {
    *last_close = SIZE_MAX;
    for (size_t k = n; k >= 3; k--)
      if (s[k - 1] == '>' && s[k - 2] == '-' && (s[k - 3] == '-' || (s[k - 3] == '!' && k >= 4 && s[k - 4] == '-'))) {
        *last_close = k;
        break;
      }
  }
  if (*last_close != SIZE_MAX && *last_close >= c + 3) {
    for (size_t k = c; k + 2 < n; k++) {
      const char *q = memchr(s + k, '-', n - k - 2);
      if (!q) break;
      k = (size_t)(q - s);
      if (s[k + 1] == '-' && (s[k + 2] == '>' || (k + 3 < n && s[k + 2] == '!' && s[k + 3] == '>')))
        return k + (s[k + 2] == '>' ? 3 : 4);
    }
  }
  /* Never closed ("-- >", or a cut page): end it at its first '>'. */
  const char *gt = memchr(s + c, '>', n - c);
  if (!gt) return n;
  add_repair(sc, i, (size_t)(gt - s) + 1, 0, -1);
  return (size_t)(gt - s) + 1;
}

static void count_text(scanner *sc, size_t a, size_t b) {
  for (size_t i = a; i < b; i++) sc->text += !tbk_html_space((unsigned char)sc->s[i]);
}

static void scan(scanner *sc) {
  const char *s = sc->s;
  size_t n = sc->n, i = 0, last_comment_close = SIZE_MAX - 1;
  while (i < n && !sc->nomem) {
    const char *q = memchr(s + i, '<', n - i);
    size_t lt = q ? (size_t)(q - s) : n;
    count_text(sc, i, lt);
    if (lt + 1 >= n) break;
    i = lt + 1;
    unsigned char c = (unsigned char)s[i];
    if (c == '!' && i + 2 < n && s[i + 1] == '-' && s[i + 2] == '-') {
      i = comment(sc, lt, &last_comment_close);
      continue;
    }
    int end_tag = c == '/';
    if (!end_tag && !is_alpha(c) && c != '!' && c != '?') {
      sc->text++; /* a '<' in prose */
      continue;
    }
    char name[16] = "";
    if (is_alpha(c) || (end_tag && i + 1 < n && is_alpha((unsigned char)s[i + 1])))
      tag_name(s, n, i + end_tag, name, sizeof name);
    const char *gt = memchr(s + i, '>', n - i);
    if (!gt) break;
    i = (size_t)(gt - s) + 1;
    int w = watched_id(name);
    if (w < 0) {
      int b = sc->n_boxes ? blocker_id(name) : -1;
      if (b < 0) continue;
      if (end_tag) close_blocker(sc, b);
      else if (s[i - 2] != '/') open_blocker(sc, i, b); /* <div/>: libxml2 closes it */
      continue;
    }
    if (end_tag) {
      /* libxml2 closes the innermost open element of that name. */
      if (w >= W_FIRST_BOX && sc->top[w] != SIZE_MAX) end_box(sc, lt, w);
      continue;
    }
    if (s[i - 2] == '/') continue; /* <script/>: libxml2 closes it */
    if (w >= W_FIRST_BOX) {
      add_opening(sc, i, w);
      continue;
    }
    size_t to;
    if (w == W_TITLE) {
      to = close_point(sc, i, 0);
      if (to + 2 < n && s[to + 1] == '/' && !strncasecmp(s + to + 2, "title", 5)) {
        i = to;
        continue;
      }
    } else {
      if (sc->last_end[w] == SIZE_MAX - 1) sc->last_end[w] = last_end_tag(s, n, watched[w]);
      if (sc->last_end[w] != SIZE_MAX && sc->last_end[w] >= i) {
        i = find_end_tag(s, n, i, watched[w]);
        continue;
      }
      to = close_point(sc, i, 0);
    }
    add_repair(sc, to, to, i, w);
    i = to;
  }
  for (size_t k = 0; k < sc->n_open && !sc->nomem; k++)
    if (!sc->open[k].closed) {
      size_t at = box_close_point(sc, sc->open[k].after);
      add_repair(sc, at, at, sc->open[k].after, sc->open[k].name);
    }
}

static int by_pos(const void *a, const void *b) {
  const repair *x = a, *y = b;
  if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
  /* End tags inserted at one point close the innermost element first, and
   * come before a deletion starting there (whose opened is 0). */
  if (x->opened != y->opened) return x->opened > y->opened ? -1 : 1;
  return 0;
}

long tbk_recover_source(const char *src, size_t n, size_t visible, tbk_buf *out) {
  if (n < TBK_RECOVER_MIN_TEXT || visible >= n / TBK_RECOVER_RATIO) return 0;
  scanner sc = {.s = src, .n = n, .box_at = SIZE_MAX};
  for (int k = 0; k < N_WATCHED; k++) sc.top[k] = SIZE_MAX;
  for (int k = 0; k < W_TITLE; k++) sc.last_end[k] = SIZE_MAX - 1;
  scan(&sc);
  long done = 0;
  if (sc.nomem) done = -1;
  else if (sc.n_rep && sc.text >= TBK_RECOVER_MIN_TEXT && visible < sc.text / TBK_RECOVER_RATIO) {
    qsort(sc.rep, sc.n_rep, sizeof *sc.rep, by_pos);
    size_t at = 0;
    for (size_t k = 0; k < sc.n_rep && done >= 0; k++) {
      const repair *r = &sc.rep[k];
      if (r->pos < at) continue; /* inside a deletion already made */
      if (tbk_buf_append(out, src + at, r->pos - at)) {
        done = -1;
        break;
      }
      if (r->name >= 0) {
        if (tbk_buf_append(out, "</", 2) || tbk_buf_puts(out, watched[r->name]) || tbk_buf_append(out, ">", 1))
          done = -1;
      } else {
        for (size_t i = r->pos; i < r->end && done >= 0; i++)
          if (src[i] == '\n' && tbk_buf_append(out, "\n", 1)) done = -1;
      }
      at = r->end;
      if (done >= 0) done++;
    }
    if (done >= 0 && tbk_buf_append(out, src + at, n - at)) done = -1;
    if (done < 0) tbk_buf_free(out);
  }
  free(sc.rep);
  free(sc.open);
  free(sc.in);
  return done;
}
