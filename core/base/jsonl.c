#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "util.h"

typedef struct member {
  size_t key, val; /* offsets into strs */
  double num;
  int type;        /* 's' string, 'n' number, 'b' bool, '0' null, 'x' nested */
} member;

struct tbk_jsonl_obj {
  tbk_buf strs;    /* owned: NUL-terminated keys and string values */
  member *m;       /* owned */
  size_t n, cap;
};

void tbk_jsonl_free(tbk_jsonl_obj *o) {
  if (!o) return;
  tbk_buf_free(&o->strs);
  free(o->m);
  free(o);
}

typedef struct cursor {
  const char *s;
  size_t n, i;
} cursor;

static void skip_ws(cursor *c) {
  while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' || c->s[c->i] == '\r')) c->i++;
}

static int hexval(char h) {
  if (h >= '0' && h <= '9') return h - '0';
  if (h >= 'a' && h <= 'f') return h - 'a' + 10;
  if (h >= 'A' && h <= 'F') return h - 'A' + 10;
  return -1;
}

static int read_hex4(cursor *c, unsigned *out) {
  if (c->i + 4 > c->n) return -1;
  unsigned v = 0;
  for (int k = 0; k < 4; k++) {
    int h = hexval(c->s[c->i + k]);
    if (h < 0) return -1;
    v = v * 16 + (unsigned)h;
  }
  c->i += 4;
  *out = v;
  return 0;
}

static int put_cp(tbk_buf *b, unsigned cp) {
  char e[4];
  size_t k;
  if (cp < 0x80) { e[0] = (char)cp; k = 1; }
  else if (cp < 0x800) { e[0] = (char)(0xC0 | (cp >> 6)); e[1] = (char)(0x80 | (cp & 0x3F)); k = 2; }
  else if (cp < 0x10000) {
    e[0] = (char)(0xE0 | (cp >> 12)); e[1] = (char)(0x80 | ((cp >> 6) & 0x3F)); e[2] = (char)(0x80 | (cp & 0x3F)); k = 3;
  } else {
    e[0] = (char)(0xF0 | (cp >> 18)); e[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    e[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); e[3] = (char)(0x80 | (cp & 0x3F)); k = 4;
  }
  return tbk_buf_append(b, e, k);
}

/* Parse a string at c (opening quote) into out (NUL-terminated). */
static int parse_string(cursor *c, tbk_buf *out) {
  if (c->i >= c->n || c->s[c->i] != '"') return -1;
  c->i++;
  while (c->i < c->n) {
    unsigned char ch = (unsigned char)c->s[c->i];
    if (ch == '"') {
      c->i++;
      return tbk_buf_append(out, "", 1);
    }
    if (ch < 0x20) return -1;
    if (ch != '\\') {
      size_t k = tbk_utf8_seq((const unsigned char *)c->s + c->i, c->n - c->i);
      if (!k) return -1;
      if (tbk_buf_append(out, c->s + c->i, k)) return -1;
      c->i += k;
      continue;
    }
    if (++c->i >= c->n) return -1;
    char e = c->s[c->i++];
    const char *simple = strchr("\"\\/bfnrt", e);
    if (simple && e) {
      static const char map[] = "\"\\/\b\f\n\r\t";
      if (tbk_buf_append(out, &map[simple - "\"\\/bfnrt"], 1)) return -1;
    } else if (e == 'u') {
      unsigned cp;
      if (read_hex4(c, &cp)) return -1;
      if (cp >= 0xD800 && cp < 0xDC00) {
        unsigned lo;
        if (c->i + 2 > c->n || c->s[c->i] != '\\' || c->s[c->i + 1] != 'u') return -1;
        c->i += 2;
        if (read_hex4(c, &lo) || lo < 0xDC00 || lo > 0xDFFF) return -1;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      } else if (cp >= 0xDC00 && cp < 0xE000) {
        return -1;
      }
      if (cp == 0) cp = 0xFFFD; /* keep strings NUL-free */
      if (put_cp(out, cp)) return -1;
    } else {
      return -1;
    }
  }
  return -1;
}

static int parse_number(cursor *c, double *v) {
  const char *start = c->s + c->i;
  size_t i = c->i;
  if (i < c->n && c->s[i] == '-') i++;
  if (i >= c->n || c->s[i] < '0' || c->s[i] > '9') return -1;
  while (i < c->n && ((c->s[i] >= '0' && c->s[i] <= '9') || strchr(".eE+-", c->s[i]))) i++;
  char tmp[64];
  size_t len = i - c->i;
  if (len >= sizeof tmp) return -1;
  memcpy(tmp, start, len);
  tmp[len] = '\0';
  char *end;
  *v = tbk_strtod(tmp, &end);
  if (*end || !isfinite(*v)) return -1;
  c->i = i;
  return 0;
}

static int match_word(cursor *c, const char *w) {
  size_t k = strlen(w);
  if (c->i + k > c->n || memcmp(c->s + c->i, w, k) != 0) return -1;
  c->i += k;
  return 0;
}

/* Skip a nested array/object with an explicit depth counter. */
static int skip_nested(cursor *c, tbk_buf *scratch) {
  size_t depth = 0;
  do {
    skip_ws(c);
    if (c->i >= c->n) return -1;
    char ch = c->s[c->i];
    if (ch == '[' || ch == '{') { depth++; c->i++; }
    else if (ch == ']' || ch == '}') { if (!depth) return -1; depth--; c->i++; }
    else if (ch == ',' || ch == ':') c->i++;
    else if (ch == '"') { scratch->len = 0; if (parse_string(c, scratch)) return -1; }
    else if (ch == 't') { if (match_word(c, "true")) return -1; }
    else if (ch == 'f') { if (match_word(c, "false")) return -1; }
    else if (ch == 'n') { if (match_word(c, "null")) return -1; }
    else { double v; if (parse_number(c, &v)) return -1; }
  } while (depth > 0);
  return 0;
}

tbk_status tbk_jsonl_parse(const char *s, size_t n, tbk_jsonl_obj **out, tbk_error *err) {
  *out = NULL;
  tbk_jsonl_obj *o = calloc(1, sizeof *o);
  if (!o) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_buf scratch = {0};
  cursor c = {s, n, 0};
  skip_ws(&c);
  if (c.i >= n || s[c.i] != '{') goto bad;
  c.i++;
  skip_ws(&c);
  if (c.i < n && s[c.i] == '}') { c.i++; goto end; }
  for (;;) {
    skip_ws(&c);
    if (tbk_grow(&o->m, &o->cap, o->n + 1, sizeof *o->m)) goto nomem;
    member *m = &o->m[o->n];
    m->key = o->strs.len;
    if (parse_string(&c, &o->strs)) goto bad;
    skip_ws(&c);
    if (c.i >= n || s[c.i] != ':') goto bad;
    c.i++;
    skip_ws(&c);
    if (c.i >= n) goto bad;
    char ch = s[c.i];
    m->val = 0;
    m->num = 0;
    if (ch == '"') { m->type = 's'; m->val = o->strs.len; if (parse_string(&c, &o->strs)) goto bad; }
    else if (ch == 't') { m->type = 'b'; m->num = 1; if (match_word(&c, "true")) goto bad; }
    else if (ch == 'f') { m->type = 'b'; if (match_word(&c, "false")) goto bad; }
    else if (ch == 'n') { m->type = '0'; if (match_word(&c, "null")) goto bad; }
    else if (ch == '{' || ch == '[') { m->type = 'x'; if (skip_nested(&c, &scratch)) goto bad; }
    else { m->type = 'n'; if (parse_number(&c, &m->num)) goto bad; }
    o->n++;
    skip_ws(&c);
    if (c.i < n && s[c.i] == ',') { c.i++; continue; }
    if (c.i < n && s[c.i] == '}') { c.i++; break; }
    goto bad;
  }
end:
  skip_ws(&c);
  if (c.i != n) goto bad;
  tbk_buf_free(&scratch);
  *out = o;
  return TBK_OK;
bad:
  tbk_buf_free(&scratch);
  tbk_jsonl_free(o);
  return tbk_fail(err, TBK_ERR_FORMAT, "invalid JSON at byte %zu", c.i + 1);
nomem:
  tbk_buf_free(&scratch);
  tbk_jsonl_free(o);
  return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
}

static const member *find(const tbk_jsonl_obj *o, const char *key) {
  for (size_t i = 0; i < o->n; i++)
    if (strcmp(o->strs.data + o->m[i].key, key) == 0) return &o->m[i];
  return NULL;
}

const char *tbk_jsonl_str(const tbk_jsonl_obj *o, const char *key) {
  const member *m = o ? find(o, key) : NULL;
  return m && m->type == 's' ? o->strs.data + m->val : NULL;
}

double tbk_jsonl_num(const tbk_jsonl_obj *o, const char *key, double dflt) {
  const member *m = o ? find(o, key) : NULL;
  return m && m->type == 'n' ? m->num : dflt;
}

int tbk_jsonl_has(const tbk_jsonl_obj *o, const char *key) { return o && find(o, key) != NULL; }
