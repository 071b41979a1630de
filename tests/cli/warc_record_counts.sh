#!/usr/bin/env bash
# What a WARC holds, read or skipped, and why (#32 item 2): every record
# met is counted once by outcome and reason (--warc-summary; tbk-predict
# --summary), and the counts add up to the records written; non-200 HTML
# responses are skipped and counted unless --status takes them; a bad
# --status is a usage error; the readable part of a cut gzip member is read
# with a warning (exit 3).
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
python3 - "$T" <<'PY'
import sys, gzip
t = sys.argv[1]
def page(name):
    return ("<html><head><title>%s</title></head><body><div><p>The %s page says alpha bravo charlie delta "
            "echo foxtrot golf hotel india juliet kilo lima mike november oscar papa.</p></div></body></html>"
            % (name, name)).encode()
def rec(wtype, uri, block, ctype=None, delta=0, clen=True):
    h = b"WARC/1.0\r\nWARC-Type: " + wtype.encode() + b"\r\n"
    if uri: h += b"WARC-Target-URI: " + uri.encode() + b"\r\n"
    if ctype: h += b"Content-Type: " + ctype.encode() + b"\r\n"
    if clen: h += b"Content-Length: %d\r\n" % (len(block) + delta)
    return h + b"\r\n" + block + b"\r\n\r\n"
def http(status, ctype, body, extra=b""):
    h = b"HTTP/1.1 %d X\r\n" % status
    if ctype: h += b"Content-Type: " + ctype.encode() + b"\r\n"
    return h + extra + b"\r\n" + body
A = "application/http; msgtype=response"
recs = [
    rec("warcinfo", None, b"software: test\r\n", "application/warc-fields"),                  # warcinfo
    rec("response", "http://a.example/", http(200, "text/html", page("home")), A),           # response html
    rec("request", "http://a.example/", b"GET / HTTP/1.1\r\n\r\n", "application/http; msgtype=request"),
    rec("response", "http://a.example/i.png", http(200, "image/png", b"\x89PNG\r\n"), A),    # image
    rec("response", "http://a.example/short", http(200, "text/html", page("short")), A, delta=-7),  # recovered
    rec("response", "http://a.example/gone", http(404, "text/html", page("missing")), A),    # status 404
    rec("response", "http://a.example/moved", http(301, "text/html", b"<a href=/>moved</a>"), A),  # status 301
    rec("resource", "http://a.example/r", page("resource"), "text/html"),                    # resource html
    rec("metadata", "http://a.example/", b"via: x\r\n", "application/warc-fields"),
    rec("revisit", "http://a.example/", http(200, "text/html", b""), A),
    rec("response", "http://a.example/n", http(200, None, page("sniffed")), A),              # sniffed
    rec("response", "http://a.example/t", http(200, "application/octet-stream", b"just text"), A),  # not markup
    rec("response", "http://a.example/s.css", http(200, "text/css", b"p{}"), A),             # text
    rec("response", "http://a.example/j", http(200, "application/json", b"{}"), A),          # json
    rec("response", "http://a.example/br", http(200, "text/html", b"\x0b\x02", b"Content-Encoding: br\r\n"), A),
    b"XXXX this is no record header\r\n\r\n",                                                 # junk
    rec("response", None, http(200, "text/html", page("no uri")), A),                        # no URI
    rec("response", "http://a.example/", http(200, "text/html", page("home")), A),           # same capture again
    rec("conversion", "http://a.example/c", b"text", "text/plain"),
    rec("response", "http://a.example/nolen", b"", A, clen=False),                            # bad WARC header
]
open(t + "/all.warc", "wb").write(b"".join(recs))
open(t + "/count", "w").write("%d\n" % len(recs))
# The same as a .warc.gz, one member a record, and a long last page whose
# member is cut: its head and the start of its body can be read.
# (words in an order that does not compress away, so half the member holds
# the heads and some of the body)
words, x = [], 1
for _ in range(1500):
    x = x * 1103515245 + 12345 & 0x7fffffff
    words.append("w%x" % (x >> 8))
long = page("long") + b"<p>" + " ".join(words).encode() + b"</p>"
members = [gzip.compress(r) for r in recs] + [gzip.compress(rec("response", "http://a.example/long",
                                                              http(200, "text/html", long), A))]
whole = b"".join(members)
open(t + "/all.warc.gz", "wb").write(whole)
open(t + "/cut.warc.gz", "wb").write(whole[:len(whole) - len(members[-1]) // 2])
# A cut member that another member follows (cut files concatenated).
open(t + "/mid.warc.gz", "wb").write(whole[:len(whole) - len(members[-1]) // 2] + members[1])
PY
N=$(cat "$T/count")

PROG=tbk-predict
for w in all.warc all.warc.gz; do
  expect_rc 3 "$PRED" --summary "$T/$w"
  want=$N resp=2 # the .warc.gz warc_has the long page too
  [[ $w == all.warc.gz ]] && want=$((N + 1)) resp=3
  warc_has "total|$want" "read|response html|$resp" "read|resource html|1" \
    "read|html sniffed (no or a generic content type)|1" "read|recovered: content-length short|1" \
    "skipped|status 404|1" "skipped|status 301|1" "skipped|request record|1" "skipped|metadata record|1" \
    "skipped|warcinfo record|1" "skipped|revisit record|1" "skipped|conversion record|1" \
    "skipped|not html: image|1" "skipped|not html: text|1" "skipped|not html: script or json|1" \
    "skipped|not html: no or a generic type, not markup|1" "skipped|unsupported content-encoding|1" \
    "skipped|damaged: no warc-target-uri|1" "skipped|damaged: not a record header|1" \
    "skipped|damaged: warc header|1"
  grep -q "The missing page" "$OUT" && die "$w: a 404 page read by default"
  # --warc-summary alone: the table without the per-page lines.
  expect_rc 3 "$PRED" --warc-summary "$T/$w"
  expect_messages
  warc_has "total|$want"
  # The 404 page read with --status; 301 still skipped.
  expect_rc 3 "$PRED" --warc-summary --status 200,404 "$T/$w"
  grep -q "The missing page" "$OUT" || die "$w: --status 200,404 did not read the 404 page"
  warc_has "total|$want" "read|response html, status 404|1" "skipped|status 301|1"
  expect_rc 3 "$PRED" --warc-summary --status all "$T/$w"
  warc_has "total|$want" "read|response html, status 404|1" "read|response html, status 301|1"
done
# The same from stdin.
expect_rc 3 "$PRED" --warc-summary - <"$T/all.warc"
warc_has "total|$N"

# A bad --status is a usage error, in every program that reads pages.
for bad in abc 99 600 200, ,200 "" 2x0 all,404 -200; do
  expect_rc 2 "$PRED" --status "$bad" "$T/all.warc"
  expect_err "^tbk-predict: error: --status: '.*' is not 'all' or a list of HTTP status codes"
done
PROG=tbk-label
expect_rc 2 "$LABEL" --status 42 "$T/all.warc"
expect_err "^tbk-label: error: --status:"

# tbk-label: the repeated capture is counted once, so the table says so.
expect_rc 3 "$LABEL" -q --min-pages 2 --warc-summary -o "$T/labels.jsonl" --status 200,404 "$T/all.warc"
expect_messages
warc_has "total|$N" "read|response html|1" "skipped|duplicate capture|1" "read|response html, status 404|1"

# The cut member: its page's head and the start of its body are read.
PROG=tbk-predict
for w in cut mid; do
  expect_rc 3 "$PRED" --summary "$T/$w.warc.gz"
  expect_err "^tbk-predict: warning: [^ ]*/$w.warc.gz: record at offset [0-9]+ \(http://a.example/long\) cut off \(gzip member truncated(, another member follows)?\): read [0-9]+ of [0-9]+ bytes of its block; the rest is lost$"
  grep -q "The long page says alpha" "$OUT" || die "$w: the cut page's text was not written"
  if [[ $w == cut ]]; then warc_has "total|$((N + 1))" "read|recovered: cut off in a truncated gzip member|1"
  else warc_has "total|$((N + 2))" "read|recovered: cut off in a truncated gzip member|1" "read|response html|3"
  fi
done
echo ok
