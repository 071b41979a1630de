#!/usr/bin/env bash
# --shard K/N: N runs of tbk-label, tbk-features (by site) and tbk-predict
# (by page), their outputs joined in shard order, are byte-identical to one
# run over the same inputs, for N = 1, 3 and 7, from a manifest and a WARC.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP

# Nine sites of unequal size (11 to 19 pages), so the balanced split has to
# put the shard boundaries between sites of different weights.
for s in 1 2 3; do
  python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/sites$s" --seed "$s" --sites 3 --pages $((7 + 4 * s)) \
    --warc "$T/crawl$s.warc.gz" >/dev/null 2>"$T/synth.err" || { cat "$T/synth.err" >&2; die "synth_sites.py failed"; }
done
{ head -n 1 "$T/sites1/manifest.tsv"; for s in 1 2 3; do
  tail -n +2 "$T/sites$s/manifest.tsv" | awk -F'\t' -v d="sites$s" 'BEGIN { OFS = "\t" } { $2 = d "/" $2; $4 = d "/" $4; print }'
done; } >"$T/all.tsv"
[[ $(wc -l <"$T/all.tsv") -eq 136 ]] || die "manifest of $(wc -l <"$T/all.tsv") lines, expected 136"

# label + features over INPUT... into directory $1 (shard K of N with $2 $3).
pipeline() {
  local dir=$1 shard=$2 inputs=("${@:3}")
  mkdir -p "$dir"
  "$LABEL" -q ${shard:+--shard "$shard"} --stats "$dir/stats.tsv" -o "$dir/labels.jsonl" "${inputs[@]}" ||
    die "tbk-label ${shard:+--shard $shard }exit $?"
  [[ -s $dir/labels.jsonl ]] || die "shard $shard labelled nothing (the test wants every shard used)"
  "$FEAT" --no-progress ${shard:+--shard "$shard"} --labels "$dir/labels.jsonl" -o "$dir/f.svm" --words "$dir/w.svm" \
    --meta "$dir/m.jsonl" "${inputs[@]}" 2>"$T/feat.err" || { cat "$T/feat.err" >&2; die "tbk-features --shard $shard exit $?"; }
  "$PRED" --no-progress ${shard:+--shard "$shard"} -f jsonl -o "$dir/pred.jsonl" "${inputs[@]}" ||
    die "tbk-predict --shard $shard exit $?"
  "$PRED" --no-progress ${shard:+--shard "$shard"} -o "$dir/pred.txt" "${inputs[@]}" || die "tbk-predict -f text exit $?"
  "$PRED" --no-progress ${shard:+--shard "$shard"} --output-dir "$dir/pages" "${inputs[@]}" || die "tbk-predict --output-dir exit $?"
}

for input in all.tsv warc; do
  if [[ $input == warc ]]; then inputs=("$T"/crawl*.warc.gz); else inputs=("$T/$input"); fi
  pipeline "$T/one-$input" "" "${inputs[@]}"
  [[ $(grep -c . "$T/one-$input/stats.tsv") -eq 10 ]] || die "$input: not 9 sites labelled"
  for n in 1 3 7; do
    for ((k = 1; k <= n; k++)); do pipeline "$T/$input-$n/$k" "$k/$n" "${inputs[@]}"; done
    for f in stats.tsv labels.jsonl f.svm w.svm m.jsonl pred.jsonl pred.txt; do
      for ((k = 1; k <= n; k++)); do cat "$T/$input-$n/$k/$f"; done >"$T/joined"
      cmp -s "$T/joined" "$T/one-$input/$f" || die "$input, $n shards: $f joined differs from one run"
    done
    mkdir -p "$T/$input-$n/pages"
    for ((k = 1; k <= n; k++)); do cp -R "$T/$input-$n/$k/pages/." "$T/$input-$n/pages/"; done
    diff -r -x 'index*.tsv' "$T/$input-$n/pages" "$T/one-$input/pages" >/dev/null ||
      die "$input, $n shards: --output-dir trees differ"
    # Each shard's index has a name of its own; joined in order, one run's.
    [[ $(find "$T/$input-$n/pages" -name 'index*.tsv' | wc -l) -eq $n ]] || die "$input, $n shards: not $n indexes"
    cat "$T/$input-$n/pages"/index-*-of-$n.tsv | cmp -s - "$T/one-$input/pages/index.tsv" ||
      die "$input, $n shards: the indexes joined differ from one run's"
    # Every page went to exactly one shard.
    [[ $(for ((k = 1; k <= n; k++)); do find "$T/$input-$n/$k/pages" -type f ! -name 'index*.tsv'; done | wc -l) -eq 135 ]] ||
      die "$input, $n shards: not 135 pages predicted"
  done
  echo "$input: N = 1, 3, 7 joined byte-identical"
done

# Sites are never split: each site's labels are in one shard.
for ((k = 1; k <= 7; k++)); do cut -d'"' -f4 "$T/all.tsv-7/$k/labels.jsonl" | sort -u; done | sort | uniq -d >"$T/split"
[[ ! -s $T/split ]] || die "sites in two shards: $(head -n 3 "$T/split")"

expect_rc 2 "$LABEL" --shard 0/3 "$T/all.tsv"
expect_err "^tbk-label: error: --shard: '0/3': expected K/N"
expect_rc 2 "$FEAT" --shard 4/3 "$T/all.tsv"
expect_rc 2 "$PRED" --shard 3 "$T/all.tsv"
expect_rc 2 "$LABEL" --shard 1/x "$T/all.tsv"
echo "shard ok"
