#!/usr/bin/env bash
# Every output tbk's programs write on the shared sets, into OUT, so that a
# refactor (or another libxml2) can be checked byte for byte (issue #33):
#
#   tests/compat/outputs_snapshot.sh BUILD OUT [SET...]      write OUT/<set>.*
#   diff -r OUT_BEFORE OUT_AFTER                             compare two runs
#
# BUILD is a build directory (its predict/, label/, features/ programs and
# share/tbk/default.model); SETs default to every manifest under
# $TBK_DATA (datasets/cache). Per set: predict text, jsonl and html (one
# file per page, --output-dir), tbk-label's block labels and tbk-features'
# vectors of every candidate block. Each program's exit status is kept in
# OUT/<set>.rc (a page a program refuses is an output too). 2-core VM: about
# 15 minutes for the 10,231 pages.
set -uo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 BUILD OUT [SET...]" >&2; exit 2; }
build=$(cd "$1" && pwd); out=$2; shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
data=${TBK_DATA:-$src/datasets/cache}
[[ -d $data ]] || { echo "outputs_snapshot.sh: $data: no unpacked data sets (datasets/unpack.sh)" >&2; exit 1; }
sets=("$@")
if [[ ${#sets[@]} -eq 0 ]]; then
  for m in "$data"/*/manifest.tsv; do sets+=("$(basename "$(dirname "$m")")"); done
fi
model=$build/share/tbk/default.model
mkdir -p "$out"
for s in "${sets[@]}"; do
  m=$data/$s/manifest.tsv
  [[ -f $m ]] || { echo "outputs_snapshot.sh: $m: missing" >&2; exit 1; }
  : >"$out/$s.rc"
  "$build/predict/tbk-predict" -m "$model" -f text "$m" >"$out/$s.text" 2>"$out/$s.text.err"; echo "text $?" >>"$out/$s.rc"
  "$build/predict/tbk-predict" -m "$model" -f jsonl "$m" >"$out/$s.jsonl" 2>"$out/$s.jsonl.err"; echo "jsonl $?" >>"$out/$s.rc"
  rm -rf "$out/$s.html"
  "$build/predict/tbk-predict" -m "$model" -f html --output-dir "$out/$s.html" "$m" 2>"$out/$s.html.err"; echo "html $?" >>"$out/$s.rc"
  "$build/label/tbk-label" "$m" >"$out/$s.labels" 2>"$out/$s.labels.err"; echo "label $?" >>"$out/$s.rc"
  "$build/features/tbk-features" "$m" >"$out/$s.features" 2>"$out/$s.features.err"; echo "features $?" >>"$out/$s.rc"
  echo "$s: $(tr '\n' ' ' <"$out/$s.rc")" >&2
done
