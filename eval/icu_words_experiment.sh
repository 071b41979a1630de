#!/usr/bin/env bash
# Issue #21's choice of word segmentation for Han and Kana, measured: the
# library as built (overlapping character bigrams) against the same tree
# with eval/icu_words.patch applied (ICU's dictionary word BreakIterator on
# each run of Han/Kana letters; libicu-dev). For each: the labels and the
# extraction F1 of the Chinese and Japanese news twins of an English site
# (datasets/synth_news_cjk.py), the labels of the site_mirrors sites with
# Chinese text, and tbk-predict's instructions (callgrind) on those sites'
# pages. F1 is scored by the bigram build's tbk-eval gold for both, so the
# two extractions are counted in the same tokens. docs/experiments/evaluation-scripts.md
# records the results.
#
#   eval/icu_words_experiment.sh BUILD_DIR [OUT_DIR]
#
# BUILD_DIR is a Release build of this tree; the ICU build is made in
# OUT_DIR/icu (default OUT_DIR: a temporary directory, named on stderr).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BIG=$(cd "${1:?usage: $0 BUILD_DIR [OUT_DIR]}" && pwd)
OUT=${2:-$(mktemp -d)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
MODEL=$SRC/models/default.model
SM=${TBK_DATA:-$SRC/datasets/cache}/site_mirrors
CJK_SITES="rolandma1986.github.io rolinsf.github.io ronaldzhao.github.io rookieterry.github.io root-lee.github.io roseou.github.io"
echo "$0: results in $OUT" >&2

# The ICU build: this tree (its committed files) with the patch.
if [ ! -x "$OUT/icu/b/predict/tbk-predict" ]; then
  rm -rf "$OUT/icu" && mkdir -p "$OUT/icu"
  git -C "$SRC" archive HEAD | tar -x -C "$OUT/icu"
  (cd "$OUT/icu" && patch -s -p1 <"$SRC/eval/icu_words.patch")
  cmake -S "$OUT/icu" -B "$OUT/icu/b" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$OUT/icu/b" -j2 --target tbk-label tbk-predict tbk-bench >/dev/null
fi
ICU=$OUT/icu/b

python3 "$SRC/datasets/synth_news_cjk.py" --out "$OUT/news" --pages 20 --seed 1
if [ -f "$SM/manifest.tsv" ]; then
  awk -F'\t' -v s=" $CJK_SITES " 'NR == 1 || index(s, " " $1 " ")' "$SM/manifest.tsv" >"$SM/cjk-sites.tsv"
fi
for v in bigrams icu; do
  B=$BIG && [ $v = icu ] && B=$ICU
  "$B/label/tbk-label" -q -o "$OUT/$v.news.labels.jsonl" "$OUT/news/manifest.tsv"
  "$B/predict/tbk-predict" -m "$MODEL" -f jsonl -o "$OUT/$v.news.units.jsonl" "$OUT/news/manifest.tsv"
  rm -rf "$OUT/$v.text"
  "$B/predict/tbk-predict" -m "$MODEL" --output-dir "$OUT/$v.text" "$OUT/news/manifest.tsv"
  for lang in valley-news.example xinwen.example nyuusu.example; do
    awk -F'\t' -v s=$lang 'NR == 1 || $1 == s' "$OUT/news/manifest.tsv" >"$OUT/news/$lang.tsv"
    printf '%s %s ' "$v" "$lang"
    "$BIG/eval/tbk-eval" gold "$OUT/news/$lang.tsv" "$OUT/$v.text"
  done
  python3 "$SRC/datasets/synth_news_cjk.py" --out "$OUT/news" --score "$OUT/$v.news.labels.jsonl" \
    "$OUT/$v.news.units.jsonl" | python3 -c '
import json, sys
for s in map(json.loads, sys.stdin):
    print(sys.argv[1], s["lang"], "labels (pages): menu %(menu)d, ranking %(ranking)d, footer %(footer)d template, "
          "article %(article)d content of %(pages)d; predict keeps %(paragraphs_kept)d of %(paragraphs)d paragraphs, "
          "%(ranking_items_kept)d ranking items" % s)' $v
  if [ -f "$SM/cjk-sites.tsv" ]; then
    "$B/label/tbk-label" -q --stats "$OUT/$v.sm.stats" -o "$OUT/$v.sm.labels.jsonl" "$SM/cjk-sites.tsv"
    valgrind --tool=callgrind --callgrind-out-file="$OUT/$v.sm.predict.cg" "$B/bench/tbk-bench" --mode predict \
      --no-baseline -r 1 -m "$MODEL" "$SM/cjk-sites.tsv" >/dev/null 2>&1
    printf '%s site_mirrors CJK predict instructions: ' $v
    callgrind_annotate "$OUT/$v.sm.predict.cg" 2>/dev/null | awk '/PROGRAM TOTALS/ && !n++ {print $1}'
  fi
done
rm -f "$SM/cjk-sites.tsv"
