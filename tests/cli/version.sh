#!/usr/bin/env bash
# Every program prints "tbk-xxx VERSION" on --version (exit 0, nothing on
# stderr), VERSION being project(VERSION) of CMakeLists.txt, the one place
# it is written; every --help lists --version and an exit-status table.
. "$(dirname "$0")/lib.sh"
: "${TBK_PROJECT_VERSION:?TBK_PROJECT_VERSION must be the CMake project version}"
tmp_reset
for bin in "$LABEL" "$FEAT" "$TRAIN" "$PRED" "$EVAL"; do
  prog=$(basename "$bin")
  expect_rc 0 "$bin" --version
  [[ $(cat "$OUT") == "$prog $TBK_PROJECT_VERSION" ]] || die "$prog --version printed '$(cat "$OUT")', expected '$prog $TBK_PROJECT_VERSION'"
  [[ ! -s $ERR ]] || die "$prog --version wrote to stderr"
  expect_rc 0 "$bin" --help
  grep -Eq '^ +--version +show the version and exit$' "$OUT" || die "$prog --help does not list --version"
  grep -q '^Exit status' "$OUT" || die "$prog --help has no exit-status table"
  for code in 0 1 2; do
    grep -Eq "^  $code  " "$OUT" || die "$prog --help does not list exit status $code"
  done
done
# The model-reading programs can refuse a model: 5 must be listed. (The
# help is read whole first: grep -q stopping at the line would leave the
# program writing into a closed pipe, a SIGPIPE that pipefail reports.)
for bin in "$FEAT" "$TRAIN" "$PRED"; do
  expect_rc 0 "$bin" --help
  grep -Eq '^  5  ' "$OUT" || die "$(basename "$bin") --help does not list exit status 5"
done
echo ok
