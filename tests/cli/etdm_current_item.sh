#!/usr/bin/env bash
# tbk-label --method etdm on sites whose pages share a header and a menu
# in which each page marks its own entry (class="active", aria-current),
# as nearly every site does (#32 item 8). The pages of a key page's CS are
# the menu's pages, each marking another entry: the marked entry did not
# map, so the menu, partly template, gave no template block, and a 16-page
# site of that kind found no template at all. The marks are now left out of
# the node relations: the menu is template on every page, and marking the
# current entry changes nothing of etdm's output.
. "$(dirname "$0")/lib.sh"
set -e
need_python
tmp_reset
cd "$TBK_TMP"

# A 16-page site: home, 7 section pages, 8 stories; every page has the same
# header, menu (its own entry marked; stories mark none) and footer.
python3 - <<'PY'
import os, random
random.seed(7)
host, site = "https://harbour-gazette.example/", "harbour-gazette.example"
sections = ["", "news/", "sport/", "weather/", "business/", "opinion/", "about/", "contact/"]
pages = sections + ["news/story-%d/" % k for k in range(8)]
words = ("river harbour ferry council school market bridge festival library weather storm road island "
         "pier tide boat crew dock season timetable lighthouse").split()
os.makedirs("site/pages/" + site)
rows = []
for i, p in enumerate(pages):
    menu = "".join('<li><a href="/%s"%s>%s</a></li>' % (t, ' class="active" aria-current="page"' if t == p else "",
                                                         t.strip("/").title() or "Home") for t in sections)
    body = "".join("<p>%s.</p>" % " ".join(random.choice(words) for _ in range(45)).capitalize()
                   for _ in range(random.randint(2, 5)))
    if p in sections[1:]:
        body += "<ul>" + "".join('<li><a href="/news/story-%d/">Story number %d from the desk</a></li>' % (k, k)
                                 for k in range(8)) + "</ul>"
    html = ("<!DOCTYPE html><html><head><title>%s</title></head><body><div id=\"page\">"
            "<header id=\"top\"><a class=\"logo\" href=\"/\">Harbour Gazette</a>"
            "<p class=\"motto\">News from the harbour and the islands since 1911</p></header>"
            "<nav id=\"menu\"><ul>%s</ul></nav><main><h1>%s</h1>%s</main>"
            "<footer><p>Copyright 2024 Harbour Gazette, Pier Road 1. All rights reserved.</p></footer>"
            "</div></body></html>") % (p or "Home", menu, p or "Home", body)
    name = "p%02d.html" % i
    open("site/pages/%s/%s" % (site, name), "w").write(html)
    rows.append("%s\tpages/%s/%s\t%s%s\t\n" % (site, site, name, host, p))
open("site/manifest.tsv", "w").write("site\tpage\turl\tgold\n" + "".join(sorted(rows)))
PY

expect_rc 0 "$LABEL" -q --method etdm -o labels.jsonl --stats stats.tsv site/manifest.tsv
awk -F'\t' 'NR == 2 && $2 == 16 && $5 == 0 { ok = 1 } END { exit !ok }' stats.tsv ||
  die "not every page found its CS: $(cat stats.tsv)"
expect_rc 0 "$LABEL" -q --method etdm --blocks html5 -o labels5.jsonl site/manifest.tsv
python3 - <<'PY' || die "the shared header and menu are not the template"
import json
def template(path):
    out = {}
    for l in open(path):
        r = json.loads(l)
        if r["label"] == "template":
            out.setdefault(r["path"], set()).add(r["page"])
    return out
t = template("labels.jsonl")
menu = "/html[1]/body[1]/div[1]/nav[1]/ul[1]"
assert len(t.get(menu, ())) == 16, {k: len(v) for k, v in t.items()}
t5 = template("labels5.jsonl")
for path in ("/html[1]/body[1]/div[1]/header[1]", "/html[1]/body[1]/div[1]/nav[1]",
             "/html[1]/body[1]/div[1]/footer[1]"):
    assert len(t5.get(path, ())) == 16, (path, {k: len(v) for k, v in t5.items()})
PY

# synth_sites.py's menu sites, with and without the current entry marked:
# the same labels and node template, byte for byte, under every relation.
python3 "$TBK_SRC/datasets/synth_sites.py" --out plain --seed 5 --sites 4 --pages 12 --links menu >/dev/null ||
  die "synth_sites.py failed"
python3 "$TBK_SRC/datasets/synth_sites.py" --out marked --seed 5 --sites 4 --pages 12 --links menu \
  --mark-current >/dev/null || die "synth_sites.py --mark-current failed"
grep -q 'aria-current="page"' marked/pages/*/section-01.html || die "--mark-current marked nothing"
for eq in weighted tag+id+class; do
  for d in plain marked; do
    (cd "$d" && "$LABEL" -q --method etdm --node-equal "$eq" -o ../"$d.jsonl" --nodes ../"$d.nodes.jsonl" \
      manifest.tsv) || die "tbk-label --method etdm on $d failed"
  done
  cmp -s plain.jsonl marked.jsonl || die "$eq: marking the current menu entry changes the labels"
  cmp -s plain.nodes.jsonl marked.nodes.jsonl || die "$eq: marking the current menu entry changes the template"
done
expect_rc 2 python3 "$TBK_SRC/datasets/synth_sites.py" --out x --mark-current
echo "etdm current item ok"
