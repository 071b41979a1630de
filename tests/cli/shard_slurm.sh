#!/usr/bin/env bash
# scale/slurm/run.sh on a real one-node Slurm (tests/slurm/cluster.sh):
# label + features in 3 site shards, training after them, prediction per
# WARC file after it; labels, stats, features, model and every predicted
# page byte-identical to the single-process run. Skipped (77) when Slurm
# cannot be started here (not root, packages missing, daemons refuse).
. "$(dirname "$0")/lib.sh"
. "$TBK_SRC/tests/slurm/cluster.sh"
need_python
tmp_reset
T=$TBK_TMP

for s in 1 2; do
  python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/sites$s" --seed "$s" --sites 3 --pages $((9 + 2 * s)) \
    --warc "$T/crawl$s.warc.gz" >/dev/null 2>"$T/synth.err" || { cat "$T/synth.err" >&2; die "synth_sites.py failed"; }
done
printf '%s\n' "$T/crawl1.warc.gz" "$T/crawl2.warc.gz" >"$T/inputs.list"
export TBK_TRAIN_ARGS="--cv-folds 3"

# The single-process run.
R=$T/ref
mkdir -p "$R"
"$LABEL" -q --stats "$R/stats.tsv" -o "$R/labels.jsonl" "$T"/crawl*.warc.gz || die "tbk-label exit $?"
"$FEAT" --no-progress --labels "$R/labels.jsonl" -o "$R/features.svm" --words "$R/words.svm" --meta "$R/meta.jsonl" \
  "$T"/crawl*.warc.gz || die "tbk-features exit $?"
# shellcheck disable=SC2086
"$TRAIN" -q $TBK_TRAIN_ARGS -o "$R/model" "$R/features.svm" "$R/words.svm" "$R/meta.jsonl" || die "tbk-train exit $?"
for s in 1 2; do
  "$PRED" --no-progress -m "$R/model" -f jsonl -o "$R/0000$s.jsonl" "$T/crawl$s.warc.gz" || die "tbk-predict exit $?"
done
"$PRED" --no-progress -m "$R/model" -f jsonl -o "$R/all.jsonl" "$T"/crawl*.warc.gz || die "tbk-predict exit $?"

slurm_start "$T/slurm" || skip "Slurm could not be started: $SLURM_WHY"
run "$TBK_SRC/scale/slurm/run.sh" --bin "$TBK_BIN/label" --shards 3 --label-mem 500M --train-mem 500M \
  --predict-mem 500M "$T/inputs.list" "$T/out"
[[ $RC == 1 ]] || die "run.sh --bin with one program's directory: exit $RC, expected 1 (programs missing)"
expect_err "^run.sh: error: .*/tbk-features: not found or not executable"

# The driver wants every program in one directory, as an installation has them.
mkdir -p "$T/bin"
for p in label/tbk-label features/tbk-features train/tbk-train predict/tbk-predict; do ln -s "$TBK_BIN/$p" "$T/bin/"; done
"$TBK_SRC/scale/slurm/run.sh" --bin "$T/bin" --shards 3 --label-mem 500M --train-mem 500M --predict-mem 500M \
  "$T/inputs.list" "$T/out" >"$T/jobs" 2>"$T/run.err" || { cat "$T/run.err" >&2; die "run.sh exit $?"; }
read -r label train pred <"$T/jobs"
slurm_wait "${label#label=}" "${train#train=}" "${pred#predict=}" || die "jobs still queued after 5 minutes"
for f in "$T"/out/logs/*.log; do [[ -s $f ]] && { echo "--- $f"; cat "$f"; }; done >"$T/logs.txt"
for f in labels.jsonl stats.tsv features.svm words.svm meta.jsonl model; do
  [[ -e $T/out/$f ]] || { cat "$T/logs.txt" >&2; die "Slurm run wrote no $f"; }
  cmp -s "$T/out/$f" "$R/$f" || die "$f of the Slurm run differs from the single-process run"
done
# One file per WARC file, each that input's tbk-predict; together, one run's pages.
for s in 1 2; do
  cmp -s "$T/out/predict/0000$s.jsonl" "$R/0000$s.jsonl" || { cat "$T/logs.txt" >&2; die "predictions of crawl$s differ"; }
done
cmp -s <(cat "$T"/out/predict/*.jsonl | sort) <(sort "$R/all.jsonl") || die "the predicted pages are not one run's"
[[ $(grep -o '^{"page":"[^"]*"' "$R/all.jsonl" | sort -u | wc -l) -eq 72 ]] || die "not 72 pages predicted"
[[ $(ls "$T"/out/shards) == $'1\n2\n3' ]] || die "not 3 shards"
slurm_stop
echo "slurm run byte-identical to the single-process run"
