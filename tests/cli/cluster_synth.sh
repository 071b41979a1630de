#!/bin/bash
# tbk-cluster on generated hosts that each serve three templates, pages
# interleaved (datasets/synth_mixed.py): within each host (--sites) the
# clusters are the templates (ARI >= 0.98 against truth.tsv, scored by
# tbk-eval cluster); over all hosts no cluster mixes two template styles;
# the output is the same on a second run, as TSV and as JSONL; the usage
# errors; tbk-label --clusters judges blocks within the clusters; tbk-eval
# cluster --curve writes its rows and plot.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
cd "$TBK_TMP" || die "no scratch dir"
CLUSTER=$TBK_BIN/cluster/tbk-cluster
PROG=tbk-cluster

python3 "$TBK_SRC/datasets/synth_mixed.py" --out mix --hosts 4 --templates 3 --pages 20 --seed 3 ||
  die "synth_mixed.py failed"
[[ $(tail -n +2 mix/manifest.tsv | wc -l) -eq 240 ]] || die "240 pages expected"

expect_rc 0 "$CLUSTER" -q --sites -o sites.tsv mix/manifest.tsv
[[ $(head -n 1 sites.tsv) == $'page\tsite\tcluster\tsize' ]] || die "TSV header"
[[ $(tail -n +2 sites.tsv | wc -l) -eq 240 ]] || die "one row per page expected"
expect_rc 0 "$EVAL" cluster --reference mix/truth.tsv --splits splits.tsv sites.tsv
ari=$(sed -n 's/.*"ari":\([0-9.]*\).*/\1/p' "$OUT")
python3 -c "import sys; sys.exit(0 if float('$ari') >= 0.98 else 1)" ||
  die "--sites: ARI $ari < 0.98 against the templates: $(cat "$OUT")"
grep -q '"groups":12' "$OUT" || die "12 templates expected: $(cat "$OUT")"
# A row of the splits per (template, cluster): 12 when no template splits.
[[ $(tail -n +2 splits.tsv | wc -l) -eq 12 ]] || die "a template split: $(cat splits.tsv)"

# Against the sites, a site of three templates is three clusters: ARI well
# below 1, purity 1 (no cluster spans two hosts with --sites).
expect_rc 0 "$EVAL" cluster sites.tsv
grep -q '"purity":1.0000' "$OUT" || die "--sites: a cluster spans hosts: $(cat "$OUT")"
grep -q '"clusters":12' "$OUT" || die "12 clusters expected: $(cat "$OUT")"

# Global mode: the same style on two hosts is one template's tag paths, so
# clusters may join hosts but never two styles.
expect_rc 0 "$CLUSTER" -q -o all.tsv mix/manifest.tsv
awk -F'\t' 'NR == 1 {print "page\tsite"; next} {split($2, a, "/"); print $1 "\t" a[2]}' mix/truth.tsv >style.tsv
expect_rc 0 "$EVAL" cluster --reference style.tsv all.tsv
grep -q '"purity":1.0000' "$OUT" || die "global: a cluster mixes styles: $(cat "$OUT")"

# The seed's pathno over the whole host finds the same templates here.
expect_rc 0 "$CLUSTER" -q --sites --pathno group -o group.tsv mix/manifest.tsv
expect_rc 0 "$EVAL" cluster --reference mix/truth.tsv group.tsv
grep -q '"clusters":12,"groups":12,"ari":1.0000' "$OUT" || die "--pathno group: $(cat "$OUT")"

# Deterministic: the same bytes again; JSONL carries the same assignment.
expect_rc 0 "$CLUSTER" -q --sites -o again.tsv mix/manifest.tsv
cmp -s sites.tsv again.tsv || die "a second run differs"
expect_rc 0 "$CLUSTER" -q --sites --format jsonl -o sites.jsonl mix/manifest.tsv
python3 - sites.tsv sites.jsonl <<'PY' || die "JSONL differs from TSV"
import json, sys
tsv = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
js = [json.loads(l) for l in open(sys.argv[2])]
assert [[r["page"], r["site"], str(r["cluster"]), str(r["size"])] for r in js] == tsv
PY
# The summary on stderr without -q.
expect_rc 0 "$CLUSTER" --sites -o /dev/null mix/manifest.tsv
expect_err '^240 pages, 12 clusters; [0-9]+ candidate pairs'

# tbk-label --clusters labels each host (4 of 60 pages), a block judged
# template within its cluster of 20 pages (df >= 5, a quarter: tbk_cluster_template_df),
# content only when unique on the host.
expect_rc 0 "$LABEL" -q --clusters sites.tsv --stats stats.tsv -o labels.jsonl mix/manifest.tsv
[[ $(tail -n +2 stats.tsv | awk -F'\t' '$1 ~ /^host/ && $2 == 60 && $9 == "labelled"' | wc -l) -eq 4 ]] ||
  die "--clusters: 4 labelled hosts of 60 pages expected: $(cat stats.tsv)"
python3 - labels.jsonl <<'PY' || die "--clusters: labels not judged within the clusters"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines and all(o["cluster_pages"] == 20 for o in lines)
t = [o for o in lines if o["label"] == "template"]
assert t and all(o["cluster_df"] >= 5 for o in t), "a template below the cluster threshold"
assert all(o["df"] == 1 for o in lines if o["label"] == "content"), "content repeated on the host"
PY
# --method chunks labels each cluster as a site: 12 groups of 20.
expect_rc 0 "$LABEL" -q --method chunks --clusters sites.tsv --stats chunks.tsv -o /dev/null mix/manifest.tsv
[[ $(tail -n +2 chunks.tsv | awk -F'\t' '$1 ~ /^c[0-9]+$/ && $2 == 20 && $NF == "labelled"' | wc -l) -eq 12 ]] ||
  die "--method chunks --clusters: 12 labelled clusters of 20 pages expected: $(cat chunks.tsv)"
# A page the assignment lacks is skipped and reported (exit 3).
grep -v 'p0007.html' sites.tsv >fewer.tsv
PROG=tbk-label
expect_rc 3 "$LABEL" -q --clusters fewer.tsv -o /dev/null mix/manifest.tsv
expect_err 'p0007.html: in no cluster of fewer.tsv \(skipped\)'
expect_messages
expect_rc 1 "$LABEL" -q --clusters mix/truth.tsv -o /dev/null mix/manifest.tsv
expect_err 'header needs "page" and "cluster" columns'
PROG=tbk-cluster

# Usage errors exit 2, --help 0.
expect_rc 2 "$CLUSTER"
expect_err "no input given"
expect_rc 2 "$CLUSTER" --bands 0 mix/manifest.tsv
expect_rc 2 "$CLUSTER" --format xml mix/manifest.tsv
expect_rc 2 "$CLUSTER" --paths dom mix/manifest.tsv
expect_rc 2 "$CLUSTER" --pathno site mix/manifest.tsv
expect_err "component or group"
expect_rc 0 "$CLUSTER" --help
grep -q '^Usage: tbk-cluster' "$OUT" || die "--help"
expect_rc 2 "$EVAL" cluster
expect_rc 2 "$EVAL" cluster --csv x.csv sites.tsv
expect_rc 2 "$EVAL" cluster --curve 10,5 mix/manifest.tsv

# The scale curve: a row per size, the plot, the copies found again.
expect_rc 0 "$EVAL" cluster --curve 100,480 --csv curve.csv --svg curve.svg --no-progress mix/manifest.tsv
[[ $(wc -l <curve.csv) -eq 3 ]] || die "curve: 2 rows expected: $(cat curve.csv)"
grep -q '^480,12,' curve.csv || die "curve: 480 pages (each page twice) in the 12 templates: $(cat curve.csv)"
grep -q '<svg' curve.svg || die "curve: no SVG"
echo ok
