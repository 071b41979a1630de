/* Keyword extraction: candidates, hand-computed TF-IDF rankings with and
 * without a background table, Chinese and Japanese spans, the paper's
 * top-N scores, stems, gold from
 * <meta>, the DF and ranker files, the trainer and the paired t-test. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tbk_internal.h"

static tbk_kw_extractor *x;

static void doc(const char *text) {
  tbk_kw_begin(x);
  CHECK_INT(tbk_kw_add_text(x, text, strlen(text), 0), TBK_OK);
  CHECK_INT(tbk_kw_finish(x, NULL), TBK_OK);
}

/* The candidates of page p with keep (NULL: every run kept). */
static void page_doc(const tbk_page *p, const unsigned char *keep) {
  tbk_kw_begin(x);
  CHECK_INT(tbk_kw_add_page(x, p, keep), TBK_OK);
  CHECK_INT(tbk_kw_finish(x, NULL), TBK_OK);
}

static const tbk_kw_cand *find(const char *key) {
  for (size_t i = 0; i < tbk_kw_count(x); i++)
    if (strcmp(tbk_kw_cands(x)[i].key, key) == 0) return &tbk_kw_cands(x)[i];
  return NULL;
}

/* The ranking as "key|key|...". */
static const char *ranking(void) {
  static char buf[1024];
  buf[0] = '\0';
  for (size_t i = 0; i < tbk_kw_count(x); i++) {
    if (i) strcat(buf, "|");
    strcat(buf, tbk_kw_cands(x)[i].key);
  }
  return buf;
}

static const char PIE[] = "Apple pie. Apple cake and apple pie.";

static void test_candidates_and_tfidf(void) {
  doc(PIE);
  CHECK_STR(tbk_kw_lang(x), "en");
  CHECK_INT(tbk_kw_tokens(x), 7);
  /* "and" is a stop word: no candidate starts or ends with it, but one may
   * hold it; "pie apple" would cross the sentence end. */
  CHECK_INT(tbk_kw_count(x), 6);
  CHECK(find("cake and apple") != NULL);
  CHECK(find("and apple") == NULL);
  CHECK(find("apple cake and") == NULL);
  CHECK(find("pie apple") == NULL);
  const tbk_kw_cand *c = find("apple pie");
  CHECK(c && c->tf == 2 && c->first == 0 && c->words == 2);
  c = find("cake");
  CHECK(c && c->tf == 1 && c->first == 3);
  /* TF-IDF without a table is tf; ties go to the earlier first occurrence,
   * then the key. */
  tbk_kw_rank(x, NULL, NULL);
  CHECK_STR(ranking(), "apple|apple pie|pie|apple cake|cake|cake and apple");
  CHECK_NEAR(tbk_kw_cands(x)[0].score, 3.0, 1e-12);
  CHECK_NEAR(tbk_kw_cands(x)[0].x[TBK_KW_F_TF_LOG], log(4.0), 1e-12);
  CHECK_NEAR(tbk_kw_cands(x)[1].x[TBK_KW_F_FIRST_POS], 0.0, 1e-12);
  CHECK_NEAR(tbk_kw_cands(x)[2].x[TBK_KW_F_FIRST_POS], 1.0 / 7.0, 1e-12);

  /* Numbers alone are no keywords; with a word they are. */
  doc("2012 report: 10 14 and the 2012 report");
  CHECK(find("2012") == NULL && find("10 14") == NULL);
  CHECK(find("2012 report") != NULL && find("2012 report")->number);
}

static void test_df_ranking(void) {
  tbk_kw_df *df;
  CHECK_INT(tbk_kw_df_new(&df, NULL), TBK_OK);
  doc("Apple juice.");
  CHECK_INT(tbk_kw_df_add(df, x, NULL), TBK_OK);
  doc("Apple tart.");
  CHECK_INT(tbk_kw_df_add(df, x, NULL), TBK_OK);
  CHECK_INT(tbk_kw_df_docs(df), 2);
  CHECK_INT(tbk_kw_df_get(df, "apple", 5), 2);
  CHECK_INT(tbk_kw_df_get(df, "apple tart", 10), 1);
  /* idf = 1 + ln((D + 1) / (df + 1)): apple 1 (score 3), pie and apple pie
   * 1 + ln 3 (score 2 * 2.0986 = 4.197), cake and its phrases 2.0986. */
  doc(PIE);
  tbk_kw_rank(x, df, NULL);
  CHECK_STR(ranking(), "apple pie|pie|apple|apple cake|cake|cake and apple");
  CHECK_NEAR(tbk_kw_cands(x)[0].score, 2 * (1 + log(3.0)), 1e-12);
  CHECK_NEAR(tbk_kw_cands(x)[2].score, 3.0, 1e-12);

  /* The file: written, read back, the same numbers; min_df drops keys. */
  tbk_buf b = {0};
  CHECK_INT(tbk_kw_df_write(df, 2, &b, NULL), TBK_OK);
  CHECK_STR(b.data, "tbk-keywords-df 1\ndocs 2\nkeys 1\n2\tapple\nend\nchecksum f02ba3e33b38a6817ed12f528d155432\n");
  b.len = 0;
  CHECK_INT(tbk_kw_df_write(df, 1, &b, NULL), TBK_OK);
  CHECK_STR(b.data,
            "tbk-keywords-df 1\ndocs 2\nkeys 5\n2\tapple\n1\tapple juice\n1\tapple tart\n1\tjuice\n1\ttart\nend\n"
            "checksum 706ac0ab612595a7633dea85cedb7936\n");
  CHECK_STR(tbk_kw_df_id(df), ""); /* built, not read */
  tbk_kw_df *back;
  CHECK_INT(tbk_kw_df_read(b.data, b.len, &back, NULL), TBK_OK);
  CHECK_INT(tbk_kw_df_docs(back), 2);
  CHECK_STR(tbk_kw_df_id(back), "706ac0ab612595a7633dea85cedb7936"); /* the MD5 of its text to "end" */
  CHECK_INT(tbk_kw_df_get(back, "juice", 5), 1);
  tbk_kw_df_free(back);
  tbk_error err;
  const char *bad[] = {
      "tbk-keywords-df 2\n",
      "tbk-keywords-df 1\ndocs 2\nkeys 2\n2\tapple\nend\n",
      "tbk-keywords-df 1\ndocs 2\nkeys 1\n3\tapple\nend\n",
      "tbk-keywords-df 1\ndocs 2\nkeys 1\n2\tapple\n",
      "tbk-keywords-df 1\ndocs 2\nkeys 1\n2\tapple\nend\nchecksum 00000000000000000000000000000000\n",
      "tbk-keywords-df 1\ndocs 2\nkeys 1\n2\tapple\nend\nchecksum f02ba3e33b38a6817ed12f528d155432\nmore\n"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    back = (tbk_kw_df *)1;
    CHECK_INT(tbk_kw_df_read(bad[i], strlen(bad[i]), &back, &err), TBK_ERR_FORMAT);
    CHECK(back == NULL);
  }
  /* Merging adds documents and counts. */
  tbk_kw_df *sum;
  CHECK_INT(tbk_kw_df_new(&sum, NULL), TBK_OK);
  CHECK_INT(tbk_kw_df_merge(sum, df, NULL), TBK_OK);
  CHECK_INT(tbk_kw_df_merge(sum, df, NULL), TBK_OK);
  CHECK_INT(tbk_kw_df_docs(sum), 4);
  CHECK_INT(tbk_kw_df_get(sum, "apple", 5), 4);
  tbk_kw_df_free(sum);
  tbk_buf_free(&b);
  tbk_kw_df_free(df);
}

static void test_topn(void) {
  tbk_kw_gold *g;
  CHECK_INT(tbk_kw_gold_new(&g, NULL), TBK_OK);
  /* Phrases split at , ; | and line ends; more than three words is none. */
  const char *meta = "Apple Pies, CAKE; banana split | one two three four\nbananas split";
  CHECK_INT(tbk_kw_gold_add(g, x, meta, strlen(meta)), 3);
  CHECK(tbk_kw_gold_has(g, "apple pie") && tbk_kw_gold_has(g, "cake") && tbk_kw_gold_has(g, "banana split"));
  doc(PIE);
  tbk_kw_rank(x, NULL, NULL); /* apple | apple pie | pie | apple cake | cake | ... */
  /* "banana split" is nowhere in the text: A = {apple pie, cake}. */
  CHECK_INT(tbk_kw_gold_restrict(g, x), 2);
  const tbk_kw_cand *c = tbk_kw_cands(x);
  size_t n = tbk_kw_count(x);
  CHECK_NEAR(tbk_kw_topn(c, n, g, 1), 0.0, 1e-12);  /* 0 / min(2, 1) */
  CHECK_NEAR(tbk_kw_topn(c, n, g, 2), 0.5, 1e-12);  /* 1 / 2 */
  CHECK_NEAR(tbk_kw_topn(c, n, g, 3), 0.5, 1e-12);  /* 1 / 2 */
  CHECK_NEAR(tbk_kw_topn(c, n, g, 5), 1.0, 1e-12);  /* 2 / 2 */
  CHECK_NEAR(tbk_kw_topn(c, n, g, 10), 1.0, 1e-12); /* fewer than 10 candidates */
  CHECK(isnan(tbk_kw_topn(c, n, g, 0)));
  tbk_kw_gold_clear(g);
  CHECK(isnan(tbk_kw_topn(c, n, g, 5)));
  /* One gold keyword: every N divides by 1. */
  CHECK_INT(tbk_kw_gold_add(g, x, "pie", 3), 1);
  CHECK_NEAR(tbk_kw_topn(c, n, g, 2), 0.0, 1e-12);
  CHECK_NEAR(tbk_kw_topn(c, n, g, 3), 1.0, 1e-12);
  tbk_kw_gold_free(g);
}

static void test_stems_and_languages(void) {
  char out[32];
  struct {
    const char *w, *stem;
  } cases[] = {{"berries", "berry"}, {"horses", "horse"}, {"shoes", "shoes"},       {"class", "class"},
               {"cats", "cat"},      {"news", "news"},    {"analysis", "analysis"}, {"bus", "bus"},
               {"is", "is"},         {"series", "sery"},  {"pies", "pie"},          {"bank", "bank"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tbk_kw_stem(cases[i].w, strlen(cases[i].w), out);
    CHECK_STR(out, cases[i].stem);
  }
  doc("Der Hund und die Katze. Die Katze schläft.");
  CHECK_STR(tbk_kw_lang(x), "de");
  CHECK(find("der") == NULL && find("hund") && find("katze")->tf == 2 && find("katze schläft"));
  doc("Le chien et le chat");
  CHECK_STR(tbk_kw_lang(x), "fr");
  CHECK(find("chien et le chat") == NULL && find("chien") != NULL);
  const char *const *codes;
  size_t nl = tbk_kw_languages(&codes);
  CHECK(nl >= 8);
  int have_en = 0;
  for (size_t i = 0; i < nl; i++)
    if (strcmp(codes[i], "en") == 0) {
      have_en = 1;
      CHECK(tbk_kw_is_stop("the", 3, i));
      CHECK(!tbk_kw_is_stop("apple", 5, i));
    }
  CHECK(have_en);
}

/* Chinese and Japanese: candidates are source spans of Han/Kana characters
 * bounded by the language's function words; a span inside a longer one
 * found twice is counted for the longer one only. */
static void test_cjk(void) {
  /* Phrases: 博物馆很大 / 参观 博物馆 图书馆 (我们 了 和 are stop words) /
   * 图书馆 博物馆旁边 (在) / 博物馆 展览很好 (的). 34 character tokens. */
  doc("博物馆很大。我们参观了博物馆和图书馆。图书馆在博物馆旁边。博物馆的展览很好。");
  CHECK_STR(tbk_kw_lang(x), "zh");
  CHECK_INT(tbk_kw_tokens(x), 34);
  /* 博物 and 物馆 occur only inside 博物馆 (4 times), 图书 and 书馆 only
   * inside 图书馆 (twice): no candidates. Of the 27 spans 23 are left. */
  CHECK(find("博物") == NULL && find("物馆") == NULL && find("图书") == NULL && find("书馆") == NULL);
  CHECK_INT(tbk_kw_count(x), 23);
  const tbk_kw_cand *c = find("博物馆");
  CHECK(c && c->tf == 4 && c->first == 0 && c->chars == 3 && c->words == 2 && strcmp(c->text, "博物馆") == 0);
  c = find("图书馆");
  CHECK(c && c->tf == 2 && c->first == 14);
  c = find("参观");
  CHECK(c && c->tf == 1 && c->first == 7 && c->words == 1);
  CHECK(find("我们参观") == NULL && find("参观了") == NULL && find("馆和图") == NULL && find("馆的展") == NULL);
  tbk_kw_rank(x, NULL, NULL);
  /* then the spans seen once, by first occurrence */
  const char *top5 = "博物馆|图书馆|博物馆很|博物馆很大|物馆很|";
  CHECK(strncmp(ranking(), top5, strlen(top5)) == 0);
  CHECK_NEAR(tbk_kw_cands(x)[0].score, 4.0, 1e-12);

  /* Japanese: の を では しました ました are stop words; 見 alone is too short.
   * 25 tokens; 博物館 twice, 東京 at 0, 見学 at 7, 展示 at 18. */
  doc("東京の博物館を見学しました。博物館では展示を見ました。");
  CHECK_STR(tbk_kw_lang(x), "ja");
  CHECK_INT(tbk_kw_tokens(x), 25);
  CHECK_INT(tbk_kw_count(x), 4);
  tbk_kw_rank(x, NULL, NULL);
  CHECK_STR(ranking(), "博物館|東京|見学|展示");
  /* An inflection outside the stop list is no candidate: no span starts or
   * ends with Hiragana (行われた, われ, れた). */
  doc("展示が行われた。展示が行われた。");
  CHECK_INT(tbk_kw_count(x), 1);
  CHECK(find("展示") && find("展示")->tf == 2);
  /* Katakana words are spans too; Latin words beside them stay words. */
  doc("ロンドンのホテル。ロンドンのiPhone。");
  CHECK(find("ロンドン") && find("ロンドン")->tf == 2 && find("ロン") == NULL && find("iphone") != NULL);

  /* A span never starts or ends inside a Katakana word (#32): no リュ, ュッ,
   * ック or 新しいリ from リュックサック, seen once; the word whole, and
   * with what precedes it. */
  doc("新しいリュックサックを買いました。");
  CHECK(find("リュックサック") && find("新しいリュックサック"));
  const char *cut[] = {"リュ", "ュッ", "ック", "ックサック", "リュックサ", "サッ", "新しいリ", "新しいリュック"};
  for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) CHECK(find(cut[i]) == NULL);
  for (size_t i = 0; i < tbk_kw_count(x); i++) {
    const char *t = tbk_kw_cands(x)[i].text; /* first letter: ュ, ッ, ク, サ are inside the word */
    CHECK(strncmp(t, "ュ", 3) && strncmp(t, "ッ", 3) && strncmp(t, "ク", 3) && strncmp(t, "サ", 3));
  }
  /* ... and the longer span an occurrence is part of is the whole word:
   * 東京 inside 東京タワー (twice) counts once, alone. */
  doc("東京タワーに行った。東京タワーは高い。東京は大きい。");
  CHECK(find("東京タワー") && find("東京タワー")->tf == 2);
  CHECK(find("東京") && find("東京")->tf == 1);
  CHECK(find("東京タ") == NULL && find("タワ") == NULL && find("ワー") == NULL);
  /* Numbers are no keywords in any digits: fullwidth (２０２４, ３),
   * Arabic-Indic, ASCII. */
  doc("２０２４年３月に東京で買った。٢٠٢٤ and 2024 and ３Ｄ.");
  CHECK(find("東京") != NULL);
  CHECK(find("２０２４") == NULL && find("３") == NULL && find("٢٠٢٤") == NULL && find("2024") == NULL);
  CHECK(find("３ｄ") == NULL && find("３Ｄ") == NULL);
  for (size_t i = 0; i < tbk_kw_count(x); i++) {
    const char *t = tbk_kw_cands(x)[i].text;
    CHECK(strncmp(t, "\xEF\xBC", 2) != 0); /* no fullwidth form (U+FF00-FF3F) starts one */
  }

  /* Gold keys of these scripts are the span itself. */
  tbk_buf k = {0};
  CHECK_INT(tbk_kw_key_of(x, "博物馆", strlen("博物馆"), &k), 1);
  CHECK_STR(k.data, "博物馆");
  k.len = 0;
  CHECK_INT(tbk_kw_key_of(x, " ロンドン ", strlen(" ロンドン "), &k), 1);
  CHECK_STR(k.data, "ロンドン");
  k.len = 0;
  CHECK_INT(tbk_kw_key_of(x, "した", strlen("した"), &k), 0);
  CHECK_INT(tbk_kw_key_of(x, "博", strlen("博"), &k), 0);
  CHECK_INT(tbk_kw_key_of(x, "iPhone手机", strlen("iPhone手机"), &k), 0);
  CHECK_INT(k.len, 0);
  tbk_buf_free(&k);
}

static const char SOLAR[] =
    "<html><head><meta name=\"keywords\" content=\"solar panels, sun &amp; power\">"
    "<title>Solar Power</title><META property='article:tag' content=roofs>"
    "<meta name=\"description\" content=\"keep me\"></head>"
    "<body><h1>Solar panels</h1><p>Buy <a href=\"x\">solar panels</a> now. Panels are cheap.</p></body></html>";

static void test_page(void) {
  /* The meta keywords leave the page, length and the rest unchanged. */
  char html[sizeof SOLAR];
  memcpy(html, SOLAR, sizeof SOLAR);
  tbk_buf gold = {0};
  CHECK_INT(tbk_kw_meta_strip(html, sizeof SOLAR - 1, &gold), 2);
  CHECK_STR(gold.data, "solar panels, sun & power\nroofs\n");
  CHECK(strstr(html, "keywords") == NULL && strstr(html, "roofs") == NULL && strstr(html, "keep me") != NULL);
  CHECK_INT(strlen(html), sizeof SOLAR - 1);
  gold.len = 0;

  tbk_page *p;
  CHECK_INT(tbk_kw_page_parse(SOLAR, sizeof SOLAR - 1, NULL, &p, &gold, NULL), TBK_OK);
  CHECK_STR(gold.data, "solar panels, sun & power\nroofs\n");
  page_doc(p, NULL);
  const tbk_kw_cand *c = find("solar panel");
  CHECK(c && c->tf == 2 && c->heading == 1 && c->anchor == 1 && !c->in_title && c->caps == 0);
  c = find("solar");
  CHECK(c && c->tf == 2 && c->in_title && c->heading == 1 && c->caps == 1);
  c = find("power");
  CHECK(c && c->tf == 0 && c->in_title && c->first == UINT32_MAX);
  c = find("panel");
  CHECK(c && c->tf == 3 && c->caps == 1 && c->first == 1);
  /* A phrase runs across the anchor inside the paragraph, but not from the
   * heading into the paragraph, nor over the full stop. */
  CHECK(find("buy solar panel") != NULL);
  CHECK(find("panel buy") == NULL && find("now panel") == NULL);
  /* TF-IDF counts the title as one occurrence: "solar" 2 + 1 ties "panel"
   * 3 and occurs first; "power", in the title only, scores 1. */
  tbk_kw_rank(x, NULL, NULL);
  CHECK_STR(tbk_kw_cands(x)[0].key, "solar");
  CHECK_NEAR(tbk_kw_cands(x)[0].score, 3.0, 1e-12);
  CHECK_NEAR(tbk_kw_cands(x)[0].x[TBK_KW_F_TFIDF], 2.0, 1e-12); /* the feature: body only */
  CHECK_NEAR(tbk_kw_cands(x)[0].x[TBK_KW_F_CAPS], 0.5, 1e-12);
  CHECK_STR(tbk_kw_cands(x)[1].key, "panel");
  CHECK_NEAR(find("power")->score, 1.0, 1e-12);

  /* With every run removed only the title is left. */
  unsigned char keep[64] = {0};
  CHECK(p->n_runs <= sizeof keep);
  page_doc(p, keep);
  CHECK_INT(tbk_kw_tokens(x), 0);
  CHECK(find("solar power") && find("solar power")->in_title && !find("panel"));
  tbk_page_free(p);
  tbk_buf_free(&gold);
}

/* The page's own tags (<a rel="tag">) survive any denoising; other removed
 * text does not. */
static void test_rel_tag(void) {
  static const char page[] =
      "<html><head><title>Eruption</title></head><body><p>The volcano erupted at dawn.</p>"
      "<div><a rel=\"category tag\" href=\"/t/lava\">Lava flows</a> <a rel=\"tag\"><b>Ash clouds</b></a>"
      " <a rel=\"nofollow tagged\" href=\"/x\">Newsletter offers</a> <a href=\"/y\">Weather "
      "maps</a></div></body></html>";
  tbk_page *p;
  CHECK_INT(tbk_kw_page_parse(page, sizeof page - 1, NULL, &p, NULL, NULL), TBK_OK);
  unsigned char keep[64] = {0};
  CHECK(p->n_runs <= sizeof keep);
  page_doc(p, keep);
  const tbk_kw_cand *c = find("lava flow");
  CHECK(c && c->tf == 1 && c->anchor == 1);
  CHECK(find("ash cloud") && find("ash cloud")->tf == 1);
  CHECK(!find("volcano") && !find("newsletter offer") && !find("weather map"));
  CHECK(!find("flow ash")); /* no phrase across the removed space between them */
  /* Kept, nothing changes. */
  page_doc(p, NULL);
  CHECK(find("volcano") && find("lava flow") && find("weather map") && find("lava flow")->tf == 1);
  tbk_page_free(p);
}

/* Links to a tag's page (/tags/x, /tag/x, Blogger's /search/label/x) are
 * the page's tags where the text is kept or the template stage calls the
 * block the page's own (TBK_KW_KEEP_OWN), not where it is removed; a tag
 * counts once more in TF-IDF, as the title does. A path that goes on after
 * the tag, ends at the tag list or names no tag is no tag. */
static void test_tag_href(void) {
  static const char page[] =
      "<html><head><title>Night</title></head><body><p>The smoke alarm chirps at night.</p>"
      "<ul><li><a href=\"/tags/life-tip/\">life tip</a></li><li><a href=\"https://blog.example/tag/home?p=2\">home "
      "repair</a></li><li><a href=\"/search/label/Battery\">spare battery</a></li>"
      "<li><a href=\"/topics/http/sessions/\">cookie sessions</a></li><li><a href=\"/tags/\">every tag</a></li>"
      "<li><a href=\"/tags/a/b\">deep link</a></li><li><a href=\"https://tag/x\">host name</a></li></ul>"
      "</body></html>";
  tbk_page *p;
  CHECK_INT(tbk_kw_page_parse(page, sizeof page - 1, NULL, &p, NULL, NULL), TBK_OK);
  page_doc(p, NULL);
  const char *tags[] = {"life tip", "home repair", "spare battery"};
  const char *not_tags[] = {"cookie session", "deep link", "host name", "smoke alarm"};
  for (size_t i = 0; i < 3; i++) CHECK(find(tags[i]) && find(tags[i])->in_tag);
  for (size_t i = 0; i < 4; i++) CHECK(find(not_tags[i]) && !find(not_tags[i])->in_tag);
  tbk_kw_rank(x, NULL, NULL);
  CHECK_NEAR(find("life tip")->score, 2.0, 1e-12);
  CHECK_NEAR(find("smoke alarm")->score, 1.0, 1e-12);
  /* Removed: not read (unlike rel="tag"); the page's own block: the tags only. */
  unsigned char keep[64] = {0};
  CHECK(p->n_runs <= sizeof keep);
  page_doc(p, keep);
  CHECK_INT(tbk_kw_tokens(x), 0);
  memset(keep, TBK_KW_KEEP_OWN, sizeof keep);
  page_doc(p, keep);
  CHECK(find("life tip") && find("life tip")->in_tag && find("spare battery"));
  CHECK(!find("smoke alarm") && !find("cookie session") && !find("deep link"));
  tbk_page_free(p);
}

/* Removed text read with a weight: it counts into the kept text's
 * candidates (ranking them), makes none of its own, moves no body position
 * and chooses no language; with weight 0 it is not read at all. */
static void test_removed_weight(void) {
  static const char page[] =
      "<html><head><title>Port news</title></head><body><p>The harbour crane lifts ferry parts. The ferry "
      "sails.</p><div>Crane rental crane hire crane parts offers der die das und ist</div></body></html>";
  tbk_page *p;
  CHECK_INT(tbk_kw_page_parse(page, sizeof page - 1, NULL, &p, NULL, NULL), TBK_OK);
  unsigned char keep[64];
  CHECK(p->n_runs >= 2 && p->n_runs <= sizeof keep);
  memset(keep, 1, sizeof keep);
  keep[p->n_runs - 1] = 0; /* the <div> removed */
  double w[2] = {0, 0.25};
  size_t tokens[2];
  for (int k = 0; k < 2; k++) {
    tbk_kw_begin(x);
    tbk_kw_read_removed(x, w[k]);
    CHECK_INT(tbk_kw_add_page(x, p, keep), TBK_OK);
    CHECK_INT(tbk_kw_finish(x, NULL), TBK_OK);
    tokens[k] = tbk_kw_tokens(x);
    CHECK_STR(tbk_kw_lang(x), "en"); /* not the removed German stop words' */
    CHECK(!find("crane rental") && !find("rental") && !find("offer"));
    const tbk_kw_cand *c = find("crane");
    CHECK(c && c->tf == 1 && c->removed == (k ? 3u : 0u) && c->first == 2);
    CHECK(find("ferry")->tf == 2 && find("ferry")->removed == 0);
    tbk_kw_rank(x, NULL, NULL);
    /* ferry 2 beats crane 1 unread; read, crane 1 + 0.25 * 3 = 1.75 */
    CHECK_STR(tbk_kw_cands(x)[0].key, "ferry");
    CHECK_NEAR(find("crane")->score, 1.0 + w[k] * 3, 1e-12);
    CHECK_NEAR(find("crane")->x[TBK_KW_F_TFIDF], 1.0, 1e-12); /* features: kept text only */
  }
  CHECK_INT(tokens[0], tokens[1]);
  /* Weighed more than kept text, crane (1 + 0.9 * 3) passes ferry (2). */
  tbk_kw_begin(x);
  tbk_kw_read_removed(x, 0.9);
  CHECK_INT(tbk_kw_add_page(x, p, keep), TBK_OK);
  CHECK_INT(tbk_kw_finish(x, NULL), TBK_OK);
  tbk_kw_rank(x, NULL, NULL);
  CHECK_STR(tbk_kw_cands(x)[0].key, "crane");
  tbk_page_free(p);
}

/* Whose a meta keyword is: a five-page site listing its name on every page
 * and a section on two, a two-page site. */
static void test_site_gold(void) {
  tbk_kw_sites *s;
  tbk_kw_gold *g;
  CHECK_INT(tbk_kw_sites_new(&s, NULL), TBK_OK);
  CHECK_INT(tbk_kw_gold_new(&g, NULL), TBK_OK);
  static const char *const a[] = {"Volcano, Lava, Acme News, Science", "Glacier, Acme News, Science",
                                  "Desert; Acme News", "Meadow|Acme News|VOLCANO", "Canyon, Acme News, Canyon"};
  for (size_t i = 0; i < 5; i++) {
    tbk_kw_gold_clear(g);
    CHECK(tbk_kw_gold_add(g, x, a[i], strlen(a[i])) > 0);
    CHECK_INT(tbk_kw_sites_add(s, "acme", g, NULL), TBK_OK);
  }
  static const char *const b[] = {"Tundra, Bee Blog", "Lagoon, Bee Blog"};
  for (size_t i = 0; i < 2; i++) {
    tbk_kw_gold_clear(g);
    CHECK(tbk_kw_gold_add(g, x, b[i], strlen(b[i])) > 0);
    CHECK_INT(tbk_kw_sites_add(s, "bee", g, NULL), TBK_OK);
  }
  CHECK_INT(tbk_kw_sites_pages(s, "acme"), 5);
  CHECK_INT(tbk_kw_sites_pages(s, "bee"), 2);
  CHECK_INT(tbk_kw_sites_pages(s, "none"), 0);
  CHECK_INT(tbk_kw_sites_listing(s, "acme", "acme news"), 5);
  CHECK_INT(tbk_kw_sites_listing(s, "acme", "volcano"), 2); /* case folded */
  CHECK_INT(tbk_kw_sites_listing(s, "acme", "canyon"), 1);  /* once a page */
  CHECK_INT(tbk_kw_sites_listing(s, "bee", "acme news"), 0);
  /* The first page: every rule. */
  static const tbk_kw_gold_rule rules[] = {TBK_KW_GOLD_ALL, TBK_KW_GOLD_NOT_SITE_WIDE, TBK_KW_GOLD_PAGE_SPECIFIC};
  static const size_t left[] = {4, 3, 1};
  for (size_t r = 0; r < 3; r++) {
    tbk_kw_gold_clear(g);
    tbk_kw_gold_add(g, x, a[0], strlen(a[0]));
    CHECK_INT(tbk_kw_gold_site_rule(g, s, "acme", rules[r]), left[r]);
    CHECK(tbk_kw_gold_has(g, "lava")); /* the page's own term stays */
    CHECK(tbk_kw_gold_has(g, "acme news") == (rules[r] == TBK_KW_GOLD_ALL));
    CHECK(tbk_kw_gold_has(g, "science") == (rules[r] != TBK_KW_GOLD_PAGE_SPECIFIC));
  }
  /* Page-specific needs TBK_KW_SITE_MIN_PAGES pages: the two-page site has
   * no gold; the half rule keeps all of it (too few pages to tell). */
  tbk_kw_gold_clear(g);
  tbk_kw_gold_add(g, x, b[0], strlen(b[0]));
  CHECK_INT(tbk_kw_gold_site_rule(g, s, "bee", TBK_KW_GOLD_NOT_SITE_WIDE), 2);
  CHECK_INT(tbk_kw_gold_site_rule(g, s, "bee", TBK_KW_GOLD_PAGE_SPECIFIC), 0);
  tbk_kw_gold_free(g);
  tbk_kw_sites_free(s);
}

static void test_ranker(void) {
  tbk_kw_trainer *t;
  tbk_kw_gold *g;
  CHECK_INT(tbk_kw_trainer_new(&t, NULL), TBK_OK);
  CHECK_INT(tbk_kw_gold_new(&g, NULL), TBK_OK);
  tbk_kw_ranker r;
  CHECK_INT(tbk_kw_trainer_fit(t, 1.0, &r, NULL), TBK_ERR_EMPTY);
  /* The gold keyword is the title's, never the most frequent word. */
  const char *docs[][2] = {{"Zebras", "Grass grass grass zebras eat grass."},
                           {"Lions", "Savanna savanna lions hunt on the savanna."},
                           {"Eagles", "Sky sky sky eagles fly high in the sky."},
                           {"Sharks", "Water water sharks swim in water water."}};
  for (size_t i = 0; i < 4; i++) {
    tbk_kw_begin(x);
    CHECK_INT(tbk_kw_add_text(x, docs[i][0], strlen(docs[i][0]), TBK_KW_SEG_TITLE), TBK_OK);
    CHECK_INT(tbk_kw_add_text(x, docs[i][1], strlen(docs[i][1]), 0), TBK_OK);
    CHECK_INT(tbk_kw_finish(x, NULL), TBK_OK);
    tbk_kw_gold_clear(g);
    CHECK_INT(tbk_kw_gold_add(g, x, docs[i][0], strlen(docs[i][0])), 1);
    CHECK_INT(tbk_kw_trainer_add(t, x, NULL, g, 200, NULL), TBK_OK);
  }
  CHECK_INT(tbk_kw_trainer_fit(t, 10.0, &r, NULL), TBK_OK);
  CHECK_INT(r.pages, 4);
  CHECK_INT(r.positives, 4);
  CHECK(r.w[TBK_KW_F_IN_TITLE] > 0);
  /* A new page: the trained ranker puts the title's word first, TF-IDF
   * the frequent one. */
  tbk_kw_begin(x);
  CHECK_INT(tbk_kw_add_text(x, "Wolves", 6, TBK_KW_SEG_TITLE), TBK_OK);
  CHECK_INT(tbk_kw_add_text(x, "Snow snow snow wolves howl in snow.", 35, 0), TBK_OK);
  CHECK_INT(tbk_kw_finish(x, NULL), TBK_OK);
  tbk_kw_rank(x, NULL, NULL);
  CHECK_STR(tbk_kw_cands(x)[0].key, "snow");
  tbk_kw_rank(x, NULL, &r);
  CHECK_STR(tbk_kw_cands(x)[0].key, "wolve");

  /* The file, back bit for bit; other features are a schema error. */
  tbk_buf b = {0};
  CHECK_INT(tbk_kw_ranker_write(&r, &b), TBK_OK);
  tbk_kw_ranker back;
  CHECK_INT(tbk_kw_ranker_read(b.data, b.len, &back, NULL), TBK_OK);
  CHECK(memcmp(back.w, r.w, sizeof r.w) == 0 && back.bias == r.bias && back.pages == 4);
  char *other = strdup(b.data);
  memcpy(strstr(other, "tf_log"), "tf_lag", 6);
  tbk_error err;
  CHECK_INT(tbk_kw_ranker_read(other, strlen(other), &back, &err), TBK_ERR_SCHEMA);
  CHECK_INT(tbk_kw_ranker_read(b.data, b.len / 2, &back, &err), TBK_ERR_MODEL);
  free(other);
  tbk_buf_free(&b);
  tbk_kw_gold_free(g);
  tbk_kw_trainer_free(t);
}

/* What the programs print: the writers over a hand-ranked document, and a
 * training page from its meta keywords (only those among its candidates). */
static void test_writers_and_meta(void) {
  CHECK_INT(tbk_kw_extract_text(x, PIE, strlen(PIE), NULL), TBK_OK);
  tbk_kw_rank(x, NULL, NULL);
  tbk_buf b = {0};
  CHECK_INT(tbk_kw_write_text(&b, x, NULL, 2, 0), 0);
  CHECK_STR(b.data, "3\tapple\n2\tapple pie\n");
  b.len = 0;
  CHECK_INT(tbk_kw_write_text(&b, x, "p.html", 1, 1), 0);
  CHECK_STR(b.data, "==> p.html <==\n3.0000\tapple\n");
  b.len = 0;
  CHECK_INT(tbk_kw_write_jsonl(&b, x, "p\"1", 2), 0);
  CHECK_STR(b.data, "{\"page\":\"p\\\"1\",\"lang\":\"en\",\"tokens\":7,\"keywords\":[{\"term\":\"apple\","
                    "\"score\":3,\"tf\":3},{\"term\":\"apple pie\",\"score\":2,\"tf\":2}]}\n");
  b.len = 0;
  CHECK_INT(tbk_kw_write_text(&b, x, NULL, 100, 0), 0);
  size_t lines = 0;
  for (size_t i = 0; i < b.len; i++) lines += b.data[i] == '\n';
  CHECK_INT(lines, 6); /* top past the candidates: all of them */
  tbk_buf_free(&b);

  tbk_kw_trainer *t;
  CHECK_INT(tbk_kw_trainer_new(&t, NULL), TBK_OK);
  const char meta[] = "Apple Pies, custard; apple";
  CHECK_INT(tbk_kw_trainer_add_meta(t, x, NULL, meta, strlen(meta), 200, NULL), TBK_OK);
  CHECK_INT(tbk_kw_trainer_pages(t), 1);
  CHECK_INT(tbk_kw_trainer_add_meta(t, x, NULL, "custard", 7, 200, NULL), TBK_OK);
  CHECK_INT(tbk_kw_trainer_pages(t), 1); /* no gold candidate: nothing added */
  tbk_kw_ranker r;
  CHECK_INT(tbk_kw_trainer_fit(t, 1.0, &r, NULL), TBK_OK);
  CHECK_INT(r.positives, 2); /* apple, apple pie; custard is no candidate */
  CHECK_INT(r.negatives, 4);
  tbk_kw_trainer_free(t);
}

static void test_paired_t(void) {
  double m, t, p;
  /* df 1 is Cauchy: P(|T| >= 1) = 1/2; df 2: P(|T| >= t) = 1 - t / sqrt(2 + t^2). */
  CHECK_NEAR(tbk_t_two_tailed(1.0, 1.0), 0.5, 1e-12);
  CHECK_NEAR(tbk_t_two_tailed(2.0, 2.0), 1 - 2 / sqrt(6.0), 1e-12);
  CHECK_NEAR(tbk_t_two_tailed(0.0, 7.0), 1.0, 1e-12);
  /* Differences 1 2 3 4: mean 2.5, sd sqrt(5/3), t = 2.5 / (sd / 2) = 3.873. */
  double a[] = {1, 2, 3, 4}, b[] = {0, 0, 0, 0};
  tbk_paired_t(a, b, 4, &m, &t, &p);
  CHECK_NEAR(m, 2.5, 1e-12);
  CHECK_NEAR(t, 2.5 / (sqrt(5.0 / 3.0) / 2), 1e-12);
  CHECK(p > 0.02 && p < 0.04);
  /* Differences 1 and 3 (df 1): t = 2 / (sqrt(2) / sqrt(2)) = 2, p = 1 - 2 atan(2) / pi. */
  double c[] = {1, 3}, d[] = {0, 0};
  tbk_paired_t(c, d, 2, &m, &t, &p);
  CHECK_NEAR(t, 2.0, 1e-12);
  CHECK_NEAR(p, 1 - 2 * atan(2.0) / M_PI, 1e-12);
  tbk_paired_t(a, a, 4, &m, &t, &p);
  CHECK(m == 0 && t == 0 && p == 1);
  tbk_paired_t(a, b, 1, &m, &t, &p);
  CHECK(isnan(p));
}

int main(void) {
  CHECK_INT(tbk_kw_new(&x, NULL), TBK_OK);
  test_candidates_and_tfidf();
  test_df_ranking();
  test_topn();
  test_stems_and_languages();
  test_cjk();
  test_page();
  test_rel_tag();
  test_tag_href();
  test_removed_weight();
  test_site_gold();
  test_ranker();
  test_writers_and_meta();
  test_paired_t();
  tbk_kw_free(x);
  return check_report();
}
