/* Page parsing and segmentation: which elements become candidate blocks
 * (Kołcz & Yih's tag set, the 40-character / 3-word thresholds), what text
 * is visible, wrapper folding, parent links, locators, fingerprints,
 * charsets, refusals and resource limits. Every page is written here. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "check.h"
#include "tbk_internal.h"
#include "fast_html.h"

#define T1 "alpha bravo charlie delta echo foxtrot golf hotel"
#define T2 "one two three four five six seven eight nine ten"
#define T3 "red orange yellow green blue indigo violet white"
#define T4 "north south east west up down left right center"

static tbk_page_options opts(tbk_blockset set) {
  tbk_page_options o;
  tbk_page_options_init(&o);
  o.blocks = set;
  return o;
}

static tbk_page *parse_n(const char *html, size_t len, const tbk_page_options *o, tbk_status *st, tbk_error *err) {
  tbk_page *p = NULL;
  tbk_error local = {0};
  *st = tbk_page_parse(html, len, o, &p, err ? err : &local);
  if (*st != TBK_OK && p) {
    fprintf(stderr, "page returned together with an error\n");
    check_failures++;
  }
  return p;
}

/* Parse a NUL-terminated page that must parse fine. */
static tbk_page *parse_ok(const char *html, const tbk_page_options *o, int line) {
  tbk_status st;
  tbk_error err = {0};
  tbk_page *p = parse_n(html, strlen(html), o, &st, &err);
  check_count++;
  if (st != TBK_OK || !p) {
    check_failures++;
    fprintf(stderr, "%s:%d: parse failed: %s: %s\n", __FILE__, line, tbk_status_str(st), err.msg);
  }
  return p;
}
#define PARSE(html, o) parse_ok(html, o, __LINE__)

static int text_is(const tbk_block *b, const char *s) {
  return b && b->text_len == strlen(s) && memcmp(b->text, s, b->text_len) == 0;
}

static const tbk_block *by_text(const tbk_page *p, const char *s) {
  for (size_t i = 0; p && i < tbk_page_block_count(p); i++)
    if (text_is(tbk_page_block(p, i), s)) return tbk_page_block(p, i);
  return NULL;
}

static long index_of(const tbk_page *p, const tbk_block *b) { return b ? (long)(b - tbk_page_block(p, 0)) : -2; }

static void dump(const tbk_page *p) {
  for (size_t i = 0; p && i < tbk_page_block_count(p); i++) {
    const tbk_block *b = tbk_page_block(p, i);
    fprintf(stderr, "  block %zu <%s> %s parent %d: \"%.*s\"\n", i, b->tag, b->path, b->parent, (int)b->text_len,
            b->text);
  }
}

/* ------------------------------------------------------------ tag sets */

/* A page where element TAG holds T1 and its enclosing candidate (if any)
 * holds more text, so TAG cannot be folded into it. */
static void page_for_tag(const char *tag, char *out, size_t n) {
  if (!strcmp(tag, "td") || !strcmp(tag, "th"))
    snprintf(out, n, "<table><tr><%s>" T1 "</%s><td>" T2 "</td></tr></table>", tag, tag);
  else if (!strcmp(tag, "tr")) snprintf(out, n, "<table><tr><td>" T1 "</td></tr><tr><td>" T2 "</td></tr></table>");
  else if (!strcmp(tag, "li")) snprintf(out, n, "<ul><li>" T1 "</li><li>" T2 "</li></ul>");
  else if (!strcmp(tag, "dt") || !strcmp(tag, "dd"))
    snprintf(out, n, "<dl><%s>" T1 "</%s><%s>" T2 "</%s></dl>", tag, tag, !strcmp(tag, "dt") ? "dd" : "dt",
             !strcmp(tag, "dt") ? "dd" : "dt");
  else snprintf(out, n, "<%s>" T1 "</%s>", tag, tag);
}

static void test_tag_sets(void) {
  static const char *paper[] = {"blockquote", "dd", "div", "dl",  "dt",    "h1",    "h2", "h3", "h4", "h5",
                                "h6",         "li", "ol",  "pre", "small", "table", "td", "th", "tr", "ul"};
  static const char *html5_only[] = {"p",    "section", "nav",    "article", "aside",    "footer", "header",
                                     "main", "form",    "figure", "details", "fieldset", "address"};
  static const char *never[] = {"span", "b", "a", "font", "center", "caption", "tbody", "x-custom"};
  char body[1024], html[2048];
  for (size_t i = 0; i < sizeof paper / sizeof *paper; i++) {
    page_for_tag(paper[i], body, sizeof body);
    snprintf(html, sizeof html, "<html><body>%s</body></html>", body);
    for (int set = 0; set < 2; set++) {
      tbk_page_options o = opts(set ? TBK_BLOCKS_HTML5 : TBK_BLOCKS_PAPER);
      tbk_page *p = PARSE(html, &o);
      const tbk_block *b = by_text(p, T1);
      check_count++;
      if (!b || strcmp(b->tag, paper[i]) != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: <%s> (set %d) should be a candidate holding T1\n", __FILE__, __LINE__, paper[i], set);
        dump(p);
      }
      tbk_page_free(p);
    }
  }
  for (size_t i = 0; i < sizeof html5_only / sizeof *html5_only; i++) {
    snprintf(html, sizeof html, "<html><body><%s>" T1 "</%s></body></html>", html5_only[i], html5_only[i]);
    tbk_page_options o = opts(TBK_BLOCKS_PAPER);
    tbk_page *p = PARSE(html, &o);
    check_count++;
    if (tbk_page_block_count(p) != 0) {
      check_failures++;
      fprintf(stderr, "%s:%d: <%s> must not be a paper candidate\n", __FILE__, __LINE__, html5_only[i]);
      dump(p);
    }
    tbk_page_free(p);
    o = opts(TBK_BLOCKS_HTML5);
    p = PARSE(html, &o);
    const tbk_block *b = by_text(p, T1);
    check_count++;
    if (tbk_page_block_count(p) != 1 || !b || strcmp(b->tag, html5_only[i]) != 0) {
      check_failures++;
      fprintf(stderr, "%s:%d: <%s> must be an html5 candidate\n", __FILE__, __LINE__, html5_only[i]);
      dump(p);
    }
    tbk_page_free(p);
  }
  for (size_t i = 0; i < sizeof never / sizeof *never; i++) {
    snprintf(html, sizeof html, "<html><body><%s>" T1 "</%s></body></html>", never[i], never[i]);
    tbk_page_options o = opts(TBK_BLOCKS_HTML5);
    tbk_page *p = PARSE(html, &o);
    check_count++;
    if (tbk_page_block_count(p) != 0) {
      check_failures++;
      fprintf(stderr, "%s:%d: <%s> must never be a candidate\n", __FILE__, __LINE__, never[i]);
      dump(p);
    }
    tbk_page_free(p);
  }
  /* Upper-case markup is the same element. */
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  tbk_page *p = PARSE("<HTML><BODY><DIV>" T1 "</DIV></BODY></HTML>", &o);
  CHECK_INT(tbk_page_block_count(p), 1);
  if (tbk_page_block_count(p)) CHECK_STR(tbk_page_block(p, 0)->tag, "div");
  tbk_page_free(p);
}

/* --------------------------------------------------------- thresholds */

static size_t count_for(const char *inner, size_t min_chars, size_t min_words) {
  char html[1024];
  snprintf(html, sizeof html, "<html><body><div>%s</div></body></html>", inner);
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  o.min_chars = min_chars;
  o.min_words = min_words;
  tbk_page *p = PARSE(html, &o);
  size_t n = tbk_page_block_count(p);
  tbk_page_free(p);
  return n;
}

static void test_thresholds(void) {
  /* 39 code points but 69 bytes: characters are what count. */
  const char *c39 = "ééé ààà ööö üüü ççç ééé ààà ööö üüü ççç";
  const char *c40 = "ééé ààà ööö üüü ççç ééé ààà ööö üüü çççç";
  CHECK_INT(tbk_utf8_length(c39, strlen(c39)), 39);
  CHECK(strlen(c39) > 40);
  CHECK_INT(count_for(c39, 40, 3), 0);
  CHECK_INT(count_for(c40, 40, 3), 1);
  /* ASCII 39 vs 40, and surrounding whitespace does not count. */
  CHECK_INT(count_for("abc def ghi jkl mno pqr stu vwx yza bcd", 40, 3), 0);
  CHECK_INT(count_for("abc def ghi jkl mno pqr stu vwx yza bcde", 40, 3), 1);
  CHECK_INT(count_for("   \n abc def ghi jkl mno pqr stu vwx yza bcd \t\n  ", 40, 3), 0);
  /* Inner whitespace runs collapse to one before counting. */
  CHECK_INT(count_for("abc   def ghi jkl mno pqr stu vwx yza bcd", 40, 3), 0);
  /* Han and Kana weigh 3.7 (measure.h): 11 of them are 40 characters, 10
   * are 37; words are their bigrams. */
  CHECK_INT(count_for("日本語の新聞を読みます", 40, 3), 1);
  CHECK_INT(count_for("日本語の新聞を読みま", 40, 3), 0);
  CHECK_INT(count_for("日本日本日本日本日本日本", 40, 3), 0); /* two distinct bigrams */
  CHECK_INT(count_for("日本日本日本日本日本日本", 40, 2), 1);
  /* The menus: a Chinese one (37 code points) is a block like its
   * English twin; a blog's six-item menu (17 code points, 41 characters)
   * too. */
  CHECK_INT(count_for("首页 国内 国际 财经 体育 娱乐 科技 汽车 房产 教育 旅游 关于我们", 40, 3), 1);
  CHECK_INT(count_for("首页 归档 分类 标签 关于 友链", 40, 3), 1);
  CHECK_INT(count_for("Home Archives Categories Tags About Links", 40, 3), 1);
  /* Thai is measured in code points, its words are syllable runs. */
  CHECK_INT(count_for("หน้าแรก ข่าว กีฬา บันเทิง เทคโนโลยี ติดต่อเรา", 40, 3), 1);
  CHECK_INT(count_for("ไทยไทยไทยไทย ไทยไทยไทยไทย ไทยไทยไทยไทย ไทยไทย", 40, 3), 0);
  /* Hangul counts one per code point as before: 39 vs 40. */
  CHECK_INT(count_for("한국 뉴스 정치 경제 사회 문화 세계 스포츠 연예 날씨 오피니언 포토뉴", 40, 3), 0);
  CHECK_INT(count_for("한국 뉴스 정치 경제 사회 문화 세계 스포츠 연예 날씨 오피니언 포토뉴스", 40, 3), 1);
  /* Enough characters, too few distinct words. */
  CHECK_INT(count_for("aaa aaa aaa aaa aaa aaa aaa aaa aaa aaa", 40, 3), 0);
  CHECK_INT(count_for("aaa bbb aaa bbb aaa bbb aaa bbb aaa bbb aaa", 40, 3), 0);
  CHECK_INT(count_for("aaa bbb ccc aaa bbb ccc aaa bbb ccc aaa bbb", 40, 3), 1);
  CHECK_INT(count_for("Word WORD word Word WORD word Word WORD word", 40, 3), 0); /* folded */
  CHECK_INT(count_for("---- ---- ---- ---- ---- ---- ---- ---- ----", 40, 3), 0);
  CHECK_INT(count_for("---- ---- ---- ---- ---- ---- ---- ---- ----", 40, 0), 1);
  /* Custom thresholds. */
  CHECK_INT(count_for("short but three", 15, 3), 1);
  CHECK_INT(count_for("short but three", 16, 3), 0);
  CHECK_INT(count_for("short but three", 10, 4), 0);
  /* Too little text: the node and everything inside it is ignored. */
  CHECK_INT(count_for("tiny <div>tinier <ul><li>tiniest</li></ul></div>", 40, 3), 0);
  /* A parent that qualifies does not make its small children qualify. */
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  tbk_page *p = PARSE("<div>" T1 " <div>small child text</div></div>", &o);
  CHECK_INT(tbk_page_block_count(p), 1);
  CHECK(text_is(tbk_page_block(p, 0), T1 " small child text"));
  tbk_page_free(p);
  /* text_chars is in Latin-equivalent characters: code points here. */
  p = PARSE("<div>ééé ààà ööö üüü ççç ééé ààà ööö üüü çççç</div>", &o);
  CHECK_INT(tbk_page_block_count(p), 1);
  if (tbk_page_block_count(p)) {
    CHECK_INT(tbk_page_block(p, 0)->text_chars, 40);
    CHECK_INT(tbk_page_block(p, 0)->text_len, 71);
  }
  tbk_page_free(p);
}

/* ------------------------------------------------------------ visibility */

static void test_visible_text(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  const char *html = "<html><head><title>titleword</title><style>.styleword{}</style>"
                     "<script>var headscript=1;</script></head><body>"
                     "<div>" T1 "<script>var scriptword = '<div>fake</div>';</script>"
                     "<style>.styleword2 { color: red }</style>"
                     "<noscript>noscriptword</noscript>"
                     "<template><p>templateword</p></template>"
                     "<!-- commentword -->"
                     "<span hidden>hiddenword</span>"
                     "<span style=\"color:red; display : none\">displayword</span>"
                     "<span style=\"VISIBILITY:Hidden\">visibilityword</span>"
                     "<div hidden>" T2 "</div>"
                     "<iframe>iframeword</iframe><svg><text>svgword</text></svg>"
                     " <span style=\"display:block\">shown</span>"
                     "</div></body></html>";
  tbk_page *p = PARSE(html, &o);
  size_t len;
  const char *text = p ? tbk_page_text(p, &len) : "";
  static const char *hidden_words[] = {"titleword",      "styleword",    "headscript",  "scriptword", "fake",
                                       "noscriptword",   "templateword", "commentword", "hiddenword", "displayword",
                                       "visibilityword", "one two",      "iframeword",  "svgword"};
  for (size_t i = 0; i < sizeof hidden_words / sizeof *hidden_words; i++) {
    check_count++;
    if (strstr(text, hidden_words[i])) {
      check_failures++;
      fprintf(stderr, "%s:%d: invisible text \"%s\" leaked into \"%s\"\n", __FILE__, __LINE__, hidden_words[i], text);
    }
  }
  CHECK_STR(text, T1 " shown");
  CHECK_INT(tbk_page_block_count(p), 1);
  CHECK(by_text(p, T1 " shown") != NULL);
  tbk_page_free(p);

  /* Entities and character references are decoded. */
  p = PARSE("<div>Fish &amp; chips &eacute;t&eacute; &#x4E2D;&#20013; &lt;tag&gt; a&nbsp;&nbsp;b "
            "&quot;quoted&quot; &hellip;</div>",
            &o);
  CHECK(by_text(p, "Fish & chips été 中中 <tag> a b \"quoted\" …") != NULL);
  if (!by_text(p, "Fish & chips été 中中 <tag> a b \"quoted\" …")) dump(p);
  tbk_page_free(p);

  /* Inline elements join without a space, block-level ones separate. */
  p = PARSE("<div>con<b>cat</b>enated <i>in</i>line words<br>after break<p>para</p>graph end</div>", &o);
  CHECK(by_text(p, "concatenated inline words after break para graph end") != NULL);
  if (!by_text(p, "concatenated inline words after break para graph end")) dump(p);
  tbk_page_free(p);
}

/* ------------------------------------------------------- folding, parents */

static void test_structure(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  /* div > div > ul > li all with the same text: one block, the outermost. */
  tbk_page *p = PARSE("<html><body><div id=a>\n <div id=b> <ul><li>" T1 "</li></ul> </div> </div></body></html>", &o);
  CHECK_INT(tbk_page_block_count(p), 1);
  if (tbk_page_block_count(p) == 1) {
    const tbk_block *b = tbk_page_block(p, 0);
    CHECK_STR(b->tag, "div");
    CHECK_STR(b->path, "/html[1]/body[1]/div[1]");
    CHECK_INT(b->parent, -1);
    CHECK_INT(b->depth, 3);
  }
  tbk_page_free(p);

  /* Nested blocks and their parent links. */
  p = PARSE("<html><body><div id=outer>" T1 "<div id=inner><div id=wrap><ul><li>" T2 "</li><li>" T3
            "</li></ul></div></div>"
            "<table><tr><td>" T4 "</td></tr></table></div></body></html>",
            &o);
  const tbk_block *outer = by_text(p, T1 " " T2 " " T3 " " T4);
  const tbk_block *inner = by_text(p, T2 " " T3);
  const tbk_block *li2 = by_text(p, T2), *li3 = by_text(p, T3), *tab = by_text(p, T4);
  CHECK(outer && inner && li2 && li3 && tab);
  CHECK_INT(tbk_page_block_count(p), 5);
  if (outer && inner && li2 && li3 && tab) {
    CHECK_INT(index_of(p, outer), 0); /* document order */
    CHECK_INT(outer->parent, -1);
    CHECK_INT(inner->parent, 0);
    CHECK_STR(inner->tag, "div"); /* the outermost of div#inner, div#wrap, ul */
    CHECK_STR(inner->path, "/html[1]/body[1]/div[1]/div[1]");
    CHECK_INT(li2->parent, index_of(p, inner));
    CHECK_INT(li3->parent, index_of(p, inner));
    CHECK_STR(li3->path, "/html[1]/body[1]/div[1]/div[1]/div[1]/ul[1]/li[2]");
    CHECK_STR(tab->tag, "table");
    CHECK_INT(tab->parent, 0);
    for (size_t i = 1; i < tbk_page_block_count(p); i++)
      CHECK(tbk_page_block(p, i)->parent < (int32_t)i); /* parents come first */
  } else {
    dump(p);
  }
  tbk_page_free(p);

  /* Locators count every same-tag element sibling, hidden and dropped
   * ones included; other tags and comments do not shift the index. */
  p = PARSE("<html><body>\n<div>x</div>\n<!-- c --><div hidden>" T2 "</div><script>1</script>"
            "<p>para</p><div style='display:none'>y</div><span>s</span>\n<div>" T1 "</div>"
            "<x-card>a</x-card><x-card>b</x-card><x-card><ul><li>" T3 "</li></ul></x-card></body></html>",
            &o);
  const tbk_block *b1 = by_text(p, T1), *b3 = by_text(p, T3);
  CHECK(b1 && b3);
  if (b1) {
    CHECK_STR(b1->path, "/html[1]/body[1]/div[4]");
    CHECK_INT(b1->line, 4);
  }
  if (b3) CHECK_STR(b3->path, "/html[1]/body[1]/x-card[3]/ul[1]");
  CHECK_INT(tbk_page_block_count(p), 2);
  tbk_page_free(p);
  /* Unknown tags count per parent and per name. */
  p = PARSE("<body><x-a>a</x-a><x-b>b</x-b><x-a><x-a>c</x-a><x-b>d</x-b><x-a><ol><li>" T4
            "</li></ol></x-a></x-a></body>",
            &o);
  b1 = by_text(p, T4);
  CHECK(b1 != NULL);
  if (b1) CHECK_STR(b1->path, "/html[1]/body[1]/x-a[2]/x-a[2]/ol[1]");
  tbk_page_free(p);

  /* Same text in different markup and spacing: same fingerprint, and it is
   * the MD5 of the normalized text. */
  tbk_page *a = PARSE("<div>Hello <b>brave</b>   new\n world, once more with feeling</div>", &o);
  tbk_page *c = PARSE("<table><tr><td>\n  Hello brave new <a href=x>world,</a> once   more\twith "
                      "<em>feeling</em>\n</td></tr></table>",
                      &o);
  CHECK_INT(tbk_page_block_count(a), 1);
  CHECK_INT(tbk_page_block_count(c), 1);
  if (tbk_page_block_count(a) == 1 && tbk_page_block_count(c) == 1) {
    const tbk_block *ba = tbk_page_block(a, 0), *bc = tbk_page_block(c, 0);
    CHECK(memcmp(ba->md5, bc->md5, 16) == 0);
    unsigned char want[16];
    const char *norm = "Hello brave new world, once more with feeling";
    tbk_md5(norm, strlen(norm), want);
    CHECK(memcmp(ba->md5, want, 16) == 0);
    CHECK(text_is(bc, norm));
    CHECK_STR(bc->tag, "table");
  }
  tbk_page_free(a);
  tbk_page_free(c);
  /* Without fingerprints (prediction) the same block, md5 left zero. */
  tbk_page_options nofp = o;
  nofp.fingerprints = 0;
  a = PARSE("<div>Hello <b>brave</b>   new\n world, once more with feeling</div>", &nofp);
  CHECK_INT(tbk_page_block_count(a), 1);
  if (tbk_page_block_count(a) == 1) {
    static const unsigned char zero[16];
    CHECK(memcmp(tbk_page_block(a, 0)->md5, zero, 16) == 0);
    CHECK(text_is(tbk_page_block(a, 0), "Hello brave new world, once more with feeling"));
  }
  tbk_page_free(a);
}

/* -------------------------------------------------------------- charsets */

/* UTF-8 (BMP only) to UTF-16, with or without a BOM. */
static size_t to_utf16(const char *s, int big_endian, int bom, char *out) {
  const unsigned char *u = (const unsigned char *)s;
  size_t k = 0;
  if (bom) {
    out[k++] = big_endian ? (char)0xFE : (char)0xFF;
    out[k++] = big_endian ? (char)0xFF : (char)0xFE;
  }
  while (*u) {
    unsigned cp;
    if (*u < 0x80) cp = *u++;
    else if (*u < 0xE0) {
      cp = ((u[0] & 0x1Fu) << 6) | (u[1] & 0x3Fu);
      u += 2;
    } else {
      cp = ((u[0] & 0x0Fu) << 12) | ((u[1] & 0x3Fu) << 6) | (u[2] & 0x3Fu);
      u += 3;
    }
    out[k++] = (char)(big_endian ? cp >> 8 : cp & 0xFF);
    out[k++] = (char)(big_endian ? cp & 0xFF : cp >> 8);
  }
  return k;
}

static void expect_decoded(const char *raw, size_t len, const char *hint, const char *want_text,
                           const char *want_charset, int line) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  o.charset_hint = hint;
  tbk_status st;
  tbk_error err = {0};
  tbk_page *p = parse_n(raw, len, &o, &st, &err);
  check_count++;
  if (st != TBK_OK) {
    check_failures++;
    fprintf(stderr, "%s:%d: parse failed: %s\n", __FILE__, line, err.msg);
    return;
  }
  size_t n;
  const char *text = tbk_page_text(p, &n);
  if (strcmp(text, want_text) != 0 || strcasecmp(tbk_page_charset(p), want_charset) != 0) {
    check_failures++;
    fprintf(stderr, "%s:%d: decoded \"%s\" as %s, expected \"%s\" as %s\n", __FILE__, line, text, tbk_page_charset(p),
            want_text, want_charset);
  }
  tbk_page_free(p);
}
#define DECODED(raw, len, hint, text, cs) expect_decoded(raw, len, hint, text, cs, __LINE__)
#define DECODED_S(raw, hint, text, cs) expect_decoded(raw, sizeof(raw) - 1, hint, text, cs, __LINE__)

static void test_charsets(void) {
  DECODED_S("<html><head><meta charset=windows-1252></head><body><div>caf\xE9 \x80 5</div></body></html>", NULL,
            "café € 5", "windows-1252");
  DECODED_S("<html><head><meta charset=\"ISO-8859-1\"></head><body><div>na\xEFve \x93q\x94</div></body></html>", NULL,
            "naïve “q”", "windows-1252"); /* latin1 labels mean windows-1252 */
  /* Undeclared, not valid UTF-8: windows-1252 fallback. */
  DECODED_S("<html><body><div>Gr\xFC\xDF"
            "e aus K\xF6ln</div></body></html>",
            NULL, "Grüße aus Köln", "windows-1252");
  /* Undeclared valid UTF-8 stays UTF-8. */
  DECODED_S("<html><body><div>Grüße aus Köln</div></body></html>", NULL, "Grüße aus Köln", "UTF-8");
  /* UTF-8 BOM: stripped, beats a wrong meta. */
  DECODED_S("\xEF\xBB\xBF<html><head><meta charset=windows-1252></head><body><div>Café 日本</div></body></html>", NULL,
            "Café 日本", "UTF-8");
  /* UTF-16 with BOM (LE and BE), and without BOM. */
  const char *doc16 = "<html><head><meta charset=utf-16></head><body><div>Café 中文 text here</div></body></html>";
  char buf[1024];
  size_t n = to_utf16(doc16, 0, 1, buf);
  DECODED(buf, n, NULL, "Café 中文 text here", "UTF-16LE");
  n = to_utf16(doc16, 1, 1, buf);
  DECODED(buf, n, NULL, "Café 中文 text here", "UTF-16BE");
  n = to_utf16("<html><body><div>no byte order mark here, Café</div></body></html>", 0, 0, buf);
  DECODED(buf, n, NULL, "no byte order mark here, Café", "UTF-16LE");
  n = to_utf16("<html><body><div>no byte order mark here, Café</div></body></html>", 1, 0, buf);
  DECODED(buf, n, NULL, "no byte order mark here, Café", "UTF-16BE");
  /* Shift_JIS declared through http-equiv. */
  DECODED_S("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\">"
            "</head><body><div>\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67</div></body></html>",
            NULL, "日本語のテキスト", "CP932");
  /* The HTTP charset (hint) beats <meta>. */
  DECODED_S("<html><head><meta charset=windows-1252></head><body><div>Café</div></body></html>", "utf-8", "Café",
            "UTF-8");
  DECODED_S("<html><head><meta charset=windows-1252></head><body><div>Café</div></body></html>", NULL, "CafÃ©",
            "windows-1252");
  DECODED_S("<html><head><meta charset=utf-8></head><body><div>caf\xE9</div></body></html>", "ISO-8859-1", "café",
            "windows-1252");
  /* An unknown declared charset falls back to sniffing. */
  DECODED_S("<html><head><meta charset=x-no-such-charset></head><body><div>Café</div></body></html>", NULL, "Café",
            "UTF-8");
  /* Invalid UTF-8 under a UTF-8 declaration is repaired, not refused. */
  DECODED_S("<html><head><meta charset=utf-8></head><body><div>bad\xFF"
            "byte</div></body></html>",
            NULL,
            "bad\xEF\xBF\xBD"
            "byte",
            "UTF-8");
  /* NUL and other C0 controls inside text are dropped. */
  DECODED_S("<html><body><div>al\0pha be\x01ta</div></body></html>", NULL, "alpha beta", "UTF-8");
}

/* --------------------------------------------------------------- refusals */

static void expect_status(const char *raw, size_t len, const tbk_page_options *o, tbk_status want, const char *msg_part,
                          int line) {
  tbk_status st;
  tbk_error err = {0};
  tbk_page *p = parse_n(raw, len, o, &st, &err);
  check_count++;
  if (st != want || (st != TBK_OK && (p || err.code != st)) || (msg_part && !strstr(err.msg, msg_part)) ||
      strchr(err.msg, '\n')) {
    check_failures++;
    fprintf(stderr, "%s:%d: status %s (%s), expected %s with \"%s\"\n", __FILE__, line, tbk_status_str(st), err.msg,
            tbk_status_str(want), msg_part ? msg_part : "");
  }
  tbk_page_free(p);
}
#define STATUS(raw, len, o, want, part) expect_status(raw, len, o, want, part, __LINE__)
#define STATUS_S(raw, o, want, part) expect_status(raw, sizeof(raw) - 1, o, want, part, __LINE__)

static void test_refusals(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  STATUS_S("\x89PNG\r\n\x1a\n\0\0\0\rIHDR<html><body>", &o, TBK_ERR_BINARY, "PNG");
  STATUS_S("\x7f"
           "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0<div>text</div>",
           &o, TBK_ERR_BINARY, "ELF");
  STATUS_S("\x1f\x8b\x08\0\0\0\0\0\0\x03<html>", &o, TBK_ERR_BINARY, "gzip");
  STATUS_S("%PDF-1.7\n", &o, TBK_ERR_BINARY, "PDF");
  char noise[256];
  for (int i = 0; i < 256; i++) noise[i] = (char)(i % 7 == 0 ? 'a' : i % 32);
  STATUS(noise, sizeof noise, &o, TBK_ERR_BINARY, "control bytes");
  STATUS("", 0, &o, TBK_ERR_EMPTY, "empty");
  STATUS_S(" \t\r\n\f  \n", &o, TBK_ERR_EMPTY, "whitespace");
  STATUS_S("\xEF\xBB\xBF   \n", &o, TBK_ERR_EMPTY, "whitespace");
  /* Markup without text is a page with no blocks, not an error. */
  tbk_page *p = PARSE("<html><body><div></div></body></html>", &o);
  CHECK_INT(tbk_page_block_count(p), 0);
  CHECK_INT(tbk_page_block_count(NULL), 0);
  CHECK(tbk_page_block(p, 0) == NULL);
  tbk_page_free(p);
  tbk_page_free(NULL);
  /* Plain text (no markup at all) is still a page. */
  p = PARSE("just some words without markup at all, long enough to count", &o);
  CHECK(p != NULL);
  if (p) {
    size_t n;
    CHECK_STR(tbk_page_text(p, &n), "just some words without markup at all, long enough to count");
  }
  tbk_page_free(p);
  /* NULL options mean the defaults. */
  tbk_status st;
  p = parse_n("<div>" T1 "</div>", strlen("<div>" T1 "</div>"), NULL, &st, NULL);
  CHECK_INT(st, TBK_OK);
  CHECK_INT(tbk_page_block_count(p), 1);
  tbk_page_free(p);
}

static void test_limits(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  const char *page = "<html><body><ul><li>" T1 "</li><li>" T2 "</li><li>" T3 "</li></ul></body></html>";
  size_t len = strlen(page);
  o.max_page_bytes = len - 1;
  STATUS(page, len, &o, TBK_ERR_LIMIT, "max-page-bytes");
  o.max_page_bytes = len;
  STATUS(page, len, &o, TBK_OK, NULL);
  o = opts(TBK_BLOCKS_PAPER);
  o.max_blocks = 3; /* ul + 3 li = 4 */
  STATUS(page, len, &o, TBK_ERR_LIMIT, "max-blocks");
  o.max_blocks = 4;
  STATUS(page, len, &o, TBK_OK, NULL);
  o = opts(TBK_BLOCKS_PAPER);
  o.max_nodes = 4; /* html body ul li li li */
  STATUS(page, len, &o, TBK_ERR_LIMIT, "max-nodes");
  o = opts(TBK_BLOCKS_PAPER);
  const char *deep = "<html><body><div><div><div><div><div>" T1 "</div></div></div></div></div></body></html>";
  o.max_depth = 6; /* html=1 body=2 div..div=3..7 */
  STATUS(deep, strlen(deep), &o, TBK_ERR_LIMIT, "max-depth");
  o.max_depth = 7;
  STATUS(deep, strlen(deep), &o, TBK_OK, NULL);
}

/* One element with n attributes, after `lines` newlines; extra goes
 * inside the tag before them. Caller frees. */
static char *many_attrs(size_t n, int lines, const char *extra) {
  tbk_buf b = {0};
  CHECK_BUF(tbk_buf_puts(&b, "<html><body>"));
  for (int i = 0; i < lines; i++) CHECK_BUF(tbk_buf_puts(&b, "\n"));
  CHECK_BUF(tbk_buf_puts(&b, "<div "));
  CHECK_BUF(tbk_buf_puts(&b, extra));
  for (size_t i = 0; i < n; i++)
    CHECK_BUF(tbk_buf_printf(&b, i % 3 ? " a%zu=\"v\"" : (i % 2 ? " b%zu" : " c%zu='w'"), i));
  CHECK_BUF(tbk_buf_puts(&b, ">" T1 "</div></body></html>"));
  return b.data;
}

/* libxml2 compares every attribute of a tag with every one before it: the
 * guard refuses a tag over max_attrs before the parse, wherever the tag is
 * and however its attributes are written, and counts nothing inside
 * quoted values. */
static void test_attr_guard(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  CHECK_INT(o.max_attrs, 1000);
  char *ok = many_attrs(1000, 0, ""), *over = many_attrs(1001, 4, "");
  STATUS(ok, strlen(ok), &o, TBK_OK, NULL);
  STATUS(over, strlen(over), &o, TBK_ERR_LIMIT, "max-attrs (1000) attributes at line 5");
  /* a '>' or white space inside a quoted value neither ends the tag nor
   * starts an attribute */
  char *hidden = many_attrs(1001, 0, "title=\"a > b\" ");
  STATUS(hidden, strlen(hidden), &o, TBK_ERR_LIMIT, "max-attrs");
  char *words = many_attrs(10, 0, "title='one two three four five six seven eight nine ten' alt=\"x y z\" ");
  o.max_attrs = 12; /* title, alt and 10 */
  STATUS(words, strlen(words), &o, TBK_OK, NULL);
  o.max_attrs = 11;
  STATUS(words, strlen(words), &o, TBK_ERR_LIMIT, "max-attrs (11)");
  o.max_attrs = 0; /* no limit */
  STATUS(over, strlen(over), &o, TBK_OK, NULL);
  free(ok);
  free(over);
  free(hidden);
  free(words);
}

static double seconds_since(struct timespec t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

/* Hostile shapes: no crash, a clean answer, in reasonable time. */
static void test_hostile(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  tbk_buf b = {0};
  struct timespec t0;

  CHECK_BUF(tbk_buf_puts(&b, "<html><body>"));
  for (int i = 0; i < 100000; i++) CHECK_BUF(tbk_buf_puts(&b, "<div>"));
  CHECK_BUF(tbk_buf_puts(&b, T1));
  for (int i = 0; i < 100000; i++) CHECK_BUF(tbk_buf_puts(&b, "</div>"));
  CHECK_BUF(tbk_buf_puts(&b, "</body></html>"));
  clock_gettime(CLOCK_MONOTONIC, &t0);
  tbk_status st;
  tbk_error err = {0};
  tbk_page *p = parse_n(b.data, b.len, &o, &st, &err);
  double secs = seconds_since(t0);
  CHECK(st == TBK_OK || (st == TBK_ERR_LIMIT && strstr(err.msg, "max-depth")));
  CHECK(secs < 20);
  fprintf(stderr, "100000 nested divs: %s (%s) in %.2fs, %zu blocks\n", tbk_status_str(st), err.msg, secs,
          tbk_page_block_count(p));
  tbk_page_free(p);
  /* Raising max-depth must not turn depth into recursion. */
  o.max_depth = 1000000;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  p = parse_n(b.data, b.len, &o, &st, &err);
  secs = seconds_since(t0);
  CHECK(st == TBK_OK || st == TBK_ERR_LIMIT);
  CHECK(secs < 20);
  fprintf(stderr, "100000 nested divs, max-depth 1000000: %s in %.2fs\n", tbk_status_str(st), secs);
  tbk_page_free(p);
  o = opts(TBK_BLOCKS_PAPER);

  /* A million siblings, known and unknown tags. */
  static const char *shapes[] = {"<li>item %d</li>", "<x-item>w%d </x-item>"};
  for (int s = 0; s < 2; s++) {
    b.len = 0;
    CHECK_BUF(tbk_buf_puts(&b, "<html><body><ul>"));
    for (int i = 0; i < 1000000; i++) CHECK_BUF(tbk_buf_printf(&b, shapes[s], i));
    CHECK_BUF(tbk_buf_puts(&b, "</ul></body></html>"));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    p = parse_n(b.data, b.len, &o, &st, &err);
    secs = seconds_since(t0);
    CHECK(st == TBK_OK || st == TBK_ERR_LIMIT);
    CHECK(secs < 60); /* libxml2 alone needs seconds here; quadratic walks needed minutes */
    fprintf(stderr, "1000000 siblings (%s): %s in %.2fs, %zu blocks\n", shapes[s], tbk_status_str(st), secs,
            tbk_page_block_count(p));
    if (st == TBK_OK) CHECK_INT(tbk_page_block_count(p), 1); /* only the ul */
    tbk_page_free(p);
  }
  tbk_buf_free(&b);
}

/* ------------------------------------------------------ broken markup */

/* A body with enough text (about 800 characters) that losing it makes a
 * page suspect, in two blocks. */
#define BROKEN_BODY                                                                           \
  "<div class=main><h1>Distinctive headline of the broken page</h1>"                          \
  "<p>" T1 " " T2 " " T3 "</p><p>" T2 " " T3 " " T4 "</p><p>" T3 " " T4 " " T1 "</p>"         \
  "<p>" T4 " " T1 " " T2 "</p><p>" T1 " " T3 " " T4 "</p><p>" T2 " " T4 " " T1 "</p></div>\n" \
  "<div class=foot>The distinctive closing sentence of the article stays visible.</div>"

static const char *text_of(const tbk_page *p) { return p ? tbk_page_text(p, NULL) : ""; }

/* BROKEN (a shape after which libxml2 2.9 shows no text) is recovered to
 * exactly the text and blocks of CLEAN, the page as it was meant. */
static void expect_recovered(const char *name, const char *broken, const char *clean, int line) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  tbk_page *b = parse_ok(broken, &o, line), *c = parse_ok(clean, &o, line);
  check_count += 4;
  const char *bt = text_of(b);
  if (!strstr(bt, "Distinctive headline") || !strstr(bt, "distinctive closing sentence")) {
    check_failures++;
    fprintf(stderr, "%s:%d: %s: body text lost: \"%s\"\n", __FILE__, line, name, bt);
  }
  if (strcmp(bt, text_of(c)) != 0 || tbk_page_block_count(b) != tbk_page_block_count(c)) {
    check_failures++;
    fprintf(stderr, "%s:%d: %s: recovered page differs from the clean one:\n  \"%s\"\n  \"%s\"\n", __FILE__, line, name,
            bt, text_of(c));
    dump(b);
  }
  if (!b || tbk_page_block_count(b) < 2) {
    check_failures++;
    fprintf(stderr, "%s:%d: %s: blocks not found\n", __FILE__, line, name);
  }
  if (!b || tbk_page_recovered(b) < 1 || (c && tbk_page_recovered(c) != 0)) {
    check_failures++;
    fprintf(stderr, "%s:%d: %s: recovered %d, clean page %d\n", __FILE__, line, name, b ? tbk_page_recovered(b) : -1,
            c ? tbk_page_recovered(c) : -1);
  }
  tbk_page_free(b);
  tbk_page_free(c);
}
#define RECOVERED(name, broken, clean) expect_recovered(name, broken, clean, __LINE__)

/* Shapes libxml2 2.9.14 parses without losing the text: no repair, and the
 * body is there as parsed. */
static void expect_kept(const char *name, const char *html, int line) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  tbk_page *p = parse_ok(html, &o, line);
  check_count++;
  const char *t = text_of(p);
  if (!strstr(t, "Distinctive headline") || !strstr(t, "distinctive closing sentence") || tbk_page_block_count(p) < 2 ||
      tbk_page_recovered(p) != 0) {
    check_failures++;
    fprintf(stderr, "%s:%d: %s: recovered %d, %zu blocks, text \"%s\"\n", __FILE__, line, name,
            p ? tbk_page_recovered(p) : -1, tbk_page_block_count(p), t);
  }
  tbk_page_free(p);
}
#define KEPT(name, html) expect_kept(name, html, __LINE__)

static void test_broken_unclosed_title(void) {
  /* No </head> or <body> to end it: libxml2 nests the body in the title. */
  RECOVERED("title", "<html><head><title>Site name\n<meta charset=utf-8>\n" BROKEN_BODY "</body></html>",
            "<html><head><title>Site name\n</title><meta charset=utf-8>\n" BROKEN_BODY "</body></html>");
  RECOVERED("title, no head", "<title>Site name " BROKEN_BODY, "<title>Site name </title>" BROKEN_BODY);
  RECOVERED("title in body", "<html><body><div>lead<title>x " BROKEN_BODY,
            "<html><body><div>lead<title>x </title>" BROKEN_BODY);
  /* </head> or <body> ends it in libxml2 2.9: nothing to repair. */
  KEPT("title ended by </head>", "<html><head><title>Site name</head><body>" BROKEN_BODY);
  KEPT("title ended by <body>", "<html><head><title>Site name<body>" BROKEN_BODY);
  KEPT("title ended by </div>", "<html><body><div>lead<title>x</div>" BROKEN_BODY);
}

static void test_broken_unclosed_script_style(void) {
  /* Read as raw text to the end: only their own end tag stops them. */
  RECOVERED("style", "<html><head><style>p { color: red }\n</head><body>" BROKEN_BODY "</body></html>",
            "<html><head><style>p { color: red }\n</style></head><body>" BROKEN_BODY "</body></html>");
  RECOVERED("script", "<html><head><script src=a.js>\n<link rel=stylesheet href=a.css></head><body>" BROKEN_BODY,
            "<html><head><script src=a.js>\n</script><link rel=stylesheet href=a.css></head><body>" BROKEN_BODY);
  RECOVERED("script in body", "<html><body><script>var n = 1;" BROKEN_BODY "</body></html>",
            "<html><body><script>var n = 1;</script>" BROKEN_BODY "</body></html>");
  /* A closed script holding markup is not a shape: its text stays hidden. */
  KEPT("closed script with tags",
       "<html><body><script>var s = '<div>scriptword</div>';</script>" BROKEN_BODY "</body></html>");
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  tbk_page *p = PARSE("<html><body><script>document.write('<p>scriptword</p>');</script>" BROKEN_BODY, &o);
  CHECK(p && !strstr(text_of(p), "scriptword"));
  tbk_page_free(p);
}

/* A script's nested script after "<!--" (HTML5's double-escaped script
 * data) does not end the element: what follows its end tag stays script,
 * as a browser reads it, and counts as a repair. Without "<!--", or after
 * "-->", the first end tag ends the element (browsers show the rest). */
static void test_script_double_escape(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  static const char *const hidden[] = {
      "<html><body><script><!-- var a = '<script src=x.js></script>'; var scriptword = 1; --></script>" BROKEN_BODY,
      "<html><body><SCRIPT type=text/javascript>\n<!--\nw('<Script>f()</SCRIPT>'); scriptword();\n// "
      "-->\n</script>" BROKEN_BODY,
      "<html><body><script><!-- s = {\"e\":\"<script>a</script>\",\"f\":\"<script>b</script>\"}; scriptword "
      "--></script>" BROKEN_BODY,
  };
  for (size_t k = 0; k < sizeof hidden / sizeof *hidden; k++) {
    tbk_page *p = PARSE(hidden[k], &o);
    CHECK(p && !strstr(text_of(p), "scriptword") && strstr(text_of(p), "distinctive closing sentence"));
    CHECK(p && tbk_page_recovered(p) >= 1);
    tbk_page_free(p);
  }
  static const char *const shown[] = {
      "<html><body><script>w('<script src=x.js></script>'); scriptword();</script>" BROKEN_BODY,
      "<html><body><script><!-- a(); --> w('<script>x</script>'); scriptword();</script>" BROKEN_BODY,
  };
  for (size_t k = 0; k < sizeof shown / sizeof *shown; k++) {
    tbk_page *p = PARSE(shown[k], &o);
    CHECK(p && strstr(text_of(p), "scriptword") && tbk_page_recovered(p) == 0);
    tbk_page_free(p);
  }
  /* in a comment a script is no script: nothing to make inert */
  tbk_page *p = PARSE("<html><body><!-- <script><!-- <script></script> x --></script> -->" BROKEN_BODY, &o);
  CHECK(p && tbk_page_recovered(p) == 0);
  tbk_page_free(p);
}

static void test_broken_unclosed_containers(void) {
  /* Dropped containers libxml2 keeps open to the end. */
  RECOVERED("noscript", "<html><body><noscript><img src=pixel.gif>\n" BROKEN_BODY,
            "<html><body><noscript><img src=pixel.gif>\n</noscript>" BROKEN_BODY);
  RECOVERED("iframe", "<html><body><iframe src=ad.html>" BROKEN_BODY,
            "<html><body><iframe src=ad.html></iframe>" BROKEN_BODY);
  RECOVERED("object", "<html><body><object data=a.swf><param name=q value=1>" BROKEN_BODY,
            "<html><body><object data=a.swf><param name=q value=1></object>" BROKEN_BODY);
  RECOVERED("svg", "<html><body><svg viewBox='0 0 1 1'><path d='M0 0'>" BROKEN_BODY,
            "<html><body><svg viewBox='0 0 1 1'><path d='M0 0'></svg>" BROKEN_BODY);
  RECOVERED("nested noscript and iframe", "<html><body><noscript><iframe src=x>" BROKEN_BODY,
            "<html><body><noscript><iframe src=x></iframe></noscript>" BROKEN_BODY);
  /* One closed noscript later does not close the first. */
  RECOVERED("noscript closed once of two",
            "<html><body><noscript><img src=a>" BROKEN_BODY "<noscript><img src=b></noscript>",
            "<html><body><noscript><img src=a></noscript>" BROKEN_BODY "<noscript><img src=b></noscript>");
}

/* An element of higher end priority than the container (<div>, <td>,
 * <tr>, <table>…) opened inside it and left open makes libxml2 ignore the
 * container's end tag, so the rest of the page is dropped with it (#31);
 * a browser reads a <noscript>'s content as raw text and shows the rest. */
static void test_broken_open_in_container(void) {
  RECOVERED("div in noscript after a skip link",
            "<html><body><a href=#main>Skip to content</a><noscript><div id=\"x\"></noscript>\n" BROKEN_BODY,
            "<html><body><a href=#main>Skip to content</a><noscript><div id=\"x\"></div></noscript>\n" BROKEN_BODY);
  RECOVERED("div in noscript, lines",
            "<html><body><noscript>\n<div class=warn>\n<img src=p.gif>\n</noscript>\n" BROKEN_BODY "</body></html>",
            "<html><body><noscript>\n<div class=warn>\n<img src=p.gif>\n</div></noscript>\n" BROKEN_BODY
            "</body></html>");
  RECOVERED("two divs and a span in noscript", "<html><body><noscript><div><div class=y><span>x</noscript>" BROKEN_BODY,
            "<html><body><noscript><div><div class=y><span>x</div></div></noscript>" BROKEN_BODY);
  RECOVERED("table cells in noscript", "<html><body><noscript><table><tr><td>a<td>b</noscript>" BROKEN_BODY,
            "<html><body><noscript><table><tr><td>a<td>b</td></tr></table></noscript>" BROKEN_BODY);
  /* libxml2 does not close the first row here (the <a> is open): the
   * container is cut all the same. */
  RECOVERED("rows around a link in noscript", "<html><body><noscript><tr><a href=x><tr></noscript>" BROKEN_BODY,
            "<html><body><noscript><tr><a href=x><tr></tr></tr></noscript>" BROKEN_BODY);
  RECOVERED("div closed, table open", "<html><body><noscript><div>a</div><table><tr><td>b</noscript>" BROKEN_BODY,
            "<html><body><noscript><div>a</div><table><tr><td>b</td></tr></table></noscript>" BROKEN_BODY);
  RECOVERED("div in an iframe in noscript", "<html><body><noscript><iframe src=x><div></noscript>" BROKEN_BODY,
            "<html><body><noscript><iframe src=x><div></div></noscript>" BROKEN_BODY);
  RECOVERED("div in object", "<html><body><object data=a.swf><div>Get Flash</object>" BROKEN_BODY,
            "<html><body><object data=a.swf><div>Get Flash</div></object>" BROKEN_BODY);
  /* Inside a page's own divs: only the noscript's are closed. */
  RECOVERED("noscript inside the page's div",
            "<html><body><div id=page><noscript><div id=x></noscript>" BROKEN_BODY "</div></body></html>",
            "<html><body><div id=page><noscript><div id=x></div></noscript>" BROKEN_BODY "</div></body></html>");
  /* What libxml2 closes at </noscript> itself (end priority not above
   * it), and a noscript in the head (</head> outranks the div): no loss. */
  KEPT("a in noscript", "<html><body><a href=#main>Skip to content</a><noscript><a href=x></noscript>" BROKEN_BODY);
  KEPT("span in noscript", "<html><body><noscript><span></noscript>" BROKEN_BODY);
  KEPT("p in noscript", "<html><body><noscript><p></noscript>" BROKEN_BODY);
  KEPT("img in noscript", "<html><body><noscript><img src=p.gif></noscript>" BROKEN_BODY);
  KEPT("iframe in noscript", "<html><body><noscript><iframe src=\"https://x/ns\"></noscript>" BROKEN_BODY);
  KEPT("tag manager",
       "<html><body><noscript><iframe src=\"https://www.googletagmanager.com/ns.html?id=GTM-X\" height=0 width=0 "
       "style=\"display:none;visibility:hidden\"></iframe></noscript>" BROKEN_BODY);
  KEPT("div in noscript in head",
       "<html><head><title>T</title><noscript><div id=x></noscript></head><body><a href=#m>Skip</a>" BROKEN_BODY);
  /* A container whose elements are all closed is not cut: a page broken
   * elsewhere gets one repair, the script's. */
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  tbk_page *p = PARSE("<html><body><noscript><div><table><tr><td>a</td></tr></table></div></noscript>"
                      "<script>var n = 1;" BROKEN_BODY,
                      &o);
  CHECK_INT(p ? tbk_page_recovered(p) : -1, 1);
  CHECK(p && strstr(text_of(p), "distinctive closing sentence"));
  tbk_page_free(p);
}

static void test_broken_comments(void) {
  /* HTML5's empty comments, a "-- >" end, a comment never closed. */
  RECOVERED("<!-->", "<html><body><div>lead<!--> end</div>" BROKEN_BODY, "<html><body><div>lead end</div>" BROKEN_BODY);
  RECOVERED("<!--->", "<html><body><div>lead<!---> end</div>" BROKEN_BODY,
            "<html><body><div>lead end</div>" BROKEN_BODY);
  RECOVERED("-- >", "<html><body><div>lead<!-- note -- > end</div>" BROKEN_BODY,
            "<html><body><div>lead end</div>" BROKEN_BODY);
  KEPT("--!>", "<html><body><div>lead<!-- note --!> end</div>" BROKEN_BODY);
}

static void test_broken_kept_shapes(void) {
  /* Left open, these lose no text in libxml2 2.9.14: their content is
   * parsed as elements (or kept as their visible text). */
  KEPT("textarea", "<html><body><form><textarea name=q>Type here" BROKEN_BODY);
  KEPT("xmp", "<html><body><xmp>x " BROKEN_BODY);
  KEPT("plaintext", "<html><body><plaintext>" BROKEN_BODY);
  KEPT("noembed", "<html><body><noembed>x " BROKEN_BODY);
  KEPT("noframes", "<html><body><noframes>x " BROKEN_BODY);
  KEPT("stray </html>", "<html><body><div>lead</div></html>\n" BROKEN_BODY "</body></html>");
  KEPT("stray </body>", "<html><body><div>lead</div></body>\n" BROKEN_BODY "</body></html>");
  KEPT("stray </body></html>", "<html><body><div>lead</div></body></html>\n" BROKEN_BODY);
}

/* Pages that are not broken are exactly as parsed: the check costs them
 * nothing and changes nothing. */
static void test_broken_normal_pages(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  /* Repairable shapes, but most text was not lost: left as parsed (the
   * comment still takes " tail" up to the next "-->"). */
  const char *html = "<html><head><title>T</title></head><body><div>lead<!--> tail</div><!-- c -->" BROKEN_BODY
                     "<iframe src=x></body></html>";
  tbk_page *p = PARSE(html, &o);
  CHECK_INT(p ? tbk_page_recovered(p) : -1, 0);
  CHECK(p && strstr(text_of(p), "distinctive closing sentence") && !strstr(text_of(p), "lead tail"));
  tbk_page_free(p);
  /* Little text under much markup (the scan runs) and nothing broken. */
  tbk_buf b = {0};
  CHECK_BUF(tbk_buf_puts(&b, "<html><head><script>"));
  for (int i = 0; i < 2000; i++) CHECK_BUF(tbk_buf_puts(&b, "var x = '<div>not text</div>';\n"));
  CHECK_BUF(tbk_buf_puts(&b, "</script></head><body>"));
  for (int i = 0; i < 500; i++) CHECK_BUF(tbk_buf_puts(&b, "<span class=\"a b c d e\" data-x=\"1\"></span>\n"));
  CHECK_BUF(tbk_buf_puts(&b, "<div>" T1 "</div></body></html>"));
  p = PARSE(b.data, &o);
  CHECK_INT(p ? tbk_page_recovered(p) : -1, 0);
  CHECK_STR(text_of(p), T1);
  CHECK_INT(tbk_page_block_count(p), 1);
  tbk_page_free(p);
  /* Hidden text is not lost text: the repair would show no more of it. */
  p = PARSE("<html><body><noscript><img src=x><div style='display:none'>" BROKEN_BODY "</div></body></html>", &o);
  CHECK_INT(p ? tbk_page_recovered(p) : -1, 0);
  CHECK_STR(text_of(p), "");
  tbk_page_free(p);
  /* A clean page. */
  p = PARSE("<html><head><title>T</title></head><body>" BROKEN_BODY "</body></html>", &o);
  CHECK_INT(p ? tbk_page_recovered(p) : -1, 0);
  CHECK(p && tbk_page_block_count(p) >= 2);
  tbk_page_free(p);
  tbk_buf_free(&b);
}

/* Many broken shapes cost one more parse, not a scan per shape. */
static void test_broken_hostile(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  static const char *shapes[] = {"<svg>", "<title>x", "<noscript>", "<!-- x -- >", "<script>x<br>", "<td></div>"};
  tbk_buf b = {0};
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
    b.len = 0;
    CHECK_BUF(tbk_buf_puts(&b, "<html><body>"));
    /* End tags that look down a noscript's cells for its div. */
    if (!strcmp(shapes[s], "<td></div>")) CHECK_BUF(tbk_buf_puts(&b, "<noscript><div>"));
    for (int i = 0; i < 100000; i++) CHECK_BUF(tbk_buf_puts(&b, shapes[s]));
    CHECK_BUF(tbk_buf_puts(&b, BROKEN_BODY));
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tbk_status st;
    tbk_error err = {0};
    tbk_page *p = parse_n(b.data, b.len, &o, &st, &err);
    double secs = seconds_since(t0);
    CHECK(st == TBK_OK || st == TBK_ERR_LIMIT);
    CHECK(secs < 30);
    fprintf(stderr, "100000 x %s: %s in %.2fs, recovered %d, %zu blocks\n", shapes[s], tbk_status_str(st), secs,
            p ? tbk_page_recovered(p) : -1, tbk_page_block_count(p));
    tbk_page_free(p);
  }
  tbk_buf_free(&b);
}

/* libxml2's recovered errors are counted per parse (the error callback's
 * type differs between libxml2 versions: core/page/page.c). */
static void test_parse_errors(void) {
  tbk_page_options o = opts(TBK_BLOCKS_PAPER);
  const char *clean = "<html><body><div>" T1 "</div></body></html>";
  const char *broken = "<html><body><div><span>" T1 "</div></p></i></body></html>";
  tbk_page *p = PARSE(clean, &o);
  CHECK(p && tbk_page_parse_errors(p) == 0);
  tbk_page_free(p);
  p = PARSE(broken, &o);
  size_t first = p ? tbk_page_parse_errors(p) : 0;
  CHECK(first >= 2); /* the stray </p> and </i> at least */
  tbk_page_free(p);
  p = PARSE(broken, &o);
  CHECK(p && tbk_page_parse_errors(p) == first);
  tbk_page_free(p);
  p = PARSE(clean, &o);
  CHECK(p && tbk_page_parse_errors(p) == 0);
  tbk_page_free(p);
}

/* The three ways to keep a page (its tree, its source to parse again, or
 * neither) give the same tables, title, base and attributes, though the
 * arena's nodes and text are gone after the walk unless the tree is kept;
 * only the page that keeps neither refuses HTML. */
/* tbk_page_options.parser: tbk's parser by default; the installed
 * libxml2's own when asked, which with 2.9.14 builds the same tables. */
static void test_parser_choice(void) {
  static const char page[] = "<html><head><title>Parsers</title></head><body><div><p>" T1 "</p><p>" T2
                             "</div><!-- a comment --><table><tr><td>cell<td>two</table></body></html>";
  tbk_buf dump[2] = {{0}};
  const tbk_parser parsers[2] = {TBK_PARSER_TBK, TBK_PARSER_LIBXML2};
  CHECK_INT(tbk_page_options_default.parser, TBK_PARSER_TBK);
  for (int k = 0; k < 2; k++) {
    tbk_page_options o = opts(TBK_BLOCKS_PAPER);
    o.parser = parsers[k];
    tbk_status st;
    tbk_page *p = parse_n(page, sizeof page - 1, &o, &st, NULL);
    CHECK_INT(st, TBK_OK);
    if (!p) continue;
    CHECK_INT(p->arena.fast, k == 0);
    CHECK_INT(tbk_page_dump(p, &dump[k]), 0);
    tbk_page_free(p);
  }
  if (tbk_html_fast_oracle()) CHECK_STR(dump[0].data ? dump[0].data : "", dump[1].data ? dump[1].data : "");
  for (int k = 0; k < 2; k++) tbk_buf_free(&dump[k]);
}

static void test_keep_modes(void) {
  static const char page[] = "<html><head><title>  The   river\n page </title><base href=\"http://x.example/d/\">"
                             "</head><body><div id=\"a\" class=\"c d\"><p>" T1 "</p></div><ul><li data-k=\"v\">" T2
                             "</li></ul><script>var s = 1;</script></body></html>";
  tbk_buf dump[3] = {{0}}, html[3] = {{0}}, title = {0}, base = {0};
  tbk_status html_st[3];
  const int modes[3] = {0, 1, -1};
  for (int k = 0; k < 3; k++) {
    tbk_page_options o = opts(TBK_BLOCKS_PAPER);
    o.keep_dom = modes[k];
    tbk_status st;
    tbk_page *p = parse_n(page, sizeof page - 1, &o, &st, NULL);
    CHECK_INT(st, TBK_OK);
    if (!p) continue;
    CHECK_INT(tbk_page_dump(p, &dump[k]), 0);
    html_st[k] = tbk_page_html(p, NULL, &html[k]);
    if (k == 2) {
      title.len = base.len = 0;
      CHECK_INT(tbk_page_title(p, 100, &title), 0);
      CHECK_INT(tbk_page_base_href(p, &base), 0);
      CHECK_STR(title.data ? title.data : "", "The river page");
      CHECK_STR(base.data ? base.data : "", "http://x.example/d/");
      title.len = 0;
      CHECK_INT(tbk_page_title(p, 10, &title), 0); /* bytes of the raw title */
      CHECK_STR(title.data ? title.data : "", "The ri");
      size_t divs = 0;
      for (size_t i = 0; i < p->n_nodes; i++)
        for (const char *q = p->nodes[i].attrs, *name, *value; (name = tbk_attr_next(&q, &value));)
          divs += strcmp(p->nodes[i].name, "div") == 0 && strcmp(name, "class") == 0 && value &&
                  strcmp(value, "c d") == 0;
      CHECK_INT(divs, 1);
    }
    tbk_page_free(p);
  }
  CHECK(dump[0].len > 0 && strstr(dump[0].data, "The river page") != NULL);
  for (int k = 1; k < 3; k++) CHECK(dump[k].len == dump[0].len && memcmp(dump[k].data, dump[0].data, dump[0].len) == 0);
  CHECK_INT(html_st[0], TBK_OK);
  CHECK_INT(html_st[1], TBK_OK);
  CHECK_INT(html_st[2], TBK_ERR_ARG);
  CHECK(html[0].len > 0 && html[0].len == html[1].len && memcmp(html[0].data, html[1].data, html[0].len) == 0);
  for (int k = 0; k < 3; k++) {
    tbk_buf_free(&dump[k]);
    tbk_buf_free(&html[k]);
  }
  tbk_buf_free(&title);
  tbk_buf_free(&base);
}

int main(void) {
  test_keep_modes();
  test_parser_choice();
  test_parse_errors();
  test_tag_sets();
  test_thresholds();
  test_visible_text();
  test_structure();
  test_charsets();
  test_refusals();
  test_limits();
  test_attr_guard();
  test_hostile();
  test_broken_unclosed_title();
  test_broken_unclosed_script_style();
  test_script_double_escape();
  test_broken_unclosed_containers();
  test_broken_open_in_container();
  test_broken_comments();
  test_broken_kept_shapes();
  test_broken_normal_pages();
  test_broken_hostile();
  return check_report();
}
