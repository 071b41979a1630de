/* tbk's fast HTML parser (core/page/fast_html.c) held to libxml2's: every
 * page it takes must give the arena libxml2's own events build, node for
 * node (type, links, line, name, attributes, text) with the same error
 * count. Pages: markup written here for each rule the parser reproduces
 * (each must be taken, not declined), every pair of HTML 4 tags opened one
 * inside the other (the auto-close table, including which tags close
 * themselves), and thousands of random tag soups. libxml2 2.9.14 is the
 * oracle: with another libxml2 loaded, whose parse differs by design, or
 * with the fast parser off, the test skips. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "charset.h"
#include "check.h"
#include "fast_html.h"
#include "tbk_internal.h"

static size_t taken, declined;

/* Both parsers on one page, the arenas kept for HTML output (keep: the
 * DOCTYPE, comments, PIs and all the text) or not: 1 when the fast parser
 * took it. */
static int both_as(const char *html, size_t n, int must_take, int line, int keep) {
  tbk_arena fa = {.keep = keep}, la = {.keep = keep};
  size_t fe = 0, le = 0;
  tbk_error err = {0};
  const char *why = NULL;
  int r = tbk_html_fast(html, n, &fa, &fe, &why);
  tbk_status st = tbk_html_stream_libxml2(html, n, &la, &le, &err);
  CHECK(r != TBK_FAST_NOMEM);
  if (r == TBK_FAST_LIMIT) CHECK(st == TBK_ERR_LIMIT); /* the watch stops libxml2 too */
  if (r == TBK_FAST_OK) {
    taken++;
    CHECK(fa.fast);
    size_t at = 0;
    const char *what = st == TBK_OK ? tbk_arena_diff(&fa, &la, &at) : "libxml2 refused the page";
    if (!what && fe != le) what = "error count";
    if (what) {
      check_failures++;
      fprintf(stderr, "test_fast_html.c:%d: %s differs (node %zu; errors fast %zu libxml2 %zu; keep %d) on:\n%.400s\n",
              line, what, at, fe, le, keep, html);
      const char *keep = getenv("TBK_TEST_FAILED"); /* a file for the page, to look into */
      FILE *o = keep ? fopen(keep, "wb") : NULL;
      if (o) {
        fwrite(html, 1, n, o);
        fclose(o);
      }
    }
  } else {
    declined++;
    CHECK(fa.count == 0 && !fa.dict);
    if (must_take) {
      check_failures++;
      fprintf(stderr, "test_fast_html.c:%d: the fast parser declined (%s):\n%.400s\n", line, why ? why : "?", html);
    }
  }
  tbk_arena_free(&fa);
  tbk_arena_free(&la);
  return r == TBK_FAST_OK;
}

static int both(const char *html, size_t n, int must_take, int line) {
  int r = both_as(html, n, must_take, line, 0);
  if (r) {
    both_as(html, n, must_take, line, 1);
    taken--; /* one page */
  }
  return r;
}

#define SAME(html) both(html, strlen(html), 1, __LINE__)

static void rules(void) {
  /* implied html, head, body and p; text where it implies a <p> */
  SAME("<title>t</title><p>x");
  SAME("hello <b>world</b>");
  SAME("<html>  <head> x <title>a</title><meta charset=utf-8> y</head><body>b</body></html>  ");
  SAME("<html><head></head><title>late</title><p>a</p></html>");
  SAME("<html> &amp; </html>");
  SAME("<html>\n<head>\n<script>var "
       "a='</p>';</script>\n<style>p{}</style>\n</head>\n<body>\n<p>t</p>\n</body>\n</html>\n");
  /* auto-close and end tags by priority, with the mismatch errors */
  SAME("<table><tr><td>a<td>b<tr><td>c</table><ul><li>1<li>2</ul><p>x<div>y</div><dl><dt>a<dd>b</dl>");
  SAME("<div><b><i>x</b></i></div><p><span>a</p>b</span>");
  SAME("<table><tr><td><div>a</td></tr></table><div><table><tr><td>b</div></td></tr></table>");
  SAME("<select><option>a<option>b</select><form><form><p>x</form>");
  SAME("<p>a<p>b<a href=1>c<a href=2>d</a><center>e<font>f<center>g</center>");
  SAME("<body><div></body><p>after body</p></html><p>after html</p><!-- end -->");
  SAME("</p></div></x>text<br></br><img src=a/>");
  /* misplaced html, head, body (discarded, their end tags skipped) */
  SAME("<html><body><p>x<html lang=de><head><body class=b><p>y</body></html>z</body></html>");
  SAME("<div>a<html/>b<body/>c</div>");
  /* unknown tags, QNames, empty and self-closed elements */
  SAME("<section><nav>a</nav><main><x-y>b</x-y><g:plusone a=1>c</g:plusone><x:1y>d</x:1y><:b>e</:b></main></section>");
  SAME("<p/><div/>x<br/><hr><input checked disabled value=''><span/>y");
  /* a start tag auto-closes by its name read up to a dot, and right
   * after <script> or <style> before their content is read */
  SAME("<p>a<p.x>b</p.x><div>c<p.y>d<li.z>e<li>f<li.w>g");
  SAME("<address><dir><html/><!DOCTYPE html><li.x>y"); /* no read-ahead after a misplaced DOCTYPE */
  SAME("<head><style><frameset>x</frameset><script><table>y</table><p><script><p>z</p></script>");
  /* attributes: quoting, references, duplicates, bogus names */
  SAME("<a href=\"?a=1&b=2\" title='x &amp; y &lt; z &#65;&#x42; &foo; &bar baz' data-x=&quot;q&quot;>t</a>");
  SAME("<p id=a id=b class = c CLASS=d \"bogus\" ='x' a=1/ b>t</p><p a= >u</p><p x=y/>v</p>");
  SAME("<p id=a>1</p><p id=a>2</p><a name=a>3</a><a name=n>4</a><b name=n>5</b><p id=\"\">6</p><p id=\"\">7</p>");
  SAME("<p title=\"line one\nline two\" \n class=x\n>t</p><p>after</p>");
  /* references in text */
  SAME("<p>&amp; &lt;&gt; &nbsp;&copy;&#8217;&#x20AC; &foo; &bar; x &amp y & z &#65;</p>");
  /* character references: a missing ';' ends the digits (an error), a value
   * that is no Char gives nothing in text and ends an attribute's value */
  SAME("<p>&#82. &#183< &#x &#] &#0& &#39s &#x41g &#1114112; &#55296; &#x110000;</p><p>&#</p>");
  SAME("<a title=\"x&#0;y\" alt=\"&#65b &#x;z\" rel=&#66>t</a><img alt='&#'>");
  SAME("<p>caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80 &eacute;</p>");
  /* script and style: raw text up to their own end tag */
  SAME("<script>if (a</b) { x = '</div>'; }</script><style>a</style ><script>x</SCRIPT>y");
  SAME("<p><script>document.write('<p>x</p>')</scriptx>z</p>");
  /* comments, PIs, DOCTYPEs */
  SAME("<!-- lead --><?xml version=\"1.0\"?>\n<!DOCTYPE html>\n<!-- after --><html><body><!----><!-- - -- "
       "--><p>x</p></body></html>");
  SAME("<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\"><html><body>  "
       "<p>a</p>  </body></html>");
  SAME("<!doctype html system 'about:legacy-compat'><p>x</p>");
  SAME("<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\" [ <!ENTITY a 'b'> ]><p>x</p>");
  SAME("<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.0 Transitional//EN\"^><p>x</p>");
  SAME("<html><body><p>one</p><!DOCTYPE html></body></html><div>after</div>");
  SAME("<p>before</p></html><div>after root<p>more</p></div><!-- c --><span>x</span>");
  SAME("<!-- lead --><p>before</p></html><div>after root</div>");
  SAME("<?php echo 1 ?><p>x<?pi?></p>");
  /* a comment closed by "--!>" (an error), unterminated ones and PIs
   * (errors: the rest of the page is theirs), PIs without a target */
  SAME("<p>a<!-- c --!>b<!-- d -- !> e -->f<!----!>g<!---!>h--!>i</p>");
  SAME("<!-- lead --!><p>a</p>");
  SAME("<p>a</p><!-- never closed <p>x</p>");
  SAME("<p>a</p><!--");
  SAME("<p>a</p><!--x");
  SAME("<div><p>a<?pi never closed <p>b</p>");
  SAME("<? x ?><p>a<?>b<? c?>d<?1e?>f<?\xc3\xa9t x?>g</p><?");
  SAME("<?-x?><p>a</p>");
  SAME("<p>a</p><?pi"); /* an ASCII name at the page's end is none */
  /* start tags and quoted values cut by the page's end */
  SAME("<p>a<img src=\"x y");
  SAME("<p>a<img src='x &amp");
  SAME("<div><p class=a");
  SAME("<p>x</p><br");
  SAME("<body><body");
  SAME("<html");
  SAME("<p title=\"a\" ");
  SAME("<table><tr><td>a<td b=1 c");
  SAME("<title>t</title><p>a<span id=x");
  /* empty documents: an error, nothing else */
  SAME("");
  SAME(" \n\t ");
  /* names htmlParseName reads by characters: non-ASCII, or at the end */
  SAME("<p>&\xc3\xa9t\xc3\xa9; &amp\xc3\xa9; &a\xcc\x81"
       "b; &\xe6\x97\xa5; &\xcc\x81x; &nbsp\xc2\xa0 &copy</p><p>&amp");
  SAME("<a title='&\xc3\xa9; &amp\xc3\xa9;' alt=&x\xc3\xa9>t</a>");
  SAME("<?p\xc3\xa9 x?><!DOCTYPE h\xc3\xa9tml><p>x</p>");
  /* '<' that starts no tag; end tags without a name */
  SAME("<p>a < b <3 <_x> <:y> </ p> <!x> <![CDATA[z]]> </></p>");
  /* text in 1000-byte chunks: a long text's node takes the line of its first chunk */
}

static void long_text(void) {
  tbk_buf b = {0};
  CHECK_BUF(tbk_buf_append(&b, "<html><body><p>", 15));
  for (int i = 0; i < 300; i++) CHECK_BUF(tbk_buf_printf(&b, "word %d\n", i));
  CHECK_BUF(tbk_buf_append(&b, "</p><pre>\xc3\xa9", 11));
  for (int i = 0; i < 997; i++) CHECK_BUF(tbk_buf_append(&b, "x", 1));
  CHECK_BUF(tbk_buf_append(&b, "\xc3\xa9\n\xc3\xa9</pre></body></html>", 22));
  both(b.data, b.len, 1, __LINE__);
  tbk_buf_free(&b);
}

/* HTML 4's elements (libxml2 describes these), two it does not describe
 * but auto-closes (listing, xmp), and some it does not know. */
// clang-format off
static const char *const tags[] = {
    "a",        "abbr",     "acronym",  "address", "applet",   "area",     "b",        "base",     "basefont",
    "bdo",      "big",      "blockquote", "body",  "br",       "button",   "caption",  "center",   "cite",
    "code",     "col",      "colgroup", "dd",      "del",      "dfn",      "dir",      "div",      "dl",
    "dt",       "em",       "embed",    "fieldset", "font",    "form",     "frame",    "frameset", "h1",
    "h2",       "h3",       "h4",       "h5",      "h6",       "head",     "hr",       "html",     "i",
    "iframe",   "img",      "input",    "ins",     "isindex",  "kbd",      "label",    "legend",   "li",
    "link",     "map",      "menu",     "meta",    "noframes", "noscript", "object",   "ol",       "optgroup",
    "option",   "p",        "param",    "pre",     "q",        "s",        "samp",     "script",   "select",
    "small",    "span",     "strike",   "strong",  "style",    "sub",      "sup",      "table",    "tbody",
    "td",       "textarea", "tfoot",    "th",      "thead",    "title",    "tr",       "tt",       "u",
    "ul",       "var",      "listing",  "xmp",     "section",  "nav",      "custom-el",
};
// clang-format on
enum { NTAGS = sizeof tags / sizeof tags[0] };

/* Every tag opened inside every other, in body and in a table cell: which
 * closes which (and itself) is libxml2's table. */
static void pairs(void) {
  char html[256];
  size_t before = check_failures;
  for (size_t i = 0; i < NTAGS; i++)
    for (size_t j = 0; j < NTAGS; j++) {
      int n = snprintf(html, sizeof html, "<body><%s>a<%s>b</body>", tags[i], tags[j]);
      both(html, (size_t)n, 1, __LINE__);
      n = snprintf(html, sizeof html, "<table><tr><td><%s>a<%s>b</td><td>c</%s>d</table>", tags[i], tags[j], tags[i]);
      both(html, (size_t)n, 1, __LINE__);
      if ((size_t)check_failures > before + 20) return; /* enough to go on */
    }
}

/* Random tag soup from pieces every rule of the parser meets. */
// clang-format off
static const char *const pieces[] = {
    "<p>", "</p>", "<div>", "</div>", "<table>", "<tr>", "<td>", "</td>", "</tr>", "</table>", "<li>", "<ul>", "</ul>",
    "<b>", "</b>", "<i>", "</i>", "<html>", "</html>", "<head>", "</head>", "<body>", "</body>", "<title>", "</title>",
    "<script>", "</script>", "<style>", "</style>", "<br>", "<br/>", "<img src=x>", "<span class=\"a &amp; b\">",
    "</span>", "<section>", "</section>", "<option>", "<select>", "</select>", "<form>", "</form>",
    "<a href='x&y=1'>", "</a>", "<input checked>", "<!-- c -->", "<!DOCTYPE html>", "<?pi x?>", "text", "more words",
    " ", "\n", "  \n ", "&amp;", "&nbsp;", "&foo;", "&bar", "& ", "&#65;", "&#x20AC;", "<", "< x", "</ >", "</x y>",
    "<dl>", "<dt>", "<dd>", "<h1>", "</h1>", "<center>", "<font>", "</font>", "<p id=a>", "<a name=a>", "<a:b>",
    "</a:b>", "<x:1>", "<meta charset=utf-8>", "<link rel=x>", "<base href=/>", "<frameset>", "<frame>",
    "<noframes>", "<thead>", "<tbody>", "<col>", "<colgroup>", "<caption>", "<address>", "<pre>", "<listing>",
    "<xmp>", "\xc3\xa9t\xc3\xa9", "<div title=\"x\" title=y>", "<p \"bogus\" a=1/>", "<x-el>", "</x-el>", "<hr/>",
    "<textarea>", "</textarea>", "<![CDATA[x]]>", "</body></html>", "<tfoot>", "<th>", "</th>", "<dir>", "<menu>",
    "<P>", "</P >", "</div x>", "<DIV CLASS=A>", "<!--->-->", "<!---->", "<!-- -- -->", "<a title='&amp'>",
    "<?x>", "<br />", "<td/>", "<html/>", "<body/>", "<head/>", "\r\n", "\t", "</script >", "<script type=x>",
    "</scripty>", "&lt", "<img alt=\"a\nb\">", "<p.q>", "<li.x>", "</style >", "<style media=all>", "<html lang=x>",
    "<head profile=y>", "<body class=z>", "<p/ >", "<a href=x/>", "<input value=a&b>", "<img src=\"\" >",
    "&#82.", "&#x", "&#]", "&#0;", "<a title='&#0;x'>", "<a title=\"&#65b\">", "<!DOCTYPE x [y]>",
    "--!>", "<!-- c --!>", "<? x>", "<?", "&\xc3\xa9;", "&amp\xc3\xa9", "<?p\xc3\xa9 x?>", "&a",
    "<a title=\"", "<img alt='x", "<b c=d", "<i ",
    "                                                                                                    ",
};
// clang-format on
enum { NPIECES = sizeof pieces / sizeof pieces[0] };

static void soups(long count, uint64_t seed) {
  tbk_buf b = {0};
  size_t before = taken;
  for (long d = 0; d < count; d++) {
    b.len = 0;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int len = 1 + (int)((seed >> 33) % 60);
    for (int k = 0; k < len; k++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      const char *p = pieces[(seed >> 33) % NPIECES];
      CHECK_BUF(tbk_buf_append(&b, p, strlen(p)));
    }
    both(b.data, b.len, 0, __LINE__);
  }
  tbk_buf_free(&b);
  /* Most soups must be taken, or this proves little. */
  CHECK(taken - before > (size_t)count * 3 / 4);
}

/* What the fast parser declines: libxml2 reads these its own way. */
static void declines(void) {
  const char *const no[] = {
      "<p>a\fb</p>",            /* a form feed: not an XML Char */
      "\xef\xbb\xbf<p>bom</p>", /* a byte order mark */
      "<p>a<!DOCTYPE>b</p>",    /* a DOCTYPE without a name */
  };
  for (size_t k = 0; k < sizeof no / sizeof no[0]; k++) {
    tbk_arena a = {0};
    size_t e;
    const char *why = NULL;
    CHECK_INT(tbk_html_fast(no[k], strlen(no[k]), &a, &e, &why), TBK_FAST_DECLINED);
    CHECK(why != NULL);
    CHECK(a.count == 0);
    tbk_arena_free(&a);
  }
  /* A name libxml2 reads by characters (here: non-ASCII letters) stops
   * being reproducible at its 102nd character, where libxml2 may start
   * again mid-name; up to 101 it is taken (and held to libxml2's). */
  for (int chars = 101; chars <= 102; chars++) {
    tbk_buf b = {0};
    CHECK_BUF(tbk_buf_puts(&b, "<p>&"));
    for (int k = 0; k < chars; k++) CHECK_BUF(tbk_buf_puts(&b, "\xc3\xbf")); /* U+00FF, a Letter */
    CHECK_BUF(tbk_buf_puts(&b, " x</p>"));
    tbk_arena a = {0};
    size_t e;
    const char *why = NULL;
    CHECK_INT(tbk_html_fast(b.data, b.len, &a, &e, &why), chars <= 101 ? TBK_FAST_OK : TBK_FAST_DECLINED);
    tbk_arena_free(&a);
    if (chars <= 101) both(b.data, b.len, 1, __LINE__);
    tbk_buf_free(&b);
  }
}

/* A page whose stray end tags under 5,000 open elements cost the watch
 * more stack scans than it allows: refused by both parsers. */
static void quadratic(void) {
  tbk_buf b = {0};
  for (int k = 0; k < 5000; k++) CHECK_BUF(tbk_buf_puts(&b, "<div>"));
  for (int k = 0; k < 4000; k++) CHECK_BUF(tbk_buf_puts(&b, "</x>"));
  tbk_arena a = {0};
  size_t e;
  const char *why = NULL;
  CHECK_INT(tbk_html_fast(b.data, b.len, &a, &e, &why), TBK_FAST_LIMIT);
  CHECK(a.count == 0 && !a.dict);
  both(b.data, b.len, 0, __LINE__);
  tbk_buf_free(&b);
}

/* test_fast_html FILE: both arenas of one page, node by node, on stdout
 * (for finding where they part). */
static void print_arena(const char *who, const tbk_arena *a, size_t errors) {
  printf("%s: %zu nodes, %zu errors\n", who, a->count, errors);
  for (size_t i = 0; i < a->count; i++) {
    const tbk_anode *x = &a->n[i];
    printf("  %zu type=%d parent=%d line=%u %s", i, x->type, (int)x->parent, x->line,
           x->type == TBK_AN_ELEMENT ? x->name : "");
    if (x->type == TBK_AN_TEXT || x->type == TBK_AN_CDATA)
      printf("[%.*s]", (int)x->len, tbk_arena_text(a, (uint32_t)i));
    printf("\n");
  }
}

/* One page's source as tbk_page_parse makes it: decoded to clean UTF-8. */
static int load(const char *path, tbk_buf *src) {
  tbk_buf raw = {0};
  tbk_error err = {0};
  char charset[48];
  int bad = tbk_read_file(path, (size_t)1 << 30, &raw, &err) != TBK_OK ||
            tbk_decode_page(raw.data ? raw.data : "", raw.len, NULL, src, charset, NULL, &err) != TBK_OK;
  if (bad) fprintf(stderr, "test_fast_html: error: %s: %s\n", path, err.msg);
  tbk_buf_free(&raw);
  return bad;
}

static int show(const char *path, int arenas) {
  tbk_buf src = {0};
  if (load(path, &src)) return 2;
  tbk_arena fa = {0}, la = {0};
  size_t fe = 0, le = 0;
  tbk_error err = {0};
  const char *why = NULL;
  int r = tbk_html_fast(src.data ? src.data : "", src.len, &fa, &fe, &why);
  if (r == TBK_FAST_OK) printf("%s: taken\n", path);
  else printf("%s: declined: %s\n", path, r == TBK_FAST_NOMEM ? "out of memory" : why);
  if (arenas) {
    tbk_status st = tbk_html_stream_libxml2(src.data ? src.data : "", src.len, &la, &le, &err);
    print_arena("fast", &fa, fe);
    if (st == TBK_OK) print_arena("libxml2", &la, le);
    else printf("libxml2: error %s\n", err.msg);
  }
  tbk_arena_free(&fa);
  tbk_arena_free(&la);
  tbk_buf_free(&src);
  return 0;
}

/* Each page held to libxml2's parse as the built-in pages are: the pages
 * taken that differ are reported, and the count of those declined. */
static int check_files(char **paths, int n) {
  for (int k = 0; k < n; k++) {
    tbk_buf src = {0};
    if (load(paths[k], &src)) return 2;
    int failed = check_failures;
    if (!both(src.data ? src.data : "", src.len, 0, 0)) printf("%s: declined\n", paths[k]);
    if (check_failures != failed) printf("%s: differs\n", paths[k]);
    tbk_buf_free(&src);
  }
  fprintf(stderr, "test_fast_html: %zu pages taken, %zu declined\n", taken, declined);
  return check_report();
}

/* test_fast_html [FILE | --why FILE... | --check FILE... | --soups N SEED]:
 * FILE shows one page's two arenas; --why says of each page whether the
 * fast parser takes it, and why not; --check holds each page taken to
 * libxml2's (run with 2.9.14); --soups runs N random soups from SEED (a
 * longer search than ctest's).
 * TBK_TEST_FAILED=PATH keeps the last page that differed there. */
int main(int argc, char **argv) {
  if (argc == 2) return show(argv[1], 1);
  if (argc > 2 && strcmp(argv[1], "--why") == 0) {
    int rc = 0;
    for (int k = 2; k < argc; k++) rc |= show(argv[k], 0);
    return rc;
  }
  if (argc > 2 && strcmp(argv[1], "--check") == 0 && tbk_html_fast_oracle()) return check_files(argv + 2, argc - 2);
  long count = 4000;
  uint64_t seed = 0x9E3779B97F4A7C15ULL;
  if (argc == 4 && strcmp(argv[1], "--soups") == 0) {
    count = strtol(argv[2], NULL, 10);
    seed = strtoull(argv[3], NULL, 10);
  }
  if (!tbk_html_fast_oracle()) {
    fprintf(stderr, "test_fast_html: skipped: no libxml2 2.9.14 loaded to compare with\n");
    return 77;
  }
  rules();
  long_text();
  pairs();
  soups(count, seed);
  declines();
  quadratic();
  fprintf(stderr, "test_fast_html: %zu pages taken, %zu declined\n", taken, declined);
  return check_report();
}
