#!/usr/bin/env bash
# No lost output: a failure to write (/dev/full, a missing directory) is
# exit 4 for every program, and output files appear only complete: a run
# that fails, or is killed with SIGKILL midway, leaves an existing target
# untouched and never a half-written one.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
[ -w /dev/full ] || skip "no writable /dev/full"
bash "$TBK_SRC/fuzz/make_seed_model.sh" "$TBK_BIN" "$T/m.model" >/dev/null 2>"$T/err" || { rc=$?; cat "$T/err" >&2; exit $rc; }
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/sites" --seed 9 --sites 2 --pages 40 >/dev/null || die "synth_sites.py"
M="$T/sites/manifest.tsv"
PAGE=$(find "$T/sites/pages" -name '*.html' | sort | head -1)

full() { # full NAME CMD...: stdout to /dev/full must give exit 4 and say so
  local name=$1
  shift
  "$@" >/dev/full 2>"$T/err"
  local rc=$?
  [ $rc -eq 4 ] || { cat "$T/err" >&2; die "$name > /dev/full: exit $rc, expected 4"; }
  grep -q "cannot write" "$T/err" || { cat "$T/err" >&2; die "$name > /dev/full: no message"; }
  echo "$name > /dev/full: exit 4: $(tail -1 "$T/err")"
}
full label "$LABEL" -q --min-pages 1 "$PAGE"
full features "$FEAT" "$PAGE"
full predict "$PRED" -m "$T/m.model" "$PAGE"
full predict-jsonl "$PRED" -m "$T/m.model" -f jsonl "$PAGE"
"$LABEL" -q -o "$T/labels.jsonl" "$M" || die "tbk-label: exit $?"
"$FEAT" --labels "$T/labels.jsonl" -o "$T/f.svm" --words "$T/f.words" --meta "$T/f.meta" "$M" || die "tbk-features: exit $?"
full train "$TRAIN" -q -o /dev/full "$T/f.svm" "$T/f.words" "$T/f.meta"

for prog in label features; do
  bin=("$FEAT"); [ $prog = label ] && bin=("$LABEL" -q --min-pages 1)
  "${bin[@]}" -o /dev/full "$PAGE" 2>"$T/err"
  rc=$?
  [ $rc -eq 4 ] || { cat "$T/err" >&2; die "$prog -o /dev/full: exit $rc, expected 4"; }
  "${bin[@]}" -o "$T/no/such/dir/out" "$PAGE" 2>"$T/err"
  rc=$?
  [ $rc -eq 4 ] || { cat "$T/err" >&2; die "$prog -o into a missing directory: exit $rc, expected 4"; }
done

# A failing run leaves the old target as it was, and no temporary file.
echo OLD >"$T/target.svm"
printf '\x89PNG\r\n\x1a\n' >"$T/bad.html"
"$FEAT" --strict -o "$T/target.svm" "$PAGE" "$T/bad.html" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || die "--strict with a bad page: exit $rc, expected 1"
[ "$(cat "$T/target.svm")" = OLD ] || die "a failed run changed the target"
ls "$T"/target.svm.* >/dev/null 2>&1 && die "a failed run left a temporary file"

# SIGKILL midway: the target is never half-written (the temporary file
# beside it is what remains).
# The kill must land while the run is still going: grow the input until it
# does (a fast machine may finish a small input within the wait). The pages
# are copies, not the manifest's rows repeated: a page listed twice is
# read once.
many() { # many REPS: $T/sites/many.tsv lists REPS copies of every page
  local r
  head -1 "$M" >"$T/sites/many.tsv"
  for ((r = 0; r < $1; r++)); do
    [ -d "$T/sites/copy$r" ] || cp -r "$T/sites/pages" "$T/sites/copy$r"
    awk -F '\t' -v OFS='\t' -v r="$r" 'NR > 1 { sub(/^pages\//, "copy" r "/", $2); print }' "$M" >>"$T/sites/many.tsv"
  done
}
killed=0
for reps in 3 30 150; do
  many $reps
  "$FEAT" -o "$T/target.svm" --words "$T/target.words" "$T/sites/many.tsv" 2>/dev/null &
  pid=$!
  sleep 0.5
  if kill -9 $pid 2>/dev/null; then
    wait $pid 2>/dev/null
    # The kill can land after the output was committed, while the process
    # was still exiting (a sanitizer's leak check takes a while): then the
    # target is complete, which is allowed; try a longer run.
    if [ "$(cat "$T/target.svm")" != OLD ]; then
      "$FEAT" -o "$T/ref.svm" --words "$T/ref.words" "$T/sites/many.tsv" 2>/dev/null
      cmp -s "$T/target.svm" "$T/ref.svm" || die "SIGKILL midway left a half-written target"
      printf 'OLD' >"$T/target.svm"
      rm -f "$T/target.words"
      continue
    fi
    killed=1
    break
  fi
  wait $pid 2>/dev/null
  printf 'OLD' >"$T/target.svm"
  rm -f "$T/target.words"
done
[ $killed -eq 1 ] || die "could not kill tbk-features midway (it always finished first)"
[ "$(cat "$T/target.svm")" = OLD ] || die "SIGKILL midway changed the target"
[ -e "$T/target.words" ] && die "SIGKILL midway left a target file"
# The temporary files were unnamed (O_TMPFILE): SIGKILL leaves none, but
# for one window: a complete output is given a temporary name (linkat) and
# then renamed over the target, as no call links a file over another, so a
# kill between the two leaves that complete file. Only where the kernel or
# file system lacks O_TMPFILE may other named ones (partial) remain.
left=$(find "$T" -maxdepth 1 -name '*.tmp.*' | wc -l)
if [ "$left" -ne 0 ]; then
  if python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o600))' "$T" 2>/dev/null; then
    "$FEAT" -o "$T/ref.svm" --words "$T/ref.words" "$T/sites/many.tsv" 2>/dev/null
    for f in "$T"/*.tmp.*; do
      cmp -s "$f" "$T/ref.svm" || cmp -s "$f" "$T/ref.words" ||
        die "SIGKILL midway left a partial temporary file ($f) although $T supports O_TMPFILE"
    done
  fi
fi
echo "after SIGKILL: target untouched; temporary files left: $left"
"$FEAT" -o "$T/target.svm" "$T/sites/many.tsv" 2>/dev/null || die "complete run: exit $?"
[ "$(head -c 3 "$T/target.svm")" != OLD ] && [ -s "$T/target.svm" ] || die "complete run did not replace the target"
echo ok
