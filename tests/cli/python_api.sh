#!/usr/bin/env bash
# The Python module's API (#32 item 6), run from the source tree over the
# build's libtbk.so.1 named by TBK_LIBRARY alone (the model is then found
# beside it): a Model used after close() or its with block raises
# ValueError (it segfaulted); many short-lived threads leave RSS bounded
# (each kept ~0.8 MiB); label_site follows tbk-label's --min-pages; bytes
# for url=/charset= work, other types raise TypeError, a NUL ValueError;
# pathlib paths and file objects are pages; tbk.extract() gives what
# tbk-predict writes with the same options, None when nothing is kept, and
# the page's declared metadata in "json"; tbk.read_warc() yields the
# records tbk-predict reads, with their record ids, dates and headers.
. "$(dirname "$0")/lib.sh"
python_module_env
tmp_reset
T=$TBK_TMP
unset TBK_MODEL
tbk_python() { python3 "$@"; }
# A sanitizer's allocator keeps freed memory in quarantine: RSS says nothing
# about leaks there (the pool's bound is still checked).
export TBK_RSS_CHECK=1
case $(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$TBK_BIN/CMakeCache.txt") in
  Asan)
    TBK_RSS_CHECK=0
    tbk_python() {
      LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)" \
        ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 python3 "$@"
    } ;;
  Ubsan)
    TBK_RSS_CHECK=0
    tbk_python() { LD_PRELOAD=$(cc -print-file-name=libubsan.so) python3 "$@"; } ;;
esac
EX=$TBK_SRC/datasets/examples/news-article.html

# 1. after close(), after the with block: ValueError, in a child process so
#    that a crash fails here with its signal; close() waits for a running
#    call; the model is found from TBK_LIBRARY alone (the build tree's copy).
tbk_python - "$EX" "$TBK_BIN" <<'PY' || die "use after close"
import os, sys, threading, time, tbk
ex, bindir = sys.argv[1:3]
m = tbk.Model()
assert os.path.realpath(m.path) == os.path.realpath(bindir + "/share/tbk/default.model"), m.path
html = open(ex, "rb").read()
m.close()
m.close()  # twice: nothing
for call in (lambda: m.text(html), lambda: m.blocks(html), lambda: m.extract(html)):
    try:
        call()
    except ValueError as e:
        assert "closed" in str(e), e
    else:
        raise SystemExit("no ValueError after close()")
with tbk.Model() as m2:
    assert m2.text(html)
try:
    m2.text(html)
except ValueError:
    pass
else:
    raise SystemExit("no ValueError after the with block")
try:
    with m2:
        pass
except ValueError:
    pass
else:
    raise SystemExit("entering a closed model's with block")
# close() while another thread is inside a call: the call completes, the
# next one raises
m3 = tbk.Model()
big = ("<html><body>" + "".join("<div><p>%d The committee met on Tuesday to discuss the budget.</p></div>" % i
                                for i in range(4000)) + "</body></html>").encode()
res = {}
started = threading.Event()
def work():
    started.set()
    res["first"] = m3.text(big)
    try:
        m3.text(big)
    except ValueError:
        res["second"] = "ValueError"
t = threading.Thread(target=work)
t.start()
started.wait()
while not m3._busy:  # inside the first call (a parse of ~100 ms)
    time.sleep(0.0005)
m3.close()
t.join()
assert res.get("first") and res.get("second") == "ValueError", res
PY

# 2. 1,000 short-lived threads each using the model: RSS stays bounded (it
#    grew by ~0.3-0.8 MiB a thread); 64 threads at once share a bounded pool.
tbk_python - <<'PY' || die "per-thread predictors leak"
import os, threading, tbk
def rss():
    for l in open("/proc/self/status"):
        if l.startswith("VmRSS:"):
            return int(l.split()[1]) / 1024
m = tbk.Model(pool_size=4)
page = "<html><body><div><p>The committee met on Tuesday to discuss the budget of the library.</p></div></body></html>"
want = m.text(page)
def work():
    assert m.text(page) == want
for _ in range(50):
    t = threading.Thread(target=work); t.start(); t.join()
r0 = rss()
for _ in range(1000):
    t = threading.Thread(target=work); t.start(); t.join()
ts = [threading.Thread(target=work) for _ in range(64)]
for t in ts: t.start()
for t in ts: t.join()
grown = rss() - r0
assert grown < 60 or os.environ["TBK_RSS_CHECK"] == "0", "RSS grew by %.0f MiB over 1,000 threads" % grown
assert len(m._idle) <= 4, len(m._idle)
m.close()
PY

# 3. label_site follows tbk-label's --min-pages: a 1-page site gets no
#    labels (tbk-label: a warning, no output, exit 3); min_pages=1 labels it.
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/one" --sites 1 --pages 12 --seed 5 >/dev/null || die "synth failed"
head -2 "$T/one/manifest.tsv" >"$T/one/one1.tsv"
run "$LABEL" -q "$T/one/one1.tsv"
[[ $RC == 3 && ! -s $OUT ]] || die "tbk-label on one page: exit $RC, $(wc -c <"$OUT") bytes"
expect_err "pages < --min-pages 10"
run "$LABEL" -q --min-pages 1 -o "$T/one1.labels" "$T/one/one1.tsv"
[[ $RC == 0 ]] || die "tbk-label --min-pages 1 failed"
tbk_python - "$T" <<'PY' || die "label_site differs from tbk-label's --min-pages"
import csv, json, os, sys, warnings, tbk
tmp = sys.argv[1]
r = next(csv.DictReader(open(tmp + "/one/one1.tsv", encoding="utf-8"), delimiter="\t"))
page = (r["page"], r["url"], open(os.path.join(tmp, "one", r["page"]), "rb").read())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    assert tbk.label_site([page]) == []
assert len(w) == 1 and issubclass(w[0].category, tbk.TooFewPagesWarning), [str(x.message) for x in w]
assert "1 readable pages < min_pages 10" in str(w[0].message), str(w[0].message)
got = tbk.label_site([page], min_pages=1, site=r["site"])
assert got == [json.loads(l) for l in open(tmp + "/one1.labels", encoding="utf-8")], "min_pages=1 differs"
# unreadable pages do not count
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    assert tbk.label_site([page, ("u2", "http://x/2", b"")], min_pages=2) == []
assert w and "1 readable pages < min_pages 2" in str(w[0].message)
for bad in [[page[:1]], [3], None]:
    try:
        tbk.label_site(bad)
    except TypeError:
        pass
    else:
        raise SystemExit("no TypeError for %r" % (bad,))
PY

# 4. argument types: bytes url/charset as str; other types TypeError; NUL
#    ValueError; pathlib paths and file objects are pages.
tbk_python - "$EX" <<'PY' || die "argument types"
import io, pathlib, tbk
ex = pathlib.Path(__import__("sys").argv[1])
raw = ex.read_bytes()
m = tbk.Model(pathlib.Path(tbk.Model().path))  # a model path may be a Path
want = m.text(raw)
assert m.text(ex) == want and m.text(open(ex, "rb")) == want and m.text(io.BytesIO(raw)) == want
assert m.text(io.StringIO(raw.decode("utf-8"))) == want
assert m.text(bytearray(raw)) == want and m.text(memoryview(raw)) == want
url = "https://example.org/a"
assert [b.record for b in m.blocks(raw, url=url.encode())] == [b.record for b in m.blocks(raw, url=url)]
assert m.text(raw, charset=b"utf-8") == m.text(raw, charset="utf-8")
def raises(exc, f, *a, **k):
    try:
        f(*a, **k)
    except exc as e:
        return str(e)
    raise SystemExit("no %s for %r %r" % (exc.__name__, a, k))
raises(TypeError, m.text, raw, url=3)
raises(TypeError, m.text, raw, charset=["utf-8"])
raises(TypeError, m.text, 42)
raises(TypeError, m.text, None)
raises(TypeError, tbk.Model, 3.5)
raises(TypeError, tbk.site_of_url, None)
raises(TypeError, tbk.extract, raw, threshold="0.5")
raises(TypeError, tbk.extract, raw, body="yes")
raises(TypeError, tbk.extract, raw, model="default")
raises(TypeError, tbk.read_warc, 7)
assert "NUL" in raises(ValueError, tbk.Model, "/tmp/x\0.model")
assert "NUL" in raises(ValueError, tbk.Model, b"/tmp/x\0.model")
raises(ValueError, tbk.read_warc, "a\0.warc")
raises(ValueError, m.text, raw, url="http://a/\0b")
raises(ValueError, m.text, raw, charset="utf-8\0")
raises(ValueError, tbk.site_of_url, "http://a\0b/")
raises(ValueError, tbk.extract, raw, output_format="xml")
raises(ValueError, tbk.extract, raw, stage="both")
raises(ValueError, tbk.extract, raw, threshold=0.5, precision=0.9)
raises(ValueError, tbk.extract, raw, threshold=1.5)
assert tbk.site_of_url(b"http://www.example.co.uk/x") == "example.co.uk"
PY

# 5. extract() = tbk-predict with the same options; None when nothing is
#    kept; "json" carries the declared metadata.
cat >"$T/meta.html" <<'EOF'
<!DOCTYPE html><html lang="fr"><head><title>Le titre - Journal</title>
<meta property="og:site_name" content="Le Journal">
<meta property="og:title" content="Le titre">
<meta name="description" content="R&eacute;sum&eacute;">
<script type="application/ld+json">{"@type":"NewsArticle","headline":"Le titre","author":{"@type":"Person","name":"Jeanne Martin"},"datePublished":"2024-06-01T09:00:00+02:00","inLanguage":"fr-FR"}</script>
</head><body><article><h1>Le titre</h1>
<p>La bibliothèque municipale a rouvert ses portes mardi après huit mois de travaux, avec une salle de lecture surélevée et des horaires plus longs le week-end.</p>
<p>Les bénévoles ont aussi installé une grainothèque au sous-sol, où chacun peut déposer ou emprunter des semences de légumes et de fleurs du jardin.</p>
</article></body></html>
EOF
i=0
while IFS='|' read -r opts kw; do
  i=$((i + 1))
  for fmt in text jsonl html; do
    # shellcheck disable=SC2086
    "$PRED" -f $fmt $opts "$EX" >"$T/p$i.$fmt" 2>"$T/p$i.err" || die "tbk-predict -f $fmt $opts failed"
  done
  tbk_python - "$EX" "$T/p$i" "$kw" <<'PY' || die "extract($3) differs from tbk-predict"
import json, sys, tbk
ex, base, kw = sys.argv[1], sys.argv[2], eval("dict(%s)" % sys.argv[3])
for fmt, ext in [("txt", "text"), ("jsonl", "jsonl"), ("html", "html")]:
    want = open(base + "." + ext, "rb").read().decode("utf-8")
    got = tbk.extract(open(ex, "rb").read(), url=ex if fmt == "jsonl" else None, output_format=fmt, **kw)
    assert got == want, "%s %r: %r... vs %r..." % (fmt, kw, (got or "")[:80], want[:80])
PY
done <<'EOF'
|
-t 0.3|threshold=0.3
-p 0.9|precision=0.9
--stage template|stage="template"
--stage template -t 0.7|stage="template", threshold=0.7
--body|body=True
--keep comments|keep_comments=True
--no-title|title=False
--min-kept-words 0 --min-prose-share 0|min_kept_words=0, prose_share=0
--min-text-share 0.9|text_share=0.9
EOF
"$PRED" -f html --annotate "$EX" >"$T/annot.html" || die "tbk-predict --annotate failed"
"$PRED" -f text "$T/meta.html" >"$T/meta.txt" || die "tbk-predict on meta.html failed"
tbk_python - "$EX" "$T" <<'PY' || die "extract: json, None, annotate"
import json, sys, tbk
ex, tmp = sys.argv[1:3]
raw = open(ex, "rb").read()
assert tbk.extract(raw, output_format="html", annotate=True) == open(tmp + "/annot.html", encoding="utf-8").read()
# nothing kept, nothing there: None
assert tbk.extract("<html><body><nav><a href=/>Home</a> <a href=/b>About</a></nav></body></html>") is None
assert tbk.extract(raw, stage="template", threshold=0) is None
assert tbk.extract(b"") is None and tbk.extract("   ") is None
assert tbk.extract(b"\x00\x01\x02binary\x00" * 100) is None
# json: the text and the declared metadata
doc = json.loads(tbk.extract(open(tmp + "/meta.html", "rb"), url="https://journal.example/a", output_format="json"))
assert doc["text"] == open(tmp + "/meta.txt", encoding="utf-8").read(), doc["text"]
want = {"url": "https://journal.example/a", "title": "Le titre", "author": "Jeanne Martin",
        "date": "2024-06-01T09:00:00+02:00", "site_name": "Le Journal", "language": "fr", "description": "Résumé",
        "canonical": None, "type": "NewsArticle"}
assert {k: doc[k] for k in want} == want, doc
assert tbk.metadata(open(tmp + "/meta.html", "rb"))["author"] == "Jeanne Martin"
meta = tbk.metadata(__import__("pathlib").Path(ex))  # a str would be the HTML itself
assert meta["author"] and meta["date"] and meta["title"], meta
# a page declaring nothing: every field None
assert set(tbk.metadata("<html><body><p>x</p></body></html>").values()) == {None}
PY

# 6. read_warc: the records tbk-predict reads, in file order, with record
#    id, date and headers; extract(record) = tbk-predict's page.
python3 "$TBK_SRC/datasets/synth_sites.py" --out "$T/w" --sites 2 --pages 4 --seed 9 --warc "$T/s.warc" >/dev/null ||
  die "synth --warc failed"
gzip -c "$T/s.warc" >"$T/s.warc.gz"
"$PRED" -f jsonl "$T/s.warc" >"$T/s.jsonl" || die "tbk-predict on the WARC failed"
"$PRED" -f text --output-dir "$T/out" "$T/s.warc" || die "tbk-predict --output-dir failed"
printf 'WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 5\r\n\r\nHTTP/' >"$T/cut.warc"
tbk_python - "$T" <<'PY' || die "read_warc"
import glob, json, os, pathlib, sys, warnings, tbk
tmp = sys.argv[1]
want = []
for l in open(tmp + "/s.jsonl", encoding="utf-8"):
    p = json.loads(l)["page"]
    if p not in want:
        want.append(p)
for path in (tmp + "/s.warc", pathlib.Path(tmp + "/s.warc.gz")):
    with tbk.read_warc(path) as r:
        recs = list(r)
        assert len(r) == len(recs) == 8 and r.skipped == 0 and not r.warnings
    assert [x.url for x in recs] == want or sorted(x.url for x in recs) == sorted(want), ([x.url for x in recs], want)
    for x in recs:
        assert x.record_id.startswith("<urn:uuid:") and x.date, (x.record_id, x.date)
        assert x.status == 200 and "Content-Type" in x.headers and x.warc_headers["WARC-Type"] == "response"
        assert x.html.lstrip().lower().startswith((b"<!doctype", b"<html")), x.html[:40]
# each record's extract() is the page tbk-predict wrote for it
texts = {}
for f in glob.glob(tmp + "/out/**/*.txt", recursive=True):
    texts[open(f, encoding="utf-8").read()] = f
m = tbk.Model()
for x in tbk.read_warc(tmp + "/s.warc"):
    assert m.text(x) in texts, x.url
    assert tbk.extract(x) == m.text(x)
# errors: a missing file, a file with no record, no HTML
for bad, code in [(tmp + "/none.warc", "I/O error"), (tmp + "/s.jsonl", None), (tmp + "/cut.warc", None)]:
    try:
        tbk.read_warc(bad)
    except tbk.Error as e:
        assert bad in str(e) and (code is None or e.code == code), (str(e), e.code)
    else:
        raise SystemExit("no Error for " + bad)
r = tbk.read_warc(tmp + "/s.warc")
r.close()
try:
    list(r)
except ValueError:
    pass
else:
    raise SystemExit("a closed WarcReader iterated")
PY
# 7. keywords() = tbk-keywords -f jsonl (its default table beside the
#    model, each --denoise, --df none, --top).
KW=$TBK_BIN/keywords/tbk-keywords
for f in "$TBK_SRC"/datasets/examples/*.html; do
  for d in "" "--denoise none" "--denoise template" "--df none --top 3"; do
    # shellcheck disable=SC2086
    "$KW" -f jsonl $d "$f" >"$T/kw.jsonl" || die "tbk-keywords $d failed on $f"
    tbk_python - "$f" "$T/kw.jsonl" "$d" <<'PY' || die "keywords() differs from tbk-keywords $d on $f"
import json, pathlib, sys, tbk
f, want, opts = sys.argv[1], json.load(open(sys.argv[2], encoding="utf-8")), sys.argv[3].split()
kw = {}
if "--denoise" in opts:
    kw["denoise"] = opts[opts.index("--denoise") + 1]
if "--df" in opts:
    kw["df"] = "/dev/null"  # an empty file: refused, not "none"
    try:
        tbk.keywords(pathlib.Path(f), **kw)
    except tbk.Error as e:
        assert str(e).startswith("/dev/null: "), str(e)
    else:
        raise SystemExit("an empty df file was taken")
    kw["df"] = None
    m = tbk.Model()
    kw["model"] = m
    # idf 1: a model whose directory has no keywords.df
    import os, shutil, tempfile
    d = tempfile.mkdtemp()
    shutil.copy(m.path, d)
    kw["model"] = tbk.Model(os.path.join(d, os.path.basename(m.path)))
if "--top" in opts:
    kw["top"] = int(opts[opts.index("--top") + 1])
got = tbk.keywords(pathlib.Path(f), **kw)
assert got == want["keywords"], (opts, got[:3], want["keywords"][:3])
PY
  done
done
echo "python_api: ok"
