#!/usr/bin/env bash
# tbk-label on bad input: every problem is reported in the form
# "tbk-label: error|warning: ...", skipped pages do not stop the others
# (exit 3), fatal errors exit 1 without leaving a partial output file,
# usage errors exit 2 and unwritable output exits 4.
. "$(dirname "$0")/lib.sh"
set -e
need_python
tmp_reset
cd "$TBK_TMP"

python3 "$TBK_SRC/datasets/synth_sites.py" --out syn --seed 3 --sites 2 --pages 12 --template-style 1 \
  --warc syn/all.warc.gz >/dev/null || die "synth_sites.py failed"
site=$(ls syn/pages | head -n 1)
good=$(ls "syn/pages/$site"/*.html | head -n 1)

printf '' >empty.html
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0' >image.html
printf '\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\x3e\0\x01\0\0\0' >prog.html
printf ' \n\t \n' >blank.html
# Latin-1 bytes, undeclared: not UTF-8, decoded as windows-1252.
printf '<html><body><div>Caf\xe9 cr\xe8me br\xfbl\xe9e and na\xefve r\xe9sum\xe9 texts</div></body></html>\n' >latin1.html

# --- single bad pages: reported and skipped, exit 3
for f in empty.html image.html prog.html blank.html; do
  expect_rc 3 "$LABEL" --min-pages 1 "$f"
  expect_err "^tbk-label: warning: $f: .* \(skipped\)$"
  expect_err "^tbk-label: warning: site -: only 0 readable pages < --min-pages 1 \(skipped\)$"
  expect_messages
  [[ ! -s $OUT ]] || die "$f: labels printed for an unreadable page"
done
run "$LABEL" --min-pages 1 empty.html; expect_err 'empty.html: empty page'
run "$LABEL" --min-pages 1 image.html; expect_err 'image.html: not HTML: looks like PNG image'
run "$LABEL" --min-pages 1 prog.html; expect_err 'prog.html: not HTML: looks like ELF executable'
run "$LABEL" --min-pages 1 blank.html; expect_err 'blank.html: page has only whitespace'
# -q keeps warnings (only the summary table goes).
expect_rc 3 "$LABEL" -q --min-pages 1 empty.html
expect_err 'empty.html: empty page \(0 bytes\) \(skipped\)'

# Invalid UTF-8 is not an error: the page is decoded and labelled.
expect_rc 0 "$LABEL" -q --min-pages 1 latin1.html
grep -q '"label":"content".*"text":"Café crème brûlée and naïve résumé texts"' "$OUT" ||
  die "latin-1 page not decoded: $(cat "$OUT")"
# A page from stdin.
run "$LABEL" -q --min-pages 1 - <"$good"
[[ $RC == 0 && -s $OUT ]] || die "stdin page not labelled (exit $RC)"

# Page over --max-page-bytes: skipped, the option named.
expect_rc 3 "$LABEL" --min-pages 1 --max-page-bytes 100 "$good"
expect_err "warning: .*: .*max-page-bytes.* \(skipped\)$"
expect_messages

# --- a site with some bad pages: the others are still labelled
mkdir -p mixed/$site
cp syn/pages/$site/*.html mixed/$site/
cp empty.html image.html prog.html mixed/$site/
cp latin1.html mixed/$site/zz-latin1.html
expect_rc 3 "$LABEL" --all mixed -o mixed.jsonl --stats mixed.tsv
for f in empty.html image.html prog.html; do
  expect_err "^tbk-label: warning: mixed/$site/$f: .* \(skipped\)$"
done
[[ $(grep -c '(skipped)$' "$ERR") == 3 ]] || die "expected exactly 3 skipped pages"
expect_no_err 'zz-latin1'
expect_messages
expect_no_tmp .
python3 - mixed.jsonl "mixed/$site" <<'PY' || die "pages of the mixed site are missing"
import json, os, sys
pages = {json.loads(l)["page"] for l in open(sys.argv[1], encoding="utf-8")}
want = {os.path.join(sys.argv[2], f) for f in os.listdir(sys.argv[2])
        if f not in ("empty.html", "image.html", "prog.html")}
assert pages == want, sorted(pages ^ want)
print("mixed: %d pages labelled" % len(pages))
PY
grep -q "^$site	13	3	" mixed.tsv || die "stats do not count 13 pages and 3 bad: $(cat mixed.tsv)"

# --strict: the first bad page is fatal, and no output file appears.
expect_rc 1 "$LABEL" --strict mixed -o strict.jsonl
expect_err "^tbk-label: error: mixed/$site/empty.html: empty page"
expect_messages
expect_absent strict.jsonl
expect_no_tmp .
# ... and an existing output file is left as it was.
echo previous >strict.jsonl
expect_rc 1 "$LABEL" --strict mixed -o strict.jsonl
[[ $(cat strict.jsonl) == previous ]] || die "a failed run overwrote the old output"
expect_no_tmp .
# A fatal error after a site was already written (the second site of a
# manifest names a bad page): still no partial output.
other=$(ls syn/pages | tail -n 1)
{ head -n 1 syn/manifest.tsv; tail -n +2 syn/manifest.tsv; printf '%s\t%s\t\t\n' "$other" "$PWD/empty.html"; } >syn/bad.tsv
expect_rc 1 "$LABEL" --strict syn/bad.tsv -o late.jsonl
expect_err "error: .*empty.html: empty page"
expect_absent late.jsonl
expect_no_tmp .
expect_rc 3 "$LABEL" -q syn/bad.tsv -o late.jsonl
[[ $(grep -c '"page"' late.jsonl) -gt 0 ]] || die "non-strict run labelled nothing"

# --- WARC input
# Truncated in the middle: the records before the damage are kept.
size=$(stat -c %s syn/all.warc.gz)
head -c $((size * 3 / 5)) syn/all.warc.gz >trunc.warc.gz
expect_rc 3 "$LABEL" -q --min-pages 1 trunc.warc.gz -o trunc.jsonl
expect_err "^tbk-label: warning: trunc.warc.gz: .*truncated"
expect_messages
[[ -s trunc.jsonl ]] || die "nothing labelled from the intact records"
# Truncated before any response record: nothing to do, fatal.
head -c 200 syn/all.warc.gz >stub.warc.gz
expect_rc 1 "$LABEL" stub.warc.gz -o stub.jsonl
expect_err "^tbk-label: error: stub.warc.gz: "
expect_messages
expect_absent stub.jsonl
# Not gzip at all under a .warc.gz name.
cp "$good" fake.warc.gz
run "$LABEL" fake.warc.gz -o fake.jsonl
[[ $RC == 1 || $RC == 3 ]] || die "fake.warc.gz: exit $RC"
expect_err "^tbk-label: (error|warning): fake.warc.gz: "
expect_messages

# --- inputs that cannot be listed
mkdir -p nohtml/site && echo "just text" >nohtml/site/readme.txt
expect_rc 1 "$LABEL" nohtml
expect_err "^tbk-label: error: nohtml: no HTML files"
expect_messages
expect_rc 1 "$LABEL" "$TBK_TMP/does/not/exist.html" -o nothing.jsonl
expect_err "^tbk-label: error: $TBK_TMP/does/not/exist.html: cannot open"
expect_absent nothing.jsonl
expect_messages

# --- usage
expect_rc 0 "$LABEL" --help
grep -q '^Usage: tbk-label ' "$OUT" || die "--help printed no usage"
grep -q -- '--min-pages N' "$OUT" || die "--help misses --min-pages"
[[ ! -s $ERR ]] || die "--help wrote to stderr"
expect_rc 0 "$LABEL" --version
grep -Eq '^tbk-label [0-9]+\.[0-9]+\.[0-9]+$' "$OUT" || die "bad --version output"
expect_rc 2 "$LABEL" --bogus syn/pages
expect_err "^tbk-label: error: invalid option '--bogus'$"
expect_err "^Try 'tbk-label --help' for more information\.$"
expect_messages
expect_rc 2 "$LABEL" -Z syn/pages
expect_err "^tbk-label: error: invalid option '-Z'$"
expect_rc 2 "$LABEL" syn/pages -o
expect_err "^tbk-label: error: option '-o' needs an argument$"
expect_rc 2 "$LABEL"
expect_err "^tbk-label: error: no input given$"
for bad in "--min-chars abc" "--min-chars -1" "--min-words 1x" "--min-pages 0" "--template-share 1.5" \
  "--template-share nan" "--template-min-df 1" "--max-page-bytes 12Q" "--max-page-bytes -5" \
  "--max-depth 0" "--blocks div" "--site-key tld"; do
  # shellcheck disable=SC2086
  expect_rc 2 "$LABEL" $bad syn/pages -o usage.jsonl
  expect_err "^tbk-label: error: ${bad%% *}: "
  expect_messages
  expect_absent usage.jsonl
done

# --- unwritable output: exit 4 with a message, never a silent success
expect_rc 0 "$LABEL" -q syn/manifest.tsv
[[ -s $OUT ]] || die "no labels to write"
set +e
"$LABEL" -q syn/manifest.tsv >/dev/full 2>"$ERR"
RC=$?
set -e
[[ $RC == 4 ]] || die "stdout on /dev/full: exit $RC, expected 4"
expect_err "^tbk-label: error: .*(standard output|stdout).*No space left on device"
expect_messages
expect_rc 4 "$LABEL" -q syn/manifest.tsv -o /dev/full
expect_err "^tbk-label: error: /dev/full: .*No space left on device"
[[ -c /dev/full ]] || die "/dev/full is no longer a device"
expect_rc 4 "$LABEL" -q syn/manifest.tsv -o "$TBK_TMP/no/such/dir/out.jsonl"
expect_err "^tbk-label: error: $TBK_TMP/no/such/dir/out.jsonl: cannot create output"
expect_rc 4 "$LABEL" -q syn/manifest.tsv -o labels.jsonl --stats /dev/full
expect_err "^tbk-label: error: /dev/full: .*No space left on device"
expect_messages
expect_no_tmp syn
expect_no_tmp .
echo "label_badinput: ok"
