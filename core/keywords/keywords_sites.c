/* Whose a meta keyword is, the page's or its site's (keywords.h): every
 * page's meta keys counted per site, then a page's gold filtered by a
 * rule. */
#include <stdlib.h>
#include <string.h>

#include "keywords_internal.h"

struct tbk_kw_sites {
  tbk_kw_df *pages; /* "site": its pages counted */
  tbk_kw_df *keys;  /* "site\x1fkey": those of its pages listing key */
  tbk_buf scratch;
};

tbk_status tbk_kw_sites_new(tbk_kw_sites **out, tbk_error *err) {
  *out = calloc(1, sizeof **out);
  if (!*out || tbk_kw_df_new(&(*out)->pages, err) || tbk_kw_df_new(&(*out)->keys, err)) {
    tbk_kw_sites_free(*out);
    *out = NULL;
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  }
  return TBK_OK;
}

void tbk_kw_sites_free(tbk_kw_sites *s) {
  if (!s) return;
  tbk_kw_df_free(s->pages);
  tbk_kw_df_free(s->keys);
  tbk_buf_free(&s->scratch);
  free(s);
}

/* "site" or "site\x1fkey" in the scratch buffer; -1 out of memory. */
static int site_key(tbk_buf *b, const char *site, const char *key) {
  b->len = 0;
  if (tbk_buf_puts(b, site ? site : "")) return -1;
  if (key && (tbk_buf_puts(b, "\x1f") || tbk_buf_puts(b, key))) return -1;
  return 0;
}

tbk_status tbk_kw_sites_add(tbk_kw_sites *s, const char *site, const tbk_kw_gold *meta, tbk_error *err) {
  if (site_key(&s->scratch, site, NULL) || tbk_kw_df_add_key(s->pages, s->scratch.data, s->scratch.len, err))
    return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  for (size_t k = 0; k < tbk_kw_gold_count(meta); k++)
    if (site_key(&s->scratch, site, tbk_kw_gold_key(meta, k)) ||
        tbk_kw_df_add_key(s->keys, s->scratch.data, s->scratch.len, err))
      return tbk_fail(err, TBK_ERR_NOMEM, "out of memory");
  return TBK_OK;
}

uint32_t tbk_kw_sites_pages(tbk_kw_sites *s, const char *site) {
  return site_key(&s->scratch, site, NULL) ? 0 : tbk_kw_df_get(s->pages, s->scratch.data, s->scratch.len);
}

uint32_t tbk_kw_sites_listing(tbk_kw_sites *s, const char *site, const char *key) {
  return site_key(&s->scratch, site, key) ? 0 : tbk_kw_df_get(s->keys, s->scratch.data, s->scratch.len);
}

typedef struct rule_ctx {
  tbk_kw_sites *s;
  const char *site;
  uint32_t pages;
  tbk_kw_gold_rule rule;
} rule_ctx;

static int keep_key(void *ctx, const char *key) {
  rule_ctx *r = ctx;
  uint32_t listing = tbk_kw_sites_listing(r->s, r->site, key);
  if (r->rule == TBK_KW_GOLD_PAGE_SPECIFIC) return listing <= 1; /* the page itself */
  return r->pages < TBK_KW_SITE_MIN_PAGES || 2 * listing < r->pages;
}

size_t tbk_kw_gold_site_rule(tbk_kw_gold *g, tbk_kw_sites *s, const char *site, tbk_kw_gold_rule rule) {
  if (rule == TBK_KW_GOLD_ALL) return tbk_kw_gold_count(g);
  rule_ctx r = {s, site, tbk_kw_sites_pages(s, site), rule};
  if (rule == TBK_KW_GOLD_PAGE_SPECIFIC && r.pages < TBK_KW_SITE_MIN_PAGES) {
    tbk_kw_gold_clear(g);
    return 0;
  }
  return tbk_kw_gold_keep_if(g, keep_key, &r);
}
