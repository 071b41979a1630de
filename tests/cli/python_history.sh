#!/usr/bin/env bash
# #35 item 4: tbk.Model(history=path) decides each page given with its url
# as tbk-predict --history does (the same text, page for page, in the same
# order), counts it into the store (committed by close()), reads without
# writing with history_only=True, and leaves a page without a url to its
# own decision; a store it cannot use is refused when the Model is made.
. "$(dirname "$0")/lib.sh"
python_module_env
need_release "the Python module is tested against a Release build (python_api covers the sanitizer builds)"
tmp_reset
T=$TBK_TMP
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/s" --sites 2 --pages 12 --seed 3 >/dev/null || die "synth_sites.py failed"
man=$T/s/manifest.tsv
# the model of tests/cli/predict_history.sh: history weighs, the logit not
python3 - "$TBK_SRC/models/default.model" "$T/hist.model" "$TBK_SRC/models" <<'PY' || die "cannot make the test model"
import sys
sys.path.insert(0, sys.argv[3])
import train_history as th
band = [-5.0, 0.0, 8.0, 2.0, 0.0]
open(sys.argv[2], "w").write(th.attach(open(sys.argv[1]).read(), [band * th.BANDS, band * th.BANDS]))
PY
expect_rc 0 "$PRED" -m "$T/hist.model" --history "$T/cli.db" --output-dir "$T/cli" "$man"
expect_rc 0 "$PRED" -m "$T/hist.model" --output-dir "$T/alone" "$man"

python3 - "$T" "$man" <<'PY' || die "tbk.Model(history=) differs from tbk-predict --history"
import csv, os, sqlite3, sys, tbk
t, man = sys.argv[1:3]
rows = sorted(csv.DictReader(open(man, encoding="utf-8"), delimiter="\t"), key=lambda r: (r["site"], r["page"]))
base = os.path.dirname(man)
def expected(kind, r):
    return open(os.path.join(t, kind, os.path.splitext(r["page"])[0] + ".txt"), encoding="utf-8").read()
with tbk.Model(t + "/hist.model", history=t + "/py.db") as m:
    for r in rows:
        html = open(os.path.join(base, r["page"]), "rb").read()
        got = m.text(html, url=r["url"])
        assert got == expected("cli", r), "page %s differs from tbk-predict --history" % r["page"]
        # without a url there is no site: the page's own decision
        assert m.text(html) == expected("alone", r), r["page"]
    assert any(expected("cli", r) != expected("alone", r) for r in rows), "history changed nothing"
def totals(path):
    db = sqlite3.connect(path)
    return db.execute("SELECT sum(pages), count(*) FROM sites").fetchone(), \
        db.execute("SELECT count(*), sum(df) FROM fps").fetchone()
assert totals(t + "/py.db") == totals(t + "/cli.db"), (totals(t + "/py.db"), totals(t + "/cli.db"))
# read only: the same store gives every page its site's other pages, and
# stays as it was
before = totals(t + "/py.db")
with tbk.Model(t + "/hist.model", history=t + "/py.db", history_only=True) as m:
    r = rows[0]
    m.text(open(os.path.join(base, r["page"]), "rb").read(), url=r["url"])
assert totals(t + "/py.db") == before
for bad, why in ((t + "/absent.db", "cannot open the history store"), (man, "not a tbk history store")):
    try:
        tbk.Model(t + "/hist.model", history=bad, history_only=bad.endswith("absent.db"))
    except tbk.Error as e:
        assert why in str(e) and bad in str(e), e
    else:
        raise SystemExit("no error for history=%s" % bad)
try:
    tbk.Model(t + "/hist.model", history=3)
except TypeError:
    pass
else:
    raise SystemExit("no TypeError for history=3")
PY
echo ok
