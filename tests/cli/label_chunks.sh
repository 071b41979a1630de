#!/usr/bin/env bash
# tbk-label --method chunks: a hand-made site of four pages whose chunks,
# document frequencies, labels and stripped text are worked out below; the
# option errors; the labels are the same for a directory and a manifest and
# across runs; tbk-features takes the chunk lines that are blocks.
. "$(dirname "$0")/lib.sh"
set -e
need_python
tmp_reset
cd "$TBK_TMP"

# Page i: a menu row (Home, Products; About on pages 1-2 only), the story
# cell (unique; its text before and after a nested table are two chunks, the
# one after is "more" on every page) and a footer outside any table (one
# chunk owned by the root). Threshold: max(ceil(0.1 x 4), 3) = 3.
mkdir -p site/s
for i in 1 2 3 4; do
  about=""
  [[ $i -le 2 ]] && about="<td>About</td>"
  cat >site/s/p$i.html <<HTML
<html><body><table><tr><td>Home</td><td>Products</td>$about</tr></table>
<table><tr><td><p>Story number $i begins.</p><table><tr><td>Note $i</td></tr></table> more</td></tr></table>
<p>Copyright Example</p></body></html>
HTML
done

expect_rc 0 "$LABEL" --method chunks --min-pages 2 --all --stats stats.tsv site
cp "$OUT" all.jsonl
# 7 chunks on pages 1-2, 6 on pages 3-4
[[ $(wc -l <all.jsonl) == 26 ]] || die "expected 26 chunk lines, got $(wc -l <all.jsonl)"
python3 - all.jsonl <<'PY' || die "chunk labels differ from the hand-computed ones"
import json, sys
want = {
    "Home": ("template", 4), "Products": ("template", 4), "About": ("ignored", 2),
    "more": ("template", 4), "Copyright Example": ("template", 4),
}
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["method"] == "chunks" and o["pages"] == 4, o
    t = o["text"]
    if t.startswith("Story number") or t.startswith("Note "):
        assert (o["label"], o["df"]) == ("content", 1), o
    else:
        assert (o["label"], o["df"]) == want[t], o
    if t == "Copyright Example":
        assert o["path"] == "/html[1]" and o["tag"] == "html", o
    if t == "Home":
        assert o["path"] == "/html[1]/body[1]/table[1]/tr[1]/td[1]", o
    n += 1
assert n == 26
PY
grep -q $'^s\t4\t0\t26\t13\t3\t4\t16\t8\t2\t' stats.tsv || die "stats row: $(tail -n 1 stats.tsv)"

# Without --all the two "About" lines are left out; a manifest gives the
# same labels as the directory.
expect_rc 0 "$LABEL" --method chunks --min-pages 2 -q site
[[ $(wc -l <"$OUT") == 24 ]] || die "expected 24 lines without --all"
cp "$OUT" dir.jsonl
printf 'site\tpage\turl\n' >m.tsv
for i in 1 2 3 4; do printf 's\tsite/s/p%d.html\t\n' "$i" >>m.tsv; done
expect_rc 0 "$LABEL" --method chunks --min-pages 2 -q m.tsv
cmp -s <(sed 's/"page":"[^"]*"//' dir.jsonl) <(sed 's/"page":"[^"]*"//' "$OUT") || die "manifest and directory labels differ"
expect_rc 0 "$LABEL" --method chunks --min-pages 2 -q site
cmp -s dir.jsonl "$OUT" || die "two runs differ"

# --strip: what is not template, one chunk a line.
expect_rc 0 "$LABEL" --method chunks --min-pages 2 -q --strip stripped -o /dev/null site
printf 'About\nStory number 1 begins.\nNote 1\n' | cmp -s - stripped/site/s/p1.txt || die "strip of p1: $(cat stripped/site/s/p1.txt)"
printf 'Story number 3 begins.\nNote 3\n' | cmp -s - stripped/site/s/p3.txt || die "strip of p3: $(cat stripped/site/s/p3.txt)"
expect_no_tmp stripped/site/s
# --df 2: About is template too.
expect_rc 0 "$LABEL" --method chunks --min-pages 2 -q --df 2 --strip stripped2 -o /dev/null site
printf 'Story number 1 begins.\nNote 1\n' | cmp -s - stripped2/site/s/p1.txt || die "strip with --df 2"
# --chunk-tags td,p: the footer paragraph is its own chunk under p.
expect_rc 0 "$LABEL" --method chunks --min-pages 2 -q --chunk-tags td,p site
grep -q '"path":"/html\[1\]/body\[1\]/p\[1\]","tag":"p",.*"text":"Copyright Example"' "$OUT" || die "--chunk-tags td,p"

# Usage errors.
expect_rc 2 "$LABEL" --df 3 site
expect_err '^tbk-label: error: --df applies to --method chunks'
expect_rc 2 "$LABEL" --method chunks --chunk-tags td,blink site
expect_err "blink"
expect_rc 2 "$LABEL" --method rows site
expect_rc 2 "$LABEL" --method chunks --key path site
expect_rc 2 "$LABEL" --method chunks --gold site
expect_messages
echo "label_chunks: ok"
