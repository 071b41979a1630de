#!/usr/bin/env bash
# The Python module (python/tbk), installed by `cmake --install` into a
# temporary prefix and imported from there: its text and blocks equal what
# tbk-predict writes, byte for byte, on our example pages, on legacy-charset
# pages given as bytes, with an HTTP charset, with a template-only model (and on a Latin and a
# Chinese site_mirrors site when ../shared is there); its labels equal
# tbk-label's on a synthetic site read from a WARC; a missing or bad model
# raises tbk.Error naming the file; README's example runs; threads sharing a
# Model agree with one thread and the GIL is released meanwhile;
# `pip install ./python` gives the same module, built out of the source
# tree with nothing but pip.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
PREFIX=$T/prefix
cmake --install "$TBK_BIN" --prefix "$PREFIX" >"$T/install.log" 2>&1 || die "cmake --install failed: $(tail -5 "$T/install.log")"
PYDIR=$(find "$PREFIX" -type d -name tbk -path '*site-packages*' | head -1)
[ -n "$PYDIR" ] || die "the tbk package was not installed under $PREFIX"
[ -n "$(find "$PREFIX" -name libtbk.so.1 | head -1)" ] || die "libtbk.so.1 not installed"
export PYTHONPATH=${PYDIR%/tbk}
unset TBK_LIBRARY TBK_MODEL
# python3 is not built with a sanitizer: it loads a sanitizer build's
# libtbk.so only with the runtime preloaded, and its own allocations are
# not ours to leak-check.
tbk_python() { "${TBK_PY:-python3}" "$@"; }
case $(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$TBK_BIN/CMakeCache.txt") in
  Asan)
    tbk_python() {
      LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)" \
        ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "${TBK_PY:-python3}" "$@"
    } ;;
  Ubsan) tbk_python() { LD_PRELOAD=$(cc -print-file-name=libubsan.so) "${TBK_PY:-python3}" "$@"; } ;;
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

# 2. a missing model, and one that is not a model: tbk.Error naming the file.
printf 'tbk-model 1\nnot a model\n' >"$T/bad.model"
tbk_python - "$T/no-such.model" "$T/bad.model" <<'PY' || die "missing or bad model not reported"
import sys, tbk
for path, what in [(sys.argv[1], "cannot open"), (sys.argv[2], "")]:
    try:
        tbk.Model(path)
    except tbk.Error as e:
        assert str(e).startswith(path + ": ") and what in str(e), str(e)
    else:
        raise SystemExit("no error for " + path)
PY

# 2a. README's example runs (on an example page).
python3 - "$TBK_SRC/README.md" "$TBK_SRC/datasets/examples/news-article.html" >"$T/readme.py" <<'PY' || die "no Python example in README.md"
import re, sys
code = re.search(r"## From Python.*?```python\n(.*?)```", open(sys.argv[1], encoding="utf-8").read(), re.S).group(1)
assert len(code.splitlines()) == 5, code
print(code.replace('"page.html"', repr(sys.argv[2])) + "assert blocks and model.text(html)\n")
PY
tbk_python "$T/readme.py" >/dev/null || die "README's Python example fails"

# 2b. the interface users rely on: the version is the programs', every
#     public name documented; bytes in a legacy charset without a
#     declaration are sniffed as tbk-predict sniffs them (every paragraph
#     comes back as a unit), str is taken as text whatever its <meta> says.
python3 - "$T/cjk" <<'PY' || die "making the legacy-charset pages failed"
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
paras = {"gb18030": ["本市今天召开新闻发布会，介绍了城市公共交通的最新进展和明年的建设计划。",
                     "据介绍，全市将新增十二条公交线路，地铁三号线预计在明年年底前通车运营。"],
         "big5": ["本市今天召開新聞發布會，介紹了城市公共交通的最新進展和明年的建設計劃。",
                  "據介紹，全市將新增十二條公車路線，捷運三號線預計在明年年底前通車營運。"],
         "shift_jis": ["市は今日記者会見を開き、公共交通の最新の状況と来年の整備計画について説明しました。",
                       "説明によると、市内には新しいバス路線が十二本追加され、地下鉄三号線は来年末に開業します。"],
         "euc_kr": ["시는 오늘 기자회견을 열고 대중교통의 최신 현황과 내년 건설 계획을 발표했습니다.",
                    "설명에 따르면 시내에 새로운 버스 노선 열두 개가 추가되고 지하철 삼호선은 내년 말 개통됩니다."]}
for cs, ps in paras.items():
    html = "<html><head><title>%s</title></head><body>%s</body></html>" % (
        ps[0][:6], "".join("<div><p>%s</p></div>" % p for p in ps * 3))
    open(os.path.join(sys.argv[1], cs + ".html"), "wb").write(html.encode(cs))
    open(os.path.join(sys.argv[1], cs + ".txt"), "w", encoding="utf-8").write("\n".join(ps))
PY
"$IPRED" --version >"$T/version.txt" || die "tbk-predict --version failed"
for f in "$T"/cjk/*.html; do "$IPRED" -f text "$f" >"${f%.html}.want" || die "tbk-predict failed on $f"; done
tbk_python - "$T" "$TBK_SRC/python/pyproject.toml" <<'PY' || die "python module interface"
import glob, inspect, re, sys, tbk
tmp, pyproject = sys.argv[1], sys.argv[2]
v = open(tmp + "/version.txt").read().split()[-1]
assert tbk.__version__ == v, (tbk.__version__, v)
assert re.search(r'^version = "%s"$' % re.escape(v), open(pyproject).read(), re.M), "pyproject.toml version is not " + v
for name in ["Model", "Block", "Error", "label_site", "site_of_url"]:
    obj = getattr(tbk, name)
    assert inspect.getdoc(obj), name + " has no docstring"
for name in ["text", "blocks", "close"]:
    assert inspect.getdoc(getattr(tbk.Model, name)), "Model." + name + " has no docstring"
assert "thread" in tbk.__doc__.lower(), "the module docstring does not state the thread safety"
m = tbk.Model()
for f in sorted(glob.glob(tmp + "/cjk/*.html")):
    cs = f.rsplit("/", 1)[1][:-5]
    raw = open(f, "rb").read()
    got = m.text(raw)
    assert got.encode("utf-8") == open(f[:-5] + ".want", "rb").read(), cs + ": text differs from tbk-predict's"
    texts = [b.text for b in m.blocks(raw)]
    for p in open(f[:-5] + ".txt", encoding="utf-8").read().split("\n"):
        assert texts.count(p) == 3, "%s: %r not decoded: %r" % (cs, p, texts)
    lying = raw.decode(cs).replace("<head>", '<head><meta charset="windows-1252">')
    assert m.text(lying) == got, cs + ": a str was decoded again by its <meta>"
PY

# 2c. threads sharing one Model give the results of one thread; the GIL is
#     released while the library works.
tbk_python - "$TBK_SRC/datasets/examples" <<'PY' || die "threads differ from one thread, or the GIL is held"
import glob, sys, threading, tbk
pages = [open(f, "rb").read() for f in sorted(glob.glob(sys.argv[1] + "/*.html"))] * 6
m = tbk.Model()
want = [(m.text(p), [b.record for b in m.blocks(p)]) for p in pages]
got = [None] * len(pages)
def work(k):
    for i in range(k, len(pages), 4):
        got[i] = (m.text(pages[i]), [b.record for b in m.blocks(pages[i])])
ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in ts: t.start()
for t in ts: t.join()
assert got == want
# The GIL is released during the library's calls: a Python thread keeps
# running while another is inside one. Held, it would stop for the whole of
# the page's longest call (parse or render: 76% of model.text's time with
# ctypes.PyDLL, which holds it); released, its longest pause is a scheduler
# slice (3-4%, on this busy 2-core VM). Wall-clock gaps: no timing race.
import time
para = "<div><p>%d The committee met on Tuesday to discuss the budget of the new library and its hours.</p></div>"
big = ("<html><body>" + "".join(para % i for i in range(6000)) + "</body></html>").encode()
stamps, done = [], threading.Event()
def spin():
    while not done.is_set():
        stamps.append(time.perf_counter())
b = threading.Thread(target=spin)
b.start()
time.sleep(0.05)
t0 = time.perf_counter()
m.text(big)
t1 = time.perf_counter()
done.set()
b.join()
inside = [t0] + [x for x in stamps if t0 < x < t1] + [t1]
pause = max(y - x for x, y in zip(inside, inside[1:]))
assert pause < 0.25 * (t1 - t0), "the other thread stopped for %.0f of %.0f ms: the GIL is held" % (pause * 1e3, (t1 - t0) * 1e3)
PY

# 2d. charset=: an HTTP Content-Type's charset, as tbk-predict takes a WARC
#     record's (ISO-8859-2 Polish, mostly ASCII: sniffed alone it would be
#     windows-1252).
python3 - "$T/pl.warc" "$T/pl.html" <<'PY' || die "making the WARC failed"
import sys
p = "Zażółć gęślą jaźń: w Łodzi otwarto nową bibliotekę miejską, a mieszkańcy chwalą jej godziny otwarcia."
body = ("<html><head><title>Łódź</title></head><body>" + "".join("<div><p>%s %d</p></div>" % (p, i) for i in range(6))
        + "</body></html>").encode("iso-8859-2")
http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-2\r\n\r\n" + body
head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://pl.example/a\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n"
        "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(http)).encode()
open(sys.argv[1], "wb").write(head + http + b"\r\n\r\n")
open(sys.argv[2], "wb").write(body)
PY
"$IPRED" -f text "$T/pl.warc" >"$T/pl.want" || die "tbk-predict on the WARC failed"
tbk_python - "$T/pl.html" "$T/pl.want" <<'PY' || die "charset= is not the HTTP charset"
import sys, tbk
m = tbk.Model()
raw = open(sys.argv[1], "rb").read()
assert m.text(raw, charset="ISO-8859-2").encode("utf-8") == open(sys.argv[2], "rb").read()
assert any("gęślą jaźń" in b.text for b in m.blocks(raw, charset="iso-8859-2"))
assert not any("gęślą" in b.text for b in m.blocks(raw)), "sniffed alone, ISO-8859-2 should not be found"
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
# tbk-label's lines also name the WARC record (warc_file, ...); label_site's
# pages come from no WARC.
want = [{k: v for k, v in json.loads(l).items() if not k.startswith("warc_")}
        for l in open(tmp + "/labels.jsonl", encoding="utf-8")]
assert all("warc_record_id" in json.loads(l) for l in open(tmp + "/labels.jsonl", encoding="utf-8"))
assert len(want) > 50, len(want)
assert got == want, "first difference at %d" % next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
assert {r["label"] for r in got} == {"template", "content"}
PY

# 3b. a template-only model (trained here): blocks have p_content None and
#     the template stage's records, as tbk-predict -f jsonl writes them.
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/s3" --sites 3 --pages 12 --seed 3 >/dev/null || die "synth failed"
"$PREFIX/bin/tbk-label" -q -o "$T/s3.labels" "$T/s3/manifest.tsv" || die "tbk-label failed"
"$PREFIX/bin/tbk-features" --labels "$T/s3.labels" -o "$T/s3.svm" --words "$T/s3.words" --meta "$T/s3.meta" \
  "$T/s3/manifest.tsv" 2>/dev/null || die "tbk-features failed"
"$PREFIX/bin/tbk-train" -q -o "$T/t.model" "$T/s3.svm" "$T/s3.words" "$T/s3.meta" || die "tbk-train failed"
f=$TBK_SRC/datasets/examples/news-article.html
"$IPRED" -m "$T/t.model" -f jsonl "$f" >"$T/t.jsonl" || die "tbk-predict -m t.model failed"
"$IPRED" -m "$T/t.model" -f text "$f" >"$T/t.txt" || die "tbk-predict -m t.model failed"
tbk_python - "$T/t.model" "$f" "$T/t.jsonl" "$T/t.txt" <<'PY' || die "template-only model differs"
import json, sys, tbk
m = tbk.Model(sys.argv[1])
html = open(sys.argv[2], "rb").read()
blocks = m.blocks(html, url=sys.argv[2])
assert [b.record for b in blocks] == [json.loads(l) for l in open(sys.argv[3], encoding="utf-8")]
assert blocks and all(b.p_content is None and b.p_template == b.record["p"] for b in blocks)
assert m.text(html).encode("utf-8") == open(sys.argv[4], "rb").read()
PY

# 4. a real site, when the shared data sets are unpacked.
M=$TBK_SRC/datasets/cache/site_mirrors/manifest.tsv
if [ -f "$M" ]; then
  tbk_python - "$M" "$IPRED" "$PREFIX/bin/tbk-label" "$T" <<'PY' || die "python module differs on site_mirrors"
import csv, json, os, subprocess, sys, tbk
man, pred, label, tmp = sys.argv[1:5]
base = os.path.dirname(man)
rows = [r for r in csv.DictReader(open(man, encoding="utf-8"), delimiter="\t")]
m = tbk.Model()
# the first site (Latin) and a Chinese one (issue #21's segmentation)
for site in [rows[0]["site"]] + [s for s in ["rookieterry.github.io"] if any(r["site"] == s for r in rows)]:
    mine = sorted((r for r in rows if r["site"] == site), key=lambda r: r["page"])
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
    assert {r["label"] for r in got} == {"template", "content"}, site
    print("site_mirrors: %s: text and blocks of 15 pages, labels of %d pages equal" % (site, len(mine)))
PY
else
  echo "python_module: datasets/cache/site_mirrors absent: real-site comparison skipped"
fi
# 5. `pip install ./python` into a virtual environment, offline and with
#    pip's build isolation: the build backend is the package's own
#    (python/_build, the standard library alone), so nothing beyond pip and
#    venv (setup.sh's python3-venv) is needed, and nothing is written into
#    the source tree. The library is then named by TBK_LIBRARY alone: the
#    model is found beside it (PREFIX/share/tbk).
PIPPY=
for py in python3 /usr/bin/python3; do
  command -v "$py" >/dev/null && "$py" -c "import venv, ensurepip" 2>/dev/null && { PIPPY=$py; break; }
done
if [ -n "$PIPPY" ]; then
  (cd "$TBK_SRC/python" && find . -printf '%p %s %T@\n' | sort) >"$T/src.before"
  "$PIPPY" -m venv "$T/venv" || die "venv failed"
  "$T/venv/bin/python" -m pip install -q --no-index "$TBK_SRC/python" >"$T/pip.log" 2>&1 ||
    die "pip install ./python failed: $(tail -5 "$T/pip.log")"
  (cd "$TBK_SRC/python" && find . -printf '%p %s %T@\n' | sort) >"$T/src.after"
  diff "$T/src.before" "$T/src.after" >"$T/src.diff" || die "pip install ./python changed the source tree: $(head -5 "$T/src.diff")"
  f=$TBK_SRC/datasets/examples/news-article.html
  "$IPRED" -f text "$f" >"$T/want.txt"
  (cd "$T" && unset PYTHONPATH TBK_MODEL && TBK_PY=$T/venv/bin/python \
    TBK_LIBRARY=$(find "$PREFIX" -name libtbk.so.1 | head -1) \
    tbk_python - "$f" "$T/want.txt" "$T/venv" "$PREFIX" <<'PY') || die "the pip-installed module differs"
import os, sys, tbk
assert os.path.realpath(tbk.__file__).startswith(os.path.realpath(sys.argv[3])), tbk.__file__
m = tbk.Model()
assert os.path.realpath(m.path).startswith(os.path.realpath(sys.argv[4])), m.path
assert m.text(open(sys.argv[1], "rb").read()).encode("utf-8") == open(sys.argv[2], "rb").read()
PY
else
  echo "python_module: no python3 with venv and ensurepip: pip install ./python not checked"
fi
echo "python_module: ok"
