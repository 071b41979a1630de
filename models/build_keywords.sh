#!/usr/bin/env bash
# The recipe of a trained keyword ranker and its background table (not
# shipped: the table of the shared sets is 2.5 MB of their n-grams, and a
# ranker is only right with the table it was trained with). Trains on the
# sets with <meta> keywords (dragnet, trafilatura_eval by default; see
# docs/experiments/evaluation-keywords.md) and writes OUT/keywords.ranker and
# OUT/keywords.df, then use them:
#   models/build_keywords.sh OUT [TRAIN_MANIFEST...]
#   tbk-keywords --df OUT/keywords.df --ranker OUT/keywords.ranker page.html
# --shipped writes the shipped background table, models/keywords.df: the
# same documents' table with only the terms of 10 or more of them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
out=${1:?usage: models/build_keywords.sh OUT|--shipped [TRAIN_MANIFEST...]}
shift
cache=$src/datasets/cache
(($#)) || set -- "$cache/dragnet/manifest.tsv" "$cache/trafilatura_eval/manifest.tsv"
kw=${TBK_BIN:-$src/build}/keywords/tbk-keywords
export TBK_MODEL=${TBK_MODEL:-$src/models/default.model}
if [[ $out == --shipped ]]; then
  "$kw" --build-df --min-df 10 -d none -o "$src/models/keywords.df" "$@"
  echo "wrote $src/models/keywords.df"
  exit 0
fi
mkdir -p "$out"
# The table from the training pages' whole text (the paper's IA table), the
# ranker from the same pages' whole text (ORD), as tbk-eval keywords does.
"$kw" --build-df --min-df 2 -d none -o "$out/keywords.df" "$@"
"$kw" --train-ranker --df "$out/keywords.df" -d none -o "$out/keywords.ranker" "$@"
echo "wrote $out/keywords.df and $out/keywords.ranker"
