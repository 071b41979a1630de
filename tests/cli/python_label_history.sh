#!/usr/bin/env bash
# #35: tbk.label_site(..., history=path) labels as tbk-label --history does:
# a site labelled in two calls with one store gets, in the second, the
# labels of one call over all its pages (and tbk-label's records, line for
# line); the second half alone labels otherwise; a call again counts
# nothing twice; history_only reads without counting; min_pages counts the
# store's pages; a store of another segmentation is refused.
. "$(dirname "$0")/lib.sh"
python_module_env
need_release "the Python module is tested against a Release build (python_api covers the sanitizer builds)"
tmp_reset
T=$TBK_TMP
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/s" --sites 1 --pages 24 --seed 2 >/dev/null || die "synth_sites.py failed"
man=$T/s/manifest.tsv
(head -n 1 "$man"; sed -n 14,25p "$man") >"$T/s/b.tsv"
(head -n 1 "$man"; sed -n 2,13p "$man") >"$T/s/a.tsv"
expect_rc 0 "$LABEL" -q --history "$T/cli.db" -o "$T/a.jsonl" "$T/s/a.tsv"
expect_rc 0 "$LABEL" -q --history "$T/cli.db" -o "$T/b.jsonl" "$T/s/b.tsv"
expect_rc 0 "$LABEL" -q --min-chars 30 -o "$T/other.jsonl" "$T/s/a.tsv"
expect_rc 0 "$LABEL" -q --min-chars 30 --history "$T/other.db" -o "$T/other.jsonl" "$T/s/a.tsv"

python3 - "$T" "$man" <<'PY' || die "tbk.label_site(history=) differs from tbk-label --history"
import csv, json, os, sqlite3, sys, warnings, tbk
t, man = sys.argv[1:3]
base = os.path.dirname(man)
rows = list(csv.DictReader(open(man, encoding="utf-8"), delimiter="\t"))
site = rows[0]["site"]
def pages(rs):
    return [(r["page"], r["url"], open(os.path.join(base, r["page"]), "rb").read()) for r in rs]
a, b = pages(rows[:12]), pages(rows[12:])
def store(path):
    db = sqlite3.connect(path)
    return db.execute("SELECT coalesce(sum(pages), 0) FROM sites").fetchone()[0], \
        db.execute("SELECT count(*) FROM fps").fetchone()[0]
def of(recs, ps):
    ids = {p[0] for p in ps}
    return [r for r in recs if r["page"] in ids]
every = tbk.label_site(a + b, site=site)
db = t + "/py.db"
tbk.label_site(a, site=site, history=db)
assert store(db)[0] == 12, store(db)
second = tbk.label_site(b, site=site, history=db)
assert store(db)[0] == 24, store(db)
assert second == of(every, b), "the second half is not labelled as in one call over all pages"
cli = [json.loads(l) for l in open(t + "/b.jsonl", encoding="utf-8")]
assert second == cli, "not tbk-label --history's records"
with warnings.catch_warnings():
    warnings.simplefilter("ignore", tbk.TooFewPagesWarning)
    alone = tbk.label_site(b, site=site, min_pages=10)
assert alone != second, "the second half alone labels as both halves"
# a call again counts nothing twice and labels the same
before = store(db)
assert tbk.label_site(b, site=site, history=db) == second and store(db) == before
# history_only: the first half's store, read, gives every second-half page
# the first half's 12 pages and itself, and stays as it was
ro = t + "/ro.db"
tbk.label_site(a, site=site, history=ro)
before = store(ro)
tbk.label_site(b[:1], site=site, history=ro, history_only=True, min_pages=13)
assert store(ro) == before, (store(ro), before)
with warnings.catch_warnings():
    warnings.simplefilter("error", tbk.TooFewPagesWarning)
    try:
        tbk.label_site(b[:1], site=site, history=ro, history_only=True, min_pages=14)
    except tbk.TooFewPagesWarning as w:
        assert "13 pages in the history store" in str(w), w
    else:
        raise SystemExit("min_pages did not count the store's pages")
# min_pages counts across calls: 6 pages, skipped but counted; 6 more, labelled
mp = t + "/mp.db"
with warnings.catch_warnings():
    warnings.simplefilter("ignore", tbk.TooFewPagesWarning)
    assert tbk.label_site(a[:6], site=site, history=mp) == []
assert tbk.label_site(a[6:], site=site, history=mp) != []
for bad, why in ((t + "/other.db", "another segmentation"), (t + "/absent.db", "cannot open the history store"),
                 (man, "not a tbk history store")):
    try:
        tbk.label_site(a, site=site, history=bad, history_only=True)
    except tbk.Error as e:
        assert why in str(e) and bad in str(e), e
    else:
        raise SystemExit("no error for history=%s" % bad)
try:
    tbk.label_site(a, site=site, history=3)
except TypeError:
    pass
else:
    raise SystemExit("no TypeError for history=3")
PY
echo ok
