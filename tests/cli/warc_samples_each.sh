#!/usr/bin/env bash
# #32: what tbk-predict must do with each real WARC and ARC file of
# ../shared/datasets/warc-samples (warcio's test data; skipped when
# absent), file by file: its exit status, every record's outcome and
# reason (--warc-summary), and the message a user gets. A file added there
# without a line here fails the test.
. "$(dirname "$0")/lib.sh"
need_shared warc-samples
tmp_reset
S=$TBK_SRC/../shared/datasets/warc-samples
PROG=tbk-predict
# FILE|EXIT|RECORDS ("outcome reason n" rows, ";"-joined, in the table's
# order)|a line stderr must hold (regex, or "")
expect=(
  "bad.arc|1||^tbk-predict: error: bad.arc: an ARC file \(first line \"filedesc://\"\), not WARC: ARC is not read"
  "example.arc|1||^tbk-predict: error: example.arc: an ARC file \(first line \"filedesc://\"\), not WARC"
  "example.arc.gz|1||^tbk-predict: error: example.arc.gz: an ARC file \(first line \"filedesc://\"\), not WARC"
  "example-space-in-url.arc|1||^tbk-predict: error: example-space-in-url.arc: an ARC file"
  "example.warc|0|read response html 1;skipped request record 2;skipped warcinfo record 2;skipped revisit record 1|"
  "example.warc.gz|0|read response html 1;skipped request record 2;skipped warcinfo record 2;skipped revisit record 1|"
  "example-bad-non-chunked.warc.gz|0|read response html 1;skipped request record 2;skipped warcinfo record 2;skipped revisit record 1|"
  "example-bad.warc.gz.bad|0|read response html 1;skipped status 302 1;skipped request record 2;skipped warcinfo record 1;skipped revisit record 1|"
  "example-digest.warc|1|skipped request record 4|^tbk-predict: error: example-digest.warc: no HTML response records \(4 records, none read\)$"
  "example-iana.org-chunked.warc|0|read response html 1;skipped request record 1;skipped warcinfo record 1|"
  "example-resource.warc.gz|0|read resource html 1;skipped warcinfo record 2|"
  "example-space-in-target-uri.warc.gz|1|skipped not html: image 1;skipped warcinfo record 1|^tbk-predict: error: example-space-in-target-uri.warc.gz: no HTML response records \(2 records, none read\)$"
  "example-trunc.warc|0|read recovered: content-length short 1;skipped request record 1;skipped warcinfo record 2|^tbk-predict: warning: example-trunc.warc: record at offset 1197 \(http://example.com/\): Content-Length 973 ends 6 bytes short of the next record header"
  "example-wget-bad-target-uri.warc.gz|0|read response html 1;skipped not html: text 2;skipped request record 1;skipped metadata record 1;skipped warcinfo record 1|"
  "example-wrong-chunks.warc.gz|0|read response html 1;skipped request record 1|"
  "post-test.warc.gz|1|skipped not html: script or json 3;skipped request record 3|^tbk-predict: error: post-test.warc.gz: no HTML response records \(6 records, none read\)$"
)
cd "$S" || die "cannot enter $S"
declare -A known
for e in "${expect[@]}"; do
  IFS='|' read -r f rc rows msg <<<"$e"
  known[$f]=1
  [[ -e $f ]] || die "$f: missing from $S"
  expect_rc "$rc" "$PRED" --warc-summary "$f"
  expect_messages
  got=$({ grep '^records' "$ERR" || true; } | { grep -v '^records	total' || true; } | cut -f2-4 | tr '\t' ' ' | paste -sd ';')
  [[ $got == "$rows" ]] || die "$f: records '$got', expected '$rows'"
  [[ -z $msg ]] || expect_err "$msg"
  # a page that was read is written; nothing is written for none
  # (example-iana.org-chunked.warc holds IANA's home page, the others
  # example.com's)
  page='Example Domain'
  [[ $f == example-iana.org-chunked.warc ]] && page='Internet Assigned Numbers Authority'
  if [[ $rows == *"read "* ]]; then [[ $(head -n 1 "$OUT") == "$page" ]] || die "$f: its page was not written first"
  else [[ ! -s $OUT ]] || die "$f: output without a page read"; fi
done
for f in *; do
  case $f in README.md | LICENSE*) continue ;; esac
  [[ -n ${known[$f]:-} ]] || die "$f: a sample without a stated outcome in this test"
done
echo ok
