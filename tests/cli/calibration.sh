#!/usr/bin/env bash
# eval/calibration.py on three pages written here (no third-party page): the
# gold labels of tbk-label --gold, joined with predictions on (page, path),
# binned per kind of page (eval/page_kind.py) and for long prose. First with
# predictions written by the test (every bin count known), then end to end
# with tbk-predict and the shipped model (the counts that do not depend on
# the model: units, words, pages per kind).
. "$(dirname "$0")/lib.sh"
set -e
need_python
tmp_reset
cd "$TBK_TMP"
CAL=$TBK_SRC/eval/calibration.py
MODEL=$TBK_SRC/models/default.model
[ -f "$MODEL" ] || die "models/default.model is missing"

mkdir -p set/pages/s set/gold/s
P1='The council met on Tuesday evening to vote on the new library budget. Members argued for two hours about the cost of the roof repairs and the opening hours.'
P2='In the end the budget passed by five votes to two. The library will open on Sundays from next month, and the children room gets new shelves.'
FOOT='This site uses cookies to improve your experience and to show you relevant ads. By continuing to browse you agree to our use of cookies and our privacy policy.'
POST='I have been trying to fix the boiler in my flat for a week now. The pressure drops every night and I do not know where the water goes.'
SIG='Posted by members of the forum who agree to the rules of the board. Please be kind to each other and report spam to the moderators of this forum.'
# 30 words, one sentence and no full stop: long prose by words, not by sentences
SHARE='Share this photo with your friends on every social network you use and tell them about our daily pictures of birds and rivers and lakes and hills and the sea'
nav='<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul>'
cat > set/pages/s/a1.html <<HTML
<html><head><meta property="og:type" content="article"><title>Budget</title></head><body>$nav
<h1>Library budget passes</h1><p>$P1</p><p>$P2</p><div class="foot">$FOOT</div></body></html>
HTML
printf 'Library budget passes\n%s\n%s\n' "$P1" "$P2" > set/gold/s/a1.txt
cat > set/pages/s/f1.html <<HTML
<html><body class="phpbb">$nav<h2>Boiler pressure</h2><div class="post">$POST</div><div class="sig">$SIG</div></body></html>
HTML
printf '%s\n' "$POST" > set/gold/s/f1.txt
cat > set/pages/s/o1.html <<HTML
<html><body>$nav<h1>Photo of the day</h1><p>A heron at dawn.</p><div>$SHARE</div></body></html>
HTML
printf 'Photo of the day\nA heron at dawn.\n' > set/gold/s/o1.txt
printf 'site\tpage\turl\tgold\n' > set/manifest.tsv
for i in a1 f1 o1; do printf 's\tpages/s/%s.html\t\tgold/s/%s.txt\n' "$i" "$i" >> set/manifest.tsv; done

"$LABEL" --gold -q -o L.jsonl set/manifest.tsv || die "tbk-label --gold exit $?"
[ "$(wc -l < L.jsonl)" -eq 19 ] || die "expected 19 labelled units: $(cat L.jsonl)"

# Predictions of a made-up model: boilerplate 0.005, content 0.97; but the
# second paragraph of a1 (content) 0.004 and the forum signature
# (boilerplate) 0.6. Decision: p >= 0.5.
python3 - L.jsonl > P.jsonl <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    p = 0.97 if r["label"] == "content" else 0.005
    if r["text"].startswith("In the end"):
        p = 0.004
    if r["text"].startswith("Posted by"):
        p = 0.6
    print(json.dumps({"page": r["page"], "path": r["path"], "tag": r["tag"], "p_template": 0.0, "p_content": p,
                      "content": p >= 0.5, "chars": r["chars"], "text": r["text"][:200]}))
PY
python3 "$CAL" --labels L.jsonl --predictions P.jsonl --out res/c set/manifest.tsv > c.md || die "calibration.py failed"
has() { grep -qF -- "$1" "$2" || die "no line '$1' in $2: $(cat "$2")"; }
has '### Calibration of p_content: set (3 pages, 19 units)' c.md
# summary: kind, pages, units, ECE (words, units), long prose units, its ECE,
# long prose under 0.01 (units / words), of which boilerplate, kept
has '| article | 1 | 7 | 0.304 | 0.148 | 3 | 0.325 | 2 / 56 | 0.500 / 0.518 | 0.000 |' c.md
has '| forum or comments | 1 | 6 | 0.290 | 0.108 | 2 | 0.315 | 0 / 0 | - / - | - |' c.md
has '| other | 1 | 6 | 0.010 | 0.013 | 0 | - | 0 / 0 | - / - | - |' c.md
has '| all | 3 | 19 | 0.236 | 0.089 | 5 | 0.321 | 2 / 56 | 0.500 / 0.518 | 0.000 |' c.md
# the pooled table: 13 units under 0.01 (12 boilerplate of 70 words and
# a1's second paragraph of 27), the signature at 0.6, five content units at
# 0.97; the long prose under 0.01: that paragraph and a1's cookie notice
has '| [0, .01) | 13 | 97 | 0.077 | 0.278 | 0.005 | 0.005 | 0.000 |' c.md
has '| [.5, .7) | 1 | 29 | 0.000 | 0.000 | 0.600 | 0.600 | 1.000 |' c.md
has '| [.95, .99) | 5 | 69 | 1.000 | 1.000 | 0.970 | 0.970 | 1.000 |' c.md
has '| [0, .01) | 2 | 56 | 0.500 | 0.482 | 0.005 | 0.005 | 0.000 |' c.md
has 'Gold content in long prose under p_content 0.01: 27 words on 1 page; the page with the most holds 100.0 % of them.' c.md
cmp -s c.md res/c.md || die "res/c.md is not what was printed"
# TSV: every unit in one bin of "all"
awk -F'\t' '$2 == "all" && $3 == "all" { u += $5; w += $7 } END { if (u != 19 || w != 195) exit 1 }' res/c.tsv ||
  die "res/c.tsv: $(cat res/c.tsv)"
python3 -c 'import sys, xml.dom.minidom as m
for f in sys.argv[1:]:
    d = m.parse(f)
    assert d.documentElement.tagName == "svg" and d.getElementsByTagName("polyline"), f' res/c.svg res/c.prose.svg ||
  die "the SVG plots are not well-formed"
# long prose by words alone: the one-sentence share line joins it
python3 "$CAL" --prose words --labels L.jsonl --predictions P.jsonl set/manifest.tsv > w.md || die "--prose words"
has '| all | 3 | 19 | 0.236 | 0.089 | 6 | 0.264 | 3 / 86 | 0.667 / 0.686 | 0.000 |' w.md
# --worst lists page ids only
python3 "$CAL" --worst 5 --labels L.jsonl --predictions P.jsonl set/manifest.tsv > x.md || die "--worst"
has '| set/s/a1 | article | 27 |' x.md
# bad input
if python3 "$CAL" --labels L.jsonl set/manifest.tsv > /dev/null 2> e.txt; then die "no model accepted"; fi
grep -q 'give a model' e.txt || die "message: $(cat e.txt)"

# End to end with the shipped model: the gold side does not depend on it.
TBK_BUILD=$TBK_BIN python3 "$CAL" -m "$MODEL" --save-predictions pred.jsonl set/manifest.tsv > m.md ||
  die "calibration.py with tbk-predict failed"
[ "$(wc -l < pred.jsonl)" -eq 19 ] || die "expected 19 predicted units"
has '### Calibration of p_content: set (3 pages, 19 units)' m.md
grep -qE '^\| all \| 3 \| 19 \| [0-9.]+ \| [0-9.]+ \| 5 \| ' m.md || die "all row: $(cat m.md)"
grep -qE '^\| article \| 1 \| 7 \| .* \| 3 \| ' m.md || die "article row: $(cat m.md)"
echo "calibration.sh: ok"
