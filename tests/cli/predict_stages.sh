#!/usr/bin/env bash
# The shipped two-stage model on our example pages. --stage template must
# give, byte for byte, what the template-only model gave before the content
# stage existed (tests/expected/*.template.*, written by the earlier build);
# the default (combined) stage must give clean article text: the headline
# first, no navigation, newsletter box, cookie notice or headline lists.
. "$(dirname "$0")/lib.sh"
ex=$TBK_SRC/datasets/examples
exp=$TBK_SRC/tests/expected
work=$TBK_TMP
rm -rf "$work"; mkdir -p "$work"
model=$TBK_SRC/models/default.model
head -1 "$model" | grep -qx "tbk-model 2" || die "models/default.model is not a two-stage model"

cd "$TBK_SRC" # the expected files name the pages by these relative paths
for page in news-article blog-post docs-page; do
  "$PRED" -m "$model" --stage template "datasets/examples/$page.html" > "$work/$page.txt" || die "$page: template stage failed"
  cmp -s "$work/$page.txt" "$exp/$page.template.txt" || die "$page: template-stage text differs from the template-only model's"
  "$PRED" -m "$model" --stage template -f jsonl "datasets/examples/$page.html" > "$work/$page.jsonl" || die "$page: jsonl"
  cmp -s "$work/$page.jsonl" "$exp/$page.template.jsonl" || die "$page: template-stage jsonl differs"
done

# The README's first command: what a new user sees.
"$PRED" "$ex/news-article.html" > "$work/news.txt" || die "tbk-predict failed on the example"
head -1 "$work/news.txt" | grep -q "^Riverside library reopens after flood repairs" || die "headline is not the first line"
for s in "The Riverside branch of the Millbrook Public Library reopened Friday morning" \
         "Select board member Aaron Delacroix" "Higher floors, fewer stairs"; do
  grep -q "$s" "$work/news.txt" || die "article text lost: $s"
done
for s in "Home / Local" "Sign up" "Most read" "Subscribe today" "The Morning Brief" "cookies" \
         "All rights reserved" "Support local journalism" "Topics:"; do
  grep -qi "$s" "$work/news.txt" && die "boilerplate survived: $s"
done
# The combined stage removes more than the template stage and keeps the
# article: its text is a subset of the page's lines.
[ "$(wc -c < "$work/news.txt")" -lt "$(wc -c < "$exp/news-article.template.txt")" ] || die "combined stage removed no more than the template stage"

# jsonl of the combined stage: one object per unit, decisions consistent.
"$PRED" -f jsonl "$ex/blog-post.html" > "$work/units.jsonl" || die "combined jsonl failed"
python3 - "$work/units.jsonl" <<'PY' || die "combined jsonl is malformed"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert len(rows) > 20, len(rows)
for r in rows:
    assert set(r) == {"page", "path", "tag", "p_template", "p_content", "content", "chars", "text"}, r
    assert 0 <= r["p_template"] <= 1 and 0 <= r["p_content"] <= 1
    assert "#" in r["path"] and r["path"].startswith("/html[1]/")
assert any(r["content"] for r in rows) and any(not r["content"] for r in rows)
PY

# html: the combined stage drops the boilerplate's text, annotate marks units.
"$PRED" -f html "$ex/news-article.html" > "$work/r.html" || die "html failed"
grep -q "Most read" "$work/r.html" && die "combined html kept the headline list"
grep -q "Mill River" "$work/r.html" || die "combined html lost the article"
"$PRED" -f html --annotate "$ex/news-article.html" > "$work/a.html" || die "annotate failed"
grep -q 'data-tbk-content="' "$work/a.html" || die "no unit annotated"

expect_rc 2 "$PRED" --stage bogus "$ex/news-article.html"
expect_rc 2 "$PRED" --keep everything "$ex/news-article.html"
expect_rc 2 "$PRED" --stage template --keep comments "$ex/news-article.html"
echo ok
