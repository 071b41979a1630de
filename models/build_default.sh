#!/usr/bin/env bash
# Rebuild models/default.model from real multi-site data:
#   the multi-page sites of ../shared/datasets (site_mirrors, the Big9 sites of
#   msv_big9_chaos, swde_wren, dragnet's sites with >= 10 pages) plus the
#   Debian-docs crawl sample (datasets/debian-docs.sh).
# Sites with fewer than 10 pages are skipped by tbk-label; tbk-train caps every
# site at 3000 rows so no one site dominates. Then the content stage: the
# leaf text units of every page with human gold text (dragnet,
# msv_big9_chaos, scrapinghub_aeb) are labelled by tbk-label --gold,
# featurized with the template model just built, and trained on top of it
# (tbk-train --template), once with the Naive-Bayes text score over the
# units' words and once without it (--nontext-stage en: the stage for pages
# not in English, whose words the text model never learned): a two-stage
# model. Last the site-history stage
# (models/train_history.py): every set's pages are predicted in one pass
# with a fresh history store, and the combiners learn from the rows — the
# template stage's against tbk-label's site labels (the sets above), the
# content stage's against the human gold (the three gold sets).
#
#   models/build_default.sh [-o MODEL] [--exclude DATASET]...
#                           [--template-model FILE] [--two-stage-model FILE]
#                           [--content-model FILE]
#                           [-- TRAIN_OPTIONS...]
#
# --template-model FILE: use FILE's template stage instead of training one
# (how the shipped model's content stage was added to the earlier template
# model, keeping the template stage byte for byte). --two-stage-model FILE:
# keep FILE's template and content stages byte for byte and train only the
# history stage. --content-model FILE: keep FILE's template and content
# stages byte for byte, fit the content stage without the text model
# (tbk-train --keep-content) and the history stage (how the shipped model
# got its content-nontext stage). TRAIN_OPTIONS go to the
# template stage; CONTENT_OPTS (env, default none; e.g. "--context 3" for
# the contextual pass, measured in EVALUATION.md, with NONTEXT_LANG= ) to the
# content stage. NONTEXT_LANG (env, default en; empty: no such stage) is the
# --nontext-stage language.
#
# Env: TBK_BIN (build dir, default ./build), TBK_CACHE (default datasets/cache).
# Exit codes: 0 model written; 1 a stage failed; 2 usage; 77 no shared data.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bin=${TBK_BIN:-$src/build}
cache=${TBK_CACHE:-$src/datasets/cache}
out=$src/models/default.model
exclude=()
given_template=
given_two=
given_content=
while (($#)); do
  case $1 in
    -o) out=$2; shift 2 ;;
    --exclude) exclude+=("$2"); shift 2 ;;
    --template-model) given_template=$2; shift 2 ;;
    --two-stage-model) given_two=$2; shift 2 ;;
    --content-model) given_content=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,39p' "$0"; exit 0 ;;
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
excluded() { local x; for x in "${exclude[@]+"${exclude[@]}"}"; do [ "$x" = "$1" ] && return 0; done; return 1; }
tmpl=$work/template.model
if [ -n "$given_two" ]; then
  cp "$given_two" "$work/two.model"
elif [ -n "$given_content" ]; then
  cp "$given_content" "$tmpl" # its template stage featurizes the units
elif [ -n "$given_template" ]; then
  # tbk-train --template takes the template stage of a two-stage file.
  cp "$given_template" "$tmpl"
else
  triples=()
  for ds in site_mirrors msv_big9_chaos swde_wren dragnet debian_docs; do
    excluded "$ds" && continue
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
  echo "build_default.sh: train the template stage" >&2
  "$bin/train/tbk-train" --cv-folds 10 "${train_opts[@]+"${train_opts[@]}"}" -o "$tmpl" "${triples[@]}"
fi

units=()
for ds in dragnet msv_big9_chaos scrapinghub_aeb; do
  [ -n "$given_two" ] && break
  excluded "$ds" && continue
  manifest=$cache/$ds/manifest.tsv
  echo "build_default.sh: $ds: gold labels and unit features" >&2
  "$bin/label/tbk-label" --gold -q -o "$work/$ds.gold.jsonl" "$manifest" || (($? == 3))
  "$bin/features/tbk-features" --units -m "$tmpl" --labels "$work/$ds.gold.jsonl" -o "$work/$ds.units.svm" \
    --words "$work/$ds.units.words" --meta "$work/$ds.units.meta" "$manifest" || (($? == 3))
  units+=("$work/$ds.units.svm" "$work/$ds.units.words" "$work/$ds.units.meta")
done
if [ -z "$given_two" ]; then
  echo "build_default.sh: train the content stage" >&2
  # shellcheck disable=SC2086 # CONTENT_OPTS is a list of options
  # The gold sets' text is English: the text model learns English words, and
  # a second content stage without it scores the pages in other languages.
  nontext=()
  [ -n "${NONTEXT_LANG-en}" ] && nontext=(--nontext-stage "${NONTEXT_LANG-en}")
  [ -n "$given_content" ] && nontext+=(--keep-content)
  "$bin/train/tbk-train" --cv-folds 5 "${nontext[@]}" ${CONTENT_OPTS:-} --template "$tmpl" \
    -o "$work/two.model" "${units[@]}"
fi

# The history stage: one pass over each set with a fresh store.
pairs=()
rows() { # DATASET KIND [tbk-predict options]: the rows file
  local ds=$1 kind=$2
  shift 2
  rm -f "$work/history.db" "$work/history.db-wal" "$work/history.db-shm"
  "$bin/predict/tbk-predict" -m "$work/two.model" "$@" --history "$work/history.db" \
    --history-rows "$work/$ds.$kind.rows" -o "$work/history.out" "$cache/$ds/manifest.tsv" || (($? == 3))
}
for ds in site_mirrors msv_big9_chaos swde_wren dragnet debian_docs; do
  excluded "$ds" && continue
  echo "build_default.sh: $ds: history rows of the template stage" >&2
  [ -s "$work/$ds.labels.jsonl" ] ||
    "$bin/label/tbk-label" -q -o "$work/$ds.labels.jsonl" "$cache/$ds/manifest.tsv" || (($? == 3))
  rows "$ds" blocks --stage template
  pairs+=("$work/$ds.blocks.rows:$work/$ds.labels.jsonl")
done
for ds in dragnet msv_big9_chaos scrapinghub_aeb; do
  excluded "$ds" && continue
  echo "build_default.sh: $ds: history rows of the content stage" >&2
  [ -s "$work/$ds.gold.jsonl" ] ||
    "$bin/label/tbk-label" --gold -q -o "$work/$ds.gold.jsonl" "$cache/$ds/manifest.tsv" || (($? == 3))
  rows "$ds" units
  pairs+=("$work/$ds.units.rows:$work/$ds.gold.jsonl")
done
echo "build_default.sh: train the history stage" >&2
python3 "$src/models/train_history.py" -m "$work/two.model" -o "$out" "${pairs[@]}"
echo "build_default.sh: wrote $out" >&2
