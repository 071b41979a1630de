#!/usr/bin/env bash
# warc_bench.sh — tbk-predict on a WARC.gz crawl: pages/s and peak RSS, for
# one or more builds on the same file (BENCHMARKS.md "WARC crawl").
#
#   bench/warc_bench.sh [-r REPS] [-o WARC] TBK_PREDICT...
#
# The crawl is every page of datasets/cache's site_mirrors and debian_docs
# (6,215 pages; datasets/unpack.sh, datasets/debian-docs.sh), one gzip
# member per record, as crawlers write them: a response record with the
# page's bytes as they are and a Content-Type without charset (the reader
# sniffs it, as from a server that does not say). Written once to WARC
# (default $TBK_BUILD/bench/crawl.warc.gz), kept for the next run.
# Each TBK_PREDICT runs `-f jsonl` over it REPS times (default 3); prints
# one line per run: binary, pages, records/s of wall and of CPU (user +
# sys), peak RSS (MB). Env: TBK_DATA (default datasets/cache), TBK_BUILD.
# Exit: 0 done, 1 a run failed, 2 usage, 77 no data.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
DATA=${TBK_DATA:-$SRC/datasets/cache}
reps=3 warc=${TBK_BUILD:-$SRC/build}/bench/crawl.warc.gz
while getopts r:o:h o; do
  case $o in
    r) reps=$OPTARG ;;
    o) warc=$OPTARG ;;
    *) sed -n '2,17p' "$0"; [ "$o" = h ] && exit 0 || exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
for m in site_mirrors debian_docs; do
  [ -f "$DATA/$m/manifest.tsv" ] || { echo "warc_bench.sh: $DATA/$m/manifest.tsv missing" >&2; exit 77; }
done
if [ ! -s "$warc" ]; then
  mkdir -p "$(dirname "$warc")"
  python3 - "$warc" "$DATA/site_mirrors/manifest.tsv" "$DATA/debian_docs/manifest.tsv" <<'EOF'
import csv, gzip, hashlib, os, sys, uuid
out, manifests = sys.argv[1], sys.argv[2:]
def record(headers, block):
    head = "WARC/1.0\r\n" + "".join("%s: %s\r\n" % kv for kv in headers)
    head += "Content-Length: %d\r\n\r\n" % len(block)
    return gzip.compress(head.encode("utf-8") + block + b"\r\n\r\n", compresslevel=6, mtime=0)
n = 0
with open(out + ".tmp", "wb") as f:
    for m in manifests:
        base = os.path.dirname(m)
        for r in csv.DictReader(open(m, encoding="utf-8"), delimiter="\t"):
            body = open(os.path.join(base, r["page"]), "rb").read()
            url = r["url"] or "http://%s/%s" % (r["site"], r["page"].split("/", 2)[-1])
            http = ("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n"
                    % len(body)).encode("ascii") + body
            f.write(record([("WARC-Type", "response"),
                            ("WARC-Record-ID", "<urn:uuid:%s>" % uuid.uuid5(uuid.NAMESPACE_URL, "%d:%s" % (n, url))),
                            ("WARC-Date", "2026-11-27T00:00:00Z"), ("WARC-Target-URI", url),
                            ("WARC-Payload-Digest", "sha1:" + hashlib.sha1(body).hexdigest()),
                            ("Content-Type", "application/http; msgtype=response")], http))
            n += 1
os.replace(out + ".tmp", out)
print("warc_bench.sh: %s: %d records, %.1f MB" % (out, n, os.path.getsize(out) / 1e6), file=sys.stderr)
EOF
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "binary pages wall_s rec_per_s_wall rec_per_s_cpu peak_rss_mb"
for bin in "$@"; do
  for ((k = 0; k < reps; k++)); do
    rc=0
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$bin" -f jsonl "$warc" > "$tmp/out.jsonl" 2> "$tmp/err" || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || { echo "warc_bench.sh: $bin failed (exit $rc):" >&2; tail -3 "$tmp/err" >&2; exit 1; }
    pages=$(python3 -c 'import json, sys; print(len({json.loads(l)["page"] for l in open(sys.argv[1])}))' "$tmp/out.jsonl")
    read -r wall user sys rss < "$tmp/time"
    python3 -c 'import sys; b, p, w, u, s, r = sys.argv[1:]; p, w, c = int(p), float(w), float(u) + float(s)
print("%s %d %.1f %.0f %.0f %.1f" % (b, p, w, p / w, p / c, int(r) / 1024))' "$bin" "$pages" "$wall" "$user" "$sys" "$rss"
  done
done
