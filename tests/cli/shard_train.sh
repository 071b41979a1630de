#!/usr/bin/env bash
# Training at scale: tbk-train --threads N gives the model of one thread;
# --sample-template / --sample-content fit fewer rows, the same on every
# run, and not the same model; bad values are usage errors.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
PROG=tbk-train

python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/sites" --seed 3 --sites 5 --pages 12 >/dev/null 2>"$T/synth.err" ||
  { cat "$T/synth.err" >&2; die "synth_sites.py failed"; }
"$LABEL" -q -o "$T/labels.jsonl" "$T/sites/manifest.tsv" || die "tbk-label exit $?"
"$FEAT" --no-progress --labels "$T/labels.jsonl" -o "$T/f.svm" --words "$T/w.svm" --meta "$T/m.jsonl" \
  "$T/sites/manifest.tsv" || die "tbk-features exit $?"
data=("$T/f.svm" "$T/w.svm" "$T/m.jsonl")

"$TRAIN" -q -o "$T/one.model" "${data[@]}" || die "tbk-train exit $?"
"$TRAIN" -q --threads 3 -o "$T/three.model" "${data[@]}" || die "tbk-train --threads 3 exit $?"
cmp -s "$T/one.model" "$T/three.model" || die "--threads 3 changed the model"

rows() { sed -n 's/^train_rows \([0-9]*\)$/\1/p' "$1"; }
all=$(rows "$T/one.model")
[[ -n $all && $all -gt 50 ]] || die "train_rows '$all' not found in the model"
"$TRAIN" -q --cv-folds 0 --sample-template 0.3 -o "$T/t.model" "${data[@]}" || die "--sample-template exit $?"
"$TRAIN" -q --cv-folds 0 --sample-template 0.3 -o "$T/t2.model" "${data[@]}" || die "--sample-template exit $?"
cmp -s "$T/t.model" "$T/t2.model" || die "--sample-template is not deterministic"
"$TRAIN" -q --cv-folds 0 --sample-content 0.3 -o "$T/c.model" "${data[@]}" || die "--sample-content exit $?"
t=$(rows "$T/t.model") c=$(rows "$T/c.model")
# Deduplication runs first, so compare against the fitted rows of a full run.
[[ $t -lt $all && $c -lt $all ]] || die "sampling did not drop rows ($t, $c of $all)"
[[ $t -gt 0 && $c -gt 0 ]] || die "sampling dropped everything"
cmp -s "$T/t.model" "$T/c.model" && die "--sample-template and --sample-content gave the same model"

expect_rc 2 "$TRAIN" --threads 0 -o "$T/x.model" "${data[@]}"
expect_err "^tbk-train: error: --threads"
expect_rc 2 "$TRAIN" --sample-template 0 -o "$T/x.model" "${data[@]}"
expect_rc 2 "$TRAIN" --sample-content 1.5 -o "$T/x.model" "${data[@]}"
expect_absent "$T/x.model"
echo "train ok: $all rows, sampled $t (template 0.3) and $c (content 0.3)"
