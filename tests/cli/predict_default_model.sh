#!/usr/bin/env bash
# The README's main command: the shipped model on our example pages. The
# navigation and footer must go, the article must stay, every format must
# be well-formed, and the model's operating points must be usable. The
# block-level checks run the template stage (--stage template);
# predict_stages.sh checks the combined stage.
. "$(dirname "$0")/lib.sh"
ex=$TBK_SRC/datasets/examples
work=$TBK_TMP
rm -rf "$work"; mkdir -p "$work"
export TBK_MODEL=$TBK_SRC/models/default.model
[ -f "$TBK_MODEL" ] || die "models/default.model is missing"

"$PRED" "$ex/news-article.html" > "$work/news.txt" || die "tbk-predict failed on the example"
grep -q "The Riverside branch of the Millbrook Public Library reopened Friday morning" "$work/news.txt" ||
  die "article text was removed"
grep -q "Select board member Aaron Delacroix" "$work/news.txt" || die "late article paragraph was removed"
grep -q "Home Local Schools Business Sports" "$work/news.txt" && die "navigation menu survived"
grep -q "All rights reserved" "$work/news.txt" && die "copyright footer survived"
grep -q "About us Newsroom staff Ethics policy" "$work/news.txt" && die "footer links survived"

# jsonl: one valid object per block, probabilities in [0,1], decisions
# consistent with the default threshold 0.5.
"$PRED" --stage template -f jsonl "$ex/blog-post.html" "$ex/docs-page.html" > "$work/b.jsonl" || die "jsonl failed"
python3 - "$work/b.jsonl" <<'PY' || die "jsonl output is malformed"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert len(rows) > 20
pages = {r["page"] for r in rows}
assert len(pages) == 2, pages
for r in rows:
    assert 0.0 <= r["p"] <= 1.0
    assert r["template"] == (r["p"] >= 0.5), r
    assert r["path"].startswith("/html[1]/")
assert any(r["template"] for r in rows) and any(not r["template"] for r in rows)
PY

# html: annotated keeps every block and marks it; removal drops the nav.
"$PRED" --stage template -f html --annotate "$ex/news-article.html" > "$work/a.html" || die "annotate failed"
n_blocks=$("$PRED" --stage template -f jsonl "$ex/news-article.html" | wc -l)
n_marked=$(grep -o 'data-tbk-template="' "$work/a.html" | wc -l)
[ "$n_blocks" -eq "$n_marked" ] || die "annotated $n_marked of $n_blocks blocks"
"$PRED" --stage template -f html "$ex/news-article.html" > "$work/r.html" || die "html removal failed"
grep -q "Ethics policy" "$work/r.html" && die "removed html still has the footer"
grep -q "Mill River" "$work/r.html" || die "removed html lost the article"

# Operating points: a stricter precision removes no more than a looser one.
s80=$("$PRED" --stage template -p 0.8 --summary "$ex/news-article.html" 2>&1 >/dev/null | sed 's/.*template_chars=\([0-9]*\).*/\1/')
s95=$("$PRED" --stage template -p 0.95 --summary "$ex/news-article.html" 2>&1 >/dev/null | sed 's/.*template_chars=\([0-9]*\).*/\1/')
[ "$s95" -le "$s80" ] || die "precision 0.95 removed more ($s95) than 0.8 ($s80)"
expect_rc 5 "$PRED" --stage template -p 0.99 "$ex/news-article.html"
expect_rc 2 "$PRED" -t 0.5 -p 0.9 "$ex/news-article.html"
expect_rc 2 "$PRED" --blocks html5 "$ex/news-article.html"

# --output-dir writes one file per page, nothing outside the directory.
"$PRED" --output-dir "$work/out" "$ex" || die "--output-dir failed"
[ "$(find "$work/out" -name '*.txt' | wc -l)" -eq 3 ] || die "expected 3 output files"
echo ok
