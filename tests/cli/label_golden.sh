#!/usr/bin/env bash
# tbk-label against sites whose template and content regions are known
# exactly (datasets/synth_sites.py writes them to truth.jsonl): labels are
# checked region by region, for a manifest, a directory and a WARC, and the
# output must be byte-identical across runs and input forms.
. "$(dirname "$0")/lib.sh"
set -e
need_python
tmp_reset
cd "$TBK_TMP"

SITES=6 PAGES=24
python3 "$TBK_SRC/datasets/synth_sites.py" --out syn --seed 7 --sites $SITES --pages $PAGES \
  --warc syn/all.warc.gz >/dev/null || die "synth_sites.py failed"
[[ $(wc -l <syn/truth.jsonl) == $((SITES * PAGES)) ]] || die "unexpected truth.jsonl size"

# The comparison against the truth. A region "is a block" when a block of
# the page has the MD5 of its (normalized) text. Rules checked per page:
#  - every template region shared by df >= 2 pages of its site that is a
#    block is labelled template when df >= threshold (max(ceil(10%), 3)),
#    else ignored (infrequent), and its df field equals the truth's df;
#    template regions long enough (>= 40 chars, >= 3 words) in a candidate
#    tag must be blocks; a template region on one page only is not
#    distinguishable from content and is only counted;
#  - no template text (df >= 2) is labelled content, and no content block
#    contains a template block;
#  - every content region (title, paragraph, list item, table row, code,
#    comment) is labelled content or lies inside a content block (locator
#    prefix), except where the generator puts it in a container that also
#    holds template blocks (breadcrumb, related box, comment heading...):
#    then its nearest enclosing block must contain such a template block;
#  - no content region lies inside a template block, and every content
#    block contains (or is) a content/meta region of the truth.
cat >golden.py <<'PY'
import collections, hashlib, json, math, re, sys

PAPER = set("blockquote dd div dl dt h1 h2 h3 h4 h5 h6 li ol pre small table td th tr ul".split())
HTML5 = PAPER | set("article aside footer header main nav section form p figure details fieldset address".split())
TOKEN = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]|\d+(?:[.,]\d+)+|[^\W\u3040-\u30ff\u4e00-\u9fff]+")

def is_candidate_text(t):
    return len(t) >= 40 and len({w.lower() for w in TOKEN.findall(t)}) >= 3

def md5(s):
    return hashlib.md5(s.encode("utf-8")).hexdigest()

def inside(path, outer):
    return path == outer or path.startswith(outer + "/")

def main(truth_path, labels_path, blockset, key):
    tags = HTML5 if blockset == "html5" else PAPER
    truth = [json.loads(l) for l in open(truth_path, encoding="utf-8")]
    blocks = collections.defaultdict(list)
    for line in open(labels_path, encoding="utf-8"):
        o = json.loads(line)
        blocks[o[key]].append(o)
    fails = []
    def fail(page, msg):
        fails.append("%s: %s" % (page, msg))
    n_site = collections.Counter(t["site"] for t in truth)
    df = collections.Counter()
    for t in truth:
        for m in {md5(r["text"]) for r in t["regions"]}:
            df[(t["site"], m)] += 1
    checked = collections.Counter()
    for t in truth:
        page = t[key]
        bl = blocks.get(page)
        if not bl:
            fail(page, "no labelled blocks at all")
            continue
        thr = max(math.ceil(0.10 * n_site[t["site"]] - 1e-9), 3)
        by_md5 = collections.defaultdict(list)
        for b in bl:
            by_md5[b["md5"]].append(b)
            if b["pages"] != n_site[t["site"]]:
                fail(page, "pages field %d" % b["pages"])
        contents = [b for b in bl if b["label"] == "content"]
        for c in contents:
            if not any(inside(r["path"], c["path"]) or inside(c["path"], r["path"])
                       for r in t["regions"] if r["role"] != "template" or df[(t["site"], md5(r["text"]))] == 1):
                fail(page, "content block %s %r holds no content of the truth" % (c["path"], c["text"]))
        for r in t["regions"]:
            m = md5(r["text"])
            mine = by_md5.get(m, [])
            cand = r["tag"] in tags and is_candidate_text(r["text"])
            if r["role"] == "template":
                d = df[(t["site"], m)]
                if cand and not mine:
                    fail(page, "template region %s %r is not a block" % (r["path"], r["text"][:60]))
                if d == 1:
                    checked["template-on-one-page"] += 1
                    continue
                for b in mine:
                    if b["label"] == "content":
                        fail(page, "template text labelled content: %r" % r["text"][:60])
                for c in contents:
                    if mine and inside(r["path"], c["path"]):
                        fail(page, "content block %s contains template block %r" % (c["path"], r["text"][:60]))
                if not mine:
                    continue
                want = "template" if d >= thr else "ignored"
                for b in mine:
                    if b["label"] != want or b["df"] != d or (want == "ignored" and b.get("reason") != "infrequent"):
                        fail(page, "template region %r (%s, df %d): got %s/%s df %d, want %s" %
                             (r["text"][:60], r["shared"], d, b["label"], b.get("reason"), b["df"], want))
                checked["template-" + r["shared"]] += 1
            elif r["role"] == "content":
                for b in bl:
                    if b["label"] == "template" and inside(r["path"], b["path"]):
                        fail(page, "content region %r inside template block %s" % (r["text"][:60], b["path"]))
                if cand and not mine:
                    fail(page, "content region %s %r is not a block" % (r["path"], r["text"][:60]))
                if any(inside(r["path"], c["path"]) for c in contents) or \
                        any(b["label"] == "content" for b in mine):
                    checked["content-covered"] += 1
                    continue
                if cand or mine:
                    fail(page, "content region %s %r is a block but not content" % (r["path"], r["text"][:60]))
                    continue
                encl = [b for b in bl if inside(r["path"], b["path"])]
                if not encl:
                    checked["content-in-no-block"] += 1
                    continue
                near = max(encl, key=lambda b: len(b["path"]))
                holds_template = any(x["role"] == "template" and md5(x["text"]) in by_md5 and
                                     inside(x["path"], near["path"]) for x in t["regions"])
                if not holds_template:
                    fail(page, "content region %s %r: nearest block %s (%s/%s) holds no template block" %
                         (r["path"], r["text"][:60], near["path"], near["label"], near.get("reason")))
                checked["content-beside-template"] += 1
    pages = len(truth)
    if checked["template-all"] < 4 * pages:
        fail("-", "only %d template regions checked" % checked["template-all"])
    if checked["content-covered"] < 8 * pages:
        fail("-", "only %d content regions covered" % checked["content-covered"])
    print("%s %s: %s" % (labels_path, blockset, " ".join("%s=%d" % kv for kv in sorted(checked.items()))))
    for f in fails[:30]:
        print("FAIL", f)
    if len(fails) > 30:
        print("... %d failures in all" % len(fails))
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
PY

cd syn
# (a) the manifest, both block sets.
expect_rc 0 "$LABEL" --all manifest.tsv -o manifest.jsonl --stats stats.tsv
expect_messages
python3 ../golden.py truth.jsonl manifest.jsonl paper page || die "labels differ from the truth (manifest, paper)"
expect_rc 0 "$LABEL" -q --all --blocks html5 manifest.tsv -o html5.jsonl
[[ ! -s $ERR ]] || die "--quiet printed something"
python3 ../golden.py truth.jsonl html5.jsonl html5 page || die "labels differ from the truth (manifest, html5)"

# Byte-identical across runs, and whatever the order of the manifest rows.
expect_rc 0 "$LABEL" --all manifest.tsv -o again.jsonl
cmp -s manifest.jsonl again.jsonl || die "two runs gave different output"
{ head -n 1 manifest.tsv; tail -n +2 manifest.tsv | sort -r; } >shuffled.tsv
expect_rc 0 "$LABEL" --all shuffled.tsv -o shuffled.jsonl
cmp -s manifest.jsonl shuffled.jsonl || die "manifest row order changed the output"
# Default output (no --all) = the template and content lines of --all.
expect_rc 0 "$LABEL" manifest.tsv
grep -v '"label":"ignored"' manifest.jsonl | cmp -s - "$OUT" || die "output without --all is not the labelled subset"
grep -q '"label":"ignored"' "$OUT" && die "ignored blocks printed without --all"

# (b) the pages directory: same labels, only the url field is unknown.
expect_rc 0 "$LABEL" --all pages -o dir.jsonl
python3 - manifest.jsonl dir.jsonl <<'PY' || die "directory and manifest labels differ"
import json, sys
a = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
b = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
assert len(a) == len(b), (len(a), len(b))
for x, y in zip(a, b):
    assert x["url"] and y["url"] == "", (x["url"], y["url"])
    x.pop("url"); y.pop("url")
    assert x == y, (x, y)
print("dir == manifest: %d lines" % len(a))
PY

# (c) the WARC: sites are registered domains and pages are URLs, labels
# are the same block for block.
expect_rc 0 "$LABEL" --all all.warc.gz -o warc.jsonl
expect_messages
python3 ../golden.py truth.jsonl warc.jsonl paper url || die "labels differ from the truth (WARC)"
python3 - manifest.jsonl warc.jsonl <<'PY' || die "WARC and manifest labels differ"
import json, sys
def load(p):
    out = {}
    for l in open(p, encoding="utf-8"):
        o = json.loads(l)
        out[(o["url"], o["path"])] = (o["site"].replace(".example", ""), o["md5"], o["df"], o["pages"],
                                      o["label"], o.get("reason"), o["chars"], o["line"], o["text"])
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
assert len(a) == len(b) and a == b, "differ: %r" % sorted(set(a.items()) ^ set(b.items()))[:3]
print("warc == manifest: %d blocks" % len(a))
PY

# The stats file: one header, one row per site, counts consistent with the
# labels written.
python3 - stats.tsv manifest.jsonl $SITES $PAGES <<'PY' || die "bad --stats file"
import collections, json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
assert rows[0] == ["site", "pages", "bad_pages", "candidates", "template", "content", "ignored",
                   "template_text_share", "status"], rows[0]
assert len(rows) == 1 + int(sys.argv[3]), len(rows)
labels = collections.Counter()
for l in open(sys.argv[2], encoding="utf-8"):
    o = json.loads(l)
    labels[(o["site"], o["label"])] += 1
for r in rows[1:]:
    site, pages, bad, cand, tmpl, cont, ign, share, status = r
    assert status == "labelled" and int(pages) == int(sys.argv[4]) and bad == "0", r
    assert int(cand) == int(tmpl) + int(cont) + int(ign), r
    assert (int(tmpl), int(cont), int(ign)) == (labels[(site, "template")], labels[(site, "content")],
                                                labels[(site, "ignored")]), r
    assert 0.0 < float(share) < 1.0 and len(share.split(".")[1]) == 4, r
    assert int(tmpl) > 0 and int(cont) > 0, r
print("stats ok")
PY

# --min-pages: a site with too few pages is skipped, reported, exit 3; the
# other sites' labels are unchanged.
small=$(cut -f1 manifest.tsv | sed -n 2p)
{ head -n 1 manifest.tsv; tail -n +2 manifest.tsv | awk -F'\t' -v s="$small" '$1 != s || n++ < 5'; } >partial.tsv
expect_rc 3 "$LABEL" --all partial.tsv -o partial.jsonl --stats partial.tsv.stats
expect_err "^tbk-label: warning: site $small: 5 pages < --min-pages 10 \(skipped\)$"
expect_messages
grep -v "\"site\":\"$small\"" manifest.jsonl | cmp -s - partial.jsonl || die "skipping a site changed the others"
grep -q "^$small	5	0	0	0	0	0	0.0000	too-few-pages$" partial.tsv.stats || die "skipped site not in --stats"
expect_rc 0 "$LABEL" -q --all --min-pages 5 partial.tsv -o partial5.jsonl
grep -q "\"site\":\"$small\"" partial5.jsonl || die "--min-pages 5 did not label the 5-page site"
# Every site too small: still reported with -q, the output is empty but
# complete.
expect_rc 3 "$LABEL" -q --min-pages $((PAGES + 1)) manifest.tsv -o none.jsonl
[[ $(grep -c "pages < --min-pages $((PAGES + 1)) (skipped)" "$ERR") == "$SITES" ]] || die "skips not reported"
[[ -f none.jsonl && ! -s none.jsonl ]] || die "expected an empty output file"
expect_no_tmp .
echo "label_golden: ok"
