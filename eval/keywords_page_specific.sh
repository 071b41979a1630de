#!/bin/bash
# keywords_page_specific.sh — tbk-keywords' ranking (TF-IDF, the shipped
# background table) with -d none / template / content, scored on
# page-specific meta keywords (tbk-eval keywords --page-specific: a page's
# <meta name=keywords> minus every term another page of its site lists, on
# sites of 4 or more pages with meta keywords), one run per data set and
# one over all of them; a Markdown table on stdout (docs/experiments/
# evaluation-keywords.md "Keywords on page-specific meta keywords").
#
# Usage: eval/keywords_page_specific.sh [OUT_DIR]     (JSON reports there, and
# each set's pages' own scores in SET.pages.tsv: which pages a change moves)
# Environment: TBK_BUILD (default <repo>/build), TBK_DATA (default
# <repo>/datasets/cache), TBK_MODEL (default <repo>/models/default.model),
# MODELS_DIR: where leave-one-set-out models no-<set>.two.model are used for
# their set when present (run_eval.sh's $WORK/models), SETS (default: every
# set in TBK_DATA with a manifest), REMOVED_WEIGHT (tbk-eval keywords
# --removed-weight: -d content's weight of removed text, default 0.1).
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${TBK_BUILD:-$SRC/build}
DATA=${TBK_DATA:-$SRC/datasets/cache}
MODEL=${TBK_MODEL:-$SRC/models/default.model}
DF=$SRC/models/keywords.df
OUT=${1:-$(mktemp -d)}
mkdir -p "$OUT"
EVAL=$BUILD/eval/tbk-eval
rw=(--removed-weight "${REMOVED_WEIGHT:-0.1}")
shopt -s nullglob
sets=${SETS:-$(for m in "$DATA"/*/manifest.tsv; do basename "$(dirname "$m")"; done)}
[[ -n $sets ]] || { echo "keywords_page_specific.sh: no data set in $DATA" >&2; exit 1; }
all=()
for s in $sets; do
  m=$MODEL
  [[ -n ${MODELS_DIR:-} && -s $MODELS_DIR/no-$s.two.model ]] && m=$MODELS_DIR/no-$s.two.model
  all+=(--test "$DATA/$s/manifest.tsv")
  # exit 1 with "no test page has gold keywords": a set of single pages
  "$EVAL" keywords --no-progress "${rw[@]}" -m "$m" --page-specific --df "$DF" --test "$DATA/$s/manifest.tsv" \
    -o "$OUT/$s.json" --per-page "$OUT/$s.pages.tsv" >"$OUT/$s.txt" 2>"$OUT/$s.err" || { rm -f "$OUT/$s.json"; continue; }
  echo "$m" >"$OUT/$s.model"
done
"$EVAL" keywords --no-progress "${rw[@]}" -m "$MODEL" --page-specific --df "$DF" "${all[@]}" -o "$OUT/all.json" \
  >"$OUT/all.txt" 2>"$OUT/all.err"
echo "$MODEL" >"$OUT/all.model"
python3 - "$OUT" $sets all <<'PY'
import json, os, sys
out, sets = sys.argv[1], sys.argv[2:]
print("| set | model | pages | gold terms | Top-5 none | template | content | Top-10 none | template | content |")
print("|---|---|---|---|---|---|---|---|---|---|")
def cell(d, p):
    b = "**" if p < 0.05 else ""
    return "%s%+.2f%s (p %s)" % (b, d, b, "<1e-4" if p < 1e-4 else "%.2g" % p)
for s in sets:
    f = os.path.join(out, s + ".json")
    if not os.path.exists(f):
        continue
    r = json.load(open(f))
    rows = {x["setting"]: x["top"] for x in r["rows"] if x.get("ranker") == "tfidf" and "setting" in x}
    tests = {x["test"]: x for x in r["rows"] if x.get("ranker") == "tfidf" and "test" in x}
    model = os.path.basename(open(os.path.join(out, s + ".model")).read().strip())
    line = ["all sets" if s == "all" else s, model, str(r["test_pages"]), str(r["gold_keys"])]
    for k in (3, 4):  # Top5, Top10
        line.append("%.2f" % rows["ORD"][k])
        for t in ("DN", "DN-content"):
            x = tests["%s vs ORD" % t]
            line.append("%.2f %s" % (rows[t][k], cell(x["diff"][k], x["p"][k])))
    print("| " + " | ".join(line) + " |")
PY
