#!/usr/bin/env bash
# Latin text is measured and tokenized as it was before the text measures
# for scripts without spaces (issue #21): labels, feature rows, word rows
# and the combined stage's predictions (jsonl and text) of the example pages
# and of the Latin-script sites of a synthetic crawl are byte-identical to
# what the build before that change wrote (their MD5s are in
# tests/expected/latin_identical.md5; regenerate them only for an intended
# change of Latin output: the last was data tables a heading away, which
# bring back two cells of a synthetic story's table that its gold holds).
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
cd "$TBK_TMP"
MODEL=$TBK_SRC/models/default.model
python3 "$TBK_SRC/datasets/synth_sites.py" --out syn --seed 11 --sites 6 --pages 12 >/dev/null || die "synth_sites.py failed"
# the sites whose pages hold no Han, Kana or Hangul, and the examples
python3 - <<'PY' || die "no Latin sites"
import csv, re, os
rows = list(csv.reader(open("syn/manifest.tsv", encoding="utf-8"), delimiter="\t"))
cjk = {r[0] for r in rows[1:] if re.search("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]", open(os.path.join("syn", r[1]), encoding="utf-8").read())}
keep = [rows[0]] + [r for r in rows[1:] if r[0] not in cjk]
assert len(keep) > 30, len(keep)
with open("syn/latin.tsv", "w", encoding="utf-8") as f:
    for r in keep:
        f.write("\t".join(r) + "\n")
PY
mkdir -p ex && cp "$TBK_SRC"/datasets/examples/*.html ex/
for input in syn/latin.tsv ex; do
  n=$(basename "$input" .tsv)
  "$LABEL" -q --min-pages 1 -o "$n.labels.jsonl" "$input" || die "tbk-label $input failed"
  "$FEAT" --labels "$n.labels.jsonl" -o "$n.svm" --words "$n.words" --meta "$n.meta" "$input" || die "tbk-features $input failed"
  "$PRED" -m "$MODEL" -f jsonl -o "$n.pred.jsonl" "$input" || die "tbk-predict $input failed"
  "$PRED" -m "$MODEL" -f text -o "$n.pred.txt" "$input" || die "tbk-predict $input failed"
done
md5sum latin.labels.jsonl latin.svm latin.words latin.meta latin.pred.jsonl latin.pred.txt \
  ex.labels.jsonl ex.svm ex.words ex.meta ex.pred.jsonl ex.pred.txt >got.md5
if [ "${TBK_WRITE_EXPECTED:-}" = 1 ]; then cp got.md5 "$TBK_SRC/tests/expected/latin_identical.md5"; fi
diff "$TBK_SRC/tests/expected/latin_identical.md5" got.md5 >&2 || die "Latin output changed"
echo ok
