#!/usr/bin/env bash
# The Python module (python/tbk), installed by `cmake --install` into a
# temporary prefix and imported from there: its text and blocks equal what
# tbk-predict writes, byte for byte, on our example pages (and on a
# site_mirrors site when ../shared is there); its labels equal tbk-label's
# on a synthetic site read from a WARC; a missing model raises tbk.Error
# naming the file.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
PREFIX=$T/prefix
cmake --install "$TBK_BIN" --prefix "$PREFIX" >"$T/install.log" 2>&1 || die "cmake --install failed: $(tail -5 "$T/install.log")"
PYDIR=$(find "$PREFIX" -type d -name tbk -path '*site-packages*' | head -1)
[ -n "$PYDIR" ] || die "the tbk package was not installed under $PREFIX"
[ -n "$(find "$PREFIX" -name libtbk.so.0 | head -1)" ] || die "libtbk.so.0 not installed"
export PYTHONPATH=${PYDIR%/tbk}
unset TBK_LIBRARY TBK_MODEL
# python3 is not built with a sanitizer: it loads a sanitizer build's
# libtbk.so only with the runtime preloaded, and its own allocations are
# not ours to leak-check.
tbk_python() { python3 "$@"; }
case $(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$TBK_BIN/CMakeCache.txt") in
  Asan)
    tbk_python() {
      LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)" \
        ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 python3 "$@"
    } ;;
  Ubsan) tbk_python() { LD_PRELOAD=$(cc -print-file-name=libubsan.so) python3 "$@"; } ;;
esac
IPRED=$PREFIX/bin/tbk-predict

# 1. text and blocks on the example pages, against the installed program.
for f in "$TBK_SRC"/datasets/examples/*.html; do
  "$IPRED" -f text "$f" >"$T/want.txt" || die "tbk-predict failed on $f"
  "$IPRED" -f jsonl "$f" >"$T/want.jsonl" || die "tbk-predict -f jsonl failed on $f"
  tbk_python - "$f" "$T" <<'PY' || die "python module differs on $f"
import json, sys, tbk
path, tmp = sys.argv[1], sys.argv[2]
html = open(path, "rb").read()
m = tbk.Model()
got = m.text(html).encode("utf-8")
want = open(tmp + "/want.txt", "rb").read()
assert got == want, "text differs: %r... vs %r..." % (got[:80], want[:80])
blocks = m.blocks(html, url=path)
want = [json.loads(l) for l in open(tmp + "/want.jsonl", encoding="utf-8")]
assert [b.record for b in blocks] == want, "blocks differ"
assert len(blocks) > 10 and all(0 <= b.p_template <= 1 for b in blocks)
assert any(b.template for b in blocks) and any(not b.template for b in blocks)
# str input means the same page
assert m.text(html.decode("utf-8")) == got.decode("utf-8")
PY
done

# 2. a missing model: tbk.Error naming the file.
tbk_python - "$T/no-such.model" <<'PY' || die "missing model not reported"
import sys, tbk
try:
    tbk.Model(sys.argv[1])
except tbk.Error as e:
    assert sys.argv[1] in str(e) and "cannot open" in str(e), str(e)
else:
    raise SystemExit("no error")
PY

# 3. labels of a synthetic site, from its WARC, against tbk-label.
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/synth" --sites 1 --pages 14 --seed 7 --warc "$T/site.warc" >/dev/null \
  || die "synth_sites.py failed"
"$PREFIX/bin/tbk-label" -o "$T/labels.jsonl" "$T/site.warc" 2>"$T/label.err" || die "tbk-label failed: $(cat "$T/label.err")"
tbk_python - "$T" <<'PY' || die "label_site differs from tbk-label"
import csv, json, os, sys, tbk
tmp = sys.argv[1]
rows = list(csv.DictReader(open(tmp + "/synth/manifest.tsv", encoding="utf-8"), delimiter="\t"))
pages = sorted((r["url"], open(os.path.join(tmp, "synth", r["page"]), "rb").read()) for r in rows)
got = tbk.label_site(pages)
want = [json.loads(l) for l in open(tmp + "/labels.jsonl", encoding="utf-8")]
assert len(want) > 50, len(want)
assert got == want, "first difference at %d" % next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
assert {r["label"] for r in got} == {"template", "content"}
PY

# 4. a real site, when the shared data sets are unpacked.
M=$TBK_SRC/datasets/cache/site_mirrors/manifest.tsv
if [ -f "$M" ]; then
  tbk_python - "$M" "$IPRED" "$PREFIX/bin/tbk-label" "$T" <<'PY' || die "python module differs on site_mirrors"
import csv, json, os, subprocess, sys, tbk
man, pred, label, tmp = sys.argv[1:5]
base = os.path.dirname(man)
rows = [r for r in csv.DictReader(open(man, encoding="utf-8"), delimiter="\t")]
site = rows[0]["site"]
mine = sorted((r for r in rows if r["site"] == site), key=lambda r: r["page"])
m = tbk.Model()
for r in mine[:15]:
    p = os.path.join(base, r["page"])
    html = open(p, "rb").read()
    want = subprocess.run([pred, "-f", "text", p], capture_output=True, check=True).stdout
    assert m.text(html).encode("utf-8") == want, p
    want = subprocess.run([pred, "-f", "jsonl", p], capture_output=True, check=True).stdout.decode()
    assert [b.record for b in m.blocks(html, url=p)] == [json.loads(l) for l in want.splitlines()], p
# the site's labels: tbk-label on a manifest of this site alone
sub = os.path.join(tmp, "site.tsv")
with open(sub, "w", encoding="utf-8") as f:
    f.write("site\tpage\turl\n")
    for r in mine:
        f.write("%s\t%s\t%s\n" % (site, os.path.join(base, r["page"]), r["url"]))
want = subprocess.run([label, "-q", sub], capture_output=True, check=True).stdout.decode()
pages = [(os.path.join(base, r["page"]), r["url"], open(os.path.join(base, r["page"]), "rb").read()) for r in mine]
got = tbk.label_site(pages, site=site)
want = [json.loads(l) for l in want.splitlines()]
assert len(want) > 20 and got == want, "labels of %s differ (%d vs %d records)" % (site, len(got), len(want))
print("site_mirrors: %s: text and blocks of 15 pages, labels of %d pages equal" % (site, len(mine)))
PY
else
  echo "python_module: datasets/cache/site_mirrors absent: real-site comparison skipped"
fi
echo "python_module: ok"
