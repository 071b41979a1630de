#!/usr/bin/env bash
# The measurement behind the default block set (docs/labelling.md "Blocks",
# docs/experiments/evaluation-template-stage.md "Block set"): for --blocks paper and --blocks html5, label and featurize
# the training data sets without dragnet, train (5-fold cross-site CV), then
# predict dragnet and scrapinghub_aeb (no site of either was trained on) and
# score against their gold text with tbk-eval gold.
#
#   eval/blocks_experiment.sh [WORK_DIR]     (default: $TBK_BUILD/blocks-exp)
# Env: TBK_BUILD (default ./build), TBK_DATA (default datasets/cache, filled
# by datasets/unpack.sh and datasets/debian-docs.sh). Exit 77 without data.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
B=${TBK_BUILD:-$src/build}
D=${TBK_DATA:-$src/datasets/cache}
W=${1:-$B/blocks-exp}
for ds in site_mirrors msv_big9_chaos swde_wren debian_docs dragnet scrapinghub_aeb; do
  [ -f "$D/$ds/manifest.tsv" ] || { echo "blocks_experiment.sh: $D/$ds missing (datasets/unpack.sh, datasets/debian-docs.sh)" >&2; exit 77; }
done
printf 'blocks\tcv_pr_auc\trecall_at_p90\tdataset\tgold\tprecision_mean\trecall_mean\tf1_mean\tf1_median\n'
for blocks in paper html5; do
  o=$W/$blocks
  mkdir -p "$o"
  triples=()
  for ds in site_mirrors msv_big9_chaos swde_wren debian_docs; do
    "$B/label/tbk-label" -q --blocks "$blocks" -o "$o/$ds.labels.jsonl" "$D/$ds/manifest.tsv" || (($? == 3))
    "$B/features/tbk-features" --blocks "$blocks" --labels "$o/$ds.labels.jsonl" -o "$o/$ds.svm" \
      --words "$o/$ds.words" --meta "$o/$ds.meta" "$D/$ds/manifest.tsv" || (($? == 3))
    triples+=("$o/$ds.svm" "$o/$ds.words" "$o/$ds.meta")
  done
  "$B/train/tbk-train" -q --cv-folds 5 -o "$o/m.model" "${triples[@]}"
  auc=$(sed -n 's/^cv_pr_auc //p' "$o/m.model")
  r90=$(awk '$1 == "op" && $2 == "0.90" {print $4}' "$o/m.model")
  for g in dragnet scrapinghub_aeb; do
    rm -rf "$o/pred-$g"
    "$B/predict/tbk-predict" -m "$o/m.model" --output-dir "$o/pred-$g" "$D/$g/manifest.tsv" || (($? == 3))
    for gold in main comments; do
      flag=(); [ "$gold" = comments ] && flag=(--comments)
      "$B/eval/tbk-eval" gold "${flag[@]}" "$D/$g/manifest.tsv" "$o/pred-$g" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print("\t".join(str(d[k]) for k in ("precision_mean","recall_mean","f1_mean","f1_median")))' |
        sed "s/^/$blocks\t$auc\t$r90\t$g\t$gold\t/"
    done
  done
done
