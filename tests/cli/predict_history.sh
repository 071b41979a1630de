#!/usr/bin/env bash
# #35: the site-history store. On synthetic sites with a known template:
# with no history a page's output is the per-page decision byte for byte;
# with history a model's history stage removes what the site repeats and
# keeps what it does not; the two-pass mode gives every page the site's
# other pages; re-runs, two processes at once (six on a new store) and kill -9 at random
# points leave exact counts and an intact store; stores of another model
# or no store at all are refused by name.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
PROG=tbk-predict
model=$TBK_SRC/models/default.model
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/s" --sites 2 --pages 24 --seed 7 >/dev/null || die "synth_sites.py failed"
man=$T/s/manifest.tsv
site1=$(awk -F'\t' 'NR == 2 {print $1}' "$man")
page1=$(awk -F'\t' 'NR == 2 {print $2}' "$man")

# A model with a history stage of known weights: in every band a row is
# template when the site's other pages hold it (bias -5, share +8, shared
# by two or more +2) and content when none does; the stage's own logit
# weighs 0, so what changes is the history's doing.
python3 - "$model" "$T/hist.model" "$TBK_SRC/models" <<'PY' || die "cannot make the test model"
import sys
sys.path.insert(0, sys.argv[3])
import train_history as th
band = [-5.0, 0.0, 8.0, 2.0, 0.0]
text = th.attach(open(sys.argv[1]).read(), [band * th.BANDS, band * th.BANDS])
open(sys.argv[2], "w").write(text)
PY
hm=$T/hist.model
# The trainer never lets a site's repetition argue for content: rows whose
# enclosing block every page repeats are content here, which plain
# training learns as a negative weight; the signed training keeps it at 0.
python3 - "$TBK_SRC/models" <<'PY' || die "train_history.py let repetition argue for content, or a band push less than the one below"
import sys
sys.path.insert(0, sys.argv[1])
import train_history as th
rows = [((1.0, 0.0, 0.0, 0.0, 1.0), 0, 1.0)] * 40 + [((1.0, 0.0, 0.0, 0.0, 0.0), 1, 1.0)] * 40
free = th.train_band(rows, 0.01)
signed = th.train_band_signed(rows, 0.01, [])
assert free[4] < -1, free
assert signed[4] == 0 and min(signed[i] for i in th.REPETITION) >= 0, signed
# ... and a band pushes a row on every other page toward template at least
# as hard as the band below: rows that say repetition means nothing at 10+
# pages still get the push the smaller band learnt.
flat = [((1.0, 0.0, 1.0, 1.0, 1.0), 1, 1.0)] * 40 + [((1.0, 0.0, 1.0, 1.0, 1.0), 0, 1.0)] * 40
assert abs(sum(th.train_band_signed(flat, 0.01, [0, 1])[i] for i in th.REPETITION)) < 1e-3
floored = th.train_band_signed(flat, 0.01, [0, 1], 2.5)
assert sum(floored[i] for i in th.REPETITION) > 2.5 - 1e-3, floored
assert min(floored[i] for i in th.REPETITION) >= 0, floored
PY

# 1. No history: byte-identical to the per-page decision, with a history
# stage or without, on a fresh store and on every site's first page.
expect_rc 0 "$PRED" -m "$hm" -o "$T/none.txt" "$man"
expect_rc 0 "$PRED" -m "$model" -o "$T/plain.txt" "$man"
cmp -s "$T/none.txt" "$T/plain.txt" || die "a history stage changed a run without --history"
(head -1 "$man"; awk -F'\t' 'NR > 1 && !seen[$1]++' "$man") > "$T/s/first.tsv"
expect_rc 0 "$PRED" -m "$hm" -o "$T/first.plain.txt" "$T/s/first.tsv"
expect_rc 0 "$PRED" -m "$hm" --history "$T/first.db" -o "$T/first.hist.txt" "$T/s/first.tsv"
cmp -s "$T/first.plain.txt" "$T/first.hist.txt" || die "first pages of their sites differ with an empty store"

# 2. With history: what the site repeats scores as its weights say
# (1 - sigmoid(-5 + 8 + 2) = 0.0067 of content), and what it does not,
# 1 - sigmoid(-5) = 0.9933, whatever the page alone said.
expect_rc 0 "$PRED" -m "$hm" --history "$T/h.db" -f jsonl -o "$T/hist.jsonl" "$man"
python3 - "$T/hist.jsonl" "$T/s/truth.jsonl" "$man" <<'PY' || die "history did not act as its weights say"
import collections, json, sys
units = [json.loads(l) for l in open(sys.argv[1])]
order = [l.split("\t")[1] for l in open(sys.argv[3]).read().splitlines()[1:]]
by_page = collections.defaultdict(list)
for u in units:
    by_page[u["page"]].append(u)
# a site's first two pages: no other page, or one (a block on one other
# page may be a copy of this one's: not "shared")
first = set()
seen_site = {}
for line in open(sys.argv[3]).read().splitlines()[1:]:
    site, page = line.split("\t")[:2]
    if seen_site.get(site, 0) < 2:
        first.add(page)
    seen_site[site] = seen_site.get(site, 0) + 1
texts = collections.Counter()
for p in order:
    for u in by_page[p]:
        texts[u["text"]] += 1
bad = []
checked = 0
for p in order:
    if p in first:
        continue
    for u in by_page[p]:
        if len(u["text"]) < 20:
            continue
        n = texts[u["text"]]
        if n == len(order) // 2:  # on every page of its site: template
            checked += 1
            if abs(u["p_content"] - 0.0067) > 0.001:
                bad.append("template %r on %s (p %.3f)" % (u["text"][:40], p, u["p_content"]))
        elif n == 1:  # on this page alone: article
            checked += 1
            if abs(u["p_content"] - 0.9933) > 0.001:
                bad.append("unique %r on %s (p %.3f)" % (u["text"][:40], p, u["p_content"]))
if bad or checked < 200:
    sys.exit("%d checked; %s" % (checked, "; ".join(bad[:5])))
PY

# --explain with history: the history stage's move is one more input
# ("history"), and the parts still add up to the final logit.
expect_rc 0 "$PRED" -m "$hm" --history "$T/ex.db" --explain=2 -f jsonl -o "$T/ex.jsonl" "$man"
python3 - "$T/ex.jsonl" <<'PY' || die "--explain does not account for the history stage"
import json, math, sys
seen = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    c = r["explain"]["content"]
    total = c["base"] + c["rest"] + sum(t["contribution"] for t in c["top"])
    assert abs(total - c["logit"]) < 1e-3, (r["path"], total, c["logit"])
    assert abs(1 / (1 + math.exp(-c["logit"])) - (1 - r["p_content"])) < 1e-3, (r["path"], c["logit"], r["p_content"])
    seen += any(t["input"] == "history" for t in c["top"])
assert seen > 50, seen
PY

store() { # DB -> its sites, pages and counts, one line each, in key order
  python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ok = db.execute("PRAGMA integrity_check").fetchone()[0]
if ok != "ok":
    sys.exit("integrity: " + ok)
for r in db.execute("SELECT name, pages FROM sites ORDER BY name"):
    print("site", *r)
for r in db.execute("SELECT s.name, f.fp, f.df FROM fps f JOIN sites s ON s.id = f.site ORDER BY 1, 2"):
    print("fp", *r)
print("pages", db.execute("SELECT count(*) FROM pages").fetchone()[0])
PY
}
store "$T/h.db" > "$T/clean.dump" || die "the store is not intact"
grep -qx "site $site1 24" "$T/clean.dump" || die "site $site1 does not count 24 pages"

# 3. A re-run counts nothing twice.
expect_rc 0 "$PRED" -m "$hm" --history "$T/h.db" -o "$T/again.txt" "$man"
store "$T/h.db" | cmp -s - "$T/clean.dump" || die "a second run over the same pages changed the counts"

# 4. Two passes: count, then decide with the site's other pages.
expect_rc 0 "$PRED" -m "$hm" --history "$T/two.db" --history-count "$man"
[[ ! -s $OUT ]] || die "--history-count wrote output"
store "$T/two.db" | cmp -s - "$T/clean.dump" || die "the counting pass counts otherwise than a one-pass run"
expect_rc 0 "$PRED" -m "$hm" --history "$T/two.db" --history-only --history-rows "$T/rows.tsv" -o "$T/two.txt" "$man"
awk -F'\t' '$4 != 23 {bad++} END {exit !(NR > 0 && !bad)}' "$T/rows.tsv" || die "the decide pass did not see 23 other pages for every page"
store "$T/two.db" | cmp -s - "$T/clean.dump" || die "--history-only wrote to the store"

# 5. Two processes at once, each with half of the pages: the same counts.
(head -1 "$man"; awk -F'\t' 'NR > 1 && NR % 2 == 0' "$man") > "$T/s/even.tsv"
(head -1 "$man"; awk -F'\t' 'NR > 1 && NR % 2 == 1' "$man") > "$T/s/odd.tsv"
"$PRED" -m "$hm" --history "$T/par.db" --history-commit 1 -o "$T/even.txt" "$T/s/even.tsv" 2>"$T/even.err" &
a=$!
"$PRED" -m "$hm" --history "$T/par.db" --history-commit 1 -o "$T/odd.txt" "$T/s/odd.tsv" 2>"$T/odd.err" &
b=$!
wait $a || die "first of two concurrent runs failed: $(cat "$T/even.err")"
wait $b || die "second of two concurrent runs failed: $(cat "$T/odd.err")"
store "$T/par.db" | cmp -s - "$T/clean.dump" || die "two concurrent writers left other counts"
# Six processes creating one new store at once, three times: each gets
# it (setting WAL mode waits for the others, never fails busy).
for round in 1 2 3; do
  rm -f "$T/six.db"*
  pids=()
  for k in 1 2 3 4 5 6; do
    "$PRED" -m "$hm" --history "$T/six.db" -o /dev/null "$TBK_SRC/datasets/examples/news-article.html" \
      2>"$T/six.$k.err" &
    pids+=($!)
  done
  for k in 1 2 3 4 5 6; do
    wait "${pids[$((k - 1))]}" || die "one of six processes opening a new store failed: $(cat "$T/six.$k.err")"
  done
done

# 6. kill -9 at random points: the store stays intact and consistent
# (every committed page's counts, nothing of an uncommitted one), and a
# finishing run completes it to the clean counts.
for i in 1 2 3 4 5 6; do
  "$PRED" -m "$hm" --history "$T/kill.db" --history-commit 2 -o "$T/kill.txt" "$man" 2>/dev/null &
  pid=$!
  sleep "0.0$((RANDOM % 9 + 1))"
  kill -9 $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  [[ -e $T/kill.db ]] || continue
  python3 - "$T/kill.db" <<'PY' || die "store after kill -9 (round $i) is damaged or inconsistent"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
if not db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
    sys.exit(0)  # killed before its tables were made: the next run makes them
pages = dict(db.execute("SELECT id, pages FROM sites"))
rows = dict(db.execute("SELECT site, count(*) FROM pages GROUP BY site"))
assert all(pages[s] == rows.get(s, 0) for s in pages), (pages, rows)
for s, top in db.execute("SELECT site, max(df) FROM fps GROUP BY site"):
    assert top <= pages[s], (s, top, pages[s])
PY
done
expect_rc 0 "$PRED" -m "$hm" --history "$T/kill.db" -o "$T/kill.txt" "$man"
store "$T/kill.db" | cmp -s - "$T/clean.dump" || die "after kill -9 and a finishing run the counts differ from a clean run's"
expect_no_tmp "$T"

# 6b. Files named one by one: each directory is a site (not one site of all).
expect_rc 0 "$PRED" -m "$hm" --history "$T/files.db" -o "$T/files.txt" "$T"/s/pages/*/00[12]*.html
python3 -c "import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); r=sorted(d.execute('SELECT pages FROM sites')); sys.exit(r != [(2,), (2,)])" \
  "$T/files.db" || die "pages of two directories named one by one were not two sites of 2 pages"

# 7. Refused by name: no store for --history-only, a file that is no
# store, a store of another segmentation; usage errors.
expect_rc 1 "$PRED" -m "$hm" --history "$T/missing.db" --history-only "$man"
expect_err "^tbk-predict: error: $T/missing.db: cannot open the history store: "
printf 'not a database, just text\n%.0s' {1..200} > "$T/text.db"
expect_rc 5 "$PRED" -m "$hm" --history "$T/text.db" "$man"
expect_err "^tbk-predict: error: $T/text.db: not a tbk history store \(not an SQLite database\)$"
cp "$T/h.db" "$T/other.db"
python3 -c "import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); d.execute(\"UPDATE meta SET value='blocks=html5 min_chars=40 min_words=3 fp=md5-text' WHERE key='identity'\"); d.commit()" "$T/other.db"
expect_rc 5 "$PRED" -m "$hm" --history "$T/other.db" "$man"
expect_err "^tbk-predict: error: $T/other.db: history store made with another segmentation's fingerprints \(blocks=html5 .*; this run makes blocks=paper "
expect_messages
expect_rc 2 "$PRED" -m "$hm" --history-only "$man"
expect_err "need --history DB"
expect_rc 2 "$PRED" -m "$hm" --history "$T/h.db" --history-count -o "$T/x.txt" "$man"
expect_rc 2 "$PRED" -m "$hm" --history "$man" "$man"
expect_err "input"
echo "ok"
