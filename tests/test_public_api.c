/* The public API's WARC reader (tbk_warc_open...), page metadata
 * (tbk_page_metadata) and per-call prediction options
 * (tbk_predict_render_opts), through tbk.h alone: what a library user
 * (the Python module) calls. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "check.h"
#include "tbk.h"

#define TMP TBK_TEST_TMP "/public_api"

typedef struct sbuf {
  char *p;
  size_t n, cap;
} sbuf;

static void put(sbuf *b, const void *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = 2 * (b->n + n + 1);
    b->p = realloc(b->p, b->cap);
    if (!b->p) exit(1);
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
}
static void puts_(sbuf *b, const char *s) { put(b, s, strlen(s)); }

static void record(sbuf *out, const char *type, const char *uri, const char *id, const char *http, const char *body,
                   long delta) {
  char head[1024];
  size_t len = strlen(http) + strlen(body);
  snprintf(head, sizeof head,
           "WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\n%s%s%sWARC-Date: 2024-03-0%dT10:00:00Z\r\n"
           "Content-Type: application/http; msgtype=response\r\nContent-Length: %ld\r\n\r\n",
           type, uri, id ? "WARC-Record-ID: " : "", id ? id : "", id ? "\r\n" : "", (int)strlen(uri) % 9 + 1,
           (long)len + delta);
  puts_(out, head);
  puts_(out, http);
  puts_(out, body);
  puts_(out, "\r\n\r\n");
}

static void gz_append(sbuf *out, const char *data, size_t n) {
  uLong cap = compressBound((uLong)n) + 64;
  unsigned char *buf = malloc(cap);
  z_stream z;
  memset(&z, 0, sizeof z);
  if (!buf || deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) exit(1);
  z.next_in = (unsigned char *)data;
  z.avail_in = (uInt)n;
  z.next_out = buf;
  z.avail_out = (uInt)cap;
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) exit(1);
  put(out, buf, cap - z.avail_out);
  deflateEnd(&z);
  free(buf);
}

static void write_file(const char *path, const sbuf *b) {
  FILE *f = fopen(path, "wb");
  if (!f || (b->n && fwrite(b->p, 1, b->n, f) != b->n) || fclose(f)) {
    fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
    exit(1);
  }
}

static const char page1[] = "<html><head><title>One</title></head><body><p>caf\xe9 one</p></body></html>";
static const char page2[] = "<html><body><div>page two</div></body></html>";

/* The records: warcinfo-like request, an HTML page, an image, another
 * HTML page; each one a gzip member in the .gz form. */
static void build(sbuf *plain, sbuf *gz, int truncated) {
  sbuf r[4] = {{0}};
  record(&r[0], "request", "http://a.example/1", "<urn:uuid:0000>", "GET /1 HTTP/1.1\r\nHost: a.example\r\n\r\n", "",
         0);
  record(&r[1], "response", "http://a.example/1", "<urn:uuid:1111>",
         "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\nServer: t\r\n\r\n", page1, 0);
  record(&r[2], "response", "http://a.example/img.png", "<urn:uuid:2222>",
         "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n", "\x89PNG....", 0);
  record(&r[3], "response", "http://a.example/two", NULL, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", page2,
         0);
  for (int i = 0; i < 4; i++) {
    put(plain, r[i].p, r[i].n);
    if (gz) gz_append(gz, r[i].p, r[i].n);
    free(r[i].p);
  }
  if (truncated) { /* a record cut off by the end of the file */
    sbuf t = {0};
    record(&t, "response", "http://a.example/cut", "<urn:uuid:3333>",
           "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", "<html><body>cut", 500);
    put(plain, t.p, t.n - 4);
    free(t.p);
  }
}

static void check_records(const char *path, int truncated) {
  tbk_warc *w = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_warc_open(path, 0, &w, &err), TBK_OK);
  if (!w) {
    fprintf(stderr, "%s: %s\n", path, err.msg);
    return;
  }
  CHECK_INT(tbk_warc_count(w), 2);
  CHECK_INT(tbk_warc_skipped(w) > 0, truncated);
  CHECK_INT(strlen(tbk_warc_warnings(w)) > 0, truncated);
  tbk_warc_record r;
  CHECK_INT(tbk_warc_record_get(w, 0, &r, &err), TBK_OK);
  CHECK_STR(r.url, "http://a.example/1");
  CHECK_STR(r.record_id, "<urn:uuid:1111>");
  CHECK_STR(r.date, "2024-03-01T10:00:00Z");
  CHECK_STR(r.charset, "ISO-8859-1"); /* as the header writes it */
  CHECK_INT(r.body_len, strlen(page1));
  CHECK(r.body_len == strlen(page1) && memcmp(r.body, page1, r.body_len) == 0);
  CHECK(strncmp(r.warc_headers, "WARC/1.0\r\nWARC-Type: response\r\n", 31) == 0);
  CHECK_INT(r.warc_headers_len, strlen(r.warc_headers));
  CHECK(strncmp(r.http_headers, "HTTP/1.1 200 OK\r\n", 17) == 0 && strstr(r.http_headers, "Server: t\r\n"));
  CHECK(strstr(r.http_headers, "\r\n\r\n") == NULL); /* the blank line left out */
  CHECK_INT(tbk_warc_record_get(w, 1, &r, &err), TBK_OK);
  CHECK_STR(r.url, "http://a.example/two");
  CHECK_STR(r.record_id, "");
  CHECK_STR(r.charset, "");
  CHECK(r.body_len == strlen(page2) && memcmp(r.body, page2, r.body_len) == 0);
  CHECK_INT(tbk_warc_record_get(w, 2, &r, &err), TBK_ERR_ARG);
  tbk_warc_free(w);
}

static void test_warc(void) {
  sbuf plain = {0}, gz = {0}, cut = {0}, text = {0}, nohtml = {0};
  build(&plain, &gz, 0);
  build(&cut, NULL, 1);
  write_file(TMP "/a.warc", &plain);
  write_file(TMP "/a.warc.gz", &gz);
  write_file(TMP "/cut.warc", &cut);
  check_records(TMP "/a.warc", 0);
  check_records(TMP "/a.warc.gz", 0);
  check_records(TMP "/cut.warc", 1);
  /* refusals */
  tbk_warc *w = (tbk_warc *)1;
  tbk_error err = {0};
  CHECK_INT(tbk_warc_open(TMP "/no-such.warc", 0, &w, &err), TBK_ERR_IO);
  CHECK(w == NULL);
  puts_(&text, "<html><body>not a WARC</body></html>");
  write_file(TMP "/page.warc", &text);
  CHECK_INT(tbk_warc_open(TMP "/page.warc", 0, &w, &err), TBK_ERR_FORMAT);
  record(&nohtml, "response", "http://a.example/i", NULL, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n", "x", 0);
  write_file(TMP "/nohtml.warc", &nohtml);
  CHECK_INT(tbk_warc_open(TMP "/nohtml.warc", 0, &w, &err), TBK_ERR_EMPTY);
  /* max_record_bytes: the big record skipped, with a warning */
  CHECK_INT(tbk_warc_open(TMP "/a.warc", 120, &w, &err), TBK_OK);
  CHECK_INT(tbk_warc_count(w), 1);
  CHECK(strstr(tbk_warc_warnings(w), "max-record-bytes") != NULL);
  tbk_warc_free(w);
  tbk_warc_free(NULL);
  free(plain.p), free(gz.p), free(cut.p), free(text.p), free(nohtml.p);
}

static void test_metadata(void) {
  static const char html[] =
      "<!DOCTYPE html><html lang=\"de\"><head><title>Der Titel | Zeitung</title>"
      "<meta property=\"og:title\" content=\"Der Titel\">"
      "<meta property=\"og:site_name\" content=\"Die Zeitung\">"
      "<meta name=\"author\" content=\"Meta Autor\">"
      "<meta name=\"description\" content=\"Kurz &amp; b&uuml;ndig &#x263A;\">"
      "<meta property=\"article:published_time\" content=\"2024-01-01\">"
      "<link rel=\"canonical\" href=\"https://z.example/a?x=1&amp;y=2\">"
      "<!-- <meta name=\"author\" content=\"Commented Out\"> -->"
      "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@graph\":["
      "{\"@type\":\"WebSite\",\"name\":\"Z Site\"},"
      "{\"@type\":[\"NewsArticle\"],\"headline\":\"JSON headline\",\"datePublished\":\"2024-02-02T08:00:00Z\","
      "\"author\":[{\"@type\":\"Person\",\"name\":\"Anna \\u00c4\"},{\"@type\":\"Person\",\"name\":\"Bo\"}],"
      "\"publisher\":{\"@type\":\"Organization\",\"name\":\"Pub\"}}]}</script>"
      "<script>var s = '<meta name=\"keywords\" content=\"in script\">';</script>"
      "</head><body><p>Text</p></body></html>";
  tbk_page *p = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_page_parse_for(NULL, html, sizeof html - 1, NULL, &p, &err), TBK_OK);
  tbk_buf out = {0};
  CHECK_INT(tbk_page_metadata(p, &out, &err), TBK_OK);
  CHECK_STR(out.data,
            "{\"title\": \"Der Titel\", \"author\": \"Anna \xc3\x84; Bo\", \"date\": \"2024-02-02T08:00:00Z\", "
            "\"date_modified\": null, \"site_name\": \"Die Zeitung\", \"language\": \"de\", "
            "\"description\": \"Kurz & b\xc3\xbcndig \xe2\x98\xba\", \"url\": \"https://z.example/a?x=1&y=2\", "
            "\"image\": null, \"keywords\": null, \"type\": \"NewsArticle\"}");
  tbk_buf_free(&out);
  tbk_page_free(p);
  /* nothing declared: every field null, the <title> aside */
  static const char bare[] = "<html><body><p>x</p><script type=application/ld+json>{broken</script></body></html>";
  CHECK_INT(tbk_page_parse_for(NULL, bare, sizeof bare - 1, NULL, &p, &err), TBK_OK);
  CHECK_INT(tbk_page_metadata(p, &out, &err), TBK_OK);
  CHECK_STR(out.data,
            "{\"title\": null, \"author\": null, \"date\": null, \"date_modified\": null, \"site_name\": null, "
            "\"language\": null, \"description\": null, \"url\": null, \"image\": null, \"keywords\": null, "
            "\"type\": null}");
  tbk_buf_free(&out);
  tbk_page_free(p);
}

static void test_predict_options(void) {
  tbk_model *m = NULL;
  tbk_error err = {0};
  if (tbk_model_load(TBK_DEFAULT_MODEL, &m, &err)) {
    fprintf(stderr, "%s: %s\n", TBK_DEFAULT_MODEL, err.msg);
    CHECK(0);
    return;
  }
  tbk_predictor *pr = NULL;
  CHECK_INT(tbk_predictor_new(m, &pr, &err), TBK_OK);
  static const char html[] =
      "<html><head><title>Budget</title></head><body><nav><a href=/>Home</a> <a href=/n>News</a></nav>"
      "<h1>The committee met</h1><p>The committee met on Tuesday to discuss the budget of the new library, "
      "its opening hours and the seed library that the volunteers run in the basement since last spring.</p>"
      "<p>Members agreed that the hours would be longer on weekends and that the reading room would stay open "
      "until nine in the evening during the exam weeks of the two colleges nearby.</p></body></html>";
  tbk_page *p = NULL;
  CHECK_INT(tbk_page_parse_for(m, html, sizeof html - 1, NULL, &p, &err), TBK_OK);
  tbk_buf a = {0}, b = {0};
  tbk_page_summary s;
  CHECK_INT(tbk_predict_render(pr, p, "x", TBK_FORMAT_JSONL, NULL, &a, &err), TBK_OK);
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_JSONL, NULL, &b, &s, &err), TBK_OK);
  CHECK(a.len && a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
  CHECK(s.chars > s.template_chars);
  tbk_predict_options o = tbk_predict_options_default;
  /* the copied defaults are the combined stage's own: the template stage
   * takes them, which it refuses for any combined-stage option changed */
  CHECK(o.content.prose_share == tbk_content_options_default.prose_share);
  CHECK(o.content.text_share == tbk_content_options_default.text_share);
  CHECK(o.content.min_kept_words == tbk_content_options_default.min_kept_words);
  CHECK(o.content.threshold == tbk_content_options_default.threshold);
  o.stage = 0;
  b.len = 0;
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_TEXT, &o, &b, &s, &err), TBK_OK);
  o.stage = -1;
  o.threshold = 0; /* everything removed (no fallback keeps a little) */
  o.content.min_kept_words = 0;
  o.content.prose_share = 0;
  o.content.text_share = 0;
  b.len = 0;
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_TEXT, &o, &b, &s, &err), TBK_OK);
  CHECK_INT(s.template_chars, s.chars);
  o.precision = 0.9; /* with a threshold */
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_TEXT, &o, &b, &s, &err), TBK_ERR_ARG);
  tbk_predict_options_init(&o);
  o.stage = 0;
  o.content.body = 1;
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_TEXT, &o, &b, &s, &err), TBK_ERR_ARG);
  o.content.body = 0;
  o.content.text_share = 0.9;
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_TEXT, &o, &b, &s, &err), TBK_ERR_ARG);
  o.content.text_share = tbk_content_options_default.text_share;
  /* shares outside [0, 1], NaN among them, are refused in every stage */
  o.stage = -1;
  o.content.text_share = NAN;
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_TEXT, &o, &b, &s, &err), TBK_ERR_ARG);
  CHECK(strstr(err.msg, "text_share") != NULL);
  o.content.text_share = tbk_content_options_default.text_share;
  o.content.prose_share = 1.5;
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_TEXT, &o, &b, &s, &err), TBK_ERR_ARG);
  CHECK(strstr(err.msg, "prose_share") != NULL);
  o.content.prose_share = tbk_content_options_default.prose_share;
  o.stage = 0;
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_TEXT, &o, &b, &s, &err), TBK_OK);
  CHECK_INT(s.blocks, tbk_page_block_count(p)); /* the template stage: blocks */
  o.stage = 7;
  CHECK_INT(tbk_predict_render_opts(pr, p, "x", TBK_FORMAT_TEXT, &o, &b, &s, &err), TBK_ERR_ARG);
  /* keywords: idf 1 without a table; a missing table named */
  tbk_keyword_table *kt = (tbk_keyword_table *)1;
  CHECK_INT(tbk_keyword_table_load(TBK_TEST_TMP "/no-such.df", NULL, &kt, &err), TBK_ERR_IO);
  CHECK(kt == NULL && strncmp(err.msg, TBK_TEST_TMP "/no-such.df: ", strlen(TBK_TEST_TMP) + 13) == 0);
  CHECK_INT(tbk_keyword_table_load(NULL, NULL, &kt, &err), TBK_OK);
  b.len = 0;
  CHECK_INT(tbk_keywords_page(pr, kt, html, sizeof html - 1, NULL, "x", -1, 3, &b, &err), TBK_OK);
  CHECK(b.data && strncmp(b.data, "{\"page\":\"x\",\"lang\":\"en\"", 23) == 0 &&
        strstr(b.data, "{\"term\":\"committee\",\"score\":2,\"tf\":2}"));
  CHECK_INT(tbk_keywords_page(pr, kt, html, sizeof html - 1, NULL, "x", 3, 3, &b, &err), TBK_ERR_ARG);
  CHECK_INT(tbk_keywords_page(pr, NULL, "", 0, NULL, "x", 0, 3, &b, &err), TBK_ERR_EMPTY);
  tbk_keyword_table_free(kt);
  tbk_buf_free(&a);
  tbk_buf_free(&b);
  tbk_page_free(p);
  tbk_predictor_free(pr);
  tbk_model_free(m);
}

int main(void) {
  mkdir(TBK_TEST_TMP, 0777);
  mkdir(TMP, 0777);
  test_warc();
  test_metadata();
  test_predict_options();
  return check_report();
}
