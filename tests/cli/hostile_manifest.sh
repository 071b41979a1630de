#!/usr/bin/env bash
# Hostile manifests: rows naming missing files (or a directory) are
# reported with the row number and skipped, the rest is processed (exit 3);
# a manifest naming no readable page, an empty one and one without the
# required columns are fatal (exit 1) with the reason.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
mkdir -p "$T/m/pages"
echo "<div>alpha bravo charlie delta echo foxtrot golf hotel</div>" >"$T/m/pages/a.html"
echo "<div>india juliet kilo lima mike november oscar papa</div>" >"$T/m/pages/b.html"
mkdir -p "$T/m/pages/dir.html"
printf 'site\tpage\turl\nx\tpages/a.html\t\nx\tpages/missing.html\t\nx\tpages/dir.html\t\nx\t\t\ny\tpages/b.html\thttp://y/b\n' >"$T/m/manifest.tsv"

"$FEAT" -o "$T/f.svm" --meta "$T/f.meta" "$T/m/manifest.tsv" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/err" >&2; die "exit $rc, expected 3"; }
grep -q "pages/missing.html: manifest row 2: no such file" "$T/err" || { cat "$T/err" >&2; die "missing file not reported"; }
grep -q "pages/dir.html: manifest row 3: is a directory, not a page file" "$T/err" || die "directory row not reported"
grep -q "manifest.tsv: manifest row 4: empty page column" "$T/err" || die "empty page column not reported"
[ "$(wc -l <"$T/f.svm")" -eq 2 ] || die "the two good pages are not both there"

printf 'site\tpage\nx\tnope.html\n' >"$T/m/none.tsv"
"$FEAT" -o "$T/g.svm" "$T/m/none.tsv" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || die "no readable page: exit $rc, expected 1"
grep -q "none.tsv: manifest lists no readable page" "$T/err" || { cat "$T/err" >&2; die "no readable page not said"; }
ls "$T"/g.svm* >/dev/null 2>&1 && die "a fatal error left an output file"

: >"$T/m/empty.tsv"
"$FEAT" -o "$T/g.svm" "$T/m/empty.tsv" 2>"$T/err"
[ $? -eq 1 ] && grep -q "empty manifest (no header line)" "$T/err" || { cat "$T/err" >&2; die "empty manifest"; }
printf 'url\tgold\nx\ty\n' >"$T/m/nocols.tsv"
"$FEAT" -o "$T/g.svm" "$T/m/nocols.tsv" 2>"$T/err"
[ $? -eq 1 ] && grep -q 'manifest header lacks the columns "site" and "page"' "$T/err" || { cat "$T/err" >&2; die "header without columns"; }
head -c 3000 /dev/urandom >"$T/m/binary.tsv"
"$FEAT" -o "$T/g.svm" "$T/m/binary.tsv" 2>"$T/err"
[ $? -eq 1 ] || { cat "$T/err" >&2; die "binary manifest should be fatal"; }
echo ok
