#!/usr/bin/env bash
# valgrind memcheck over the whole pipeline on a few synthetic pages:
# tbk-label -> tbk-features -> tbk-train -> tbk-predict (text, jsonl, html,
# WARC input), plus tbk-predict over the hostile seed pages of
# fuzz/corpus/page (errors paths). Any memcheck error or definite/indirect
# leak fails the test.
#
#   fuzz/valgrind_e2e.sh BUILD_DIR          (a build without sanitizers)
# Exit: 0 clean, 1 errors, 77 skipped (no valgrind, or a sanitizer build).
set -u
B=${1:?usage: $0 BUILD_DIR}
SRC=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${TBK_TMP:-}" ]; then T=$TBK_TMP; else T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT; fi
command -v valgrind >/dev/null || { echo "valgrind not found: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 77; }
if grep -qa -e __asan_init -e __ubsan_handle "$B/label/tbk-label"; then
  echo "sanitizer build: valgrind cannot run it; skipped"
  exit 77
fi
rm -rf "$T" && mkdir -p "$T" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
VG=(valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite,indirect --track-origins=no --suppressions="$SRC/fuzz/valgrind.supp")

# vg EXPECTED_EXIT NAME CMD...: run under memcheck, log to $T/NAME.vg
vg() {
  local want=$1 name=$2
  shift 2
  "${VG[@]}" --log-file="$T/$name.vg" "$@" >"$T/$name.out" 2>"$T/$name.err"
  local rc=$?
  if [ $rc -eq 99 ] || [ -s "$T/$name.vg" ]; then
    cat "$T/$name.vg" >&2
    fail "$name: memcheck errors"
  fi
  [ $rc -eq "$want" ] || { cat "$T/$name.err" >&2; fail "$name: exit $rc, expected $want"; }
  echo "$name: clean (exit $rc)"
}

python3 "$SRC/datasets/synth_sites.py" --out "$T/sites" --seed 3 --sites 2 --pages 6 \
  --warc "$T/sites.warc.gz" >/dev/null || fail "synth_sites.py"
M=$T/sites/manifest.tsv
vg 0 label "$B/label/tbk-label" -q --min-pages 3 -o "$T/labels.jsonl" "$M"
vg 0 features "$B/features/tbk-features" --labels "$T/labels.jsonl" --word-dims 256 --attr-dims 4 \
  -o "$T/f.svm" --words "$T/w.svm" --meta "$T/m.jsonl" "$M"
vg 0 train "$B/train/tbk-train" -q --cv-folds 2 --nb-folds 2 -o "$T/v.model" "$T/f.svm" "$T/w.svm" "$T/m.jsonl"
PAGE=$(find "$T/sites/pages" -name '*.html' | sort | head -1)
vg 0 predict_text "$B/predict/tbk-predict" -m "$T/v.model" --summary "$PAGE"
vg 0 predict_jsonl "$B/predict/tbk-predict" -m "$T/v.model" -f jsonl "$PAGE"
vg 0 predict_html "$B/predict/tbk-predict" -m "$T/v.model" -f html "$PAGE"
vg 0 predict_annotate "$B/predict/tbk-predict" -m "$T/v.model" -f html --annotate -o "$T/a.html" "$PAGE"
vg 0 predict_warc "$B/predict/tbk-predict" -m "$T/v.model" -p 0.9 --output-dir "$T/out" "$T/sites.warc.gz"
# Hostile pages: bad ones are skipped and reported (exit 3), nothing leaks.
vg 3 predict_hostile "$B/predict/tbk-predict" -m "$T/v.model" -f jsonl "$SRC/fuzz/corpus/page"
vg 3 features_hostile "$B/features/tbk-features" -o "$T/h.svm" "$SRC/fuzz/corpus/page"
vg 5 predict_badmodel "$B/predict/tbk-predict" -m "$SRC/fuzz/corpus/model/truncated.model" "$PAGE"
echo ok
