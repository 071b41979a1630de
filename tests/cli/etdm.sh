#!/usr/bin/env bash
# tbk-label --method etdm (Alarte et al. 2015) on synthetic sites whose menus
# link section pages to each other and whose node-level template is known
# (datasets/synth_sites.py --links menu writes nodes.jsonl): mean node F1 of
# tbk-eval nodes >= 0.97; the labels feed tbk-features; --template-html
# keeps the menu and drops the article; option and input errors.
. "$(dirname "$0")/lib.sh"
set -e
need_python
tmp_reset
cd "$TBK_TMP"

python3 "$TBK_SRC/datasets/synth_sites.py" --out syn --seed 5 --sites 4 --pages 12 --links menu >/dev/null ||
  die "synth_sites.py failed"
[[ -s syn/nodes.jsonl ]] || die "no nodes.jsonl written"
expect_rc 0 "$LABEL" --method etdm --nodes nodes.jsonl --template-html tpl -o labels.jsonl --stats stats.tsv \
  syn/manifest.tsv
expect_messages
[[ -s labels.jsonl && -s nodes.jsonl && -s stats.tsv ]] || die "an output is missing"
# Every site's pages found a 4-CS among the section pages.
awk -F'\t' 'NR > 1 && ($5 != 0 || $6 != "4.00") { bad = 1 } END { exit bad || NR != 5 }' stats.tsv ||
  die "not every page found its 4-CS: $(cat stats.tsv)"

PROG=tbk-eval
expect_rc 0 "$EVAL" nodes --gold syn/nodes.jsonl --per-page per-page.tsv nodes.jsonl
cp "$OUT" table.tsv
awk -F'\t' '$1 == "all" { found = 1; if ($9 < 0.97 || $2 < 48) bad = 1 } END { exit !found || bad }' \
  table.tsv || die "mean node F1 below 0.97: $(cat table.tsv)"
[[ $(wc -l <per-page.tsv) -gt 48 ]] || die "--per-page has too few rows"

# The labels: the JSONL tbk-label writes, both classes, and tbk-features
# reads them.
python3 - <<'PY' || die "labels do not check out"
import json
rows = [json.loads(l) for l in open("labels.jsonl")]
labels = {r["label"] for r in rows}
assert labels == {"template", "content"}, labels
for r in rows:
    assert r["pages"] == 5 and 1 <= r["df"] <= 5 and len(r["md5"]) == 32 and r["path"].startswith("/html[1]"), r
    assert (r["label"] == "template") == (r["df"] == 5), r
PY
"$FEAT" --labels labels.jsonl -o f.svm syn/manifest.tsv 2>feat.err || { cat feat.err >&2; die "tbk-features --labels"; }
grep -q '^1 ' f.svm && grep -q '^-1 ' f.svm || die "tbk-features rows lack a class"

# --template-html: a page's template keeps the menu's links and drops each
# paragraph that --nodes calls not template (the article's first
# paragraph is template by ETDM on every page: all pages have one).
python3 - <<'PY' || die "--template-html does not check out"
import json, os
flags = {}
for l in open("nodes.jsonl"):
    r = json.loads(l)
    flags[(r["page"], r["xpath"])] = r["template"]
pages = dropped = 0
for l in open("syn/truth.jsonl"):
    t = json.loads(l)
    html = open(os.path.join("tpl", t["page"]), encoding="utf-8").read()
    assert "section/01/" in html, t["page"]
    for r in t["regions"]:
        if r["kind"] == "paragraph" and flags.get((t["page"], r["path"])) == 0 and len(r["text"]) > 30:
            assert r["text"][:30] not in html, (t["page"], r["path"])
            dropped += 1
    pages += 1
assert pages >= 48 and dropped > pages, (pages, dropped)
PY

# The equality relations: tag maps more (recall 1 on these sites), never
# less, than tag+id+class.
PROG=tbk-label
expect_rc 0 "$LABEL" -q --method etdm --node-equal tag --nodes n-tag.jsonl -o /dev/null syn/manifest.tsv
expect_rc 0 "$EVAL" nodes --gold syn/nodes.jsonl n-tag.jsonl
awk -F'\t' '$1 == "all" { exit !($7 == 1.0) }' "$OUT" || die "tag: recall is not 1: $(cat "$OUT")"

# A page missing from the template: scored 0 and reported, exit 3.
grep -v '"page":"pages/[^"]*/001-' nodes.jsonl >partial.jsonl
PROG=tbk-eval
expect_rc 3 "$EVAL" nodes --gold syn/nodes.jsonl partial.jsonl
expect_err 'has no line \(scored 0\)'
expect_rc 2 "$EVAL" nodes nodes.jsonl
expect_err 'error: --gold is required'

# Usage errors.
PROG=tbk-label
expect_rc 2 "$LABEL" --method etdm --cs-size 0 syn/manifest.tsv
expect_err 'cs-size'
expect_rc 2 "$LABEL" --method etdm --node-equal name syn/manifest.tsv
expect_err "--node-equal: 'name' is not tag, tag\+id\+class or weighted"
expect_rc 2 "$LABEL" --cs-size 3 syn/manifest.tsv
expect_err '--cs-size applies to --method etdm'
expect_rc 2 "$LABEL" --method nodes syn/manifest.tsv
expect_err "is not blocks, chunks or etdm"
expect_messages
echo ok
