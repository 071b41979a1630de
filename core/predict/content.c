/* The content stage after scoring: the keep / remove decision and the
 * renderings of the combined stage. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "predict_internal.h"
#include "units.h"
#include "util.h"

const tbk_content_options tbk_content_options_default = TBK_CONTENT_OPTIONS_DEFAULT;

void tbk_content_options_init(tbk_content_options *o) { *o = tbk_content_options_default; }

/* Column of a vocabulary word among a scope's attribute columns. */
static long vocab_col(const tbk_units *ux, size_t scope_first, const char *word) {
  for (size_t v = 0; v < tbk_fx_attr_vocab_n; v++)
    if (strcmp(tbk_fx_attr_vocab[v], word) == 0)
      return (long)(scope_first + ux->opt.attr_dims + v); /* the units' vocabulary starts with this one */
  return -1;
}

/* The unit is (a part of) the page's headline: most of the title's words
 * are in it, and most of its words are the title's. */
static int is_headline(const tbk_units *ux, size_t i) {
  const double *v = tbk_units_fixed(ux, i);
  return v[UX_TITLE_COVER] >= 0.5 && v[UX_TITLE_SHARE] >= 0.5;
}

/* User comments are page-specific text that no main-text gold counts
 * (and the gold sets the content stage learns from rarely have any):
 * what sits under an element named comment, or after a heading that
 * opens the thread (units_container.c), goes, unless the user keeps
 * comments, and then it stays unless it is mostly links (reply /
 * report rows). Measured in EVALUATION.md. */
static int in_comments(const tbk_units *ux, size_t i, const tbk_content_options *o) {
  return ux->body.thread[i] && !(o->keep_comments && tbk_units_fixed(ux, i)[UX_LINK_RATIO] < 0.5);
}

/* Whether a rule other than the comment thread's removes unit i. */
static int fixed_rule_out(const tbk_page *page, const tbk_units *ux, size_t i, const tbk_content_options *o, int lead) {
  const tbk_page_view pv = tbk_page_view_of(page);
  const double *v = tbk_units_fixed(ux, i);
  const char *t = pv.text + ux->u[i].start;
  size_t n = ux->u[i].end - ux->u[i].start;
  if ((!o->title || o->body) && is_headline(ux, i)) return 1;
  /* A short dateline or byline (a <time> element, "By Ann Smith") is
   * page furniture to two of the three gold sets and neutral to the
   * third: measured in EVALUATION.md. */
  if (v[UX_WORDS] <= 15) {
    int byline = n > 3 && (t[0] == 'B' || t[0] == 'b') && t[1] == 'y' && t[2] == ' ';
    if (byline || (ux->u[i].anc_flags >> UA_TIME & 1)) return 1;
  }
  if (tbk_unit_furniture(page, ux, i)) return 1;
  if (ux->body.gallery && ux->body.gallery[i]) return 1; /* a photo gallery's caption or credit */
  if (ux->body.pointed && ux->body.pointed[i]) return 1; /* after a line that only points away */
  if (!o->body) return 0;
  int out = tbk_unit_outside_body(page, ux, i);
  return out == TBK_OUTSIDE_META || (out == TBK_OUTSIDE_LEAD && lead);
}

/* Whether a fixed rule removes unit i, whatever the model scored it. */
static int ruled_out(const tbk_page *page, const tbk_units *ux, size_t i, const tbk_content_options *o, int lead) {
  return in_comments(ux, i, o) || fixed_rule_out(page, ux, i, o, lead);
}

/* --body keeps nothing outside the body the page declares: whether unit
 * i lies outside it (a page that declares none has nothing outside). */
static int outside_declared_body(const tbk_units *ux, const tbk_content_options *o, size_t i) {
  return o->body && ux->body.containers && !ux->body.in[i];
}

/* Brings unit i back unless a rule removes it (keep[i] 2, as the rules'
 * steps mark it); whether it is kept. */
static int bring_back(const tbk_page *page, const tbk_units *ux, const tbk_content_options *o, int lead,
                      unsigned char *keep, size_t i) {
  keep[i] = ruled_out(page, ux, i, o, lead) ? 2 : 1;
  return keep[i] == 1;
}

/* A run of at most this many paragraphs the model removed between two
 * kept units of the same parent element is the article's too. */
#define GAP_MAX 5

/* Paragraphs the model removed in the middle of the article (a short
 * question of an interview, a one-line aside): a <p> whose previous and
 * next kept units share its parent element, with at most GAP_MAX such
 * paragraphs between them, is kept unless a rule removes it. On every
 * gold set most of the words this brings back are gold text
 * (EVALUATION.md "Content stage"). keep[i] is 2 for a unit a rule
 * removed. */
static void fill_gaps(const tbk_page *page, const tbk_units *ux, const tbk_content_options *o, int lead,
                      unsigned char *keep) {
  const tbk_page_view pv = tbk_page_view_of(page);
  for (size_t i = 1; i < ux->n; i++) {
    if (keep[i] || keep[i - 1] != 1) continue;
    uint32_t parent = pv.nodes[ux->u[i - 1].elem].parent;
    size_t j = i;
    while (j < ux->n && j - i <= GAP_MAX && !keep[j] && pv.nodes[ux->u[j].elem].tag == TBK_TAG_P &&
           pv.nodes[ux->u[j].elem].parent == parent)
      j++;
    if (j == i || j - i > GAP_MAX || j >= ux->n || keep[j] != 1 || pv.nodes[ux->u[j].elem].parent != parent) continue;
    for (size_t k = i; k < j; k++) keep[k] = !ruled_out(page, ux, k, o, lead);
    i = j;
  }
}

/* The child of parent on the way up from node x that is, or holds, a
 * <table> the walk passes (UINT32_MAX: x is not under parent, or no table
 * on the way). */
static uint32_t table_child_of(const tbk_page_view *pv, uint32_t x, uint32_t parent) {
  int table = 0;
  for (; x != TBK_NONE; x = pv->nodes[x].parent) {
    table |= pv->nodes[x].tag == TBK_TAG_TABLE;
    if (pv->nodes[x].parent == parent) return table ? x : UINT32_MAX;
  }
  return UINT32_MAX;
}

/* The <td> or <th> holding node x inside table (x itself or an
 * ancestor below table), UINT32_MAX when none. */
static uint32_t cell_of(const tbk_page_view *pv, uint32_t x, uint32_t table) {
  for (; x != TBK_NONE && x != table; x = pv->nodes[x].parent)
    if (pv->nodes[x].tag == TBK_TAG_TD || pv->nodes[x].tag == TBK_TAG_TH) return x;
  return UINT32_MAX;
}

/* Whether units [i, j) of table read as a grid of data: two rows or more
 * of two cells or more hold at least half of them. A column of links or
 * headlines laid out by a table (a menu, related stories) is no grid. */
static int data_grid(const tbk_page_view *pv, const tbk_units *ux, size_t i, size_t j, uint32_t table) {
  size_t rows = 0, in_grid = 0;
  uint32_t last_row = TBK_NONE;
  for (size_t k = i; k < j; k++) {
    uint32_t c = cell_of(pv, ux->u[k].elem, table);
    if (c == UINT32_MAX || pv->nodes[c].sib_count < 2) continue;
    in_grid++;
    if (pv->nodes[c].parent != last_row) rows++;
    last_row = pv->nodes[c].parent;
  }
  return rows >= 2 && 2 * in_grid >= j - i;
}

/* A data table's units [i, j) the model removed are kept, but for those
 * that are mostly links or that a rule removes. */
static void keep_table_units(const tbk_page *page, const tbk_units *ux, const tbk_content_options *o, int lead,
                             unsigned char *keep, size_t i, size_t j) {
  for (size_t k = i; k < j; k++)
    if (!keep[k]) keep[k] = tbk_units_fixed(ux, k)[UX_LINK_RATIO] < 0.5 && !ruled_out(page, ux, k, o, lead);
}

/* A table among the article's paragraphs (standings, a price list, a
 * spec sheet) is the article's: the model learned its cells from tables
 * of navigation and scores, and removes them, row by row. When the units
 * of one table child of an element sit between two kept units of that
 * element, those the model removed are kept, unless a rule removes them
 * or they are mostly links. A layout table holding the
 * article is no child between kept siblings, and is left alone. */
static void fill_tables(const tbk_page *page, const tbk_units *ux, const tbk_content_options *o, int lead,
                        unsigned char *keep) {
  const tbk_page_view pv = tbk_page_view_of(page);
  for (size_t i = 1; i < ux->n; i++) {
    /* the units' ancestor flags say which are in a table at all */
    if (keep[i - 1] != 1 || !(ux->u[i].anc_flags >> UA_TABLE & 1)) continue;
    uint32_t parent = pv.nodes[ux->u[i - 1].elem].parent;
    uint32_t table = table_child_of(&pv, ux->u[i].elem, parent);
    if (table == UINT32_MAX) continue;
    size_t j = i;
    while (j < ux->n && table_child_of(&pv, ux->u[j].elem, parent) == table) j++;
    if (j >= ux->n || keep[j] != 1 || pv.nodes[ux->u[j].elem].parent != parent || !data_grid(&pv, ux, i, j, table))
      continue;
    keep_table_units(page, ux, o, lead, keep, i, j);
    i = j;
  }
}

/* A data table a few removed units away from the kept text on either side
 * (a section's heading over it, a line under it: a sports story's stats
 * table per position, a review's spec sheet after its subheading) is the
 * article's too, when both kept neighbours share an element below the
 * <body> (the article's, not the page's two columns). fill_tables asks
 * for kept neighbours right beside the table in its own parent. Measured
 * in docs/experiments/evaluation-content-stage.md ("Data tables a
 * heading away"). */
#define TABLE_GAP 3
static void fill_tables_near(const tbk_page *page, const tbk_units *ux, const tbk_content_options *o, int lead,
                             unsigned char *keep) {
  const tbk_page_view pv = tbk_page_view_of(page);
  for (size_t i = 0; i < ux->n; i++) {
    if (keep[i] || !(ux->u[i].anc_flags >> UA_TABLE & 1)) continue;
    uint32_t table = ux->u[i].elem;
    while (table != TBK_NONE && pv.nodes[table].tag != TBK_TAG_TABLE) table = pv.nodes[table].parent;
    if (table == TBK_NONE) continue;
    size_t j = i, before = i, after;
    while (j < ux->n && tbk_view_holds(&pv, table, ux->u[j].elem)) j++;
    while (before > 0 && i - before < TABLE_GAP && keep[before - 1] != 1) before--;
    for (after = j; after < ux->n && after - j < TABLE_GAP && keep[after] != 1;) after++;
    size_t next = j - 1; /* the loop goes on after the table */
    if (before == 0 || keep[before - 1] != 1 || after >= ux->n || keep[after] != 1) {
      i = next;
      continue;
    }
    uint32_t common = ux->u[before - 1].elem;
    while (common != TBK_NONE && !tbk_view_holds(&pv, common, ux->u[after].elem)) common = pv.nodes[common].parent;
    if (common != TBK_NONE && pv.nodes[common].tag != TBK_TAG_BODY && pv.nodes[common].parent != TBK_NONE &&
        data_grid(&pv, ux, i, j, table))
      keep_table_units(page, ux, o, lead, keep, i, j);
    i = next;
  }
}

/* Where an article's text is not: its asides, navigation, footers, forms,
 * figures and headers. */
#define OUTSIDE_BODY \
  (1u << UA_ASIDE | 1u << UA_NAV | 1u << UA_FOOTER | 1u << UA_FORM | 1u << UA_FIGURE | 1u << UA_HEADER)

/* A paragraph the model removed inside the declared body is the body's,
 * unless it sits in an aside, navigation, footer, form,
 * figure or header there or is mostly links (a teaser box, a related
 * list, a caption the rules did not name). */
static int body_paragraph(const tbk_page *page, const tbk_units *ux, size_t i) {
  const tbk_page_view pv = tbk_page_view_of(page);
  return pv.nodes[ux->u[i].elem].tag == TBK_TAG_P && tbk_units_fixed(ux, i)[UX_LINK_RATIO] < 0.5 &&
         !(ux->u[i].anc_flags & OUTSIDE_BODY);
}

/* The article body the page declares (an itemprop=articleBody element):
 * when it holds at least half the words kept so far, its paragraphs the
 * model removed come back (body_paragraph) unless a rule but the comment
 * thread's removes them (a gallery's captions and credits go; an opinion
 * section named comment is still the text the page declares: the
 * content-stage log, "The declared body keeps the rules"), and what comes after it
 * (related stories, the author's box, tags) is removed, under --body all
 * that is outside it. The text before it stays in the default (the
 * headline, standfirst and byline that two of the three gold sets count).
 * On every gold set almost no gold text is outside it (EVALUATION.md
 * "Content stage"). keep[i] as in fill_gaps: 2 = a rule removed it.
 * Returns whether the declared body decided. */
static int body_container(const tbk_page *page, const tbk_units *ux, const tbk_content_options *o, int lead,
                          unsigned char *keep) {
  const tbk_units_body *b = &ux->body;
  if (!b->containers) return 0;
  double inside = 0, all = 0;
  size_t last = 0;
  for (size_t i = 0; i < ux->n; i++) {
    if (b->in[i]) last = i;
    if (keep[i] != 1) continue;
    all += ux->u[i].words;
    if (b->in[i]) inside += ux->u[i].words;
  }
  if (inside < 0.5 * all) return 0;
  for (size_t i = 0; i < ux->n; i++) {
    if (keep[i] == 1 && !b->in[i] && (i > last || o->body) && !(o->title && !o->body && is_headline(ux, i)))
      keep[i] = 0;
    else if (keep[i] == 0 && b->in[i] && body_paragraph(page, ux, i))
      keep[i] = fixed_rule_out(page, ux, i, o, lead) ? 2 : 1;
  }
  return 1;
}

/* Prose: a unit of several sentences, hardly any link, that the template
 * stage calls the page's own. */
#define PROSE_WORDS 25
static int is_prose(const tbk_units *ux, size_t i) {
  const double *v = tbk_units_fixed(ux, i);
  return v[UX_WORDS] >= PROSE_WORDS && v[UX_SENTENCES] >= 2 && v[UX_LINK_RATIO] < 0.2 && v[UX_TMPL_P] < 0.5;
}
/* Removing a paragraph of the page's own prose costs a reader more than
 * keeping one, and the content stage, trained on news layouts, is least
 * sure of such paragraphs on pages unlike them: prose is removed only
 * when its boilerplate probability is this much above the threshold.
 * Measured on the held-out models, margins 0.1 to 0.4
 * (docs/experiments/evaluation-content-stage.md, "Long prose needs firmer
 * evidence"). */
#define PROSE_MARGIN 0.1

/* Prose the model keeps with confidence: the evidence article_element
 * weighs. */
static int sure_prose(const tbk_units *ux, const double *unit_p, const tbk_content_options *o,
                      const unsigned char *keep, size_t i) {
  return keep[i] == 1 && unit_p[i] < o->threshold && is_prose(ux, i);
}

/* The parent element of more than half of the sure prose words, in two
 * paragraphs or more (a weighted majority vote, then its count), or
 * TBK_NONE. */
static uint32_t majority_parent(const tbk_page_view *pv, const tbk_units *ux, const double *unit_p,
                                const tbk_content_options *o, const unsigned char *keep, double all) {
  uint32_t parent = TBK_NONE;
  double lead_by = 0;
  for (size_t i = 0; i < ux->n; i++) {
    if (!sure_prose(ux, unit_p, o, keep, i)) continue;
    double w = ux->u[i].words;
    uint32_t a = pv->nodes[ux->u[i].elem].parent;
    if (a == parent) {
      lead_by += w;
    } else if (lead_by >= w) {
      lead_by -= w;
    } else {
      parent = a;
      lead_by = w - lead_by;
    }
  }
  double in = 0;
  size_t units = 0;
  for (size_t i = 0; parent != TBK_NONE && i < ux->n; i++)
    if (sure_prose(ux, unit_p, o, keep, i) && pv->nodes[ux->u[i].elem].parent == parent) {
      in += ux->u[i].words;
      units++;
    }
  return units >= 2 && in > 0.5 * all ? parent : TBK_NONE;
}

/* The deepest element holding more than half of the sure prose words, in
 * two paragraphs or more; [*lo, *hi) its units. Every such element holds
 * the unit where the running sum of those words passes half, so the walk
 * goes up from that unit's element, widening the range as it goes. */
static uint32_t majority_element(const tbk_page_view *pv, const tbk_units *ux, const double *unit_p,
                                 const tbk_content_options *o, const unsigned char *keep, double all, size_t *lo,
                                 size_t *hi) {
  size_t m = 0;
  for (double c = 0; m < ux->n; m++)
    if (sure_prose(ux, unit_p, o, keep, m) && (c += ux->u[m].words) > 0.5 * all) break;
  if (m >= ux->n) return TBK_NONE;
  size_t l = m, h = m + 1, units = 1;
  double in = ux->u[m].words;
  for (uint32_t a = ux->u[m].elem; a != TBK_NONE; a = pv->nodes[a].parent) {
    for (; l > 0 && tbk_view_holds(pv, a, ux->u[l - 1].elem); l--)
      if (sure_prose(ux, unit_p, o, keep, l - 1)) in += ux->u[l - 1].words, units++;
    for (; h < ux->n && tbk_view_holds(pv, a, ux->u[h].elem); h++)
      if (sure_prose(ux, unit_p, o, keep, h)) in += ux->u[h].words, units++;
    if (units >= 2 && in > 0.5 * all) {
      *lo = l;
      *hi = h;
      return a;
    }
  }
  return TBK_NONE;
}

/* The page's own text of any form: a paragraph, a list item, a
 * definition, a table cell, code (at any depth of a <pre>: Sphinx's
 * source pages wrap each class in a <div> inside it), of five words or
 * more (a line of text, not a label), not mostly links, not what the
 * template stage calls the site's, not where body_paragraph's are not,
 * nor in a quotation (an embedded post: a tweet, an Instagram caption).
 * With main_divs, a <div> of text in the page's declared <main> too
 * (Javadoc writes its entries so): outside <main> such a div is as often
 * a sidebar's box (a blog's "about me"). */
#define TEXT_WORDS 5
static int own_text(const tbk_page *page, const tbk_units *ux, size_t i, int main_divs) {
  const tbk_page_view pv = tbk_page_view_of(page);
  const double *v = tbk_units_fixed(ux, i);
  int tag = pv.nodes[ux->u[i].elem].tag;
  int text_tag = tag == TBK_TAG_P || tag == TBK_TAG_LI || tag == TBK_TAG_DD || tag == TBK_TAG_DT || tag == TBK_TAG_TD ||
                 (ux->u[i].anc_flags >> UA_PRE & 1) ||
                 (main_divs && tag == TBK_TAG_DIV && (ux->u[i].anc_flags >> UA_MAIN & 1));
  return text_tag && ux->u[i].words >= TEXT_WORDS && v[UX_LINK_RATIO] < 0.5 && v[UX_TMPL_P] < 0.5 &&
         !(ux->u[i].anc_flags & (OUTSIDE_BODY | 1u << UA_BLOCKQUOTE));
}

/* Own text that is not prose (a tutorial's steps in list items, a
 * reference's entries in definitions and table cells, its code, its
 * one-line paragraphs) is the page's unless the model is near sure it is
 * not (unit_p >= fallback_threshold: a list of related stories, a
 * disclaimer). The stage, trained on news, removes such text on pages
 * unlike news. In a definition list the model's certainty is no
 * evidence: the stage learned from news pages' teaser lists and comment
 * threads that a <dl> is boilerplate (anc.dl alone moves the logit
 * +3.8), and a reference's entries are definitions. Measured in
 * docs/experiments/evaluation-content-stage.md ("The article's other
 * text"). */
static int article_text(const tbk_page *page, const tbk_units *ux, const double *unit_p, const tbk_content_options *o,
                        size_t i, int main_divs) {
  return own_text(page, ux, i, main_divs) && (unit_p[i] < o->fallback_threshold || (ux->u[i].anc_flags >> UA_DL & 1));
}

/* The article's own element: the deepest element holding more than half
 * of the prose the model keeps with confidence, in two paragraphs or more.
 * A long text unlike the news the stage learned from (a 4,000-word
 * tutorial, a manual's chapter in sections, an encyclopedia article) has
 * paragraphs that its features (a parent of many words, a deep position)
 * argue against, though they sit beside those it keeps. Its paragraphs of
 * prose and its other text (article_text) before the last paragraph kept
 * come back, unless a rule removes them or they sit in an aside,
 * navigation, footer, form, figure or header (body_paragraph); those
 * after it stay out (a podcast's or newsletter's plug, an author's
 * note). When that element is the <body> (the kept prose spread over the
 * page), only a parent of more than half of it counts, and only its own
 * paragraphs. Measured in
 * docs/experiments/evaluation-content-stage.md ("The article's element").
 * Returns how many came back. */
static size_t article_element(const tbk_page *page, const tbk_units *ux, const double *unit_p,
                              const tbk_content_options *o, int lead, unsigned char *keep) {
  const tbk_page_view pv = tbk_page_view_of(page);
  double all = 0;
  for (size_t i = 0; i < ux->n; i++)
    if (sure_prose(ux, unit_p, o, keep, i)) all += ux->u[i].words;
  if (!all) return 0;
  size_t lo = 0, hi = ux->n;
  uint32_t a = majority_element(&pv, ux, unit_p, o, keep, all, &lo, &hi);
  int children_only = a == TBK_NONE || pv.nodes[a].tag == TBK_TAG_BODY || pv.nodes[a].parent == TBK_NONE;
  if (children_only) {
    a = majority_parent(&pv, ux, unit_p, o, keep, all);
    lo = 0;
    hi = ux->n;
  }
  if (a == TBK_NONE) return 0;
  size_t last = lo;
  for (size_t i = lo; i < hi; i++)
    if (sure_prose(ux, unit_p, o, keep, i) && (!children_only || pv.nodes[ux->u[i].elem].parent == a)) last = i;
  size_t back = 0;
  for (size_t i = lo; i < last; i++) {
    if (keep[i] || !((is_prose(ux, i) && body_paragraph(page, ux, i)) || article_text(page, ux, unit_p, o, i, 0)))
      continue;
    if (children_only ? pv.nodes[ux->u[i].elem].parent != a : !tbk_view_holds(&pv, a, ux->u[i].elem)) continue;
    back += bring_back(page, ux, o, lead, keep, i);
  }
  return back;
}

/* Whether unit i, kept, is evidence that the page keeps its text: prose
 * the model scored boilerplate (kept by PROSE_MARGIN or a fill) is not,
 * since one such paragraph would hide that the rest was lost. */
static int sure_kept(const tbk_units *ux, const double *unit_p, const tbk_content_options *o, const unsigned char *keep,
                     size_t i) {
  return keep[i] == 1 && !(unit_p[i] >= o->threshold && is_prose(ux, i));
}

/* A list item the template stage calls the site's (a menu, a list of the
 * site's promises kept beside an essay the model lost) is no evidence of
 * kept words either; a paragraph is, whatever that stage says (a blog
 * host's posts score 0.7 there). */
static int site_item(const tbk_page *page, const tbk_units *ux, size_t i) {
  return tbk_units_fixed(ux, i)[UX_TMPL_P] >= 0.5 && tbk_page_view_of(page).nodes[ux->u[i].elem].tag == TBK_TAG_LI;
}

/* The page-level check: the content stage learned news layouts, and on a
 * page unlike them (an encyclopedia article, a reference chapter, a report
 * in list items, a layout table) it can remove the whole main text while
 * keeping a caption, a teaser or a reference list. When the kept prose and
 * the kept words are both under o->prose_share of the page's prose (prose
 * a rule removes, a comment thread, not counted), the page has lost its
 * text: its prose comes back unless a rule removes it, with what the model
 * was unsure of (as on a page that keeps almost nothing) and the short
 * paragraphs between (fill_gaps), but for boxes beside the text
 * (tbk_unit_side_box: a short photo post's blog has its "about me" as the
 * page's only prose). The kept words count too because a news story of
 * one-sentence paragraphs keeps its text without keeping prose. keep[] as
 * in fill_gaps. */
static void keep_prose(const tbk_page *page, const tbk_units *ux, const double *unit_p, const tbk_content_options *o,
                       int lead, unsigned char *keep) {
  double kept = 0, kept_prose = 0, prose = 0;
  for (size_t i = 0; i < ux->n; i++) {
    int sure = sure_kept(ux, unit_p, o, keep, i);
    if (sure && !site_item(page, ux, i)) kept += ux->u[i].words;
    /* prose a rule removes (a comment the model removed too) is not the
     * page's text */
    if (keep[i] == 2 || !is_prose(ux, i) || (!keep[i] && ruled_out(page, ux, i, o, lead))) continue;
    prose += ux->u[i].words;
    if (sure) kept_prose += ux->u[i].words;
  }
  if (!prose || kept_prose >= o->prose_share * prose || kept >= o->prose_share * prose) return;
  for (size_t i = 0; i < ux->n; i++)
    if (!keep[i] && (is_prose(ux, i) || unit_p[i] < o->fallback_threshold) && !tbk_unit_side_box(page, ux, i))
      bring_back(page, ux, o, lead, keep, i);
  fill_gaps(page, ux, o, lead, keep);
}

/* The page-level check again, on all of the page's own text (own_text,
 * with the text divs of its <main>), after the article's element has had
 * its say: a page of little prose (a class's reference of one-line
 * entries, a man page's options, a tutorial of short steps) has no prose
 * for keep_prose to weigh, and no article's element when the model kept
 * under two paragraphs of it. When the kept words are under
 * o->text_share of that text (what a rule removes not counted), the page
 * has lost its text: that text comes back where article_text would bring
 * it back, but for a box beside it named so (a sidebar's "about me", a
 * teaser of other posts: counted, since the page shows them, yet not its
 * text), then the short paragraphs between (fill_gaps). The share is
 * higher than the prose check's: a reference keeps its description's
 * prose and loses its entries, a third of its text kept. Measured in
 * docs/experiments/evaluation-content-stage.md ("The page's own text",
 * "Half the own text"). keep[] as in fill_gaps. */
static void keep_text(const tbk_page *page, const tbk_units *ux, const double *unit_p, const tbk_content_options *o,
                      int lead, unsigned char *keep) {
  double kept = 0, text = 0;
  for (size_t i = 0; i < ux->n; i++) {
    if (sure_kept(ux, unit_p, o, keep, i) && !site_item(page, ux, i)) kept += ux->u[i].words;
    if (keep[i] == 2 || !own_text(page, ux, i, 1) || (!keep[i] && ruled_out(page, ux, i, o, lead))) continue;
    text += ux->u[i].words;
  }
  if (!text || kept >= o->text_share * text) return;
  for (size_t i = 0; i < ux->n; i++)
    if (!keep[i] && article_text(page, ux, unit_p, o, i, 1) && !tbk_unit_side_box(page, ux, i))
      bring_back(page, ux, o, lead, keep, i);
  fill_gaps(page, ux, o, lead, keep);
}

/* A thread's posts: the records beside the one holding the page's
 * longest prose the model keeps with confidence are decided as that one
 * was (tbk_records_like): what takes the way its kept text takes comes
 * back, unless a rule removes it, it is mostly links or the template
 * stage calls it the site's. A forum's replies, an article's other
 * sections and a recipe's other steps share their first one's markup;
 * the stage, trained on news, kept the first and a line here and there of
 * the others. Measured in docs/experiments/evaluation-content-stage.md
 * ("A thread's posts"). keep[] as in fill_gaps. */
typedef struct records_ctx {
  const tbk_page *page;
  const tbk_units *ux;
  const tbk_content_options *o;
  int lead;
  unsigned char *keep;
} records_ctx;
static void take_record_unit(void *ctx, size_t i) {
  records_ctx *c = ctx;
  const double *v = tbk_units_fixed(c->ux, i);
  if (c->keep[i] || v[UX_LINK_RATIO] >= 0.5 || v[UX_TMPL_P] >= 0.5) return;
  if (outside_declared_body(c->ux, c->o, i)) return;
  bring_back(c->page, c->ux, c->o, c->lead, c->keep, i);
}
static void keep_records(const tbk_page *page, const tbk_units *ux, const double *unit_p, const tbk_content_options *o,
                         int lead, unsigned char *keep) {
  size_t anchor = SIZE_MAX;
  for (size_t i = 0; i < ux->n; i++)
    if (sure_prose(ux, unit_p, o, keep, i) && (anchor == SIZE_MAX || ux->u[i].words > ux->u[anchor].words)) anchor = i;
  records_ctx c = {page, ux, o, lead, keep};
  if (anchor != SIZE_MAX) tbk_records_like(page, ux, anchor, keep, take_record_unit, &c);
}

/* The recipe the page declares: its JSON-LD names a schema.org Recipe's
 * ingredients and steps, which the stage, trained on news, removes as a
 * list beside the text (the template stage scores an ingredient table
 * 0.8-0.99 on a page of its own). A unit of two words or more that is
 * part of a declared step, or that holds a declared ingredient of two
 * words or more and little else, comes back unless a rule removes it or
 * it is mostly links. Measured in
 * docs/experiments/evaluation-content-stage.md ("The declared recipe"). */
static int in_recipe(const char *recipe, size_t len, const char *t, size_t n, size_t words) {
  if (words < 2) return 0;
  for (const char *s = recipe; s < recipe + len; s += strlen(s) + 1) {
    size_t sn = strlen(s);
    if (sn >= n ? memmem(s, sn, t, n) != NULL : (2 * sn + 16 >= n && strchr(s, ' ') && memmem(t, n, s, sn))) return 1;
  }
  return 0;
}
static void keep_recipe(const tbk_page *page, const tbk_units *ux, const tbk_content_options *o, int lead,
                        unsigned char *keep) {
  const tbk_page_view pv = tbk_page_view_of(page);
  for (size_t i = 0; pv.recipe_len && i < ux->n; i++) {
    if (keep[i] || tbk_units_fixed(ux, i)[UX_LINK_RATIO] >= 0.5) continue;
    if (in_recipe(pv.recipe, pv.recipe_len, pv.text + ux->u[i].start, ux->u[i].end - ux->u[i].start, ux->u[i].words))
      bring_back(page, ux, o, lead, keep, i);
  }
}

/* A heading over kept text: an <h2>-<h6> the model removed whose next
 * unit is kept text (not another heading) inside the heading's parent
 * element, after the page's first kept unit, is that text's section
 * title (a manual's "Returns", a Javadoc member's name, a story's
 * intertitle). It comes back unless a rule removes it (pointer headings,
 * a thread's title), it is mostly links, the template stage calls it the
 * site's, or (--body) it lies outside the declared body. Measured in
 * docs/experiments/evaluation-content-stage.md ("The heading of kept
 * text"). */
static int is_heading(int tag) { return tag >= TBK_TAG_H1 && tag <= TBK_TAG_H6; }
static void keep_headings(const tbk_page *page, const tbk_units *ux, const tbk_content_options *o, int lead,
                          unsigned char *keep) {
  const tbk_page_view pv = tbk_page_view_of(page);
  size_t i = 0;
  while (i < ux->n && keep[i] != 1) i++;
  for (i++; i + 1 < ux->n; i++) {
    uint32_t h = ux->u[i].elem, next = ux->u[i + 1].elem;
    if (keep[i] || keep[i + 1] != 1 || pv.nodes[h].tag == TBK_TAG_H1 || !is_heading(pv.nodes[h].tag)) continue;
    if (is_heading(pv.nodes[next].tag) || !tbk_view_holds(&pv, pv.nodes[h].parent, next)) continue;
    const double *v = tbk_units_fixed(ux, i);
    if (v[UX_LINK_RATIO] >= 0.5 || v[UX_TMPL_P] >= 0.5) continue;
    if (outside_declared_body(ux, o, i)) continue;
    bring_back(page, ux, o, lead, keep, i);
  }
}

/* The page's largest unit of its own text (the template stage's, not a
 * comment, not furniture a rule removes) of at least min words: the
 * article of a page that keeps nothing else, written as one element (a
 * post of dated links in one <p>), or SIZE_MAX. */
static size_t largest_own_unit(const tbk_page *page, const tbk_units *ux, const tbk_content_options *o, int lead,
                               const unsigned char *keep, size_t min) {
  size_t best = SIZE_MAX;
  for (size_t i = 0; i < ux->n; i++) {
    size_t words = ux->u[i].words;
    if (keep[i] || words < min || (best != SIZE_MAX && words <= ux->u[best].words)) continue;
    if (tbk_units_fixed(ux, i)[UX_TMPL_P] >= 0.5 || in_comments(ux, i, o) || ruled_out(page, ux, i, o, lead)) continue;
    best = i;
  }
  return best;
}

static size_t kept_words(const tbk_units *ux, const unsigned char *keep) {
  size_t kept = 0;
  for (size_t i = 0; i < ux->n; i++)
    if (keep[i]) kept += ux->u[i].words;
  return kept;
}

/* A page that keeps almost nothing has almost always lost its article (a
 * post made of a short list, a layout no training site had): then
 * whatever is not near-certain boilerplate stays, the rules ignored (a
 * photo post's gold counts its captions and dates) but for text in a
 * widget or among related items (a blog's "about me" is never its post:
 * "Widgets and related items" in the content-stage log). Measured on the
 * leave-one-dataset-out models (EVALUATION.md "Content stage"). Still
 * almost nothing: the model is sure (>= fallback_threshold) of every
 * unit, yet a page is rarely all template. Its largest unit of its own
 * text, when that alone is a page's worth, is kept (EVALUATION.md "Main
 * text on every kind of page": the page that vanished). keep[] 0 or 1. */
static void last_resort(const tbk_page *page, const tbk_units *ux, const double *unit_p, const tbk_content_options *o,
                        int lead, unsigned char *keep) {
  if (kept_words(ux, keep) >= o->min_kept_words) return;
  for (size_t i = 0; i < ux->n; i++)
    if (unit_p[i] < o->fallback_threshold && ((o->title && !o->body) || !is_headline(ux, i)) &&
        !in_comments(ux, i, o) && !tbk_unit_box_beside(page, ux, i))
      keep[i] = 1;
  if (kept_words(ux, keep) >= o->min_kept_words) return;
  size_t own = largest_own_unit(page, ux, o, lead, keep, o->min_kept_words);
  if (own != SIZE_MAX) keep[own] = 1;
}

const char *tbk_content_rule_name(int rule) {
  static const char *const names[TBK_RULE_COUNT] = {
      [TBK_RULE_MODEL] = "the model",
      [TBK_RULE_MARGIN] = "the prose margin",
      [TBK_RULE_COMMENTS] = "a comment section",
      [TBK_RULE_FIXED] = "a fixed rule",
      [TBK_RULE_GAP] = "the gap rule",
      [TBK_RULE_TABLE] = "a data table",
      [TBK_RULE_DECLARED] = "the declared body",
      [TBK_RULE_PAGE_PROSE] = "the page-level check on prose",
      [TBK_RULE_ARTICLE] = "the article's element",
      [TBK_RULE_PAGE_TEXT] = "the page-level check on own text",
      [TBK_RULE_RECORDS] = "records like the article's",
      [TBK_RULE_RECIPE] = "the recipe the page declares",
      [TBK_RULE_HEADINGS] = "the heading of kept text",
      [TBK_RULE_BODY_START] = "the body's start",
      [TBK_RULE_LAST_RESORT] = "the last resort",
  };
  return rule >= 0 && rule < TBK_RULE_COUNT ? names[rule] : "?";
}

/* why[i]: the rule in the low bits, whether the unit was kept after the
 * last step in WAS_KEPT; a unit whose keep flipped since is the step's. */
#define WAS_KEPT 0x80u
static void attribute(const tbk_units *ux, const unsigned char *keep, unsigned char *why, int rule) {
  for (size_t i = 0; why && i < ux->n; i++) {
    unsigned now = keep[i] == 1;
    if (now != !!(why[i] & WAS_KEPT)) why[i] = (unsigned char)(rule | (now ? WAS_KEPT : 0));
  }
}

/* pointed[u] = 1 for the units of the element right after a line that
 * only points away (tbk_unit_whole_pointer: "Also on HuffPost:" over a
 * slideshow of other stories, "Related articles" over their teasers),
 * that element its next sibling, unless it is a heading (the next
 * section's) or holds the page's first <h1>.
 * Only the next element: everything after such a line in its parent took
 * a story's second half after an Italian "Leggi anche" and the author's
 * bio a gold set counts (docs/experiments/evaluation-content-stage.md,
 * "A pointer heading ends its section" and "The element after a
 * pointer"). */
static void mark_pointed(const tbk_page *page, const tbk_units *ux) {
  const tbk_page_view pv = tbk_page_view_of(page);
  unsigned char *pointed = ux->body.pointed;
  if (!pointed) return;
  memset(pointed, 0, ux->n);
  const uint32_t h1 = ux->body.h1;
  for (size_t i = 0; i < ux->n; i++) {
    if (!tbk_unit_whole_pointer(page, ux, i)) continue;
    uint32_t e = ux->u[i].elem, parent = pv.nodes[e].parent, next = pv.nodes[e].end;
    if (pv.nodes[e].tag == TBK_TAG_H1 || parent == TBK_NONE || next >= pv.n_nodes || pv.nodes[next].parent != parent ||
        is_heading(pv.nodes[next].tag))
      continue;
    if (h1 != TBK_NONE && tbk_view_holds(&pv, next, h1)) continue;
    for (size_t j = i + 1; j < ux->n && ux->u[j].elem < pv.nodes[next].end; j++)
      if (ux->u[j].elem >= next) pointed[j] = 1;
  }
}

void tbk_content_decide(const tbk_page *page, const tbk_units *ux, const double *unit_p, const tbk_content_options *o,
                        unsigned char *keep) {
  tbk_content_decide_why(page, ux, unit_p, o, keep, NULL);
}

void tbk_content_decide_why(const tbk_page *page, const tbk_units *ux, const double *unit_p,
                            const tbk_content_options *o, unsigned char *keep, unsigned char *why) {
  const tbk_page_view pv = tbk_page_view_of(page);
  long comment = vocab_col(ux, ux->attr_anc, "comment");
  mark_pointed(page, ux);
  /* A standfirst is one or two short elements; when more of the text the
   * model keeps is named so ("text-description" around every paragraph),
   * the name is the body's. */
  int lead = 1;
  if (o->body) {
    size_t leads = 0;
    for (size_t i = 0; i < ux->n; i++)
      leads += unit_p[i] < o->threshold && tbk_unit_outside_body(page, ux, i) == TBK_OUTSIDE_LEAD;
    lead = leads <= 2;
  }
  for (size_t i = 0; i < ux->n; i++) {
    const double *v = tbk_units_fixed(ux, i);
    int k = unit_p[i] < o->threshold || (is_prose(ux, i) && unit_p[i] < o->threshold + PROSE_MARGIN);
    /* Under an element whose class or id has the token comment(s) the
     * model's keep is overruled (kept comments stay whatever it says).
     * Unlike the thread finder this counts <body> and the headline's
     * container too, so the checks after it may bring such text back (a
     * <body class="... comments_on">): measured better than either alone
     * (EVALUATION.md "Main text on every kind of page"). */
    int named = comment >= 0 && tbk_units_has_col(ux, i, (size_t)comment);
    if (named) k = o->keep_comments && v[UX_LINK_RATIO] < 0.5;
    keep[i] = (unsigned char)(k ? (ruled_out(page, ux, i, o, lead) ? 2 : 1) : 0);
    if (why) {
      int model = unit_p[i] < o->threshold, kept = keep[i] == 1;
      int rule = kept == model  ? TBK_RULE_MODEL
                 : named        ? TBK_RULE_COMMENTS
                 : keep[i] == 2 ? TBK_RULE_FIXED
                                : TBK_RULE_MARGIN;
      why[i] = (unsigned char)(rule | (kept ? WAS_KEPT : 0));
    }
  }
  fill_gaps(page, ux, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_GAP);
  fill_tables(page, ux, o, lead, keep);
  fill_tables_near(page, ux, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_TABLE);
  int declared = body_container(page, ux, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_DECLARED);
  /* The page-level check judges what the model kept; what the article's
   * element brings back would hide from it that the article was lost. A
   * page that declares its body has named that element itself. */
  if (o->prose_share > 0) keep_prose(page, ux, unit_p, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_PAGE_PROSE);
  if (!declared && article_element(page, ux, unit_p, o, lead, keep)) fill_gaps(page, ux, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_ARTICLE);
  if (!declared && o->text_share > 0) keep_text(page, ux, unit_p, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_PAGE_TEXT);
  keep_records(page, ux, unit_p, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_RECORDS);
  keep_recipe(page, ux, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_RECIPE);
  keep_headings(page, ux, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_HEADINGS);
  for (size_t i = 0; i < ux->n; i++) keep[i] = keep[i] == 1;
  /* The body starts at its first paragraph: headings before it are the
   * headline's and standfirst's. */
  for (size_t i = 0; o->body && i < ux->n; i++) {
    if (!keep[i]) continue;
    int tag = pv.nodes[ux->u[i].elem].tag;
    if (!is_heading(tag)) break;
    keep[i] = 0;
  }
  attribute(ux, keep, why, TBK_RULE_BODY_START);
  last_resort(page, ux, unit_p, o, lead, keep);
  attribute(ux, keep, why, TBK_RULE_LAST_RESORT);
  for (size_t i = 0; why && i < ux->n; i++) why[i] &= (unsigned char)~WAS_KEPT;
}

/* The headline in the title: sites append or prepend their name with a
 * separator ("Story - Site", "Site | Story"); the longest part is the
 * story's. Writes into out (NUL-terminated). */
static void headline(const char *title, char *out, size_t cap) {
  static const char *const seps[] = {
      " | ", " - ", " \xe2\x80\x93 ", " \xe2\x80\x94 ", " :: ", " \xc2\xbb ", " \xc2\xb7 ", " \xe2\x80\xa2 ", " : "};
  const char *best = title;
  size_t best_len = strlen(title);
  for (size_t k = 0; k < sizeof seps / sizeof *seps; k++) {
    if (!strstr(title, seps[k])) continue;
    size_t sl = strlen(seps[k]);
    const char *s = title;
    size_t longest = 0;
    const char *lp = title;
    for (;;) {
      const char *e = strstr(s, seps[k]);
      size_t n = e ? (size_t)(e - s) : strlen(s);
      if (n > longest) {
        longest = n;
        lp = s;
      }
      if (!e) break;
      s = e + sl;
    }
    best = lp;
    best_len = longest;
    break;
  }
  if (best_len >= cap) best_len = cap - 1;
  memcpy(out, best, best_len);
  out[best_len] = '\0';
}

tbk_status tbk_render_units_text(const tbk_page *page, const tbk_units *ux, const unsigned char *keep,
                                 const tbk_content_options *o, tbk_buf *out, tbk_page_summary *summary) {
  const tbk_page_view pv = tbk_page_view_of(page);
  tbk_page_summary s = {0};
  s.blocks = ux->n;
  int have_headline = 0;
  for (size_t i = 0; i < ux->n; i++) {
    s.chars += ux->u[i].chars;
    if (!keep[i]) {
      s.template_blocks++;
      s.template_chars += ux->u[i].chars;
    } else if (is_headline(ux, i)) {
      have_headline = 1;
    }
  }
  if (o->title && !o->body && ux->title[0] && !have_headline) {
    char h[sizeof ux->title];
    headline(ux->title, h, sizeof h);
    if (h[0] && (tbk_buf_puts(out, h) || tbk_buf_append(out, "\n", 1))) return TBK_ERR_NOMEM;
  }
  for (size_t i = 0; i < ux->n; i++) {
    if (!keep[i]) continue;
    if (tbk_buf_append(out, pv.text + ux->u[i].start, ux->u[i].end - ux->u[i].start) || tbk_buf_append(out, "\n", 1))
      return TBK_ERR_NOMEM;
  }
  if (tbk_buf_reserve(out, 0)) return TBK_ERR_NOMEM;
  out->data[out->len] = '\0';
  if (summary) *summary = s;
  return TBK_OK;
}

tbk_status tbk_render_units_html(const tbk_page *page, const tbk_units *ux, const unsigned char *keep,
                                 const double *unit_p, int annotate, tbk_buf *out) {
  tbk_html_edit e = {0};
  tbk_status st = TBK_ERR_NOMEM;
  if (annotate) return tbk_render_units_annotated(page, ux, keep, unit_p, out);
  size_t nd = 0;
  for (size_t i = 0; i < ux->n; i++)
    if (!keep[i]) nd += ux->u[i].run_end - ux->u[i].run_first;
  tbk_html_drop *drop = malloc((nd ? nd : 1) * sizeof *drop);
  if (!drop) return TBK_ERR_NOMEM;
  nd = 0;
  for (size_t i = 0; i < ux->n; i++)
    if (!keep[i])
      for (uint32_t r = ux->u[i].run_first; r < ux->u[i].run_end; r++) drop[nd++] = (tbk_html_drop){r, 1};
  e.drop = drop;
  e.n_drop = nd;
  st = tbk_page_html(page, &e, out);
  free(drop);
  return st;
}

int tbk_unit_record(const tbk_page *page, const tbk_units *ux, const char *page_id, const double *unit_p,
                    const unsigned char *keep, size_t i, tbk_buf *out) {
  const tbk_page_view pv = tbk_page_view_of(page);
  const tbk_unit_rec *u = &ux->u[i];
  const char *text = pv.text + u->start, *path = ux->paths.data + u->path_off;
  size_t len = u->end - u->start, sn = tbk_utf8_cut(text, len, 200);
  const char *tag = tbk_node_name(&pv.nodes[u->elem]);
  return tbk_buf_puts(out, "{\"page\":") || tbk_buf_json_str(out, page_id, strlen(page_id)) ||
                 tbk_buf_puts(out, ",\"path\":") || tbk_buf_json_str(out, path, strlen(path)) ||
                 tbk_buf_puts(out, ",\"tag\":") || tbk_buf_json_str(out, tag, strlen(tag)) ||
                 tbk_buf_puts(out, ",\"p_template\":") || tbk_buf_fixed4(out, tbk_units_fixed(ux, i)[UX_TMPL_P]) ||
                 tbk_buf_puts(out, ",\"p_content\":") || tbk_buf_fixed4(out, 1.0 - unit_p[i]) ||
                 tbk_buf_puts(out, keep[i] ? ",\"content\":true,\"chars\":" : ",\"content\":false,\"chars\":") ||
                 tbk_buf_u64(out, u->chars) || tbk_buf_puts(out, ",\"text\":") || tbk_buf_json_str(out, text, sn)
             ? -1
             : 0;
}

tbk_status tbk_render_units_jsonl(const tbk_page *page, const tbk_units *ux, const char *page_id, const double *unit_p,
                                  const unsigned char *keep, tbk_buf *out) {
  if (tbk_units_paths(ux, page)) return TBK_ERR_NOMEM;
  for (size_t i = 0; i < ux->n; i++)
    if (tbk_unit_record(page, ux, page_id, unit_p, keep, i, out) || tbk_buf_puts(out, "}\n")) return TBK_ERR_NOMEM;
  return TBK_OK;
}
