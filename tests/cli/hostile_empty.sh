#!/usr/bin/env bash
# Hostile input: empty files, whitespace-only files and empty stdin are bad
# pages: reported as "FILE: reason (skipped)", counted, the run goes on
# (good pages still produce output) and ends with exit 3; --strict makes
# the first one fatal (exit 1) and leaves no output file behind.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
mkdir -p "$T/in"
: >"$T/in/empty.html"
printf ' \n\t\r\n   \f ' >"$T/in/space.html"
python3 - "$T/in/good.html" <<'PY'
import sys
w = "alpha bravo charlie delta echo foxtrot golf hotel india juliet".split()
open(sys.argv[1], "w").write("<html><body>" + "".join(
    "<div>%s</div>" % " ".join(w[(i + k) % 10] for k in range(12)) for i in range(5)) + "</body></html>")
PY

"$FEAT" -o "$T/f.svm" "$T/in" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/err" >&2; die "exit $rc, expected 3"; }
grep -q "warning: $T/in/empty.html: empty page (0 bytes) (skipped)" "$T/err" || die "empty file not reported"
grep -q "warning: $T/in/space.html: page has only whitespace (skipped)" "$T/err" || die "whitespace file not reported"
[ "$(wc -l <"$T/f.svm")" -eq 5 ] || die "the good page's 5 blocks are not all there"

# Empty standard input is named "-", not by its temporary copy.
"$FEAT" -o "$T/s.svm" - </dev/null 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || die "empty stdin: exit $rc, expected 3"
grep -q "warning: -: empty page (0 bytes) (skipped)" "$T/err" || { cat "$T/err" >&2; die "empty stdin not reported as -"; }

# --strict: the first bad page is fatal, and no output file appears.
"$FEAT" --strict -o "$T/strict.svm" "$T/in" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || die "--strict: exit $rc, expected 1"
grep -q "error: $T/in/empty.html: empty page" "$T/err" || { cat "$T/err" >&2; die "--strict: first bad page not named"; }
ls "$T"/strict.svm* >/dev/null 2>&1 && die "--strict left an output (or temporary) file"

# tbk-label counts them per site.
"$LABEL" --min-pages 1 -q --stats "$T/stats.tsv" -o "$T/l.jsonl" "$T/in" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || die "tbk-label: exit $rc, expected 3"
awk -F'\t' 'NR == 2 && $2 == 1 && $3 == 2 { ok = 1 } END { exit !ok }' "$T/stats.tsv" ||
  { cat "$T/stats.tsv" >&2; die "stats do not count 1 page and 2 bad pages"; }
echo ok
