/* Page parsing and block segmentation.
 *
 * libxml2's HTML parser (recover mode, no network) parses text we have
 * already decoded to clean UTF-8 into the page's node arena (arena.h: by
 * streaming, by tbk's parser or libxml2's). One iterative walk
 * over the arena then flattens the visible elements into tbk_page.nodes and
 * their text into one collapsed buffer; candidate blocks are elements of the block set whose trimmed text
 * has enough characters and distinct words (Kołcz & Yih, section 4.1). */
#include <limits.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <strings.h>

#include "charset.h"
#include "measure.h"
#include "page_xml.h"
#include "text_internal.h"
#include "util.h"

const tbk_page_options tbk_page_options_default = {
    .blocks = TBK_BLOCKS_PAPER,
    .min_chars = 40,
    .min_words = 3,
    .max_page_bytes = (size_t)64 << 20,
    .max_depth = 4096,
    .max_blocks = 100000,
    .max_nodes = 2000000,
    .max_attrs = 1000,
    .charset_hint = NULL,
    .fingerprints = 1,
    .keep_dom = 0,
    .parser = TBK_PARSER_TBK,
};

void tbk_page_options_init(tbk_page_options *o) { *o = tbk_page_options_default; }

void tbk_page_free(tbk_page *p) {
  if (!p) return;
  tbk_page_free(p->dom);
  tbk_arena_free(&p->arena);
  tbk_buf_free(&p->source);
  tbk_buf_free(&p->recipe);
  free(p->nodes);
  free(p->runs);
  free(p->node_at);
  free(p->run_at);
  free(p->blocks);
  tbk_buf_free(&p->text);
  tbk_buf_free(&p->paths);
  tbk_buf_free(&p->title);
  tbk_buf_free(&p->base_href);
  free(p);
}

size_t tbk_page_block_count(const tbk_page *p) { return p ? p->n_blocks : 0; }
const tbk_block *tbk_page_block(const tbk_page *p, size_t i) { return p && i < p->n_blocks ? &p->blocks[i] : NULL; }
const char *tbk_page_charset(const tbk_page *p) { return p->charset; }
const char *tbk_page_charset_note(const tbk_page *p) { return p->charset_note; }
const char *tbk_page_html_note(const tbk_page *p) { return p->html_note; }
size_t tbk_page_parse_errors(const tbk_page *p) { return p->parse_errors; }
int tbk_page_recovered(const tbk_page *p) { return p->recovered; }
const char *tbk_page_text(const tbk_page *p, size_t *len) {
  if (len) *len = p->text.len;
  return p->text.data ? p->text.data : "";
}
tbk_page_view tbk_page_view_of(const tbk_page *p) {
  if (!p) return (tbk_page_view){0};
  return (tbk_page_view){.nodes = p->nodes,
                         .n_nodes = p->n_nodes,
                         .runs = p->runs,
                         .n_runs = p->n_runs,
                         .text = p->text.data,
                         .text_len = p->text.len,
                         .blocks = p->blocks,
                         .n_blocks = p->n_blocks,
                         .max_depth = p->max_depth,
                         .n_lines = p->n_lines,
                         .text_chars = p->text_chars,
                         .recipe = p->recipe.data,
                         .recipe_len = p->recipe.len};
}

typedef struct name_count {
  const char *name; /* borrowed from the arena; NULL = free slot */
  uint64_t hash;
  uint32_t parent; /* node index of the parent, TBK_NONE at the root */
  uint32_t count;
} name_count;

/* Per-level counters, one per open element level: how many element
 * children it has seen in all, and of each known tag (for locators, which
 * count every DOM sibling, dropped and hidden ones included, as XPath
 * does). A level is emptied by zeroing the few tags it counted, not all of
 * them: an element's children are of a handful of tags. */
typedef struct level_count {
  uint32_t sib;                 /* element children seen */
  uint32_t used;                /* entries of tags */
  uint32_t nth[TBK_TAG_COUNT];  /* of each known tag */
  uint16_t tags[TBK_TAG_COUNT]; /* the tags counted (nth nonzero) */
} level_count;

typedef struct walker {
  tbk_page *p;
  const tbk_arena *a;
  const tbk_page_options *opt;
  size_t cap_nodes;
  size_t cap_node_at, cap_run_at; /* p->node_at, p->run_at (an arena kept for HTML) */
  int at_space;                   /* text buffer ends in a (collapsed) space, or is empty */
  level_count *levels;            /* owned, cap_levels entries, zeroed when made */
  size_t cap_levels;
  name_count *names; /* owned: same-name counters of unknown tags */
  size_t names_cap, names_used;
} walker;

static int soft_space(walker *w) {
  if (w->at_space) return 0;
  w->at_space = 1;
  tbk_buf *t = &w->p->text;
  if (t->cap > t->len + 1) { /* the common case without a call */
    t->data[t->len++] = ' ';
    t->data[t->len] = '\0';
    return 0;
  }
  return tbk_buf_append(t, " ", 1);
}

static int append_text(walker *w, uint32_t tn, uint32_t owner) {
  const char *s = tbk_arena_text(w->a, tn);
  tbk_buf *t = &w->p->text;
  size_t before = t->len;
  const unsigned char *u = (const unsigned char *)s;
  size_t n = strnlen(s, w->a->n[tn].len);
  if (t->cap - t->len <= n + 1 && tbk_buf_reserve(t, n + 1)) return -1;
  for (size_t i = 0; i < n;) {
    unsigned c = u[i];
    if (c > 0x20 && c < 0x7F) {
      /* Printable ASCII, most of any page: copied by the run. */
      size_t j = i + 1;
      for (uint64_t x; j + 8 <= n; j += 8) { /* eight bytes of 0x21..0x7E at a time */
        memcpy(&x, u + j, 8);
        const uint64_t lo7 = x & 0x7F7F7F7F7F7F7F7FULL;
        if ((x | (lo7 + 0x0101010101010101ULL) | ~(lo7 + 0x5F5F5F5F5F5F5F5FULL)) & 0x8080808080808080ULL) break;
      }
      while (j < n && u[j] > 0x20 && u[j] < 0x7F) j++;
      memcpy(t->data + t->len, s + i, j - i);
      t->len += j - i;
      w->at_space = 0;
      i = j;
      continue;
    }
    if (c < 0x80) {
      if (c == ' ' || (c >= 0x09 && c <= 0x0D)) {
        if (!w->at_space) {
          t->data[t->len++] = ' ';
          w->at_space = 1;
        }
      } else if (c >= 0x20 && c != 0x7F) {
        t->data[t->len++] = (char)c;
        w->at_space = 0;
      }
      i++;
      continue;
    }
    size_t k = tbk_utf8_seq(u + i, n - i);
    if (!k) {
      i++;
      continue;
    } /* cannot happen: input was cleaned */
    uint32_t cp = tbk_utf8_decode(u + i, k);
    if (tbk_is_space_cp(cp)) {
      if (!w->at_space) {
        t->data[t->len++] = ' ';
        w->at_space = 1;
      }
    } else if (!(cp >= 0x80 && cp < 0xA0) && cp != 0x200B && cp != 0xFEFF) {
      memcpy(t->data + t->len, s + i, k);
      t->len += k;
      w->at_space = 0;
    }
    i += k;
  }
  t->data[t->len] = '\0';
  if (t->len == before) return 0;
  tbk_page *p = w->p;
  if (tbk_grow(&p->runs, &p->cap_runs, p->n_runs + 1, sizeof *p->runs)) return -1;
  if (w->a->keep) {
    if (tbk_grow(&p->run_at, &w->cap_run_at, p->n_runs + 1, sizeof *p->run_at)) return -1;
    p->run_at[p->n_runs] = tn;
  }
  p->runs[p->n_runs++] = (tbk_run){(uint32_t)before, (uint32_t)t->len, owner};
  return 0;
}

/* Same-name index of an element whose tag we do not know by id, from a
 * hash of (parent, name) -> siblings seen so far: walking back over the
 * previous siblings instead made a million unknown siblings quadratic. */
static int nth_by_name(walker *w, uint32_t parent, const char *name, uint32_t *nth) {
  if ((w->names_used + 1) * 2 > w->names_cap) {
    size_t cap = w->names_cap ? w->names_cap * 2 : 256;
    name_count *t = calloc(cap, sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < w->names_cap; i++) {
      if (!w->names[i].name) continue;
      size_t k = w->names[i].hash & (cap - 1);
      while (t[k].name) k = (k + 1) & (cap - 1);
      t[k] = w->names[i];
    }
    free(w->names);
    w->names = t;
    w->names_cap = cap;
  }
  uint64_t h = tbk_hash64(name, strlen(name)) ^ (parent * 0x9E3779B97F4A7C15ULL);
  size_t k = h & (w->names_cap - 1);
  for (; w->names[k].name; k = (k + 1) & (w->names_cap - 1))
    if (w->names[k].parent == parent && (w->names[k].name == name || strcmp(w->names[k].name, name) == 0)) {
      *nth = ++w->names[k].count;
      return 0;
    }
  w->names[k] = (name_count){name, h, parent, 1};
  w->names_used++;
  *nth = 1;
  return 0;
}

static tbk_status open_element(walker *w, uint32_t x, tbk_tag tag, uint32_t parent, uint32_t sib_index, uint32_t nth,
                               uint32_t *idx, tbk_error *err) {
  tbk_page *p = w->p;
  if (p->n_nodes >= w->opt->max_nodes)
    return tbk_fail(err, TBK_ERR_LIMIT, "page has more than max-nodes (%zu) elements", w->opt->max_nodes);
  if (tbk_grow(&p->nodes, &w->cap_nodes, p->n_nodes + 1, sizeof *p->nodes) ||
      (w->a->keep && tbk_grow(&p->node_at, &w->cap_node_at, p->n_nodes + 1, sizeof *p->node_at)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  uint32_t depth = parent == TBK_NONE ? 1 : p->nodes[parent].depth + 1;
  if (tbk_tag_flags(tag) & TAG_BREAK && soft_space(w)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  uint32_t i = (uint32_t)p->n_nodes++;
  tbk_node *n = &p->nodes[i];
  memset(n, 0, sizeof *n);
  const tbk_arena *a = w->a;
  if (a->keep) p->node_at[i] = x;
  n->name = a->n[x].name;
  n->attrs = tbk_arena_attrs(a, x);
  n->parent = parent;
  n->depth = depth;
  long line = tbk_arena_line(a, x);
  n->line = line > 0 ? (uint32_t)line : 0;
  n->text_start = (uint32_t)p->text.len;
  n->sib_index = sib_index;
  n->sib_count = parent == TBK_NONE ? 1 : p->nodes[parent].child_elems;
  if (n->sib_count <= sib_index) n->sib_count = sib_index + 1;
  n->nth = nth;
  n->child_elems = a->n[x].kids;
  n->block = -1;
  n->cand_anc = TBK_NONE;
  n->tag = (uint16_t)tag;
  n->in_anchor = tag == TBK_TAG_A || (parent != TBK_NONE && p->nodes[parent].in_anchor);
  if (depth > p->max_depth) p->max_depth = depth;
  *idx = i;
  return TBK_OK;
}

static int close_element(walker *w, uint32_t i) {
  tbk_node *n = &w->p->nodes[i];
  n->end = (uint32_t)w->p->n_nodes;
  n->text_end = (uint32_t)w->p->text.len;
  return (tbk_tag_flags(n->tag) & TAG_BREAK) ? soft_space(w) : 0;
}

/* The counters of level, emptied. */
static level_count *enter_level(walker *w, size_t level) {
  size_t had = w->cap_levels;
  if (tbk_grow(&w->levels, &w->cap_levels, level + 1, sizeof *w->levels)) return NULL;
  if (w->cap_levels > had) memset(w->levels + had, 0, (w->cap_levels - had) * sizeof *w->levels);
  level_count *c = &w->levels[level];
  for (uint32_t k = 0; k < c->used; k++) c->nth[c->tags[k]] = 0;
  c->used = c->sib = 0;
  return c;
}

/* Depth-first walk over the arena without recursion: element children
 * are entered, everything else is a leaf. */
static tbk_status walk(walker *w, tbk_error *err) {
  tbk_page *p = w->p;
  const tbk_anode *an = w->a->n;
  uint32_t x = w->a->count ? an[0].first : TBK_ANONE;
  uint32_t parent = TBK_NONE;
  tbk_status st = TBK_OK;
  if (!enter_level(w, 0)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  while (x != TBK_ANONE) {
    uint32_t level = parent == TBK_NONE ? 0 : p->nodes[parent].depth;
    if (an[x].type == TBK_AN_ELEMENT) {
      level_count *row = &w->levels[level];
      uint32_t sib = row->sib++;
      tbk_tag tag = (tbk_tag)an[x].tag;
      uint32_t nth;
      if (tag != TBK_TAG_OTHER) {
        if (!row->nth[tag]) row->tags[row->used++] = (uint16_t)tag;
        nth = ++row->nth[tag];
      } else if (nth_by_name(w, parent, an[x].name, &nth)) {
        st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
        break;
      }
      if (!an[x].unseen) {
        if (level + 1 > w->opt->max_depth) {
          st = tbk_fail(err, TBK_ERR_LIMIT, "elements nested deeper than max-depth (%zu)", w->opt->max_depth);
          break;
        }
        uint32_t idx = TBK_NONE;
        if ((st = open_element(w, x, tag, parent, sib, nth, &idx, err)) != TBK_OK) break;
        if (an[x].first != TBK_ANONE) {
          if (!enter_level(w, level + 1)) {
            st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
            break;
          }
          parent = idx;
          x = an[x].first;
          continue;
        }
        if (close_element(w, idx)) {
          st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
          break;
        }
      }
    } else if ((an[x].type == TBK_AN_TEXT || an[x].type == TBK_AN_CDATA) && parent != TBK_NONE) {
      if (append_text(w, x, parent)) {
        st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
        break;
      }
    }
    /* Advance: next sibling, or climb (closing what we opened) until one. */
    while (x != TBK_ANONE && an[x].next == TBK_ANONE) {
      x = an[x].parent;
      if (x == TBK_ANONE || an[x].type != TBK_AN_ELEMENT || parent == TBK_NONE) {
        x = TBK_ANONE;
        break;
      }
      if (close_element(w, parent)) {
        st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
        x = TBK_ANONE;
        break;
      }
      parent = p->nodes[parent].parent;
    }
    if (st != TBK_OK || x == TBK_ANONE) break;
    x = an[x].next;
  }
  return st;
}

/* The locator of node i in cur, given the locators of its ancestors
 * (lens[d] = length of the depth-d ancestor's locator in cur). Nodes come
 * in document order, so one segment per node suffices: formatting every
 * level again for every block made deep nesting cost blocks x depth. */
static int path_step(const tbk_page *p, uint32_t i, tbk_buf *cur, size_t *lens) {
  const tbk_node *n = &p->nodes[i];
  const char *name = n->name;
  /* "[nth]" by hand: snprintf was most of the cost of a node's locator. */
  char num[16], *e = num + sizeof num, *d = e;
  *--d = ']';
  uint32_t v = n->nth;
  do *--d = (char)('0' + v % 10);
  while (v /= 10);
  *--d = '[';
  size_t nlen = strlen(name), slen = (size_t)(e - d);
  cur->len = lens[n->depth - 1];
  if (tbk_buf_reserve(cur, 1 + nlen + slen)) return -1;
  char *o = cur->data + cur->len;
  *o++ = '/';
  memcpy(o, name, nlen);
  memcpy(o + nlen, d, slen);
  o[nlen + slen] = '\0';
  cur->len += 1 + nlen + slen;
  lens[n->depth] = cur->len;
  return 0;
}

enum { TBK_MAX_PATH_BYTES = 64u << 20 };
/* Candidate blocks nest at most this deep (a block inside 63 others is the
 * deepest): an element below that many nested blocks is no candidate and
 * folds into the deepest one, like an element under the thresholds. Every
 * byte of text is then in at most 64 blocks, so what each block costs in
 * proportion to its text (its MD5, its features' token scans, its words
 * row) stays within 64 times the page's text: a page nested 3,800 deep
 * with text at every level made 3,800 blocks each holding nearly all of it
 * (11 CPU-s per MiB in tbk-features with --words and --meta, #34). The
 * pages of datasets/cache (site mirrors, dragnet, readability, AEB, SWDE)
 * nest blocks at most 28 deep. */
enum { TBK_MAX_BLOCK_NESTING = 64 };

/* Code points in text[0, x) and the wide ones among them (measure.h): the
 * text is valid UTF-8, so code points are the bytes that are not
 * continuation bytes. cps[k] counts them in [0, 64k); a nested element's
 * length is then a difference, not a rescan of all the text below it
 * (which made deep nesting over much text quadratic). */
enum { CPS_STEP = 64 };
typedef struct {
  uint32_t cps, wide;
} cp_count;
static void count_span(const tbk_buf *t, size_t a, size_t b, cp_count *c) {
  const unsigned char *u = (const unsigned char *)t->data;
  size_t i = a;
  /* Eight bytes at a time: a continuation byte is 10xxxxxx, and only a
   * lead byte of 0xE2 or more (first 111xxxxx) can start a wide one. */
  for (; i + 8 <= b; i += 8) {
    uint64_t w;
    memcpy(&w, u + i, 8);
    const uint64_t hi = 0x8080808080808080ULL;
    if (!(w & hi)) {
      c->cps += 8;
      continue;
    }
    c->cps += 8 - (uint32_t)__builtin_popcountll(w & ~(w << 1) & hi);
    for (uint64_t m = w & (w << 1) & (w << 2) & hi; m; m &= m - 1) {
      size_t j = i + (size_t)(__builtin_ctzll(m) >> 3);
      if (u[j] >= 0xE2) c->wide += (uint32_t)tbk_utf8_wide_at(u + j, t->len - j);
    }
  }
  for (; i < b; i++) {
    c->cps += (u[i] & 0xC0) != 0x80;
    if (u[i] >= 0xE2) c->wide += (uint32_t)tbk_utf8_wide_at(u + i, t->len - i);
  }
}
static cp_count *count_cps(const tbk_buf *t) {
  size_t n = t->len / CPS_STEP + 1;
  cp_count *cps = malloc(n * sizeof *cps);
  if (!cps) return NULL;
  cp_count c = {0, 0};
  for (size_t k = 0; k < n; k++) {
    cps[k] = c;
    size_t a = k * CPS_STEP, b = a + CPS_STEP < t->len ? a + CPS_STEP : t->len;
    count_span(t, a, b, &c);
  }
  return cps;
}
static cp_count cps_at(const tbk_buf *t, const cp_count *cps, size_t x) {
  cp_count c = cps[x / CPS_STEP];
  count_span(t, x - x % CPS_STEP, x, &c);
  return c;
}

/* What finding a page's candidate blocks needs besides the page. */
typedef struct block_finder {
  tbk_page *p;
  const tbk_page_options *opt;
  unsigned want; /* tag flags of a candidate */
  tbk_tokenizer *tok;
  tbk_md5_ctx *md5; /* each block's MD5 through it; NULL: no fingerprints */
  cp_count *cps;    /* count_cps of the page text */
  size_t *lens;     /* see path_step */
  tbk_buf scratch;  /* the current node's locator */
  size_t *path_off; /* each block's locator in p->paths */
  uint32_t *nest;   /* each block's nesting: 1 + its parent block's */
  size_t cap;
} block_finder;

/* 1 when node i is a candidate block: its text [*s, *e) of *chars
 * Latin-equivalent characters passes the thresholds. A wrapper whose text
 * is exactly its candidate ancestor's is the same block seen through more
 * markup: it takes the outer one's block and is no candidate of its own. */
static int is_candidate(block_finder *f, uint32_t i, uint32_t *s, uint32_t *e, size_t *chars) {
  tbk_page *p = f->p;
  tbk_node *n = &p->nodes[i];
  if (!(tbk_tag_flags(n->tag) & f->want)) return 0;
  tbk_node_text(p, n, s, e);
  /* a code point is at least one byte, a wide one (3.7) at least three */
  if ((size_t)(*e - *s) * 5 / 4 < f->opt->min_chars) return 0;
  if (n->cand_anc != TBK_NONE) {
    /* it passes the thresholds the outer one passed, so test this first */
    uint32_t as, ae;
    tbk_node_text(p, &p->nodes[n->cand_anc], &as, &ae);
    if (as == *s && ae == *e) {
      n->block = p->nodes[n->cand_anc].block;
      return 0;
    }
    if (f->nest[p->nodes[n->cand_anc].block] >= TBK_MAX_BLOCK_NESTING) return 0;
  }
  cp_count ce = cps_at(&p->text, f->cps, *e), cs = cps_at(&p->text, f->cps, *s);
  *chars = tbk_length_of(ce.cps - cs.cps, ce.wide - cs.wide);
  if (*chars < f->opt->min_chars) return 0;
  return !f->opt->min_words ||
         tbk_unique_words_valid(f->tok, p->text.data + *s, *e - *s, f->opt->min_words) >= f->opt->min_words;
}

/* Node i becomes the next block, with text [s, e) and its locator in
 * f->scratch. */
static tbk_status add_block(block_finder *f, uint32_t i, uint32_t s, uint32_t e, size_t chars, tbk_error *err) {
  tbk_page *p = f->p;
  tbk_node *n = &p->nodes[i];
  if (p->n_blocks >= f->opt->max_blocks)
    return tbk_fail(err, TBK_ERR_LIMIT, "page has more than max-blocks (%zu) candidate blocks", f->opt->max_blocks);
  if (TBK_GROW_ALL(&f->cap, p->n_blocks + 1, TBK_ARRAY(p->blocks), TBK_ARRAY(f->path_off), TBK_ARRAY(f->nest)))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_block *b = &p->blocks[p->n_blocks];
  b->text = p->text.data + s;
  b->text_len = e - s;
  b->text_chars = chars;
  b->tag = tbk_tag_name(n->tag);
  if (f->md5) tbk_md5_with(f->md5, b->text, b->text_len, b->md5);
  else memset(b->md5, 0, sizeof b->md5);
  b->parent = n->cand_anc == TBK_NONE ? -1 : p->nodes[n->cand_anc].block;
  f->nest[p->n_blocks] = b->parent < 0 ? 1 : f->nest[b->parent] + 1;
  b->node = i;
  b->line = n->line;
  b->depth = n->depth;
  f->path_off[p->n_blocks] = p->paths.len;
  if (tbk_buf_append(&p->paths, f->scratch.data, f->scratch.len) || tbk_buf_append(&p->paths, "", 1))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (p->paths.len > TBK_MAX_PATH_BYTES)
    return tbk_fail(err, TBK_ERR_LIMIT,
                    "block locators exceed %u MiB (blocks nested too deep: lower max-depth or max-blocks)",
                    TBK_MAX_PATH_BYTES >> 20);
  n->block = (int32_t)p->n_blocks++;
  return TBK_OK;
}

static tbk_status find_blocks(tbk_page *p, const tbk_page_options *opt, tbk_error *err) {
  block_finder f = {.p = p, .opt = opt, .want = TAG_PAPER | (opt->blocks == TBK_BLOCKS_HTML5 ? TAG_HTML5 : 0)};
  tbk_status st = tbk_tokenizer_new(&f.tok, err);
  if (st) return st;
  if (opt->fingerprints) f.md5 = tbk_md5_ctx_new();
  f.cps = count_cps(&p->text);
  f.lens = calloc((size_t)p->max_depth + 1, sizeof *f.lens);
  if (!f.cps || !f.lens || (opt->fingerprints && !f.md5)) st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (uint32_t i = 0; st == TBK_OK && i < p->n_nodes; i++) {
    tbk_node *n = &p->nodes[i];
    if (n->parent != TBK_NONE) {
      const tbk_node *up = &p->nodes[n->parent];
      n->cand_anc = up->block >= 0 ? n->parent : up->cand_anc;
    }
    if (path_step(p, i, &f.scratch, f.lens)) {
      st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
      break;
    }
    uint32_t s, e;
    size_t chars;
    if (is_candidate(&f, i, &s, &e, &chars)) st = add_block(&f, i, s, e, chars, err);
  }
  if (st == TBK_OK) {
    cp_count all = cps_at(&p->text, f.cps, p->text.len);
    p->text_chars = tbk_length_of(all.cps, all.wide);
  }
  /* The arena may have moved while growing: pointers are set at the end,
   * once the two arrays grown by doubling are cut to what they hold (a
   * failed cut loses nothing). */
  if (st == TBK_OK && p->n_blocks) {
    (void)tbk_resize(&p->blocks, p->n_blocks, sizeof *p->blocks);
    if (!tbk_resize(&p->paths.data, p->paths.len + 1, 1)) p->paths.cap = p->paths.len + 1;
  }
  if (st == TBK_OK)
    for (size_t k = 0; k < p->n_blocks; k++) p->blocks[k].path = p->paths.data + f.path_off[k];
  free(f.path_off);
  free(f.nest);
  tbk_buf_free(&f.scratch);
  tbk_tokenizer_free(f.tok);
  tbk_md5_ctx_free(f.md5);
  free(f.cps);
  free(f.lens);
  return st;
}

/* What tbk_html_load_source does before the parse: the decoded source in
 * *utf8 (caller frees), its line count and charset in *out. */
static tbk_status decode_source(const char *data, size_t len, const tbk_page_options *opt, tbk_html *out, tbk_buf *utf8,
                                tbk_error *err) {
  memset(out, 0, sizeof *out);
  if (opt->max_page_bytes && len > opt->max_page_bytes)
    return tbk_fail(err, TBK_ERR_LIMIT, "page of %zu bytes exceeds max-page-bytes (%zu)", len, opt->max_page_bytes);
  tbk_status st = tbk_decode_page(data, len, opt->charset_hint, utf8, out->charset, out->charset_note, err);
  if (st) return st;
  if (utf8->len > INT32_MAX) return tbk_fail(err, TBK_ERR_LIMIT, "decoded page exceeds 2 GiB");
  out->lines = 1;
  for (const char *q = utf8->data; (q = memchr(q, '\n', utf8->len - (size_t)(q - utf8->data))); q++) out->lines++;
  uint32_t line;
  if (opt->max_attrs && tbk_attr_guard(utf8->data, utf8->len, opt->max_attrs, &line))
    return tbk_fail(err, TBK_ERR_LIMIT, "element with more than max-attrs (%zu) attributes at line %" PRIu32,
                    opt->max_attrs, line);
  return TBK_OK;
}

tbk_status tbk_html_load_source(const char *data, size_t len, const tbk_page_options *opt, tbk_html *out,
                                tbk_buf *source, tbk_error *err) {
  tbk_buf utf8 = {0};
  tbk_status st = decode_source(data, len, opt, out, &utf8, err);
  if (st == TBK_OK) st = tbk_html_parse_utf8(utf8.data, utf8.len, &out->doc, &out->errors, err);
  if (source && st == TBK_OK) {
    *source = utf8;
    return st;
  }
  tbk_buf_free(&utf8);
  return st;
}

tbk_status tbk_html_load(const char *data, size_t len, const tbk_page_options *opt, tbk_html *out, tbk_error *err) {
  return tbk_html_load_source(data, len, opt, out, NULL, err);
}

/* The walk over p->arena: nodes, runs and the normalized text. */
static tbk_status build_text(tbk_page *p, const tbk_page_options *opt, tbk_error *err) {
  walker w = {.p = p, .a = &p->arena, .opt = opt, .at_space = 1};
  tbk_arena_fit_attrs(&p->arena); /* the nodes will point into it */
  /* Sized for the most the walk can make, then cut to what it made: no
   * array is copied as it grows. Every node of the arena at most is an
   * element or a text node; the text is at most the arena's, plus a space
   * on each side of every element. Exactly that, not the power of two
   * tbk_grow rounds to: these three, with the arena, set the parse's peak. */
  const tbk_arena *a = &p->arena;
  size_t most_text = a->strs.len + 2 * a->count + 1;
  if (tbk_grow_exact(&p->nodes, &w.cap_nodes, a->count, sizeof *p->nodes) ||
      tbk_grow_exact(&p->runs, &p->cap_runs, a->count, sizeof *p->runs) ||
      tbk_grow_exact(&p->text.data, &p->text.cap, p->text.len + most_text + 1, 1) ||
      (a->keep && (tbk_grow_exact(&p->node_at, &w.cap_node_at, a->count, sizeof *p->node_at) ||
                   tbk_grow_exact(&p->run_at, &w.cap_run_at, a->count, sizeof *p->run_at))))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_status st = walk(&w, err);
  free(w.levels);
  free(w.names);
  if (st) return st;
  /* arrays grown by doubling cut to what they hold (a failed cut loses nothing) */
  (void)tbk_resize(&p->nodes, p->n_nodes, sizeof *p->nodes);
  (void)tbk_resize(&p->runs, p->n_runs, sizeof *p->runs);
  if (p->runs) p->cap_runs = p->n_runs;
  if (p->node_at) (void)tbk_resize(&p->node_at, p->n_nodes, sizeof *p->node_at);
  if (p->run_at) (void)tbk_resize(&p->run_at, p->n_runs, sizeof *p->run_at);
  if (tbk_buf_reserve(&p->text, 0)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  /* Closing block elements leave a collapsed space at the end; the page
   * text is documented as normalized (trimmed), so cut it and keep every
   * range inside the text. */
  if (p->text.len > 0 && p->text.data[p->text.len - 1] == ' ') {
    uint32_t end = (uint32_t)--p->text.len;
    for (size_t i = 0; i < p->n_nodes; i++) {
      if (p->nodes[i].text_end > end) p->nodes[i].text_end = end;
      if (p->nodes[i].text_start > end) p->nodes[i].text_start = end;
    }
    for (size_t i = 0; i < p->n_runs; i++)
      if (p->runs[i].end > end) p->runs[i].end = end;
    /* A run that was only that space is gone. */
    if (p->n_runs && p->runs[p->n_runs - 1].start == p->runs[p->n_runs - 1].end) p->n_runs--;
  }
  p->text.data[p->text.len] = '\0';
  (void)tbk_resize(&p->text.data, p->text.len + 1, 1);
  p->text.cap = p->text.len + 1;
  /* What is read of the tree from now on is kept apart; the rest goes,
   * unless HTML output reads it. */
  if (tbk_page_keep_head(p)) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (!p->arena.keep) tbk_arena_drop_tree(&p->arena);
  return TBK_OK;
}

/* The parse of clean UTF-8 source into p, the arena keeping what HTML
 * output reads when the page is to be written (keep_dom); then the walk. */
static tbk_status parse_into(tbk_page *p, const char *s, size_t n, const tbk_page_options *opt, size_t *errors,
                             tbk_error *err) {
  p->opt = *opt;
  p->opt.charset_hint = NULL;
  p->arena.keep = opt->keep_dom > 0;
  tbk_status st;
  if (opt->parser == TBK_PARSER_LIBXML2) {
    st = tbk_html_stream_libxml2(s, n, &p->arena, errors, err);
  } else {
    st = tbk_html_stream(s, n, &p->arena, errors, err);
  }
  return st == TBK_OK ? build_text(p, opt, err) : st;
}

tbk_status tbk_page_reparse(const char *s, size_t n, const tbk_page_options *opt, tbk_page **out) {
  tbk_page *p = calloc(1, sizeof *p);
  size_t errors;
  tbk_error ignored;
  tbk_status st = p ? parse_into(p, s, n, opt, &errors, &ignored) : TBK_ERR_NOMEM;
  if (st) {
    tbk_page_free(p);
    p = NULL;
  }
  *out = p;
  return st;
}

/* The page parsed again from the repaired source, if that shows more text.
 * The page keeps the original's error count and line count (repairs keep
 * every newline): they describe the input. A second parse that fails only
 * costs the repair, so its errors are not the page's. */
static tbk_status try_recovery(tbk_page **pp, tbk_buf *source, const tbk_page_options *opt, tbk_error *err) {
  tbk_page *p = *pp;
  tbk_buf fixed = {0};
  long repairs = tbk_recover_source(source->data, source->len, p->text.len, &fixed);
  if (repairs < 0) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (repairs == 0) return TBK_OK;
  tbk_page *q = calloc(1, sizeof *q);
  size_t errors;
  tbk_error ignored;
  if (q && parse_into(q, fixed.data ? fixed.data : "", fixed.len, opt, &errors, &ignored) == TBK_OK &&
      q->text.len > p->text.len) {
    q->raw_bytes = p->raw_bytes;
    q->n_lines = p->n_lines;
    q->parse_errors = p->parse_errors;
    q->recovered = repairs < INT_MAX - p->recovered ? (int)repairs + p->recovered : INT_MAX;
    memcpy(q->charset, p->charset, sizeof q->charset);
    memcpy(q->charset_note, p->charset_note, sizeof q->charset_note);
    *pp = q;
    q = p;
    tbk_buf t = *source; /* the page's source is the repaired one */
    *source = fixed;
    fixed = t;
  }
  tbk_page_free(q);
  tbk_buf_free(&fixed);
  return TBK_OK;
}

tbk_status tbk_page_parse(const char *data, size_t len, const tbk_page_options *opt, tbk_page **out, tbk_error *err) {
  tbk_page_options defaults;
  if (!opt) {
    tbk_page_options_init(&defaults);
    opt = &defaults;
  }
  *out = NULL;
  tbk_page *p = calloc(1, sizeof *p);
  if (!p) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  p->raw_bytes = len;
  tbk_html html;
  tbk_buf source = {0};
  tbk_status st = decode_source(data, len, opt, &html, &source, err);
  if (st) goto fail;
  p->n_lines = html.lines;
  memcpy(p->charset, html.charset, sizeof p->charset);
  memcpy(p->charset_note, html.charset_note, sizeof p->charset_note);
  size_t inert = source.data ? tbk_script_double_escapes(source.data, source.len) : 0;
  p->recovered = inert < INT_MAX ? (int)inert : INT_MAX;
  if ((st = parse_into(p, source.data ? source.data : "", source.len, opt, &p->parse_errors, err)) != TBK_OK) goto fail;
  if ((st = try_recovery(&p, &source, opt, err)) != TBK_OK) goto fail;
  if (source.data && tbk_jsonld_recipe(source.data, source.len, &p->recipe)) {
    st = tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
    goto fail;
  }
  if (!opt->keep_dom) {
    /* for the parse keeping the tree of the first tbk_page_html */
    p->source = source;
    memset(&source, 0, sizeof source);
    if (p->source.data && !tbk_resize(&p->source.data, p->source.len + 1, 1)) p->source.cap = p->source.len + 1;
  }
  p->no_html = opt->keep_dom < 0;
  tbk_buf_free(&source);
  if ((st = find_blocks(p, opt, err)) != TBK_OK) goto fail;
  *out = p;
  return TBK_OK;
fail:
  tbk_buf_free(&source);
  tbk_page_free(p);
  return st;
}
