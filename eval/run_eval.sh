#!/bin/bash
# run_eval.sh — reproduce every number of EVALUATION.md.
#
# Usage: eval/run_eval.sh [WORK_DIR]            (default: $TBK_BUILD/eval-run)
#
# Environment:
#   TBK_BUILD    build directory with the programs (default: <repo>/build;
#                binaries at $TBK_BUILD/label/tbk-label etc.)
#   TBK_DATA     data sets (default: <repo>/datasets/cache, filled by
#                datasets/unpack.sh from ../shared/datasets)
#   PEERS_OUT    bench/peers/run_peers.sh output root, one directory per data
#                set: $PEERS_OUT/<dataset>/<tool>/<site>/<id>.txt (default:
#                $WORK_DIR/peers). Tools whose directory exists are scored.
#   RUN_PEERS=1  run bench/peers/run_peers.sh first for the gold data sets
#                whose $PEERS_OUT/<dataset> does not exist (needs
#                bench/peers/install.sh; about 10 minutes)
#   CV_FOLDS     folds of the cross-site CV (default 10)
#   REUSE=1      keep features and models already in WORK_DIR (re-score only)
#   TRAIN_OPTS   extra tbk-train options for the models and the CV, e.g.
#                "--encoding raw" (docs/experiments/evaluation-template-stage.md "Encoding")
#   CONTENT_OPTS tbk-train options of the content stages (default
#                "--nontext-stage en", as models/build_default.sh trains
#                the shipped one; "--context 3" for the contextual pass)
#
# Steps: unpack the shared archives; label + features for every training
# data set (site_mirrors, debian_docs when built, swde_wren, dragnet,
# msv_big9_chaos; tbk-label skips sites with < 10 pages); for each gold data
# set train a model on the training data WITHOUT any site of that data set
# (rows filtered by site), predict its pages, score tbk, the no-removal
# baseline and the peers with tbk-eval gold (and bench/peers/score_dir.py as
# a cross-check); the content stage: gold labels of the gold data sets
# (tbk-label --gold), and for each evaluated set a two-stage model whose
# content stage is trained on the OTHER gold sets only, without any of the
# evaluated set's sites (leave one data set out), its unit features
# computed with that set's honest template model; plus the content stage
# alone (no template inputs) as an ablation; trafilatura's snippets;
# cross-site CV of the pooled training data; robustness tables (pages
# under F1 0.5 / 0.8, by kind of page: eval/page_kind.py, eval/robustness.py);
# calibration of p_content by kind of page (eval/calibration.py).
# Results: WORK_DIR/results/ (tables.md, robustness.md, kinds.tsv, *.jsonl,
# per-page/, cv/, calibration.md, calibration/).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${TBK_BUILD:-$SRC/build}
DATA=${TBK_DATA:-$SRC/datasets/cache}
WORK=${1:-$BUILD/eval-run}
CV_FOLDS=${CV_FOLDS:-10}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
PEERS_OUT=${PEERS_OUT:-$WORK/peers}
LABEL=$BUILD/label/tbk-label FEATURES=$BUILD/features/tbk-features TRAIN=$BUILD/train/tbk-train
PREDICT=$BUILD/predict/tbk-predict EVAL=$BUILD/eval/tbk-eval
for b in "$LABEL" "$FEATURES" "$TRAIN" "$PREDICT" "$EVAL"; do
  [ -x "$b" ] || { echo "run_eval.sh: $b missing (build first, or set TBK_BUILD)" >&2; exit 2; }
done
log() { echo "run_eval.sh: $(date +%H:%M:%S) $*" >&2; }
# Run tbk-predict under GNU time and append "dataset tbk pages bytes wall
# extract cpu" to speed.tsv (extract = wall: tbk has no start-up to leave
# out; cpu = user + sys, which a busy machine disturbs less than wall).
timed() { # DATASET PAGES PAGES_DIR COMMAND...
  local d=$1 pages=$2 dir=$3
  shift 3
  /usr/bin/time -f "%e %U %S" -o "$WORK/results/time.$d.txt" "$@" || [ $? -eq 3 ]
  read -r wall user sys < "$WORK/results/time.$d.txt"
  printf '%s\ttbk\t%s\t%s\t%s\t%s\t%s\n' "$d" "$pages" "$(du -cb "$dir" | tail -1 | cut -f1)" "$wall" "$wall" \
    "$(echo "$user + $sys" | bc)" >> "$WORK/results/speed.tsv"
}

# 1. Data.
set +e
"$SRC/datasets/unpack.sh" "$SRC/../shared/datasets" "$DATA" >&2
rc=$?
set -e
[ $rc -eq 0 ] || [ -f "$DATA/dragnet/manifest.tsv" ] || { echo "run_eval.sh: no data sets (unpack.sh exit $rc)" >&2; exit $rc; }

TRAIN_SETS="site_mirrors swde_wren dragnet msv_big9_chaos"
if [ -f "$DATA/debian_docs/manifest.tsv" ]; then
  TRAIN_SETS="site_mirrors debian_docs swde_wren dragnet msv_big9_chaos"
else
  log "debian_docs not built (datasets/debian-docs.sh): training without it"
fi
GOLD_SETS="dragnet msv_big9_chaos scrapinghub_aeb"

# 2. Labels and features of every training set.
mkdir -p "$WORK/feat" "$WORK/models" "$WORK/pred" "$WORK/results"
for d in $TRAIN_SETS; do
  f=$WORK/feat/$d
  [ "${REUSE:-0}" = 1 ] && [ -s "$f.meta" ] && continue
  log "label + features: $d"
  "$LABEL" -q --stats "$f.stats.tsv" -o "$f.labels.jsonl" "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
  "$FEATURES" --labels "$f.labels.jsonl" -o "$f.svm" --words "$f.words" --meta "$f.meta" \
    "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
done

# A training set's rows without those of the sites listed in a file.
filter_rows() { python3 "$SRC/eval/filter_rows.py" "$@"; } # IN_PREFIX OUT_PREFIX SITES_FILE

# 3. One honest model per gold data set (and one for trafilatura_eval):
# trained on every training set except the evaluated one, and without any
# row of a site that occurs in the evaluated data set.
for g in $GOLD_SETS trafilatura_eval; do
  [ "${REUSE:-0}" = 1 ] && [ -s "$WORK/models/no-$g.model" ] && continue
  sites=$WORK/models/$g.exclude-sites
  tail -n +2 "$DATA/$g/manifest.tsv" | cut -f1 | sort -u > "$sites"
  triples=()
  for d in $TRAIN_SETS; do
    [ "$d" = "$g" ] && continue
    filter_rows "$WORK/feat/$d" "$WORK/models/$g.from-$d" "$sites"
    triples+=("$WORK/models/$g.from-$d.svm" "$WORK/models/$g.from-$d.words" "$WORK/models/$g.from-$d.meta")
  done
  log "train model without $g"
  # shellcheck disable=SC2086 # TRAIN_OPTS is a list of options
  "$TRAIN" -q --cv-folds 0 ${TRAIN_OPTS:-} -o "$WORK/models/no-$g.model" "${triples[@]}"
done

# 3b. The content stage. Gold labels are model-free, so once per gold set.
CONTENT_OPTS=${CONTENT_OPTS---nontext-stage en}
mkdir -p "$WORK/units"
for d in $GOLD_SETS; do
  f=$WORK/units/$d.labels.jsonl
  [ "${REUSE:-0}" = 1 ] && [ -s "$f" ] && continue
  log "gold labels: $d"
  "$LABEL" --gold -q -o "$f" "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
done
# For each evaluated set g: unit rows of every other gold set with g's
# honest template model (and without one, for the ablation), rows of g's
# sites dropped; then the two-stage model and the content-only model.
for g in $GOLD_SETS trafilatura_eval; do
  [ "${REUSE:-0}" = 1 ] && [ -s "$WORK/models/no-$g.two.model" ] && [ -s "$WORK/models/no-$g.content.model" ] && continue
  sites=$WORK/models/$g.exclude-sites
  two=() alone=()
  for d in $GOLD_SETS; do
    [ "$d" = "$g" ] && continue
    for kind in two alone; do
      u=$WORK/units/$g.$kind.$d
      m=()
      [ $kind = two ] && m=(-m "$WORK/models/no-$g.model")
      "$FEATURES" --units "${m[@]}" --labels "$WORK/units/$d.labels.jsonl" -o "$u.all.svm" --words "$u.all.words" \
        --meta "$u.all.meta" "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
      filter_rows "$u.all" "$u" "$sites"
      if [ $kind = two ]; then two+=("$u.svm" "$u.words" "$u.meta"); else alone+=("$u.svm" "$u.words" "$u.meta"); fi
    done
  done
  log "train content stages without $g"
  # shellcheck disable=SC2086 # CONTENT_OPTS is a list of options
  "$TRAIN" -q --cv-folds 0 $CONTENT_OPTS --template "$WORK/models/no-$g.model" -o "$WORK/models/no-$g.two.model" "${two[@]}"
  # shellcheck disable=SC2086
  "$TRAIN" -q --cv-folds 0 $CONTENT_OPTS --template "$WORK/models/no-$g.model" -o "$WORK/models/no-$g.content.model" "${alone[@]}"
done

# 4. Predict, time it, score tbk, the baseline and the peers.
: > "$WORK/results/gold.jsonl"
: > "$WORK/results/speed.tsv"
: > "$WORK/results/crosscheck.tsv"
score() { # DATASET TOOL DIR [extra tbk-eval args]
  local d=$1 tool=$2 dir=$3
  shift 3
  for gold in main comments; do
    [ "$gold" = comments ] && [ "$d" != dragnet ] && continue
    local opt=()
    [ "$gold" = comments ] && opt=(--comments)
    "$EVAL" gold "${opt[@]}" --name "$d/$tool" --per-page "$WORK/results/per-page/$d.$tool.$gold.tsv" "$@" \
      "$DATA/$d/manifest.tsv" ${dir:+"$dir"} | sed "s/^{/{\"dataset\": \"$d\", \"tool\": \"$tool\", /" \
      >> "$WORK/results/gold.jsonl"
  done
}
mkdir -p "$WORK/results/per-page"
for d in $GOLD_SETS; do
  if [ "${RUN_PEERS:-0}" = 1 ] && [ ! -d "$PEERS_OUT/$d" ]; then
    log "peers on $d"
    "$SRC/bench/peers/run_peers.sh" "$DATA/$d/manifest.tsv" "$PEERS_OUT/$d"
  fi
  log "predict + score: $d"
  rm -rf "$WORK/pred/$d" "$WORK/pred/$d.template" "$WORK/pred/$d.content" "$WORK/pred/$d.comments" \
    "$WORK/pred/$d.no-title" "$WORK/pred/$d.body"
  # Every page of the gold data sets has gold, so the whole manifest is run.
  pages=$(($(wc -l < "$DATA/$d/manifest.tsv") - 1))
  timed "$d" "$pages" "$DATA/$d/pages" \
    "$PREDICT" -m "$WORK/models/no-$d.two.model" --output-dir "$WORK/pred/$d" "$DATA/$d/manifest.tsv"
  score "$d" tbk "$WORK/pred/$d"
  "$PREDICT" -m "$WORK/models/no-$d.two.model" --stage template --output-dir "$WORK/pred/$d.template" \
    "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
  score "$d" tbk-template-stage "$WORK/pred/$d.template"
  "$PREDICT" -m "$WORK/models/no-$d.content.model" --stage content --output-dir "$WORK/pred/$d.content" \
    "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
  score "$d" tbk-content-stage "$WORK/pred/$d.content"
  # The gold sets disagree on the headline (msv_big9_chaos and dragnet
  # count it, scrapinghub_aeb's articleBody does not): both are shown.
  "$PREDICT" -m "$WORK/models/no-$d.two.model" --no-title --output-dir "$WORK/pred/$d.no-title" \
    "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
  score "$d" tbk-no-title "$WORK/pred/$d.no-title"
  # The articleBody alone (schema.org): what scrapinghub_aeb's gold is.
  "$PREDICT" -m "$WORK/models/no-$d.two.model" --body --output-dir "$WORK/pred/$d.body" \
    "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
  score "$d" "tbk --body" "$WORK/pred/$d.body"
  if [ "$d" = dragnet ]; then
    "$PREDICT" -m "$WORK/models/no-$d.two.model" --keep comments --output-dir "$WORK/pred/$d.comments" \
      "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
    score "$d" tbk-keep-comments "$WORK/pred/$d.comments"
  fi
  score "$d" baseline "" --baseline
  for tool in boilerpipe-article boilerpipe-default readability-lxml mozilla-readability; do
    dir=$PEERS_OUT/$d/$tool
    [ -d "$dir" ] || continue
    score "$d" "$tool" "$dir"
    [ -f "$dir/timing.json" ] && python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
print("%s\t%s\t%s\t%s\t%s\t%s\t%.2f" % (sys.argv[2], sys.argv[3], t["pages"], t["bytes"], t["wall_seconds"],
                                      t["extract_seconds"], t["user_seconds"] + t["sys_seconds"]))' \
      "$dir/timing.json" "$d" "$tool" >> "$WORK/results/speed.tsv"
  done
  # Cross-check of the metric with the peers' reference scorer.
  for tool in tbk boilerpipe-article readability-lxml mozilla-readability; do
    dir=$WORK/pred/$d/pages
    [ "$tool" = tbk ] || dir=$PEERS_OUT/$d/$tool
    [ -d "$dir" ] || continue
    python3 "$SRC/bench/peers/score_dir.py" "$DATA/$d/manifest.tsv" "$dir" |
      python3 -c 'import json, sys; j = json.load(sys.stdin); print("\t".join([sys.argv[1], sys.argv[2]] + ["%.4f" % j[k] for k in ("precision_mean", "recall_mean", "f1_mean", "f1_median")]))' "$d" "$tool" \
      >> "$WORK/results/crosscheck.tsv"
  done
done

# 5. trafilatura's snippets (no peers: run_peers.sh only runs pages with gold).
d=trafilatura_eval
log "predict + snippets: $d"
rm -rf "$WORK/pred/$d"
rm -rf "$WORK/pred/$d.template"
timed "$d" "$(($(wc -l < "$DATA/$d/manifest.tsv") - 1))" "$DATA/$d/pages" \
  "$PREDICT" -m "$WORK/models/no-$d.two.model" --output-dir "$WORK/pred/$d" "$DATA/$d/manifest.tsv"
"$PREDICT" -m "$WORK/models/no-$d.two.model" --stage template --output-dir "$WORK/pred/$d.template" \
  "$DATA/$d/manifest.tsv" || [ $? -eq 3 ]
{
  "$EVAL" snippets --name tbk "$DATA/$d/evaldata.json" "$DATA/$d/evaldata_pages.tsv" "$WORK/pred/$d" || [ $? -eq 3 ]
  "$EVAL" snippets --name tbk-template-stage "$DATA/$d/evaldata.json" "$DATA/$d/evaldata_pages.tsv" \
    "$WORK/pred/$d.template" || [ $? -eq 3 ]
  "$EVAL" snippets --baseline --name baseline "$DATA/$d/evaldata.json" "$DATA/$d/evaldata_pages.tsv" || [ $? -eq 3 ]
} > "$WORK/results/snippets.jsonl"

# 6. Cross-site CV of the pooled training data (the paper's ablation).
log "cross-site CV ($CV_FOLDS folds) on $TRAIN_SETS"
[ "${REUSE:-0}" = 1 ] && [ -s "$WORK/results/cv.md" ] || {
triples=()
for d in $TRAIN_SETS; do triples+=("$WORK/feat/$d.svm" "$WORK/feat/$d.words" "$WORK/feat/$d.meta"); done
# shellcheck disable=SC2086
"$EVAL" cv -q --folds "$CV_FOLDS" ${TRAIN_OPTS:-} --out "$WORK/results/cv" \
  --title "tbk, cross-site CV on $(echo $TRAIN_SETS | tr ' ' '+')" "${triples[@]}" > "$WORK/results/cv.md"
}

# 6b. Keywords on page-specific meta keywords (docs/experiments/evaluation-keywords.md
# "Keywords on page-specific meta keywords"): tbk-keywords' ranking with -d none /
# template / content, each set with its leave-one-set-out model when built.
log "keywords on page-specific meta keywords"
TBK_BUILD=$BUILD TBK_DATA=$DATA MODELS_DIR=$WORK/models "$SRC/eval/keywords_page_specific.sh" \
  "$WORK/results/keywords_page_specific" >"$WORK/results/keywords_page_specific.md"

# Kinds of page (eval/page_kind.py's rule, from the HTML alone: the kinds
# do not depend on tbk, so REUSE=1 keeps them), for 6c and 7b.
if ! { [ "${REUSE:-0}" = 1 ] && [ -s "$WORK/results/kinds.tsv" ]; }; then
  log "kinds of page of $GOLD_SETS"
  manifests=()
  for d in $GOLD_SETS; do manifests+=("$DATA/$d/manifest.tsv"); done
  python3 "$SRC/eval/page_kind.py" "${manifests[@]}" > "$WORK/results/kinds.tsv"
fi

# 6c. Calibration of p_content (issue #31): per gold set, the honest
# two-stage model's p_content against the gold labels of step 3b, per kind of
# page and for long prose (units of 25+ words and 2+ sentences): reliability
# tables (calibration/<set>.md, .tsv) and plots (<set>.svg, <set>.prose.svg).
# Re-run alone: eval/calibration.py -m MODEL --labels LABELS MANIFEST.
mkdir -p "$WORK/results/calibration"
for d in $GOLD_SETS; do
  log "calibration of p_content: $d"
  kinds=()
  [ -s "$WORK/results/kinds.tsv" ] && kinds=(--kinds "$WORK/results/kinds.tsv")
  TBK_BUILD=$BUILD python3 "$SRC/eval/calibration.py" -m "$WORK/models/no-$d.two.model" \
    --labels "$WORK/units/$d.labels.jsonl" "${kinds[@]}" --worst 20 \
    --out "$WORK/results/calibration/$d" "$DATA/$d/manifest.tsv" > /dev/null
done
cat "$WORK/results/calibration/"*.md > "$WORK/results/calibration.md"

# 7. Tables.
python3 - "$WORK/results" <<'EOF'
import collections, json, os, sys
res = sys.argv[1]
speed = collections.defaultdict(dict)
for line in open(os.path.join(res, "speed.tsv")):
    f = line.rstrip("\n").split("\t")
    d, tool, pages, nbytes, wall = f[0], f[1], int(f[2]), int(f[3]), float(f[4])
    speed[d][tool] = (pages / wall, pages / float(f[5]), pages / float(f[6]))
rows = [json.loads(l) for l in open(os.path.join(res, "gold.jsonl"))]
out = []
for d in dict.fromkeys(r["dataset"] for r in rows):
    for gold in ("main", "main+comments"):
        sel = [r for r in rows if r["dataset"] == d and r["gold"] == gold]
        if not sel:
            continue
        out.append("### %s (%d pages, gold: %s)\n" % (d, sel[0]["pages"], "main text" if gold == "main" else "main text + comments"))
        out.append("| tool | P mean | R mean | F1 mean | P median | R median | F1 median | empty | pages/s wall | pages/s extraction | pages/s CPU |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in sorted(sel, key=lambda r: -r["f1_mean"]):
            sp = speed[d].get(r["tool"])
            sp = ["%.0f" % x for x in sp] if sp else ["-"] * 3
            out.append("| %s | %.3f | %.3f | **%.3f** | %.3f | %.3f | %.3f | %d | %s | %s | %s |" % (
                r["tool"], r["precision_mean"], r["recall_mean"], r["f1_mean"], r["precision_median"],
                r["recall_median"], r["f1_median"], r["empty_outputs"], *sp))
        out.append("")
sn = [json.loads(l) for l in open(os.path.join(res, "snippets.jsonl"))]
out.append("### trafilatura_eval snippets (%d pages, %d with / %d without)\n" % (sn[0]["pages"], sn[0]["with"], sn[0]["without"]))
out.append("| tool | precision | recall | accuracy | F1 | TP | FN | FP | TN |")
out.append("|---|---|---|---|---|---|---|---|---|")
for s in sn:
    out.append("| %s | %.3f | %.3f | %.3f | **%.3f** | %d | %d | %d | %d |" % (
        s["name"], s["precision"], s["recall"], s["accuracy"], s["f1"], s["tp"], s["fn"], s["fp"], s["tn"]))
out.append("")
out.append("### cross-site CV\n")
out.append(open(os.path.join(res, "cv.md")).read())
open(os.path.join(res, "tables.md"), "w").write("\n".join(out) + "\n")
print("\n".join(out))
EOF
# 7b. Robustness: per gold set and tool the pages under F1 0.5 and 0.8; F1
# by kind of page (the kinds of step 6c); the peers' pages under 0.5;
# tbk's 20 worst pages. Re-run alone: eval/robustness.py WORK/results.
python3 "$SRC/eval/robustness.py" --pages-under peers --worst 20 "$WORK/results" > "$WORK/results/robustness.md"
{
  echo "### Robustness: pages under F1 0.5 and 0.8, and by kind of page"
  echo
  cat "$WORK/results/robustness.md"
} >> "$WORK/results/tables.md"
log "done: $WORK/results/tables.md, $WORK/results/robustness.md, $WORK/results/cv/pr.svg"
