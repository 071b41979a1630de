/* An input document read and parsed, and its keywords written out, as the
 * programs do it (keywords.h "documents"): tbk-keywords and tbk-eval
 * keywords read pages the same way. */
#include <string.h>

#include "keywords.h"

tbk_status tbk_kw_page_read(const tbk_page_ref *ref, const tbk_input_options *in, const tbk_page_options *o,
                            tbk_buf *raw, tbk_page **out, tbk_buf *gold, tbk_error *err) {
  if (out) *out = NULL;
  /* A page file is one page, so the page limit is its limit; the record
   * limit is for the (decompressed) records of a WARC file. */
  tbk_input_options lim = *in;
  if (!ref->is_warc) lim.max_record_bytes = o->max_page_bytes;
  raw->len = 0;
  if (gold) gold->len = 0;
  tbk_status st = tbk_page_ref_read(ref, &lim, raw, err);
  /* Plain text (--text): UTF-16 with a BOM decoded, CRLF made LF; binary
   * or text in another charset (Latin-1) refused with the reason. */
  if (!st && !out) st = tbk_side_text(raw, TBK_SIDE_UTF8, err);
  if (st || !out) return st;
  tbk_page_options po = *o;
  if (ref->charset && *ref->charset) po.charset_hint = ref->charset;
  return tbk_kw_page_parse(raw->data ? raw->data : "", raw->len, &po, out, gold, err);
}

int tbk_kw_write_text(tbk_buf *out, tbk_kw_extractor *x, const char *page, size_t top, int trained) {
  size_t n = tbk_kw_count(x);
  const tbk_kw_cand *c = tbk_kw_cands(x);
  if (n > top) n = top;
  int bad = page ? tbk_buf_printf(out, "==> %s <==\n", page) : 0;
  /* A trained ranker's score is a probability: fixed decimals compare
   * across pages; TF-IDF scores range widely, so significant digits. */
  for (size_t i = 0; i < n && !bad; i++)
    bad = tbk_buf_printf(out, trained ? "%.4f\t%s\n" : "%.4g\t%s\n", c[i].score, c[i].text);
  return bad ? -1 : 0;
}

int tbk_kw_write_jsonl(tbk_buf *out, tbk_kw_extractor *x, const char *page, size_t top) {
  size_t n = tbk_kw_count(x);
  const tbk_kw_cand *c = tbk_kw_cands(x);
  if (n > top) n = top;
  const char *lang = tbk_kw_lang(x);
  int bad = tbk_buf_puts(out, "{\"page\":") || tbk_buf_json_str(out, page, strlen(page)) ||
            tbk_buf_puts(out, ",\"lang\":") || tbk_buf_json_str(out, lang, strlen(lang)) ||
            tbk_buf_printf(out, ",\"tokens\":%zu,\"keywords\":[", tbk_kw_tokens(x));
  for (size_t i = 0; i < n && !bad; i++)
    bad = tbk_buf_puts(out, i ? ",{\"term\":" : "{\"term\":") || tbk_buf_json_str(out, c[i].text, strlen(c[i].text)) ||
          tbk_buf_printf(out, ",\"score\":%.6g,\"tf\":%u}", c[i].score, c[i].tf);
  return bad || tbk_buf_puts(out, "]}\n") ? -1 : 0;
}
