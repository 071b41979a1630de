#!/usr/bin/env bash
# The streaming parse proven equal to the DOM parse on the unpacked data
# sets (docs/experiments/benchmarks-parse.md, #19):
#  1. page-equiv over every page of every $DATA/*/manifest.tsv: the page's
#     tables parsed both ways byte-identical (bench/page_equiv.c);
#  2. the first $N pages of dragnet, debian_docs and site_mirrors through
#     tbk-label, tbk-features (blocks, and --units -m), tbk-predict -f jsonl,
#     -f text, -f html and --stage template -f jsonl, with this build and a
#     reference build of the commit before the streaming parse: every
#     output compared with cmp.
#
#   bench/stream_equiv.sh [BUILD [REF_BUILD]]
#       BUILD default build-stream, REF_BUILD default /tmp/streamref/build
#       (git worktree add /tmp/streamref 8490787; a Release build there)
#
# SKIP_TABLES=1 leaves out step 1. Prints one line per check and "stream_equiv: ok" or the failures; exit 1
# when anything differs.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build-stream}
REF=${2:-/tmp/streamref/build}
DATA=${TBK_DATA:-$SRC/datasets/cache}
MODEL=${MODEL:-$SRC/models/default.model}
N=${N:-300}
OUT=${OUT:-$(mktemp -d)}
for b in "$BUILD" "$REF"; do
  [ -x "$b/predict/tbk-predict" ] || { echo "$0: $b is not built" >&2; exit 2; }
done
[ -x "$BUILD/bench/page-equiv" ] || { echo "$0: $BUILD/bench/page-equiv is not built" >&2; exit 2; }
mkdir -p "$OUT"
echo "$0: outputs in $OUT" >&2
fail=0

# A manifest's rows with absolute paths (its first n pages; n empty: all).
absolute() {
  awk -F'\t' -v d="$(dirname "$1")" -v n="$2" 'BEGIN { OFS = "\t" }
    NR == 1 { print; next }
    n != "" && NR > n + 1 { exit }
    { if ($2 !~ /^\//) $2 = d "/" $2; if ($4 != "" && $4 !~ /^\//) $4 = d "/" $4; print }' "$1"
}

# A program run: its exit status 0 or 3 (some inputs skipped), stderr kept.
run() {
  local rc=0
  "$@" 2>> "$OUT/stderr.log" || rc=$?
  [ $rc = 0 ] || [ $rc = 3 ] || { echo "$0: $* exited $rc" >&2; exit 2; }
}

[ -n "${SKIP_TABLES:-}" ] ||
for m in "$DATA"/*/manifest.tsv; do
  ds=$(basename "$(dirname "$m")")
  absolute "$m" "" | tail -n +2 | cut -f2 > "$OUT/$ds.pages"
  if "$BUILD/bench/page-equiv" -v -l "$OUT/$ds.pages" > "$OUT/$ds.equiv" 2> "$OUT/$ds.equiv.err"; then :; else fail=1; fi
  echo "tables $ds: $(tail -n 2 "$OUT/$ds.equiv" | tr '\n' ' ')"
done

for ds in dragnet debian_docs site_mirrors; do
  m="$DATA/$ds/manifest.tsv"
  [ -f "$m" ] || { echo "$0: $m missing (datasets/unpack.sh)" >&2; exit 2; }
  absolute "$m" "$N" > "$OUT/$ds.tsv"
  for side in new ref; do
    b=$BUILD
    [ $side = ref ] && b=$REF
    o="$OUT/$side.$ds"
    # exit 3: some pages or sites skipped (sites under --min-pages), as in both builds
    run "$b/label/tbk-label" -q -o "$o.labels.jsonl" "$OUT/$ds.tsv"
    run "$b/features/tbk-features" -o "$o.features" --meta "$o.features.meta" "$OUT/$ds.tsv"
    run "$b/features/tbk-features" --units -m "$MODEL" -o "$o.units" "$OUT/$ds.tsv"
    run "$b/predict/tbk-predict" -m "$MODEL" -f jsonl -o "$o.predict.jsonl" "$OUT/$ds.tsv"
    run "$b/predict/tbk-predict" -m "$MODEL" -f text -o "$o.predict.txt" "$OUT/$ds.tsv"
    run "$b/predict/tbk-predict" -m "$MODEL" -f html -o "$o.predict.html" "$OUT/$ds.tsv"
    run "$b/predict/tbk-predict" -m "$MODEL" --stage template -f jsonl -o "$o.template.jsonl" "$OUT/$ds.tsv"
  done
  for f in labels.jsonl features features.meta units predict.jsonl predict.txt predict.html template.jsonl; do
    if cmp -s "$OUT/new.$ds.$f" "$OUT/ref.$ds.$f"; then
      echo "outputs $ds $f: same ($(wc -c < "$OUT/new.$ds.$f") bytes)"
    else
      echo "outputs $ds $f: DIFFER"
      fail=1
    fi
  done
done
[ $fail = 0 ] && echo "stream_equiv: ok" || echo "stream_equiv: FAILED"
exit $fail
