#!/bin/bash
# tbk-eval on generated sites: cross-site CV over 6 sites of 3 template
# styles, and gold / snippet scoring of pages of a 4th style the model never
# saw. Numbers of tbk-eval gold are checked against an independent Python
# implementation of the same metric.
. "$(dirname "$0")/lib.sh"
set -e
need_python
tmp_reset
cd "$TBK_TMP"

# Styles 0 (table), 1 (div), 2 (html5) for training, 3 (docs) held out.
for s in 0 1 2 3; do
  python3 "$TBK_SRC/datasets/synth_sites.py" --out "s$s" --sites 2 --pages 20 --seed $((s + 11)) \
    --template-style "$s" >/dev/null
done
triples=()
for s in 0 1 2; do
  "$LABEL" -q -o "L$s.jsonl" "s$s/manifest.tsv"
  "$FEAT" --labels "L$s.jsonl" -o "F$s.svm" --words "F$s.words" --meta "F$s.meta" \
    "s$s/manifest.tsv"
  triples+=("F$s.svm" "F$s.words" "F$s.meta")
done

# --- usage errors
set +e
"$EVAL" >/dev/null 2>&1; [ $? -eq 2 ] || die "no command: exit 2 expected"
"$EVAL" frobnicate >/dev/null 2>&1; [ $? -eq 2 ] || die "unknown command: exit 2 expected"
"$EVAL" cv F0.svm F0.words >/dev/null 2>&1; [ $? -eq 2 ] || die "cv with 2 files: exit 2 expected"
"$EVAL" cv --variants all,bogus "${triples[@]}" >/dev/null 2>&1; [ $? -eq 2 ] || die "bad variant: exit 2 expected"
"$EVAL" cv -q --out nothing F0.svm F0.words nosuch.meta >/dev/null 2>&1; [ $? -eq 1 ] || die "missing meta: exit 1 expected"
set -e
# (the help read whole: grep -q stopping early would SIGPIPE the program)
for c in cv gold snippets; do grep -q "^Usage: tbk-eval $c" <<<"$("$EVAL" $c --help)" || die "$c --help"; done

# --- cross-site CV: 6 sites, 6 folds (leave one site out)
"$EVAL" cv -q --out cv "${triples[@]}" > cv.md
cat cv.md
for f in pr.svg pr_all.csv pr_text.csv pr_nontext.csv per_site.csv summary.json; do
  [ -s "cv/$f" ] || die "cv/$f missing"
done
grep -q '^| all | ' cv.md || die "no table row for all"
python3 - <<'EOF' || die "cv outputs"
import csv, json, xml.etree.ElementTree as ET
s = json.load(open("cv/summary.json"))
assert s["sites"] == 6 and s["folds"] == 6, s
for v in ("text", "nontext", "all"):
    r = s["variants"][v]
    assert r["rows"] == s["rows"], (v, r)
    rows = list(csv.DictReader(open("cv/pr_%s.csv" % v)))
    assert rows, v
    rec = [float(x["recall"]) for x in rows]
    assert rec == sorted(rec) and abs(rec[-1] - 1) < 1e-9, v          # recall never decreases, ends at 1
    thr = [float(x["threshold"]) for x in rows]
    assert thr == sorted(thr, reverse=True), v
    # AP recomputed from the curve file equals the summary's.
    ap, prev = 0.0, 0.0
    for x in rows:
        ap += (float(x["recall"]) - prev) * float(x["precision"]); prev = float(x["recall"])
    assert abs(ap - r["average_precision"]) < 1e-3, (v, ap, r["average_precision"])
assert s["variants"]["all"]["average_precision"] >= 0.9, s["variants"]["all"]
svg = ET.parse("cv/pr.svg").getroot()
assert svg.tag.endswith("svg")
ns = "{http://www.w3.org/2000/svg}"
assert len(svg.findall(ns + "polyline")) == 3
texts = " ".join(t.text or "" for t in svg.iter(ns + "text"))
for w in ("Recall", "Precision", "text only", "non-text only", "all features", "0.5", "1.0"):
    assert w in texts, w
sites = [r for r in csv.DictReader(open("cv/per_site.csv")) if r["variant"] == "all"]
assert len(sites) == 6 and sum(int(r["rows"]) for r in sites) == s["rows"]
print("cv: AP all %.4f text %.4f nontext %.4f" % tuple(s["variants"][v]["average_precision"] for v in ("all", "text", "nontext")))
EOF

# --- gold: a model trained on styles 0-2 on pages of style 3
"$TRAIN" -q -o m.model "${triples[@]}"
"$PRED" -m m.model --output-dir pred s3/manifest.tsv
"$EVAL" gold --per-page main.tsv s3/manifest.tsv pred > main.json
"$EVAL" gold --comments --per-page all.tsv s3/manifest.tsv pred > all.json
"$EVAL" gold --baseline --per-page base.tsv s3/manifest.tsv > base.json
# The peers' layout (no leading pages/) is found too.
mkdir -p peer && cp -r pred/pages/. peer/
"$EVAL" gold s3/manifest.tsv peer > peer.json
# A missing prediction is an empty one.
mkdir -p none
"$EVAL" gold s3/manifest.tsv none > none.json
cat main.json all.json base.json
python3 - <<'EOF' || die "gold"
import json, re, statistics
from collections import Counter
main, allj, base, peer, none = (json.load(open(f)) for f in ("main.json", "all.json", "base.json", "peer.json", "none.json"))
assert main["pages"] == 40 and main["missing_outputs"] == 0
for k in ("f1_mean", "precision_mean", "recall_mean", "f1_median"):
    assert peer[k] == main[k], k
assert none["missing_outputs"] == 40 and none["f1_mean"] == 0 and none["empty_outputs"] == 40
# Template removal keeps user comments (page-specific content), so the
# whole non-template text is the fair gold; on article-only gold the kept
# comments cost precision, and tbk must still beat keeping everything.
assert allj["f1_mean"] >= 0.9, allj
assert main["f1_mean"] >= base["f1_mean"] + 0.1, (main, base)
assert main["recall_mean"] >= 0.95, main

# Independent reference of the metric: tbk_tokenize's rules in Python
# (one token per Han/Hiragana/Katakana code point, numbers keep inner . and ,
# words = runs of word characters, lower-cased).
CJK = "\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
TOK = re.compile("[%s]|\\d+(?:[.,]\\d+)+|(?:(?![%s])\\w)+" % (CJK, CJK))
def toks(s): return Counter(t.lower() for t in TOK.findall(s))
rows = [l.rstrip("\n").split("\t") for l in open("s3/manifest.tsv", encoding="utf-8")][1:]
f1s = []
per = {l.split("\t")[1]: l.rstrip("\n").split("\t") for l in list(open("main.tsv", encoding="utf-8"))[1:]}
for site, page, url, gold in rows:
    pred = open("pred/" + page[:-5] + ".txt", encoding="utf-8").read()
    p, g = toks(pred), toks(open("s3/" + gold, encoding="utf-8").read())
    npred, ngold, common = sum(p.values()), sum(g.values()), sum((p & g).values())
    P, R = common / npred, common / ngold
    F = 2 * P * R / (P + R) if P + R else 0.0
    f1s.append(F)
    got = per[page]
    assert (int(got[5]), int(got[6])) == (npred, ngold), (page, got, npred, ngold)
    assert abs(float(got[4]) - F) < 6e-5, (page, got[4], F)
assert abs(statistics.fmean(f1s) - main["f1_mean"]) < 6e-5
assert abs(statistics.median(f1s) - main["f1_median"]) < 6e-5
print("gold: tbk F1 %.4f (main) %.4f (main+comments), baseline %.4f; reference agrees" % (main["f1_mean"], allj["f1_mean"], base["f1_mean"]))
EOF

# --- snippets: first gold line must be there, a breadcrumb-free made-up
# string must not; one key maps to no page.
python3 - <<'EOF'
import json
rows = [l.rstrip("\n").split("\t") for l in open("s3/manifest.tsv", encoding="utf-8")][1:]
data, tsv = {}, ["key\tfile\tpage"]
for i, (site, page, url, gold) in enumerate(rows[:10]):
    first = open("s3/" + gold, encoding="utf-8").read().split("\n")[0]
    words = first.split()
    data["k%d" % i] = {"file": page, "with": ["  ".join(words[:4]) + "\n"], "without": ["zz never there zz"],
                       "meta": {"n": [i, 1.5, None, True]}}
    tsv.append("k%d\t-\t%s" % (i, page))
data["unmapped"] = {"with": ["x"], "without": ["y"]}
json.dump(data, open("s3/evaldata.json", "w", encoding="utf-8"), ensure_ascii=False, indent=1)
open("s3/evaldata_pages.tsv", "w", encoding="utf-8").write("\n".join(tsv) + "\n")
EOF
set +e
"$EVAL" snippets s3/evaldata.json s3/evaldata_pages.tsv pred > snip.json 2> snip.err; rc=$?
set -e
[ $rc -eq 3 ] || die "snippets with an unmapped key: exit 3 expected, got $rc"
cat snip.json
python3 - <<'EOF' || die "snippets"
import json
s = json.load(open("snip.json"))
assert s["pages"] == 11 and s["unmapped"] == 1, s
assert (s["tp"], s["fn"], s["fp"], s["tn"]) == (10, 1, 0, 11), s
assert abs(s["precision"] - 1) < 1e-9 and abs(s["recall"] - 10 / 11) < 1e-4 and abs(s["f1"] - 20 / 21) < 1e-4, s
EOF
printf '{"k0": {"with": ["a"],}}' > bad.json
set +e
"$EVAL" snippets bad.json s3/evaldata_pages.tsv pred >/dev/null 2>bad.err; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "invalid JSON at byte" bad.err || die "malformed evaldata must die with a position"
echo "eval_synth: ok"
