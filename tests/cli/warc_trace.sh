#!/usr/bin/env bash
# Traceable output (#32 item 4): every JSONL line of tbk-predict and
# tbk-keywords, every label line of tbk-label (blocks, chunks, etdm and its
# --nodes) and every row of tbk-cluster (JSONL and TSV) that comes from a
# WARC record carries the record's file, offset, WARC-Record-ID and date;
# pages not from a WARC get no such keys. Two captures of one URL are told
# apart by them. Page by page outputs come in record order.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
python3 - "$T" <<'PY'
import sys, gzip
t = sys.argv[1]
def page(i):
    return ("<html><head><title>Page %d</title></head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav><div><h1>Headline %d</h1><p>Paragraph number %d with alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo.</p><p>A second paragraph, sierra tango uniform victor whiskey xray yankee zulu, long enough to be prose in any reading.</p></div><footer>Copyright x.cn</footer></body></html>" % (i, i, i)).encode()
def rec(uri, rid, date, block):
    h = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:" + rid.encode() + b">\r\nWARC-Date: " + date.encode() + b"\r\nWARC-Target-URI: " + uri.encode() + b"\r\n"
    h += b"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(block)
    return h + block + b"\r\n\r\n"
def http(body):
    return b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body
recs = [("http://x.cn/?p=2", "00000000-0000-0000-0000-000000000003", "2024-01-03T00:00:00Z", 3),
        ("http://x.cn/", "00000000-0000-0000-0000-000000000001", "2024-01-01T00:00:00Z", 1),
        ("https://x.cn/", "00000000-0000-0000-0000-000000000004", "2024-01-04T00:00:00Z", 4),
        ("http://x.cn/", "00000000-0000-0000-0000-000000000002", "2024-01-02T00:00:00Z", 2)]
data = b""
offs = []
for uri, rid, date, i in recs:
    offs.append(len(data))
    data += rec(uri, rid, date, http(page(i)))
open(t + "/a.warc", "wb").write(data)
open(t + "/offsets", "w").write(" ".join(map(str, offs)) + "\n")
open(t + "/b.warc.gz", "wb").write(b"".join(gzip.compress(rec(u, r, d, http(page(i)))) for u, r, d, i in recs))
open(t + "/p.html", "wb").write(page(9))
PY
# check_trace FILE.jsonl WARC [some]: each line's (page, offset, record
# id, date) is one of the fixture's records, all four records appear (with
# "some": at least one; etdm labels no page that links to none).
check_trace() {
  python3 - "$1" "$2" "$(cat "$T/offsets")" "${3:-all}" <<'PY' || die "$1: trace keys wrong"
import json, sys
path, warc, offs = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split()]
want = {("http://x.cn/?p=2", 3), ("http://x.cn/", 1), ("https://x.cn/", 4), ("http://x.cn/", 2)}
seen = set()
for l in open(path):
    o = json.loads(l)
    n = int(o["warc_record_id"][-2:-1])
    assert o["warc_file"] == warc, o
    assert o["warc_record_id"] == "<urn:uuid:00000000-0000-0000-0000-00000000000%d>" % n, o
    assert o["warc_date"] == "2024-01-0%dT00:00:00Z" % n, o
    if warc.endswith(".warc"):
        assert o["warc_offset"] == offs[[3, 1, 4, 2].index(n)], o
    seen.add((o["page"], n))
assert seen == want if sys.argv[4] == "all" else seen and seen <= want, seen
PY
}
# check_order FILE.jsonl IDS: the record ids of its lines, in order and
# with runs merged, are IDS ("3 1 4 2": the fixture's record order).
check_order() {
  local got
  got=$(python3 -c '
import json, sys
ids = []
for l in open(sys.argv[1]):
    n = json.loads(l)["warc_record_id"][-2]
    if not ids or ids[-1] != n: ids.append(n)
print(" ".join(ids))' "$1")
  [ "$got" = "$2" ] || die "$1: records in order '$got', expected '$2' (input order)"
}

PROG=tbk-predict
for w in "$T/a.warc" "$T/b.warc.gz"; do
  expect_rc 0 "$PRED" -f jsonl "$w"
  [ -s "$OUT" ] || die "tbk-predict -f jsonl $w wrote nothing"
  check_trace "$OUT" "$w"
  # --explain's lines too
  expect_rc 0 "$PRED" -f jsonl --explain=1 "$w"
  check_trace "$OUT" "$w"
done
# Output in input (record) order, not URL order; inputs in the order given.
expect_rc 0 "$PRED" -f jsonl "$T/a.warc"
check_order "$OUT" "3 1 4 2"
expect_rc 0 "$PRED" -f jsonl "$T/b.warc.gz" "$T/a.warc"
check_order "$OUT" "3 1 4 2 3 1 4 2"
head -n 1 "$OUT" | grep -q '"warc_file":"[^"]*b.warc.gz"' || die "the first input given is not written first"
# A WARC on stdin is named as given.
expect_rc 0 "$PRED" -f jsonl - <"$T/a.warc"
check_trace "$OUT" "-"
expect_rc 0 "$PRED" -f jsonl --stage template "$T/a.warc"
check_trace "$OUT" "$T/a.warc"
# Pages not from a WARC: no trace keys.
expect_rc 0 "$PRED" -f jsonl "$T/p.html"
[ -s "$OUT" ] || die "no output for p.html"
grep -q '"warc_' "$OUT" && die "a page not from a WARC got trace keys"

PROG=tbk-label
expect_rc 0 "$LABEL" --min-pages 2 -q -o "$T/labels.jsonl" "$T/a.warc"
[ -s "$T/labels.jsonl" ] || die "tbk-label wrote no labels"
check_trace "$T/labels.jsonl" "$T/a.warc"
check_order "$T/labels.jsonl" "3 1 4 2"
mkdir -p "$T/site/s"
for i in 1 2 3; do cp "$T/p.html" "$T/site/s/p$i.html"; done
expect_rc 0 "$LABEL" --min-pages 2 -q -o "$T/plain.jsonl" "$T/site"
grep -q '"warc_' "$T/plain.jsonl" && die "labels of pages not from a WARC got trace keys"

# --method chunks and etdm: the same keys after url; etdm's --nodes lines
# after page.
for w in "$T/a.warc" "$T/b.warc.gz"; do
  expect_rc 0 "$LABEL" --method chunks --min-pages 2 -q -o "$T/chunks.jsonl" "$w"
  [ -s "$T/chunks.jsonl" ] || die "tbk-label --method chunks wrote no labels"
  check_trace "$T/chunks.jsonl" "$w"
  grep -v '"url":"[^"]*","warc_file":' "$T/chunks.jsonl" && die "chunks: the record not right after url"
  expect_rc 0 "$LABEL" --method etdm -q --nodes "$T/nodes.jsonl" -o "$T/etdm.jsonl" "$w"
  [ -s "$T/etdm.jsonl" ] || die "tbk-label --method etdm wrote no labels"
  check_trace "$T/etdm.jsonl" "$w" some
  grep -v '"url":"[^"]*","warc_file":' "$T/etdm.jsonl" && die "etdm: the record not right after url"
  check_trace "$T/nodes.jsonl" "$w"
  grep -v '"page":"[^"]*","warc_file":' "$T/nodes.jsonl" && die "etdm --nodes: the record not right after page"
done
check_order "$T/chunks.jsonl" "3 1 4 2"
expect_rc 0 "$LABEL" --method chunks --min-pages 2 -q -o "$T/plain.jsonl" "$T/site"
[ -s "$T/plain.jsonl" ] || die "no chunk labels of the plain pages"
grep -q '"warc_' "$T/plain.jsonl" && die "chunk labels of pages not from a WARC got trace keys"

# tbk-cluster: JSONL rows get the keys after site; the TSV of a run with a
# WARC page gets the record's columns (empty for a page from a file), a TSV
# of pages from files stays as it was; tbk-label --clusters reads either.
CLUSTER=$TBK_BIN/cluster/tbk-cluster
PROG=tbk-cluster
for w in "$T/a.warc" "$T/b.warc.gz"; do
  expect_rc 0 "$CLUSTER" -q --format jsonl -o "$T/c.jsonl" "$w"
  check_trace "$T/c.jsonl" "$w"
  grep -v '"site":"[^"]*","warc_file":' "$T/c.jsonl" && die "cluster: the record not right after site"
  expect_rc 0 "$CLUSTER" -q -o "$T/c.tsv" "$w"
  python3 - "$T/c.tsv" "$T/c.jsonl" <<'PY' || die "$w: cluster TSV rows do not name their records"
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
head = "page site cluster size warc_file warc_offset warc_record_id warc_date warc_skip".split()
assert rows[0] == head, rows[0]
js = [json.loads(l) for l in open(sys.argv[2])]
assert len(js) == len(rows) - 1
for r, o in zip(rows[1:], js):
    r = dict(zip(head, r))
    assert r["page"] == o["page"] and r["warc_file"] == o["warc_file"], (r, o)
    assert int(r["warc_offset"]) == o["warc_offset"] and int(r["warc_skip"]) == o.get("warc_skip", 0), (r, o)
    assert r["warc_record_id"] == o["warc_record_id"] and r["warc_date"] == o["warc_date"], (r, o)
PY
done
expect_rc 0 "$CLUSTER" -q -o "$T/c.tsv" "$T/site" "$T/a.warc"
awk -F'\t' 'NR > 1 && $1 ~ /site/ && $5 $6 $7 $8 $9 != "" { bad = 1 } NR > 1 && $1 ~ /^http/ && $7 == "" { bad = 1 }
  END { exit bad }' "$T/c.tsv" || die "mixed TSV: record columns wrong: $(cat "$T/c.tsv")"
[[ $(awk -F'\t' '{ print NF }' "$T/c.tsv" | sort -u) == 9 ]] || die "mixed TSV: rows of another width"
expect_rc 0 "$CLUSTER" -q -o "$T/plain.tsv" "$T/site"
[[ $(head -n 1 "$T/plain.tsv") == $'page\tsite\tcluster\tsize' ]] || die "TSV of plain pages: header changed"
expect_rc 0 "$CLUSTER" -q --format jsonl -o "$T/plain.jsonl" "$T/site"
grep -q '"warc_' "$T/plain.jsonl" && die "cluster rows of pages not from a WARC got trace keys"
# tbk-keywords -f jsonl: after page.
KW=$TBK_BIN/keywords/tbk-keywords
PROG=tbk-keywords
for w in "$T/a.warc" "$T/b.warc.gz"; do
  expect_rc 0 "$KW" -f jsonl -o "$T/kw.jsonl" "$w"
  check_trace "$T/kw.jsonl" "$w"
  grep -v '^{"page":"[^"]*","warc_file":' "$T/kw.jsonl" && die "keywords: the record not right after page"
  # in record order (the fixture's URLs are not in it), as tbk-predict's
  python3 -c 'import json,sys; o=[json.loads(l)["warc_offset"] for l in open(sys.argv[1])]; sys.exit(o != sorted(o) or len(o) != 4)' \
    "$T/kw.jsonl" || die "keywords of $w not in record order"
done
expect_rc 0 "$KW" -f jsonl -o "$T/kw.jsonl" "$T/p.html"
[ -s "$T/kw.jsonl" ] || die "no keywords of p.html"
grep -q '"warc_' "$T/kw.jsonl" && die "keywords of a page not from a WARC got trace keys"
PROG=tbk-label
expect_rc 0 "$LABEL" --min-pages 2 -q --clusters "$T/c.tsv" -o "$T/labels.jsonl" "$T/a.warc"
check_trace "$T/labels.jsonl" "$T/a.warc"
echo ok
