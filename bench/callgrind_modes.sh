#!/usr/bin/env bash
# Instruction counts (callgrind) of every tbk-bench mode on fixed samples:
# the first 150 pages of site_mirrors and the first 200 of debian_docs (in
# tbk-bench's sorted order), one repetition, each mode alone. Counts do not
# depend on machine load, so two builds can be compared on a busy machine,
# where timings cannot (docs/experiments/benchmarks-template-stage.md "Instruction counts").
#
#   bench/callgrind_modes.sh [TBK_BENCH]     (default: build-bench/bench/tbk-bench)
#
# Prints "sample mode instructions" lines; the callgrind files stay in
# $OUT (default: a temporary directory, named on stderr).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${1:-$SRC/build-bench/bench/tbk-bench}
DATA=${TBK_DATA:-$SRC/datasets/cache}
MODEL=${MODEL:-$SRC/models/default.model}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
command -v valgrind >/dev/null || { echo "$0: valgrind not found" >&2; exit 1; }
[ -x "$BENCH" ] || { echo "$0: $BENCH is not built (bench/run_bench.sh builds it)" >&2; exit 1; }
echo "$0: callgrind files in $OUT" >&2
for sample in site_mirrors:150 debian_docs:200; do
  ds=${sample%%:*} limit=${sample##*:}
  [ -f "$DATA/$ds/manifest.tsv" ] || { echo "$0: $DATA/$ds/manifest.tsv missing (datasets/unpack.sh)" >&2; exit 1; }
  for mode in baseline label features predict combined; do
    args=(--mode "$mode" -r 1 --limit "$limit")
    [ "$mode" = baseline ] || args+=(--no-baseline)
    case $mode in predict | combined) args+=(-m "$MODEL") ;; esac
    valgrind --tool=callgrind --callgrind-out-file="$OUT/$ds.$mode.cg" "$BENCH" "${args[@]}" \
      "$DATA/$ds/manifest.tsv" >/dev/null 2>&1
    # The mode's own function, inclusive: loading pages and the model is left out.
    ir=$(callgrind_annotate --inclusive=yes "$OUT/$ds.$mode.cg" | awk -v f=":run_$mode " 'index($0, f) && !done {print $1; done = 1}')
    echo "$ds $mode ${ir:-?}"
  done
done
