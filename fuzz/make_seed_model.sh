#!/usr/bin/env bash
# Train the small model the fuzz targets predict with, through the real
# pipeline on synthetic sites (datasets/synth_sites.py: our own text, no
# third-party page), with small word/attribute dimensions so the file stays
# around 20 KB and is a usable fuzz_model seed too.
#
#   fuzz/make_seed_model.sh BUILD_DIR OUT.model
#
# Refresh the copy in the tree after a feature-schema change with
#   fuzz/make_seed_model.sh build fuzz/corpus/model/seed.model
set -u
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR OUT.model" >&2; exit 2; }
B=$1 OUT=$2
SRC=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null || { echo "python3 not found: skipped" >&2; exit 77; }
W=$OUT.work
rm -rf "$W" && mkdir -p "$W" || exit 1
trap 'rm -rf "$W"' EXIT
python3 "$SRC/datasets/synth_sites.py" --out "$W/sites" --seed 7 --sites 4 --pages 12 >/dev/null || exit 1
"$B/label/tbk-label" -q -o "$W/labels.jsonl" "$W/sites/manifest.tsv" || exit 1
"$B/features/tbk-features" --labels "$W/labels.jsonl" --word-dims 512 --attr-dims 8 \
  -o "$W/f.svm" --words "$W/w.svm" --meta "$W/m.jsonl" "$W/sites/manifest.tsv" || exit 1
"$B/train/tbk-train" -q --cv-folds 2 --nb-folds 2 -o "$OUT" "$W/f.svm" "$W/w.svm" "$W/m.jsonl" || exit 1
echo "$OUT"
