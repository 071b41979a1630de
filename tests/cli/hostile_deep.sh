#!/usr/bin/env bash
# Hostile structure: 100,000-deep nesting is refused by name (max-depth) by
# default and, with the limit raised, processed on a 1 MiB stack (nothing
# recurses on the input's depth: not our walk, not libxml2's xmlFreeDoc).
# Deep nesting around many blocks is refused by its locator budget quickly
# instead of formatting blocks x depth locators; too many blocks is refused
# by name (max-blocks). tbk-predict honours the same limits and renders
# deep pages without recursion.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
n = 100000
open(t + "/deep.html", "w").write("<html><body>" + "<div>" * n +
    "alpha bravo charlie delta echo foxtrot golf hotel" + "</div>" * n + "</body></html>")
open(t + "/deep-unclosed.html", "w").write("<html><body>" + "<span><b><i>" * (n // 3) + "alpha bravo charlie delta echo")
d, k = 3000, 30000
open(t + "/deepwide.html", "w").write("<html><body>" + "<div>" * d + "".join(
    "<div>unique text number %d with enough words here</div>" % i for i in range(k)) + "</body></html>")
open(t + "/wide.html", "w").write("<html><body>" + "".join(
    "<div>block number %d of many, with words enough</div>" % i for i in range(300)) + "</body></html>")
PY

"$FEAT" -o "$T/a.svm" "$T/deep.html" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/err" >&2; die "deep: exit $rc, expected 3"; }
grep -q "deep.html: elements nested deeper than max-depth (4096) (skipped)" "$T/err" || { cat "$T/err" >&2; die "max-depth not named"; }

# Raised limit, small stack: processed, one block (the nested divs fold).
(ulimit -s 1024 && exec "$FEAT" --max-depth 200000 -o "$T/b.svm" "$T/deep.html" "$T/deep-unclosed.html") 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; die "deep with --max-depth 200000 on a 1 MiB stack: exit $rc"; }
[ "$(wc -l <"$T/b.svm")" -eq 1 ] || die "deep page: expected 1 block"

# tbk-predict keeps the user's limits (the model sets only segmentation),
# and renders a 100,000-deep page (text, html, annotated html) on a small
# stack: libxml2 2.9.14 serializes without recursion.
bash "$TBK_SRC/fuzz/make_seed_model.sh" "$TBK_BIN" "$T/m.model" >/dev/null 2>"$T/err" || { rc=$?; cat "$T/err" >&2; exit $rc; }
"$PRED" -m "$T/m.model" "$T/deep.html" >/dev/null 2>"$T/err"
[ $? -eq 3 ] && grep -q "max-depth (4096)" "$T/err" || { cat "$T/err" >&2; die "predict: deep page not refused by max-depth"; }
for f in "-f text" "-f html" "-f html --annotate" "-f jsonl"; do
  (ulimit -s 1024 && exec "$PRED" -m "$T/m.model" --max-depth 200000 $f -o "$T/p.out" "$T/deep.html") 2>"$T/err" ||
    { cat "$T/err" >&2; die "predict $f on the deep page with --max-depth 200000: exit $?"; }
  case $f in *jsonl | *annotate) grep -q "alpha bravo charlie" "$T/p.out" || die "predict $f: text missing" ;; esac
done
"$PRED" -m "$T/m.model" --max-page-bytes 1000 "$T/deep.html" >/dev/null 2>"$T/err"
[ $? -eq 3 ] && grep -q "exceeds max-page-bytes (1000)" "$T/err" || { cat "$T/err" >&2; die "predict ignored --max-page-bytes"; }

start=$(date +%s)
"$FEAT" -o "$T/c.svm" "$T/deepwide.html" 2>"$T/err"
rc=$?
secs=$(($(date +%s) - start))
[ $rc -eq 3 ] || { cat "$T/err" >&2; die "deep+wide: exit $rc, expected 3"; }
grep -q "deepwide.html: block locators exceed 64 MiB" "$T/err" || { cat "$T/err" >&2; die "locator budget not reported"; }
[ $secs -lt 60 ] || die "deep+wide took $secs s"
echo "deep+wide refused in ${secs}s"

"$FEAT" --max-blocks 100 -o "$T/d.svm" "$T/wide.html" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || die "max-blocks: exit $rc, expected 3"
grep -q "wide.html: page has more than max-blocks (100) candidate blocks (skipped)" "$T/err" || { cat "$T/err" >&2; die "max-blocks not named"; }
"$FEAT" -o "$T/e.svm" "$T/wide.html" || die "wide page with default limits: exit $?"
[ "$(wc -l <"$T/e.svm")" -eq 300 ] || die "wide page: expected 300 blocks"
echo ok
