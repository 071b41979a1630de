#!/usr/bin/env bash
# tbk-predict --output-dir names (#32 item 4): a WARC page's file is named
# by its whole URL, scheme, host, path and query kept apart and escaped, so
# http://x.cn/, http://x.cn/?p=2 and https://x.cn/ no longer collide; two
# captures of one URL get "~2" in record order; "..", "%2F" and a 600-byte
# URL stay inside DIR under a name of at most 255 bytes a part; DIR/index.tsv
# maps every file back to its URL and record (TSV-escaped). Pages from
# files keep their names.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
PROG=tbk-predict
mkdir -p "$T/run"
cd "$T/run" || die "no scratch dir"
long="http://x.cn/$(printf 'a%.0s' $(seq 588))"
python3 - "$long" <<'PY'
import sys
def page(i):
    return ("<html><head><title>Page %d</title></head><body><div><h1>Headline %d</h1><p>Paragraph number %d with "
            "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa.</p>"
            "</div></body></html>" % (i, i, i)).encode()
def rec(uri, i):
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + page(i)
    h = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:0000-%04d>\r\nWARC-Date: 2024-01-%02dT00:00:00Z\r\n"
         b"WARC-Target-URI: " % (i, i)) + uri.encode() + b"\r\n"
    h += b"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(block)
    return h + block + b"\r\n\r\n"
urls = ["http://x.cn/", "http://x.cn/?p=2", "https://x.cn/", "http://x.cn/a/../../../../../etc/b", "http://x.cn/..",
        "http://x.cn/a%2Fb", "http://x.cn/a/b", sys.argv[1], "http://x.cn/", "HTTP://X.cn:8080/q?u=/c/d#f", "http://x.cn/back\\slash"]
open("crawl.warc", "wb").write(b"".join(rec(u, i + 1) for i, u in enumerate(urls)))
open("urls", "w").write("\n".join(urls) + "\n")
PY
mkdir -p pages/s
printf '<html><body><p>A page from a file, long enough to be kept as text by any model.</p></body></html>' >pages/s/p1.html
find . -type f | sort >"$T/before" # outside the tree it lists: made while find runs

expect_rc 0 "$PRED" -f jsonl --output-dir out crawl.warc pages
expect_messages
expect_no_err 'is taken by' # captures of one URL are expected, not a collision
# nothing written outside DIR
find . -type f ! -path './out/*' | sort | cmp -s - "$T/before" ||
  die "files written outside DIR: $(find . -type f ! -path './out/*' | sort | comm -23 - "$T/before")"
for f in http/x.cn/index.txt http/x.cn/index%3Fp=2.txt https/x.cn/index.txt http/x.cn/index~2.txt \
  http/x.cn/a%252Fb.txt http/x.cn/a/b.txt http/x.cn/%2E..txt http/x.cn/a/%2E./%2E./%2E./%2E./%2E./etc/b.txt \
  http/x.cn%3A8080/q%3Fu=%2Fc%2Fd%23f.txt http/x.cn/back%5Cslash.txt pages/s/p1.txt; do
  [[ -f out/${f/.txt/.jsonl} ]] || die "no out/${f/.txt/.jsonl}: $(cd out && find . -type f | sort)"
done
python3 - out "$long" <<'PY' || die "index.tsv does not match the files"
import json, os, sys
out, long = sys.argv[1], sys.argv[2]
def unesc(s):
    r, i = "", 0
    while i < len(s):
        if s[i] == "\\":
            r += {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}[s[i + 1]]
            i += 2
        else:
            r += s[i]
            i += 1
    return r
lines = open(os.path.join(out, "index.tsv"), encoding="utf-8").read().split("\n")
assert lines[0] == "file\turl\trecord_id\twarc_file\twarc_offset\tdate\twarc_skip\tpage", lines[0]
assert lines[-1] == ""
rows = [dict(zip(lines[0].split("\t"), map(unesc, l.split("\t")))) for l in lines[1:-1]]
files = set()
for root, _, names in os.walk(out):
    for n in names:
        files.add(os.path.relpath(os.path.join(root, n), out))
        for part in os.path.relpath(os.path.join(root, n), out).split("/"):
            assert len(part.encode()) <= 255, part
files.discard("index.tsv")
assert sorted(r["file"] for r in rows) == sorted(files), (sorted(r["file"] for r in rows), sorted(files))
urls = [l for l in open("urls").read().split("\n") if l]
warc = [r for r in rows if r["warc_file"]]
# record order, one row per record, each file's lines that record's
assert [r["url"] for r in warc] == urls, [r["url"] for r in warc]
for n, r in enumerate(warc, 1):
    assert r["record_id"] == "<urn:uuid:0000-%04d>" % n and r["date"] == "2024-01-%02dT00:00:00Z" % n, r
    assert r["warc_file"] == "crawl.warc" and r["warc_skip"] == "0" and r["page"] == r["url"], r
    for l in open(os.path.join(out, r["file"]), encoding="utf-8"):
        o = json.loads(l)
        assert o["page"] == r["url"] and o["warc_record_id"] == r["record_id"], (o, r)
        assert o["warc_offset"] == int(r["warc_offset"]), (o, r)
assert [r["file"] for r in warc if r["url"] == "http://x.cn/"] == ["http/x.cn/index.jsonl", "http/x.cn/index~2.jsonl"]
lf = [r["file"] for r in warc if r["url"] == long][0]
assert lf.startswith("http/x.cn/" + "a" * 150 + "~") and len(lf.split("/")[-1]) == 150 + 33 + 6, lf
# pages from files: their names as before, no WARC fields
plain = [(r["file"], r["page"]) for r in rows if not r["warc_file"]]
assert plain == [("pages/s/p1.jsonl", "pages/s/p1.html")], plain
assert all(r["record_id"] == r["warc_offset"] == r["date"] == r["warc_skip"] == "" for r in rows if not r["warc_file"])
# a backslash is escaped in the TSV
assert "\thttp://x.cn/back\\\\slash\t" in open(os.path.join(out, "index.tsv"), encoding="utf-8").read()
PY
expect_no_tmp out

# Every format gets the index; the same inputs, the same bytes.
expect_rc 0 "$PRED" --output-dir out2 crawl.warc pages
cmp -s <(cut -f 2- out2/index.tsv) <(cut -f 2- out/index.tsv) || die "-f text: another index"
[[ -f out2/http/x.cn/index~2.txt ]] || die "-f text: no index~2.txt"
expect_rc 0 "$PRED" --output-dir out3 crawl.warc pages
cmp -s out2/index.tsv out3/index.tsv || die "a second run wrote another index"

# A page directory named like the index is moved off it: index.tsv is a file.
mkdir -p odd/index.tsv
cp pages/s/p1.html odd/index.tsv/p.html
(cd odd && expect_rc 0 "$PRED" --output-dir ../out4 . && expect_err 'would make a directory of the index') || exit 1
[[ -f out4/index.tsv && -f out4/index.tsv~2/p.txt ]] || die "index.tsv not kept a file: $(cd out4 && find . | sort)"
grep -q $'^\./index.tsv~2/p.txt\t' out4/index.tsv || die "the moved page is not in the index: $(cat out4/index.tsv)"

# A failed run leaves no index.
expect_rc 2 "$PRED" --output-dir out5 crawl.warc crawl.warc -o x
expect_absent out5
echo ok
