/* The HTML tags tbk knows by name, with how each affects segmentation.
 * DROP: subtree is never visible text. BREAK: starts/ends a visual line, so
 * its text is separated from neighbours. PAPER: Kołcz & Yih's block set.
 * HTML5: extra block candidates of --blocks html5. */
#ifndef TBK_TAGS_H
#define TBK_TAGS_H
#include <stddef.h>
#include <stdint.h>

enum { TAG_DROP = 1, TAG_BREAK = 2, TAG_PAPER = 4, TAG_HTML5 = 8 };

#define TBK_TAG_LIST(X)                              \
  X(OTHER, "", 0)                                    \
  X(A, "a", 0)                                       \
  X(ABBR, "abbr", 0)                                 \
  X(ADDRESS, "address", TAG_BREAK | TAG_HTML5)       \
  X(AREA, "area", 0)                                 \
  X(ARTICLE, "article", TAG_BREAK | TAG_HTML5)       \
  X(ASIDE, "aside", TAG_BREAK | TAG_HTML5)           \
  X(AUDIO, "audio", TAG_DROP)                        \
  X(B, "b", 0)                                       \
  X(BIG, "big", 0)                                   \
  X(BLOCKQUOTE, "blockquote", TAG_BREAK | TAG_PAPER) \
  X(BODY, "body", TAG_BREAK)                         \
  X(BR, "br", TAG_BREAK)                             \
  X(BUTTON, "button", 0)                             \
  X(CANVAS, "canvas", TAG_DROP)                      \
  X(CAPTION, "caption", TAG_BREAK)                   \
  X(CENTER, "center", TAG_BREAK)                     \
  X(CITE, "cite", 0)                                 \
  X(CODE, "code", 0)                                 \
  X(DD, "dd", TAG_BREAK | TAG_PAPER)                 \
  X(DEL, "del", 0)                                   \
  X(DETAILS, "details", TAG_BREAK | TAG_HTML5)       \
  X(DIV, "div", TAG_BREAK | TAG_PAPER)               \
  X(DL, "dl", TAG_BREAK | TAG_PAPER)                 \
  X(DT, "dt", TAG_BREAK | TAG_PAPER)                 \
  X(EM, "em", 0)                                     \
  X(EMBED, "embed", TAG_DROP)                        \
  X(FIELDSET, "fieldset", TAG_BREAK | TAG_HTML5)     \
  X(FIGCAPTION, "figcaption", TAG_BREAK)             \
  X(FIGURE, "figure", TAG_BREAK | TAG_HTML5)         \
  X(FONT, "font", 0)                                 \
  X(FOOTER, "footer", TAG_BREAK | TAG_HTML5)         \
  X(FORM, "form", TAG_BREAK | TAG_HTML5)             \
  X(FRAME, "frame", TAG_DROP)                        \
  X(FRAMESET, "frameset", TAG_BREAK)                 \
  X(H1, "h1", TAG_BREAK | TAG_PAPER)                 \
  X(H2, "h2", TAG_BREAK | TAG_PAPER)                 \
  X(H3, "h3", TAG_BREAK | TAG_PAPER)                 \
  X(H4, "h4", TAG_BREAK | TAG_PAPER)                 \
  X(H5, "h5", TAG_BREAK | TAG_PAPER)                 \
  X(H6, "h6", TAG_BREAK | TAG_PAPER)                 \
  X(HEAD, "head", TAG_DROP)                          \
  X(HEADER, "header", TAG_BREAK | TAG_HTML5)         \
  X(HR, "hr", TAG_BREAK)                             \
  X(HTML, "html", TAG_BREAK)                         \
  X(I, "i", 0)                                       \
  X(IFRAME, "iframe", TAG_DROP)                      \
  X(IMG, "img", 0)                                   \
  X(INPUT, "input", 0)                               \
  X(INS, "ins", 0)                                   \
  X(KBD, "kbd", 0)                                   \
  X(LABEL, "label", 0)                               \
  X(LEGEND, "legend", TAG_BREAK)                     \
  X(LI, "li", TAG_BREAK | TAG_PAPER)                 \
  X(LINK, "link", TAG_DROP)                          \
  X(MAIN, "main", TAG_BREAK | TAG_HTML5)             \
  X(MAP, "map", 0)                                   \
  X(MARK, "mark", 0)                                 \
  X(MATH, "math", TAG_DROP)                          \
  X(MENU, "menu", TAG_BREAK)                         \
  X(META, "meta", TAG_DROP)                          \
  X(NAV, "nav", TAG_BREAK | TAG_HTML5)               \
  X(NOSCRIPT, "noscript", TAG_DROP)                  \
  X(OBJECT, "object", TAG_DROP)                      \
  X(OL, "ol", TAG_BREAK | TAG_PAPER)                 \
  X(OPTION, "option", TAG_BREAK)                     \
  X(P, "p", TAG_BREAK | TAG_HTML5)                   \
  X(PICTURE, "picture", 0)                           \
  X(PRE, "pre", TAG_BREAK | TAG_PAPER)               \
  X(Q, "q", 0)                                       \
  X(S, "s", 0)                                       \
  X(SAMP, "samp", 0)                                 \
  X(SCRIPT, "script", TAG_DROP)                      \
  X(SECTION, "section", TAG_BREAK | TAG_HTML5)       \
  X(SELECT, "select", TAG_BREAK)                     \
  X(SMALL, "small", TAG_PAPER)                       \
  X(SOURCE, "source", 0)                             \
  X(SPAN, "span", 0)                                 \
  X(STRIKE, "strike", 0)                             \
  X(STRONG, "strong", 0)                             \
  X(STYLE, "style", TAG_DROP)                        \
  X(SUB, "sub", 0)                                   \
  X(SUMMARY, "summary", TAG_BREAK)                   \
  X(SUP, "sup", 0)                                   \
  X(SVG, "svg", TAG_DROP)                            \
  X(TABLE, "table", TAG_BREAK | TAG_PAPER)           \
  X(TBODY, "tbody", TAG_BREAK)                       \
  X(TD, "td", TAG_BREAK | TAG_PAPER)                 \
  X(TEMPLATE, "template", TAG_DROP)                  \
  X(TEXTAREA, "textarea", TAG_BREAK)                 \
  X(TFOOT, "tfoot", TAG_BREAK)                       \
  X(TH, "th", TAG_BREAK | TAG_PAPER)                 \
  X(THEAD, "thead", TAG_BREAK)                       \
  X(TIME, "time", 0)                                 \
  X(TITLE, "title", TAG_DROP)                        \
  X(TR, "tr", TAG_BREAK | TAG_PAPER)                 \
  X(TT, "tt", 0)                                     \
  X(U, "u", 0)                                       \
  X(UL, "ul", TAG_BREAK | TAG_PAPER)                 \
  X(VAR, "var", 0)                                   \
  X(VIDEO, "video", TAG_DROP)                        \
  X(WBR, "wbr", 0)

typedef enum tbk_tag {
#define TBK_TAG_ENUM(id, name, flags) TBK_TAG_##id,
  TBK_TAG_LIST(TBK_TAG_ENUM)
#undef TBK_TAG_ENUM
      TBK_TAG_COUNT
} tbk_tag;

/* Tag id of a lower-case element name (TBK_TAG_OTHER when unknown). */
tbk_tag tbk_tag_lookup(const char *name);
const char *tbk_tag_name(tbk_tag t);
unsigned tbk_tag_flags(tbk_tag t);
#endif
