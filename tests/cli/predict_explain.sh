#!/usr/bin/env bash
# tbk-predict --explain with the shipped model, on pages written here: the
# JSON is valid, every explanation adds up (base + the top contributions +
# the rest = the logit, whose sigmoid is the record's probability), and an
# input the explanation names moves the decision as its contribution says
# when a variant of the page changes that input (a class word, a link
# around a paragraph); a page in German is scored by the content stage
# without the text model.
. "$(dirname "$0")/lib.sh"
PROG=tbk-predict
need_python
tmp_reset
w=$TBK_TMP
model=$TBK_SRC/models/default.model
[[ -f $model ]] || skip "models/default.model is absent"

# An article of five paragraphs; the middle one is the unit under test (MID
# is replaced by each variant's markup of the same sentence).
python3 - "$w" <<'PY'
import sys
out = sys.argv[1]
paras = [
    "The river valley was settled slowly over the course of the eighteenth century, first by trappers who followed the beaver upstream and later by farming families who cleared the bottom land for wheat and barley.",
    "By the middle of the nineteenth century the mills had changed everything. Water power drew weavers, carpenters and blacksmiths to the falls, and a town grew up around the mill race with a church, a school and a store.",
    "The railway arrived in 1871 and with it a new kind of prosperity. Timber and grain could now reach the coast in a single day, and the merchants built brick houses along the main street that still stand today.",
    "In the twentieth century the mills closed one after another, and the town reinvented itself as a market centre for the surrounding farms. The old mill buildings became warehouses, then workshops, then the museum.",
]
mid = ("The museum in the old mill is open every day except Monday, and guided tours of the mill race "
       "and the weaving floor start at ten in the morning.")
nav = '<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul>'
def page(m):
    body = "".join(f"<p>{t}</p>" for t in paras[:2]) + m + "".join(f"<p>{t}</p>" for t in paras[2:])
    return ("<!DOCTYPE html><html><head><title>Valley</title></head><body>" + nav +
            f'<div class="article"><h1>Valley</h1>{body}</div><p>Copyright 2024 Valley Society</p></body></html>')
for name, m in [("plain", f"<p>{mid}</p>"), ("promo", f'<p class="promo">{mid}</p>'),
                ("link", f'<p><a href="/museum">{mid}</a></p>')]:
    with open(f"{out}/{name}.html", "w", encoding="utf-8") as f:
        f.write(page(m))
PY

# Explanations cost nothing unless asked for: the output without --explain
# is the same as ever, and --explain adds only the explain object.
"$PRED" -m "$model" -f jsonl "$w/plain.html" >"$w/plain.plain.jsonl" || die "predict failed"
grep -q '"explain"' "$w/plain.plain.jsonl" && die "an explanation without --explain"
for v in plain promo link; do
  "$PRED" -m "$model" -f jsonl --explain=1000 "$w/$v.html" >"$w/$v.all.jsonl" || die "$v: --explain=1000 failed"
  "$PRED" -m "$model" -f jsonl --explain "$w/$v.html" >"$w/$v.jsonl" || die "$v: --explain failed"
done
"$PRED" -m "$model" -f jsonl --stage template --explain=3 "$w/plain.html" >"$w/blocks.jsonl" || die "template stage --explain failed"

python3 - "$w" <<'PY' || die "explanations are wrong (above)"
import json, math, sys
w = sys.argv[1]
sig = lambda z: 1 / (1 + math.exp(-z))
def load(name):
    return [json.loads(l) for l in open(f"{w}/{name}", encoding="utf-8")]

def check_stage(e, k, p_removal, where):
    """The sums and the order of one stage's explanation."""
    top = e["top"]
    assert len(top) == min(k, e["inputs"]), (where, len(top), e["inputs"])
    total = e["base"] + sum(t["contribution"] for t in top) + e["rest"]
    assert abs(total - e["logit"]) < 1e-3 * (1 + abs(e["logit"])), (where, total, e["logit"])
    assert abs(sig(e["logit"]) - e["p"]) < 1e-4, (where, e["logit"], e["p"])
    assert abs(e["p"] - p_removal) < 1e-4, (where, e["p"], p_removal)
    mags = [abs(t["contribution"]) for t in top]
    assert mags == sorted(mags, reverse=True), (where, "not by |contribution|")
    assert all(t["contribution"] != 0 and t["input"] for t in top), where
    if len(top) == e["inputs"]:
        assert e["rest"] == 0, where

# Every record of every run: the record's fields unchanged, and the sums.
plain = load("plain.plain.jsonl")
for name, k in [("plain.jsonl", 5), ("promo.jsonl", 5), ("link.jsonl", 5), ("plain.all.jsonl", 1000),
                ("promo.all.jsonl", 1000), ("link.all.jsonl", 1000)]:
    rows = load(name)
    if name.startswith("plain"):
        assert [{f: v for f, v in r.items() if f != "explain"} for r in rows] == plain, name
    for i, r in enumerate(rows):
        e = r["explain"]
        rule = {"rule"} if e["decided_by"] == "rule" else set()
        assert set(e) == {"template", "content", "content_stage", "decided_by"} | rule, (name, e.keys())
        assert e["content_stage"] == "main", (name, e["content_stage"])
        check_stage(e["content"], k, 1 - r["p_content"], f"{name}:{i}:content")
        if e["template"] is not None:
            check_stage(e["template"], k, sig(e["template"]["logit"]), f"{name}:{i}:template")
            assert e["template"]["block"].startswith("/html[1]/"), e["template"]
        model_keeps = r["p_content"] > 0.5
        assert (e["decided_by"] == "model") == (model_keeps == r["content"]), (name, i, r)
for i, r in enumerate(load("blocks.jsonl")):
    assert set(r["explain"]) == {"template"}, r
    check_stage(r["explain"]["template"], 3, r["p"], f"blocks:{i}")

def unit(name):
    rows = [r for r in load(name) if r["text"].startswith("The museum")]
    assert len(rows) == 1, (name, len(rows))
    return rows[0]

def inputs(r):
    return {t["input"]: t for t in r["explain"]["content"]["top"]}

# Changing inputs moves the logit by exactly the change of their
# contributions: the explanation is per input, the same on every page.
base = unit("plain.all.jsonl")
for v in ("promo", "link"):
    var = unit(f"{v}.all.jsonl")
    a, b = inputs(base), inputs(var)
    for n in a.keys() & b.keys():
        if a[n]["value"] == b[n]["value"]:
            assert abs(a[n]["contribution"] - b[n]["contribution"]) < 1e-5, (v, n, a[n], b[n])
    moved = sum(b[n]["contribution"] for n in b) - sum(a[n]["contribution"] for n in a)
    change = var["explain"]["content"]["logit"] - base["explain"]["content"]["logit"]
    assert abs(moved - change) < 1e-3, (v, moved, change)

# The named input changes the decision. The content stage keeps the plain
# paragraph; with class="promo" it removes it, and its explanation says why:
# the class word, near the unit and among its ancestors, pushes toward
# boilerplate; taking the class away (the plain page) moves the logit back
# by about what those contributions said and the decision with it.
assert base["p_content"] > 0.5, base
promo = unit("promo.jsonl")
named = {n: t for n, t in inputs(promo).items() if n.startswith("attr.") and n.endswith(".word.promo")}
assert named and all(t["value"] == 1 and t["contribution"] > 0 for t in named.values()), inputs(promo)
said = sum(t["contribution"] for t in named.values())
change = promo["explain"]["content"]["logit"] - base["explain"]["content"]["logit"]
assert promo["p_content"] < 0.5 and change > 0, (promo["p_content"], change)
assert 0.5 * change < said < 1.5 * change, (said, change)
# The paragraph sits between two kept paragraphs of the same parent: the
# content decision keeps it whatever the model says, and says which rule.
assert promo["content"] and promo["explain"]["decided_by"] == "rule", promo
assert promo["explain"]["rule"] == "the gap rule", promo["explain"]

# A link around the whole paragraph: u.link_char_ratio = 1 pushes it
# toward boilerplate (not across the threshold: the paragraph is long and
# in the article's region); without the link (the plain page, ratio 0)
# its probability of content is higher. A link changes other inputs too
# (the page's link ratio, the region's share, anc.a): the ratio's is the
# largest change of them all, and the logit moves its way.
link = unit("link.all.jsonl")
lr = inputs(link).get("u.link_char_ratio")
assert lr and lr["value"] == 1 and lr["contribution"] > 0, inputs(link)
assert "u.link_char_ratio" not in inputs(base), "a paragraph without links has a link ratio"
a, b = inputs(base), inputs(link)
delta = {n: (b[n]["contribution"] if n in b else 0) - (a[n]["contribution"] if n in a else 0) for n in a.keys() | b.keys()}
assert max(delta, key=lambda n: abs(delta[n])) == "u.link_char_ratio", sorted(delta.items(), key=lambda x: -abs(x[1]))[:4]
assert link["explain"]["content"]["logit"] > base["explain"]["content"]["logit"], (link["p_content"], base["p_content"])
assert link["p_content"] < base["p_content"]
PY

# The readable listing: the legend, a paragraph per unit, each stage's
# line with its sum, the top inputs and the rest.
"$PRED" -m "$model" --explain=3 "$w/promo.html" >"$w/promo.txt" || die "text --explain failed"
grep -q '^# tbk-predict --explain' "$w/promo.txt" || die "no legend"
grep -q '^unit [0-9]*  kept by a rule: the gap rule  p_content=0\.[0-4][0-9]*  <p> "The museum in the old mill' "$w/promo.txt" ||
  die "the promo paragraph's line is not there"
python3 - "$w/promo.txt" <<'PY' || die "the listing does not add up"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
stages = 0
for i, l in enumerate(lines):
    m = re.match(r"  (template|content) +p_\w+=[0-9.]+  logit=([-+][0-9.]+) = base ([-+][0-9.]+), inputs ([-+][0-9.]+)", l)
    if not m:
        continue
    stages += 1
    logit, base, inputs = map(float, m.group(2, 3, 4))
    assert abs(base + inputs - logit) < 2e-3, l
    s, j = 0.0, i + 1
    while j < len(lines) and re.match(r" {4,}[-+][0-9]", lines[j]):
        s += float(lines[j].split()[0])
        j += 1
    assert 1 <= j - i - 1 <= 4, (l, j - i - 1)
    assert abs(s - inputs) < 5e-3, (l, s, inputs)
assert stages >= 10, stages
PY

# A page in German: the shipped model's text model learned English words,
# so the content stage fitted without it scores the page, and says so; the
# English page's units are scored with it (text_score among their inputs).
python3 - "$w" <<'PY'
import sys
paras = [
    "Das Tal wurde im Laufe des achtzehnten Jahrhunderts langsam besiedelt, zuerst von Fallenstellern, die dem Biber flussaufwärts folgten, und später von Bauernfamilien, die das Land für Weizen und Gerste rodeten.",
    "In der Mitte des neunzehnten Jahrhunderts hatten die Mühlen alles verändert. Die Wasserkraft zog Weber, Zimmerleute und Schmiede an den Wasserfall, und um den Mühlgraben wuchs eine Stadt mit einer Kirche, einer Schule und einem Laden.",
    "Die Eisenbahn kam im Jahr 1871 und mit ihr ein neuer Wohlstand. Holz und Getreide konnten nun an einem einzigen Tag die Küste erreichen, und die Händler bauten an der Hauptstraße Häuser aus Backstein, die heute noch stehen.",
]
nav = '<ul><li><a href="/">Start</a></li><li><a href="/news">Nachrichten</a></li><li><a href="/sport">Sport</a></li></ul>'
body = "".join(f"<p>{t}</p>" for t in paras)
with open(f"{sys.argv[1]}/german.html", "w", encoding="utf-8") as f:
    f.write('<!DOCTYPE html><html lang="de"><head><title>Das Tal</title></head><body>' + nav +
            f'<div class="article"><h1>Das Tal</h1>{body}</div><p>Copyright 2024 Talverein</p></body></html>')
PY
"$PRED" -m "$model" -f jsonl --explain=1000 "$w/german.html" >"$w/german.jsonl" || die "german: --explain failed"
python3 - "$w" <<'PY' || die "the German page was not scored by the content stage without the text model"
import json, sys
w = sys.argv[1]
de = [json.loads(l) for l in open(f"{w}/german.jsonl", encoding="utf-8")]
en = [json.loads(l) for l in open(f"{w}/plain.all.jsonl", encoding="utf-8")]
assert de and all(r["explain"]["content_stage"] == "nontext" for r in de), [r["explain"]["content_stage"] for r in de]
names = lambda r: {t["input"] for t in r["explain"]["content"]["top"]}
assert not any("text_score" in names(r) for r in de)
assert sum("text_score" in names(r) for r in en) >= len(en) // 2, [names(r) for r in en]
kept = " ".join(r["text"] for r in de if r["content"])
assert "Die Eisenbahn kam im Jahr 1871" in kept and "Nachrichten" not in kept, kept
PY
"$PRED" -m "$model" --explain=2 "$w/german.html" >"$w/german.txt" || die "german: text --explain failed"
grep -q "^# The page's function words are not en's" "$w/german.txt" || die "the listing does not name the stage"
grep -q "function words are not" "$w/promo.txt" && die "an English page named as not English"

# Usage errors: a bad K, an HTML rendering.
for bad in --explain=0 --explain=-1 --explain=x --explain=1001 --explain=; do
  expect_rc 2 "$PRED" -m "$model" "$bad" "$w/plain.html"
  expect_err "^tbk-predict: error: --explain: '.*' is not an integer in \[1, 1000\]"
done
expect_rc 2 "$PRED" -m "$model" --explain -f html "$w/plain.html"
expect_err "^tbk-predict: error: --explain needs --format text or jsonl"
expect_messages
echo ok
