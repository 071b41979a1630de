#!/usr/bin/env bash
# Issue #31: a page whose body follows <noscript><div id="x"></noscript> (an
# element of higher end priority than the noscript, opened in it and left
# open: libxml2 2.9 ignores the </noscript> and the rest of the page falls
# into the dropped subtree). The body must be in the page's units and in
# the clean text tbk-predict writes with the shipped model, as it is for
# the same page with the div closed. Hand-written page.
. "$(dirname "$0")/lib.sh"
work=$TBK_TMP
rm -rf "$work"; mkdir -p "$work"
export TBK_MODEL=$TBK_SRC/models/default.model
[ -f "$TBK_MODEL" ] || die "models/default.model is missing"

page() { # $1: file, $2: what follows the skip link
  cat > "$1" <<HTML
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Harbour notes</title></head>
<body><a class="skip" href="#main">Skip to content</a>$2
<div id="main"><h1>The lighthouse keepers of the northern harbour</h1>
<p>For more than a century the lighthouse on the northern breakwater was kept by three families in turn, who logged every passing ship, every storm and every repair to the great lens in a set of leather-bound books now held by the town museum.</p>
<p>The last keeper, who retired in 1987 when the light was automated, still walks out along the breakwater on winter evenings and says that the harbour sounds different without the clockwork turning above him.</p>
<p>Volunteers have begun to transcribe the logbooks, and the museum plans to publish the first decade of entries next spring together with photographs of the keepers and their families.</p>
</div>
<div class="footer">Copyright 2024 Harbour Notes. All rights reserved.</div>
</body></html>
HTML
}
page "$work/broken.html" '<noscript><div id="x"></noscript>'
page "$work/closed.html" '<noscript><div id="x"></div></noscript>'

for f in broken closed; do
  "$PRED" "$work/$f.html" > "$work/$f.txt" || die "tbk-predict failed on $f.html"
  "$PRED" -f jsonl "$work/$f.html" > "$work/$f.units.jsonl" || die "tbk-predict -f jsonl failed on $f.html"
  "$PRED" --stage template -f jsonl "$work/$f.html" > "$work/$f.blocks.jsonl" || die "--stage template failed on $f.html"
done
for f in broken closed; do
  for s in "the lighthouse on the northern breakwater was kept by three families" \
           "The last keeper, who retired in 1987" "Volunteers have begun to transcribe the logbooks"; do
    grep -qF "$s" "$work/$f.txt" || die "$f.html: clean text lost \"$s\""
    grep -qF "$s" "$work/$f.units.jsonl" || die "$f.html: no unit holds \"$s\""
  done
  # Blocks show their text's start only.
  grep -qF '"chars":677,"text":"The lighthouse keepers of the northern harbour For more' "$work/$f.blocks.jsonl" ||
    die "$f.html: the article's block is missing"
  [ "$(wc -l < "$work/$f.units.jsonl")" -ge 4 ] || die "$f.html: $(wc -l < "$work/$f.units.jsonl") units"
done
# The repaired page reads as the page meant.
cmp -s "$work/broken.txt" "$work/closed.txt" || die "clean text differs from the page with the div closed"
for k in units blocks; do
  sed 's/"page":"[^"]*"//' "$work/broken.$k.jsonl" > "$work/b.$k"
  sed 's/"page":"[^"]*"//' "$work/closed.$k.jsonl" > "$work/c.$k"
  cmp -s "$work/b.$k" "$work/c.$k" || die "$k differ from the page with the div closed"
done
echo ok
