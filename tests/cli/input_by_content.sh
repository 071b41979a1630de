#!/usr/bin/env bash
# Inputs told apart by their first bytes, not their names (#32 item 1): a
# WARC (plain or gzip) on stdin, on a pipe (<(...)) or under a name without
# .warc is read as records, never as one HTML page; an ARC file
# ("filedesc://") is refused by name; and a damaged, HTML-less or ARC input
# among several is a warning and a counted skip (exit 3) while every other
# input's pages are written, in tbk-predict, tbk-label, tbk-keywords and
# tbk-cluster alike. Alone, such an input is still an error (exit 1).
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
KW=$TBK_BIN/keywords/tbk-keywords
CL=$TBK_BIN/cluster/tbk-cluster
python3 - "$T" <<'PY'
import sys, gzip
t = sys.argv[1]
def page(i, site):
    return ("<html><head><title>%s page %d</title></head><body><div id=nav><a href=/>home</a> <a href=/about>about us</a></div>"
            "<div><p>Story %d of %s: the river rose slowly over the old stone bridge while the town watched "
            "from the hill, and the mayor promised a new dam before the spring.</p></div></body></html>" % (site, i, i, site)).encode()
def rec(uri, block, kind="response"):
    return (b"WARC/1.0\r\nWARC-Type: " + kind.encode() + b"\r\nWARC-Target-URI: " + uri.encode() +
            b"\r\nContent-Length: %d\r\n\r\n" % len(block) + block + b"\r\n\r\n")
def http(body):
    return b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body
def warc(site, n):
    return [rec("http://%s/p%d" % (site, i), http(page(i, site))) for i in range(n)]
a, b = warc("a.example", 3), warc("b.example", 3)
open(t + "/a.warc", "wb").write(b"".join(a))
open(t + "/a.dat", "wb").write(b"".join(a))                      # no .warc in the name
open(t + "/b.warc.gz", "wb").write(b"".join(gzip.compress(r) for r in b))
open(t + "/b.bin", "wb").write(b"".join(gzip.compress(r) for r in b))
# HTML-less: a warcinfo and a request only.
open(t + "/nohtml.warc", "wb").write(rec("", b"software: x\r\n", "warcinfo") +
                                      rec("http://c.example/", b"GET / HTTP/1.1\r\n\r\n", "request"))
# Truncated inside its first gzip member: no record can be read.
open(t + "/trunc.warc.gz", "wb").write(gzip.compress(b"".join(a))[:40])
# ARC v1, plain and gzip.
arc = (b"filedesc://x.arc 0.0.0.0 20140101000000 text/plain 75\n1 0 Test\n"
       b"URL IP-address Archive-date Content-type Archive-length\n\n"
       b"http://d.example/ 1.2.3.4 20140101000000 text/html 60\n"
       b"HTTP/1.0 200 OK\nContent-Type: text/html\n\n<html><p>arc</p></html>\n")
open(t + "/x.arc", "wb").write(arc)
open(t + "/x.arc.gz", "wb").write(gzip.compress(arc))
PY

# A WARC read under any name, from stdin and from a pipe: the same pages.
expect_rc 0 "$PRED" "$T/a.warc"
cp "$OUT" "$T/a.want"
grep -q 'Story 2 of a.example' "$T/a.want" || die "a.warc: pages not read"
expect_rc 0 "$PRED" "$T/b.warc.gz"
cp "$OUT" "$T/b.want"
for f in a.dat; do
  expect_rc 0 "$PRED" "$T/$f"
  cmp -s "$OUT" "$T/a.want" || die "$f (a WARC without .warc in its name) not read as a WARC"
done
expect_rc 0 "$PRED" "$T/b.bin"
cmp -s "$OUT" "$T/b.want" || die "b.bin (a gzip WARC without .warc.gz) not read as a WARC"
expect_rc 0 sh -c "cat '$T/a.warc' | '$PRED' -"
cmp -s "$OUT" "$T/a.want" || die "a WARC on stdin is not read as a WARC"
expect_rc 0 sh -c "cat '$T/b.warc.gz' | '$PRED' -"
cmp -s "$OUT" "$T/b.want" || die "a gzip WARC on stdin is not read as a WARC"
expect_rc 0 bash -c "'$PRED' <(cat '$T/b.warc.gz')"
cmp -s "$OUT" "$T/b.want" || die "a gzip WARC on a pipe is not read as a WARC"
if grep -Eq 'WARC/1.0|WARC-Type|Content-Length' "$T/a.want" "$T/b.want"; then die "WARC headers in the output"; fi

# Warnings about records of stdin name it "-", not the temporary copy.
python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); open(sys.argv[2],"wb").write(d[:-40])' "$T/a.warc" "$T/cut.warc"
expect_rc 3 sh -c "cat '$T/cut.warc' | '$PRED' -"
PROG=tbk-predict
expect_messages
expect_err '^tbk-predict: warning: -: record at offset'
expect_no_err '/proc/|tbk-stdin-'

# ARC: refused by name, in one line, whatever the name or stream.
for f in x.arc x.arc.gz; do
  expect_rc 1 "$PRED" "$T/$f"
  expect_err "^tbk-predict: error: $T/$f: an ARC file \(first line \"filedesc://\"\), not WARC"
  [[ $(wc -l <"$ERR") == 1 ]] || die "$f: more than one line on stderr"
  [[ ! -s $OUT ]] || die "$f: ARC bytes written as a page"
  expect_rc 1 sh -c "cat '$T/$f' | '$PRED' -"
  expect_err '^tbk-predict: error: -: an ARC file'
done

# One bad input alone: an error, as before.
expect_rc 1 "$PRED" "$T/nohtml.warc"
expect_err 'no HTML response records'

# Among several: warned about, counted, and every other input's pages written.
BAD=("$T/nohtml.warc" "$T/trunc.warc.gz" "$T/x.arc")
expect_rc 3 "$PRED" "$T/a.warc" "${BAD[@]}" "$T/b.warc.gz"
PROG=tbk-predict
expect_messages
for f in nohtml.warc trunc.warc.gz x.arc; do expect_err "^tbk-predict: warning: $T/$f: .*\(input skipped\)$"; done
for s in a b; do for i in 0 1 2; do grep -q "Story $i of $s.example" "$OUT" || die "predict: page $i of $s lost"; done; done
expect_rc 1 "$PRED" --strict "$T/a.warc" "$T/nohtml.warc"
expect_rc 1 "$PRED" "$T/nohtml.warc" "$T/x.arc"
expect_err 'none of the 2 inputs could be read'

expect_rc 3 "$LABEL" --min-pages 1 "$T/a.warc" "${BAD[@]}" "$T/b.warc.gz"
PROG=tbk-label
expect_messages
for s in a b; do for i in 0 1 2; do grep -q "\"page\":\"http://$s.example/p$i\"" "$OUT" || die "label: page $i of $s lost"; done; done
expect_rc 3 "$KW" "$T/a.warc" "${BAD[@]}" "$T/b.warc.gz"
PROG=tbk-keywords
expect_messages
grep -q 'http://a.example/p2' "$OUT" && grep -q 'http://b.example/p2' "$OUT" || die "keywords: pages lost"
expect_rc 3 "$CL" -q "$T/a.warc" "${BAD[@]}" "$T/b.warc.gz"
PROG=tbk-cluster
expect_messages
grep -q 'http://a.example/p2' "$OUT" && grep -q 'http://b.example/p2' "$OUT" || die "cluster: pages lost"
echo "input_by_content ok"
