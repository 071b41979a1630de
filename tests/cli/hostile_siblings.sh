#!/usr/bin/env bash
# Hostile structure: 1,000,000 siblings (known and unknown tag names) are
# processed in linear time; more elements than max-nodes (2,000,000) are
# refused by name.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
n = 1000000
open(t + "/spans.html", "w").write("<html><body><div>" + "".join("<span>w%d</span> " % (i % 7) for i in range(n)) + "</div></body></html>")
open(t + "/custom.html", "w").write("<html><body><div>" + "".join("<x-item>w%d </x-item>" % (i % 7) for i in range(n)) + "</div></body></html>")
open(t + "/nodes.html", "w").write("<html><body>" + "<b></b>" * 2100000 + "</body></html>")
PY
for f in spans custom; do
  start=$(date +%s)
  "$FEAT" -o "$T/$f.svm" "$T/$f.html" 2>"$T/err" || { cat "$T/err" >&2; die "$f: exit $?"; }
  secs=$(($(date +%s) - start))
  [ "$(wc -l <"$T/$f.svm")" -eq 1 ] || die "$f: expected one block"
  [ $secs -lt 300 ] || die "$f: 1,000,000 siblings took $secs s (quadratic?)"
  echo "$f: ${secs}s"
done
"$FEAT" -o "$T/n.svm" "$T/nodes.html" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/err" >&2; die "nodes: exit $rc, expected 3"; }
grep -q "nodes.html: page has more than max-nodes (2000000) elements (skipped)" "$T/err" || { cat "$T/err" >&2; die "max-nodes not named"; }
echo ok
