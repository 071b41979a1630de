#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "util.h"

typedef struct member {
  size_t key, val; /* offsets into strs */
  double num;
  int type; /* 's' string, 'n' number, 'b' bool, '0' null, 'x' nested */
} member;

struct tbk_jsonl_obj {
  tbk_buf strs; /* owned: NUL-terminated keys and string values */
  member *m;    /* owned */
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

/* Four hex digits at s[i], not consuming them. */
static int hex4(const char *s, size_t n, size_t i, unsigned *out) {
  if (i + 4 > n) return -1;
  unsigned v = 0;
  for (size_t k = 0; k < 4; k++) {
    char c = s[i + k];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return -1;
  }
  *out = v;
  return 0;
}

/* The code point of the \u escape whose digits start at s[*i] (a UTF-16
 * pair is joined); *i moves past what was read, also on an error. Lenient:
 * a lone surrogate is U+FFFD. */
static const char *read_u_escape(const char *s, size_t n, size_t *i, int lenient, unsigned *out) {
  unsigned cp, lo;
  if (hex4(s, n, *i, &cp)) return "bad \\u escape";
  *i += 4;
  if (cp >= 0xD800 && cp < 0xDC00) {
    int pair = *i + 1 < n && s[*i] == '\\' && s[*i + 1] == 'u', digits = pair && hex4(s, n, *i + 2, &lo) == 0;
    if (digits && lo >= 0xDC00 && lo < 0xE000) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      *i += 6;
    } else if (lenient) {
      cp = 0xFFFD;
    } else {
      *i += digits ? 6 : pair ? 2 : 0;
      return "lone surrogate";
    }
  } else if (cp >= 0xDC00 && cp < 0xE000) {
    if (!lenient) return "lone surrogate";
    cp = 0xFFFD;
  }
  *out = cp;
  return NULL;
}

tbk_status tbk_json_read_str(const char *s, size_t n, size_t *pos, tbk_buf *out, int lenient, const char **why) {
  size_t i = *pos;
  *why = NULL;
  if (tbk_buf_reserve(out, 0)) return *why = "out of memory", TBK_ERR_NOMEM;
  out->data[out->len] = '\0';
  if (i >= n || s[i] != '"') return *why = "expected a string", TBK_ERR_FORMAT;
  for (i++; i < n && !*why;) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"') {
      *pos = i + 1;
      return TBK_OK;
    }
    if (c < 0x20) {
      *why = "control character in string";
    } else if (c != '\\') {
      /* The longest run that needs no decoding, checked as UTF-8 unless
       * lenient. */
      size_t j = i, k = 1;
      while (j < n && s[j] != '"' && s[j] != '\\' && (unsigned char)s[j] >= 0x20 &&
             (k = lenient || (unsigned char)s[j] < 0x80 ? 1 : tbk_utf8_seq((const unsigned char *)s + j, n - j)))
        j += k;
      if (tbk_buf_append(out, s + i, j - i)) *why = "out of memory";
      else if (!k) *why = "invalid UTF-8";
      i = j;
    } else if (i + 1 >= n) {
      i = n;
    } else {
      static const char names[] = "\"\\/bfnrt", chars[] = "\"\\/\b\f\n\r\t";
      char e = s[i + 1];
      const char *simple = e ? strchr(names, e) : NULL;
      unsigned cp;
      i += 2;
      if (simple) {
        if (tbk_buf_append(out, &chars[simple - names], 1)) *why = "out of memory";
      } else if (e != 'u') {
        *why = "bad escape";
      } else if (!(*why = read_u_escape(s, n, &i, lenient, &cp))) {
        /* Strict strings stay NUL-free. */
        if (tbk_buf_utf8(out, cp || lenient ? cp : 0xFFFD)) *why = "out of memory";
      }
    }
  }
  *pos = i;
  if (!*why) *why = "unterminated string";
  return strcmp(*why, "out of memory") == 0 ? TBK_ERR_NOMEM : TBK_ERR_FORMAT;
}

/* A string at c (opening quote) appended to out with its NUL: 0 ok, -1
 * malformed, -2 out of memory. */
static int parse_string(cursor *c, tbk_buf *out) {
  const char *why;
  tbk_status st = tbk_json_read_str(c->s, c->n, &c->i, out, 0, &why);
  if (st == TBK_OK && tbk_buf_append(out, "", 1)) st = TBK_ERR_NOMEM;
  return st == TBK_OK ? 0 : st == TBK_ERR_NOMEM ? -2 : -1;
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

/* Skip a nested array/object with an explicit depth counter: 0, -1 malformed, -2 out of memory. */
static int skip_nested(cursor *c, tbk_buf *scratch) {
  size_t depth = 0;
  do {
    skip_ws(c);
    if (c->i >= c->n) return -1;
    char ch = c->s[c->i];
    if (ch == '[' || ch == '{') {
      depth++;
      c->i++;
    } else if (ch == ']' || ch == '}') {
      if (!depth) return -1;
      depth--;
      c->i++;
    } else if (ch == ',' || ch == ':') c->i++;
    else if (ch == '"') {
      scratch->len = 0;
      int r = parse_string(c, scratch);
      if (r) return r;
    } else if (ch == 't') {
      if (match_word(c, "true")) return -1;
    } else if (ch == 'f') {
      if (match_word(c, "false")) return -1;
    } else if (ch == 'n') {
      if (match_word(c, "null")) return -1;
    } else {
      double v;
      if (parse_number(c, &v)) return -1;
    }
  } while (depth > 0);
  return 0;
}

tbk_status tbk_jsonl_parse(const char *s, size_t n, tbk_jsonl_obj **out, tbk_error *err) {
  *out = NULL;
  tbk_jsonl_obj *o = calloc(1, sizeof *o);
  if (!o) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  tbk_buf scratch = {0};
  cursor c = {s, n, 0};
  int r = -1; /* why a string or nested value failed: -1 malformed, -2 out of memory */
  skip_ws(&c);
  if (c.i >= n || s[c.i] != '{') goto bad;
  c.i++;
  skip_ws(&c);
  if (c.i < n && s[c.i] == '}') {
    c.i++;
    goto end;
  }
  for (;;) {
    skip_ws(&c);
    if (tbk_grow(&o->m, &o->cap, o->n + 1, sizeof *o->m)) goto nomem;
    member *m = &o->m[o->n];
    m->key = o->strs.len;
    if ((r = parse_string(&c, &o->strs))) goto failed;
    skip_ws(&c);
    if (c.i >= n || s[c.i] != ':') goto bad;
    c.i++;
    skip_ws(&c);
    if (c.i >= n) goto bad;
    char ch = s[c.i];
    m->val = 0;
    m->num = 0;
    if (ch == '"') {
      m->type = 's';
      m->val = o->strs.len;
      if ((r = parse_string(&c, &o->strs))) goto failed;
    } else if (ch == 't') {
      m->type = 'b';
      m->num = 1;
      if (match_word(&c, "true")) goto bad;
    } else if (ch == 'f') {
      m->type = 'b';
      if (match_word(&c, "false")) goto bad;
    } else if (ch == 'n') {
      m->type = '0';
      if (match_word(&c, "null")) goto bad;
    } else if (ch == '{' || ch == '[') {
      m->type = 'x';
      if ((r = skip_nested(&c, &scratch))) goto failed;
    } else {
      m->type = 'n';
      if (parse_number(&c, &m->num)) goto bad;
    }
    o->n++;
    skip_ws(&c);
    if (c.i < n && s[c.i] == ',') {
      c.i++;
      continue;
    }
    if (c.i < n && s[c.i] == '}') {
      c.i++;
      break;
    }
    goto bad;
  }
end:
  skip_ws(&c);
  if (c.i != n) goto bad;
  tbk_buf_free(&scratch);
  *out = o;
  return TBK_OK;
failed:
  if (r == -2) goto nomem;
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
