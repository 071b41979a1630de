#!/usr/bin/env bash
# Hostile models for tbk-predict: truncated, corrupt (one flipped byte),
# another feature schema (checksum made right), another format version,
# empty, binary, a directory, missing. Every one is refused with exit 5 and
# a message that says why, before any output is written.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
SEED="$TBK_SRC/fuzz/corpus/model/seed.model"
[ -s "$SEED" ] || die "no seed model at $SEED"
echo "<div>alpha bravo charlie delta echo foxtrot golf hotel</div>" >"$T/page.html"
python3 - "$SEED" "$T" <<'PY'
import sys, hashlib
seed, t = open(sys.argv[1], "rb").read(), sys.argv[2]
body = seed[: seed.rindex(b"checksum ")]
def fix(b):
    return b + b"checksum " + hashlib.md5(b).hexdigest().encode() + b"\n"
open(t + "/truncated.model", "wb").write(seed[: len(seed) * 2 // 3])
c = bytearray(seed); c[len(seed) // 2] ^= 0x04
open(t + "/corrupt.model", "wb").write(bytes(c))
open(t + "/schema.model", "wb").write(fix(body.replace(b"schema tbk-features-1:", b"schema tbk-features-1:0bad", 1)))
open(t + "/version.model", "wb").write(fix(body.replace(b"tbk-model 1\n", b"tbk-model 9\n", 1)))
open(t + "/garbled.model", "wb").write(fix(body.replace(b"\ncols ", b"\ncols x", 1)))
open(t + "/empty.model", "wb").write(b"")
open(t + "/binary.model", "wb").write(bytes(range(256)) * 8)
PY
mkdir "$T/dir.model"

check() { # check MODEL PATTERN
  "$PRED" -m "$1" -o "$T/out.txt" "$T/page.html" 2>"$T/err"
  local rc=$?
  [ $rc -eq 5 ] || { cat "$T/err" >&2; die "$1: exit $rc, expected 5"; }
  grep -Eq -- "tbk-predict: error: $1: $2" "$T/err" || { cat "$T/err" >&2; die "$1: message lacks /$2/"; }
  ls "$T"/out.txt* >/dev/null 2>&1 && die "$1: output file written"
  echo "$(basename "$1"): $(cut -c1-140 "$T/err")"
}
check "$T/truncated.model" "truncated or not a tbk model: no checksum line at the end"
check "$T/corrupt.model" "corrupt: checksum does not match the content"
check "$T/schema.model" "model was trained on features tbk-features-1:0bad[0-9a-f]+ .*; this build extracts tbk-features-1:"
check "$T/version.model" "model format version 9 is not supported"
check "$T/garbled.model" "line [0-9]+: expected cols"
check "$T/empty.model" "truncated or not a tbk model"
check "$T/binary.model" "truncated or not a tbk model"
check "$T/dir.model" "."
check "$T/missing.model" "cannot open"
TBK_MODEL="$T/corrupt.model" "$PRED" "$T/page.html" >/dev/null 2>&1
[ $? -eq 5 ] || die "\$TBK_MODEL pointing to a corrupt model: expected 5"
echo ok
