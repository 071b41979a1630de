#!/usr/bin/env bash
# Hostile input: a page of 100,001 one-word paragraphs (400 KB) would cost
# the content stage a dense row per unit (GBs, tens of seconds for a few MB
# of such markup): it is skipped by name ("more than 100000 text units"),
# the run goes on with the next page and ends with exit 3; --strict makes
# it fatal; the template stage, which has no units, still reads it.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
python3 -c "open('$T/frag.html','w').write('<html><body>' + '<p>w'*100001 + '</body></html>')"
printf '<html><body><p>%s</p></body></html>\n' "A paragraph of the article, long enough to be kept by the content stage." >"$T/page.html"

expect_rc 3 timeout 60 "$PRED" -f text "$T/frag.html" "$T/page.html"
expect_err "warning: $T/frag.html: more than 100000 text units \\(max-units\\): too fragmented for the content stage \\(skipped\\)"
grep -q "A paragraph of the article" "$OUT" || die "the page after the fragmented one was not processed"
expect_rc 1 timeout 60 "$PRED" --strict -f text "$T/frag.html" "$T/page.html"
expect_err "error: $T/frag.html: more than 100000 text units"
expect_rc 0 timeout 60 "$PRED" --stage template -f text "$T/frag.html"
echo "hostile_units: ok"
