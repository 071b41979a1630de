#define _GNU_SOURCE /* memmem */
/* The content decision's rules (core/predict/content.c) on hand-made
 * pages: every unit is scored as content (probability of boilerplate 0),
 * so whatever is removed is removed by a rule, whatever the model. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "predict_internal.h"
#include "tbk_internal.h"

static const char PAGE[] =
    "<html><head><title>Harbour bridge opens - Coast News</title></head><body>"
    "<article><h1>Harbour bridge opens</h1><h2>Three years of work end</h2>"
    "<div class=\"article-byline\">Jo Lee, harbour reporter</div>"
    "<p class=\"standfirst\">The city's longest crossing carries its first cars.</p>"
    "<header><p>From the harbour desk</p></header>"
    "<p>The new harbour bridge opened to traffic on Monday after three years of work.</p>"
    "<figure><img src=\"a.jpg\"><figcaption>The bridge at dawn on its first day.</figcaption>"
    "<span>Photo: Jo Lee</span></figure>"
    "<div class=\"wp-caption\"><img src=\"b.jpg\"><p class=\"wp-caption-text\">Crowds on the deck.</p></div>"
    "<p class=\"photo-credit\">Reuters / Sam Cole</p>"
    "<p>This slideshow requires JavaScript.</p>"
    "<p>Engineers said the deck can carry twice the load of the old crossing.</p>"
    "<div class=\"text-description\"><p>Its two towers rise ninety metres above the water, and the cables that "
    "hold the deck were spun on site over eleven months by a crew of forty who worked through the winter "
    "storms, the rain and the long summer heat.</p></div>"
    "<figure class=\"wp-block-table\"><table><tr><td>Length in metres of the main span</td></tr></table>"
    "</figure>"
    "<figure><blockquote>It is the finest crossing on the coast, the mayor said.</blockquote></figure>"
    "<p>A paragraph that mentions JavaScript and enabling it, in a long sentence about the city's new "
    "traffic website, which lists the closures of every road near the bridge for the coming winter "
    "months and the detours drivers can take.</p>"
    "<div>Advertisement</div>"
    "<p>Monday, November 18, 2019, 04:05 pm PT</p>"
    "<p>Updated: 19/11/2019 10:02</p>"
    "<p>Dienstag, 4. Juni 2019, 15:54</p>"
    "<p>Publi\303\251 le 5 mars 2019 \303\240 10h30</p>"
    "<p>opublikowano: 7 kwietnia 2021</p>"
    "<p>martes, 3 de mayo de 2022 \302\267 23:57</p>"
    "<p>Mai 2019: 9.990 \342\202\254</p>"
    "<p>set /a n=1024</p>"
    "<h2>4.1\302\266</h2>"
    "<p>On May 4, 2019 the council voted for the bridge.</p>"
    "<h3>Sign up for our newsletter</h3>"
    "<h3>How the money was raised</h3>"
    "<p>Tags: bridges, harbour, traffic</p>"
    "<p>Drivers queue at the toll gate (Image: Getty )</p>"
    "<p>The toll rose by a third this year (in euros).</p>"
    "<p>Read more: Bridge tolls explained</p>"
    "<p>Related reading on the harbour's history is in the library.</p>"
    "<table><tr><td>Visitors</td><td>1192</td></tr></table>"
    "<ul><li><a href=\"/2019/09\">September (12)</a></li><li>Steel (40%) and concrete</li></ul>"
    "</article></body></html>";

typedef struct expect {
  const char *text;
  int kept;
} expect;

/* The unit whose text holds s, or (size_t)-1. */
static size_t find_unit(const tbk_page *p, tbk_units *ux, const char *s) {
  for (size_t i = 0; i < tbk_units_count(ux); i++) {
    tbk_unit u;
    tbk_units_get(ux, p, i, &u);
    if (u.text_len >= strlen(s) && memmem(u.text, u.text_len, s, strlen(s))) return i;
  }
  return (size_t)-1;
}

/* Decides the page with every unit scored content but those holding one
 * of the NULL-ended texts boiler (scored boilerplate with probability
 * p_boiler), and checks ex. */
/* The scores of p's units: boilerplate with probability p_boiler for
 * those holding one of the NULL-ended texts boiler, 0 for the rest. */
static double *boiler_scores(const tbk_page *p, tbk_units *ux, const char *const *boiler, double p_boiler) {
  size_t n = tbk_units_count(ux);
  double *up = calloc(n ? n : 1, sizeof *up);
  for (size_t b = 0; boiler && boiler[b]; b++) {
    size_t i = find_unit(p, ux, boiler[b]);
    CHECK(i != (size_t)-1);
    if (i != (size_t)-1) up[i] = p_boiler;
  }
  return up;
}

static void check_scored_at(const tbk_page *p, tbk_units *ux, const tbk_content_options *co, const char *const *boiler,
                            double p_boiler, const expect *ex, size_t n_ex) {
  size_t n = tbk_units_count(ux);
  double *up = boiler_scores(p, ux, boiler, p_boiler);
  unsigned char *keep = malloc(n ? n : 1);
  tbk_content_decide(p, ux, up, co, keep);
  /* the decision that names its rules is the same decision */
  unsigned char *keep2 = malloc(n ? n : 1), *why = malloc(n ? n : 1);
  tbk_content_decide_why(p, ux, up, co, keep2, why);
  CHECK(n == 0 || memcmp(keep, keep2, n) == 0);
  free(keep2);
  free(why);
  for (size_t e = 0; e < n_ex; e++) {
    size_t found = find_unit(p, ux, ex[e].text);
    CHECK(found != (size_t)-1);
    if (found == (size_t)-1) continue;
    if (keep[found] != ex[e].kept)
      fprintf(stderr, "unit \"%s\": kept %d, expected %d\n", ex[e].text, keep[found], ex[e].kept);
    CHECK_INT(keep[found], ex[e].kept);
  }
  free(keep);
  free(up);
}

static void check_scored(const tbk_page *p, tbk_units *ux, const tbk_content_options *co, const char *const *boiler,
                         const expect *ex, size_t n_ex) {
  check_scored_at(p, ux, co, boiler, 1, ex, n_ex);
}

static void check_units(const tbk_page *p, tbk_units *ux, const tbk_content_options *co, const expect *ex,
                        size_t n_ex) {
  check_scored(p, ux, co, NULL, ex, n_ex);
}

/* Paragraphs the model removes between kept paragraphs of the same parent
 * come back (at most five in a row, <p> only, unless a rule removes
 * them); the same under another parent, or a longer run, stays out. */
static const char GAPS[] = "<html><head><title>Gaps</title></head><body><div>"
                           "<p>The council met on Monday to discuss the harbour bridge and its tolls.</p>"
                           "<p>What did it decide?</p><p>Nothing yet.</p>"
                           "<p>Monday, November 18, 2019</p>"
                           "<p>The vote was moved to the next session of the council in spring.</p>"
                           "<div>A short aside in a div.</div>"
                           "<p>Members asked for more figures on the traffic the bridge will carry.</p>"
                           "</div><div><p>A paragraph under another parent.</p></div>"
                           "<div><p>One more kept paragraph about the bridge and its long history here.</p>"
                           "<p>r1</p><p>r2</p><p>r3</p><p>r4</p><p>r5</p><p>r6</p>"
                           "<p>The last kept paragraph of the page about the bridge and the harbour.</p></div>"
                           "<div><p>Yet another paragraph about the bridge, kept by the model.</p></div>"
                           "</body></html>";

static void check_gaps(void) {
  tbk_units *ux = NULL;
  tbk_page *p = NULL;
  CHECK_INT(tbk_units_new(NULL, &ux, NULL), TBK_OK);
  CHECK_INT(tbk_page_parse(GAPS, sizeof GAPS - 1, NULL, &p, NULL), TBK_OK);
  if (!ux || !p) return;
  CHECK_INT(tbk_units_page(ux, p, NULL, NULL), TBK_OK);
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const char *const boiler[] = {"What did it decide",
                                       "Nothing yet",
                                       "Monday, November 18",
                                       "A short aside",
                                       "another parent",
                                       "r1",
                                       "r2",
                                       "r3",
                                       "r4",
                                       "r5",
                                       "r6",
                                       NULL};
  static const expect ex[] = {
      {"What did it decide", 1},
      {"Nothing yet", 1},
      {"Monday, November 18", 0},
      {"A short aside", 0},
      {"another parent", 0},
      {"r1", 0},
      {"r6", 0},
      {"The vote was moved", 1},
  };
  check_scored(p, ux, &co, boiler, ex, sizeof ex / sizeof *ex);
  tbk_page_free(p);
  tbk_units_free(ux);
}

/* Decides page src (every unit scored content but those holding one of
 * boiler, scored p_boiler) and checks ex. */
/* src parsed into *p and its units into *ux (each checked): whether both
 * are there. The caller frees both. */
static int page_units(const char *src, tbk_page **p, tbk_units **ux) {
  *p = NULL;
  *ux = NULL;
  CHECK_INT(tbk_units_new(NULL, ux, NULL), TBK_OK);
  CHECK_INT(tbk_page_parse(src, strlen(src), NULL, p, NULL), TBK_OK);
  if (!*ux || !*p) return 0;
  CHECK_INT(tbk_units_page(*ux, *p, NULL, NULL), TBK_OK);
  return 1;
}

static void check_page_at(const char *src, const tbk_content_options *co, const char *const *boiler, double p_boiler,
                          const expect *ex, size_t n_ex) {
  tbk_units *ux;
  tbk_page *p;
  if (page_units(src, &p, &ux)) check_scored_at(p, ux, co, boiler, p_boiler, ex, n_ex);
  tbk_page_free(p);
  tbk_units_free(ux);
}

static void check_page(const char *src, const tbk_content_options *co, const char *const *boiler, const expect *ex,
                       size_t n_ex) {
  check_page_at(src, co, boiler, 1, ex, n_ex);
}

/* The default options without the page-level checks (prose, own text)
 * and the fallback of a page keeping few words: the rules one at a time. */
static tbk_content_options without_page_checks(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  co.prose_share = co.text_share = 0;
  return co;
}

/* The article body the page declares (itemprop="articleBody"): a
 * paragraph the model removed in it comes back (not one in an aside),
 * what follows it goes, and under --body what precedes it too; nothing
 * changes when it holds less than half the kept words. */
static const char DECLARED[] =
    "<html><head><title>Ferry strike ends - Coast News</title></head><body>"
    "<h1>Ferry strike ends</h1>"
    "<p>Crews return to work after a week of talks with the port.</p>"
    "<div itemprop=\"articleBody\">"
    "<p>The ferry crews voted on Friday to end the strike that had stopped every crossing for a week.</p>"
    "<p>The port agreed to hire twelve more deck hands before the summer season begins.</p>"
    "<p>Talks had stalled twice.</p>"
    "<aside><p>Most read: the tide tables</p></aside></div>"
    "<div><p>Bus drivers plan a strike of their own next month in the city.</p></div>"
    "</body></html>";

/* The same body declared around a single short paragraph only. */
static const char DECLARED_SMALL[] =
    "<html><head><title>Ferry strike ends</title></head><body>"
    "<p>The ferry crews voted on Friday to end the strike that had stopped every crossing for a week.</p>"
    "<p>The port agreed to hire twelve more deck hands before the summer season begins.</p>"
    "<div itemprop=\"articleBody\"><p>Talks went on all week.</p></div>"
    "<p>Bus drivers plan a strike of their own next month in the city.</p>"
    "</body></html>";

/* Every paragraph of the body in an element named like a standfirst. */
static const char NAMED_BODY[] = "<html><head><title>Harbour</title></head><body><h1>Harbour</h1><div>"
                                 "<div class=\"text-description\"><p>The harbour reopened on Monday.</p></div>"
                                 "<div class=\"text-description\"><p>Boats queued at the mouth since dawn.</p></div>"
                                 "<div class=\"text-description\"><p>The first ferry left at nine.</p></div>"
                                 "</div></body></html>";

/* A declared body holding an opinion section (an element named comment)
 * and a gallery of credited photos: the paragraphs the model removed
 * come back, the gallery's captions and credits (rules) do not. */
static const char DECLARED_GALLERY[] =
    "<html><head><title>Why the ferry matters</title></head><body><h1>Why the ferry matters</h1>"
    "<div itemprop=\"articleBody\">"
    "<p>Every town on the coast has lost its ferry but ours, and this spring the council wants ours gone too.</p>"
    "<div class=\"section comment\">"
    "<p>The ferry is more than a way across the water: it is how the town learned to wait together.</p>"
    "<p>Without it the harbour would be a border, and the two shores two towns that never meet.</p>"
    "<ul><li><p>The ferry leaves the quay at dawn</p><p>Reuters/Jo Lee</p></li>"
    "<li><p>Passengers on the upper deck</p><p>AFP/Getty Images</p></li>"
    "<li><p>The crew ties up at night</p><p>Reuters/Sam Cole</p></li></ul>"
    "<p>Keep the ferry running, and the town keeps its shape for another hundred years.</p>"
    "</div></div></body></html>";

static void check_declared(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const char *const boiler[] = {"Talks had stalled", "Most read", NULL};
  static const expect deflt[] = {
      {"Ferry strike ends", 1}, {"Crews return", 1}, {"The ferry crews voted", 1},
      {"twelve more", 1},       {"Bus drivers", 0},  {"Talks had stalled", 1},
      {"Most read", 0},
  };
  check_page(DECLARED, &co, boiler, deflt, sizeof deflt / sizeof *deflt);
  static const char *const small_boiler[] = {"Talks went on", NULL};
  static const expect small[] = {{"The ferry crews voted", 1}, {"Talks went on", 0}, {"Bus drivers", 1}};
  check_page(DECLARED_SMALL, &co, small_boiler, small, sizeof small / sizeof *small);
  co.body = 1;
  static const expect body[] = {
      {"Ferry strike ends", 0}, {"Crews return", 0}, {"The ferry crews voted", 1},
      {"twelve more", 1},       {"Bus drivers", 0},  {"Talks had stalled", 1},
      {"Most read", 0},
  };
  check_page(DECLARED, &co, boiler, body, sizeof body / sizeof *body);
  check_page(DECLARED_SMALL, &co, small_boiler, small, sizeof small / sizeof *small);
  /* three short "description" paragraphs are the body, not a standfirst */
  static const expect named[] = {{"The harbour reopened", 1}, {"Boats queued", 1}, {"The first ferry", 1}};
  check_page(NAMED_BODY, &co, NULL, named, sizeof named / sizeof *named);
  co.body = 0;
  static const char *const opinion[] = {"The ferry is more", "Without it the harbour", "The ferry leaves",
                                        "Reuters/Jo Lee",    "Passengers on",          "AFP/Getty",
                                        "The crew ties",     "Reuters/Sam Cole",       NULL};
  static const expect gallery[] = {{"Every town", 1},     {"The ferry is more", 1}, {"Without it the harbour", 1},
                                   {"Keep the ferry", 1}, {"The ferry leaves", 0},  {"Reuters/Jo Lee", 0},
                                   {"AFP/Getty", 0},      {"The crew ties", 0}};
  check_page(DECLARED_GALLERY, &co, opinion, gallery, sizeof gallery / sizeof *gallery);
}

/* An encyclopedia-like page: its long paragraphs in a layout table, a
 * reference list and a caption beside them. */
static const char PROSE[] =
    "<html><head><title>River Example</title></head><body><table><tr>"
    "<td><ul><li><a href=\"/a\">Main page</a></li><li><a href=\"/b\">Random article</a></li></ul></td><td>"
    "<div><h1>River Example</h1></div><div>"
    "<p>The river rises in the northern hills and flows south for nearly two hundred kilometres. Along its course "
    "it feeds three lakes, and its valley has been farmed since the bronze age.</p>"
    "<p>In the eighteenth century the lower valley was drained, and a canal was cut to carry grain to the port. "
    "The canal fell out of use after the railway opened, but its towpath survives as a footpath.</p>"
    "<p>Three mills stood on the river in the nineteenth century, and one of them still grinds flour for the "
    "bakeries of the town. The others were turned into houses after the second world war.</p>"
    "<p>The river floods most winters. A barrier built in the nineteen seventies protects the old town, but the "
    "meadows to the south are under water for weeks, which the wading birds that winter there welcome.</p>"
    "<p>Fishing rights on the upper river belong to an association founded in 1884. Its members stock the water "
    "with trout every spring and keep the banks clear of the alder that would otherwise choke them.</p></div>"
    "<div><p><a href=\"/x\">A linked paragraph of navigation that runs on for many words, naming every other "
    "river of the region.</a> <a href=\"/y\">And then some more of them, one after the other, as lists do.</a>"
    "</p></div>"
    "<div>The old mill near the source of the river, seen from the east bank.</div>"
    "<ol><li>Smith, J. Notes on the valley. Press, 1901.</li><li>Jones, K. The canal. Press, 1923.</li></ol>"
    "<div class=\"comments\"><p>I walked the towpath last summer and it was lovely all the way to the sea. The "
    "mill is closed on Mondays, so go on another day if you can.</p></div>"
    "</td></tr></table></body></html>";

/* A whole article wrapped in a <figure> (a publishing system's layout),
 * and a picture's figure with its caption in a <p>. */
static const char FIGURE_WRAP[] =
    "<html><head><title>Two exchanges compared</title></head><body><figure><div>"
    "<p>The first exchange is easy to use and suits beginners who want to buy a little of a coin and hold it for "
    "years. Its fees are higher than most, and its charts are simple, but its app is the clearest on the market.</p>"
    "<p>The second exchange is made for active traders. It offers limit and stop orders, advanced charts with "
    "dozens of indicators, and lower fees that fall further as a trader's monthly volume grows past set levels.</p>"
    "<p>Both keep most customer funds in cold storage, insure the rest against theft, and ask for a second factor "
    "at every login. Neither insures a customer's coins against a fall in price, which is the larger risk.</p>"
    "<p>Both let customers buy with a bank transfer or a debit card. Transfers are cheaper but take a few days to "
    "arrive; cards are instant and cost more. Withdrawals to a bank are free on both, within limits per day.</p>"
    "<p>For a beginner the first is the better start; a trader who outgrows it can move to the second with the "
    "same login, since the same company runs both, and keep the coins already bought without any transfer.</p>"
    "</div></figure><figure><img src=\"a.png\"><p>The first exchange's app on a phone.</p></figure>"
    "</body></html>";

/* A news story of one-sentence paragraphs (no prose of its own) beside a
 * long teaser the model removed. */
static const char SHORT_PARAS[] =
    "<html><head><title>Typhoon</title></head><body><div>"
    "<p>A typhoon hit the coast on Monday.</p><p>Six people died in the floods.</p>"
    "<p>Trains were stopped across the region.</p><p>Power was cut to forty thousand homes.</p>"
    "<p>Schools will stay shut until Wednesday.</p><p>The storm is moving north.</p></div>"
    "<div><p>Elsewhere in the news this week, the football season went on with a cold night in the north, and "
    "fans were told to dress warmly. Forecasters also expect a mild weekend in the south, with sun on Saturday.</p>"
    "</div></body></html>";

/* The page-level check: when the model removes the page's prose and keeps
 * less than 30 % of its words, the prose comes back (but not a linked
 * paragraph, nor a comment); a page keeping its prose, or the check
 * off, changes nothing. The fallback for pages keeping almost nothing
 * brings back what the model was unsure of, but not what a rule removes
 * (a comment). */
static void check_prose(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const char *const boiler[] = {
      "The river rises", "In the eighteenth century", "Three mills",          "The river floods",
      "Fishing rights",  "A linked paragraph",        "I walked the towpath", NULL};
  static const expect back[] = {
      {"The river rises", 1},    {"In the eighteenth century", 1},
      {"A linked paragraph", 0}, {"I walked the towpath", 0},
      {"Smith, J.", 1},          {"The old mill", 1},
  };
  check_page(PROSE, &co, boiler, back, sizeof back / sizeof *back);
  co.prose_share = co.text_share = 0;
  static const expect off[] = {{"The river rises", 0}, {"In the eighteenth century", 0}, {"Smith, J.", 1}};
  check_page(PROSE, &co, boiler, off, sizeof off / sizeof *off);
  /* the prose kept: the caption and references the model removed stay out */
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const char *const side[] = {"The old mill", "Smith, J.", "Jones, K.", NULL};
  static const expect kept[] = {{"The river rises", 1}, {"The old mill", 0}, {"Smith, J.", 0}};
  check_page(PROSE, &co, side, kept, sizeof kept / sizeof *kept);
  /* a page that keeps its text in short paragraphs has not lost it */
  static const char *const teaser[] = {"Elsewhere in the news", NULL};
  static const expect short_kept[] = {{"A typhoon hit", 1}, {"Elsewhere in the news", 0}};
  check_page(SHORT_PARAS, &co, teaser, short_kept, sizeof short_kept / sizeof *short_kept);
  /* a <figure> around the whole article holds no caption; a picture's does */
  static const expect wrap[] = {
      {"The first exchange is easy", 1}, {"Both keep most", 1}, {"The first exchange's app", 0}};
  check_page(FIGURE_WRAP, &co, NULL, wrap, sizeof wrap / sizeof *wrap);
  /* the fallback: everything unsure comes back but the comment */
  tbk_content_options_init(&co);
  co.prose_share = co.text_share = 0;
  static const char *const unsure[] = {"The river rises",    "In the eighteenth century",
                                       "Three mills",        "The river floods",
                                       "Fishing rights",     "I walked the towpath",
                                       "River Example",      "Smith, J.",
                                       "Jones, K.",          "The old mill",
                                       "A linked paragraph", NULL};
  static const expect fallback[] = {{"The river rises", 1}, {"The old mill", 1}, {"I walked the towpath", 0}};
  check_page_at(PROSE, &co, unsure, 0.8, fallback, sizeof fallback / sizeof *fallback);
}

/* A photo gallery inside an article: slides of a caption and its
 * agency credit go, the article around them stays, and so do the dek and
 * the lead photo's credit in the headline's element. With two credited
 * photos the page has no gallery: their captions stay. */
static const char GALLERY[] =
    "<html><head><title>Robots at the fair</title></head><body><article>"
    "<div><h1>Robots at the fair</h1><p>The machines drew the biggest crowds of the week.</p>"
    "<figure><figcaption>Lucas Jackson / Reuters</figcaption></figure></div>"
    "<p>The trade fair closed on Sunday after five days and a record number of visitors from abroad.</p>"
    "<div class=\"slides\">"
    "<div><p>A humanoid robot gestures during a demo at a stall in the main hall</p><p>Getty Images</p></div>"
    "<div><p>Engineers test a four-metre-tall manned robot in a lab near the coast</p><p>Jung Yeon-Je/AFP/Getty "
    "Images</p></div>"
    "<div><p>A saxophonist robot plays a tune for the visitors on the second day</p><p>Rex</p></div>"
    "<div><p>A concept car is shown at the exhibition in the south wing of the hall</p><p>Reuters</p></div>"
    "</div>"
    "<p>Organisers said the fair would return next year with twice the floor space for the robot makers.</p>"
    "</article></body></html>";

static const char TWO_PHOTOS[] =
    "<html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>"
    "<p>The harbour was dredged this spring for the first time in twenty years, the port said.</p>"
    "<div><p>The dredger at work in the harbour mouth</p><p>Getty Images</p></div>"
    "<p>The work took three months and cost less than the council had feared it would.</p>"
    "<div><p>The cleared channel seen from the lighthouse</p><p>Reuters</p></div>"
    "</article></body></html>";

static void check_gallery(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const expect gallery[] = {{"The machines drew", 1},
                                   {"Lucas Jackson / Reuters", 0},
                                   {"The trade fair closed", 1},
                                   {"A humanoid robot gestures", 0},
                                   {"Getty Images", 0},
                                   {"Engineers test", 0},
                                   {"Jung Yeon-Je/AFP/Getty Images", 0},
                                   {"A saxophonist robot", 0},
                                   {"A concept car", 0},
                                   {"Organisers said", 1}};
  check_page(GALLERY, &co, NULL, gallery, sizeof gallery / sizeof *gallery);
  static const expect two[] = {{"The dredger at work", 1}, {"The cleared channel", 1}, {"The work took", 1}};
  check_page(TWO_PHOTOS, &co, NULL, two, sizeof two / sizeof *two);
  /* every agency the credit line knows makes three credited slides a
   * gallery; a word that only starts like one ("Apex", "Reuter") does not */
  static const char *const credits[] = {
      "AFP",  "Alamy",     "Anadolu",      "ANSA",   "AP",          "Bloomberg", "Corbis", "dpa",
      "EFE",  "EPA",       "Getty Images", "iStock", "iStockphoto", "Reuters",   "Rex",    "Shutterstock",
      "Sipa", "WireImage", "Xinhua",       "Apex",   "Reuter",      NULL};
  for (size_t c = 0; credits[c]; c++) {
    char page[2048];
    const char *slide = "<div><p>Boats wait in the harbour mouth at dawn</p><p>Ann Lee/%s</p></div>";
    char one[256];
    snprintf(one, sizeof one, slide, credits[c]);
    snprintf(page, sizeof page,
             "<html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>"
             "<p>The harbour was dredged this spring for the first time in twenty years, the port said.</p>"
             "<div>%s%s%s</div><p>The work took three months and cost less than the council had feared.</p>"
             "</article></body></html>",
             one, one, one);
    int agency = c < 19;
    const expect ex[] = {{"Boats wait", !agency}, {"The work took", 1}};
    check_page(page, &co, NULL, ex, sizeof ex / sizeof *ex);
  }
}

/* A post written as one element: links to the author's essays between
 * <br>s (too many links for prose), beside a short sidebar and a comment. */
/* A table of data among the article's paragraphs is the article's, the
 * cells the model removed come back; a column of headlines laid out by a
 * table, or a grid after the article's last paragraph, stay out. */
static const char TABLES[] = "<html><head><title>Final standings</title></head><body><div>"
                             "<p>The season ended on Sunday with the closest finish in twenty years of the series.</p>"
                             "<table><tr><td>Pos.</td><td>Driver</td><td>Points</td></tr>"
                             "<tr><td>1</td><td>Kyle Bush</td><td>5040</td></tr>"
                             "<tr><td>2</td><td>Martin Truex</td><td>5035</td></tr></table>"
                             "<p>Three points separated the first three drivers after the last race of the year.</p>"
                             "<table><tr><td>Related: Truex signs for two more years</td></tr>"
                             "<tr><td>Related: The new calendar is out</td></tr></table>"
                             "<p>The champion will be honoured at the awards dinner in Las Vegas next month.</p>"
                             "<table><tr><td>Share</td><td>Print</td></tr><tr><td>Mail</td><td>Save</td></tr></table>"
                             "</div></body></html>";

/* Stats tables a section heading away from the kept text (a sports
 * story's, one per position); a table four removed lines from the text,
 * and one whose kept neighbours share only the <body>, stay out. */
static const char TABLES_APART[] =
    "<html><head><title>Snap counts</title></head><body><div class=\"entry\">"
    "<p>Below, we look at the snap counts and the stats of the defense in Sunday's win over the Steelers.</p>"
    "<div><h3>Defensive line</h3><div><table><tr><th>Player</th><th>Plays</th></tr>"
    "<tr><td>Myles Garrett</td><td>57</td></tr><tr><td>Larry Ogunjobi</td><td>63</td></tr></table></div></div>"
    "<ul><li>Garrett was the best player on the field until the last minute of the game.</li></ul>"
    "<div><h3>Linebackers</h3><p>Notes</p><p>More notes</p><p>Even more</p>"
    "<table><tr><th>Backer</th><th>Snaps</th></tr><tr><td>Joe Schobert</td><td>70</td></tr>"
    "<tr><td>Mack Wilson</td><td>44</td></tr></table></div>"
    "<p>Schobert called the defense all afternoon and made the stop that sealed the game.</p></div>"
    "<table><tr><th>Team</th><th>Wins</th></tr><tr><td>Ravens</td><td>8</td></tr>"
    "<tr><td>Bengals</td><td>5</td></tr></table>"
    "<div><p>The next game is at home against the Dolphins on Sunday afternoon, kick-off at one.</p></div>"
    "</body></html>";

static void check_tables(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const char *const apart[] = {
      "Defensive line", "Player",    "Plays",  "Myles Garrett", "57", "Linebackers", "Notes",
      "More notes",     "Even more", "Backer", "Joe Schobert",  "70", "Team",        "Ravens",
      "Bengals",        NULL};
  static const expect apart_ex[] = {{"Below, we look", 1}, {"Player", 1}, {"Myles Garrett", 1}, {"57", 1},
                                    {"Garrett was", 1},    {"Backer", 0}, {"Joe Schobert", 0},  {"Schobert called", 1},
                                    {"Ravens", 0},         {"Team", 0},   {"The next game", 1}};
  check_page(TABLES_APART, &co, apart, apart_ex, sizeof apart_ex / sizeof *apart_ex);
  static const char *const boiler[] = {"Pos.",         "Driver", "Points",   "Kyle Bush", "5040",
                                       "Martin Truex", "5035",   "Related:", "Share",     "Print",
                                       "Mail",         "Save",   NULL};
  static const expect ex[] = {{"The season ended", 1}, {"Pos.", 1},     {"Kyle Bush", 1}, {"5035", 1},
                              {"Three points", 1},     {"Related:", 0}, {"Share", 0},     {"Save", 0}};
  check_page(TABLES, &co, boiler, ex, sizeof ex / sizeof *ex);
}

static const char ONE_ELEMENT[] =
    "<html><head><title>Essays on the canal</title></head><body>"
    "<div class=\"side\"><p>About this blog: notes on the valley and its canal.</p></div>"
    "<div class=\"post\"><p>We keep here every essay on the canal, newest last, for ease of reference:<br>"
    "1. <a href=\"/1\">The lock keepers: who kept the nine locks and how they were paid</a> (May 2001).<br>"
    "2. <a href=\"/2\">Coal on the water: the barges, their loads and the tolls at Hythe</a> (June 2002).<br>"
    "3. <a href=\"/3\">The great freeze: ice closed the canal for six weeks and the mills stopped</a> (2003).<br>"
    "4. <a href=\"/4\">Closing the line: the railway took the trade and the company sold the water</a>.<br>"
    "5. <a href=\"/5\">Restoration: volunteers cleared the first mile and the boats came back</a> (May 2005).</p></div>"
    "<div class=\"comments\"><p>A long comment that repeats the essay list in full and thanks the author for it, "
    "for the locks, the coal, the freeze, the railway, the restoration and much more besides, at length, "
    "in more words than the post itself has, so that only its container tells it apart from the post, "
    "which is what the rule should look at before it keeps anything of a page like this one at all.</p></div>"
    "</body></html>";

/* The last resort: a page the model scores all boilerplate beyond the
 * fallback's threshold keeps its largest own unit of min_kept_words words
 * or more; never the comment; nothing when no unit is that long. */
/* A short post beside a blog's "about me" widget, every unit scored
 * unsure boilerplate (0.9): the last resort keeps the post, not the
 * widget. */
static const char SHORT_POST[] = "<html><head><title>Frost</title></head><body><div class=\"post\">"
                                 "<p>First frost on the allotment this morning.</p></div>"
                                 "<div class=\"widget\"><p>About me: a gardener of forty years.</p></div>"
                                 "</body></html>";

static void check_last_resort(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  static const char *const all[] = {"About this blog", "We keep here", "A long comment", NULL};
  static const expect kept[] = {{"We keep here", 1}, {"About this blog", 0}, {"A long comment", 0}};
  check_page_at(ONE_ELEMENT, &co, all, 0.99, kept, sizeof kept / sizeof *kept);
  co.min_kept_words = 500; /* no unit is a page's worth: nothing */
  static const expect none[] = {{"We keep here", 0}, {"About this blog", 0}, {"A long comment", 0}};
  check_page_at(ONE_ELEMENT, &co, all, 0.99, none, sizeof none / sizeof *none);
  co.min_kept_words = 0; /* off */
  check_page_at(ONE_ELEMENT, &co, all, 0.99, none, sizeof none / sizeof *none);
  tbk_content_options_init(&co);
  static const char *const post[] = {"First frost", "About me", NULL};
  static const expect frost[] = {{"First frost", 1}, {"About me", 0}};
  check_page_at(SHORT_POST, &co, post, 0.9, frost, sizeof frost / sizeof *frost);
}

/* PROSE decided with the units holding one of sure scored boilerplate
 * 0.95, those holding one of just p_just, the others content. */
static void check_page_mixed(const tbk_content_options *co, const char *const *sure, const char *const *just,
                             double p_just, const expect *ex, size_t n_ex) {
  tbk_units *ux = NULL;
  tbk_page *p = NULL;
  CHECK_INT(tbk_units_new(NULL, &ux, NULL), TBK_OK);
  CHECK_INT(tbk_page_parse(PROSE, strlen(PROSE), NULL, &p, NULL), TBK_OK);
  if (ux && p && tbk_units_page(ux, p, NULL, NULL) == TBK_OK) {
    size_t n = tbk_units_count(ux);
    double *up = calloc(n, sizeof *up);
    unsigned char *keep = malloc(n);
    for (size_t b = 0; sure[b]; b++) up[find_unit(p, ux, sure[b])] = 0.95;
    for (size_t b = 0; just[b]; b++) up[find_unit(p, ux, just[b])] = p_just;
    tbk_content_decide(p, ux, up, co, keep);
    for (size_t e = 0; e < n_ex; e++) CHECK_INT(keep[find_unit(p, ux, ex[e].text)], ex[e].kept);
    free(keep);
    free(up);
  }
  tbk_page_free(p);
  tbk_units_free(ux);
}

/* Prose needs firmer evidence: a paragraph of the page's own prose the
 * model calls boilerplate with 0.55 stays (not at 0.65, nor a short
 * line, a linked paragraph or a comment at 0.55); and a paragraph kept
 * that way does not hide from the page-level check that the rest of the
 * article was lost. */
static void check_prose_margin(void) {
  tbk_content_options co = without_page_checks();
  static const char *const unsure[] = {"The river rises", "Smith, J.", "A linked paragraph", "I walked the towpath",
                                       NULL};
  static const expect at55[] = {
      {"The river rises", 1}, {"Smith, J.", 0}, {"A linked paragraph", 0}, {"I walked the towpath", 0}};
  check_page_at(PROSE, &co, unsure, 0.55, at55, sizeof at55 / sizeof *at55);
  /* the other paragraphs removed too, so that the article's element
   * (article_parent) does not bring the first back */
  static const char *const others[] = {"In the eighteenth century", "Three mills", "The river floods", "Fishing rights",
                                       NULL};
  static const char *const river[] = {"The river rises", NULL};
  static const expect at65[] = {{"The river rises", 0}};
  check_page_mixed(&co, others, river, 0.65, at65, sizeof at65 / sizeof *at65);
  static const expect kept[] = {{"The river rises", 1}};
  check_page_mixed(&co, others, river, 0.55, kept, sizeof kept / sizeof *kept);
  co.threshold = 0.3; /* the margin follows the threshold */
  static const expect at35[] = {{"The river rises", 1}, {"Smith, J.", 0}};
  check_page_at(PROSE, &co, unsure, 0.35, at35, sizeof at35 / sizeof *at35);
  check_page_mixed(&co, others, river, 0.45, at65, sizeof at65 / sizeof *at65);
  /* every paragraph removed, the first only just (0.55, the others
   * 0.95): the check still sees the article lost and brings the rest
   * back; without the check they stay out */
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const char *const sure[] = {
      "In the eighteenth century", "Three mills", "The river floods", "Fishing rights", "A linked paragraph",
      "I walked the towpath",      NULL};
  static const char *const just[] = {"The river rises", NULL};
  static const expect back[] = {{"The river rises", 1}, {"In the eighteenth century", 1}, {"Fishing rights", 1}};
  check_page_mixed(&co, sure, just, 0.55, back, sizeof back / sizeof *back);
  co.prose_share = co.text_share = 0;
  static const expect out[] = {{"The river rises", 1}, {"In the eighteenth century", 0}, {"Fishing rights", 0}};
  check_page_mixed(&co, sure, just, 0.55, out, sizeof out / sizeof *out);
}

/* A cookie or consent notice goes whatever the model says (its settings
 * dialog reads like an article); a post's taxonomy class, a section's id
 * and a <body> named so do not make a notice, nor does an element that
 * holds most of the page (a cookie policy). */
static const char CONSENT[] =
    "<html><head><title>Oat biscuits</title></head><body class=\"cookies-not-set\">"
    "<article class=\"post tag-cookie-recipes category-baking\"><h1>Oat biscuits</h1>"
    "<p>Mix the oats, the flour and the butter until the dough holds together, then rest it.</p>"
    "<div class=\"section\" id=\"cookie-dough\"><p>Roll the dough thin and cut it into rounds.</p></div>"
    "<p>Bake them for twelve minutes, until the edges turn golden, and let them cool.</p></article>"
    "<div class=\"cmplz-cookiebanner\"><p>We use cookies to give you the best experience on our site. "
    "Some are necessary, others help us understand how the site is used. You can choose which to allow "
    "in the settings.</p><p>Necessary cookies</p></div>"
    "<div id=\"x\" class=\"gdpr-modal\"><p>Accept all</p></div>"
    "<aside><p>More from the kitchen: bread, cakes, pies and tarts, with a recipe for every season of the "
    "year, from spring's rhubarb crumble to the spiced loaves of winter, each one tested twice in our own "
    "kitchen before it goes on the site, and each with notes on what to change at high altitude, in a fan "
    "oven or without eggs, so that the article above holds less than half of the page's text.</p></aside>"
    "</body></html>";

static const char COOKIE_POLICY[] =
    "<html><head><title>Cookie policy</title></head><body><div class=\"cookie-policy\"><h1>Cookie policy</h1>"
    "<p>This policy explains which cookies the site sets, why it sets them and how long each one lasts.</p>"
    "<p>Session cookies end when the browser closes; the others last a year at most.</p></div>"
    "<p>Contact</p></body></html>";

static void check_consent(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const expect ex[] = {
      {"Mix the oats", 1},   {"Roll the dough", 1},    {"Bake them", 1},
      {"We use cookies", 0}, {"Necessary cookies", 0}, {"Accept all", 0},
  };
  check_page(CONSENT, &co, NULL, ex, sizeof ex / sizeof *ex);
  static const expect policy[] = {{"This policy explains", 1}, {"Session cookies end", 1}};
  check_page(COOKIE_POLICY, &co, NULL, policy, sizeof policy / sizeof *policy);
}

/* A heading that points away from the article, whole and in any of the
 * lists' languages (case folded, "Ä" too, a colon or "…" after it), goes
 * whatever the model says, as does a line led in by one ("Czytaj też: …",
 * "À lire aussi » …", a space before the colon); a sentence that starts so,
 * a longer heading and a word that only begins so stay. */
static const char POINTERS[] =
    "<html><head><title>Mill museum</title></head><body><h1>Mill museum</h1>"
    "<p>The museum in the old mill opens every day except Monday, with tours of the weaving floor.</p>"
    "<p>Related work on the river's other mills is shown in the second room of the museum.</p>"
    "<h3>\303\204hnliche Beitr\303\244ge</h3><h3>RELATED ARTICLES:</h3><h3>\303\200 lire aussi\342\200\246</h3>"
    "<h3>Leia tamb\303\251m</h3><h2>About the author</h2><h3>Related articles about the river and its mills</h3>"
    "<h3>Relatedness</h3><p>Mehr zum Thema</p>"
    "<h3>Czytaj te\305\274</h3><h3>\320\247\320\270\321\202\320\260\320\271\321\202\320\265 "
    "\321\202\320\260\320\272\320\266\320\265</h3><h3>\347\233\270\345\205\263\351\230\205\350\257\273</h3>"
    "<p>Czytaj te\305\274: Wy\305\233cig zbroje\305\204 ruszy\305\202 z kopyta</p>"
    "<p>\303\200 lire aussi \302\273 Ballonnements et lourdeurs</p>"
    "<p>Zum Weiterlesen : Der Zukunft wieder vertrauen</p>"
    "<p>Czytaj te\305\274 to, co autor napisa\305\202 o m\305\202ynie nad rzek\304\205 w zesz\305\202ym roku.</p>"
    "<p>Siehe auch den zweiten Raum des Museums mit den alten Webst\303\274hlen.</p>"
    "<p>Lea tambi\303\251n: El museo del molino abre sus puertas</p>"
    "<p>Puedes ver la rueda del molino desde el puente del r\303\255o cada ma\303\261ana.</p>"
    "<h3>Notas relacionadas</h3><h3>Schon gelesen?</h3><p>Lesen Sie auch die folgenden Beitr\303\244ge:</p>"
    "</body></html>";

/* The article's element: the deepest element holding most of the prose
 * the model keeps gets back its prose paragraphs the model removed before
 * its last kept one (not one after it, nor one outside it); with a single
 * kept paragraph there, or half of the kept prose or less, nothing
 * changes. */
static const char ARTICLE_PARENT[] =
    "<html><head><title>Virtual environments</title></head><body><div class=\"post\">"
    "<p>Python is a flexible language for every kind of project. Its tools for keeping the packages of each "
    "project apart have grown over the years, and this guide walks through them one by one.</p>"
    "<p>A virtual environment is a directory that holds its own interpreter and packages. Activating it puts "
    "that directory first on the path, so that every install goes there and nowhere else.</p>"
    "<pre>$ python3 -m venv env</pre>"
    "<p>Since version three the standard library ships a module that creates such directories. It needs no "
    "install of its own, and the environments it makes behave the same on every system.</p>"
    "<p>We discussed these tools on this week's episode of our podcast. You can subscribe to it in your "
    "player or listen to the episode with the button below the article.</p></div>"
    "<div class=\"more\"><p>Our other guides cover the packaging of libraries and applications. Each of "
    "them comes with examples that you can copy into your own projects and run as they are.</p></div>"
    "<div class=\"other\"><p>The harbour bridge opened on Monday after three years of work on its towers. "
    "Crowds walked the deck from dawn, and the first cars crossed it at noon that day.</p>"
    "<p>The toll rose by a third this year, to pay for the work on the old crossing. Drivers who cross "
    "every day can buy a pass that halves it, sold at the gate and on the council's site.</p>"
    "<p>Engineers said the deck can carry twice the load of the old crossing, and more lanes can be added "
    "later. The council will vote on them in the spring, after a count of the traffic.</p></div>"
    "</body></html>";

/* A manual's chapter in sections, each paragraph in a wrapper of its own
 * (AsciiDoc, Sphinx): no parent holds two kept paragraphs, the chapter's
 * element holds them all. */
static const char SECTIONS[] =
    "<html><head><title>Tutorial</title></head><body><div id=\"content\">"
    "<div class=\"sect1\"><h2>Importing a project</h2><div class=\"sectionbody\">"
    "<div class=\"paragraph\"><p>Assume you have a tarball with your initial work. You can place it under "
    "revision control as follows, from the directory that holds the files you want to track.</p></div>"
    "<div class=\"paragraph\"><p>You have now initialized the working directory. You may notice a new "
    "directory created there, which holds the history of every file and every change you record.</p></div>"
    "</div></div>"
    "<div class=\"sect1\"><h2>Making changes</h2><div class=\"sectionbody\">"
    "<div class=\"paragraph\"><p>Modify some files, then add their updated contents to the index. You are "
    "now ready to commit, and you can see what is about to be committed with the diff command.</p></div>"
    "<div class=\"listingblock\"><pre>$ git diff --cached</pre></div>"
    "<div class=\"paragraph\"><p>Without the cached option the command shows the changes you made but have "
    "not yet added to the index. You can also get a brief summary of the situation with status.</p></div>"
    "</div></div>"
    "<div class=\"sect1\"><h2>Managing branches</h2><div class=\"sectionbody\">"
    "<div class=\"paragraph\"><p>A single repository can maintain multiple branches of development. To "
    "create a new branch named experimental, use the branch command with the name you want.</p></div>"
    "<div class=\"paragraph\"><p>Thanks for reading this chapter of the guide. Our newsletter brings the "
    "next chapter to your inbox every week, with tips that you will not find anywhere else.</p></div>"
    "</div></div></div>"
    "<div id=\"footer\"><p>This manual is published under a free licence by its many authors. You may copy "
    "it, change it and share it, as long as you keep this notice with every copy you make.</p></div>"
    "</body></html>";

/* A tutorial whose steps are list items, with a definition list, a
 * one-line paragraph, an embedded post in a quotation, a list of links
 * and a label, between two paragraphs of its prose. */
static const char STEPS[] =
    "<html><head><title>Backups</title></head><body><div class=\"guide\">"
    "<p>Backups are copies of your files that you keep in another place. This guide shows how to make them "
    "with the tools your system already has, and how to check that they work.</p>"
    "<ol><li>Choose a disk that is not the one your files are on</li>"
    "<li>Copy the home directory to it with the archive option set</li></ol>"
    "<dl><dt>archive mode</dt><dd>Keeps the owners, times and permissions of every copied file</dd></dl>"
    "<p>Then run the copy once more.</p>"
    "<blockquote class=\"embed\"><p>My disk died today and my backup saved the whole thesis</p></blockquote>"
    "<ul><li><a href=\"/a\">Our guide to disks and the ways they fail</a></li></ul>"
    "<p>Back up</p>"
    "<p>The second copy takes seconds, because only the files that changed are copied again. Run it every day "
    "from a timer, and restore one file now and then to see that the copies can be read.</p>"
    "</div></body></html>";

static void check_article_parent(void) {
  tbk_content_options co = without_page_checks();
  static const char *const removed[] = {
      "A virtual environment", "python3 -m venv", "We discussed these tools", "Our other guides",
      "The harbour bridge",    "The toll rose",   "Engineers said",           NULL};
  static const expect back[] = {{"Python is a flexible", 1}, {"A virtual environment", 1},
                                {"Since version three", 1},  {"We discussed these tools", 0},
                                {"Our other guides", 0},     {"The harbour bridge", 0},
                                {"python3 -m venv", 0}};
  check_page(ARTICLE_PARENT, &co, removed, back, sizeof back / sizeof *back);
  /* one kept paragraph in the post is no evidence of its element */
  static const char *const one[] = {"Python is a flexible",
                                    "A virtual environment",
                                    "python3 -m venv",
                                    "We discussed these tools",
                                    "Our other guides",
                                    "The harbour bridge",
                                    "The toll rose",
                                    "Engineers said",
                                    NULL};
  static const expect alone[] = {{"Since version three", 1}, {"A virtual environment", 0}};
  check_page(ARTICLE_PARENT, &co, one, alone, sizeof alone / sizeof *alone);
  /* the other story and the guides' box keep more prose than the post: no
   * element holds more than half */
  static const char *const split[] = {"A virtual environment", "python3 -m venv", "We discussed these tools",
                                      "The harbour bridge", NULL};
  static const expect none[] = {{"A virtual environment", 0}, {"The harbour bridge", 0}};
  check_page(ARTICLE_PARENT, &co, split, none, sizeof none / sizeof *none);
  static const char *const sections[] = {"You have now initialized", "git diff --cached",        "Without the cached",
                                         "Thanks for reading",       "This manual is published", NULL};
  /* the last section's plug is the records' rule's (its sections are
   * records of one shape, decided as the first one was) */
  static const expect chapter[] = {{"Assume you have a tarball", 1}, {"You have now initialized", 1},
                                   {"Without the cached", 1},        {"git diff --cached", 0},
                                   {"Thanks for reading", 1},        {"This manual is published", 0}};
  check_page(SECTIONS, &co, sections, chapter, sizeof chapter / sizeof *chapter);
  /* the article's other text comes back when the model was not near sure
   * (0.9), and stays out when it was (0.99), but for a definition */
  static const char *const steps[] = {"Choose a disk",      "Copy the home",     "archive mode",
                                      "Keeps the owners",   "Then run the copy", "My disk died",
                                      "Our guide to disks", "Back up",           NULL};
  static const expect unsure[] = {{"Choose a disk", 1},     {"Copy the home", 1},      {"Keeps the owners", 1},
                                  {"Then run the copy", 1}, {"My disk died", 0},       {"Our guide to disks", 0},
                                  {"Back up", 0},           {"Backups are copies", 1}, {"The second copy", 1}};
  check_page_at(STEPS, &co, steps, 0.9, unsure, sizeof unsure / sizeof *unsure);
  static const expect sure[] = {{"Choose a disk", 0}, {"Keeps the owners", 1}, {"Then run the copy", 0}};
  check_page_at(STEPS, &co, steps, 0.99, sure, sizeof sure / sizeof *sure);
}

/* A class's reference: one-line entries in a list, a table and a
 * definition list, no prose; the page keeps its headline and one line. */
static const char REFERENCE[] =
    "<html><head><title>Timer</title></head><body>"
    "<nav><ul><li><a href=\"/o\">Overview</a></li><li><a href=\"/p\">Package</a></li></ul></nav>"
    "<h1>Class Timer</h1><p>A facility for threads to schedule tasks for later.</p>"
    "<ul><li>cancel() terminates this timer, discarding any scheduled tasks</li>"
    "<li>purge() removes all cancelled tasks from the task queue of this timer</li>"
    "<li>schedule(task, delay) runs the given task once after the delay</li></ul>"
    "<table><tr><td>Timer() creates a new timer whose thread is not a daemon</td></tr></table>"
    "<dl><dt>delay</dt><dd>the delay in milliseconds before the task is run</dd></dl>"
    "<footer><p>Copyright 1993, 2021, the authors of this reference and their employers.</p></footer>"
    "</body></html>";

/* The same reference written as Javadoc writes it: entries in <div>s of
 * the page's <main>, beside a sidebar's <div> outside it. */
static const char REFERENCE_MAIN[] =
    "<html><head><title>Timer</title></head><body>"
    "<main><h1>Class Timer</h1><div class=\"block\">A facility for threads to schedule tasks for later.</div>"
    "<div class=\"block\">Terminates this timer, discarding any tasks that are still scheduled on it</div>"
    "<div class=\"block\">Removes all cancelled tasks from the task queue of this timer at once</div>"
    "<div class=\"block\">Schedules the given task for one run after the given delay has passed</div>"
    "<div class=\"block\">Creates a new timer whose thread is not run as a daemon thread</div></main>"
    "<div class=\"side\">Written by a team of engineers over many years of careful work</div>"
    "</body></html>";

/* The page-level check on the page's own text: with its entries removed
 * (0.9) the page has lost its text and they come back, not the footer;
 * removed with near certainty (0.99) only the definition does; with one
 * entry removed the page keeps its text and nothing changes. */
static void check_reference(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const char *const entries[] = {"cancel()",       "purge()", "schedule(task", "Timer() creates", "the delay in",
                                        "Copyright 1993", NULL};
  static const expect lost[] = {{"cancel()", 1},        {"purge()", 1},      {"schedule(task", 1},
                                {"Timer() creates", 1}, {"the delay in", 1}, {"Copyright 1993", 0}};
  check_page_at(REFERENCE, &co, entries, 0.9, lost, sizeof lost / sizeof *lost);
  static const expect sure[] = {{"cancel()", 0}, {"Timer() creates", 0}, {"the delay in", 1}};
  check_page_at(REFERENCE, &co, entries, 0.99, sure, sizeof sure / sizeof *sure);
  static const char *const one[] = {"Timer() creates", "Copyright 1993", NULL};
  static const expect kept[] = {{"cancel()", 1}, {"Timer() creates", 0}};
  check_page_at(REFERENCE, &co, one, 0.9, kept, sizeof kept / sizeof *kept);
  static const char *const blocks[] = {"Terminates this", "Removes all", "Schedules the",
                                       "Creates a new",   "Written by",  NULL};
  static const expect in_main[] = {{"Terminates this", 1}, {"Creates a new", 1}, {"Written by", 0}};
  check_page_at(REFERENCE_MAIN, &co, blocks, 0.9, in_main, sizeof in_main / sizeof *in_main);
  /* the check is the page-level check's on the own text: off with it */
  co.text_share = 0;
  static const expect off[] = {{"cancel()", 0}, {"the delay in", 0}};
  check_page_at(REFERENCE, &co, entries, 0.9, off, sizeof off / sizeof *off);
}

/* The rule tbk_content_decide_why names for the unit holding text, on src
 * scored as check_page_at scores it, or -1. */
static int rule_of(const char *src, const tbk_content_options *co, const char *const *boiler, double p_boiler,
                   const char *text) {
  tbk_units *ux;
  tbk_page *p;
  int rule = -1;
  if (page_units(src, &p, &ux)) {
    size_t n = tbk_units_count(ux);
    double *up = boiler_scores(p, ux, boiler, p_boiler);
    unsigned char *keep = malloc(n ? n : 1), *why = malloc(n ? n : 1);
    tbk_content_decide_why(p, ux, up, co, keep, why);
    size_t i = find_unit(p, ux, text);
    if (i != (size_t)-1) rule = why[i];
    free(up);
    free(keep);
    free(why);
  }
  tbk_page_free(p);
  tbk_units_free(ux);
  return rule;
}

/* --explain names the rule that turned a unit's decision: the step that
 * last changed it, each on a page where that step decides. */
static void check_rule_names(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  CHECK_INT(rule_of(PAGE, &co, NULL, 0, "Read more: Bridge tolls"), TBK_RULE_FIXED);
  CHECK_INT(rule_of(PAGE, &co, NULL, 0, "The toll rose by a third"), TBK_RULE_MODEL);
  static const char *const gap[] = {"What did it decide", NULL};
  CHECK_INT(rule_of(GAPS, &co, gap, 1, "What did it decide"), TBK_RULE_GAP);
  static const char *const steps[] = {"Choose a disk", "Keeps the owners", NULL};
  CHECK_INT(rule_of(STEPS, &co, steps, 0.9, "Choose a disk"), TBK_RULE_ARTICLE);
  static const char *const entries[] = {"cancel()",       "purge()", "schedule(task", "Timer() creates", "the delay in",
                                        "Copyright 1993", NULL};
  CHECK_INT(rule_of(REFERENCE, &co, entries, 0.9, "cancel()"), TBK_RULE_PAGE_TEXT);
  co.text_share = 0;
  co.min_kept_words = 1000;
  CHECK_INT(rule_of(REFERENCE, &co, entries, 0.9, "cancel()"), TBK_RULE_LAST_RESORT);
  CHECK(strcmp(tbk_content_rule_name(TBK_RULE_ARTICLE), "the article's element") == 0);
  CHECK(strcmp(tbk_content_rule_name(TBK_RULE_COUNT), "?") == 0);
}

/* A widget's reference as gtk-doc writes it: the model keeps the
 * description's two paragraphs and removes the entries and their
 * headings, a third of the page's own text kept; beside them a sidebar's
 * box. The entries sit in elements whose class holds a side box's word
 * but does not name a box: inside a part ("node--promoted", Drupal's
 * article), in a taxonomy class or a state flag ("tag-sidebar",
 * "has-sidebar"), or beside a word naming the page's text ("widget Blog",
 * Blogger's post); and a line of code in a <div> inside a <pre>, as
 * Sphinx's source pages write it. */
static const char REFERENCE_DESC[] =
    "<html><head><title>Box</title></head><body><h1>Box</h1>"
    "<p>The box arranges its child widgets into a single row or a single column.</p>"
    "<p>Packing adds widgets to the box from its start or from its end, in order.</p>"
    "<div class=\"post tag-sidebar has-sidebar\"><h3>box_new()</h3>"
    "<p>Creates a new box with the given orientation and spacing between children.</p></div>"
    "<div class=\"widget Blog\" id=\"Blog1\"><h3>box_pack()</h3>"
    "<p>Adds the child to the box, packed after any other child packed before.</p></div>"
    "<div class=\"node--promoted\"><h3>box_spacing()</h3>"
    "<p>Sets the number of pixels to place between the children of the box.</p></div>"
    "<div class=\"elementor-element elementor-widget elementor-widget-text-editor\"><h3>box_remove()</h3>"
    "<p>Removes the child from the box.</p></div>"
    "<div class=\"sidebar-widget\"><p>Our team of volunteers writes these pages in their own free time.</p></div>"
    "<pre><div class=\"viewcode-block\">def box_clear(box): return box.remove_all_children()</div></pre>"
    "</body></html>";

/* A short post beside its blog's "about me": when the prose check fires
 * the post's paragraphs come back, not the sidebar's box (an element
 * holding less than half the page's text). */
static const char POST_BESIDE_BOX[] =
    "<html><head><title>Sunday</title></head><body><div class=\"post\"><h1>Sunday</h1>"
    "<p>We spent the whole weekend at the coast with the children. The weather held, and the sea was warm "
    "enough for a swim on both days.</p><p>On Sunday we walked along the cliffs to the lighthouse and back, "
    "and the children found crabs in every pool the tide had left behind.</p></div>"
    "<div class=\"widget Profile\"><p>I am a retired surveyor who has walked every river of the county. I "
    "write here about their history, their mills, their bridges and the people who built them.</p></div>"
    "</body></html>";

static void check_prose_box(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  co.text_share = 0; /* the prose check alone */
  static const char *const post[] = {"We spent the whole", "On Sunday we", "I am a retired", NULL};
  static const expect no_box[] = {{"We spent the whole", 1}, {"On Sunday we", 1}, {"I am a retired", 0}};
  check_page_at(POST_BESIDE_BOX, &co, post, 0.9, no_box, sizeof no_box / sizeof *no_box);
}

/* The own-text check's share (text_share, 0.5) is above the prose
 * check's: a reference that keeps its description and loses its entries
 * keeps a third of its own text. At 0.5 the entries come back (one in
 * a page builder's "elementor-widget" block too), not the sidebar's box
 * (counted as the page shows it, yet not its text); at the prose check's
 * 0.3 nothing changes. */
static void check_text_share(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const char *const entries[] = {"box_new()",
                                        "Creates a new box",
                                        "box_pack()",
                                        "Adds the child",
                                        "box_spacing()",
                                        "Sets the number",
                                        "def box_clear",
                                        "Our team of",
                                        "box_remove()",
                                        "Removes the child",
                                        NULL};
  static const expect back[] = {{"The box arranges", 1}, {"Creates a new box", 1}, {"Adds the child", 1},
                                {"Sets the number", 1},  {"def box_clear", 1},     {"Our team of", 0},
                                {"Removes the child", 1}};
  check_page_at(REFERENCE_DESC, &co, entries, 0.9, back, sizeof back / sizeof *back);
  CHECK_INT(rule_of(REFERENCE_DESC, &co, entries, 0.9, "Sets the number"), TBK_RULE_PAGE_TEXT);
  co.text_share = 0.3;
  static const expect third[] = {{"The box arranges", 1}, {"Creates a new box", 0}, {"Our team of", 0}};
  check_page_at(REFERENCE_DESC, &co, entries, 0.9, third, sizeof third / sizeof *third);
}

static void check_pointer_heading(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const expect ex[] = {
      {"The museum in the old mill", 1},
      {"Related work on the river", 1},
      {"\303\204hnliche Beitr\303\244ge", 0},
      {"RELATED ARTICLES:", 0},
      {"\303\200 lire aussi", 0},
      {"Leia tamb\303\251m", 0},
      {"About the author", 0},
      {"Related articles about the river", 1},
      {"Relatedness", 1},
      {"Mehr zum Thema", 0},
      {"Czytaj te\305\274", 0},
      {"\320\247\320\270\321\202\320\260\320\271\321\202\320\265", 0},
      {"\347\233\270\345\205\263\351\230\205\350\257\273", 0},
      {"Czytaj te\305\274: Wy", 0},
      {"\303\200 lire aussi \302\273", 0},
      {"Zum Weiterlesen :", 0},
      {"Czytaj te\305\274 to, co", 1},
      {"Siehe auch den", 1},
      {"Lea tambi\303\251n: El museo", 0},
      {"Notas relacionadas", 0},
      {"Schon gelesen", 0},
      {"Lesen Sie auch die folgenden", 0},
      {"Puedes ver la rueda", 1},
  };
  check_page(POINTERS, &co, NULL, ex, sizeof ex / sizeof *ex);
  CHECK(tbk_rules_phrases_sorted());
}

/* The page-level check reads the kept words as evidence that the article
 * is kept, but not list items the template stage calls the site's (a
 * list of the site's promises kept beside an essay of short paragraphs
 * the model removed): with the list's block scored 0.9 the essay's prose
 * comes back; scored 0.1 the list counts and the check does not fire. */
static const char SITE_LIST[] =
    "<html><head><title>Focus</title></head><body><div class=\"post\">"
    "<p>Business focus is why some people build the online business they dream of. Others think about it for "
    "years and never start, because every new idea pulls them somewhere else.</p>"
    "<p>Today we look at why focus matters so much. It decides where your hours go, and hours are what a small "
    "business has least of in its first years.</p>"
    "<p>Once you see the simple approach, you will feel better about where you are. You will also know which of "
    "the many things you read about you can safely ignore for now.</p></div>"
    "<ul><li>You will not have to master everything about online business at once</li>"
    "<li>Your list of things to do will shrink to a quarter of its current size</li>"
    "<li>You will be able to ignore most of the information you are reading now</li>"
    "<li>Your email list will begin to grow a little every single week</li></ul>"
    "<div class=\"x\"><p>Your revenues and your impact will grow year by year with steady work.</p>"
    "<p>Search engines will bring people to your information as it grows.</p></div></body></html>";

/* Decides src with the units holding one of boiler scored p_boiler by the
 * content stage (the rest 0), the blocks holding units with one of
 * site_units scored p_site by the template stage; whether the unit
 * holding text is kept (-1: not found). */
static int keeps_with_site(const char *src, const char *const *site_units, double p_site, const char *const *boiler,
                           double p_boiler, const tbk_content_options *co, const char *text) {
  tbk_units *ux = NULL;
  tbk_page *p = NULL;
  int kept = -1;
  CHECK_INT(tbk_units_new(NULL, &ux, NULL), TBK_OK);
  CHECK_INT(tbk_page_parse(src, strlen(src), NULL, &p, NULL), TBK_OK);
  if (!ux || !p) goto done;
  CHECK_INT(tbk_units_page(ux, p, NULL, NULL), TBK_OK);
  size_t nb = tbk_page_view_of(p).n_blocks;
  double *block_p = calloc(nb ? nb : 1, sizeof *block_p);
  for (size_t k = 0; site_units[k]; k++) {
    size_t i = find_unit(p, ux, site_units[k]);
    int32_t b = i == (size_t)-1 ? -1 : tbk_unit_block(p, ux, i);
    CHECK(b >= 0);
    if (b >= 0) block_p[b] = p_site;
  }
  CHECK_INT(tbk_units_page(ux, p, block_p, NULL), TBK_OK);
  size_t n = tbk_units_count(ux);
  double *up = boiler_scores(p, ux, boiler, p_boiler);
  unsigned char *keep = calloc(n ? n : 1, 1);
  tbk_content_decide(p, ux, up, co, keep);
  size_t i = find_unit(p, ux, text);
  if (i != (size_t)-1) kept = keep[i];
  free(keep);
  free(up);
  free(block_p);
done:
  tbk_page_free(p);
  tbk_units_free(ux);
  return kept;
}

/* Decides SITE_LIST with the essay scored boilerplate, the list and the
 * closing paragraphs content, the blocks holding units with one of
 * site_units scored p_site by the template stage; whether the essay's
 * first paragraph is kept. */
static int site_list_keeps_essay(const char *const *site_units, double p_site) {
  static const char *const essay[] = {"Business focus is", "Today we look", "Once you see", NULL};
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  return keeps_with_site(SITE_LIST, site_units, p_site, essay, 1, &co, "Business focus is");
}

static void check_site_list(void) {
  static const char *const items[] = {"You will not have", "Your list of things", "You will be able", "Your email list",
                                      NULL};
  static const char *const none[] = {NULL};
  CHECK_INT(site_list_keeps_essay(items, 0.9), 1);
  CHECK_INT(site_list_keeps_essay(items, 0.1), 0);
  CHECK_INT(site_list_keeps_essay(none, 0), 0);
}

/* A forum thread: four posts of one markup (phpBB's "post bg1" / "post
 * bg2"), each a profile and a text (the opening post's directly in its
 * <div>, as phpBB writes it), a reply's with its code in a <pre>; beside
 * them a box of another class. With the replies' texts scored
 * boilerplate they come back as the opening post was kept (the way to
 * its text, and what lies inside that element), not their profiles (the
 * opening post's was removed), not the other box; not when the posts are
 * unnamed <div>s, which repeat in any layout; of posts of two classes,
 * only those of the opening post's; and under --body none outside the
 * body the page declares (the opening post). */
#define POST(cls, who, text) \
  "<div" cls "><dl class=\"profile\"><dt>" who "</dt></dl><div class=\"text\">" text "</div></div>"
#define THREAD_HEAD "<html><head><title>Copy files from subfolders</title></head><body><div id=\"page\">"
#define THREAD_TAIL "<div class=\"box\"><p>Our forum is run by volunteers.</p></div></div></body></html>"
#define OPENING_TEXT                                                                               \
  "I need to copy all the files in one subfolder to another place. I do not know how many levels " \
  "of folders lie between the known folder and the one that holds the files, and its name varies."
#define CODE_REPLY                                                                    \
  "<p>Use the dir command with its bare and recursive options in a loop over it.</p>" \
  "<pre>for /f \"delims=\" %G in ('dir /b /s *.txt') do copy \"%G\" target</pre>"
#define THANKS "<p>Thank you both, I tried it as below and it works on every machine.</p>"
#define SHOWN "<p>You were shown both of these ideas in your two earlier threads.</p>"
#define THREAD_POSTS(c0, c1, c2)                                                                                 \
  THREAD_HEAD POST(c0, "goodyear joined in July", OPENING_TEXT) POST(c2, "herman posted 3386 times", CODE_REPLY) \
      POST(c1, "goodyear has posted 167 times", THANKS) POST(c2, "squash posted 4000 times", SHOWN) THREAD_TAIL
#define THREAD_PAGE(c1, c2) THREAD_POSTS(c1, c1, c2)

static void check_records(void) {
  tbk_content_options co = without_page_checks();
  static const char *const replies[] = {
      "goodyear joined", "herman posted",  "Use the dir",   "for /f",    "Thank you both",
      "goodyear has",    "You were shown", "squash posted", "Our forum", NULL};
  static const expect named[] = {{"I need to copy", 1}, {"Use the dir", 1},    {"for /f", 1},
                                 {"Thank you both", 1}, {"You were shown", 1}, {"goodyear joined", 0},
                                 {"herman posted", 0},  {"squash posted", 0},  {"Our forum", 0}};
  check_page_at(THREAD_PAGE(" class=\"post bg1\"", " class=\"post bg2\""), &co, replies, 0.9, named,
                sizeof named / sizeof *named);
  CHECK_INT(rule_of(THREAD_PAGE(" class=\"post bg1\"", " class=\"post bg2\""), &co, replies, 0.9, "Thank you both"),
            TBK_RULE_RECORDS);
  CHECK(strcmp(tbk_content_rule_name(TBK_RULE_RECORDS), "records like the article's") == 0);
  static const expect unnamed[] = {{"I need to copy", 1}, {"Use the dir", 0}, {"Thank you both", 0}};
  check_page_at(THREAD_PAGE("", ""), &co, replies, 0.9, unnamed, sizeof unnamed / sizeof *unnamed);
  static const expect two[] = {{"Use the dir", 0}, {"Thank you both", 1}, {"You were shown", 0}};
  check_page_at(THREAD_PAGE(" class=\"post\"", " class=\"reply\""), &co, replies, 0.9, two, sizeof two / sizeof *two);
  /* --body keeps no post outside the body the page declares */
  co.body = 1;
  check_page_at(
      THREAD_POSTS(" class=\"post bg1\" itemprop=\"articleBody\"", " class=\"post bg1\"", " class=\"post bg2\""), &co,
      replies, 0.9, unnamed, sizeof unnamed / sizeof *unnamed);
}

/* A recipe page whose JSON-LD declares its ingredients and steps (a
 * step's whitespace as a template writes it, a step inside a
 * HowToSection): with its lists and steps scored boilerplate, the
 * declared ones come back, not a list of other cakes, nor a line that
 * holds a one-word ingredient ("Salt"); without the JSON-LD nothing does. */
#define RECIPE_JSONLD                                                                                      \
  "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Recipe\","        \
  "\"recipeIngredient\":[\"200 g sugar\",\"6 medium eggs\",\"Salt\"],\"recipeInstructions\":[{\"@type\":"  \
  "\"HowToStep\",\"text\":\"Beat the eggs \\n  with the sugar until pale.\"},{\"@type\":\"HowToSection\"," \
  "\"itemListElement\":[{\"@type\":\"HowToStep\",\"text\":\"Fold in the flour and bake for forty "         \
  "minutes.\"}]}]}</script>"
#define RECIPE_BODY                                                                                      \
  "<body><h1>Lemon cake</h1><p>This is the cake my grandmother baked every summer. It keeps for a week " \
  "in a tin, and it tastes better on the second day than on the first.</p>"                              \
  "<ul><li>200 g sugar</li><li>6 medium eggs</li><li>Salt to taste, as much as you like</li></ul>"       \
  "<div>Beat the eggs with the sugar until pale.</div><div>Fold in the flour and bake for forty "        \
  "minutes.</div><ul><li>Our other cakes and tarts</li></ul></body></html>"

static void check_recipe(void) {
  tbk_content_options co = without_page_checks();
  static const char *const lists[] = {
      "200 g sugar", "6 medium eggs", "Salt to taste", "Beat the eggs", "Fold in the flour", "Our other cakes", NULL};
  static const expect declared[] = {{"This is the cake", 1}, {"200 g sugar", 1},       {"6 medium eggs", 1},
                                    {"Beat the eggs", 1},    {"Fold in the flour", 1}, {"Salt to taste", 0},
                                    {"Our other cakes", 0}};
  check_page_at("<html><head><title>Lemon cake</title>" RECIPE_JSONLD "</head>" RECIPE_BODY, &co, lists, 0.9, declared,
                sizeof declared / sizeof *declared);
  CHECK_INT(rule_of("<html><head><title>Lemon cake</title>" RECIPE_JSONLD "</head>" RECIPE_BODY, &co, lists, 0.9,
                    "Beat the eggs"),
            TBK_RULE_RECIPE);
  static const expect none[] = {{"This is the cake", 1}, {"200 g sugar", 0}, {"Beat the eggs", 0}};
  check_page_at("<html><head><title>Lemon cake</title></head>" RECIPE_BODY, &co, lists, 0.9, none,
                sizeof none / sizeof *none);
  /* a page declaring 40 kB of steps: what lies past the first 32 kB is
   * not read (every unit is searched in it) */
  tbk_buf big = {0};
  CHECK_INT(tbk_buf_puts(&big, "<html><head><script type=\"application/ld+json\">{\"@type\":\"Recipe\","
                               "\"recipeInstructions\":[\"Beat the eggs with the sugar until pale."),
            0);
  int failed = 0;
  for (int k = 0; k < 4000; k++) failed |= tbk_buf_puts(&big, " Stir it.");
  CHECK_INT(failed, 0);
  CHECK_INT(tbk_buf_puts(&big, " Fold in the flour and bake for forty minutes.\"]}</script></head>" RECIPE_BODY), 0);
  static const expect capped[] = {{"Beat the eggs", 1}, {"Fold in the flour", 0}};
  if (big.data) check_page_at(big.data, &co, lists, 0.9, capped, sizeof capped / sizeof *capped);
  tbk_buf_free(&big);
}

/* A manual's page: sections whose headings the model removes. A heading
 * comes back when its next unit is kept text inside the heading's parent
 * (the sections' titles, a member's name under a section title); not an
 * <h1> (the headline rule decides those), a heading over a kept heading,
 * one before the page's first kept unit (a table of contents' title), a
 * box's heading followed by text outside the box, one over removed text,
 * or a heading that is mostly links. */
#define MANUAL_PAGE(BODY_ATTR)                                                                                  \
  "<html><head><title>read - Manual</title></head><body>"                                                       \
  "<div class=\"toc\"><h2>Contents</h2><p>What it returns, its errors, notes and the other sections.</p></div>" \
  "<div><h1>read</h1>"                                                                                          \
  "<p" BODY_ATTR ">read() attempts to read up to count bytes from the file descriptor into the buffer.</p>"     \
  "<div class=\"section\"><h2>Return value</h2>"                                                                \
  "<p>On success, the number of bytes read is returned, and the file position is advanced.</p></div>"           \
  "<div class=\"section\"><h2>Errors</h2><h3>EAGAIN</h3>"                                                       \
  "<p>The file descriptor refers to a file other than a socket and was marked nonblocking.</p></div>"           \
  "<div class=\"section\"><h2>Notes</h2><h3>Portability</h3>"                                                   \
  "<p>On Linux, read() transfers at most 2,147,479,552 bytes in one call.</p></div>"                            \
  "<div class=\"share\"><h3>Share this page</h3></div>"                                                         \
  "<p>Reading at the end of a file returns zero and leaves the buffer as it was.</p>"                           \
  "<div class=\"section\"><h2>See also</h2><p>write(2), close(2)</p></div>"                                     \
  "<h2><a href=\"/sockets.html\">Reading from sockets</a> or pipes</h2>"                                        \
  "<p>A socket is read with recv(2) as well, which takes flags.</p>"                                            \
  "<div class=\"colophon\"><h1>Colophon</h1><p>This page is part of release 6.03 of the project.</p></div>"     \
  "</div></body></html>"
static void check_headings(void) {
  tbk_content_options co = without_page_checks();
  static const char *const headings[] = {"Contents",     "Return value",    "Errors",   "EAGAIN",
                                         "Notes",        "Share this page", "See also", "write(2)",
                                         "Reading from", "Colophon",        NULL};
  static const expect kept[] = {{"Return value", 1}, {"EAGAIN", 1},   {"On success", 1},      {"Errors", 0},
                                {"Notes", 0},        {"Contents", 0}, {"Share this page", 0}, {"See also", 0},
                                {"Reading from", 0}, {"Colophon", 0}, {"A socket is read", 1}};
  check_page_at(MANUAL_PAGE(""), &co, headings, 0.9, kept, sizeof kept / sizeof *kept);
  CHECK_INT(rule_of(MANUAL_PAGE(""), &co, headings, 0.9, "Return value"), TBK_RULE_HEADINGS);
  CHECK(strcmp(tbk_content_rule_name(TBK_RULE_HEADINGS), "the heading of kept text") == 0);
  /* nor one the template stage calls the site's */
  static const char *const site[] = {"Return value", NULL}, *const none[] = {NULL};
  CHECK_INT(keeps_with_site(MANUAL_PAGE(""), site, 0.9, headings, 0.9, &co, "Return value"), 0);
  CHECK_INT(keeps_with_site(MANUAL_PAGE(""), none, 0, headings, 0.9, &co, "Return value"), 1);
  /* --body brings back no heading outside the body the page declares */
  co.body = 1;
  static const expect body[] = {{"Return value", 0}, {"EAGAIN", 0}, {"On success", 1}};
  check_page_at(MANUAL_PAGE(" itemprop=\"articleBody\""), &co, headings, 0.9, body, sizeof body / sizeof *body);
}

/* A line that only points away ("Also on Coast News:", a "Related
 * articles" heading) takes the element right after it along: another
 * story's teaser there goes, though the model kept it; what follows that
 * element stays, and so does what follows a pointer with its link on the
 * line ("Related: …") or an element holding the page's headline. */
static const char POINTED[] =
    "<html><head><title>Bridge opens</title></head><body><div>"
    "<p>The new harbour bridge opened on Monday after three years of work on its two towers.</p>"
    "<p>Engineers said the deck will carry forty thousand cars a day once the tolls are set.</p>"
    "<p>Also on Coast News:</p>"
    "<div class=\"promo\"><h4>The ferry's last summer</h4>"
    "<p>For sixty years the ferry carried the town across the water, and its crews knew every tide.</p></div>"
    "<p>The council will vote on the tolls in spring, after a summer of counting the traffic.</p>"
    "<h3>Related articles</h3>"
    "<ul><li>Tunnel plans return: the old idea of a tunnel under the harbour is back on the table.</li></ul>"
    "<p>Related: <a href=\"/ferry\">The ferry's last summer</a></p>"
    "<p>The bridge's lights were switched on at dusk in front of a crowd of several thousand.</p>"
    "</div></body></html>";

static const char POINTER_OVER_HEADLINE[] =
    "<html><head><title>Bridge opens</title></head><body><p>More stories:</p>"
    "<div><h1>Bridge opens</h1>"
    "<p>The new harbour bridge opened on Monday after three years of work on its two towers.</p></div>"
    "</body></html>";

static void check_pointed(void) {
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0;
  static const expect ex[] = {
      {"The new harbour bridge", 1}, {"Also on Coast News", 0},    {"The ferry's last summer", 0},
      {"For sixty years", 0},        {"The council will vote", 1}, {"Related articles", 0},
      {"Tunnel plans return", 0},    {"Related: The ferry", 0},    {"The bridge's lights", 1}};
  check_page(POINTED, &co, NULL, ex, sizeof ex / sizeof *ex);
  static const expect headline[] = {{"More stories", 0}, {"The new harbour bridge", 1}};
  check_page(POINTER_OVER_HEADLINE, &co, NULL, headline, sizeof headline / sizeof *headline);
}

/* Text in a widget or among related items goes though the model keeps
 * it (a blog's "about me", another post's teaser); a page builder's
 * "elementor-widget" block and an element holding half the page's text
 * (the page itself, whatever its name) stay. */
static const char BESIDE[] =
    "<html><head><title>Spring at the mill</title></head><body><div class=\"post\">"
    "<p>The mill pond thawed in the first week of March, and the wheel turned again for the first time since "
    "November, slowly at first and then with the old rumble that carries across the whole valley.</p>"
    "<div class=\"elementor-widget elementor-widget-text-editor\"><p>The miller says the new paddles will last "
    "another thirty winters if the ice stays away from the race.</p></div>"
    "<p>Visitors can watch the grinding every Saturday until the end of October, and the shop sells the flour.</p>"
    "</div><div class=\"widget widget_text\"><p>I am a retired engineer who writes about old machines, "
    "water power and the people who keep both running in our valley.</p></div>"
    "<div class=\"related-posts\"><p>Last autumn we followed the millwright as he rebuilt the sluice gate "
    "by hand over three long weeks.</p></div></body></html>";

static const char BESIDE_PAGE[] =
    "<html><head><title>Spring at the mill</title></head><body><div id=\"related-stories\">"
    "<p>The mill pond thawed in the first week of March, and the wheel turned again for the first time since "
    "November, slowly at first and then with the old rumble that carries across the whole valley.</p>"
    "<p>Visitors can watch the grinding every Saturday until the end of October, and the shop sells the flour.</p>"
    "</div><p>A short line outside.</p></body></html>";

static void check_box_beside(void) {
  tbk_content_options co = without_page_checks();
  static const expect ex[] = {{"The mill pond thawed", 1},
                              {"The miller says", 1},
                              {"Visitors can watch", 1},
                              {"I am a retired engineer", 0},
                              {"Last autumn we followed", 0}};
  check_page(BESIDE, &co, NULL, ex, sizeof ex / sizeof *ex);
  static const expect page[] = {{"The mill pond thawed", 1}, {"Visitors can watch", 1}};
  check_page(BESIDE_PAGE, &co, NULL, page, sizeof page / sizeof *page);
}

int main(void) {
  tbk_units *ux = NULL;
  tbk_page *p = NULL;
  CHECK_INT(tbk_units_new(NULL, &ux, NULL), TBK_OK);
  CHECK_INT(tbk_page_parse(PAGE, sizeof PAGE - 1, NULL, &p, NULL), TBK_OK);
  if (!ux || !p) return 1;
  CHECK_INT(tbk_units_page(ux, p, NULL, NULL), TBK_OK);
  tbk_content_options co;
  tbk_content_options_init(&co);
  co.min_kept_words = 0; /* the fallback would bring back what a page this short loses */

  /* The default: captions, credit lines, script notices, an ad's label,
   * bare dates (in the lists' languages too), a sign-up heading, the tag
   * line, an archive entry, a caption ending in its credit and a "Read
   * more:" pointer go; a table, a quotation in a <figure>, a long
   * paragraph that merely names JavaScript, a sentence with a date, a
   * price beside a date, a batch file's "set" (the beginning of
   * settembre), a version's heading with its pilcrow, another heading, a
   * list item with a parenthesis and a number alone stay. */
  static const expect deflt[] = {
      {"Harbour bridge opens", 1},
      {"Three years of work end", 1},
      {"Jo Lee, harbour", 1},
      {"longest crossing", 1},
      {"From the harbour desk", 1},
      {"Its two towers rise", 1},
      {"The new harbour bridge opened", 1},
      {"The bridge at dawn", 0},
      {"Photo: Jo Lee", 0},
      {"Crowds on the deck", 0},
      {"Reuters / Sam Cole", 0},
      {"This slideshow requires JavaScript", 0},
      {"Engineers said", 1},
      {"Length in metres", 1},
      {"finest crossing", 1},
      {"A paragraph that mentions JavaScript", 1},
      {"Advertisement", 0},
      {"Monday, November 18, 2019", 0},
      {"Updated: 19/11/2019", 0},
      {"Dienstag, 4. Juni", 0},
      {"Publi\303\251 le 5 mars", 0},
      {"opublikowano", 0},
      {"martes, 3 de mayo", 0},
      {"Mai 2019: 9.990", 1},
      {"set /a n=1024", 1},
      {"4.1\302\266", 1},
      {"On May 4, 2019 the council", 1},
      {"Sign up for our newsletter", 0},
      {"How the money was raised", 1},
      {"Tags: bridges", 0},
      {"Drivers queue", 0},
      {"The toll rose", 1},
      {"Read more: Bridge", 0},
      {"Related reading", 1},
      {"September (12)", 0},
      {"Steel (40%)", 1},
      {"1192", 1},
  };
  check_units(p, ux, &co, deflt, sizeof deflt / sizeof *deflt);

  /* --body (schema.org articleBody): the headline, the heading before the
   * first paragraph, the byline, the standfirst and what the article's
   * <header> holds go too; the body's paragraphs (a long one in an element
   * named like a standfirst too) and its later headings stay. */
  static const expect body[] = {
      {"Harbour bridge opens", 0},
      {"Three years of work end", 0},
      {"Jo Lee, harbour", 0},
      {"From the harbour desk", 0},
      {"Its two towers rise", 1},
      {"longest crossing", 0},
      {"The new harbour bridge opened", 1},
      {"Engineers said", 1},
      {"How the money was raised", 1},
      {"The bridge at dawn", 0},
  };
  co.body = 1;
  check_units(p, ux, &co, body, sizeof body / sizeof *body);
  tbk_buf text = {0};
  unsigned char *keep = calloc(tbk_units_count(ux), 1);
  CHECK_INT(tbk_render_units_text(p, ux, keep, &co, &text, NULL), TBK_OK);
  CHECK(text.len == 0); /* no headline line either */
  tbk_buf_free(&text);
  free(keep);

  tbk_page_free(p);
  tbk_units_free(ux);
  check_gaps();
  check_gallery();
  check_last_resort();
  check_prose_margin();
  check_consent();
  check_pointer_heading();
  check_article_parent();
  check_reference();
  check_rule_names();
  check_text_share();
  check_prose_box();
  check_records();
  check_recipe();
  check_headings();
  check_pointed();
  check_box_beside();
  check_site_list();
  check_tables();
  check_declared();
  check_prose();
  return check_report();
}
