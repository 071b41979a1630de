/* class/id/role tokens of an element. Site-specific class names rarely
 * repeat across sites, but their parts do ("main-nav", "navBar" -> nav), so
 * values are split on anything but letters and at camelCase boundaries,
 * lower-cased, and tokens of one letter dropped. Each token sets a hashed
 * bit (FNV-1a 32 mod attr_dims) and, when it is in the fixed vocabulary
 * (or is a plural of a word in it: "comments"), that word's bit. */
#include <string.h>
#include <strings.h>

#include "features.h"

#define TOKEN_KEEP 32 /* longer tokens cannot be in the vocabulary */

typedef struct attr_tok {
  uint32_t attr_dims;
  const char *const *vocab; /* words of the vocabulary, hashes alongside */
  const uint32_t *vhash;
  size_t nv;
  uint64_t *bits;
  char buf[TOKEN_KEEP];
  size_t len;         /* bytes of the current token */
  uint32_t hash;      /* FNV-1a 32 of the lower-cased token */
  uint32_t prev_hash; /* ... without its last byte */
  int prev_lower;     /* previous byte was an ASCII lower-case letter */
} attr_tok;

static void set_bit(uint64_t *bits, size_t j) { bits[j / 64] |= 1ULL << (j % 64); }

static void vocab_hit(attr_tok *t, const char *w, size_t n, uint32_t hash) {
  for (size_t v = 0; v < t->nv; v++)
    if (t->vhash[v] == hash && strlen(t->vocab[v]) == n && memcmp(t->vocab[v], w, n) == 0) {
      set_bit(t->bits, t->attr_dims + v);
      return;
    }
}

static void flush(attr_tok *t) {
  if (t->len >= 2) {
    if (t->attr_dims) set_bit(t->bits, t->hash % t->attr_dims);
    if (t->len < TOKEN_KEEP) {
      vocab_hit(t, t->buf, t->len, t->hash);
      if (t->len > 3 && t->buf[t->len - 1] == 's') vocab_hit(t, t->buf, t->len - 1, t->prev_hash);
    }
  }
  t->len = 0;
  t->hash = TBK_FNV32_INIT;
  t->prev_lower = 0;
}

static void push(attr_tok *t, unsigned char c) {
  if (t->len < TOKEN_KEEP) t->buf[t->len] = (char)c;
  t->len++;
  t->prev_hash = t->hash;
  t->hash = tbk_fnv32_step(t->hash, c);
}

/* Feed one chunk of an attribute value; tokens may continue across chunks. */
static void feed(attr_tok *t, const unsigned char *s) {
  for (; *s; s++) {
    unsigned char c = *s;
    int upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    if (!upper && !lower && c < 0x80) {
      flush(t);
      continue;
    }
    if (upper && t->prev_lower) flush(t);
    push(t, upper ? (unsigned char)(c + 32) : c);
    t->prev_lower = lower;
  }
}

static void role_values(size_t first, const unsigned char *s, uint64_t *bits) {
  while (*s) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f') s++;
    const unsigned char *w = s;
    while (*s && !(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f')) s++;
    size_t n = (size_t)(s - w);
    for (size_t r = 0; n && r < tbk_fx_roles_n; r++)
      if (strlen(tbk_fx_roles[r]) == n && strncasecmp(tbk_fx_roles[r], (const char *)w, n) == 0)
        set_bit(bits, first + r);
  }
}

/* One element's attributes arrive chunk by chunk (tbk_node_attrs): the
 * state of the attribute being read. */
typedef struct attr_walk {
  attr_tok t;
  int fresh; /* the next call starts an attribute */
  int kind;  /* 0: not class/id/role, 1: role, 2: class or id */
} attr_walk;

static void on_attr(void *ctx, const char *name, const char *chunk) {
  attr_walk *w = ctx;
  if (w->fresh) {
    char c0 = (char)(name[0] | 0x20);
    w->kind = 0;
    if (c0 == 'c' || c0 == 'i' || c0 == 'r') { /* most attributes are none of these */
      if (strcasecmp(name, "role") == 0) w->kind = 1;
      else if (strcasecmp(name, "class") == 0 || strcasecmp(name, "id") == 0) w->kind = 2;
    }
    w->t.len = 0;
    w->t.hash = TBK_FNV32_INIT;
    w->t.prev_lower = 0;
    w->fresh = 0;
  }
  if (!chunk) {
    if (w->kind == 2) flush(&w->t);
    w->fresh = 1;
  } else if (w->kind == 1) {
    role_values(w->t.attr_dims + w->t.nv, (const unsigned char *)chunk, w->t.bits);
  } else if (w->kind == 2) {
    feed(&w->t, (const unsigned char *)chunk);
  }
}

void tbk_fx_attr_bits_vocab(uint32_t attr_dims, const char *const *vocab, const uint32_t *vhash, size_t nv,
                            const tbk_node *nd, uint64_t *bits) {
  attr_walk w = {.t = {.attr_dims = attr_dims, .vocab = vocab, .vhash = vhash, .nv = nv, .bits = bits}, .fresh = 1};
  tbk_node_attrs(nd, on_attr, &w);
}

void tbk_fx_attr_bits(const tbk_features *fx, const tbk_node *nd, uint64_t *bits) {
  size_t nv = tbk_fx_attr_vocab_n < 64 ? tbk_fx_attr_vocab_n : 64;
  tbk_fx_attr_bits_vocab(fx->opt.attr_dims, tbk_fx_attr_vocab, fx->vocab_hash, nv, nd, bits);
}
