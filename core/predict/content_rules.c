/* The content stage's fixed rules: text units that are page furniture on
 * every page, whatever the model scores them (captions, notices, labels,
 * tag lines, bare dates). Each was measured on every gold set before it
 * went in: EVALUATION.md "Content stage: what was measured". */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "predict_internal.h"
#include "units.h"

/* ASCII case-insensitive: does hay (n bytes) hold needle (lower case)? */
static int has_word(const char *hay, size_t n, const char *needle) {
  size_t m = strlen(needle);
  for (size_t i = 0; i + m <= n; i++) {
    size_t j = 0;
    while (j < m && (hay[i + j] | 0x20) == needle[j]) j++;
    if (j == m) return 1;
  }
  return 0;
}

/* Whether an element's class or id holds one of a list of words (hit),
 * unless it also names the element as the page's text (veto). */
typedef struct named {
  const char *const *words;
  int in_value, hit, veto;
} named;

static void on_attr(void *ctx, const char *name, const char *chunk) {
  named *a = ctx;
  if (!chunk) {
    a->in_value = 0;
    return;
  }
  if (!a->in_value) a->in_value = strcasecmp(name, "class") == 0 || strcasecmp(name, "id") == 0 ? 1 : -1;
  for (size_t w = 0; a->in_value > 0 && !a->hit && a->words[w]; w++)
    a->hit = has_word(chunk, strlen(chunk), a->words[w]);
}

/* The lists of names the rules look for in an element's class and id, 2
 * bits each of tbk_unit_node.rule_names. */
enum { NAMES_CAPTION, NAMES_CONSENT, NAMES_META, NAMES_LEAD, NAMES_SIDE_BOX, NAMES_BESIDE };

/* Whether element k is named by one of words (fn reads its attributes:
 * on_attr, on_attr_tokens), read once a page: the rules walk the same
 * ancestors for unit after unit. */
static int node_named(const tbk_page_view *pv, const tbk_units *ux, uint32_t k, int list, const char *const *words,
                      tbk_attr_fn fn) {
  unsigned shift = 2u * (unsigned)list, v = ux->nd[k].rule_names >> shift & 3u;
  if (!v) {
    named a = {words, 0, 0, 0};
    tbk_node_attrs(&pv->nodes[k], fn, &a);
    v = a.hit && !a.veto ? 2u : 1u;
    ux->nd[k].rule_names |= (uint16_t)(v << shift);
  }
  return v == 2;
}

/* The unit's line element or an ancestor holding at most limit
 * characters is named by one of words (node_named's list and fn). */
static int named_within(const tbk_page *page, const tbk_units *ux, size_t i, uint32_t limit, int list,
                        const char *const *words, tbk_attr_fn fn) {
  const tbk_page_view pv = tbk_page_view_of(page);
  for (uint32_t k = ux->u[i].elem; k != TBK_NONE && ux->nd[k].chars <= limit; k = pv.nodes[k].parent)
    if (node_named(&pv, ux, k, list, words, fn)) return 1;
  return 0;
}

/* The unit's line element or an ancestor that holds little more than the
 * unit (its wrapper, not the article around it) is named by one of words. */
static int named_near(const tbk_page *page, const tbk_units *ux, size_t i, int list, const char *const *words) {
  return named_within(page, ux, i, ux->u[i].chars + 400, list, words, on_attr);
}

/* Like on_attr, token by token of a class value, leaving out
 * WordPress's taxonomy classes ("tag-cookie-recipes", "category-…" on a
 * post's element): they name the post's topics, not the element. */
static void on_attr_tokens(void *ctx, const char *name, const char *chunk) {
  named *a = ctx;
  if (!chunk || a->hit || strcasecmp(name, "class") != 0) return;
  for (const char *q = chunk; *q && !a->hit;) {
    q += strspn(q, " \t\n\r\f");
    size_t l = strcspn(q, " \t\n\r\f");
    int taxonomy = (l > 4 && !strncasecmp(q, "tag-", 4)) || (l > 9 && !strncasecmp(q, "category-", 9));
    for (size_t w = 0; !taxonomy && !a->hit && a->words[w]; w++) a->hit = has_word(q, l, a->words[w]);
    q += l;
  }
}

/* The text, trimmed at both ends of ASCII characters that are no letter
 * (punctuation, digits: "Profile1" is "profile"), is one of words (ASCII
 * case ignored). */
static int is_one_of(const char *t, size_t n, const char *const *words) {
  while (n && !((t[0] | 0x20) >= 'a' && (t[0] | 0x20) <= 'z') && (unsigned char)t[0] < 0x80) t++, n--;
  while (n && !((t[n - 1] | 0x20) >= 'a' && (t[n - 1] | 0x20) <= 'z') && (unsigned char)t[n - 1] < 0x80) n--;
  /* the words are lower-case ASCII: the first letter rules out most */
  for (size_t w = 0; n && words[w]; w++)
    if ((t[0] | 0x20) == words[w][0] && strlen(words[w]) == n && strncasecmp(t, words[w], n) == 0) return 1;
  return 0;
}

/* Like on_attr, but a word must be a whole part of a class or id value,
 * its parts split at '-' and '_' ("post-excerpt", "modal_email"): a
 * substring would take Drupal's "node--promoted" article for a promo;
 * "widget" only as the first part (not Elementor's "elementor-widget").
 * Left out: WordPress's taxonomy classes (tag-…, category-…: a post's
 * topics) and state flags (has-…, with-…, no-…: "has-sidebar" is said
 * of a page). A part naming the page's text (content, article, main,
 * body, column, entry, story, blog, hentry, as Readability reads them)
 * vetoes: Genesis' "content-sidebar-wrap" holds the article, Blogger's
 * "widget Blog" the post. */
static void on_attr_parts(void *ctx, const char *name, const char *chunk) {
  static const char *const skip[] = {"tag", "category", "has", "with", "no", NULL};
  /* a page builder's block ("elementor-widget-text-editor") holds the
   * page's own text: these name a box only as a token's first part
   * (WordPress's "widget_text", Blogger's "widget Profile") */
  static const char *const builders[] = {"widget", NULL};
  static const char *const text[] = {"content", "article", "main", "body",   "column",
                                     "entry",   "story",   "blog", "hentry", NULL};
  named *a = ctx;
  if (!chunk || (strcasecmp(name, "class") != 0 && strcasecmp(name, "id") != 0)) return;
  for (const char *q = chunk; *q;) {
    q += strspn(q, " \t\n\r\f");
    size_t n = strcspn(q, " \t\n\r\f"), first = strcspn(q, "-_");
    if (first < n && is_one_of(q, first, skip)) {
      q += n;
      continue;
    }
    for (const char *p = q; p < q + n;) {
      size_t l = strcspn(p, "-_ \t\n\r\f"); /* a part ends by the token's end */
      if (l && is_one_of(p, l, a->words) && (p == q || !is_one_of(p, l, builders))) a->hit = 1;
      if (l && is_one_of(p, l, text)) a->veto = 1;
      p += l;
      p += strspn(p, "-_");
    }
    q += n;
  }
}

/* on_attr_parts on the class only: an id is often a heading's slug
 * (Sphinx's "python-related-paths-and-files" section). */
static void on_class_parts(void *ctx, const char *name, const char *chunk) {
  if (strcasecmp(name, "class") == 0) on_attr_parts(ctx, name, chunk);
}

/* A cookie or consent notice (the EU's banners and their settings
 * dialogs): text under an element whose class names cookies, consent or
 * the GDPR (not its id: a documentation section's id is its heading's
 * slug, "cookiejar-objects"). Such a dialog can hold paragraphs of prose
 * that read like an article's, and no gold set counts it as the page's
 * text.
 * The walk stops at an element holding half the page's text: that is the
 * page itself (a cookie policy, a <body class="cookies-not-set">), not a
 * notice on it. */
static int in_consent_notice(const tbk_page *page, const tbk_units *ux, size_t i) {
  static const char *const words[] = {"cookie", "consent", "gdpr", NULL};
  return named_within(page, ux, i, ux->nd[0].chars / 2, NAMES_CONSENT, words, on_attr_tokens);
}

/* A box beside the page's text, by its class or id: a sidebar's widget
 * (a blog's "about me"), a teaser of other posts, a promotion, a dialog
 * or lightbox (a video's description, a "send to a friend" form's copy
 * of the excerpt). Their paragraphs read as the page's own text, and the
 * content stage is unsure of them as of a reference's entries. The walk
 * stops at an element holding half the page's text: that is the page
 * (a <body class="widget-…">), not a box on it. */
int tbk_unit_side_box(const tbk_page *page, const tbk_units *ux, size_t i) {
  static const char *const words[] = {"sidebar", "widget", "promo", "teaser",   "excerpt",
                                      "related", "modal",  "popup", "lightbox", NULL};
  return named_within(page, ux, i, ux->nd[0].chars / 2, NAMES_SIDE_BOX, words, on_attr_parts);
}

/* Of those boxes, the ones no gold set counts whatever the model says:
 * a widget (a blog's "about me" in Blogger's "widget Profile") and
 * related items (another post's teaser), by the class (on_class_parts).
 * The model keeps their prose as the page's. Sidebars, teasers,
 * excerpts, promotions and dialogs are left to it: a news layout's
 * "sidebar" column and a shop's product "excerpt" hold the page's text,
 * and a promotion's name alone moved no page
 * (docs/experiments/evaluation-content-stage.md, "Widgets and related
 * items"). The walk stops at an element holding half the page's text,
 * as the side box's does. */
int tbk_unit_box_beside(const tbk_page *page, const tbk_units *ux, size_t i) {
  static const char *const words[] = {"widget", "related", NULL};
  return named_within(page, ux, i, ux->nd[0].chars / 2, NAMES_BESIDE, words, on_class_parts);
}

/* A <figure> holding more text than this is a layout wrapper (a whole
 * article in one, as some publishing systems write it), not a picture's. */
#define FIGURE_CHARS_MAX 1000

/* An image's caption or credit line: text in a <figcaption>, in a
 * <figure> (unless in a table, quotation, code or list the figure
 * holds, or the figure holds an article's worth of text), or in a small
 * element named caption or credit. No gold set counts them as main text
 * (EVALUATION.md "Content stage"). */
static int is_caption(const tbk_page *page, const tbk_units *ux, size_t i) {
  const tbk_page_view pv = tbk_page_view_of(page);
  static const char *const words[] = {"caption", "credit", NULL};
  for (uint32_t k = ux->u[i].elem; k != TBK_NONE; k = pv.nodes[k].parent) {
    int tag = pv.nodes[k].tag;
    if (tag == TBK_TAG_FIGCAPTION) return 1;
    if (tag == TBK_TAG_FIGURE) {
      if (ux->nd[k].chars <= FIGURE_CHARS_MAX) return 1;
      break;
    }
    if (tag == TBK_TAG_TABLE || tag == TBK_TAG_PRE || tag == TBK_TAG_BLOCKQUOTE || tag == TBK_TAG_UL ||
        tag == TBK_TAG_OL)
      break;
  }
  return named_near(page, ux, i, NAMES_CAPTION, words);
}

/* "This slideshow requires JavaScript", "Please enable JavaScript": what
 * a page shows a browser without scripts, never the article. */
static int is_script_notice(const char *t, size_t n) {
  static const char *const verbs[] = {"requires", "require", "enable", "disabled", "turn on", "support", NULL};
  if (!has_word(t, n, "javascript")) return 0;
  for (size_t w = 0; verbs[w]; w++)
    if (has_word(t, n, verbs[w])) return 1;
  return 0;
}

/* An advertisement's label ("Advertisement", "Anzeige") on its own. */
static int is_ad_label(const char *t, size_t n) {
  static const char *const words[] = {"advertisement",    "advertising",       "ad",      "ads",
                                      "sponsored",        "anzeige",           "werbung", "publicidad",
                                      "publicit\xc3\xa9", "pubblicit\xc3\xa0", "reklama", NULL};
  return is_one_of(t, n, words);
}

/* A heading that invites the reader to sign up for something. */
static int is_signup_heading(const tbk_page *page, const tbk_units *ux, size_t i, const char *t, size_t n) {
  const tbk_page_view pv = tbk_page_view_of(page);
  static const char *const words[] = {"newsletter", "sign up", "signup", "subscribe", NULL};
  int tag = pv.nodes[ux->u[i].elem].tag;
  if (tag < TBK_TAG_H1 || tag > TBK_TAG_H6 || ux->u[i].words > 12) return 0;
  for (size_t w = 0; words[w]; w++)
    if (has_word(t, n, words[w])) return 1;
  return 0;
}

/* "Tags: a, b", "Filed under: c": the post's tag or category line. */
static int is_tag_line(const char *t, size_t n, size_t words) {
  static const char *const heads[] = {
      "tags:", "tagged:", "tagged with:", "filed under:", "categories:", "category:", "topics:", NULL};
  /* each head ends in its colon within 12 bytes */
  if (words > 40 || !memchr(t, ':', n < 12 ? n : 12)) return 0;
  for (size_t h = 0; heads[h]; h++) {
    size_t m = strlen(heads[h]);
    if (n >= m && strncasecmp(t, heads[h], m) == 0) return 1;
  }
  return 0;
}

/* "September (193)", "2019 (12)": an archive list's entry with its count. */
static int is_archive_count(const tbk_page *page, const tbk_units *ux, size_t i, const char *t, size_t n) {
  const tbk_page_view pv = tbk_page_view_of(page);
  if (pv.nodes[ux->u[i].elem].tag != TBK_TAG_LI || ux->u[i].words > 3 || n < 4 || t[n - 1] != ')') return 0;
  size_t k = n - 1;
  while (k > 0 && t[k - 1] >= '0' && t[k - 1] <= '9') k--;
  return k > 1 && k < n - 1 && t[k - 1] == '(' && t[k - 2] == ' ';
}

/* A word's first byte as folded_prefix compares it: folding changes
 * only ASCII capitals there (a Latin-1 letter's lead byte is the same in
 * either case), so a phrase whose first byte differs is ruled out at
 * once. */
static char folded_first(char c) { return c >= 'A' && c <= 'Z' ? (char)(c | 0x20) : c; }

/* a[0..n) equals the first n bytes of the lower-case phrase b, ASCII
 * and Latin-1 letters folded ("Ähnliche" is "ähnliche"). The phrases'
 * other bytes are octal escapes: a hex escape runs on into a following
 * letter a-f. */
static int folded_prefix(const char *a, size_t n, const char *b) {
  size_t k = 0;
  for (; k < n && b[k]; k++) {
    unsigned char x = (unsigned char)a[k], y = (unsigned char)b[k];
    if (x >= 'A' && x <= 'Z') x |= 0x20;
    else if (k > 0 && (unsigned char)a[k - 1] == 0xC3 && x >= 0x80 && x <= 0x9E && x != 0x97) x += 0x20;
    if (x != y) return 0;
  }
  return k == n;
}
/* a[0..n) equals the whole phrase b, folded as folded_prefix does. */
static int equals_folded(const char *a, size_t n, const char *b) { return folded_prefix(a, n, b) && !b[n]; }

/* A word of a date or time stamp: 2 for a month or weekday name (or, in
 * English, its abbreviation of 3 letters or more), 1 for a time-zone or
 * am/pm letter group or a word that stamps a date ("updated", "posted
 * on", "veröffentlicht am", "publié le"), 0 for any other word. The names
 * are those of the function-word lists' Latin-script languages and Polish
 * (its months as dates write them). */
static int date_word(const char *w, size_t n) {
  static const char *const names[] = {"january",   "february",  "march",   "april",    "may",      "june",   "july",
                                      "august",    "september", "october", "november", "december", "monday", "tuesday",
                                      "wednesday", "thursday",  "friday",  "saturday", "sunday",   NULL};
  /* whole words only: "set" begins settembre, and a batch file's
   * "set /a n=1024" is no date */
  static const char *const other_names[] = {
      /* de */
      "januar", "j\303\244nner", "februar", "m\303\244rz", "mai", "juni", "juli", "oktober", "dezember", "montag",
      "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonnabend", "sonntag",
      /* fr */
      "janvier", "f\303\251vrier", "mars", "avril", "juin", "juillet", "ao\303\273t", "septembre", "octobre",
      "novembre", "d\303\251cembre", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
      /* es, it, pt */
      "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "setiembre", "octubre",
      "noviembre", "diciembre", "lunes", "martes", "mi\303\251rcoles", "jueves", "viernes", "s\303\241bado", "domingo",
      "gennaio", "febbraio", "aprile", "maggio", "giugno", "luglio", "settembre", "ottobre", "dicembre",
      "luned\303\254", "marted\303\254", "mercoled\303\254", "gioved\303\254", "venerd\303\254", "sabato", "domenica",
      "janeiro", "fevereiro", "mar\303\247o", "maio", "junho", "julho", "setembro", "outubro", "dezembro", "segunda",
      "ter\303\247a", "quarta", "quinta", "sexta",
      /* nl, sv */
      "januari", "februari", "maart", "mei", "augustus", "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag",
      "zaterdag", "zondag", "augusti", "m\303\245ndag", "tisdag", "onsdag", "torsdag", "fredag", "l\303\266rdag",
      "s\303\266ndag",
      /* pl */
      "stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "wrze\305\233nia",
      "pa\305\272dziernika", "listopada", "grudnia", "poniedzia\305\202ek", "wtorek", "\305\233roda", "czwartek",
      "pi\304\205tek", "sobota", "niedziela", NULL};
  static const char *const stamps[] = {"updated",
                                       "published",
                                       "posted",
                                       "last",
                                       "modified",
                                       "on",
                                       "at",
                                       "and",
                                       "th",
                                       "st",
                                       "nd",
                                       "rd",
                                       "am",
                                       "pm",
                                       "utc",
                                       "gmt",
                                       "um",
                                       "uhr",
                                       "vom",
                                       "stand",
                                       "aktualisiert",
                                       "ver\303\266ffentlicht",
                                       "erstellt",
                                       "zuletzt",
                                       "ge\303\244ndert",
                                       "le",
                                       "\303\240",
                                       "publi\303\251",
                                       "mis",
                                       "jour",
                                       "modifi\303\251",
                                       "el",
                                       "de",
                                       "las",
                                       "hs",
                                       "publicado",
                                       "actualizado",
                                       "il",
                                       "alle",
                                       "ore",
                                       "del",
                                       "pubblicato",
                                       "aggiornato",
                                       "ultima",
                                       "modifica",
                                       "em",
                                       "\303\240s",
                                       "atualizado",
                                       "op",
                                       "om",
                                       "uur",
                                       "gepubliceerd",
                                       "bijgewerkt",
                                       "dnia",
                                       "godz",
                                       "opublikowano",
                                       "aktualizacja",
                                       "zaktualizowano",
                                       NULL};
  char first = folded_first(w[0]);
  for (size_t k = 0; names[k]; k++)
    if (n >= 3 && names[k][0] == first && folded_prefix(w, n, names[k])) return 2;
  for (size_t k = 0; other_names[k]; k++)
    if (other_names[k][0] == first && equals_folded(w, n, other_names[k])) return 2;
  if ((n == 4 && strncasecmp(w, "sept", 4) == 0) || (n == 4 && strncasecmp(w, "tues", 4) == 0) ||
      (n == 5 && strncasecmp(w, "thurs", 5) == 0))
    return 2;
  if (n == 1) return 1; /* a.m., p.m., 10h30 */
  for (size_t k = 0; stamps[k]; k++)
    if (stamps[k][0] == first && equals_folded(w, n, stamps[k])) return 1;
  return n <= 4 && (w[n - 1] | 0x20) == 't'; /* ET, PDT, CEST */
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A letter of a word: ASCII, or a byte of a multi-byte character other
 * than the separators dates are written with (no-break spaces, "·", "«",
 * "»", dashes, "•"). A currency sign or a pilcrow ("4.1¶") is a letter
 * of no date word, so its unit is no date. */
static int date_letter(const char *t, size_t n, size_t k) {
  unsigned char c = (unsigned char)t[k];
  if (c < 0x80) return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
  size_t s = k; /* the character's first byte */
  while (s > 0 && ((unsigned char)t[s] & 0xC0) == 0x80) s--;
  unsigned char b0 = (unsigned char)t[s], b1 = s + 1 < n ? (unsigned char)t[s + 1] : 0,
                b2 = s + 2 < n ? (unsigned char)t[s + 2] : 0;
  if (b0 == 0xC2) return !(b1 == 0xA0 || b1 == 0xB7 || b1 == 0xAB || b1 == 0xBB);
  return !(b0 == 0xE2 && b1 == 0x80 && ((b2 >= 0x90 && b2 <= 0x95) || b2 == 0xA2 || b2 == 0xAF));
}

/* The unit is a date or time stamp and nothing else ("Monday, November
 * 18, 2019, 04:05 pm PT", "Updated: 19/11/2019 10:02", "Dienstag, 4.
 * Juni 2019, 15:54"): every letter group a date word, with a digit, and a
 * month or weekday name or digits joined by '/', '.', '-' or ':' (so a
 * bare number is no date). */
static int is_bare_date(const char *t, size_t n, size_t words) {
  if (words > 12) return 0;
  /* no digit, no date (most short lines: the words are not looked up) */
  size_t d = 0;
  while (d < n && !is_digit(t[d])) d++;
  if (d == n) return 0;
  int digit = 0, month_or_day = 0, joined = 0;
  for (size_t k = 0; k < n;) {
    if (date_letter(t, n, k)) {
      size_t e = k;
      while (e < n && date_letter(t, n, e)) e++;
      int d = date_word(t + k, e - k);
      if (!d) return 0;
      month_or_day |= d == 2;
      k = e;
      continue;
    }
    digit |= is_digit(t[k]);
    if (k > 0 && k + 1 < n && is_digit(t[k - 1]) && is_digit(t[k + 1]) && strchr("/.-:", t[k])) joined = 1;
    k++;
  }
  return digit && (month_or_day || joined);
}

/* Whether t (n bytes) starts with one of words, ASCII case ignored, the
 * word ending at a byte that is no ASCII letter. */
static int starts_with_word(const char *t, size_t n, const char *const *words) {
  for (size_t w = 0; words[w]; w++) {
    size_t m = strlen(words[w]);
    if (n >= m && strncasecmp(t, words[w], m) == 0 && (n == m || !(((t[m] | 0x20) >= 'a' && (t[m] | 0x20) <= 'z'))))
      return 1;
  }
  return 0;
}

/* A caption that ends in its picture's credit: "Protesters in the
 * square (Image: Getty)", "(Photo: Jo Lee/AP)". */
static int is_credit_tail(const char *t, size_t n, size_t words) {
  static const char *const heads[] = {"image",  "images", "photo",    "photos", "picture", "pic",
                                      "credit", "foto",   "ap photo", "getty",  NULL};
  while (n && (t[n - 1] == ' ' || t[n - 1] == '.')) n--;
  if (words > 60 || !n || t[n - 1] != ')') return 0;
  size_t k = n - 1;
  while (k > 0 && t[k - 1] != '(' && t[k - 1] != ')') k--;
  if (k == 0 || t[k - 1] != '(') return 0;
  while (k < n && t[k] == ' ') k++;
  return starts_with_word(t + k, n - k, heads);
}

/* The phrases of a list sorted by their first byte (the unsigned
 * byte, as folded_first gives it) that start with first: the first of
 * them, the list's NULL when none does; they run while their first byte
 * is first. Most of a page's lines start with none of a long list's
 * letters (docs/experiments/benchmarks-content-stage.md, "The element
 * after a pointer"). */
static const char *const *phrases_from(const char *const *list, size_t n, char first) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((unsigned char)list[mid][0] < (unsigned char)first) lo = mid + 1;
    else hi = mid;
  }
  return list + lo;
}
#define PHRASES_FROM(list, first) phrases_from(list, sizeof list / sizeof *list - 1, first)

/* The lead-ins of is_read_more, sorted by their first byte
 * (phrases_from). */
static const char *const READ_MORE_LEADS[] = {
    "also read",
    "auch lesen",
    "czytaj te\305\274",
    "czytaj tak\305\274e",
    "czytaj wi\304\231cej",
    "don't miss",
    "don\342\200\231t miss",
    "dowiedz si\304\231 wi\304\231cej",
    "leggi anche",
    "lesen sie auch",
    "lesen sie hier",
    "lesen sie mehr",
    "lire aussi",
    "leia tamb\303\251m",
    "leia mais",
    "lee tambi\303\251n",
    "lees ook",
    "lea tambi\303\251n",
    "lea m\303\241s",
    "lea adem\303\241s",
    "leer m\303\241s",
    "lee m\303\241s",
    "le puede interesar",
    "more",
    "mehr lesen",
    "mehr dazu",
    "mehr zum thema",
    "mira tambi\303\251n",
    "mir\303\241 tambi\303\251n",
    "mehr themen",
    "przeczytaj te\305\274",
    "przeczytaj tak\305\274e",
    "puedes ver",
    "read more",
    "read also",
    "related",
    "recommended",
    "see more",
    "see also",
    "siehe auch",
    "saiba mais",
    "te puede interesar",
    "tambi\303\251n te puede interesar",
    "veja tamb\303\251m",
    "vea tambi\303\251n",
    "ver tambi\303\251n",
    "weiterlesen",
    "zum weiterlesen",
    "zobacz te\305\274",
    "zobacz tak\305\274e",
    "\303\240 lire aussi",
    "\304\214t\304\233te tak\303\251",
    "\320\247\320\270\321\202\320\260\320\271\321\202\320\265 \321\202\320\260\320\272\320\266\320\265",
    "\320\241\320\274\320\276\321\202\321\200\320\270\321\202\320\265 \321\202\320\260\320\272\320\266\320\265",
    NULL};

/* "Read more: …", "RELATED: …", "Czytaj też: …", "À lire aussi » …": a
 * pointer to another story, its lead-in ended by a colon or a guillemet.
 * Lead-ins as equals_folded compares them; Cyrillic ones are written as a
 * sentence starts them, since only Latin letters are folded. */
static int is_read_more(const char *t, size_t n, size_t words) {
  /* each lead-in is at most 27 bytes, then its colon or guillemet */
  if (words > 40 || (!memchr(t, ':', n < 30 ? n : 30) && !memchr(t, 0xBB, n < 30 ? n : 30))) return 0;
  char first = folded_first(t[0]);
  for (const char *const *h = PHRASES_FROM(READ_MORE_LEADS, first); *h && **h == first; h++) {
    size_t m = strlen(*h), k = m;
    if (n <= m || !equals_folded(t, m, *h)) continue;
    if (k < n && t[k] == ' ') k++;
    if (k < n && (t[k] == ':' || (k + 1 < n && (unsigned char)t[k] == 0xC2 && (unsigned char)t[k + 1] == 0xBB)))
      return 1;
  }
  return 0;
}

/* The headings of is_pointer_heading, sorted by their first byte
 * (phrases_from). */
static const char *const POINTER_HEADINGS[] = {
    "about the author",
    "auch interessant",
    "articles similaires",
    "articles li\303\251s",
    "art\303\255culos relacionados",
    "articoli correlati",
    "artigos relacionados",
    "beliebte beitr\303\244ge",
    "beliebte beitr\303\244ge zum thema",
    "czytaj te\305\274",
    "czytaj tak\305\274e",
    "das k\303\266nnte sie auch interessieren",
    "das k\303\266nnte dich auch interessieren",
    "empfohlene beitr\303\244ge",
    "editor's picks",
    "gerelateerde artikelen",
    "ilgili haberler",
    "lesen sie auch",
    "lire aussi",
    "lee tambi\303\251n",
    "leggi anche",
    "leia tamb\303\251m",
    "lees ook",
    "l\303\244s ocks\303\245",
    "lea tambi\303\251n",
    "le puede interesar",
    "more on this topic",
    "more on this story",
    "more stories",
    "mehr zum thema",
    "mehr zu diesem thema",
    "mir\303\241 tambi\303\251n",
    "mira tambi\303\251n",
    "mehr themen",
    "noticias relacionadas",
    "not\303\255cias relacionadas",
    "notas relacionadas",
    "otras noticias",
    "potrebbe interessarti",
    "passend zum thema",
    "podobne artyku\305\202y",
    "polecane artyku\305\202y",
    "powi\304\205zane artyku\305\202y",
    "related",
    "related articles",
    "related posts",
    "related stories",
    "related news",
    "related content",
    "related links",
    "related coverage",
    "related topics",
    "related reading",
    "recommended for you",
    "read next",
    "relaterade artiklar",
    "recommended reading",
    "sur le m\303\252me sujet",
    "saiba mais",
    "souvisej\303\255c\303\255 \304\215l\303\241nky",
    "schon gelesen",
    "te puede interesar",
    "tambi\303\251n te puede interesar",
    "ti potrebbe interessare",
    "te recomendamos",
    "verwandte artikel",
    "vous aimerez aussi",
    "veja tamb\303\251m",
    "verwandte themen",
    "vea tambi\303\251n",
    "weitere artikel",
    "weitere beitr\303\244ge",
    "weitere themen",
    "weiterf\303\274hrende links",
    "you may also like",
    "you might also like",
    "you may also be interested in",
    "you might be interested in",
    "zobacz te\305\274",
    "zobacz tak\305\274e",
    "\303\244hnliche beitr\303\244ge",
    "\303\244hnliche artikel",
    "\303\244hnliche themen",
    "\303\274ber den autor",
    "\303\240 lire aussi",
    "\303\240 lire \303\251galement",
    "\303\240 voir aussi",
    "\304\214t\304\233te tak\303\251",
    "\320\247\320\270\321\202\320\260\320\271\321\202\320\265 \321\202\320\260\320\272\320\266\320\265",
    "\320\237\320\276\321\205\320\276\320\266\320\270\320\265 \321\201\321\202\320\260\321\202\321\214\320\270",
    "\345\273\266\344\274\270\351\230\205\350\257\273",
    "\346\216\250\350\215\220\351\230\205\350\257\273",
    "\347\233\270\345\205\263\351\230\205\350\257\273",
    "\347\233\270\345\205\263\346\226\260\351\227\273",
    "\347\233\270\345\205\263\346\226\207\347\253\240",
    "\351\226\242\351\200\243\350\250\230\344\272\213",
    NULL};

/* A heading that points away from the article, whole: "Related
 * articles", "Ähnliche Beiträge", "À lire aussi", "About the author",
 * "Czytaj też", "相关阅读" (the languages of the function-word lists and
 * the web's next largest), without the colon is_read_more needs. */
static int is_pointer_heading(const char *t, size_t n, size_t words) {
  if (words > 6) return 0;
  while (n && (t[n - 1] == ' ' || t[n - 1] == ':' || t[n - 1] == '.' || t[n - 1] == '?')) n--;
  if (n >= 3 && (unsigned char)t[n - 3] == 0xE2 && (unsigned char)t[n - 2] == 0x80 && (unsigned char)t[n - 1] == 0xA6)
    n -= 3; /* "…" */
  while (n && *t == ' ') {
    t++;
    n--;
  }
  /* the phrases are 7 to 40 bytes */
  if (n < 7 || n > 40) return 0;
  char first = folded_first(t[0]);
  for (const char *const *h = PHRASES_FROM(POINTER_HEADINGS, first); *h && **h == first; h++)
    if (equals_folded(t, n, *h)) return 1;
  return 0;
}

/* "Also on HuffPost:", "More from Reuters:", "Related:" alone: a line
 * that only announces the pointers after it. */
static int is_pointer_lead(const char *t, size_t n, size_t words) {
  static const char *const heads[] = {
      "also on ", "related on ", "more on ", "more from ", "lesen sie auch ", "weitere beitr\303\244ge ", NULL};
  while (n && t[n - 1] == ' ') n--;
  if (!n || words > 6 || t[n - 1] != ':') return 0;
  if (is_read_more(t, n, words)) return 1;
  char first = folded_first(t[0]);
  for (size_t h = 0; heads[h]; h++)
    if (heads[h][0] == first && n > strlen(heads[h]) && folded_prefix(t, strlen(heads[h]), heads[h])) return 1;
  return 0;
}

/* A pointer heading or a lead-in alone: the line points away and holds
 * nothing else. */
static int only_points_away(const char *t, size_t n, size_t words) {
  return is_pointer_heading(t, n, words) || is_pointer_lead(t, n, words);
}

int tbk_unit_whole_pointer(const tbk_page *page, const tbk_units *ux, size_t i) {
  const tbk_page_view pv = tbk_page_view_of(page);
  return only_points_away(pv.text + ux->u[i].start, ux->u[i].end - ux->u[i].start, ux->u[i].words);
}

int tbk_rules_phrases_sorted(void) {
  const char *const *lists[] = {READ_MORE_LEADS, POINTER_HEADINGS};
  for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
    for (const char *const *h = lists[l]; h[0] && h[1]; h++)
      if ((unsigned char)h[0][0] > (unsigned char)h[1][0]) return 0;
  return 1;
}

int tbk_unit_furniture(const tbk_page *page, const tbk_units *ux, size_t i) {
  const tbk_page_view pv = tbk_page_view_of(page);
  const char *t = pv.text + ux->u[i].start;
  size_t n = ux->u[i].end - ux->u[i].start, words = ux->u[i].words;
  if (words <= 25 && is_script_notice(t, n)) return TBK_FURNITURE_NOTICE;
  if (words <= 3 && is_ad_label(t, n)) return TBK_FURNITURE_NOTICE;
  if (is_signup_heading(page, ux, i, t, n)) return TBK_FURNITURE_NOTICE;
  if (in_consent_notice(page, ux, i)) return TBK_FURNITURE_NOTICE;
  if (tbk_unit_box_beside(page, ux, i)) return TBK_FURNITURE_BOX;
  if (is_tag_line(t, n, words) || is_archive_count(page, ux, i, t, n)) return TBK_FURNITURE_LINKS;
  if (only_points_away(t, n, words) || is_read_more(t, n, words)) return TBK_FURNITURE_LINKS;
  if (is_caption(page, ux, i) || is_credit_tail(t, n, words)) return TBK_FURNITURE_CAPTION;
  if (is_bare_date(t, n, words)) return TBK_FURNITURE_DATE;
  return 0;
}

int tbk_unit_outside_body(const tbk_page *page, const tbk_units *ux, size_t i) {
  const tbk_page_view pv = tbk_page_view_of(page);
  static const char *const meta[] = {"byline", "author", "dateline", "timestamp", "date", "published", NULL};
  static const char *const lead[] = {"standfirst",  "dek",     "subtitle", "summary",
                                     "description", "excerpt", "teaser",   NULL};
  if (pv.nodes[ux->u[i].elem].tag == TBK_TAG_H1) return TBK_OUTSIDE_META;
  if (ux->u[i].words <= 25 && named_near(page, ux, i, NAMES_META, meta)) return TBK_OUTSIDE_META;
  /* An article's <header> holds its headline, dek, byline and date. */
  if (ux->u[i].words < 40 && (ux->u[i].anc_flags >> UA_HEADER & 1)) return TBK_OUTSIDE_META;
  return ux->u[i].words < 40 && named_near(page, ux, i, NAMES_LEAD, lead) ? TBK_OUTSIDE_LEAD : 0;
}
