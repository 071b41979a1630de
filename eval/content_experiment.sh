#!/usr/bin/env bash
# content_experiment.sh — one variant of the content stage, leave one data
# set out: for each of the three gold sets, train the content stage on the
# other two, predict the held-out set and score it (tbk-eval gold). What
# EVALUATION.md "Content stage: what was measured" compares.
#
#   eval/content_experiment.sh [-m TEMPLATE_MODEL] [-f "FEATURES_OPTS"]
#                              [-p "PREDICT_OPTS"] WORK_DIR TAG [TRAIN_OPTS...]
#
# The template stage is TEMPLATE_MODEL (default: models/default.model) for
# every fold: faster than run_eval.sh's honest per-set template models, and
# the same for every variant, so variants compare fairly (its template
# stage has seen dragnet's and Big9's auto-labelled sites, so absolute
# figures run a little above run_eval.sh's). Prints one line per set:
# "TAG SET P R F1 median" (and dragnet against gold with comments).
# Env: TBK_BUILD (default <repo>/build), TBK_DATA (default datasets/cache).
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${TBK_BUILD:-$SRC/build}
D=${TBK_DATA:-$SRC/datasets/cache}
tmpl=$SRC/models/default.model
fopts= popts=
while getopts m:f:p: o; do
  case $o in
    m) tmpl=$OPTARG ;;
    f) fopts=$OPTARG ;;
    p) popts=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,17p' "$0"; exit 2; }
work=$1 tag=$2
shift 2
mkdir -p "$work"
sets="dragnet msv_big9_chaos scrapinghub_aeb"
for d in $sets; do
  [ -s "$work/$d.gold.jsonl" ] || "$B/label/tbk-label" --gold -q -o "$work/$d.gold.jsonl" "$D/$d/manifest.tsv" || [ $? -eq 3 ]
  # shellcheck disable=SC2086 # option lists
  "$B/features/tbk-features" --units -m "$tmpl" $fopts --labels "$work/$d.gold.jsonl" -o "$work/$tag.$d.svm" \
    --words "$work/$tag.$d.words" --meta "$work/$tag.$d.meta" "$D/$d/manifest.tsv" || [ $? -eq 3 ]
done
score() { # GOLD_OPT MANIFEST DIR
  "$B/eval/tbk-eval" gold $1 "$2" "$3" | python3 -c 'import json, sys
j = json.load(sys.stdin)
print("P %.4f R %.4f F1 %.4f median %.4f" % (j["precision_mean"], j["recall_mean"], j["f1_mean"], j["f1_median"]))'
}
for g in $sets; do
  rows=()
  for d in $sets; do [ "$d" = "$g" ] || rows+=("$work/$tag.$d.svm" "$work/$tag.$d.words" "$work/$tag.$d.meta"); done
  "$B/train/tbk-train" -q --cv-folds 0 "$@" --template "$tmpl" -o "$work/$tag.no-$g.model" "${rows[@]}"
  rm -rf "$work/$tag.pred.$g"
  # shellcheck disable=SC2086
  "$B/predict/tbk-predict" -m "$work/$tag.no-$g.model" $popts --output-dir "$work/$tag.pred.$g" "$D/$g/manifest.tsv" ||
    [ $? -eq 3 ]
  echo "$tag $g $(score "" "$D/$g/manifest.tsv" "$work/$tag.pred.$g")"
  [ "$g" = dragnet ] && echo "$tag dragnet+comments $(score --comments "$D/$g/manifest.tsv" "$work/$tag.pred.$g")"
done
