# shellcheck shell=bash
# Shared helpers of the CLI tests, sourced by them. ctest also runs this
# file on its own (every tests/cli/*.sh is a test): then it checks the
# helpers themselves.
#
# Environment (set by ctest): TBK_BIN (build dir), TBK_SRC (source dir),
# TBK_TMP (scratch dir of this test, emptied by tmp_reset), TBK_PROJECT_VERSION
# (project(VERSION) of CMakeLists.txt).
#
#   run CMD...             run CMD; stdout -> $OUT, stderr -> $ERR, status -> $RC
#   expect_rc N CMD...     run CMD and fail unless it exits with N
#   expect_err REGEX       stderr of the last run matches (grep -E)
#   expect_no_err REGEX    ... does not match
#   expect_messages        every stderr line is "$PROG: error: ..." or
#                          "$PROG: warning: ..." (or the summary tables / Try line)
#   expect_absent PATH     PATH does not exist
#   expect_no_tmp DIR      no *.tmp.* files were left in DIR
#   need_shared NAME       $TBK_SRC/../shared/datasets/NAME exists, else exit 77
#   need_python            python3 exists, else exit 77
#   python_module_env      need_python, and the tbk module importable from the
#                          source tree over the build's libtbk.so.1
#   need_release           skip on a sanitizer build (WHY: the message)
#   die MSG / skip MSG     fail (exit 1) / skip (exit 77)
set -u
set -o pipefail

: "${TBK_BIN:?TBK_BIN must name the build directory}"
: "${TBK_SRC:?TBK_SRC must name the source directory}"
: "${TBK_TMP:?TBK_TMP must name a scratch directory}"

LABEL=$TBK_BIN/label/tbk-label
FEAT=$TBK_BIN/features/tbk-features
TRAIN=$TBK_BIN/train/tbk-train
PRED=$TBK_BIN/predict/tbk-predict
EVAL=$TBK_BIN/eval/tbk-eval
PROG=tbk-label # the program whose messages expect_messages checks
OUT=$TBK_TMP/.out
ERR=$TBK_TMP/.err
RC=0

die() {
  echo "FAIL: $*" >&2
  if [[ -s $ERR ]]; then
    echo "--- stderr of the last command:" >&2
    head -n 30 "$ERR" >&2
  fi
  exit 1
}

skip() {
  echo "SKIP: $*"
  exit 77
}

tmp_reset() {
  rm -rf "$TBK_TMP"
  mkdir -p "$TBK_TMP"
  : >"$OUT"
  : >"$ERR"
}

run() {
  set +e
  "$@" >"$OUT" 2>"$ERR"
  RC=$?
  set -e
}

expect_rc() {
  local want=$1
  shift
  run "$@"
  [[ $RC == "$want" ]] || die "'$*' exited $RC, expected $want"
}

expect_err() {
  grep -Eq -- "$1" "$ERR" || die "stderr does not match /$1/"
}

expect_no_err() {
  if grep -Eq -- "$1" "$ERR"; then die "stderr unexpectedly matches /$1/"; fi
}

# The only forms a tbk program may print on stderr.
expect_messages() {
  local prog=$PROG bad
  bad=$(grep -Ev "^$prog: (error|warning): |^Try '$prog --help'|^site +pages|^[^ ]+ +[0-9]+ +[0-9]+ +[0-9]+ |^records	" "$ERR" || true)
  [[ -z $bad ]] || die "unexpected stderr line(s): $bad"
}

expect_absent() {
  [[ ! -e $1 ]] || die "$1 exists but should not"
}

expect_no_tmp() {
  local left
  left=$(find "$1" -maxdepth 1 -name '*.tmp.*' | head -n 5)
  [[ -z $left ]] || die "temporary output left behind: $left"
}

need_shared() {
  local path=$TBK_SRC/../shared/datasets/$1
  [[ -e $path ]] || skip "shared dataset $1 not found at $path"
}

need_python() {
  command -v python3 >/dev/null 2>&1 || skip "python3 not found"
}

python_module_env() {
  need_python
  export PYTHONPATH=$TBK_SRC/python
  export TBK_LIBRARY=$TBK_BIN/core/libtbk.so.1
  export PYTHONDONTWRITEBYTECODE=1 # nothing written into the source tree
}

need_release() {
  case $(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$TBK_BIN/CMakeCache.txt") in
    Asan | Ubsan) skip "$1" ;;
  esac
}

# WARC record tables (--warc-summary, --summary), for the WARC tests:
#   warc_table             the last run's "records" rows as OUTCOME|REASON|N,
#                          checked to add up to its total line, then total|N
#   warc_has ROW...        each row is in that table
warc_table() {
  python3 - "$ERR" <<'PY' || die "the records table does not add up"
import sys
rows, total = [], None
for l in open(sys.argv[1]):
    if not l.startswith("records\t"):
        continue
    _, outcome, reason, n = l.rstrip("\n").split("\t")
    if outcome == "total":
        total = (reason, int(n))
    else:
        rows.append((outcome, reason, int(n)))
        print("%s|%s|%d" % (outcome, reason, int(n)))
assert total, "no total line"
r = sum(n for o, _, n in rows if o == "read")
s = sum(n for o, _, n in rows if o == "skipped")
assert total == ("read %d, skipped %d" % (r, s), r + s), (total, r, s)
print("total|%d" % (r + s))
PY
}

warc_has() {
  local t
  t=$(warc_table)
  for row in "$@"; do
    grep -Fxq -- "$row" <<<"$t" || { echo "$t" >&2; die "no row '$row'"; }
  done
}

# Sourced by a test: start from an empty scratch directory.
mkdir -p "$TBK_TMP"
: >"$OUT"
: >"$ERR"

# Run directly (ctest picks up every tests/cli/*.sh): check the helpers.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -e
  tmp_reset
  [[ -x $LABEL ]] || die "tbk-label not built at $LABEL"
  expect_rc 0 true
  expect_rc 3 sh -c 'echo "tbk-label: warning: x" >&2; exit 3'
  expect_err '^tbk-label: warning: x$'
  expect_messages
  (expect_no_err 'warning') 2>/dev/null && die "expect_no_err accepted a match"
  (expect_rc 0 false) 2>/dev/null && die "expect_rc accepted a wrong status"
  run sh -c 'echo "oops" >&2'
  (expect_messages) 2>/dev/null && die "expect_messages accepted a stray line"
  touch "$TBK_TMP/x.tmp.abc"
  (expect_no_tmp "$TBK_TMP") 2>/dev/null && die "expect_no_tmp missed a temporary file"
  echo "lib.sh ok"
fi
