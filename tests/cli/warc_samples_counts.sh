#!/usr/bin/env bash
# The record counts of --warc-summary on the real WARC files of
# ../shared/datasets/warc-samples (warcio's test data; skipped when absent):
# for every file the table adds up to its total, and the total is the
# number of records the file holds (counted here by their "WARC/1.x" lines
# after blank lines, in the decompressed bytes); every file at once gives
# the sum. A few files' rows are checked by name (#32 item 2).
. "$(dirname "$0")/lib.sh"
need_shared warc-samples
need_python
tmp_reset
S=$TBK_SRC/../shared/datasets/warc-samples
PROG=tbk-predict
files=()
for f in "$S"/*.warc "$S"/*.warc.gz "$S"/*.warc.gz.bad; do [[ -e $f ]] && files+=("$f"); done
[[ ${#files[@]} -ge 10 ]] || die "only ${#files[@]} WARC files in $S"

# records FILE...: the records the files hold, all together.
records() {
  python3 - "$@" <<'PY'
import re, sys, zlib
def data_of(path):
    b = open(path, "rb").read()
    if b[:2] != b"\x1f\x8b":
        return b
    out = []
    while b:
        d = zlib.decompressobj(31)
        try:
            out.append(d.decompress(b))
        except zlib.error:
            break
        b = d.unused_data
        if not d.eof:
            break
    return b"".join(out)
print(sum(len(re.findall(rb"(?:^|\n\r?\n)(?:\r?\n)*WARC/1\.[01]\r?\n", data_of(p))) for p in sys.argv[1:]))
PY
}
for f in "${files[@]}"; do
  run "$PRED" --warc-summary "$f"
  [[ $RC == 0 || $RC == 1 || $RC == 3 ]] || die "$f: exit $RC"
  expect_messages
  warc_has "total|$(records "$f")"
done
expect_rc 0 "$PRED" --warc-summary "$S/example.warc.gz"
warc_has "read|response html|1" "skipped|request record|2" "skipped|warcinfo record|2" "skipped|revisit record|1"
expect_rc 0 "$PRED" --warc-summary "$S/example-resource.warc.gz"
warc_has "read|resource html|1"
# A redirect (302) is skipped and counted; --status takes it.
expect_rc 0 "$PRED" --warc-summary "$S/example-bad.warc.gz.bad"
warc_has "skipped|status 302|1"
expect_rc 0 "$PRED" --warc-summary --status 200,302 "$S/example-bad.warc.gz.bad"
warc_has "read|response html, status 302|1"
# No HTML record: the only input fails (exit 1), the table says why.
expect_rc 1 "$PRED" --warc-summary "$S/post-test.warc.gz"
warc_has "total|6" "skipped|request record|3"
# Every file in one run: the sum.
run "$PRED" --warc-summary "${files[@]}"
[[ $RC == 3 ]] || die "all files: exit $RC"
warc_has "total|$(records "${files[@]}")"
echo ok
