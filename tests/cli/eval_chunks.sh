#!/usr/bin/env bash
# tbk-eval chunks on the table-template sites of synth_table_sites.py, whose
# template nodes are known: every template node is found and nothing more
# (ttdr 1) on every variant at the default threshold; the paper's count of
# template keys misses the repeated menu with --key text and not with
# --key text+path; the experiments write their CSV and SVG.
. "$(dirname "$0")/lib.sh"
set -e
need_python
PROG="tbk-eval chunks"
tmp_reset
cd "$TBK_TMP"

python3 "$TBK_SRC/datasets/synth_table_sites.py" --out syn --sites 4 --pages 20 --seed 5 || die "synth_table_sites.py failed"
[[ $(tail -n +2 syn/manifest.tsv | wc -l) == 80 ]] || die "expected 80 pages"

expect_rc 0 "$EVAL" chunks -q --truth syn/chunk_truth.tsv -o t.tsv syn/manifest.tsv
python3 - t.tsv <<'PY' || die "ttdr not 1 on every variant: $(cat t.tsv)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
assert len(rows) == 4, rows
for r in rows:
    assert r["ttdr"] == "1.0000" and r["extra"] == "0" and r["found"] == r["nt"], r
    rep = r["site"].endswith("repeated")
    assert (float(r["ttdr_keys"]) < 0.9) == rep, r
    assert 0 < float(r["atf"]) < 1, r
PY
expect_rc 0 "$EVAL" chunks -q --key text+path --truth syn/chunk_truth.tsv -o p.tsv syn/manifest.tsv
awk -F'\t' 'NR > 1 && ($12 != "1.0000" || $13 != "1.0000") { bad = 1 } END { exit bad }' p.tsv || die "text+path: $(cat p.tsv)"

# Sampling: 3 draws each of 2, 5 and 20 pages: 3 x 3 rows a site; with 2
# pages no key reaches df 3, so nothing is found.
expect_rc 0 "$EVAL" chunks -q --truth syn/chunk_truth.tsv --sample 2,5,20 --reps 3 --csv s.csv --svg s.svg \
  --time-svg st.svg -o /dev/null syn/manifest.tsv
[[ $(wc -l <s.csv) == $((1 + 4 * 9)) ]] || die "sample rows: $(wc -l <s.csv)"
grep -q '^tbl00-fixed,20,2,0,0,' s.csv || die "2 pages: $(grep '^tbl00-fixed,20,2,' s.csv)"
awk -F, '$3 == 20 && $9 != "1.0000" { bad = 1 } END { exit bad }' s.csv || die "all pages drawn: ttdr not 1"
grep -q '<polyline' s.svg && grep -q '</svg>' st.svg || die "plots"
# The df curve: at df 20 only what is on every page is found: the optional
# and variant nodes are missed.
expect_rc 0 "$EVAL" chunks -q --truth syn/chunk_truth.tsv --df-curve 2,3,20 --csv c.csv --svg c.svg -o /dev/null \
  syn/manifest.tsv
grep -q '^tbl00-fixed,20,20,[0-9]*,[0-9]*,[0-9]*,0,1.0000$' c.csv || die "fixed at df 20: $(cat c.csv)"
awk -F, '$1 ~ /optional|variants/ && $3 == 20 && $8 >= 1 { bad = 1 } END { exit bad }' c.csv || die "df 20 found optional nodes"

# Usage errors.
expect_rc 2 "$EVAL" chunks --sample 4,2 syn/manifest.tsv
expect_rc 2 "$EVAL" chunks --sample 2 --df-curve 3 syn/manifest.tsv
expect_rc 2 "$EVAL" chunks --csv x.csv syn/manifest.tsv
expect_rc 1 "$EVAL" chunks --truth syn/manifest.tsv syn/manifest.tsv
expect_err 'no site, md5 or tpath'
expect_messages
echo "eval_chunks: ok"
