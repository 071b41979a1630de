#!/usr/bin/env bash
# tbk-label -> tbk-features on synthetic sites: aligned outputs, +1/-1
# labels, well-formed svmlight lines, the schema header, and train/predict
# parity (a page given alone yields the same vectors as in the labelled run).
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP

if ! python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/sites" --seed 1 --sites 3 --pages 12 >/dev/null 2>"$T/synth.err"; then
  cat "$T/synth.err" >&2
  die "synth_sites.py failed"
fi
IN="$T/sites/manifest.tsv"
[ -s "$IN" ] || die "no manifest written"

"$LABEL" -q -o "$T/labels.jsonl" "$IN" || die "tbk-label exit $?"
[ -s "$T/labels.jsonl" ] || die "no labels"

"$FEAT" --labels "$T/labels.jsonl" -o "$T/f.svm" --words "$T/w.svm" --meta "$T/m.jsonl" "$IN" 2>"$T/feat.err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/feat.err" >&2; die "tbk-features --labels exit $rc"; }

DIM=$("$FEAT" --schema | wc -l)
SCHEMA=$("$FEAT" --schema-id)
[ "$DIM" -gt 100 ] || die "schema has only $DIM features"
"$FEAT" --schema | awk -F'\t' -v d="$DIM" 'NF != 3 || $1 != NR || $2 == "" || $3 == "" { bad = 1 } END { exit bad || NR != d }' ||
  die "--schema lines are not index<TAB>name<TAB>kind"

python3 - "$T" "$DIM" "$SCHEMA" <<'EOF' || die "labelled outputs do not check out"
import json, sys
t, dim, schema = sys.argv[1], int(sys.argv[2]), sys.argv[3]
f = open(f"{t}/f.svm").read().splitlines()
w = open(f"{t}/w.svm").read().splitlines()
m = open(f"{t}/m.jsonl").read().splitlines()
head = json.loads(m[0])
assert head["schema"] == schema and head["dim"] == dim, head
wd = head["word_dims"]
m = [json.loads(x) for x in m[1:]]
assert len(f) == len(w) == len(m) and len(f) > 0, (len(f), len(w), len(m))
labels = [json.loads(x) for x in open(f"{t}/labels.jsonl")]
want = {(x["page"], x["path"]): (1 if x["label"] == "template" else -1) for x in labels if x["label"] != "ignored"}
assert len(f) == len(want), (len(f), len(want))
assert {1, -1} <= {want[k] for k in want}
for fl, wl, ml in zip(f, w, m):
    lab = int(fl.split()[0])
    assert lab in (1, -1) and int(wl.split()[0]) == lab == ml["label"], (fl[:20], wl[:20], ml)
    assert want[(ml["page"], ml["path"])] == lab
    for line, top in ((fl, dim), (wl, wd)):
        prev = 0
        for tok in line.split()[1:]:
            i, v = tok.split(":")
            i = int(i); v = float(v)
            assert prev < i <= top and v != 0, (tok, line[:60])
            prev = i
    assert len(wl.split()) > 1, "a block without words"
print(len(f), "vectors")
EOF

# Determinism: the same run gives byte-identical files.
"$FEAT" --labels "$T/labels.jsonl" -o "$T/f2.svm" --words "$T/w2.svm" --meta "$T/m2.jsonl" "$IN" 2>/dev/null
cmp -s "$T/f.svm" "$T/f2.svm" && cmp -s "$T/w.svm" "$T/w2.svm" && cmp -s "$T/m.jsonl" "$T/m2.jsonl" ||
  die "two runs differ"

# Train/predict parity: every labelled block of one page equals the same
# block when that page is given alone (label 0).
PAGE=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[1])["page"])' "$T/m.jsonl")
case "$PAGE" in /*) FILE="$PAGE" ;; *) FILE="$T/sites/$PAGE" ;; esac
[ -f "$FILE" ] || die "page file $FILE not found"
"$FEAT" -o "$T/one.svm" --words "$T/one.w" --meta "$T/one.m" "$FILE" || die "single page run exit $?"
python3 - "$T" "$PAGE" <<'EOF' || die "single-page vectors differ from the labelled run"
import json, sys
t, page = sys.argv[1], sys.argv[2]
def rows(prefix, w, m):
    f = open(f"{t}/{prefix}").read().splitlines()
    ws = open(f"{t}/{w}").read().splitlines()
    ms = [json.loads(x) for x in open(f"{t}/{m}").read().splitlines()[1:]]
    assert len(f) == len(ws) == len(ms)
    return f, ws, ms
f, w, m = rows("f.svm", "w.svm", "m.jsonl")
f1, w1, m1 = rows("one.svm", "one.w", "one.m")
assert all(int(x.split()[0]) == 0 for x in f1 + w1), "unlabelled run must use label 0"
alone = {ml["path"]: (fl.split(None, 1)[1], wl.split(None, 1)[1], ml["md5"]) for fl, wl, ml in zip(f1, w1, m1)}
n = 0
for fl, wl, ml in zip(f, w, m):
    if ml["page"] != page:
        continue
    a = alone[ml["path"]]
    assert a[2] == ml["md5"], ml["path"]
    assert fl.split(None, 1)[1] == a[0], "features differ at " + ml["path"]
    assert wl.split(None, 1)[1] == a[1], "words differ at " + ml["path"]
    n += 1
assert n > 0
print(n, "blocks equal")
EOF

# Without labels: every candidate block, label 0.
"$FEAT" -o "$T/all.svm" "$IN" || die "unlabelled run exit $?"
[ "$(wc -l <"$T/all.svm")" -gt "$(wc -l <"$T/f.svm")" ] || die "unlabelled run should have more blocks than the labelled one"
awk '$1 != 0 { exit 1 }' "$T/all.svm" || die "unlabelled run has a non-zero label"

# A broken labels line and a changed md5: warned about, skipped, exit 3.
python3 - "$T" <<'EOF'
import json, sys
t = sys.argv[1]
lines = open(f"{t}/labels.jsonl").read().splitlines()
x = json.loads(lines[0]); x["md5"] = "0" * 32
lines[0] = json.dumps(x)
lines.insert(1, '{"site": "broken", "page": ')
open(f"{t}/bad.jsonl", "w").write("\n".join(lines) + "\n")
EOF
"$FEAT" --labels "$T/bad.jsonl" -o "$T/bad.svm" "$IN" 2>"$T/bad.err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/bad.err" >&2; die "bad labels: exit $rc, expected 3"; }
grep -q 'bad.jsonl:2:' "$T/bad.err" || die "broken line not reported with its line number"
grep -q 'text changed since labelling' "$T/bad.err" || die "md5 mismatch not reported"
[ "$(wc -l <"$T/bad.svm")" -eq $(($(wc -l <"$T/f.svm") - 1)) ] || die "mismatched block not skipped"

# Usage errors.
"$FEAT" 2>/dev/null; [ $? -eq 2 ] || die "no input should be a usage error"
"$FEAT" --word-dims 0 "$IN" 2>/dev/null; [ $? -eq 2 ] || die "--word-dims 0 should be a usage error"
echo ok
