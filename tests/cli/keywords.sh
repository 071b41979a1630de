#!/usr/bin/env bash
# tbk-keywords: the example article's keywords with the shipped model (the
# navigation's words gone after denoising), both formats, --text, a
# background table built and used, Chinese and Japanese spans, a ranker
# trained from <meta> keywords and used, and the refusals with their exit
# codes.
. "$(dirname "$0")/lib.sh"
tmp_reset
KW=$TBK_BIN/keywords/tbk-keywords
PROG=tbk-keywords
ex=$TBK_SRC/datasets/examples
export TBK_MODEL=$TBK_SRC/models/default.model

expect_rc 0 "$KW" --help
grep -q -- "--denoise MODE" "$OUT" || die "--help lacks --denoise"
grep -q "^  5  model, ranker" "$OUT" || die "--help lacks the exit table"
expect_rc 0 "$KW" --version
grep -qx "tbk-keywords $TBK_PROJECT_VERSION" "$OUT" || die "bad --version: $(cat "$OUT")"

# The article's subject first; "courier" (the site's name in the
# navigation and footer) only without denoising.
expect_rc 0 "$KW" -n 5 "$ex/news-article.html"
[[ $(wc -l <"$OUT") == 5 ]] || die "expected 5 keywords"
head -n 1 "$OUT" | grep -qP '^[\d.]+\tlibrary$' || die "first keyword is not 'library': $(cat "$OUT")"
grep -q "courier" "$OUT" && die "a navigation word survived denoising"
expect_rc 0 "$KW" -d none -n 5 "$ex/news-article.html"
grep -q "courier" "$OUT" || die "without denoising the site name should rank: $(cat "$OUT")"
expect_rc 0 "$KW" -d template -n 5 "$ex/news-article.html"

# Removed text weighs on the kept text's candidates only: at any weight
# the same candidates with the same counts; the weight moves scores up (0:
# removed text unread).
for w in 0 0.1 1; do
  expect_rc 0 "$KW" -f jsonl --removed-weight "$w" -n 1000 "$ex/news-article.html"
  cp "$OUT" "$TBK_TMP/rw$w.jsonl"
done
python3 - "$TBK_TMP"/rw{0,0.1,1}.jsonl <<'PY' || die "--removed-weight: wrong effect"
import json, sys
a, b, c = ({k["term"]: k for k in json.loads(open(f).read())["keywords"]} for f in sys.argv[1:])
for x in (b, c):
    assert a.keys() == x.keys() and all(a[t]["tf"] == x[t]["tf"] for t in a), "candidates or counts changed"
    assert all(x[t]["score"] >= a[t]["score"] for t in a), "a score fell"
assert any(b[t]["score"] > a[t]["score"] for t in a), "no score moved"
assert any(c[t]["score"] > b[t]["score"] for t in a), "weight 1 moved nothing past 0.1"
PY
expect_rc 2 "$KW" --removed-weight 1.5 "$ex/news-article.html"

# jsonl: one object per page, n keywords each.
expect_rc 0 "$KW" -f jsonl -n 3 "$ex/news-article.html" "$ex/blog-post.html"
python3 - "$OUT" <<'PY' || die "jsonl output is malformed"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert len(rows) == 2, rows
for r in rows:
    assert r["lang"] == "en" and r["tokens"] > 100 and len(r["keywords"]) == 3, r
    s = [k["score"] for k in r["keywords"]]
    assert s == sorted(s, reverse=True), s
PY

# Plain text: a line is a paragraph; stop words bound the phrases.
printf 'The solar panels of the roof.\nSolar panels are cheap. Solar panels!\n' >"$TBK_TMP/t.txt"
expect_rc 0 "$KW" --text --df none -n 2 "$TBK_TMP/t.txt"
[[ "$(cat "$OUT")" == $'3\tsolar\n3\tsolar panels' ]] || die "--text ranking: $(cat "$OUT")"
# Without --df the shipped table beside the model: tf x (1 + ln((D+1)/(df+1))),
# "solar" in 53 of its 2413 documents, "solar panel" in fewer than 10 (not
# kept, df 0): 3 x 3.8002 and 3 x 8.7890.
grep -qP '^53\tsolar$' "$TBK_SRC/models/keywords.df" || die "models/keywords.df: 'solar' is not in 53 documents"
expect_rc 0 "$KW" --text -n 2 "$TBK_TMP/t.txt"
[[ "$(cat "$OUT")" == $'26.37\tsolar panels\n14.4\tsolar' ]] || die "--text with the shipped table: $(cat "$OUT")"
# A model in a directory of its own: no table (idf 1), until one is put beside
# it ("solar" in all 9 documents: idf 1; "solar panel" in none: 1 + ln 10).
mkdir -p "$TBK_TMP/mdir"
cp "$TBK_MODEL" "$TBK_TMP/mdir/my.model"
expect_rc 0 "$KW" -m "$TBK_TMP/mdir/my.model" --text -n 2 "$TBK_TMP/t.txt"
[[ "$(cat "$OUT")" == $'3\tsolar\n3\tsolar panels' ]] || die "no table beside the model: $(cat "$OUT")"
printf 'tbk-keywords-df 1\ndocs 9\nkeys 1\n9\tsolar\nend\n' >"$TBK_TMP/mdir/keywords.df"
expect_rc 0 "$KW" -m "$TBK_TMP/mdir/my.model" --text -n 1 "$TBK_TMP/t.txt"
[[ "$(cat "$OUT")" == $'9.908\tsolar panels' ]] || die "the table beside the model: $(cat "$OUT")"

# Chinese and Japanese: keywords are spans of the source text (博物馆, not
# the bigrams 博物 / 物馆), bounded by function words (了 和 在 的; の を
# では), never a Kana inflection (しました).
printf '博物馆很大。我们参观了博物馆和图书馆。\n图书馆在博物馆旁边。博物馆的展览很好。\n' >"$TBK_TMP/zh.txt"
expect_rc 0 "$KW" --text --df none -n 2 "$TBK_TMP/zh.txt"
[[ "$(cat "$OUT")" == $'4\t博物馆\n2\t图书馆' ]] || die "Chinese keywords: $(cat "$OUT")"
printf '東京の博物館を見学しました。博物館では展示を見ました。\n' >"$TBK_TMP/ja.txt"
expect_rc 0 "$KW" --text --df none -f jsonl "$TBK_TMP/ja.txt"
python3 - "$OUT" <<'PY' || die "Japanese keywords: $(cat "$OUT")"
import json, sys
r = json.loads(open(sys.argv[1], encoding="utf-8").read())
assert r["lang"] == "ja" and r["tokens"] == 25, r
assert [(k["term"], k["tf"]) for k in r["keywords"]] == [("博物館", 2), ("東京", 1), ("見学", 1), ("展示", 1)], r
PY

# Synthetic pages of one site: a navigation bar on every page, a topic each,
# the topic in <meta name="keywords">.
mkdir -p "$TBK_TMP/site/s"
topics=(volcano glacier desert meadow canyon lagoon tundra savanna)
for i in "${!topics[@]}"; do
  t=${topics[$i]}
  {
    echo "<html><head><title>The ${t^} page</title><meta name=\"keywords\" content=\"$t, weather\"></head><body>"
    echo "<ul><li><a href=/>Home</a></li><li><a href=/n>Newsletter subscription offers</a></li><li><a href=/s>Subscription shop</a></li></ul>"
    echo "<div><h1>All about the $t</h1><p>The $t is a place. Visitors of the $t see the $t at dawn, and the weather of the $t changes.</p>"
    echo "<p>Every $t has its own weather; scientists study each $t for years.</p></div>"
    echo "<div>Newsletter subscription offers and subscription deals every week.</div></body></html>"
  } >"$TBK_TMP/site/s/p$i.html"
done
expect_rc 0 "$KW" --build-df --min-df 1 -d none -o "$TBK_TMP/site.df" "$TBK_TMP/site"
head -n 2 "$TBK_TMP/site.df" | tr '\n' ' ' | grep -q "^tbk-keywords-df 1 docs 8 " || die "bad df header: $(head -n 3 "$TBK_TMP/site.df")"
grep -qP '^8\tsubscription$' "$TBK_TMP/site.df" || die "subscription should be in all 8 documents"
grep -qP '^1\tvolcano$' "$TBK_TMP/site.df" || die "volcano should be in 1 document"
expect_rc 0 "$KW" --df "$TBK_TMP/site.df" -d none -n 1 "$TBK_TMP/site/s/p0.html"
grep -qP '\tvolcano$' "$OUT" || die "with the table the topic should come first: $(cat "$OUT")"

expect_rc 0 "$KW" --train-ranker --df "$TBK_TMP/site.df" -d none -o "$TBK_TMP/r.ranker" "$TBK_TMP/site"
head -n 2 "$TBK_TMP/r.ranker" | grep -q "^trained 8 " || die "the ranker should be trained on 8 pages: $(head -n 2 "$TBK_TMP/r.ranker")"
expect_rc 0 "$KW" --ranker "$TBK_TMP/r.ranker" --df "$TBK_TMP/site.df" -d none -n 1 "$TBK_TMP/site/s/p3.html"
grep -qP '^0\.\d{4}\tmeadow$' "$OUT" || die "trained ranker: $(cat "$OUT")"

# tbk-eval keywords: train on the site, test on a second one; every page's
# topic is its gold keyword ("weather", in every page's meta, is the site's
# and left out), so every setting finds it first.
mkdir -p "$TBK_TMP/site2/t"
for i in 0 1 2 3; do
  t=$(echo harbor orchard plateau estuary | cut -d' ' -f$((i + 1)))
  sed "s/volcano/$t/g; s/Volcano/${t^}/g" "$TBK_TMP/site/s/p0.html" >"$TBK_TMP/site2/t/q$i.html"
done
expect_rc 0 "$EVAL" keywords -m "$TBK_MODEL" --train "$TBK_TMP/site" --test "$TBK_TMP/site2" -o "$TBK_TMP/kw.json" \
  --per-page "$TBK_TMP/kw.tsv"
grep -q "^test pages with gold: 4 (1.00 gold keywords" "$OUT" || die "tbk-eval keywords: $(head -n 3 "$OUT")"
grep -qE "^ORD +4 +100.00 +100.00 +100.00 +100.00 +100.00$" "$OUT" || die "ORD row: $(cat "$OUT")"
python3 - "$TBK_TMP/kw.json" <<'PY' || die "tbk-eval keywords JSON is malformed"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["test_pages"] == 4 and r["train_pages"] == 8, r
rows = {(x["ranker"], x["setting"]): x for x in r["rows"] if "setting" in x}
assert rows[("tfidf", "DN")]["top"][0] == 100.0, rows
assert "tf_log" in r["ranker"], r
PY
# --per-page: a row per test page and setting, the page's own scores (each
# page's topic first, so 100 at every N).
python3 - "$TBK_TMP/kw.tsv" "$TBK_TMP/kw.json" <<'PY' || die "tbk-eval keywords --per-page: $(head -n 5 "$TBK_TMP/kw.tsv")"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
means = {(x["ranker"], x["setting"]): x for x in json.load(open(sys.argv[2]))["rows"] if "setting" in x}
pages = {r["page"] for r in rows}
assert len(pages) == 4 and all(p.endswith(".html") for p in pages), pages
assert all(r["gold_keys"] == "1" for r in rows), rows
for (ranker, setting), m in means.items():
    mine = [r for r in rows if r["ranker"] == ranker and r["setting"] == setting]
    assert len(mine) == m["pages"], (ranker, setting, len(mine))
    for k, col in enumerate(("top1", "top2", "top3", "top5", "top10")):
        assert abs(sum(float(r[col]) for r in mine) / len(mine) - m["top"][k]) < 0.01, (ranker, setting, col)
PY
expect_rc 0 "$EVAL" keywords -m "$TBK_MODEL" --all-gold --train "$TBK_TMP/site" --test "$TBK_TMP/site2"
grep -q "^test pages with gold: 4 (2.00 gold keywords" "$OUT" || die "--all-gold keeps 'weather': $(head -n 3 "$OUT")"
# --page-specific without --train: tbk-keywords' own TF-IDF ranking with the
# given table; "weather" (every page's) is no page's own, and a topic two
# pages list ("harbor" on q0 and q1) is neither's: q0 is left without gold.
mkdir -p "$TBK_TMP/site3/t"
cp "$TBK_TMP"/site2/t/q*.html "$TBK_TMP/site3/t/"
sed -i 's/content="orchard, weather"/content="orchard, harbor, weather"/' "$TBK_TMP/site3/t/q1.html"
expect_rc 0 "$EVAL" keywords -m "$TBK_MODEL" --page-specific --df "$TBK_TMP/site.df" --test "$TBK_TMP/site3" -o "$TBK_TMP/ps.json"
grep -q "^test pages with gold: 3 (1.00 gold keywords" "$OUT" || die "--page-specific: $(head -n 3 "$OUT")"
grep -q "^trained ranker" "$OUT" && die "no --train, no trained ranker: $(cat "$OUT")"
grep -qE "^DN +3 +100.00 +100.00 +100.00 +100.00 +100.00$" "$OUT" || die "--page-specific DN row: $(cat "$OUT")"
python3 - "$TBK_TMP/ps.json" <<'PY' || die "--page-specific JSON: $(cat "$TBK_TMP/ps.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["test_pages"] == 3 and r["gold_keys"] == 3 and r["ranker"] is None, r
assert {x["ranker"] for x in r["rows"]} == {"tfidf"}, r
PY
# Fewer than 4 pages with meta keywords: nothing to tell the site's from the page's.
expect_rc 1 "$EVAL" keywords -m "$TBK_MODEL" --page-specific --test "$TBK_TMP/site3/t/q1.html" --test "$TBK_TMP/site3/t/q2.html"
expect_err "no test page has gold keywords"
expect_rc 2 "$EVAL" keywords -m "$TBK_MODEL" --page-specific --all-gold --test "$TBK_TMP/site3"
expect_rc 2 "$EVAL" keywords -m "$TBK_MODEL" --ranker-out "$TBK_TMP/no.ranker" --test "$TBK_TMP/site3"
expect_rc 2 "$EVAL" keywords -m "$TBK_MODEL" --train "$TBK_TMP/site"
PROG="tbk-eval keywords" expect_messages

# Refusals.
expect_rc 2 "$KW" -d everything "$ex/news-article.html"
expect_err "^tbk-keywords: error: --denoise: 'everything' is not none, template or content"
expect_messages
expect_rc 2 "$KW" --build-df "$ex/news-article.html"
expect_rc 2 "$KW"
printf 'tbk-keywords-df 1\ndocs 1\nkeys 3\n1\ta\nend\n' >"$TBK_TMP/bad.df"
expect_rc 5 "$KW" --df "$TBK_TMP/bad.df" "$ex/news-article.html"
expect_err "bad.df: line 5"
sed 's/tf_log/tf_lag/' "$TBK_TMP/r.ranker" >"$TBK_TMP/other.ranker"
expect_rc 5 "$KW" --ranker "$TBK_TMP/other.ranker" "$ex/news-article.html"
expect_err "other features"
expect_rc 1 "$KW" --ranker "$TBK_TMP/missing.ranker" "$ex/news-article.html"
expect_messages
# A page that cannot be read is skipped, the others done: exit 3.
: >"$TBK_TMP/empty.html"
expect_rc 3 "$KW" "$ex/news-article.html" "$TBK_TMP/empty.html"
grep -q "==> .*news-article.html <==" "$OUT" || die "the readable page was not done"
# The output file appears only complete.
expect_rc 0 "$KW" -o "$TBK_TMP/o.txt" "$ex/news-article.html"
[[ -s $TBK_TMP/o.txt ]] || die "-o wrote nothing"
expect_no_tmp "$TBK_TMP"
echo ok
