#!/usr/bin/env bash
# Progress on long runs: on a terminal (a pseudo-terminal made by script(1))
# one self-updating line on stderr, cleared at the end; with stderr
# redirected nothing unless --progress, then plain "progress:" lines;
# --no-progress and -q silence it; output files are the same either way.
# Checked for every long-running program: tbk-predict in detail, then
# tbk-label, tbk-features, tbk-keywords, tbk-train, tbk-eval cv, chunks and
# keywords.
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

# 5. every other long-running program: its line on a terminal (pages done
#    of the total, or for training the elapsed time and the step), cleared
#    at the end; nothing on a redirected stderr; plain lines with --progress.
mkdir -p "$T/kw/a" "$T/kw/b"
for i in 0 1 2 3 4 5; do
  t=$(echo volcano glacier desert meadow canyon lagoon | cut -d' ' -f$((i + 1)))
  for d in a b; do
    printf '<html><head><title>%s</title><meta name="keywords" content="%s%s"></head><body>
<ul><li><a href=/>Home</a></li><li><a href=/n>Newsletter subscription offers</a></li></ul>
<p>The %s%s is a place. Visitors of the %s%s see it at dawn, and the weather changes there.</p>
</body></html>\n' "$t" "$t" "$d" "$t" "$d" "$t" "$d" >"$T/kw/$d/p$i.html"
  done
done
export TBK_MODEL=$TBK_SRC/models/default.model
KW=$TBK_BIN/keywords/tbk-keywords
SYN=$T/synth/manifest.tsv
# name | what its line must show | the command (its outputs into $T)
checks=(
  "tbk-label|[0-9]*/36 pages ([0-9.]*%), [0-9]* pages/s|$LABEL -o $T/p-l.jsonl $SYN"
  "tbk-features|[0-9]*/36 pages ([0-9.]*%), [0-9]* pages/s|$FEAT --labels $T/l.jsonl -o $T/p-f.svm $SYN"
  "tbk-keywords|[0-9]*/6 pages ([0-9.]*%), [0-9]* pages/s|$KW -o $T/p-k.txt $T/kw/a"
  "tbk-train|[0-9.]*s — |$TRAIN -o $T/p-m.model $T/f.svm $T/f.words $T/f.meta"
  "tbk-eval cv|[0-9.]*s — |$EVAL cv -k 3 --variants all --out $T/p-cv $T/f.svm $T/f.words $T/f.meta"
  "tbk-eval chunks|[0-9]* pages, [0-9]* pages/s|$EVAL chunks -o $T/p-c.tsv $SYN"
  "tbk-eval keywords|[0-9]*/24 pages ([0-9.]*%), [0-9]* pages/s|$EVAL keywords --train $T/kw/a --test $T/kw/b -o $T/p-e.json"
)
for c in "${checks[@]}"; do
  IFS='|' read -r prog line cmd <<<"$c"
  script -qec "$cmd >$T/p.out" "$T/ts" >/dev/null || die "$cmd on a terminal failed: $(cat -v "$T/ts")"
  grep -q $'\r\e\[K'"$prog: $line" "$T/ts" || die "$prog: no progress line on the terminal: $(cat -v "$T/ts" | head -c 600)"
  # every line drawn (no newline after it) is erased before anything else
  # is written: by the next line or the final clear
  python3 - "$T/ts" "$prog" <<'PY' || die "$prog: progress line not cleared: $(cat -v "$T/ts" | tail -c 300)"
import sys
t, mark = open(sys.argv[1], "rb").read(), b"\r\x1b[K" + sys.argv[2].encode() + b": "
k = t.find(mark)
while k >= 0:
    e = t.index(b"\r", k + 3)
    assert t[e:e + 2] == b"\r\n" or t[e:e + 4] == b"\r\x1b[K", t[k:e + 4]
    k = t.find(mark, k + 1)
PY
  read -ra argv <<<"$cmd"
  o=$T/p.out # the output file, else standard output
  for ((i = 0; i < ${#argv[@]}; i++)); do [ "${argv[i]}" = -o ] && o=${argv[i + 1]}; done
  cp "$o" "$T/tty.out"
  run "${argv[@]}"
  [ "$RC" -eq 0 ] || die "$cmd: exit $RC"
  [ "$o" = "$T/p.out" ] && o=$OUT
  # (tbk-eval chunks ends its lines with the time taken)
  diff <(sed 's/\t[0-9.]*$//' "$o") <(sed 's/\t[0-9.]*$//' "$T/tty.out") >/dev/null ||
    die "$prog: the output differs on a terminal: $(diff "$o" "$T/tty.out" | head -5)"
  grep -q "pages/s\|progress\| — " "$ERR" && die "$prog: progress on a redirected stderr without --progress: $(cat "$ERR")"
  run "${argv[@]}" --progress
  [ "$RC" -eq 0 ] || die "$cmd --progress: exit $RC"
  grep -q "^$prog: progress: $line" "$ERR" || die "$prog --progress: no plain progress line: $(cat "$ERR")"
  grep -q $'\r' "$ERR" && die "$prog --progress: carriage returns in a log"
done
echo "progress: ok"
