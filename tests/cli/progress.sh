#!/usr/bin/env bash
# Progress on long runs: on a terminal (a pseudo-terminal made by script(1))
# one self-updating line on stderr, cleared at the end; with stderr
# redirected nothing unless --progress, then plain "progress:" lines;
# --no-progress and -q silence it; output files are the same either way.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip "script(1) missing"
tmp_reset
T=$TBK_TMP
EX=("$TBK_SRC"/datasets/examples/*.html)

# 1. on a terminal: the line, drawn in place (CR, erase line) with rate and ETA
script -qec "$PRED -o $T/tty.txt ${EX[*]}" "$T/typescript" >/dev/null || die "script(1) run failed"
grep -q $'\r\e\[Ktbk-predict: [0-9]*/3 pages ([0-9.]*%), [0-9]* pages/s, [0-9.]* MB/s' "$T/typescript" ||
  die "no progress line on the terminal: $(cat -v "$T/typescript")"
grep -q $'\r\e\[K\r*$' "$T/typescript" || grep -q $'\e\[K\r\?$' "$T/typescript" || die "progress line not cleared at the end"
script -qec "$PRED --no-progress -o $T/tty2.txt ${EX[*]}" "$T/typescript2" >/dev/null
grep -q "pages/s" "$T/typescript2" && die "--no-progress still drew progress"
script -qec "$LABEL -q --min-pages 1 -o $T/l.jsonl ${EX[*]}" "$T/typescript3" >/dev/null
grep -q "pages/s" "$T/typescript3" && die "-q still drew progress"

# 2. not a terminal: silent by default, plain lines with --progress
run "$PRED" -o "$T/plain.txt" "${EX[@]}"
[ "$RC" -eq 0 ] || die "exit $RC"
grep -q "pages/s" "$ERR" && die "progress on a redirected stderr without --progress"
run "$PRED" --progress -o "$T/log.txt" "${EX[@]}"
[ "$RC" -eq 0 ] || die "--progress: exit $RC"
grep -q "^tbk-predict: progress: 3/3 pages (100.0%), [0-9]* pages/s, [0-9.]* MB/s, [0-9.]*s$" "$ERR" ||
  die "no final progress line: $(cat "$ERR")"
grep -q $'\r' "$ERR" && die "carriage returns in a log"

# 3. outputs do not depend on it
cmp -s "$T/tty.txt" "$T/plain.txt" && cmp -s "$T/plain.txt" "$T/log.txt" || die "progress changed the output"

# 4. training: what it is doing, as plain lines with --progress; nothing
#    without it (the summary lines stay)
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/synth" --sites 3 --pages 12 --seed 3 >/dev/null || die "synth failed"
"$LABEL" -q -o "$T/l.jsonl" "$T/synth/manifest.tsv" || die "label failed"
"$FEAT" --labels "$T/l.jsonl" -o "$T/f.svm" --words "$T/f.words" --meta "$T/f.meta" "$T/synth/manifest.tsv" 2>/dev/null ||
  die "features failed"
run "$TRAIN" --progress -o "$T/m1.model" "$T/f.svm" "$T/f.words" "$T/f.meta"
[ "$RC" -eq 0 ] || die "train --progress: exit $RC: $(cat "$ERR")"
grep -q "^tbk-train: progress: [0-9.]*s — " "$ERR" || die "no training progress: $(cat "$ERR")"
run "$TRAIN" -o "$T/m2.model" "$T/f.svm" "$T/f.words" "$T/f.meta"
grep -q "progress:" "$ERR" && die "training progress on a redirected stderr without --progress"
cmp -s "$T/m1.model" "$T/m2.model" || die "progress changed the model"
echo "progress: ok"
