/* Gold alignment: which tokens of a page's text units a human gold main-text
 * accounts for, so the units can be labelled content or boilerplate.
 *
 * Order matters: a navigation bar that happens to repeat gold words must
 * not be credited with them, so the page and gold token sequences are
 * aligned by a longest common subsequence. The LCS is Hyyrö's bit-parallel
 * one (gold positions as bits, one row of ceil(m/64) words per page token)
 * and every row is kept so the alignment can be traced back. */
#include <stdlib.h>
#include <string.h>

#include "align_internal.h"
#include "util.h"

#define NO_ID UINT32_MAX

/* ------------------------------------------------------- gold vocabulary */

/* Distinct gold tokens. Identity is the token string itself (the hash only
 * finds the slot), so no two words are ever confused. */
typedef struct vocab {
  tbk_buf text;   /* tokens, each NUL-terminated */
  size_t *off;    /* per id: start in text */
  size_t *len;    /* per id */
  uint64_t *hash; /* per id */
  uint32_t n;
  size_t cap;
  uint32_t *slot; /* open addressing: an id, or NO_ID */
  size_t mask;    /* number of slots - 1 */
} vocab;

static void vocab_free(vocab *v) {
  tbk_buf_free(&v->text);
  free(v->off);
  free(v->len);
  free(v->hash);
  free(v->slot);
}

/* Slot holding the token, or the empty slot where it would go. */
static size_t vocab_slot(const vocab *v, const char *tok, size_t len, uint64_t h) {
  size_t i = (size_t)h & v->mask;
  for (;; i = (i + 1) & v->mask) {
    uint32_t id = v->slot[i];
    if (id == NO_ID) return i;
    if (v->hash[id] == h && v->len[id] == len && memcmp(v->text.data + v->off[id], tok, len) == 0) return i;
  }
}

static uint32_t vocab_find(const vocab *v, const char *tok, size_t len) {
  if (!v->slot) return NO_ID;
  return v->slot[vocab_slot(v, tok, len, tbk_hash64(tok, len))];
}

/* Keep the table at most half full so probe runs stay short. */
static int vocab_grow_slots(vocab *v) {
  size_t ns = v->slot ? (v->mask + 1) * 2 : 64;
  uint32_t *slots = malloc(ns * sizeof *slots);
  if (!slots) return -1;
  memset(slots, 0xFF, ns * sizeof *slots);
  for (uint32_t id = 0; id < v->n; id++) {
    size_t i = (size_t)v->hash[id] & (ns - 1);
    while (slots[i] != NO_ID) i = (i + 1) & (ns - 1);
    slots[i] = id;
  }
  free(v->slot);
  v->slot = slots;
  v->mask = ns - 1;
  return 0;
}

static int vocab_grow_ids(vocab *v) {
  if (v->n >= NO_ID - 1) return -1; /* ids are 32-bit */
  return TBK_GROW_ALL(&v->cap, (size_t)v->n + 1, TBK_ARRAY(v->off), TBK_ARRAY(v->len), TBK_ARRAY(v->hash));
}

/* Id of the token, adding it when new; NO_ID when out of memory. */
static uint32_t vocab_add(vocab *v, const char *tok, size_t len) {
  if (((size_t)v->n + 1) * 2 > (v->slot ? v->mask + 1 : 0) && vocab_grow_slots(v)) return NO_ID;
  uint64_t h = tbk_hash64(tok, len);
  size_t i = vocab_slot(v, tok, len, h);
  if (v->slot[i] != NO_ID) return v->slot[i];
  if (v->n == v->cap && vocab_grow_ids(v)) return NO_ID;
  uint32_t id = v->n;
  v->off[id] = v->text.len;
  if (tbk_buf_append(&v->text, tok, len) || tbk_buf_append(&v->text, "", 1)) return NO_ID;
  v->len[id] = len;
  v->hash[id] = h;
  v->slot[i] = id;
  v->n++;
  return id;
}

/* ------------------------------------------------------------ sequences */

/* Token ids, and for page tokens the unit each comes from. */
typedef struct seq {
  uint32_t *id;
  size_t *unit; /* NULL for the gold */
  size_t n, cap;
} seq;

static void seq_free(seq *s) {
  free(s->id);
  free(s->unit);
}

static int seq_push(seq *s, uint32_t id, size_t unit, int with_unit) {
  if (TBK_GROW_ALL(&s->cap, s->n + 1, TBK_ARRAY(s->id), {with_unit ? &s->unit : NULL, sizeof *s->unit})) return -1;
  s->id[s->n] = id;
  if (with_unit) s->unit[s->n] = unit;
  s->n++;
  return 0;
}

typedef struct collect_ctx {
  vocab *voc;
  seq *out;
  size_t unit;
  uint32_t count; /* tokens of the current unit, matchable or not */
  int nomem;
} collect_ctx;

static int gold_token(void *p, const char *tok, size_t len) {
  collect_ctx *c = p;
  uint32_t id = vocab_add(c->voc, tok, len);
  if (id == NO_ID || seq_push(c->out, id, 0, 0)) {
    c->nomem = 1;
    return 1;
  }
  return 0;
}

/* Page tokens absent from the gold can never match: only their number is
 * kept, which shrinks the LCS to the tokens that matter. */
static int page_token(void *p, const char *tok, size_t len) {
  collect_ctx *c = p;
  c->count++;
  uint32_t id = vocab_find(c->voc, tok, len);
  if (id != NO_ID && seq_push(c->out, id, c->unit, 1)) {
    c->nomem = 1;
    return 1;
  }
  return 0;
}

/* tbk_tokenize repairs invalid UTF-8 itself but cannot report that the
 * repair ran out of memory, which here would silently drop tokens. */
static int tokenize_checked(tbk_tokenizer *t, const char *s, size_t n, collect_ctx *c,
                            int (*fn)(void *, const char *, size_t)) {
  if (n == 0) return 0;
  if (tbk_utf8_valid(s, n)) {
    tbk_tokenize(t, s, n, fn, c);
    return c->nomem ? -1 : 0;
  }
  tbk_buf fixed = {0};
  int bad = tbk_text_normalize(s, n, &fixed);
  if (!bad) tbk_tokenize(t, fixed.data, fixed.len, fn, c);
  tbk_buf_free(&fixed);
  return bad || c->nomem ? -1 : 0;
}

/* ------------------------------------------------------------------ LCS */

/* One row of Hyyrö's LCS: bit j of a row is 0 exactly where the LCS of the
 * page prefix and gold[0..j] gains one over gold[0..j-1]. The addition
 * carries across words, which is what lets matches propagate past bit 63. */
static void lcs_step(const uint64_t *v, const uint64_t *mk, uint64_t *out, size_t w) {
  uint64_t carry = 0;
  for (size_t k = 0; k < w; k++) {
    uint64_t s = v[k] + (v[k] & mk[k]);
    uint64_t c = s < v[k];
    s += carry;
    c |= s < carry;
    out[k] = s | (v[k] & ~mk[k]);
    carry = c;
  }
}

/* Gold positions of every id (CSR), for building a row's match mask in
 * time proportional to the token's occurrences instead of keeping one
 * m-bit mask per distinct token. */
typedef struct positions {
  uint32_t *first; /* nids + 1 */
  uint32_t *pos;
} positions;

static int positions_build(positions *p, const seq *gold, uint32_t nids) {
  p->first = calloc((size_t)nids + 1, sizeof *p->first);
  p->pos = malloc((gold->n ? gold->n : 1) * sizeof *p->pos);
  if (!p->first || !p->pos) return -1;
  for (size_t j = 0; j < gold->n; j++) p->first[gold->id[j] + 1]++;
  for (uint32_t i = 0; i < nids; i++) p->first[i + 1] += p->first[i];
  uint32_t *fill = malloc(((size_t)nids + 1) * sizeof *fill);
  if (!fill) return -1;
  memcpy(fill, p->first, ((size_t)nids + 1) * sizeof *fill);
  for (size_t j = 0; j < gold->n; j++) p->pos[fill[gold->id[j]]++] = (uint32_t)j;
  free(fill);
  return 0;
}

/* rows[i] (w words each) after the first i page tokens; rows[0] all ones. */
static void lcs_rows(const seq *page, const positions *p, size_t w, uint64_t *rows, uint64_t *mask) {
  memset(rows, 0xFF, w * sizeof *rows);
  for (size_t i = 0; i < page->n; i++) {
    uint32_t id = page->id[i];
    for (uint32_t k = p->first[id]; k < p->first[id + 1]; k++) mask[p->pos[k] >> 6] |= (uint64_t)1 << (p->pos[k] & 63);
    lcs_step(rows + i * w, mask, rows + (i + 1) * w, w);
    for (uint32_t k = p->first[id]; k < p->first[id + 1]; k++) mask[p->pos[k] >> 6] = 0;
  }
}

/* Trace one LCS back from the corner. Equal tokens always allow the
 * diagonal; otherwise the row's bit says whether dropping the gold token
 * keeps the length (bit set) or the page token must go. Constant time per
 * step. Fills mp/mg in increasing order, returns the LCS length. */
static size_t lcs_trace(const seq *page, const seq *gold, const uint64_t *rows, size_t w, size_t *mp, size_t *mg) {
  size_t i = page->n, j = gold->n, k = 0;
  while (i && j) {
    if (page->id[i - 1] == gold->id[j - 1]) {
      mp[k] = --i;
      mg[k++] = --j;
    } else if (rows[i * w + ((j - 1) >> 6)] >> ((j - 1) & 63) & 1) {
      j--;
    } else {
      i--;
    }
  }
  for (size_t a = 0, b = k; a + 1 < b; a++, b--) {
    size_t x = mp[a];
    mp[a] = mp[b - 1];
    mp[b - 1] = x;
    x = mg[a];
    mg[a] = mg[b - 1];
    mg[b - 1] = x;
  }
  return k;
}

/* ------------------------------------------------------- run cleanup */

/* Many alignments share the LCS length, and the trace from the end picks
 * the latest page occurrence of each word: a gold text ending "... about
 * the story" gets its "the story" from a later "Related: the other story"
 * rather than from the body. Runs are moved so they continue the run before (or after)
 * them whenever the page has the same words right there; the length and
 * the order stay as they were, only the page positions change. Positions
 * are indices into the page's matchable tokens. */

static int fits(const seq *page, size_t p, const seq *gold, size_t g, size_t len) {
  for (size_t t = 0; t < len; t++)
    if (page->id[p + t] != gold->id[g + t]) return 0;
  return 1;
}

/* Whether matches k-1 and k are one run: consecutive in both texts and in
 * the same unit. A run that only continues into the next unit is weak
 * evidence: "... go Home | Home | Next ..." must not hand the content's
 * "Home" to the navigation item just because it sits next to "Next". */
static int joined(const seq *page, const size_t *mp, const size_t *mg, size_t k) {
  return mp[k] == mp[k - 1] + 1 && mg[k] == mg[k - 1] + 1 && page->unit[mp[k]] == page->unit[mp[k - 1]];
}

/* First index after the run starting at k. */
static size_t run_end(const seq *page, const size_t *mp, const size_t *mg, size_t k, size_t n) {
  size_t e = k + 1;
  while (e < n && joined(page, mp, mg, e)) e++;
  return e;
}

static void slide_left(const seq *page, const seq *gold, size_t *mp, const size_t *mg, size_t n) {
  for (size_t k = 0; k < n;) {
    size_t e = run_end(page, mp, mg, k, n);
    /* The new positions start right after the previous match, hence before
     * the old ones: the order with the next run holds. */
    if (k > 0 && mg[k] == mg[k - 1] + 1 && mp[k] != mp[k - 1] + 1 && fits(page, mp[k - 1] + 1, gold, mg[k], e - k))
      for (size_t t = k; t < e; t++) mp[t] = mp[k - 1] + 1 + (t - k);
    k = e;
  }
}

static void slide_right(const seq *page, const seq *gold, size_t *mp, const size_t *mg, size_t n) {
  for (size_t e = n; e > 0;) {
    size_t s = e - 1; /* run [s, e) found backwards */
    while (s > 0 && joined(page, mp, mg, s)) s--;
    size_t len = e - s;
    if (e < n && mg[e] == mg[e - 1] + 1 && mp[e] != mp[e - 1] + 1 && fits(page, mp[e] - len, gold, mg[s], len))
      for (size_t t = s; t < e; t++) mp[t] = mp[e] - len + (t - s);
    e = s;
  }
}

/* ------------------------------------------------------------- aligners */

static tbk_status align_lcs(const seq *page, const seq *gold, uint32_t nids, size_t w, uint32_t *matched) {
  tbk_status st = TBK_ERR_NOMEM;
  positions p = {0};
  uint64_t *rows = malloc((page->n + 1) * w * sizeof *rows);
  uint64_t *mask = calloc(w, sizeof *mask);
  size_t most = page->n < gold->n ? page->n : gold->n;
  size_t *mp = malloc(most * sizeof *mp), *mg = malloc(most * sizeof *mg);
  if (!rows || !mask || !mp || !mg || positions_build(&p, gold, nids)) goto done;
  lcs_rows(page, &p, w, rows, mask);
  size_t k = lcs_trace(page, gold, rows, w, mp, mg);
  slide_left(page, gold, mp, mg, k);
  slide_right(page, gold, mp, mg, k);
  for (size_t i = 0; i < k; i++) matched[page->unit[mp[i]]]++;
  st = TBK_OK;
done:
  free(rows);
  free(mask);
  free(mp);
  free(mg);
  free(p.first);
  free(p.pos);
  return st;
}

static tbk_status align_multiset(const seq *page, const seq *gold, uint32_t nids, uint32_t *matched) {
  uint32_t *left = calloc(nids, sizeof *left);
  if (!left) return TBK_ERR_NOMEM;
  for (size_t j = 0; j < gold->n; j++) left[gold->id[j]]++;
  for (size_t i = 0; i < page->n; i++) {
    if (!left[page->id[i]]) continue;
    left[page->id[i]]--;
    matched[page->unit[i]]++;
  }
  free(left);
  return TBK_OK;
}

/* The gold without the tokens the page lacks: they never match, and
 * leaving them out narrows every row. */
static int gold_reduce(const seq *gold, const seq *page, uint32_t nids, seq *out) {
  unsigned char *seen = calloc(nids ? nids : 1, 1);
  if (!seen) return -1;
  for (size_t i = 0; i < page->n; i++) seen[page->id[i]] = 1;
  int bad = 0;
  for (size_t j = 0; j < gold->n && !bad; j++)
    if (seen[gold->id[j]]) bad = seq_push(out, gold->id[j], 0, 0);
  free(seen);
  return bad;
}

static tbk_status align_ids(const seq *page, const seq *gold, uint32_t nids, uint32_t *matched, uint64_t max_bits,
                            int *exact) {
  *exact = 1;
  if (page->n == 0 || gold->n == 0) return TBK_OK;
  seq g = {0};
  if (gold_reduce(gold, page, nids, &g)) {
    seq_free(&g);
    return TBK_ERR_NOMEM;
  }
  size_t w = (g.n + 63) / 64;
  uint64_t words = max_bits / 64 / w; /* rows the budget affords */
  tbk_status st;
  if (page->n + 1 > words || page->n + 1 > SIZE_MAX / sizeof(uint64_t) / w) {
    *exact = 0;
    st = align_multiset(page, gold, nids, matched);
  } else {
    st = align_lcs(page, &g, nids, w, matched);
  }
  seq_free(&g);
  return st;
}

/* ----------------------------------------------------------------- entry */

static tbk_status check_args(tbk_tokenizer *t, const char *text, size_t text_len, const uint32_t *start,
                             const uint32_t *end, size_t nunits, const char *gold, size_t gold_len,
                             const uint32_t *tokens, const uint32_t *matched, tbk_error *err) {
  if (!t) return tbk_fail(err, TBK_ERR_ARG, "align: no tokenizer");
  if ((!text && text_len) || (!gold && gold_len)) return tbk_fail(err, TBK_ERR_ARG, "align: NULL text with a length");
  if (nunits && (!start || !end || !tokens || !matched)) return tbk_fail(err, TBK_ERR_ARG, "align: NULL unit arrays");
  for (size_t u = 0; u < nunits; u++) {
    if (start[u] > end[u] || end[u] > text_len)
      return tbk_fail(err, TBK_ERR_ARG, "align: unit %zu range [%u, %u) outside text of %zu bytes", u,
                      (unsigned)start[u], (unsigned)end[u], text_len);
    if (u && start[u] < end[u - 1])
      return tbk_fail(err, TBK_ERR_ARG, "align: unit %zu starts at %u, before the previous end %u", u,
                      (unsigned)start[u], (unsigned)end[u - 1]);
  }
  /* Token counts and gold positions are 32-bit. */
  if (gold_len >= UINT32_MAX) return tbk_fail(err, TBK_ERR_LIMIT, "align: gold text of 4 GiB or more");
  return TBK_OK;
}

tbk_status tbk_align_gold_budget(tbk_tokenizer *t, const char *text, size_t text_len, const uint32_t *start,
                                 const uint32_t *end, size_t nunits, const char *gold, size_t gold_len,
                                 uint32_t *tokens, uint32_t *matched, uint64_t max_bits, int *exact, tbk_error *err) {
  int ex = 1;
  if (exact) *exact = 1;
  tbk_status st = check_args(t, text, text_len, start, end, nunits, gold, gold_len, tokens, matched, err);
  if (st) return st;
  if (nunits) {
    memset(tokens, 0, nunits * sizeof *tokens);
    memset(matched, 0, nunits * sizeof *matched);
  }
  vocab voc = {0};
  seq g = {0}, p = {0};
  collect_ctx c = {.voc = &voc, .out = &g};
  if (tokenize_checked(t, gold, gold_len, &c, gold_token)) goto nomem;
  c.out = &p;
  for (size_t u = 0; u < nunits; u++) {
    c.unit = u;
    c.count = 0;
    if (end[u] > start[u] && tokenize_checked(t, text + start[u], end[u] - start[u], &c, page_token)) goto nomem;
    tokens[u] = c.count;
  }
  st = align_ids(&p, &g, voc.n, matched, max_bits, &ex);
  if (st) goto nomem;
  if (exact) *exact = ex;
  goto done;
nomem:
  if (nunits) memset(matched, 0, nunits * sizeof *matched);
  st = tbk_fail(err, TBK_ERR_NOMEM, "align: out of memory");
done:
  vocab_free(&voc);
  seq_free(&g);
  seq_free(&p);
  return st;
}

tbk_status tbk_align_gold(tbk_tokenizer *t, const char *text, size_t text_len, const uint32_t *start,
                          const uint32_t *end, size_t nunits, const char *gold, size_t gold_len, uint32_t *tokens,
                          uint32_t *matched, tbk_error *err) {
  return tbk_align_gold_budget(t, text, text_len, start, end, nunits, gold, gold_len, tokens, matched,
                               TBK_ALIGN_MAX_BITS, NULL, err);
}
