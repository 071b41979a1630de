#!/usr/bin/env bash
# Rebuild models/default.model from real multi-site data:
#   the multi-page sites of ../shared/datasets (site_mirrors, the Big9 sites of
#   msv_big9_chaos, swde_wren, dragnet's sites with >= 10 pages) plus the
#   Debian-docs crawl sample (datasets/debian-docs.sh).
# Sites with fewer than 10 pages are skipped by tbk-label; tbk-train caps every
# site at 3000 rows so no one site dominates.
#
#   models/build_default.sh [-o MODEL] [--exclude DATASET]... [-- TRAIN_OPTIONS...]
#
# Env: TBK_BIN (build dir, default ./build), TBK_CACHE (default datasets/cache).
# Exit codes: 0 model written; 1 a stage failed; 2 usage; 77 no shared data.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bin=${TBK_BIN:-$src/build}
cache=${TBK_CACHE:-$src/datasets/cache}
out=$src/models/default.model
exclude=()
while (($#)); do
  case $1 in
    -o) out=$2; shift 2 ;;
    --exclude) exclude+=("$2"); shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "build_default.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
train_opts=("$@")

rc=0
"$src/datasets/unpack.sh" "$src/../shared/datasets" "$cache" >&2 || rc=$?
if ((rc == 77)); then echo "build_default.sh: ../shared/datasets is absent" >&2; exit 77; fi
((rc == 0)) || exit 1
[ -f "$cache/debian_docs/manifest.tsv" ] || "$src/datasets/debian-docs.sh" "$cache/debian_docs" >&2

work=$cache/model-work
mkdir -p "$work"
triples=()
for ds in site_mirrors msv_big9_chaos swde_wren dragnet debian_docs; do
  for x in "${exclude[@]+"${exclude[@]}"}"; do [ "$x" = "$ds" ] && continue 2; done
  manifest=$cache/$ds/manifest.tsv
  [ -f "$manifest" ] || { echo "build_default.sh: $manifest missing" >&2; exit 1; }
  echo "build_default.sh: $ds: label" >&2
  # Exit 3 only says single-page sites were skipped: expected here.
  "$bin/label/tbk-label" -q -o "$work/$ds.labels.jsonl" --stats "$work/$ds.stats.tsv" "$manifest" || (($? == 3))
  echo "build_default.sh: $ds: features" >&2
  "$bin/features/tbk-features" --labels "$work/$ds.labels.jsonl" -o "$work/$ds.svm" \
    --words "$work/$ds.words" --meta "$work/$ds.meta" "$manifest" || (($? == 3))
  triples+=("$work/$ds.svm" "$work/$ds.words" "$work/$ds.meta")
done
echo "build_default.sh: train" >&2
"$bin/train/tbk-train" --cv-folds 10 "${train_opts[@]+"${train_opts[@]}"}" -o "$out" "${triples[@]}"
echo "build_default.sh: wrote $out" >&2
