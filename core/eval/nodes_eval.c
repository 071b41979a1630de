/* tbk-eval nodes' scoring (nodes_eval.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "nodes_eval.h"

struct tbk_nodes_slot {
  char *key; /* owned: page \t xpath, or page (pages table) */
  uint64_t h;
  size_t val; /* nodes: the reference's flag (2: not in it); pages: index in ps */
};
typedef struct tbk_nodes_slot slot;

static slot *find(tbk_nodes_table *t, const char *key, size_t klen, uint64_t h) {
  size_t i = h & (t->cap - 1);
  while (t->s[i].key && !(t->s[i].h == h && strncmp(t->s[i].key, key, klen) == 0 && !t->s[i].key[klen]))
    i = (i + 1) & (t->cap - 1);
  return &t->s[i];
}

/* NULL: out of memory. */
static slot *lookup_or_add(tbk_nodes_table *t, const char *key, size_t klen, int *added) {
  if ((t->n + 1) * 2 > t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 1024;
    slot *ns = calloc(cap, sizeof *ns);
    if (!ns) return NULL;
    tbk_nodes_table nt = {ns, cap, t->n};
    for (size_t i = 0; i < t->cap; i++)
      if (t->s[i].key) *find(&nt, t->s[i].key, strlen(t->s[i].key), t->s[i].h) = t->s[i];
    free(t->s);
    *t = nt;
  }
  uint64_t h = tbk_hash64(key, klen);
  slot *s = find(t, key, klen, h);
  *added = !s->key;
  if (!s->key) {
    s->key = malloc(klen + 1);
    if (!s->key) return NULL;
    memcpy(s->key, key, klen);
    s->key[klen] = '\0';
    s->h = h;
    t->n++;
  }
  return s;
}

static void table_free(tbk_nodes_table *t) {
  for (size_t i = 0; i < t->cap; i++) free(t->s[i].key);
  free(t->s);
}

/* Line lineno of path skipped, why. */
static void skip(tbk_nodes_eval *e, const char *path, size_t lineno, const char *why, tbk_warn_fn warn, void *ctx) {
  char where[4096];
  snprintf(where, sizeof where, "%s:%zu", path, lineno);
  warn(ctx, where, why);
  e->bad_lines++;
}

/* One line's page and element; -1 out of memory. */
static int count_line(tbk_nodes_eval *e, const char *path, const char *page, const char *xpath, const char *site,
                      double flag, int reference, tbk_warn_fn warn, void *ctx) {
  int added;
  slot *ps = lookup_or_add(&e->pages, page, strlen(page), &added);
  if (!ps) return -1;
  if (added) {
    if (!reference) {
      char why[4200];
      snprintf(why, sizeof why, "page %s is not in the reference (skipped)", page);
      warn(ctx, path, why);
      ps->val = SIZE_MAX;
    } else {
      if (tbk_grow(&e->ps, &e->cap_ps, e->nps + 1, sizeof *e->ps)) return -1;
      tbk_nodes_page *p = &e->ps[e->nps];
      memset(p, 0, sizeof *p);
      p->page = strdup(page);
      p->site = strdup(site ? site : "-");
      ps->val = e->nps++;
      if (!p->page || !p->site) return -1;
    }
  }
  if (ps->val == SIZE_MAX) return 0;
  tbk_nodes_page *p = &e->ps[ps->val];
  e->key.len = 0;
  if (tbk_buf_puts(&e->key, page) || tbk_buf_append(&e->key, "\t", 1) || tbk_buf_puts(&e->key, xpath)) return -1;
  slot *ns = lookup_or_add(&e->nodes, e->key.data, e->key.len, &added);
  if (!ns) return -1;
  if (reference) {
    if (added) {
      ns->val = (size_t)flag;
      p->nodes++;
      p->ref += flag == 1;
    }
  } else {
    p->seen = 1;
    if (added) {
      ns->val = 2; /* not in the reference: counted once */
      p->unknown++;
    }
    if (flag == 1) {
      p->retrieved++;
      p->correct += ns->val == 1;
    }
  }
  return 0;
}

tbk_status tbk_nodes_eval_read(tbk_nodes_eval *e, const char *path, int reference, tbk_warn_fn warn, void *ctx,
                               tbk_error *err) {
  FILE *f;
  tbk_error oe = {0};
  if (tbk_open_read(path, &f, &oe)) return tbk_fail(err, oe.code, "%s: %s", path, oe.msg);
  char *line = NULL;
  size_t cap = 0, lineno = 0;
  ssize_t n;
  int nomem = 0;
  while (!nomem && (n = getline(&line, &cap, f)) > 0) {
    lineno++;
    tbk_jsonl_obj *o;
    if (tbk_jsonl_parse(line, (size_t)n, &o, &oe)) {
      char why[sizeof oe.msg + 16];
      snprintf(why, sizeof why, "%s (skipped)", oe.msg);
      skip(e, path, lineno, why, warn, ctx);
      continue;
    }
    const char *page = tbk_jsonl_str(o, "page"), *xpath = tbk_jsonl_str(o, "xpath"), *site = tbk_jsonl_str(o, "site");
    double flag = tbk_jsonl_num(o, "template", NAN);
    if (!page || !xpath || !(flag == 0 || flag == 1))
      skip(e, path, lineno, "a line needs \"page\", \"xpath\" and \"template\" 1 or 0 (skipped)", warn, ctx);
    else nomem = count_line(e, path, page, xpath, site, flag, reference, warn, ctx) != 0;
    tbk_jsonl_free(o);
  }
  int rerr = ferror(f), saved = errno;
  free(line);
  if (f != stdin) fclose(f);
  if (nomem) return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  if (rerr) return tbk_fail(err, TBK_ERR_IO, "%s: cannot read: %s", path, strerror(saved));
  return TBK_OK;
}

static int cmp_site(const void *a, const void *b) {
  const tbk_nodes_page *x = a, *y = b;
  int c = strcmp(x->site, y->site);
  return c ? c : strcmp(x->page, y->page);
}

void tbk_nodes_eval_sort(tbk_nodes_eval *e) { qsort(e->ps, e->nps, sizeof *e->ps, cmp_site); }

void tbk_nodes_page_scores(const tbk_nodes_page *p, double *r, double *pr, double *f) {
  *r = p->ref ? (double)p->correct / (double)p->ref : 1.0;
  *pr = p->retrieved ? (double)p->correct / (double)p->retrieved : 1.0;
  *f = *r + *pr > 0 ? 2 * *r * *pr / (*r + *pr) : 0.0;
  if (!p->seen) *r = *pr = *f = 0.0;
}

void tbk_nodes_eval_free(tbk_nodes_eval *e) {
  for (size_t i = 0; i < e->nps; i++) {
    free(e->ps[i].site);
    free(e->ps[i].page);
  }
  free(e->ps);
  table_free(&e->nodes);
  table_free(&e->pages);
  tbk_buf_free(&e->key);
}
