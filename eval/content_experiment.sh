#!/usr/bin/env bash
# content_experiment.sh — one variant of the content stage, leave one data
# set out: for each of the three gold sets, train the content stage on the
# other two, predict the held-out set and score it (tbk-eval gold). What
# EVALUATION.md "Content stage: what was measured" compares.
#
#   eval/content_experiment.sh [-m TEMPLATE_MODEL] [-f "FEATURES_OPTS"]
#                              [-p "PREDICT_OPTS"] [-r MODELS_TAG]
#                              [-x ROWS_PREFIX]... WORK_DIR TAG [TRAIN_OPTS...]
#
# The template stage is TEMPLATE_MODEL (default: models/default.model) for
# every fold: faster than run_eval.sh's honest per-set template models, and
# the same for every variant, so variants compare fairly (its template
# stage has seen dragnet's and Big9's auto-labelled sites, so absolute
# figures run a little above run_eval.sh's). trafilatura_eval's snippets
# are scored with a content stage trained on all three sets without
# trafilatura_eval's sites. -r MODELS_TAG predicts with the models an
# earlier run of tag MODELS_TAG trained (no features, no training): for a
# variant of the decision alone (-p), which needs no retraining. -x adds
# the rows ROWS_PREFIX.svm/.words/.meta (unit rows of other data, made
# with the same template model) to every fold's training. Prints one line
# per set: "TAG SET P R F1 median <0.5 N <0.8 N" (the last two: pages
# under those F1s; and dragnet against gold with comments), then "TAG
# trafilatura_eval snippets P R F1". Unit rows already in WORK_DIR
# (WORK_DIR/TAG.SET.svm/.words/.meta) are used as they are.
# Env: TBK_BUILD (default <repo>/build), TBK_DATA (default datasets/cache).
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${TBK_BUILD:-$SRC/build}
D=${TBK_DATA:-$SRC/datasets/cache}
tmpl=$SRC/models/default.model
fopts='' popts='' reuse='' extra=()
while getopts m:f:p:r:x: o; do
  case $o in
    m) tmpl=$OPTARG ;;
    f) fopts=$OPTARG ;;
    p) popts=$OPTARG ;;
    r) reuse=$OPTARG ;;
    x) extra+=("$OPTARG.svm" "$OPTARG.words" "$OPTARG.meta") ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,26p' "$0"; exit 2; }
work=$1 tag=$2
shift 2
mkdir -p "$work"
sets="dragnet msv_big9_chaos scrapinghub_aeb"
traf=trafilatura_eval
for d in $sets; do
  [ -z "$reuse" ] || break
  [ -s "$work/$d.gold.jsonl" ] || "$B/label/tbk-label" --gold -q -o "$work/$d.gold.jsonl" "$D/$d/manifest.tsv" || [ $? -eq 3 ]
  [ -s "$work/$tag.$d.svm" ] && continue # rows made earlier (or edited: an ablation) are kept
  # shellcheck disable=SC2086 # option lists
  "$B/features/tbk-features" --units -m "$tmpl" $fopts --labels "$work/$d.gold.jsonl" -o "$work/$tag.$d.svm" \
    --words "$work/$tag.$d.words" --meta "$work/$tag.$d.meta" "$D/$d/manifest.tsv" || [ $? -eq 3 ]
done
score() { # GOLD_OPT MANIFEST DIR
  local pp=$3.per-page${1:+$1}.tsv
  "$B/eval/tbk-eval" gold $1 --per-page "$pp" "$2" "$3" | python3 -c 'import csv, json, sys
j = json.load(sys.stdin)
f1 = [float(r["f1"]) for r in csv.DictReader(open(sys.argv[1]), delimiter="\t")]
print("P %.4f R %.4f F1 %.4f median %.4f <0.5 %d <0.8 %d" % (j["precision_mean"], j["recall_mean"], j["f1_mean"],
      j["f1_median"], sum(x < 0.5 for x in f1), sum(x < 0.8 for x in f1)))' "$pp"
}
train() { # HELD_OUT ROWS...
  local g=$1
  shift
  [ -z "$reuse" ] || return 0
  "$B/train/tbk-train" -q --cv-folds 0 "${opts[@]}" --template "$tmpl" -o "$work/$tag.no-$g.model" "$@"
}
predict() { # HELD_OUT
  rm -rf "$work/$tag.pred.$1"
  # shellcheck disable=SC2086
  "$B/predict/tbk-predict" -m "$work/${reuse:-$tag}.no-$1.model" $popts --output-dir "$work/$tag.pred.$1" \
    "$D/$1/manifest.tsv" || [ $? -eq 3 ]
}
opts=("$@")
for g in $sets; do
  rows=()
  for d in $sets; do [ "$d" = "$g" ] || rows+=("$work/$tag.$d.svm" "$work/$tag.$d.words" "$work/$tag.$d.meta"); done
  train "$g" "${rows[@]}" "${extra[@]+"${extra[@]}"}"
  predict "$g"
  echo "$tag $g $(score "" "$D/$g/manifest.tsv" "$work/$tag.pred.$g")"
  [ "$g" = dragnet ] && echo "$tag dragnet+comments $(score --comments "$D/$g/manifest.tsv" "$work/$tag.pred.$g")"
done
rows=()
if [ -z "$reuse" ]; then
  tail -n +2 "$D/$traf/manifest.tsv" | cut -f1 | sort -u > "$work/$tag.$traf.sites"
  for d in $sets; do
    python3 "$SRC/eval/filter_rows.py" "$work/$tag.$d" "$work/$tag.$d.no-$traf" "$work/$tag.$traf.sites" 2> /dev/null
    rows+=("$work/$tag.$d.no-$traf.svm" "$work/$tag.$d.no-$traf.words" "$work/$tag.$d.no-$traf.meta")
  done
fi
train "$traf" "${rows[@]}" "${extra[@]+"${extra[@]}"}"
predict "$traf"
"$B/eval/tbk-eval" snippets "$D/$traf/evaldata.json" "$D/$traf/evaldata_pages.tsv" "$work/$tag.pred.$traf" |
  python3 -c 'import json, sys
j = json.load(sys.stdin)
print("%s %s snippets P %.4f R %.4f F1 %.4f" % (sys.argv[1], sys.argv[2], j["precision"], j["recall"], j["f1"]))' "$tag" "$traf"
