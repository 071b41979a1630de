#!/usr/bin/env bash
# Hostile input: binary files named .html (a PNG image, an ELF executable,
# gzip data, control-byte noise) are refused by content with the reason,
# counted, and the run continues (exit 3).
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
mkdir -p "$T/in"
python3 - "$T/in" <<'PY'
import sys, zlib, struct, gzip, os
d = sys.argv[1]
def chunk(t, b):
    return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xffffffff)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)) + \
      chunk(b"IDAT", zlib.compress(b"\x00" + b"\xff\x00\x00" * 2 + b"\x00" + b"\x00\xff\x00" * 2)) + chunk(b"IEND", b"")
open(os.path.join(d, "image.html"), "wb").write(png)
open(os.path.join(d, "packed.html"), "wb").write(gzip.compress(b"<div>hidden in gzip</div>" * 10))
open(os.path.join(d, "noise.html"), "wb").write(bytes((i * 37) % 32 for i in range(5000)))
open(os.path.join(d, "good.html"), "w").write("<div>alpha bravo charlie delta echo foxtrot golf hotel</div>")
PY
cp "$(type -P true)" "$T/in/program.html" || die "cannot copy an ELF file"

"$FEAT" -o "$T/f.svm" "$T/in" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/err" >&2; die "exit $rc, expected 3"; }
for want in "image.html: not HTML: looks like PNG image (skipped)" \
            "program.html: not HTML: looks like ELF executable (skipped)" \
            "packed.html: not HTML: looks like gzip data (skipped)" \
            "noise.html: not HTML: .* control bytes (skipped)"; do
  grep -q "warning: $T/in/$want" "$T/err" || { cat "$T/err" >&2; die "not reported: $want"; }
done
[ "$(grep -c warning "$T/err")" -eq 4 ] || die "the good page was reported"
[ "$(wc -l <"$T/f.svm")" -eq 1 ] || die "the good page's block is missing"
echo ok
