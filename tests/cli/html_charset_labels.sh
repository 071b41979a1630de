#!/usr/bin/env bash
# -f html writes a page in the charset it declares, also under a label
# only ICU knows (x-sjis, ks_c_5601-1987, x-mac-roman, iso-8859-8-i):
# the converter the page was read with, not UTF-8 under a declaration
# that says otherwise (what libxml2 without ICU wrote). The page's
# characters come back when the output is read in its declared charset.
. "$(dirname "$0")/lib.sh"
tmp_reset
T=$TBK_TMP
PROG=tbk-predict
check() { # check LABEL ICONV TEXT: a page declaring LABEL, its TEXT in ICONV's bytes
  local label=$1 conv=$2 text=$3
  iconv -f UTF-8 -t "$conv" </dev/null >/dev/null 2>&1 || skip "no iconv converter for $conv"
  printf '<html><head><meta http-equiv="Content-Type" content="text/html; charset=%s"><title>%s</title></head><body><div><h1>%s</h1><p>%s and a paragraph with enough words to be read as the content of this page.</p></div></body></html>' \
    "$label" "$text" "$text" "$text" | iconv -f UTF-8 -t "$conv" >"$T/$label.html" || die "iconv $conv"
  expect_rc 0 "$PRED" -m "$TBK_SRC/models/default.model" -f html -o "$T/$label.out.html" "$T/$label.html"
  iconv -f UTF-8 -t UTF-8 <"$T/$label.out.html" >/dev/null 2>&1 &&
    die "$label: the output is UTF-8, not $conv as declared"
  iconv -f "$conv" -t UTF-8 <"$T/$label.out.html" >"$T/$label.back.html" || die "$label: the output is not $conv"
  grep -qF "<p>$text and a paragraph" "$T/$label.back.html" || die "$label: the text did not come back: $(head -c 400 "$T/$label.back.html")"
  grep -qiF "charset=$label" "$T/$label.back.html" || die "$label: the declaration changed"
}
check x-sjis CP932 '日本語の記事'
check ks_c_5601-1987 CP949 '한국어 기사'
check x-mac-roman MACINTOSH 'Le café très élégant'
check iso-8859-8-i ISO-8859-8 'חדשות היום'
exit 0
