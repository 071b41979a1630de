#!/usr/bin/env bash
# #32 item 3: the same capture (same URL, same payload) several times in a
# crawl — a re-crawl, or a WARC listed under two names — is counted once for
# labelling and clustering, with a warning and a count. Without this every
# block of the repeated page had df 3, so its content blocks were labelled
# template (df >= 3) instead of content.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
python3 - "$T" <<'PY' || die "cannot write the WARC fixtures"
import sys
t = sys.argv[1]
nav = "".join("<li><a href='/s%d'>Section number %d of this example web site menu</a></li>" % (i, i) for i in range(6))
def page(i):
    words = " ".join("word%d_%d" % (i, k) for k in range(30))
    return ("<html><head><title>Page %d</title></head><body><div id='head'><ul>%s</ul></div>"
            "<div id='main'><p>The unique article text of page %d says: %s.</p>"
            "<p>A second unique paragraph of page %d, long enough to be a block: %s.</p></div>"
            "<div id='foot'><p>Copyright example web site, all rights reserved, since the year 2001.</p></div>"
            "</body></html>" % (i, nav, i, words, i, words)).encode()
def record(uri, body):
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body
    head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
            "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % (uri, len(http)))
    return head.encode() + http + b"\r\n\r\n"
once = b"".join(record("http://www.example.com/p%d" % i, page(i)) for i in range(12))
open(t + "/once.warc", "wb").write(once)
# Page 0 captured three times, and page 1 twice with different bytes (a
# changed page: two captures, both counted).
thrice = once + record("http://www.example.com/p0", page(0)) + record("http://www.example.com/p0", page(0))
changed = page(1).replace(b"unique article", b"changed article")
open(t + "/thrice.warc", "wb").write(thrice + record("http://www.example.com/p1", changed))
open(t + "/changed.warc", "wb").write(once + record("http://www.example.com/p1", changed))
PY
expect_rc 0 "$LABEL" -q -o "$T/once.jsonl" --stats "$T/once.tsv" "$T/changed.warc"
expect_no_err 'counted once'
expect_rc 0 "$LABEL" -q -o "$T/thrice.jsonl" --stats "$T/thrice.tsv" "$T/thrice.warc"
expect_err 'record at offset [0-9]+ \(http://www.example.com/p0\): the same capture \(URL and payload\) as an earlier page; counted once'
expect_err '^tbk-label: warning: 2 repeated captures \(same URL and payload\) counted once$'
# The labels (but for the records they name: another file, other offsets)
# and the stats are those of the crawl with one copy of each capture.
untraced() { # JSONL without the warc_* keys
  python3 -c 'import json, sys
for l in open(sys.argv[1], encoding="utf-8"):
    print(json.dumps({k: v for k, v in json.loads(l).items() if not k.startswith("warc_")}, sort_keys=True))' "$1"
}
cmp -s "$T/once.tsv" "$T/thrice.tsv" || die "stats differ: $(cat "$T/once.tsv" "$T/thrice.tsv")"
cmp -s <(untraced "$T/once.jsonl") <(untraced "$T/thrice.jsonl") || die "labels differ from the single-capture crawl's"
grep -q '"label":"content"' "$T/thrice.jsonl" || die "no content block"
# --method chunks and etdm count a capture once too.
for m in chunks etdm; do
  expect_rc 0 "$LABEL" -q --method $m -o "$T/once.$m" "$T/changed.warc"
  expect_rc 0 "$LABEL" -q --method $m -o "$T/thrice.$m" "$T/thrice.warc"
  expect_err '^tbk-label: warning: 2 repeated captures \(same URL and payload\) counted once$'
  cmp -s <(untraced "$T/once.$m") <(untraced "$T/thrice.$m") ||
    die "--method $m: labels differ from the single-capture crawl's"
done
# The same WARC given twice under two names: the copies are one capture each.
ln -s thrice.warc "$T/again.warc"
cp "$T/thrice.warc" "$T/copy.warc"
expect_rc 0 "$LABEL" -q -o "$T/copy.jsonl" "$T/thrice.warc" "$T/copy.warc"
cmp -s <(untraced "$T/once.jsonl") <(untraced "$T/copy.jsonl") || die "a copied WARC changed the labels"
# tbk-cluster: clustered once, every copy's row in its first copy's cluster
# (sizes count each capture once, as the single-capture crawl's do).
CLUSTER=$TBK_BIN/cluster/tbk-cluster
PROG=tbk-cluster
expect_rc 0 "$CLUSTER" -q -o "$T/once.tsv" "$T/changed.warc"
expect_rc 0 "$CLUSTER" -q -o "$T/thrice.tsv" "$T/thrice.warc"
expect_err '^tbk-cluster: warning: 2 repeated captures \(same URL and payload\) counted once$'
[[ $(grep -c '/p0	' "$T/thrice.tsv") == 3 ]] || die "a copy lost its cluster row"
# (the rows but for the records they name: another file, other offsets)
cmp -s <(cut -f 1-4 "$T/once.tsv" | sort -u) <(cut -f 1-4 "$T/thrice.tsv" | sort -u) ||
  die "clusters differ: $(cat "$T/thrice.tsv")"
echo "label_repeat_captures: ok"
