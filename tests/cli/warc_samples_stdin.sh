#!/usr/bin/env bash
# The real WARC and ARC files of ../shared/datasets/warc-samples (warcio's
# test data; skipped when absent): read by content, so `cat F | tbk-predict -`
# and `tbk-predict <(cat F)` give what `tbk-predict F` gives (output and exit
# status) for every WARC there, whatever its name (example-bad.warc.gz.bad);
# every ARC file is refused by name with one error line, never printed as a
# page; and all of them in one run write the pages of the readable ones
# (exit 3: the others are warned about and skipped).
. "$(dirname "$0")/lib.sh"
need_shared warc-samples
tmp_reset
S=$TBK_SRC/../shared/datasets/warc-samples
T=$TBK_TMP
PROG=tbk-predict
n=0
for f in "$S"/*.warc "$S"/*.warc.gz "$S"/*.warc.gz.bad; do
  [[ -e $f ]] || continue
  n=$((n + 1))
  run "$PRED" "$f"
  want=$RC
  cp "$OUT" "$T/want"
  if grep -Eq '^WARC/1\.|WARC-Type:' "$T/want"; then die "$f: WARC headers printed as text"; fi
  run sh -c "cat '$f' | '$PRED' -"
  [[ $RC == "$want" ]] || die "$f: exit $RC on stdin, $want as a file"
  cmp -s "$OUT" "$T/want" || die "$f: stdin output differs from the file's"
  expect_messages
  expect_no_err '/proc/|tbk-stdin-'
  run bash -c "'$PRED' <(cat '$f')"
  [[ $RC == "$want" ]] || die "$f: exit $RC on a pipe, $want as a file"
  cmp -s "$OUT" "$T/want" || die "$f: pipe output differs from the file's"
done
[[ $n -ge 10 ]] || die "only $n WARC files in $S"
# The pages the HTML-bearing ones hold.
expect_rc 0 "$PRED" "$S/example.warc.gz"
grep -q 'Example Domain' "$OUT" || die "example.warc.gz: page not read"
expect_rc 0 "$PRED" "$S/example-bad.warc.gz.bad"
grep -q 'Example Domain' "$OUT" || die "example-bad.warc.gz.bad: not read as a WARC"
# A resource record holding text/html is a page too (#32 item 2).
expect_rc 0 "$PRED" "$S/example-resource.warc.gz"
grep -q 'Example Domain' "$OUT" || die "example-resource.warc.gz: resource record not read"

for f in "$S"/*.arc "$S"/*.arc.gz; do
  [[ -e $f ]] || continue
  for how in file stdin; do
    if [[ $how == file ]]; then expect_rc 1 "$PRED" "$f"; else expect_rc 1 sh -c "cat '$f' | '$PRED' -"; fi
    expect_err '^tbk-predict: error: [^ ]+: an ARC file \(first line "filedesc://"\), not WARC'
    [[ $(wc -l <"$ERR") == 1 ]] || die "$f ($how): more than one line on stderr"
    [[ ! -s $OUT ]] || die "$f ($how): ARC bytes written as a page"
  done
done

# Everything at once: the readable files' pages, the rest warned about.
expect_rc 3 "$PRED" "$S"/*.warc "$S"/*.warc.gz "$S"/*.arc "$S"/*.arc.gz
expect_messages
expect_err 'example.arc: an ARC file.*\(input skipped\)$'
expect_err 'post-test.warc.gz: no HTML response records.*\(input skipped\)$'
grep -q 'Example Domain' "$OUT" || die "the readable files' pages were not written"
echo "warc_samples_stdin ok"
