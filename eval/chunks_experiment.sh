#!/usr/bin/env bash
# The measurements of the table-text-chunk labeller in
# docs/experiments/evaluation-labellers.md ("Table text chunks"): on the synthetic table-template sites (known
# template) and on site_mirrors (real sites; agreement with the blocks
# labeller): per-site tables for both keys and for the tag sets, the
# sampling experiment and the df-threshold curve (CSV + SVG each).
#
#   eval/chunks_experiment.sh [WORK_DIR]    (default: $TBK_BUILD/chunks-exp)
# Env: TBK_BUILD (default ./build), TBK_DATA (default datasets/cache).
# Exit 77 without site_mirrors.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
B=${TBK_BUILD:-$src/build}
D=${TBK_DATA:-$src/datasets/cache}
W=${1:-$B/chunks-exp}
M=$D/site_mirrors/manifest.tsv
[ -f "$M" ] || { echo "chunks_experiment.sh: $M missing (datasets/unpack.sh)" >&2; exit 77; }
E="$B/eval/tbk-eval chunks -q"
mkdir -p "$W"
ok() { "$@" || (($? == 3)); }

python3 "$src/datasets/synth_table_sites.py" --out "$W/syn" --sites 8 --pages 30 --seed 1
T="--truth $W/syn/chunk_truth.tsv"
$E $T -o "$W/syn.text.tsv" "$W/syn/manifest.tsv"
$E $T --key text+path -o "$W/syn.path.tsv" "$W/syn/manifest.tsv"
$E $T --sample 2,3,4,6,8,12,16,24,30 --reps 5 --csv "$W/syn.sample.csv" --svg "$W/syn.sample.svg" \
  --time-svg "$W/syn.sample-time.svg" -o /dev/null "$W/syn/manifest.tsv"
$E $T --df-curve 2,3,4,6,9,12,15,18,21,24,27,30 --csv "$W/syn.df.csv" --svg "$W/syn.df.svg" -o /dev/null \
  "$W/syn/manifest.tsv"

ok "$B/label/tbk-label" -q -o "$W/sm.blocks.jsonl" "$M"
BL="--blocks-labels $W/sm.blocks.jsonl"
ok $E $BL -o "$W/sm.text.tsv" "$M"
ok $E $BL --key text+path -o "$W/sm.path.tsv" "$M"
ok $E $BL --chunk-tags table,tr,td,th,thead,tbody,tfoot,caption,div,ul,section -o "$W/sm.div.tsv" "$M"
ok $E $BL --chunk-tags table,tr,td,th,thead,tbody,tfoot,caption,div,ul,section,li,p,nav,header,footer,h1,h2,h3 \
  -o "$W/sm.fine.tsv" "$M"
# The experiments on site_mirrors with div, ul and section as delimiters
# too: with table tags alone most of its (table-less) sites find nothing.
DIV="--chunk-tags table,tr,td,th,thead,tbody,tfoot,caption,div,ul,section"
ok $E $DIV --sample 2,4,8,16,32,64 --reps 3 --csv "$W/sm.sample.csv" --svg "$W/sm.sample.svg" \
  --time-svg "$W/sm.sample-time.svg" -o /dev/null "$M"
ok $E $DIV --df-curve 2,3,4,5,6,8,10,15,20,30 --csv "$W/sm.df.csv" --svg "$W/sm.df.svg" -o /dev/null "$M"
echo "chunks_experiment.sh: results in $W"
