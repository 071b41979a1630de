#!/usr/bin/env bash
# tbk-label on 18 real sites (HTTrack mirrors and GitHub-Pages builds, no
# gold): every site is labelled, and the labels obey the rules. Needs the
# shared dataset site_mirrors.tar.xz (skipped, exit 77, without it).
#
# What the data gives with --blocks paper (checked when this was written):
# 15 of 18 sites get template blocks (three static blogs have only short
# menus, under 40 characters, so no repeated candidate), 17 of 18 get
# content, about 27000 template and 3700 content blocks in all.
. "$(dirname "$0")/lib.sh"
set -e
need_shared site_mirrors.tar.xz
need_python
tmp_reset

data=$TBK_SRC/datasets/cache/site_mirrors
if [[ ! -f $data/manifest.tsv ]]; then
  tar -xJf "$TBK_SRC/../shared/datasets/site_mirrors.tar.xz" -C "$TBK_TMP" || die "cannot unpack site_mirrors"
  data=$TBK_TMP/site_mirrors
fi
[[ -f $data/manifest.tsv ]] || die "no manifest.tsv in $data"

expect_rc 0 "$LABEL" -q "$data/manifest.tsv" -o "$TBK_TMP/labels.jsonl" --stats "$TBK_TMP/stats.tsv"
[[ ! -s $ERR ]] || die "unexpected messages"
python3 - "$TBK_TMP/stats.tsv" "$TBK_TMP/labels.jsonl" "$data/manifest.tsv" <<'PY' || die "site_mirrors labels"
import collections, json, math, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")][1:]
manifest = collections.Counter(l.split("\t")[0] for l in list(open(sys.argv[3], encoding="utf-8"))[1:])
stats = {r[0]: r for r in rows}
assert set(stats) == set(manifest) and len(stats) == 18, sorted(stats)
for site, r in stats.items():
    assert r[8] == "labelled" and int(r[1]) == manifest[site] and r[2] == "0", r
with_t = sum(int(r[4]) > 0 for r in rows)
with_c = sum(int(r[5]) > 0 for r in rows)
templates = sum(int(r[4]) for r in rows)
contents = sum(int(r[5]) for r in rows)
print("sites with templates %d, with content %d; %d template, %d content blocks" %
      (with_t, with_c, templates, contents))
assert with_t >= 15 and with_c >= 17, (with_t, with_c)
assert templates > 10000 and contents > 2000, (templates, contents)
# Line by line: only labelled blocks, each obeying its rule.
count = collections.Counter()
for line in open(sys.argv[2], encoding="utf-8"):
    o = json.loads(line)
    n = manifest[o["site"]]
    thr = max(math.ceil(0.1 * n - 1e-9), 3)
    assert o["pages"] == n, o
    assert len(o["md5"]) == 32 and int(o["md5"], 16) >= 0, o
    assert o["chars"] >= 40 and o["path"].startswith("/html["), o  # a stray </html> makes /html[2]
    if o["label"] == "template":
        assert o["df"] >= thr, o
    else:
        assert o["label"] == "content" and o["df"] == 1, o
    count[(o["site"], o["label"])] += 1
for site, r in stats.items():
    assert (count[(site, "template")], count[(site, "content")]) == (int(r[4]), int(r[5])), r
print("site_mirrors ok")
PY
echo "label_site_mirrors: ok"
