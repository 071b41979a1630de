#!/usr/bin/env bash
# #35: tbk-label --history DB. A site labelled in two runs (two halves of
# its pages) with one store labels the second half as one run over all its
# pages does; the second half alone labels otherwise (the "related" box is
# on 2 of its pages, on 7 of the site's). A re-run counts nothing twice,
# --history-only adds nothing, --min-pages counts the store's pages, a
# store tbk-predict's shipped model counted is shared, and a store of
# another segmentation is refused by name (exit 5).
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/s" --sites 1 --pages 24 --seed 2 >/dev/null || die "synth_sites.py failed"
man=$T/s/manifest.tsv
half() { head -n 1 "$man"; sed -n "$1p" "$man"; }
half 2,13 >"$T/s/a.tsv"
half 14,25 >"$T/s/b.tsv"
# The store's pages for the site, and its fingerprints.
store() {
  python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT coalesce(sum(pages), 0) FROM sites").fetchone()[0],
      db.execute("SELECT count(*) FROM fps").fetchone()[0])' "$1"
}
# The lines of the second half's pages in a run over all pages.
second_half() { grep -F -f <(cut -f2 "$T/s/b.tsv" | tail -n +2 | sed 's/.*/"page":"&"/') "$1"; }

expect_rc 0 "$LABEL" -q --all -o "$T/all.jsonl" "$man"
expect_rc 0 "$LABEL" -q --all --history "$T/h.db" -o "$T/a.jsonl" "$T/s/a.tsv"
[[ $(store "$T/h.db" | cut -d' ' -f1) == 12 ]] || die "run 1 counted $(store "$T/h.db") pages, not 12"
expect_rc 0 "$LABEL" -q --all --history "$T/h.db" -o "$T/b.jsonl" --stats "$T/b.stats" "$T/s/b.tsv"
[[ $(store "$T/h.db" | cut -d' ' -f1) == 24 ]] || die "run 2 left $(store "$T/h.db") pages, not 24"
cmp -s <(second_half "$T/all.jsonl") "$T/b.jsonl" || die "run 2's labels are not those of one run over all pages"
[[ $(wc -l <"$T/b.jsonl") -gt 50 ]] || die "run 2 labelled too few blocks"
awk -F'\t' '$1 != "site" && $2 != 24 {exit 1}' "$T/b.stats" || die "--stats does not count the store's 24 pages"
# Without the store the second half alone labels the related box otherwise.
expect_rc 0 "$LABEL" -q --all -o "$T/b_alone.jsonl" "$T/s/b.tsv"
cmp -s "$T/b_alone.jsonl" "$T/b.jsonl" && die "the second half alone gave the labels of both halves"
grep -q '"label":"template".*"text":"Related articles' "$T/b.jsonl" || die "related box not template with history"
grep -q '"label":"template".*"text":"Related articles' "$T/b_alone.jsonl" && die "related box template in half a site"

# A re-run counts no page twice: the same store, the same labels.
before=$(store "$T/h.db")
expect_rc 0 "$LABEL" -q --all --history "$T/h.db" -o "$T/b2.jsonl" "$T/s/b.tsv"
[[ $(store "$T/h.db") == "$before" ]] || die "a re-run changed the store: $before -> $(store "$T/h.db")"
cmp -s "$T/b.jsonl" "$T/b2.jsonl" || die "a re-run labelled otherwise"
expect_rc 0 "$LABEL" -q --all --history "$T/h.db" -o "$T/all2.jsonl" "$man"
cmp -s "$T/all.jsonl" "$T/all2.jsonl" || die "all pages with a store that holds them differ from one run"

# --history-only reads the store and adds nothing: the first half's store
# gives each second-half page the 12 pages and itself.
expect_rc 0 "$LABEL" -q --history "$T/one.db" -o /dev/null "$T/s/a.tsv"
before=$(store "$T/one.db")
expect_rc 0 "$LABEL" -q --all --history "$T/one.db" --history-only -o "$T/only.jsonl" "$T/s/b.tsv"
[[ $(store "$T/one.db") == "$before" ]] || die "--history-only changed the store: $before -> $(store "$T/one.db")"
grep -q '"pages":13,' "$T/only.jsonl" || die "--history-only did not count the store's pages and the page"
grep -q '"pages":\(24\|12\),' "$T/only.jsonl" && die "--history-only counted other pages"
expect_rc 1 "$LABEL" -q --history "$T/none.db" --history-only "$T/s/b.tsv"
expect_err "^tbk-label: error: $T/none.db: "
expect_absent "$T/none.db"

# --min-pages counts the store's pages: 6 pages are skipped, but counted,
# and the next 6 reach the minimum of 10.
half 2,7 >"$T/s/c1.tsv"
half 8,13 >"$T/s/c2.tsv"
expect_rc 3 "$LABEL" -q --history "$T/min.db" -o "$T/c1.jsonl" "$T/s/c1.tsv"
expect_err "^tbk-label: warning: site [^ ]+: only 6 pages in the history store < --min-pages 10 \(skipped\)$"
[[ ! -s $T/c1.jsonl ]] || die "a site below --min-pages was labelled"
expect_rc 0 "$LABEL" -q --history "$T/min.db" -o "$T/c2.jsonl" "$T/s/c2.tsv"
grep -q '"pages":12,' "$T/c2.jsonl" || die "the second run did not label with the store's 12 pages"

# tbk-predict's shipped model fingerprints as tbk-label does: its store
# labels alike.
expect_rc 0 "$PRED" -m "$TBK_SRC/models/default.model" --history "$T/p.db" --history-count "$T/s/a.tsv"
expect_rc 0 "$LABEL" -q --all --history "$T/p.db" -o "$T/pb.jsonl" "$T/s/b.tsv"
cmp -s "$T/b.jsonl" "$T/pb.jsonl" || die "a store tbk-predict counted labels otherwise"

# Another segmentation's store is refused by name; misuse is a usage error.
expect_rc 5 "$LABEL" -q --min-chars 30 --history "$T/h.db" "$T/s/b.tsv"
expect_err "^tbk-label: error: $T/h.db: history store made with another segmentation's fingerprints \(blocks=paper min_chars=40 .*; this run makes blocks=paper min_chars=30 .*\): use a store made with the same segmentation$"
expect_rc 2 "$LABEL" --history-only "$T/s/b.tsv"
expect_err "^tbk-label: error: --history-only needs --history DB$"
expect_rc 2 "$LABEL" --method chunks --history "$T/h.db" "$T/s/b.tsv"
expect_err "^tbk-label: error: --history counts the block labeller's sites"
expect_rc 2 "$LABEL" --history "" "$T/s/b.tsv"
expect_rc 2 "$LABEL" --history "$T/s/b.tsv" "$T/s/b.tsv"
expect_err "^tbk-label: error: $T/s/b.tsv: output is also an input of this run"
echo "ok"
