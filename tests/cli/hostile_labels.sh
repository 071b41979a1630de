#!/usr/bin/env bash
# Hostile labels file for tbk-features --labels: truncated JSON, binary
# junk, a line of 100,000 nested arrays (the reader never recurses), a huge
# line, a non-object. Each broken line is reported with its line number and
# skipped, good lines still count (exit 3); a missing labels file is fatal.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/sites" --seed 5 --sites 1 --pages 10 >/dev/null || die "synth_sites.py"
M="$T/sites/manifest.tsv"
"$LABEL" -q -o "$T/labels.jsonl" "$M" || die "tbk-label exit $?"
"$FEAT" --labels "$T/labels.jsonl" -o "$T/good.svm" "$M" || die "tbk-features on good labels: exit $?"
GOOD=$(wc -l <"$T/good.svm")
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
good = open(t + "/labels.jsonl", "rb").read().splitlines()
bad = [good[0][: len(good[0]) // 2],                # truncated object
       b"\x00\x01\x02\xff\xfe binary junk \x89PNG",  # binary
       b'{"site":"s","deep":' + b"[" * 100000 + b"]" * 100000 + b"}",  # deep nesting
       b'{"site":"' + b"x" * 2000000 + b'"',          # 2 MB line, unterminated
       b"[1,2,3]", b'{"site": "a" "page": "b"}', b'{"text":"\\ud800"}']
# The truncated line replaces good[0]: that block is lost, the rest stays.
out = bad + good[1:]
open(t + "/bad.jsonl", "wb").write(b"\n".join(out) + b"\n")
PY
"$FEAT" --labels "$T/bad.jsonl" -o "$T/bad.svm" "$M" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || { tail -5 "$T/err" >&2; die "exit $rc, expected 3"; }
for n in 1 2 4 5 6 7; do
  grep -q "bad.jsonl:$n: invalid JSON at byte [0-9]* (skipped)" "$T/err" || { head -c 2000 "$T/err" >&2; die "line $n not reported"; }
done
# The deep line is valid JSON, parsed without recursion: it just is no label.
grep -q "bad.jsonl:3: not a label line" "$T/err" || die "deep line not reported"
[ "$(wc -l <"$T/bad.svm")" -eq $((GOOD - 1)) ] || die "expected $((GOOD - 1)) rows, got $(wc -l <"$T/bad.svm")"
[ "$(wc -c <"$T/err")" -lt 20000 ] || die "messages echo the junk back"

"$FEAT" --labels "$T/nope.jsonl" -o "$T/x.svm" "$M" 2>"$T/err"
[ $? -eq 1 ] && grep -q "nope.jsonl: cannot open: No such file or directory" "$T/err" || { cat "$T/err" >&2; die "missing labels file"; }
ls "$T"/x.svm* >/dev/null 2>&1 && die "a fatal error left an output file"
echo ok
