#!/usr/bin/env bash
# Build the libFuzzer targets with clang (-fsanitize=fuzzer,address,undefined;
# the whole library instrumented) into build-fuzz/ and run each target.
#
#   fuzz/run_fuzz.sh [SECONDS] [TARGET...]        (default: 60 s; page warc model inputs dataset labels)
#
# Environment: TBK_FUZZ_BUILD (build dir, default <src>/build-fuzz),
# TBK_FUZZ_JOBS (targets run at once, default 1), TBK_FUZZ_ARGS (extra
# libFuzzer flags). The seed corpus fuzz/corpus/<target>/ is read only; new
# inputs go to BUILD/corpus/<target>/, crashes to BUILD/artifacts/<target>/,
# the log (with -print_final_stats=1) to BUILD/logs/<target>.log.
# Exit status: 0 no crash, 1 a target crashed / leaked / timed out, 2 usage.
set -u
SECS=${1:-60}
case $SECS in '' | *[!0-9]*) echo "usage: $0 [SECONDS] [TARGET...]" >&2; exit 2 ;; esac
[ $# -gt 0 ] && shift
TARGETS=${*:-page warc model inputs dataset labels fast_html}
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${TBK_FUZZ_BUILD:-$SRC/build-fuzz}
JOBS=${TBK_FUZZ_JOBS:-1}
command -v clang >/dev/null || { echo "$0: clang not found" >&2; exit 1; }

FLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
CC=clang cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=None -DTBK_FUZZ=ON \
  -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" -DTBK_SHARED_DEFS=OFF >/dev/null || exit 1
cmake --build "$B" -j2 >"$B/build.log" 2>&1 || { tail -30 "$B/build.log" >&2; exit 1; }

# fuzz_page predicts with a model of the current feature schema.
MODEL=$B/seed.model
bash "$SRC/fuzz/make_seed_model.sh" "$B" "$MODEL" >/dev/null || { echo "$0: cannot train the seed model" >&2; exit 1; }
export TBK_FUZZ_MODEL=$MODEL

run_one() {
  local t=$1 dict= maxlen=65536
  case $t in
  page | fast_html) dict=$SRC/fuzz/html.dict ;;
  warc) dict=$SRC/fuzz/warc.dict ;;
  model) dict=$SRC/fuzz/model.dict ;;
  inputs | dataset) maxlen=8192 ;;
  esac
  mkdir -p "$B/corpus/$t" "$B/artifacts/$t" "$B/logs"
  # The current model joins fuzz_model's working corpus: its schema matches,
  # so mutations of it reach prediction.
  [ "$t" = model ] && cp "$MODEL" "$B/corpus/model/current.model"
  "$B/fuzz/fuzz_$t" -max_total_time="$SECS" -print_final_stats=1 -timeout=20 -rss_limit_mb=2560 \
    -max_len=$maxlen ${dict:+-dict=$dict} -artifact_prefix="$B/artifacts/$t/" ${TBK_FUZZ_ARGS:-} \
    "$B/corpus/$t" "$SRC/fuzz/corpus/$t" >"$B/logs/$t.log" 2>&1
  local rc=$?
  local stats
  stats=$(grep -E '^stat::(number_of_executed_units|peak_rss_mb)|cov: ' "$B/logs/$t.log" | tail -3 | tr '\n' ' ')
  echo "fuzz_$t: exit $rc; $stats"
  return $rc
}

status=0
pids=()
for t in $TARGETS; do
  [ -f "$SRC/fuzz/fuzz_$t.c" ] || { echo "$0: no target $t" >&2; exit 2; }
  run_one "$t" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$JOBS" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
ls "$B"/artifacts/*/* 2>/dev/null && echo "crash artifacts above; add each to fuzz/corpus/<target>/" >&2
exit $status
