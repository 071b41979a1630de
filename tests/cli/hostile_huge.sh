#!/usr/bin/env bash
# Hostile size: a 100 MB page (generated here, deleted afterwards) is
# refused by name with the default limit (max-page-bytes, 64M) without
# being read whole, and with --max-page-bytes 200M it is processed in
# bounded memory (peak RSS measured with /usr/bin/time when available).
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
trap 'rm -f "$T/big.html"' EXIT
python3 - "$T/big.html" <<'PY'
import sys
w = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split()
para = " ".join(w[k % 12] + str(k % 97) for k in range(400))
with open(sys.argv[1], "w") as out:
    out.write("<html><body>")
    size, i = 0, 0
    while size < 100 * 1024 * 1024:
        s = "<div><p>%d %s</p></div>\n" % (i, para)
        out.write(s)
        size += len(s)
        i += 1
    out.write("</body></html>")
PY
SIZE=$(stat -c %s "$T/big.html")
[ "$SIZE" -gt 104857600 ] || die "generated page is only $SIZE bytes"

TIME=()
[ -x /usr/bin/time ] && TIME=(/usr/bin/time -f "%M" -o "$T/rss")
"${TIME[@]}" "$FEAT" -o "$T/a.svm" "$T/big.html" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/err" >&2; die "default limit: exit $rc, expected 3"; }
grep -q "big.html: file exceeds max-page-bytes (67108864) (skipped)" "$T/err" || { cat "$T/err" >&2; die "max-page-bytes not named"; }
if [ -s "$T/rss" ]; then
  kb=$(tail -1 "$T/rss")
  echo "refused: peak RSS $((kb / 1024)) MB"
  [ "$kb" -lt 262144 ] || die "refusing the page used $kb KB"
fi

"${TIME[@]}" "$FEAT" --max-page-bytes 200M -o "$T/b.svm" "$T/big.html" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; die "--max-page-bytes 200M: exit $rc, expected 0"; }
[ "$(wc -l <"$T/b.svm")" -gt 30000 ] || die "100 MB page: too few blocks"
if [ -s "$T/rss" ]; then
  kb=$(tail -1 "$T/rss")
  echo "processed: peak RSS $((kb / 1024)) MB for a $((SIZE >> 20)) MB page"
  # Raw bytes, decoded copy, libxml2's tree and the page text: a small
  # multiple of the page, never unbounded.
  [ "$kb" -lt $((SIZE / 1024 * 12)) ] || die "peak RSS $kb KB is over 12x the page"
fi
echo ok
