#!/usr/bin/env bash
# Train the small model the fuzz targets predict with, through the real
# pipeline on synthetic sites (datasets/synth_sites.py: our own text, no
# third-party page), with small word/attribute dimensions so the file stays
# around 20 KB and is a usable fuzz_model seed too.
#
#   fuzz/make_seed_model.sh BUILD_DIR OUT.model [OUT2.model [OUT3.model]]
#
# With OUT2, also a two-stage model (tbk-model 2): the content stage trained
# on the same sites' units against the generator's own gold text (a seed for
# fuzz_model's two-stage path, about 40 KB). With OUT3, OUT2 with the
# content stage without the text model added (tbk-train --nontext-stage en
# --keep-content: the stage content-nontext path).
#
# Refresh the copy in the tree after a feature-schema change with
#   fuzz/make_seed_model.sh build fuzz/corpus/model/seed.model
set -u
[ $# -ge 2 ] && [ $# -le 4 ] || { echo "usage: $0 BUILD_DIR OUT.model [OUT2.model [OUT3.model]]" >&2; exit 2; }
B=$1 OUT=$2 OUT2=${3:-} OUT3=${4:-}
SRC=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null || { echo "python3 not found: skipped" >&2; exit 77; }
W=$OUT.work
rm -rf "$W" && mkdir -p "$W" || exit 1
trap 'rm -rf "$W"' EXIT
python3 "$SRC/datasets/synth_sites.py" --out "$W/sites" --seed 7 --sites 4 --pages 12 >/dev/null || exit 1
"$B/label/tbk-label" -q -o "$W/labels.jsonl" "$W/sites/manifest.tsv" || exit 1
"$B/features/tbk-features" --labels "$W/labels.jsonl" --word-dims 512 --attr-dims 8 \
  -o "$W/f.svm" --words "$W/w.svm" --meta "$W/m.jsonl" "$W/sites/manifest.tsv" || exit 1
"$B/train/tbk-train" -q --cv-folds 2 --nb-folds 2 -o "$OUT" "$W/f.svm" "$W/w.svm" "$W/m.jsonl" || exit 1
echo "$OUT"
[ -n "$OUT2" ] || exit 0
# The generator writes gold/<site>/<id>.txt beside pages/<site>/<id>.html.
python3 - "$W/sites" <<'EOF2' || exit 1
import sys
root = sys.argv[1]
rows = open(root + "/manifest.tsv", encoding="utf-8").read().splitlines()
head = rows[0].split("\t")
out = ["site\tpage\turl\tgold"]
for r in rows[1:]:
    f = dict(zip(head, r.split("\t")))
    out.append("\t".join([f["site"], f["page"], f.get("url", ""), "gold/" + f["page"][len("pages/"):-len(".html")] + ".txt"]))
open(root + "/gold.tsv", "w", encoding="utf-8").write("\n".join(out) + "\n")
EOF2
"$B/label/tbk-label" -q --gold -o "$W/gold.jsonl" "$W/sites/gold.tsv" || exit 1
"$B/features/tbk-features" --units -m "$OUT" --labels "$W/gold.jsonl" --word-dims 512 --attr-dims 8 \
  -o "$W/u.svm" --words "$W/uw.svm" --meta "$W/um.jsonl" "$W/sites/gold.tsv" || exit 1
"$B/train/tbk-train" -q --cv-folds 2 --nb-folds 2 --template "$OUT" -o "$OUT2" "$W/u.svm" "$W/uw.svm" "$W/um.jsonl" ||
  exit 1
echo "$OUT2"
[ -n "$OUT3" ] || exit 0
"$B/train/tbk-train" -q --cv-folds 2 --nb-folds 2 --nontext-stage en --keep-content --template "$OUT2" -o "$OUT3" \
  "$W/u.svm" "$W/uw.svm" "$W/um.jsonl" || exit 1
echo "$OUT3"
