#!/usr/bin/env bash
# A declared charset that decodes the page to mostly U+FFFD (#32 item 5):
# an HTTP header "charset=utf-8" on a windows-1251 page is overruled by the
# page's <meta> charset when it has one, else by the detected charset, with
# a warning naming both; a page its declaration fits, or one with a few
# stray bytes, is read as declared, silently.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
PROG=tbk-predict
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
ru = ("Москва — столица России, крупнейший по численности населения город страны. Город расположен на реке "
      "Москве в центре Восточно-Европейской равнины. В Москве находятся органы государственной власти.")
def page(meta=""):
    return ("<html><head>%s<title>Новости</title></head><body><div><h1>Москва сегодня</h1><p>%s</p><p>%s</p>"
            "</div></body></html>" % (meta, ru, ru))
def rec(uri, body, cs="utf-8"):
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=" + cs.encode() + b"\r\n\r\n" + body
    return (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri.encode() +
            b"\r\nContent-Length: %d\r\n\r\n" % len(block) + block + b"\r\n\r\n")
open(t + "/detect.warc", "wb").write(rec("http://ru.example/a", page().encode("cp1251")))
open(t + "/meta.warc", "wb").write(rec("http://ru.example/b",
     page('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">').encode("cp1251")))
open(t + "/right.warc", "wb").write(rec("http://ru.example/c", page().encode("utf-8")))
# UTF-8 with two stray bytes: read as UTF-8 (a few U+FFFD), no warning.
open(t + "/stray.warc", "wb").write(rec("http://ru.example/d", page().encode("utf-8").replace(b"</h1>", b"\xff\xfe</h1>")))
# Twelve stray bytes (enough for the text walk, which stops early once the
# text outweighs them): still read as UTF-8, no warning.
open(t + "/stray12.warc", "wb").write(rec("http://ru.example/e", page().encode("utf-8").replace(b"</h1>", b"\xff" * 12 + b"</h1>")))
open(t + "/meta-utf8.html", "wb").write(page('<meta charset="utf-8">').encode("cp1251"))
PY
CYR='Москва — столица России'
expect_rc 0 "$PRED" "$T/detect.warc"
grep -q "$CYR" "$OUT" || die "detect.warc: the Russian text was not recovered"
if grep -q $'\xef\xbf\xbd' "$OUT"; then die "detect.warc: U+FFFD in the output"; fi
expect_messages
expect_err "^tbk-predict: warning: $T/detect.warc: record at offset 0 \(http://ru.example/a\): charset UTF-8 \(HTTP header\) decodes [0-9]+ of [0-9]+ characters to U\+FFFD; read as WINDOWS-1251 \(detected\) instead$"

expect_rc 0 "$PRED" "$T/meta.warc"
grep -q "$CYR" "$OUT" || die "meta.warc: the Russian text was not recovered"
expect_err 'charset UTF-8 \(HTTP header\) decodes .* read as WINDOWS-1251 \(<meta>\) instead$'

expect_rc 0 "$PRED" "$T/meta-utf8.html"
grep -q "$CYR" "$OUT" || die "meta-utf8.html: the Russian text was not recovered"
expect_err 'meta-utf8.html: charset UTF-8 \(<meta>\) decodes .* read as WINDOWS-1251 \(detected\) instead$'

for f in right stray stray12; do
  expect_rc 0 "$PRED" "$T/$f.warc"
  grep -q "$CYR" "$OUT" || die "$f.warc: text lost"
  [[ ! -s $ERR ]] || die "$f.warc: unexpected warning: $(cat "$ERR")"
done

# tbk-label and tbk-keywords read pages the same way.
expect_rc 0 "$LABEL" --min-pages 1 "$T/detect.warc"
grep -q "$CYR" "$OUT" || die "label: the Russian text was not recovered"
expect_err 'tbk-label: warning: .*read as WINDOWS-1251 \(detected\) instead$'
expect_rc 0 "$TBK_BIN/keywords/tbk-keywords" "$T/detect.warc"
expect_err 'tbk-keywords: warning: .*read as WINDOWS-1251 \(detected\) instead$'
grep -q 'москв' "$OUT" || die "keywords: no Russian keyword"
echo "charset_conflict ok"
