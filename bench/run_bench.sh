#!/usr/bin/env bash
# Benchmarks of tbk: page-stage throughput against the libxml2 baseline, per
# mode in its own process (peak RSS is per process), and optionally training
# time on synthetic data. Prints markdown (machine, tables) on stdout; raw
# TSV and logs go to the results directory. See bench/README.md.
#
# Usage: bench/run_bench.sh [OPTION]... [DATASET_MANIFEST...]
#   -r R          repetitions per mode, best kept (default 3)
#   -m MODEL      model for predict (default: models/default.model if present,
#                 else one trained here from the first dataset)
#   --train       also time tbk-train on synthetic rows ($TRAIN_ROWS, default
#                 "100000 1000000"), under a virtual-memory cap of
#                 $TRAIN_MEM_GB GiB (default 12) so a run cannot take the
#                 machine down
#   --no-pages    skip the page benchmarks (with --train)
#   --cpu N       pin each tbk-bench process to CPU N
#   --report-only print the tables from the TSV files already in $OUT
#                 (no build, no runs)
# Environment: BUILD_DIR (default <src>/build-bench), OUT (results directory,
# default $BUILD_DIR/bench-results).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$SRC/build-bench}
OUT=${OUT:-$BUILD_DIR/bench-results}
TRAIN_ROWS=${TRAIN_ROWS:-"100000 1000000"}
TRAIN_MEM_GB=${TRAIN_MEM_GB:-12}
REPEAT=3
MODEL=
DO_TRAIN=0
DO_PAGES=1
REPORT_ONLY=0
CPU_ARGS=()
DATASETS=()

while [ $# -gt 0 ]; do
  case $1 in
    -r) REPEAT=$2; shift 2 ;;
    -m) MODEL=$2; shift 2 ;;
    --train) DO_TRAIN=1; shift ;;
    --no-pages) DO_PAGES=0; shift ;;
    --cpu) CPU_ARGS=(--cpu "$2"); shift 2 ;;
    --report-only) REPORT_ONLY=1; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run_bench.sh: unknown option $1" >&2; exit 2 ;;
    *) DATASETS+=("$1"); shift ;;
  esac
done

if [ ${#DATASETS[@]} -eq 0 ]; then
  for m in /work/cache/datasets/site_mirrors/manifest.tsv "$SRC/datasets/cache/site_mirrors/manifest.tsv"; do
    if [ -f "$m" ]; then DATASETS+=("$m"); break; fi
  done
  if [ -f "$SRC/datasets/cache/debian_docs/manifest.tsv" ]; then
    DATASETS+=("$SRC/datasets/cache/debian_docs/manifest.tsv")
  fi
fi
if [ ${#DATASETS[@]} -eq 0 ]; then
  echo "run_bench.sh: no dataset found; give a manifest (see datasets/)" >&2
  exit 2
fi

log() { echo "run_bench.sh: $*" >&2; }

# ---------------------------------------------------------------- build
if [ "$REPORT_ONLY" = 1 ]; then
  : # tables from earlier runs only
elif [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake -S "$SRC" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >&2
fi
if ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$BUILD_DIR/CMakeCache.txt"; then
  echo "run_bench.sh: $BUILD_DIR is not a Release build" >&2
  exit 2
fi
if [ "$REPORT_ONLY" = 0 ] && ! cmake --build "$BUILD_DIR" -j"$(nproc)" --target tbk-bench tbk-label tbk-features tbk-train >&2; then
  echo "run_bench.sh: the build failed (someone's half-written file? retry in a minute)" >&2
  exit 1
fi
BENCH=$BUILD_DIR/bench/tbk-bench
mkdir -p "$OUT/work"

# ---------------------------------------------------------------- machine
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
[ "$REPORT_ONLY" = 1 ] && echo "(Tables re-rendered from earlier runs; machine details are as of rendering.)" && echo
echo "## Machine"
echo
echo "| | |"
echo "|---|---|"
echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
echo "| CPU | $(lscpu | sed -n 's/^Model name: *//p' | head -1) |"
echo "| cores (nproc) | $(nproc) |"
echo "| RAM | $(free -g | awk '/^Mem:/ { print $2 " GiB" }') |"
echo "| OS | $(. /etc/os-release && echo "$PRETTY_NAME") |"
echo "| compiler | $(gcc --version | head -1) |"
echo "| libxml2 | $(xml2-config --version 2>/dev/null || pkg-config --modversion libxml-2.0) |"
echo "| build | $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$BUILD_DIR/CMakeCache.txt") ($(sed -n 's/^CMAKE_C_FLAGS_RELEASE:STRING=//p' "$BUILD_DIR/CMakeCache.txt")) |"
echo "| tbk | $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$SRC" diff --quiet 2>/dev/null || echo ' + uncommitted changes') |"
echo "| load average at start | $(cut -d' ' -f1-3 /proc/loadavg) |"
echo

# ---------------------------------------------------------------- model and seed data
# Labelled features of the first dataset: what the model is trained on, and
# the seed of the synthetic training rows.
SEED=$OUT/work/seed
# Everything derived from features is stale once the feature schema changes.
SCHEMA_ID=$("$BUILD_DIR/features/tbk-features" --schema-id)
if [ "$REPORT_ONLY" = 0 ] && [ -f "$SEED.meta.jsonl" ] && ! head -1 "$SEED.meta.jsonl" | grep -qF "\"$SCHEMA_ID\""; then
  log "feature schema changed: regenerating seed data, model and training rows"
  rm -f "$SEED".* "$OUT/work/bench.model" "$OUT"/work/train*
fi
make_seed() {
  [ -f "$SEED.meta.jsonl" ] && return 0
  log "labelling and extracting features of ${DATASETS[0]} (seed data)"
  "$BUILD_DIR/label/tbk-label" -q -o "$OUT/work/labels.jsonl" "${DATASETS[0]}" || [ $? -eq 3 ]
  "$BUILD_DIR/features/tbk-features" --labels "$OUT/work/labels.jsonl" -o "$SEED.svm" --words "$SEED.words" \
    --meta "$SEED.meta.jsonl" "${DATASETS[0]}" || [ $? -eq 3 ]
}
if [ -z "$MODEL" ] && [ -f "$SRC/models/default.model" ]; then MODEL=$SRC/models/default.model; fi
if [ -z "$MODEL" ] && [ "$REPORT_ONLY" = 1 ]; then MODEL=$OUT/work/bench.model; fi
if [ -z "$MODEL" ] && [ "$DO_PAGES" = 1 ] && [ "$REPORT_ONLY" = 0 ]; then
  make_seed
  MODEL=$OUT/work/bench.model
  if [ ! -f "$MODEL" ]; then
    log "training the model predict is timed with"
    "$BUILD_DIR/train/tbk-train" -q -o "$MODEL" "$SEED.svm" "$SEED.words" "$SEED.meta.jsonl" || [ $? -eq 3 ]
  fi
fi

# ---------------------------------------------------------------- pages
bar_of() { case $1 in label|features) echo 0.70 ;; predict) echo 0.80 ;; combined) echo 0.60 ;; *) echo "" ;; esac; }

if [ "$DO_PAGES" = 1 ]; then
  echo "## Page stages"
  echo
  echo "Model for predict: \`${MODEL/#$SRC\//}\`. Repetitions: $REPEAT (best kept)."
  echo
  for manifest in "${DATASETS[@]}"; do
    name=$(basename "$(dirname "$manifest")")
    rows=()
    for mode in baseline label features predict combined; do
      log "$name: $mode"
      tsv=$OUT/$name.$mode.tsv
      [ "$REPORT_ONLY" = 0 ] && "$BENCH" --mode "$mode" -r "$REPEAT" -m "$MODEL" "${CPU_ARGS[@]}" --per-page "$OUT/$name.$mode.per-page.tsv" \
        "$manifest" > "$tsv" 2> "$OUT/$name.$mode.log"
      rows+=("$(awk -F'\t' -v m="$mode" '$1 == m' "$tsv")")
    done
    first=${rows[0]}
    pages=$(cut -f2 <<<"$first")
    mb=$(cut -f4 <<<"$first")
    echo "### $name ($pages pages, $mb MB; \`${manifest/#$SRC\//}\`)"
    echo
    echo "| mode | pages/s | MB/s | MB per CPU-s | × baseline (wall) | × baseline (CPU) | bar | p50 ms | p99 ms | max ms | peak RSS MB | RSS over loaded pages MB | failed pages |"
    echo "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"
    for row in "${rows[@]}"; do
      IFS=$'\t' read -r mode _pages fail _mb best pps mbps ratio cpu ratio_cpu p50 p99 pmax loaded peak _check status <<<"$row"
      if [ "$status" != ok ]; then
        echo "| $mode | — | — | — | — | — | | — | — | — | — | — | ${status} |"
        continue
      fi
      bar=$(bar_of "$mode")
      verdict=
      if [ -n "$bar" ]; then
        verdict="≥ $bar: $(awk -v r="$ratio_cpu" -v b="$bar" 'BEGIN { print (r >= b) ? "met" : "**missed**" }')"
      fi
      over=$(awk -v a="$peak" -v b="$loaded" 'BEGIN { printf "%.1f", a - b }')
      mbcpu=$(awk -v a="$_mb" -v b="$cpu" 'BEGIN { printf "%.2f", a / b }')
      echo "| $mode | $pps | $mbps | $mbcpu | $ratio | $ratio_cpu | $verdict | $p50 | $p99 | $pmax | $peak | $over | $fail |"
    done
    echo
  done
  echo "Each mode ran in its own process, interleaved with the baseline in that process (the ratio"
  echo "columns compare the two); the baseline row is the baseline-only process. Raw TSV, per-page"
  echo "times and logs: \`${OUT/#$SRC\//}\`."
  echo
fi

# ---------------------------------------------------------------- training
if [ "$DO_TRAIN" = 1 ]; then
  make_seed
  "$BUILD_DIR/features/tbk-features" --schema > "$OUT/work/schema.tsv"
  seed_rows=$(($(wc -l < "$SEED.meta.jsonl") - 1))
  echo "## Training (tbk-train, defaults: MDL + NB + LR, 5-fold cross-site CV)"
  echo
  echo "Synthetic rows resampled from the $seed_rows labelled blocks of \`$(basename "$(dirname "${DATASETS[0]}")")\`"
  echo "with jittered values (\`bench/gen_train.py\`), 2000 rows per synthetic site."
  echo "Virtual memory capped at $TRAIN_MEM_GB GiB."
  echo
  echo "| rows | sites | wall s | user s | sys s | peak RSS MB | exit |"
  echo "|---:|---:|---:|---:|---:|---:|---|"
  for n in $TRAIN_ROWS; do
    data=$OUT/work/train$n
    if [ "$REPORT_ONLY" = 0 ] && [ ! -f "$data.meta.jsonl" ]; then
      log "generating $n training rows"
      python3 "$SRC/bench/gen_train.py" --seed "$SEED" --schema "$OUT/work/schema.tsv" --rows "$n" --out "$data"
    fi
    if [ "$REPORT_ONLY" = 0 ]; then
      log "training on $n rows"
      set +e
      ( ulimit -v $((TRAIN_MEM_GB * 1024 * 1024))
        /usr/bin/time -f '%e %U %S %M' -o "$data.time" \
          "$BUILD_DIR/train/tbk-train" -o "$data.model" "$data.svm" "$data.words" "$data.meta.jsonl" ) \
        > "$data.log" 2>&1
      set -e
    fi
    [ -f "$data.time" ] || continue
    # GNU time notes a failure on the line before its format line.
    rc=$(sed -n 's/^Command exited with non-zero status \([0-9]*\)/\1/p; s/^Command terminated by signal \([0-9]*\)/signal \1/p' "$data.time")
    rc=${rc:-0}
    read -r wall user sys rss < <(tail -1 "$data.time")
    status=$rc
    [ "$rc" != 0 ] && status="$rc: $(grep -m1 'error' "$data.log" | sed 's/|/\\|/g')"
    echo "| $n | $(( (n + 1999) / 2000 )) | $wall | $user | $sys | $(mib "$rss") | $status |"
  done
  echo
fi
