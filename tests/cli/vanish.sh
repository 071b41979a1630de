#!/usr/bin/env bash
# eval/vanish.py counts, on pages without gold, the pages where one
# extractor's output holds under 30 % of the other's (at least 100 tokens):
# written outputs here, in both layouts it reads (a peer's <site>/<id>.txt,
# tbk-predict --output-dir's pages/<site>/<id>.txt).
. "$(dirname "$0")/lib.sh"
set -e
need_python
tmp_reset
cd "$TBK_TMP"

words() { # FROM N: N distinct words
  local i
  for ((i = $1; i < $1 + $2; i++)); do printf 'word%d ' "$i"; done
}
mkdir -p set/pages/s a/pages/s b/s
printf 'site\tpage\turl\tgold\n' > set/manifest.tsv
for id in p1 p2 p3 p4; do
  echo '<html><body><p>x</p></body></html>' > "set/pages/s/$id.html"
  printf 's\tpages/s/%s.html\t\t\n' "$id" >> set/manifest.tsv
done
# p1: both keep the same 200 words; p2: a keeps 20 of b's 200 (a lost it);
# p3: b keeps 50 of a's 300 (b lost it); p4: b keeps 40 words, a 5 of them
# (too short a reference to count)
words 0 200 > a/pages/s/p1.txt; words 0 200 > b/s/p1.txt
words 0 20 > a/pages/s/p2.txt; words 0 200 > b/s/p2.txt
words 0 300 > a/pages/s/p3.txt; words 0 50 > b/s/p3.txt
words 0 5 > a/pages/s/p4.txt; words 0 40 > b/s/p4.txt
python3 "$TBK_SRC/eval/vanish.py" set/manifest.tsv A a B b > t.md || die "vanish.py failed"
grep -qx '| all | 4 | 1 (25.0 %) | 1 (25.0 %) |' t.md || die "counts wrong: $(cat t.md)"
# by kind: p1, p2 articles, p3, p4 other
printf 'set\ts\tpages/s/p1.html\tarticle\tx\nset\ts\tpages/s/p2.html\tarticle\tx\n' > kinds.tsv
printf 'set\ts\tpages/s/p3.html\tother\tx\nset\ts\tpages/s/p4.html\tother\tx\n' >> kinds.tsv
python3 "$TBK_SRC/eval/vanish.py" --kinds kinds.tsv set/manifest.tsv A a B b > k.md || die "vanish.py --kinds failed"
grep -qx '| article | 2 | 1 (50.0 %) | 0 (0.0 %) |' k.md || die "article row wrong: $(cat k.md)"
grep -qx '| other | 2 | 0 (0.0 %) | 1 (50.0 %) |' k.md || die "other row wrong: $(cat k.md)"
# a lower bar: p4's 40-word reference counts
python3 "$TBK_SRC/eval/vanish.py" --min-tokens 30 set/manifest.tsv A a B b > m.md || die "vanish.py --min-tokens failed"
grep -qx '| all | 4 | 2 (50.0 %) | 1 (25.0 %) |' m.md || die "--min-tokens counts wrong: $(cat m.md)"
