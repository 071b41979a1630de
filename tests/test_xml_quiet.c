/* The library's calls into libxml2 catch its messages and leave an
 * application's own handlers as they were (core/page/xml_quiet.c): with a
 * program's handlers set on libxml2's two channels, parsing (tbk's parser
 * and libxml2's) and rendering a page whose declared charset cannot write
 * all of it reach neither handler, and both are still set afterwards;
 * what the charset could not write is the library's own note or error.
 * libxml2's headers are not on the tests' include path, so the three
 * calls used here are declared by hand, pointers standing for its types. */
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

typedef void (*generic_fn)(void *ctx, const char *msg, ...);
typedef void (*structured_fn)(void *ctx, void *error);
void xmlSetGenericErrorFunc(void *ctx, generic_fn handler);
void xmlSetStructuredErrorFunc(void *ctx, structured_fn handler);
void *htmlReadMemory(const char *buffer, int size, const char *url, const char *encoding, int options);
void xmlFreeDoc(void *doc);

static int generic_calls, structured_calls;
static void on_generic(void *ctx, const char *msg, ...) { (void)ctx, (void)msg, generic_calls++; }
static void on_structured(void *ctx, void *error) { (void)ctx, (void)error, structured_calls++; }

/* ISO646-FR has no '#': the Han character cannot be written even as a
 * character reference, which libxml2 reports. */
static const char PAGE[] =
    "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO646-FR\"><title>t</title></head>"
    "<body><div><p>Un caf\xc3\xa9 \xe4\xb8\xad pour finir la phrase du jour.</p>"
    "<p>Stray end tags for libxml2's parser to report.</p></span></b></div></body></html>";

static void render(int keep_dom) {
  tbk_page_options o = tbk_page_options_default;
  o.keep_dom = keep_dom;
  tbk_page *p = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_page_parse(PAGE, sizeof PAGE - 1, &o, &p, &err), TBK_OK);
  if (!p) return;
  CHECK(tbk_page_parse_errors(p) > 0);
  tbk_buf out = {0};
  CHECK_INT(tbk_page_html(p, NULL, &out), TBK_OK);
  CHECK(out.len > 0);
  const char *note = tbk_page_html_note(p);
  CHECK(strstr(note, "1 character left out of the HTML") == note);
  CHECK(strstr(note, "ISO646-FR") != NULL);
  tbk_buf_free(&out);
  tbk_page_free(p);
}

/* ISO_5428 (Greek) has no '<': libxml2 gives the output up. The metadata
 * of a page that keeps its tree is read from that output, and says so. */
static void unwritable(void) {
  static const char greek[] =
      "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO_5428\"><title>t</title>"
      "</head><body><p>Some text with enough words to make a block of its own.</p></body></html>";
  tbk_page_options o = tbk_page_options_default;
  o.keep_dom = 1;
  tbk_page *p = NULL;
  tbk_error err = {0};
  CHECK_INT(tbk_page_parse(greek, sizeof greek - 1, &o, &p, &err), TBK_OK);
  if (!p) return;
  tbk_buf out = {0};
  CHECK_INT(tbk_page_html(p, NULL, &out), TBK_ERR_FORMAT);
  CHECK(strstr(tbk_page_html_note(p), "declared charset ISO_5428") != NULL);
  tbk_buf_free(&out);
  CHECK_INT(tbk_page_metadata(p, &out, &err), TBK_ERR_FORMAT);
  CHECK(strstr(err.msg, "ISO_5428") != NULL);
  tbk_buf_free(&out);
  tbk_page_free(p);
}

/* Both charsets are glibc iconv's (gconv modules a minimal system may lack). */
static int have(const char *charset) {
  iconv_t cd = iconv_open(charset, "UTF-8");
  if (cd == (iconv_t)-1) return 0;
  iconv_close(cd);
  return 1;
}

int main(void) {
  if (!have("ISO646-FR") || !have("ISO_5428")) {
    printf("SKIP: no iconv converter for ISO646-FR or ISO_5428\n");
    return 77;
  }
  xmlSetGenericErrorFunc(NULL, on_generic);
  xmlSetStructuredErrorFunc(NULL, on_structured);
  render(0); /* the tree dropped: parsed again keeping it to render */
  render(1); /* keep_dom: the tree kept */
  unwritable();
  CHECK_INT(generic_calls, 0);
  CHECK_INT(structured_calls, 0);
  /* Still the program's: libxml2's own parse reports to them. */
  static const char bad[] = "<p>a</span></b>";
  void *doc = htmlReadMemory(bad, (int)sizeof bad - 1, NULL, "UTF-8", 0);
  CHECK(doc != NULL);
  if (doc) xmlFreeDoc(doc);
  CHECK(structured_calls > 0);
  return check_report();
}
