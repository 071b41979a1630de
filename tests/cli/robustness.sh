#!/usr/bin/env bash
# eval/page_kind.py tags a page of each kind written here (no third-party
# page) by its rule; eval/robustness.py counts the pages under F1 0.5 and 0.8
# per set and tool, pools them by kind, checks tbk against the best peer and
# lists the peers' pages under 0.5 and tbk's worst pages.
. "$(dirname "$0")/lib.sh"
set -e
need_python
tmp_reset
cd "$TBK_TMP"

mkdir -p set1/pages/s set1/gold/s
words() { # N: N words of prose
  local i
  for ((i = 0; i < $1; i++)); do printf 'word%d ' "$i"; done
}
page() { # ID HTML
  printf '%s' "$2" > "set1/pages/s/$1.html"
  echo gold > "set1/gold/s/$1.txt"
  printf 's\tpages/s/%s.html\t\tgold/s/%s.txt\n' "$1" "$1" >> set1/manifest.tsv
}
printf 'site\tpage\turl\tgold\n' > set1/manifest.tsv
nav='<ul>'$(for i in $(seq 1 10); do printf '<li><a href="/%d">menu %d</a></li>' "$i" "$i"; done)'</ul>'
page a1 "<html><head><meta property=\"og:type\" content=\"article\"></head><body>$nav<h1>T</h1><p>$(words 40)</p></body></html>"
page a2 "<html><head><title>x</title><body>$nav<div>$(words 200)</div></body></html>"   # unclosed head, prose
page e1 "<html><head><meta name=\"generator\" content=\"MediaWiki 1.39\"></head><body><p>$(words 300)</p></body></html>"
page d1 "<html><head><meta name=\"generator\" content=\"Docutils 0.19\"></head><body><p>$(words 300)</p></body></html>"
page d2 "<html><body><p>$(words 20)</p><pre>$(words 60)</pre></body></html>"
page f1 "<html><body class=\"phpbb\"><p>$(words 300)</p></body></html>"
page f2 "<html><head><meta property=\"og:type\" content=\"article\"></head><body><h1>T</h1><p>$(words 30)</p><ol class=\"comment-list\"><li>$(words 80)</li><li>$(words 80)</li></ol><div id=\"commentform\">$(words 30)</div></body></html>"
page l1 "<html><body>$(for i in $(seq 1 6); do printf '<h2><a href="/p%d">teaser %d</a></h2><p>short</p>' "$i" "$i"; done)</body></html>"
page l2 "<html><body>$nav$nav<p>$(words 5)</p></body></html>"
page o1 "<html><body><h1>Photo</h1><img src=x><p>$(words 30)</p></body></html>"
page x1 "<html><head><title>404 Page not found | Site</title></head><body>$nav<h1>Page not found</h1><p>$(words 30)</p></body></html>"
page x2 "<html><head><title>Error 404: why links rot</title><meta property=\"og:type\" content=\"article\"></head><body><p>$(words 200)</p></body></html>"
python3 "$TBK_SRC/eval/page_kind.py" --summary set1/manifest.tsv > kinds.tsv 2> summary.md || die "page_kind.py failed"
got=$(tail -n +2 kinds.tsv | awk -F'\t' '{ sub(/.*\//, "", $3); sub(/\.html$/, "", $3); printf "%s=%s ", $3, $4 }')
want="a1=article a2=article e1=encyclopedia d1=documentation d2=documentation f1=forum f2=forum l1=listing l2=listing o1=other x1=error x2=article "
[[ $got == "$want" ]] || die "kinds: got '$got', want '$want' ($(cat kinds.tsv))"
grep -q '^| set1 | 12 | 3 (25.0 %) | 1 (8.3 %) | 2 (16.7 %) | 2 (16.7 %) | 2 (16.7 %) | 1 (8.3 %) | 1 (8.3 %) |$' summary.md || die "summary: $(cat summary.md)"

# robustness.py on per-page files written here: tbk under 0.5 on 1 page of
# 10 and under 0.8 on 2; the peer under 0.5 on 3.
mkdir -p res/per-page
per() { # TOOL F1...
  local tool=$1 f id
  shift
  {
    printf 'site\tpage\tprecision\trecall\tf1\tpred_tokens\tgold_tokens\n'
    for id in a1 a2 e1 d1 d2 f1 f2 l1 l2 o1; do
      f=${1:-1}; shift || true
      printf 's\tpages/s/%s.html\t%s\t%s\t%s\t1\t1\n' "$id" "$f" "$f" "$f"
    done
  } > "res/per-page/set1.$tool.main.tsv"
}
per tbk 1 0.7 1 1 1 1 1 0.4 1 1
per mozilla-readability 0.2 1 1 1 1 0.3 1 0.1 1 1
cp kinds.tsv res/kinds.tsv
python3 "$TBK_SRC/eval/robustness.py" --pages-under peers --worst 2 res > r.md || die "robustness.py failed"
grep -qF '| tbk | 10 | 0.910 | 1 (10.0 %) | 2 (20.0 %) | no |' r.md || die "tbk row: $(cat r.md)"
grep -qF '| mozilla-readability | 10 | 0.760 | 3 (30.0 %) | 3 (30.0 %) | no |' r.md || die "peer row: $(cat r.md)"
grep -qF '| article | 2 | **0.850** / **0** | 0.600 / 1 | yes mean, yes < 0.5 |' r.md || die "article row: $(cat r.md)"
grep -qF '| listing | 2 | **0.700** / **1** | 0.550 / **1** | yes mean, yes < 0.5 |' r.md || die "listing row: $(cat r.md)"
grep -qF -- '- listing (1): set1/s/l1' r.md || die "pages under 0.5 for every peer: $(cat r.md)"
grep -qF '| set1/s/l1 | listing | 0.400 | 0.400 | 0.400 |' r.md || die "worst: $(cat r.md)"
echo "robustness.sh: ok"
