/* Candidates and their features (keywords.h). A document becomes a stream
 * of folded word tokens, each marked with whether a phrase ends before it,
 * whether it was capitalized and which segment (title, heading, anchor) it
 * came from; candidates are the stop-bounded 1-3 word n-grams of each
 * phrase, keyed by their words' stems so that "Banks" and "bank" are one.
 * Han and Kana runs bypass the tokenizer's bigrams: one token per
 * character, and candidates are source spans of them (keywords.h). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arena.h"
#include "keywords_internal.h"
#include "measure.h"
#include "text_internal.h"

const char *const tbk_kw_feature_names[TBK_KW_NFEAT] = {
#define TBK_KW_FEAT_NAME(id, name) name,
    TBK_KW_FEATURES(TBK_KW_FEAT_NAME)
#undef TBK_KW_FEAT_NAME
};

/* ------------------------------------------------------------ stop words */

#define KW_MAX_LANGS 32
static kw_strtab stop_words;
static uint32_t *stop_mask; /* per word of stop_words: the lists holding it */
static int stop_ok;
static pthread_once_t stop_once = PTHREAD_ONCE_INIT;

static void stop_init(void) {
  size_t nl = tbk_stop_count < KW_MAX_LANGS ? tbk_stop_count : KW_MAX_LANGS;
  size_t cap = 0, n;
  for (size_t l = 0; l < nl; l++)
    for (const char *s = tbk_stop_lists[l], *w; (w = tbk_stop_next(&s, &n)) != NULL;) {
      int added;
      long id = kw_strtab_intern(&stop_words, w, n, &added);
      if (id < 0 || tbk_grow(&stop_mask, &cap, (size_t)id + 1, sizeof *stop_mask)) return;
      if (added) stop_mask[id] = 0;
      stop_mask[id] |= 1u << l;
    }
  stop_ok = 1;
}

size_t tbk_kw_languages(const char *const **codes) {
  if (codes) *codes = tbk_stop_codes;
  return tbk_stop_count < KW_MAX_LANGS ? tbk_stop_count : KW_MAX_LANGS;
}

static uint32_t stop_mask_of(const char *w, size_t n) {
  long id = kw_strtab_find(&stop_words, w, n);
  return id < 0 ? 0 : stop_mask[id];
}

int tbk_kw_is_stop(const char *w, size_t n, size_t lang) {
  pthread_once(&stop_once, stop_init);
  return lang < KW_MAX_LANGS && stop_ok && (stop_mask_of(w, n) >> lang & 1);
}

/* ----------------------------------------------------------------- stems */

size_t tbk_kw_stem(const char *w, size_t n, char *out) {
  memcpy(out, w, n);
  out[n] = '\0';
  if (n < 4 || w[n - 1] != 's') return n;
  char a = w[n - 2], b = w[n - 3];
  if (n > 4 && a == 'e' && b == 'i' && w[n - 4] != 'e' && w[n - 4] != 'a') { /* berries -> berry, not pies */
    out[n - 3] = 'y';
    out[n - 2] = '\0';
    return n - 2;
  }
  if (a == 'e' && (b == 'a' || b == 'e' || b == 'o')) return n;             /* shoes, trees */
  if (a == 'u' || a == 's' || a == 'i' || (a == 'w' && b == 'e')) return n; /* bus, class, analysis, news */
  if (a == 'e') {                                                           /* horses -> horse */
    out[n - 1] = '\0';
    return n - 1;
  }
  out[n - 1] = '\0';
  return n - 1;
}

/* ------------------------------------------------------------- extractor */

typedef struct kw_tok {
  uint32_t word; /* id in words */
  uint8_t brk;   /* a phrase ends before this token */
  uint8_t cap;   /* written with a capital */
  uint8_t seg;   /* TBK_KW_SEG_* */
  uint8_t cjk;   /* a Han/Kana character: its KW_CJK_*, | KW_TOK_STOP in a
                    stop word (tbk_kw_finish) */
} kw_tok;

struct tbk_kw_extractor {
  tbk_tokenizer *tok;
  kw_strtab words;  /* folded words */
  uint32_t *w_stem; /* per word: stem id */
  uint32_t *w_stop; /* per word: stop-list mask */
  uint8_t *w_num;   /* per word: starts with a digit */
  size_t w_cap;
  kw_strtab stems;
  uint32_t *s_count; /* per stem: body occurrences */
  size_t s_cap;
  kw_tok *toks;
  size_t ntok, tok_cap, body;
  /* tokenizing state of the current piece */
  unsigned seg;
  int brk, first_in_piece;
  uint32_t lead_cp;
  /* candidates */
  tbk_kw_cand *cands;
  uint32_t (*cid)[TBK_KW_MAX_WORDS]; /* per candidate: stem ids + 1, 0 = none (a Han/Kana span: its
                                        string's id in stems + 1, then 0s) */
  uint32_t *ckept;                   /* per Han/Kana candidate: body occurrences not inside a longer
                                        repeated span (count_cjk) */
  uint32_t span_pos;                 /* count_cjk: body position of the token at hand */
  tbk_buf span;                      /* each_span: the span at hand */
  int any_cjk;                       /* the document has a Han/Kana token */
  uint32_t *cfirst;                  /* per candidate: token of first occurrence */
  size_t ncand, cand_cap;
  uint32_t *cslots;
  size_t cnslots;
  tbk_buf strs; /* keys and texts of the candidates */
  int lang;     /* stop list chosen, -1 none */
  tbk_buf scratch, title;
  uint32_t *node_le; /* add_page: per node, its line element */
  uint8_t *node_seg; /* add_page: per node, heading/anchor */
  size_t node_cap;
  unsigned char *keep; /* tbk_kw_extract_page: per text run, kept */
  size_t keep_cap;
  int failed;            /* out of memory during tokenizing */
  double removed_weight; /* option: tbk_kw_set_removed_weight */
  double removed_now;    /* the document's: removed_weight with content
                            denoising, else 0 (the text is not read) */
};

/* A token of text the denoiser removed: counted into the candidates of
 * the kept text only (tbk_kw_set_removed_weight), never making one, nor
 * choosing the language, nor moving a body position. */
#define SEG_REMOVED 0x40

tbk_status tbk_kw_new(tbk_kw_extractor **out, tbk_error *err) {
  *out = NULL;
  pthread_once(&stop_once, stop_init);
  if (!stop_ok) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_kw_extractor *x = calloc(1, sizeof *x);
  if (!x) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_status st = tbk_tokenizer_new(&x->tok, err);
  if (st) {
    free(x);
    return st;
  }
  x->lang = -1;
  x->removed_weight = TBK_KW_REMOVED_WEIGHT;
  *out = x;
  return TBK_OK;
}

void tbk_kw_free(tbk_kw_extractor *x) {
  if (!x) return;
  tbk_tokenizer_free(x->tok);
  kw_strtab_free(&x->words);
  kw_strtab_free(&x->stems);
  free(x->w_stem);
  free(x->w_stop);
  free(x->w_num);
  free(x->ckept);
  free(x->s_count);
  free(x->toks);
  free(x->cands);
  free(x->cid);
  free(x->cfirst);
  free(x->cslots);
  tbk_buf_free(&x->strs);
  tbk_buf_free(&x->scratch);
  tbk_buf_free(&x->span);
  tbk_buf_free(&x->title);
  free(x->node_le);
  free(x->node_seg);
  free(x->keep);
  free(x);
}

void tbk_kw_begin(tbk_kw_extractor *x) {
  kw_strtab_clear(&x->words);
  kw_strtab_clear(&x->stems);
  x->ntok = x->body = x->ncand = 0;
  x->strs.len = 0;
  x->lang = -1;
  x->failed = 0;
  x->any_cjk = 0;
  x->brk = 1;
  x->removed_now = 0;
  if (x->cslots) memset(x->cslots, 0, x->cnslots * sizeof *x->cslots);
}

void tbk_kw_set_removed_weight(tbk_kw_extractor *x, double w) { x->removed_weight = w > 0 ? w : 0; }
void tbk_kw_read_removed(tbk_kw_extractor *x, double w) { x->removed_now = w > 0 ? w : 0; }

size_t tbk_kw_count(const tbk_kw_extractor *x) { return x->ncand; }
tbk_kw_cand *tbk_kw_cands(tbk_kw_extractor *x) { return x->cands; }
size_t tbk_kw_tokens(const tbk_kw_extractor *x) { return x->body; }
const char *tbk_kw_lang(const tbk_kw_extractor *x) { return x->lang < 0 ? "" : tbk_stop_codes[x->lang]; }

static uint32_t first_cp(const char *s, size_t n) {
  if (!n) return 0;
  size_t k = tbk_utf8_seq((const unsigned char *)s, n);
  return k ? tbk_utf8_decode((const unsigned char *)s, k) : (unsigned char)s[0];
}

static inline __attribute__((always_inline)) long intern_word(tbk_kw_extractor *x, const char *w, size_t n) {
  int added;
  long id = kw_strtab_intern(&x->words, w, n, &added);
  if (id < 0 || !added) return id;
  if ((size_t)id >= x->w_cap) {
    size_t cap = tbk_grow_cap(x->w_cap, (size_t)id + 1, sizeof(uint32_t));
    if (!cap || tbk_resize(&x->w_stem, cap, sizeof *x->w_stem) || tbk_resize(&x->w_stop, cap, sizeof *x->w_stop) ||
        tbk_resize(&x->w_num, cap, 1))
      return -1;
    x->w_cap = cap;
  }
  if (tbk_buf_reserve(&x->scratch, n + 1)) return -1;
  size_t sl = tbk_kw_stem(w, n, x->scratch.data);
  int sadded;
  long sid = kw_strtab_intern(&x->stems, x->scratch.data, sl, &sadded);
  if (sid < 0) return -1;
  if (sadded) {
    if (tbk_grow(&x->s_count, &x->s_cap, (size_t)sid + 1, sizeof *x->s_count)) return -1;
    x->s_count[sid] = 0;
  }
  x->w_stem[id] = (uint32_t)sid;
  x->w_stop[id] = stop_mask_of(w, n);
  x->w_num[id] = (unsigned char)w[0] < 0x80 ? (unsigned char)w[0] >= '0' && (unsigned char)w[0] <= '9'
                                            : kw_digit(first_cp(w, n));
  return id;
}

static long intern_word_call(tbk_kw_extractor *x, const char *w, size_t n) { return intern_word(x, w, n); }

/* A token of word id, continuing the phrase unless x->brk; NULL out of
 * memory. */
static inline __attribute__((always_inline)) kw_tok *push_token(tbk_kw_extractor *x, long id) {
  if (id < 0 || tbk_grow(&x->toks, &x->tok_cap, x->ntok + 1, sizeof *x->toks)) {
    x->failed = 1;
    return NULL;
  }
  kw_tok *t = &x->toks[x->ntok++];
  t->word = (uint32_t)id;
  t->brk = (uint8_t)x->brk;
  t->seg = (uint8_t)x->seg;
  t->cap = 0;
  t->cjk = 0;
  x->brk = 0;
  return t;
}

static int on_token(void *ctx, const char *tok, size_t len) {
  tbk_kw_extractor *x = ctx;
  kw_tok *t = push_token(x, intern_word(x, tok, len));
  if (!t) return 1;
  /* The fold is one code point for one, so a first code point that changed
   * was a capital. */
  t->cap = x->first_in_piece && x->lead_cp && x->lead_cp != first_cp(tok, len);
  x->first_in_piece = 0;
  return 0;
}

/* Punctuation a phrase does not cross: Latin-1's (¡ « » ¿ ...), General
 * Punctuation's (dashes, quotes, …) and CJK's (、 。 「 」). */
static int punct_cp(uint32_t c) {
  return (c >= 0xA1 && c <= 0xBF && c != 0xAA && c != 0xB5 && c != 0xBA) || (c >= 0x2010 && c <= 0x205E) ||
         (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF01 && c <= 0xFF0F) || (c >= 0xFF1A && c <= 0xFF20);
}

/* Step back over one UTF-8 sequence ending before e. */
static size_t prev_start(const unsigned char *s, size_t e) {
  size_t i = e - 1;
  while (i > 0 && (s[i] & 0xC0) == 0x80 && e - i < 4) i--;
  return i;
}

/* One space-free piece of text: its tokens continue the phrase unless the
 * piece opens with a bracket, quote or dash, or holds no word at all; a
 * phrase ends after a piece that closes with sentence or clause
 * punctuation. */
static inline __attribute__((always_inline)) void add_latin(tbk_kw_extractor *x, const char *p, size_t n) {
  const unsigned char *u = (const unsigned char *)p;
  size_t i = 0;
  int opened = 0;
  while (i < n) {
    if (u[i] < 0x80) {
      if (tbk_ascii_word(u[i])) break;
      if (strchr("([{\"<", u[i])) opened = 1;
      i++;
      continue;
    }
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (!k) k = 1;
    uint32_t c = tbk_utf8_decode(u + i, k);
    if (!punct_cp(c)) break;
    opened = 1;
    i += k;
  }
  if (opened) x->brk = 1;
  x->lead_cp = i < n ? first_cp(p + i, n - i) : 0;
  if (x->lead_cp >= 0x80 || (x->lead_cp >= 'A' && x->lead_cp <= 'Z')) {
    /* kept: a capital, or a letter beyond ASCII the fold may change */
  } else {
    x->lead_cp = 0;
  }
  x->first_in_piece = 1;
  size_t before = x->ntok;
  tbk_tokenize_valid(x->tok, p, n, on_token, x);
  if (x->ntok == before) {
    x->brk = 1; /* "|", "-", "»": a separator */
    return;
  }
  if (n) {
    size_t s = prev_start(u, n);
    uint32_t c = u[s] < 0x80 ? u[s] : first_cp(p + s, n - s);
    if ((c < 0x80 && c && strchr(".,;:!?)]}\">", (int)c)) || (c >= 0x80 && punct_cp(c))) x->brk = 1;
  }
}

/* The Han/Kana letter at p[0..n) (its KW_CJK_* kind, *len its bytes), or
 * KW_CJK_NONE. */
static int cjk_at(const char *p, size_t n, size_t *len) {
  const unsigned char *u = (const unsigned char *)p;
  if (u[0] < 0xE3) return KW_CJK_NONE; /* below U+3000 */
  size_t k = tbk_utf8_seq(u, n);
  if (!k) return KW_CJK_NONE;
  *len = k;
  return kw_cjk_kind(tbk_utf8_decode(u, k));
}

/* A run of Han/Kana letters: a phrase of its own, one token per character
 * (stop words are found once the page's language is known). */
static void add_cjk(tbk_kw_extractor *x, const char *p, size_t n) {
  x->brk = 1;
  x->any_cjk = 1;
  for (size_t i = 0, k = 0; i < n && !x->failed; i += k) {
    int kind = cjk_at(p + i, n - i, &k);
    long id = intern_word_call(x, p + i, k);
    kw_tok *t = push_token(x, id);
    if (t) t->cjk = (uint8_t)kind;
  }
  x->brk = 1;
}

static void add_latin_part(tbk_kw_extractor *x, const char *p, size_t n) { add_latin(x, p, n); }

/* A space-free piece with a byte of U+3000 or above: its Han/Kana runs as
 * characters, the rest through the tokenizer (a piece without them exactly
 * as before they were). */
static void add_mixed(tbk_kw_extractor *x, const char *p, size_t n) {
  size_t i = 0, from = 0, k = 0;
  while (i < n && !x->failed) {
    if (!cjk_at(p + i, n - i, &k)) {
      i++;
      continue;
    }
    size_t e = i + k;
    while (e < n && cjk_at(p + e, n - e, &k)) e += k;
    if (i > from) add_latin_part(x, p + from, i - from);
    add_cjk(x, p + i, e - i);
    i = from = e;
  }
  if (from == 0) add_latin_part(x, p, n);
  else if (from < n) add_latin_part(x, p + from, n - from);
}

/* Valid, normalized UTF-8 without line ends. */
static void add_valid(tbk_kw_extractor *x, const char *s, size_t n) {
  /* Nothing below U+3000 is Han/Kana: one pass (vectorized) tells whether
   * any piece needs add_mixed. */
  const unsigned char *u = (const unsigned char *)s;
  int high = 0;
  for (size_t k = 0; k < n; k++) high |= u[k] >= 0xE3;
  size_t i = 0;
  while (i < n && !x->failed) {
    while (i < n && s[i] == ' ') i++;
    size_t j = i;
    while (j < n && s[j] != ' ') j++;
    if (j > i) {
      if (high) add_mixed(x, s + i, j - i);
      else add_latin(x, s + i, j - i);
    }
    i = j;
  }
}

tbk_status tbk_kw_add_text(tbk_kw_extractor *x, const char *s, size_t n, unsigned seg) {
  x->seg = seg;
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    while (j < n && s[j] != '\n' && s[j] != '\r') j++;
    x->scratch.len = 0;
    if (tbk_text_normalize(s + i, j - i, &x->scratch)) return TBK_ERR_NOMEM;
    x->brk = 1;
    /* the scratch buffer is reused by intern_word: work on a copy */
    tbk_buf line = {0};
    if (x->scratch.len && tbk_buf_append(&line, x->scratch.data, x->scratch.len)) return TBK_ERR_NOMEM;
    add_valid(x, line.data, line.len);
    tbk_buf_free(&line);
    if (x->failed) return TBK_ERR_NOMEM;
    i = j + 1;
  }
  x->brk = 1;
  return TBK_OK;
}

/* A node flag beside the TBK_KW_SEG_* ones, never a segment's: inside an
 * <a rel="tag"> (HTML's link type: the target is a tag of this document,
 * e.g. WordPress's rel="category tag"). The page's own tags say what it
 * is about, whatever the denoiser decided of the list they stand in. */
#define SEG_REL_TAG 0x80
/* A node flag too: inside a link to a tag's page ("/tag/…", "/tags/…",
 * Blogger's "/search/label/…"), how most publishing systems link a post's
 * tags without rel="tag". Unlike rel="tag" the link alone does not say
 * whose tags they are (a sidebar's tag cloud links so too): they are the
 * page's in text the denoiser keeps or in a block the template stage calls
 * the page's own (TBK_KW_KEEP_OWN). */
#define SEG_TAG_HREF 0x20

/* Whether an href's path ends in a segment naming tags and the tag:
 * "/tags/macos/", "https://x.org/blog/tag/climate?page=2". */
static int is_tag_href(const char *attrs) {
  static const char *const names[] = {"tag", "tags", "label", "schlagwort", "stichwort", NULL};
  const char *p = attrs, *v = NULL, *name;
  while (p && (name = tbk_attr_next(&p, &v))) {
    if (strcmp(name, "href") || !v) continue;
    const char *q = strstr(v, "://");
    if (q && !(q = strchr(q + 3, '/'))) return 0; /* the path, after the host */
    if (!q) q = v;
    size_t end = strcspn(q, "?#");
    while (end && q[end - 1] == '/') end--;
    size_t last = end; /* the last segment: the tag */
    while (last && q[last - 1] != '/') last--;
    if (!last || last == end) return 0;
    size_t start = last - 1; /* the segment before it */
    while (start && q[start - 1] != '/') start--;
    size_t l = last - 1 - start;
    for (size_t w = 0; names[w]; w++)
      if (strlen(names[w]) == l && !strncasecmp(q + start, names[w], l)) return 1;
  }
  return 0;
}

static int is_rel_tag(const char *attrs) {
  const char *p = attrs, *v = NULL, *name;
  while (p && (name = tbk_attr_next(&p, &v)))
    if (!strcmp(name, "rel") && v)
      for (const char *q = v; *q;) {
        q += strspn(q, " \t\n\r\f");
        size_t l = strcspn(q, " \t\n\r\f");
        if (l == 3 && !strncasecmp(q, "tag", 3)) return 1;
        q += l;
      }
  return 0;
}

/* The page's <title> (its first 1000 bytes) as the title segment: 0, -1
 * out of memory. */
static int add_title(tbk_kw_extractor *x, const tbk_page *page) {
  x->title.len = 0;
  if (tbk_page_title(page, 1000, &x->title)) return -1;
  return x->title.len && tbk_kw_add_text(x, x->title.data, x->title.len, TBK_KW_SEG_TITLE) ? -1 : 0;
}

tbk_status tbk_kw_add_page(tbk_kw_extractor *x, const tbk_page *page, const unsigned char *keep) {
  const tbk_page_view pv = tbk_page_view_of(page);
  if (add_title(x, page)) return TBK_ERR_NOMEM;
  size_t nn = pv.n_nodes;
  if (nn > x->node_cap) {
    size_t cap = tbk_grow_cap(x->node_cap, nn, sizeof(uint32_t));
    if (!cap || tbk_resize(&x->node_le, cap, sizeof *x->node_le) || tbk_resize(&x->node_seg, cap, 1))
      return TBK_ERR_NOMEM;
    x->node_cap = cap;
  }
  /* Parents come before their children in the node table. */
  for (size_t i = 0; i < nn; i++) {
    const tbk_node *nd = &pv.nodes[i];
    uint32_t par = nd->parent;
    int heading = nd->tag >= TBK_TAG_H1 && nd->tag <= TBK_TAG_H6;
    uint8_t inherited = par == TBK_NONE ? 0 : x->node_seg[par] & TBK_KW_SEG_HEADING;
    x->node_seg[i] = (uint8_t)(inherited | (heading ? TBK_KW_SEG_HEADING : 0) |
                               (nd->in_anchor ? TBK_KW_SEG_ANCHOR : 0));
    x->node_le[i] = (tbk_tag_flags(nd->tag) & TAG_BREAK) || par == TBK_NONE ? (uint32_t)i : x->node_le[par];
    if ((par != TBK_NONE && (x->node_seg[par] & SEG_REL_TAG)) || (nd->tag == TBK_TAG_A && is_rel_tag(nd->attrs)))
      x->node_seg[i] |= SEG_REL_TAG;
    else if ((par != TBK_NONE && (x->node_seg[par] & SEG_TAG_HREF)) || (nd->tag == TBK_TAG_A && is_tag_href(nd->attrs)))
      x->node_seg[i] |= SEG_TAG_HREF;
  }
  uint32_t cur = TBK_NONE;
  x->brk = 1;
  for (size_t r = 0; r < pv.n_runs && !x->failed; r++) {
    const tbk_run *run = &pv.runs[r];
    uint8_t ns = run->node < nn ? x->node_seg[run->node] : 0;
    int tag = (ns & SEG_REL_TAG) || ((ns & SEG_TAG_HREF) && (!keep || keep[r]));
    if (keep && keep[r] != 1 && !tag) {
      x->brk = 1; /* no phrase across removed text */
      if (x->removed_now > 0) {
        cur = TBK_NONE;
        x->seg = SEG_REMOVED;
        add_valid(x, pv.text + run->start, run->end - run->start);
        x->brk = 1;
      }
      continue;
    }
    uint32_t le = run->node < nn ? x->node_le[run->node] : TBK_NONE;
    if (le != cur) x->brk = 1;
    cur = le;
    x->seg = (uint8_t)((ns & ~(SEG_REL_TAG | SEG_TAG_HREF)) | (tag ? TBK_KW_SEG_TAG : 0));
    add_valid(x, pv.text + run->start, run->end - run->start);
  }
  x->brk = 1;
  return x->failed ? TBK_ERR_NOMEM : TBK_OK;
}

/* ------------------------------------------------------------ candidates */

static size_t cand_hash(const uint32_t id[TBK_KW_MAX_WORDS]) {
  return (size_t)tbk_hash64(id, sizeof(uint32_t) * TBK_KW_MAX_WORDS);
}

static size_t cand_hash_of(const void *ctx, size_t c) {
  const tbk_kw_extractor *x = ctx;
  return cand_hash(x->cid[c]);
}

/* The candidate of these stems (ids + 1), made when new; -1 out of memory.
 * Inlined: called for every Latin n-gram. */
static inline __attribute__((always_inline)) long cand_get(tbk_kw_extractor *x, const uint32_t id[TBK_KW_MAX_WORDS],
                                                           uint32_t tok, uint8_t words) {
  if (kw_slots_reserve(&x->cslots, &x->cnslots, x->ncand, 1024, cand_hash_of, x)) return -1;
  size_t h = cand_hash(id) & (x->cnslots - 1);
  for (;; h = (h + 1) & (x->cnslots - 1)) {
    uint32_t v = x->cslots[h];
    if (!v) break;
    if (memcmp(x->cid[v - 1], id, sizeof x->cid[0]) == 0) return (long)v - 1;
  }
  if (x->ncand == x->cand_cap) {
    size_t cap = tbk_grow_cap(x->cand_cap, x->ncand + 1, sizeof(tbk_kw_cand));
    if (!cap || tbk_resize(&x->cands, cap, sizeof *x->cands) || tbk_resize(&x->cid, cap, sizeof *x->cid) ||
        tbk_resize(&x->cfirst, cap, sizeof *x->cfirst) || tbk_resize(&x->ckept, cap, sizeof *x->ckept))
      return -1;
    x->cand_cap = cap;
  }
  size_t c = x->ncand++;
  memcpy(x->cid[c], id, sizeof x->cid[0]);
  x->cfirst[c] = tok;
  tbk_kw_cand *k = &x->cands[c];
  memset(k, 0, sizeof *k);
  k->first = UINT32_MAX;
  k->words = words;
  x->cslots[h] = (uint32_t)c + 1;
  return (long)c;
}

/* The candidate of these ids, or -1. */
static long cand_find(const tbk_kw_extractor *x, const uint32_t id[TBK_KW_MAX_WORDS]) {
  if (!x->cnslots) return -1;
  for (size_t h = cand_hash(id) & (x->cnslots - 1);; h = (h + 1) & (x->cnslots - 1)) {
    uint32_t v = x->cslots[h];
    if (!v) return -1;
    if (memcmp(x->cid[v - 1], id, sizeof x->cid[0]) == 0) return (long)v - 1;
  }
}

/* The list covering most of the words (Han/Kana characters left to
 * cjk_language); *hits its count. */
static int pick_language(tbk_kw_extractor *x, size_t *hits) {
  size_t count[KW_MAX_LANGS] = {0};
  for (size_t i = 0; i < x->ntok; i++)
    if (!x->toks[i].cjk && !(x->toks[i].seg & SEG_REMOVED))
      for (uint32_t m = x->w_stop[x->toks[i].word]; m; m &= m - 1) count[__builtin_ctz(m)]++;
  int best = -1;
  *hits = 0;
  size_t nl = tbk_kw_languages(NULL);
  for (size_t l = 0; l < nl; l++)
    if (count[l] && (best < 0 || count[l] > count[best])) best = (int)l;
  if (best >= 0) *hits = count[best];
  return best;
}

/* Keys and texts, written once every candidate exists (the buffer may move
 * while it grows, so pointers are set at the end). */
static int write_strings(tbk_kw_extractor *x) {
  size_t *at = malloc((x->ncand ? x->ncand : 1) * 2 * sizeof *at);
  if (!at) return -1;
  for (size_t c = 0; c < x->ncand; c++) {
    at[2 * c] = x->strs.len;
    /* a Han/Kana span is written as in the source: no spaces */
    size_t nid = x->cands[c].chars ? 1 : x->cands[c].words;
    for (size_t k = 0; k < nid; k++) {
      uint32_t s = x->cid[c][k] - 1;
      if ((k && tbk_buf_append(&x->strs, " ", 1)) ||
          tbk_buf_append(&x->strs, kw_strtab_str(&x->stems, s), x->stems.len[s]))
        goto fail;
    }
    if (tbk_buf_append(&x->strs, "", 1)) goto fail;
    at[2 * c + 1] = x->strs.len;
    if (x->cands[c].chars) { /* the span as written: its key */
      uint32_t s = x->cid[c][0] - 1;
      if (tbk_buf_append(&x->strs, kw_strtab_str(&x->stems, s), x->stems.len[s])) goto fail;
    }
    for (size_t k = 0; !x->cands[c].chars && k < nid; k++) {
      uint32_t w = x->toks[x->cfirst[c] + k].word;
      if ((k && tbk_buf_append(&x->strs, " ", 1)) ||
          tbk_buf_append(&x->strs, kw_strtab_str(&x->words, w), x->words.len[w]))
        goto fail;
    }
    if (tbk_buf_append(&x->strs, "", 1)) goto fail;
  }
  for (size_t c = 0; c < x->ncand; c++) {
    x->cands[c].key = x->strs.data + at[2 * c];
    x->cands[c].text = x->strs.data + at[2 * c + 1];
  }
  free(at);
  return 0;
fail:
  free(at);
  return -1;
}

#define KW_TOK_STOP 0x80

/* Stop words of list lbit inside Han/Kana phrases: at each character the
 * longest entry of up to KW_CJK_STOP_CHARS characters that matches, marked
 * on its characters when mark. Returns the entries found, -1 out of
 * memory. */
#define KW_CJK_STOP_CHARS 4
static long mark_cjk_stops(tbk_kw_extractor *x, uint32_t lbit, int mark) {
  long found = 0;
  for (size_t i = 0; i < x->ntok;) {
    if (!x->toks[i].cjk) {
      i++;
      continue;
    }
    size_t m = 0;
    x->scratch.len = 0;
    for (size_t k = 0; k < KW_CJK_STOP_CHARS && i + k < x->ntok; k++) {
      const kw_tok *t = &x->toks[i + k];
      if (!t->cjk || (k && t->brk)) break;
      if (tbk_buf_append(&x->scratch, kw_strtab_str(&x->words, t->word), x->words.len[t->word])) return -1;
      if (stop_mask_of(x->scratch.data, x->scratch.len) & lbit) m = k + 1;
    }
    for (size_t k = 0; mark && k < m; k++) x->toks[i + k].cjk |= KW_TOK_STOP;
    found += m > 0 && !(x->toks[i].seg & SEG_REMOVED);
    i += m ? m : 1;
  }
  return found;
}

/* The stop list of the Han/Kana text: the one whose entries are found most
 * often in it (particles and function words are frequent enough that a page
 * of a few sentences has some), chosen apart from the Latin words' list so
 * that a Chinese page's English menu keeps English stop words. *hits its
 * count; -1 none, -2 out of memory. */
static int cjk_language(tbk_kw_extractor *x, size_t *hits) {
  int best = -1;
  *hits = 0;
  size_t nl = tbk_kw_languages(NULL);
  for (size_t l = 0; l < nl; l++) {
    long f = mark_cjk_stops(x, 1u << l, 0);
    if (f < 0) return -2;
    if (f > 0 && (size_t)f > *hits) {
      best = (int)l;
      *hits = (size_t)f;
    }
  }
  return best;
}

/* The kind of token i when it may be part of a Han/Kana span, else 0. */
static int span_kind(const tbk_kw_extractor *x, size_t i) {
  return i < x->ntok && !(x->toks[i].cjk & KW_TOK_STOP) ? x->toks[i].cjk : KW_CJK_NONE;
}

/* Whether tokens i - 1 and i are letters of one Katakana run (a word such
 * as リュックサック): a span starting at i or ending at i - 1 would cut
 * the word (リュ, ュッ, ックサ), so none does. */
static int katakana_joined(const tbk_kw_extractor *x, size_t i) {
  return i > 0 && i < x->ntok && !x->toks[i].brk && (x->toks[i].cjk & ~KW_TOK_STOP) == KW_CJK_KATAKANA &&
         (x->toks[i - 1].cjk & ~KW_TOK_STOP) == KW_CJK_KATAKANA;
}

/* A span's Latin-equivalent words: a word is about two Han characters. */
static uint8_t span_words(unsigned units) {
  unsigned w = (units + 3) / 4;
  return (uint8_t)(w < 1 ? 1 : w > TBK_KW_MAX_WORDS ? TBK_KW_MAX_WORDS : w);
}

/* The candidate ids of a span: its string's id in stems
 * (added when new and add) + 1; id[0] 0 when absent. -1 out of memory. */
static int span_ids(tbk_kw_extractor *x, const tbk_buf *span, int add, uint32_t id[TBK_KW_MAX_WORDS]) {
  memset(id, 0, sizeof(uint32_t) * TBK_KW_MAX_WORDS);
  long sid = add ? kw_strtab_intern(&x->stems, span->data, span->len, NULL)
                 : kw_strtab_find(&x->stems, span->data, span->len);
  if (sid < -1 || (add && sid < 0)) return -1;
  id[0] = (uint32_t)(sid + 1);
  return 0;
}

/* Calls fn(x, i, n, units) for every candidate span starting at token i,
 * the span's text in x->span; stops at fn's nonzero return. */
typedef int (*span_fn)(tbk_kw_extractor *x, size_t i, size_t n, unsigned units);
static int each_span(tbk_kw_extractor *x, size_t i, span_fn fn) {
  int k0 = span_kind(x, i);
  if (!k0 || k0 == KW_CJK_HIRAGANA || katakana_joined(x, i)) return 0;
  unsigned units = 0;
  x->span.len = 0;
  for (size_t n = 1; n <= KW_CJK_MAX_CHARS; n++) {
    int kind = span_kind(x, i + n - 1);
    if (!kind || (n > 1 && x->toks[i + n - 1].brk)) break;
    units += kw_cjk_units(kind);
    if (units > KW_CJK_MAX_UNITS) break;
    uint32_t w = x->toks[i + n - 1].word;
    if (tbk_buf_append(&x->span, kw_strtab_str(&x->words, w), x->words.len[w])) return 1;
    if (n > 1 && kind != KW_CJK_HIRAGANA && !katakana_joined(x, i + n) && fn(x, i, n, units)) return 1;
  }
  return 0;
}

static int count_span(tbk_kw_extractor *x, size_t i, size_t n, unsigned units) {
  uint32_t id[TBK_KW_MAX_WORDS];
  if (span_ids(x, &x->span, 1, id)) return 1;
  long c = cand_get(x, id, (uint32_t)i, span_words(units));
  if (c < 0) return 1;
  tbk_kw_cand *k = &x->cands[c];
  k->chars = (uint8_t)n;
  if (x->toks[i].seg & TBK_KW_SEG_TITLE) k->in_title = 1;
  else if (x->toks[i].seg & SEG_REMOVED) k->removed++;
  else k->tf++;
  return 0;
}

/* Whether the longer span of tokens [a, b) (b - a > n of the one inside)
 * grown to end on letters other than Hiragana, and not inside a Katakana
 * word, is a candidate found twice. */
static int repeated(tbk_kw_extractor *x, size_t a, size_t b, size_t lo, size_t hi) {
  while (a > lo && span_kind(x, a) == KW_CJK_HIRAGANA) a--;
  while (b < hi && span_kind(x, b - 1) == KW_CJK_HIRAGANA) b++;
  /* ... and to a whole Katakana word, as spans are */
  while (a > lo && katakana_joined(x, a)) a--;
  while (b < hi && katakana_joined(x, b)) b++;
  if (span_kind(x, a) == KW_CJK_HIRAGANA || span_kind(x, b - 1) == KW_CJK_HIRAGANA) return 0;
  if (katakana_joined(x, a) || katakana_joined(x, b)) return 0;
  if (b - a > KW_CJK_MAX_CHARS) return 0;
  unsigned units = 0;
  x->scratch.len = 0;
  for (size_t k = a; k < b; k++) {
    units += kw_cjk_units(span_kind(x, k));
    uint32_t w = x->toks[k].word;
    if (tbk_buf_append(&x->scratch, kw_strtab_str(&x->words, w), x->words.len[w])) return 0;
  }
  uint32_t id[TBK_KW_MAX_WORDS];
  if (units > KW_CJK_MAX_UNITS || span_ids(x, &x->scratch, 0, id) || !id[0]) return 0;
  long c = cand_find(x, id);
  return c >= 0 && x->cands[c].tf >= 2;
}

/* A body occurrence inside a longer span found twice or more counts for
 * that span only. One character more on either side (and any Hiragana
 * after it) finds such a span whenever one holds the occurrence: every
 * span between the two is found at least as often as the longer one. */
static int keep_span(tbk_kw_extractor *x, size_t i, size_t n, unsigned units) {
  (void)units;
  if (x->toks[i].seg & (TBK_KW_SEG_TITLE | SEG_REMOVED)) return 0;
  size_t lo = i, hi = i + n; /* the phrase's Han/Kana letters around it */
  while (lo > 0 && !x->toks[lo].brk && span_kind(x, lo - 1)) lo--;
  while (hi < x->ntok && !x->toks[hi].brk && span_kind(x, hi)) hi++;
  if ((i > lo && repeated(x, i - 1, i + n, lo, hi)) || (i + n < hi && repeated(x, i, i + n + 1, lo, hi))) return 0;
  uint32_t id[TBK_KW_MAX_WORDS];
  if (span_ids(x, &x->span, 0, id) || !id[0]) return 0;
  long c = cand_find(x, id);
  if (c < 0) return 0;
  tbk_kw_cand *k = &x->cands[c];
  if (!x->ckept[c]++) {
    k->first = x->span_pos;
    x->cfirst[c] = (uint32_t)i;
  }
  k->heading += (x->toks[i].seg & TBK_KW_SEG_HEADING) != 0;
  k->anchor += (x->toks[i].seg & TBK_KW_SEG_ANCHOR) != 0;
  return 0;
}

/* Candidate from moved down to slot to (to <= from), when a pass drops
 * some: what the candidate is, its stems and its first token. */
static void move_cand(tbk_kw_extractor *x, size_t to, size_t from) {
  if (to == from) return;
  x->cands[to] = x->cands[from];
  memcpy(x->cid[to], x->cid[from], sizeof x->cid[0]);
  x->cfirst[to] = x->cfirst[from];
}

/* The Han/Kana spans' body counts once every span's raw count is known:
 * the occurrences not inside a longer repeated span, the first of them
 * and their heading and anchor shares; a span with none (all of it part of
 * longer ones) is no candidate. */
static void count_cjk(tbk_kw_extractor *x) {
  for (size_t c = 0; c < x->ncand; c++)
    if (x->cands[c].chars) {
      x->ckept[c] = 0;
      x->cands[c].heading = x->cands[c].anchor = 0;
      x->cands[c].first = UINT32_MAX;
    }
  uint32_t body = 0;
  for (size_t i = 0; i < x->ntok; i++) {
    if (x->toks[i].seg & (TBK_KW_SEG_TITLE | SEG_REMOVED)) continue;
    x->span_pos = body++;
    each_span(x, i, keep_span);
  }
  size_t m = 0;
  for (size_t c = 0; c < x->ncand; c++) {
    tbk_kw_cand *k = &x->cands[c];
    if (k->chars) {
      if (k->tf && !x->ckept[c]) continue;
      k->tf = x->ckept[c];
    }
    move_cand(x, m++, c);
  }
  x->ncand = m;
}

/* The candidates found only in removed text go: the candidates are the
 * kept text's, whatever the weight of the removed text. A title-only one
 * stays, as without removed text. The slots are not rebuilt: nothing looks
 * a candidate up after tbk_kw_finish. */
static void drop_removed_only(tbk_kw_extractor *x) {
  size_t m = 0;
  for (size_t c = 0; c < x->ncand; c++) {
    if (x->cands[c].tf || x->cands[c].in_title) move_cand(x, m++, c);
  }
  x->ncand = m;
}

tbk_status tbk_kw_finish(tbk_kw_extractor *x, tbk_error *err) {
  if (x->failed) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  size_t hits, cjk_hits = 0;
  x->lang = pick_language(x, &hits);
  uint32_t lbit = x->lang < 0 ? 0 : 1u << x->lang;
  if (x->any_cjk) {
    int cl = cjk_language(x, &cjk_hits);
    if (cl == -2 || (cl >= 0 && mark_cjk_stops(x, 1u << cl, 1) < 0))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    if (cl >= 0 && cjk_hits > hits) x->lang = cl; /* the page's language as reported */
  }
  size_t body = 0;
  for (size_t i = 0; i < x->ntok; i++)
    if (!(x->toks[i].seg & (TBK_KW_SEG_TITLE | SEG_REMOVED))) x->s_count[x->w_stem[x->toks[i].word]]++;
  for (size_t i = 0; i < x->ntok; i++) {
    const kw_tok *t0 = &x->toks[i];
    int in_title = (t0->seg & TBK_KW_SEG_TITLE) != 0, removed = (t0->seg & SEG_REMOVED) != 0;
    uint32_t pos = (uint32_t)body;
    if (!in_title && !removed) body++;
    if (t0->cjk) {
      if (each_span(x, i, count_span)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      continue;
    }
    if (x->w_stop[t0->word] & lbit) continue;
    uint32_t id[TBK_KW_MAX_WORDS] = {0};
    int all_caps = 1, number = 0, words = 0;
    for (size_t n = 1; n <= TBK_KW_MAX_WORDS && i + n <= x->ntok; n++) {
      const kw_tok *t = &x->toks[i + n - 1];
      if (n > 1 && t->brk) break;
      id[n - 1] = x->w_stem[t->word] + 1;
      int stop = (x->w_stop[t->word] & lbit) != 0;
      if (!stop) {
        all_caps &= t->cap;
        number += x->w_num[t->word];
        words++;
      }
      if (stop) continue;
      /* Numbers alone ("2012", "10 14") are no keywords. */
      if (number == words) continue;
      /* One ASCII letter or digit is no keyword ("s" of "U.S."). */
      if (n == 1 && x->words.len[t->word] == 1 && (unsigned char)kw_strtab_str(&x->words, t->word)[0] < 0x80) continue;
      long c = cand_get(x, id, (uint32_t)i, (uint8_t)n);
      if (c < 0) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      tbk_kw_cand *k = &x->cands[c];
      k->number |= number > 0;
      if (in_title) {
        k->in_title = 1;
        continue;
      }
      if (removed) {
        k->removed++;
        continue;
      }
      if (k->first == UINT32_MAX) {
        k->first = pos;
        x->cfirst[c] = (uint32_t)i; /* the body's form names it */
      }
      k->tf++;
      k->in_tag |= (t0->seg & TBK_KW_SEG_TAG) != 0;
      k->heading += (t0->seg & TBK_KW_SEG_HEADING) != 0;
      k->anchor += (t0->seg & TBK_KW_SEG_ANCHOR) != 0;
      k->caps += all_caps;
    }
  }
  x->body = body;
  if (x->any_cjk) count_cjk(x);
  if (x->removed_now > 0) drop_removed_only(x);
  for (size_t c = 0; c < x->ncand; c++) {
    double sum = 0;
    int n = 0;
    size_t nw = x->cands[c].chars ? x->cands[c].chars : x->cands[c].words; /* a span: its characters */
    for (size_t k = 0; k < nw; k++) {
      uint32_t w = x->toks[x->cfirst[c] + k].word;
      if (!x->cands[c].chars && (x->w_stop[w] & lbit)) continue;
      sum += log1p((double)x->s_count[x->w_stem[w]]);
      n++;
    }
    x->cands[c].word_tf = n ? (float)(sum / n) : 0.0f;
  }
  if (write_strings(x)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return TBK_OK;
}

/* ---------------------------------------------------------------- ranking */

static void features(const tbk_kw_extractor *x, tbk_kw_cand *c, const tbk_kw_df *df) {
  double *f = c->x;
  double tf = c->tf, n = x->body ? (double)x->body : 1.0;
  f[TBK_KW_F_TF_LOG] = log1p(tf);
  f[TBK_KW_F_TF_REL] = log1p(1000.0 * tf / n);
  double idf = 1.0, dflog = 0.0;
  if (df && tbk_kw_df_docs(df)) {
    double d = (double)tbk_kw_df_docs(df), v = tbk_kw_df_get(df, c->key, strlen(c->key));
    idf = 1.0 + log((d + 1.0) / (v + 1.0));
    dflog = log1p(1000.0 * v / d);
  }
  f[TBK_KW_F_IDF] = idf;
  f[TBK_KW_F_DF_LOG] = dflog;
  f[TBK_KW_F_TFIDF] = tf * idf;
  f[TBK_KW_F_FIRST_POS] = c->first == UINT32_MAX ? 1.0 : c->first / n;
  f[TBK_KW_F_IN_TITLE] = c->in_title;
  f[TBK_KW_F_HEADING] = c->tf ? c->heading / tf : 0.0;
  f[TBK_KW_F_ANCHOR] = c->tf ? c->anchor / tf : 0.0;
  f[TBK_KW_F_CAPS] = c->tf ? c->caps / tf : 0.0;
  f[TBK_KW_F_LEN1] = c->words == 1;
  f[TBK_KW_F_LEN2] = c->words == 2;
  f[TBK_KW_F_LEN3] = c->words == 3;
  f[TBK_KW_F_NUMBER] = c->number;
  f[TBK_KW_F_WORD_TF] = c->word_tf;
  /* Latin-equivalent characters for a Han/Kana span (bytes would count a
   * Han character three times) */
  f[TBK_KW_F_CHARS] = log1p((double)(c->chars ? tbk_text_length(c->key, strlen(c->key)) : strlen(c->key)));
}

static int by_score(const void *a, const void *b) {
  const tbk_kw_cand *x = a, *y = b;
  if (x->score != y->score) return x->score > y->score ? -1 : 1;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  return strcmp(x->key, y->key);
}

void tbk_kw_rank(tbk_kw_extractor *x, const tbk_kw_df *df, const tbk_kw_ranker *ranker) {
  for (size_t i = 0; i < x->ncand; i++) {
    tbk_kw_cand *c = &x->cands[i];
    features(x, c, df);
    if (!ranker) {
      /* The <title> counts as one occurrence: it is the page's own in
       * every denoising, and its words are what the page is about; so do
       * the page's tags, its author's own keywords. */
      c->score = (c->tf + x->removed_now * c->removed + (c->in_title ? 1.0 : 0.0) + (c->in_tag ? 1.0 : 0.0)) *
                 c->x[TBK_KW_F_IDF];
      continue;
    }
    double z = ranker->bias;
    for (size_t j = 0; j < TBK_KW_NFEAT; j++) z += ranker->w[j] * c->x[j];
    c->score = tbk_sigmoid(z);
  }
  /* The candidate order changes: cid and cfirst are only needed until
   * tbk_kw_finish is done, so they are not kept in step. */
  qsort(x->cands, x->ncand, sizeof *x->cands, by_score);
}

/* ------------------------------------------------------------------ keys */

typedef struct key_ctx {
  tbk_buf *out;
  size_t words;
  char *stem;
  int nomem;
} key_ctx;

static int key_token(void *ctx, const char *tok, size_t len) {
  key_ctx *k = ctx;
  if (++k->words > TBK_KW_MAX_WORDS) return 1;
  char *s = malloc(len + 1);
  if (!s) {
    k->nomem = 1;
    return 1;
  }
  size_t sl = tbk_kw_stem(tok, len, s);
  int bad = (k->words > 1 && tbk_buf_append(k->out, " ", 1)) || tbk_buf_append(k->out, s, sl);
  free(s);
  if (bad) k->nomem = 1;
  return bad;
}

/* The key of a Han/Kana phrase: itself, when it is all Han/Kana letters
 * and could be a candidate span (1, appended with a NUL); 0 when it holds
 * none of them; -2 when it holds some but is no span. */
static int cjk_key(const char *s, size_t n, tbk_buf *out) {
  while (n && s[0] == ' ') s++, n--;
  while (n && s[n - 1] == ' ') n--;
  size_t chars = 0, k = 0, nonc = 0;
  unsigned units = 0;
  int kind = KW_CJK_NONE, first = KW_CJK_NONE;
  for (size_t i = 0; i < n; i += k) {
    kind = cjk_at(s + i, n - i, &k);
    if (!kind) {
      k = 1;
      nonc++;
      continue;
    }
    if (!chars++) first = kind;
    units += kw_cjk_units(kind);
  }
  if (!chars) return 0;
  if (nonc || chars < 2 || chars > KW_CJK_MAX_CHARS || units > KW_CJK_MAX_UNITS || first == KW_CJK_HIRAGANA ||
      kind == KW_CJK_HIRAGANA)
    return -2;
  return tbk_buf_append(out, s, n) || tbk_buf_append(out, "", 1) ? -1 : 1;
}

int tbk_kw_key_of(tbk_kw_extractor *x, const char *s, size_t n, tbk_buf *out) {
  int r = tbk_utf8_valid(s, n) ? cjk_key(s, n, out) : 0;
  if (r) return r == -2 ? 0 : r;
  size_t at = out->len;
  key_ctx k = {out, 0, NULL, 0};
  tbk_tokenize(x->tok, s, n, key_token, &k);
  if (k.nomem) {
    out->len = at;
    return -1;
  }
  if (!k.words || k.words > TBK_KW_MAX_WORDS) {
    out->len = at;
    return 0;
  }
  return tbk_buf_append(out, "", 1) ? -1 : 1;
}

tbk_status tbk_kw_extract_text(tbk_kw_extractor *x, const char *s, size_t n, tbk_error *err) {
  tbk_kw_begin(x);
  if (tbk_kw_add_text(x, s, n, 0)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return tbk_kw_finish(x, err);
}

tbk_status tbk_kw_extract_titled(tbk_kw_extractor *x, const tbk_page *page, const char *s, size_t n, tbk_error *err) {
  tbk_kw_begin(x);
  if (add_title(x, page) || tbk_kw_add_text(x, s, n, 0)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return tbk_kw_finish(x, err);
}

tbk_status tbk_kw_extract_page(tbk_kw_extractor *x, tbk_predictor *pr, const tbk_page *page, tbk_kw_denoise mode,
                               tbk_error *err) {
  tbk_status st = tbk_kw_page_keep(pr, page, mode, NULL, &x->keep, &x->keep_cap, err);
  if (st) return st;
  tbk_kw_begin(x);
  tbk_kw_read_removed(x, mode == TBK_KW_DENOISE_CONTENT ? x->removed_weight : 0);
  if (tbk_kw_add_page(x, page, x->keep)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return tbk_kw_finish(x, err);
}
