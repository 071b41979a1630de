#!/usr/bin/env bash
# Hostile input that is still a page: NUL bytes inside text, invalid UTF-8,
# UTF-16 with a BOM (LE and BE) and without, a declared charset that lies,
# an unknown charset name. Every page is processed (exit 0), every block's
# text is valid UTF-8 in valid JSON, and the words survive decoding.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
mkdir -p "$T/in"
python3 - "$T/in" <<'PY'
import sys, os, codecs
d = sys.argv[1]
words = "alpha bravo charlie delta echo foxtrot"  # short: labels keep an 80-byte snippet
def w(name, data):
    open(os.path.join(d, name), "wb").write(data)
w("nul.html", b"<div>alpha\x00bravo \x00\x00charlie delta\x01 echo\x7f foxtrot golf hotel</div>")
w("badutf8.html", b"<div>" + words.encode() + b" \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82 \xff end</div>")
page = "<html><body><div>" + words + " na\u00efve caf\u00e9 \u4e2d\u6587</div></body></html>"
w("utf16le.html", codecs.BOM_UTF16_LE + page.encode("utf-16-le"))
w("utf16be.html", codecs.BOM_UTF16_BE + page.encode("utf-16-be"))
w("utf16le-nobom.html", page.encode("utf-16-le"))
w("lying.html", ("<meta charset=\"shift_jis\"><div>" + words + " \u00fcber \u4e2d\u6587</div>").encode("utf-8"))
w("lying-utf8.html", b"<meta charset=utf-8><div>" + words.encode() + b" caf\xe9 na\xefve</div>")
w("unknown.html", b"<meta charset=x-no-such-charset><div>" + words.encode() + b" caf\xc3\xa9</div>")
PY
"$LABEL" -q --min-pages 1 --all -o "$T/l.jsonl" "$T/in" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; die "exit $rc, expected 0"; }
python3 - "$T/l.jsonl" <<'PY' || die "decoded text is wrong"
import json, sys, os
raw = open(sys.argv[1], "rb").read()
raw.decode("utf-8")  # strict: the output is valid UTF-8
text = {}
for line in raw.decode().splitlines():
    o = json.loads(line)
    text.setdefault(os.path.basename(o["page"]), []).append(o["text"])
want = {
    "nul.html": ["alphabravo charlie delta echo foxtrot"],
    # not valid UTF-8 and no declaration: windows-1252, as documented
    "badutf8.html": ["foxtrot \u00c0\u00af"],
    "utf16le.html": ["na\u00efve caf\u00e9 \u4e2d\u6587"],
    "utf16be.html": ["na\u00efve caf\u00e9 \u4e2d\u6587"],
    "utf16le-nobom.html": ["na\u00efve caf\u00e9 \u4e2d\u6587"],
    "lying.html": ["alpha bravo charlie"],
    "lying-utf8.html": ["caf\ufffd na\ufffdve"],
    "unknown.html": ["caf\u00e9"],
}
for page, subs in want.items():
    got = " | ".join(text.get(page, []))
    for s in subs:
        assert s in got, (page, s, got)
print("ok:", len(text), "pages")
PY
echo ok
