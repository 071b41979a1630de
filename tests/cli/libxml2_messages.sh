#!/usr/bin/env bash
# libxml2's own messages never reach the terminal (#33): HTML output in a
# declared charset that cannot write some of the page ("encoding error :
# output conversion failed due to conv error", "I/O error : encoder
# error" from libxml2 before) is tbk-predict's warning with a count of the
# characters left out, or its error naming the charset when libxml2 gives
# the output up (it was "out of memory rendering the page"); the same for
# tbk-label --template-html; parsing with libxml2 (--parser libxml2) and odd
# charsets print nothing of libxml2's.
. "$(dirname "$0")/lib.sh"
tmp_reset
T=$TBK_TMP
PROG=tbk-predict
for cs in ISO646-FR ISO_5428; do
  iconv -f UTF-8 -t "$cs" </dev/null >/dev/null 2>&1 || skip "no iconv converter for $cs"
done

page() { # page FILE CHARSET BODY-BYTES: a page declaring CHARSET as libxml2 reads it (http-equiv)
  printf '<html><head><meta http-equiv="Content-Type" content="text/html; charset=%s"><title>Notes</title></head><body><div><h1>Notes du jour</h1><p>%b</p><p>A second paragraph with enough words to be read as the content of this page, and more.</p></div></body></html>' \
    "$2" "$3" >"$T/$1"
}
# ISO646-FR has no '#' (0x23 is a pound sign), so a character it lacks
# cannot become a character reference either: 中, ö and 😀 are left out.
page fr.html ISO646-FR 'Un caf\xc3\xa9 \xe4\xb8\xad et \xc3\xb6 &#x1F600; pour finir la phrase.'
# ISO_5428 (Greek) has no '<': no byte of the markup can be written.
page greek.html ISO_5428 'Some text \xce\xb1\xce\xb2 with Greek letters in it.'
# Charsets that write every character, some as references: no message.
page jp.html ISO-2022-JP 'Bytes \xff\xfe \x1b$B\x30\x21\x1b(B and \xe4\xb8\xad.'
page w1252.html windows-1252 'Bytes \x81\x8d\x8f\x90\x9d caf\xe9 \xe2\x82\xac.'
printf '<html><head><meta charset="utf-8"></head><body><p>bad \xff\xfe\xc3 bytes \xed\xa0\x80 &#55296; &#xFFFE; text</p></body></html>' >"$T/bad.html"

LEFT_OUT="^tbk-predict: warning: $T/fr.html: [0-9]+ characters left out of the HTML: the page's declared charset ISO646-FR cannot write them, not even as character references$"
for stage in combined template; do
  expect_rc 0 "$PRED" --stage $stage -f html "$T/fr.html"
  expect_messages
  expect_err "$LEFT_OUT"
  grep -q 'Un caf{' "$OUT" || die "fr.html ($stage): the text it can write is not in the output"
done

# --annotate's own style sheet has '#' and '[': ISO646-FR gives up.
expect_rc 1 "$PRED" -f html --annotate "$T/fr.html"
expect_messages
expect_err "^tbk-predict: error: $T/fr.html: cannot write the page as HTML in its declared charset ISO646-FR: "
expect_no_err 'out of memory'

expect_rc 1 "$PRED" -f html "$T/greek.html"
expect_messages
expect_err "^tbk-predict: error: $T/greek.html: cannot write the page as HTML in its declared charset ISO_5428: "

expect_rc 0 "$PRED" -f html --output-dir "$T/out" "$T/fr.html" "$T/jp.html"
expect_messages
expect_err "$LEFT_OUT"
[[ $(find "$T/out" -name '*.html' -size +0 | wc -l) == 2 ]] || die "--output-dir: a page's file is missing"

# tbk-label --method etdm --template-html renders too: synthetic sites
# whose pages declare ISO646-GB (no '#': their style sheet's colours).
if command -v python3 >/dev/null; then
  python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/syn" --seed 5 --sites 1 --pages 12 --links menu >/dev/null ||
    die "synth_sites.py failed"
  find "$T/syn" -name '*.html' -exec sed -i 's/charset=utf-8/charset=ISO646-GB/' {} +
  PROG=tbk-label
  expect_rc 0 "$LABEL" -q --method etdm --template-html "$T/tpl" -o "$T/etdm.jsonl" "$T/syn/manifest.tsv"
  expect_messages
  expect_err "^tbk-label: warning: $T/syn/pages/.*/section-01.html: [0-9]+ characters left out of the HTML: the page's declared charset ISO646-GB cannot write them"
  PROG=tbk-predict
fi

# Every path on every page, with tbk's parser and with libxml2's: nothing
# but tbk-predict's own lines (the pages that write fully: none at all).
for parser in tbk libxml2; do
  for f in jp w1252 bad fr greek; do
    for args in "-f html" "-f html --annotate" "-f text" "-f jsonl" "--stage template -f html --annotate"; do
      # shellcheck disable=SC2086
      run "$PRED" --parser $parser $args "$T/$f.html"
      expect_messages
      case $f in
      jp | w1252 | bad) [[ $RC == 0 && ! -s $ERR ]] || die "$f.html ($args, --parser $parser): exit $RC, stderr: $(cat "$ERR")" ;;
      esac
    done
  done
done
echo ok
