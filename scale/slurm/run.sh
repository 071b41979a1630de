#!/usr/bin/env bash
# Submit the tbk pipeline to Slurm: label + features per site shard (an
# array), one training job after all of them (afterok), and a predict array
# over the inputs to predict, after training (afterok).
#
#   scale/slurm/run.sh [OPTIONS] INPUTS OUT
#
# INPUTS is a file with one input per line (WARC file, directory or
# manifest, as tbk-label takes them): the labelled crawl sample. OUT is the
# directory the jobs write (shared by every node). Options:
#   --shards N        label/features array size (default 8); every shard
#                     reads every input and keeps its sites (--shard K/N)
#   --predict LIST    inputs to predict, one per line, one array task each
#                     (default: INPUTS)
#   --bin DIR         where tbk-label, tbk-features, tbk-train and
#                     tbk-predict are (default: PATH on the nodes)
#   --partition P     partition of every job (default: the cluster's)
#   --label-mem M, --train-mem M, --predict-mem M
#                     memory per job (sbatch --mem; defaults in docs/scale.md,
#                     from measured peaks)
#   --dry-run         print the sbatch commands, submit nothing
# Page, training and predict options go in TBK_PAGE_ARGS, TBK_TRAIN_ARGS and
# TBK_PREDICT_ARGS (exported to the jobs). Predictions: OUT/predict/NNNNN.jsonl,
# one per line of the predict list.
# Prints "label=ID train=ID predict=ID" and writes it to OUT/jobs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
die() { echo "run.sh: error: $*" >&2; exit 1; }
usage_error() { echo "run.sh: error: $*" >&2; echo "Try 'run.sh --help'." >&2; exit 2; }

shards=8 predict= bin= partition= dry=0
label_mem=2G train_mem=8G predict_mem=1G
while [[ $# -gt 0 ]]; do
  case $1 in
  --shards) shards=${2:-}; shift 2 || usage_error "--shards needs a value" ;;
  --predict) predict=${2:-}; shift 2 || usage_error "--predict needs a value" ;;
  --bin) bin=${2:-}; shift 2 || usage_error "--bin needs a value" ;;
  --partition) partition=${2:-}; shift 2 || usage_error "--partition needs a value" ;;
  --label-mem) label_mem=${2:-}; shift 2 || usage_error "--label-mem needs a value" ;;
  --train-mem) train_mem=${2:-}; shift 2 || usage_error "--train-mem needs a value" ;;
  --predict-mem) predict_mem=${2:-}; shift 2 || usage_error "--predict-mem needs a value" ;;
  --dry-run) dry=1; shift ;;
  -h | --help) usage; exit 0 ;;
  --) shift; break ;;
  -*) usage_error "unknown option $1" ;;
  *) break ;;
  esac
done
[[ $# -eq 2 ]] || usage_error "expected INPUTS and OUT"
[[ $shards =~ ^[1-9][0-9]{0,5}$ ]] || usage_error "--shards: '$shards' is not a number from 1 to 999999"
for m in "$label_mem" "$train_mem" "$predict_mem"; do
  [[ $m =~ ^[1-9][0-9]*[KMGT]?$ ]] || usage_error "memory '$m' is not N[K|M|G|T]"
done
inputs=$1 out=$2
predict=${predict:-$inputs}
[[ -r $inputs ]] || die "$inputs: cannot read"
[[ -r $predict ]] || die "$predict: cannot read"

# Jobs may start in another directory: every path absolute.
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
abs_list() {
  local line
  while IFS= read -r line || [[ -n $line ]]; do
    [[ -z $line ]] && continue
    [[ -e $line ]] || die "$1: '$line' does not exist"
    realpath -- "$line"
  done <"$1"
}
abs_list "$inputs" >"$out/inputs.list"
abs_list "$predict" >"$out/predict.list"
[[ -s $out/inputs.list ]] || die "$inputs: no input listed"
[[ -s $out/predict.list ]] || die "$predict: no input listed"
m=$(wc -l <"$out/predict.list")
if [[ -n $bin ]]; then
  export TBK_BIN
  TBK_BIN=$(cd "$bin" && pwd)
  for p in tbk-label tbk-features tbk-train tbk-predict; do
    [[ -x $TBK_BIN/$p ]] || die "$TBK_BIN/$p: not found or not executable"
  done
fi

common=(--parsable ${partition:+--partition="$partition"})
array_log=(--output="$out/logs/%x-%A_%a.log")
submit() {
  if [[ $dry == 1 ]]; then
    echo "sbatch $*" >&2
    echo "DRY$RANDOM"
  else
    sbatch "$@"
  fi
}
label=$(submit "${common[@]}" --mem="$label_mem" "${array_log[@]}" --array="1-$shards" "$here/label_features.sbatch" "$out" "$shards" \
  "$out/inputs.list")
label=${label%%;*}
# --kill-on-invalid-dep: a failed stage cancels what depends on it instead
# of leaving it pending for ever.
train=$(submit "${common[@]}" --mem="$train_mem" --dependency="afterok:$label" --kill-on-invalid-dep=yes \
  --output="$out/logs/%x-%j.log" \
  "$here/train.sbatch" "$out" "$shards")
train=${train%%;*}
pred=$(submit "${common[@]}" --mem="$predict_mem" "${array_log[@]}" --array="1-$m" --dependency="afterok:$train" \
  --kill-on-invalid-dep=yes "$here/predict.sbatch" "$out" "$out/predict.list")
pred=${pred%%;*}
echo "label=$label train=$train predict=$pred" | tee "$out/jobs"
