#!/usr/bin/env python3
"""The hostile-input suite of issue #13: one generated case per shape.

Each case is built here at run time (no third-party page), run once, and
must end with the exit code it names, print the message it names (and only
"tbk-xxx: error|warning: ..." lines), leave behind exactly the outputs it
names (new files present, clobber targets unchanged, refused outputs absent)
and finish within its time. Run by ctest as hostile/<class>, one class per
test (python3 hostile.py CLASS); the environment is that of tests/cli.
"""
import gzip
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

BIN = os.environ["TBK_BIN"]
SRC = os.environ["TBK_SRC"]
TMP = os.environ["TBK_TMP"]
PROGS = {
    "label": BIN + "/label/tbk-label",
    "features": BIN + "/features/tbk-features",
    "train": BIN + "/train/tbk-train",
    "predict": BIN + "/predict/tbk-predict",
    "keywords": BIN + "/keywords/tbk-keywords",
    "eval": BIN + "/eval/tbk-eval",
}
MODEL = BIN + "/share/tbk/default.model"
# Sanitizer builds are several times slower: the limits are for a Release build.
SLOW = float(os.environ.get("TBK_HOSTILE_SLOW", "1"))

failures = []


def page(i, site="example.org", extra=""):
    return ("<html><head><title>%s %d</title></head><body>"
            "<div class=nav><a href=/>home</a> <a href=/about>about us</a> <a href=/contact>contact</a></div>"
            "<div><p>page %d of %s: alpha bravo charlie delta echo foxtrot golf hotel india %s</p></div>"
            "<div class=foot>copyright %s all rights reserved by nobody in particular</div>"
            "</body></html>" % (site, i, i, site, extra, site))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def case(name, prog, args, rc, err=None, no_err=None, present=(), absent=(), unchanged=(), secs=10.0,
         stdin=None, cpu=None):
    """Run one case and record what went wrong, if anything. cpu: a limit on
    the program's CPU seconds, which a loaded machine does not inflate as it
    does the wall clock (secs)."""
    before = {p: digest(p) for p in unchanged}
    argv = [PROGS[prog]] + list(args)
    cpu0 = child_cpu()
    t0 = time.monotonic()
    try:
        r = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=max(30.0, secs * SLOW * 3), cwd=TMP)
    except subprocess.TimeoutExpired:
        failures.append("%s: did not finish (%s)" % (name, " ".join(argv)))
        return
    took = time.monotonic() - t0
    cpu_took = child_cpu() - cpu0
    stderr = r.stderr.decode("utf-8", "replace")
    problems = []
    if r.returncode != rc:
        problems.append("exit %d, expected %d" % (r.returncode, rc))
    if err and not re.search(err, stderr, re.M):
        problems.append("stderr lacks /%s/" % err)
    if no_err and re.search(no_err, stderr, re.M):
        problems.append("stderr has /%s/" % no_err)
    tool = "tbk-" + prog + (" " + args[0] if prog == "eval" else "")
    for line in stderr.splitlines():
        if not re.match(r"^%s: (error|warning): |^Try '%s --help'|^site +pages|^\S+ +\d+ +\d+ +\d+ |^%s: \d+ rows"
                        % (tool, tool, tool), line):
            problems.append("stray stderr line %r" % line)
            break
    for p in present:
        if not os.path.exists(p):
            problems.append("%s missing" % p)
    for p in absent:
        if os.path.exists(p):
            problems.append("%s left behind" % p)
    for p, d in before.items():
        if not os.path.exists(p) or digest(p) != d:
            problems.append("%s changed" % p)
    leftovers = [f for f in os.listdir(TMP) if ".tmp." in f]
    if leftovers:
        problems.append("temporary files left: %s" % leftovers[:3])
    if took > secs * SLOW:
        problems.append("took %.1f s (limit %.1f s)" % (took, secs * SLOW))
    if cpu is not None and cpu_took > cpu * SLOW:
        problems.append("used %.1f s of CPU (limit %.1f s)" % (cpu_took, cpu * SLOW))
    if problems:
        failures.append("%s: %s\n    %s\n    stderr: %s" % (name, "; ".join(problems), " ".join(argv),
                                                            stderr.strip().replace("\n", "\n            ")))
    else:
        print("ok %-40s exit %d  %.2f s (%.2f s CPU)" % (name, r.returncode, took, cpu_took))


# ------------------------------------------------------- parse time

MIB = 1 << 20


def class1():
    """Super-linear parse time: every shape either parses within ~1 s of CPU
    per MiB or is refused by a limit before the cost explodes (the target is
    2 s per MiB; the quadratic shapes below take 5 to 60 s unguarded)."""
    head = "<html><head><title>t</title></head><body><p>" + "lorem ipsum dolor sit amet " * 20 + "</p>"
    shapes = [
        # name, page, size in MiB, exit, message (None: parsed, exit 0)
        ("attributes on one element", head + "<div " + " ".join("a%d=1" % i for i in range(1001)) + ">x</div>",
         0.1, 3, r"element with more than max-attrs \(1000\) attributes at line 1 \(skipped\)"),
        ("1000 attributes on each element", head + ("<div " + " ".join("a%d=1" % i for i in range(1000)) + ">x</div>\n") * 150,
         1, 0, None),
        ("distinct attribute names", head + "".join("<div " + " ".join("a%d_%d=1" % (j, i) for i in range(900)) + ">"
                                                    for j in range(4 * MIB // 9000)),
         4, 3, r"more than 100000 distinct element and attribute names \(skipped\)"),
        ("distinct element names", head + "".join("<e%d/>" % j for j in range(2 * MIB // 10)),
         2, 3, r"(more than 100000 distinct element and attribute names|parsing would take quadratic time) \(skipped\)"),
        ("very long attribute value", head + '<div title="' + "a" * (4 * MIB) + '">x</div></body></html>', 4, 0, None),
        ("long attribute value of entities", head + '<div title="' + "&amp;" * (4 * MIB // 5) + '">x</div>', 4, 0, None),
        ("many open elements", head + "<div>" * (MIB // 5), 1, 3, r"elements nested deeper than max-depth \(4096\) \(skipped\)"),
        ("stray end tags under open elements", head + "<span>" * 4000 + "</i>" * (MIB // 4), 1, 3,
         r"too many parse errors under deeply nested elements: parsing would take quadratic time \(skipped\)"),
        ("end tags a <div> closes over", head + "<p><div></p>" * (MIB // 12), 1, 3, r"quadratic time \(skipped\)"),
        ("misplaced <body> under open elements", head + "<div>" * 3000 + "<body>" * (MIB // 6), 1, 3,
         r"quadratic time \(skipped\)"),
        ("end tag blocked by open <div>s", head + "<span>" + "<div>" * 3000 + "</span>" * (MIB // 7), 1, 3,
         r"quadratic time \(skipped\)"),
        ("deep tables", head + "<table><tr><td>" * (MIB // 15), 1, 3, r"nested deeper than max-depth \(4096\) \(skipped\)"),
        ("long run of entities", head + "<p>" + "&amp;&lt;&#x41;&#66;" * (4 * MIB // 20), 4, 0, None),
        ("long run of unknown entities", head + "<p>" + "&zzzz;&am " * (2 * MIB // 10), 2, 0, None),
        ("many forms", head + "<form><input name=q></form>" * (2 * MIB // 28), 2, 0, None),
        ("many nested forms", head + "<form>" * (MIB // 6), 1, None, None),
        ("many options", head + "<select>" + "<option>x" * (MIB // 9), 1, None, None),
    ]
    for name, html, mib, rc, msg in shapes:
        f = write(TMP + "/shape.html", html)
        if rc is None:
            # Refused by one limit or another, or parsed: only the time is the point.
            r = subprocess.run([PROGS["predict"], "-m", MODEL, "-o", "/dev/null", f], stderr=subprocess.PIPE, cwd=TMP)
            rc = r.returncode if r.returncode in (0, 3) else 0
        case("class1 %s (%.1f MiB)" % (name, len(html) / MIB), "predict", ["-m", MODEL, "-o", "shape.txt", "shape.html"],
             rc, err=("shape.html: .*" + msg) if msg else None, present=[TMP + "/shape.txt"],
             secs=max(5.0, 3 * mib), cpu=max(1.0, mib))
        os.remove(f)


# ---------------------------------------------------------------- WARC

def http(body, head="HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8"):
    return head.encode() + b"\r\n\r\n" + body


def record(uri, block, clen=None):
    h = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri.encode() + b"\r\n"
    h += b"Content-Type: application/http; msgtype=response\r\n"
    h += b"Content-Length: %d\r\n\r\n" % (len(block) if clen is None else clen)
    return h + block + b"\r\n\r\n"


def warc_files(stem, recs):
    """stem.warc and stem.warc.gz (one member per record)."""
    write(TMP + "/" + stem + ".warc", b"".join(recs))
    write(TMP + "/" + stem + ".warc.gz", b"".join(gzip.compress(r) for r in recs))
    return [stem + ".warc", stem + ".warc.gz"]


def class2():
    """State between WARC records, lying lengths (#22 item 3), status lines."""
    u = "http://example.org/%s"
    variants = [
        ("br", http(page(0).encode(), "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br")),
        ("after-br", http(page(1).encode())),
        ("gzip", http(gzip.compress(page(2).encode()),
                      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip")),
        ("lying-gzip", http(page(3).encode(), "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip")),
        ("undeclared-gzip", http(gzip.compress(page(4).encode()), "HTTP/1.1 200 OK\r\nContent-Type: text/html")),
        ("bad-status", http(page(5).encode(), "HTTP/1.1 2OO OK\r\nContent-Type: text/html")),
        ("after-bad-status", http(page(6).encode())),
    ]
    recs = [record(u % n, b) for n, b in variants]
    for f in warc_files("mixed", recs):
        out = TMP + "/" + f + ".jsonl"
        case("class2 interleaved heads " + f, "predict", ["-m", MODEL, "-f", "jsonl", "-o", out, f], 3,
             err=r"%s: record at offset \d+ \(http://example.org/br\): unsupported Content-Encoding \"br\"" % re.escape(f),
             present=[out], secs=5)
        got = set(re.findall(r'"page":"http://example.org/([^"]+)"', open(out).read())) if os.path.exists(out) else set()
        want = {"after-br", "gzip", "lying-gzip", "undeclared-gzip", "after-bad-status"}
        if got != want:
            failures.append("class2 interleaved heads %s: pages %s, expected %s" % (f, sorted(got), sorted(want)))
        text = open(out, encoding="utf-8", errors="replace").read() if os.path.exists(out) else ""
        if "\ufffd" in text or "\\u001f" in text:
            failures.append("class2 interleaved heads %s: compressed bytes passed as text" % f)
    for f in warc_files("status", [record(u % "s", http(page(7).encode(), "HTTP 200 OK\r\nContent-Type: text/html")),
                                   record(u % "t", http(page(8).encode()))]):
        case("class2 malformed status line " + f, "predict", ["-m", MODEL, "-o", f + ".txt", f], 3,
             err=r"\(http://example.org/s\): malformed HTTP status line \"HTTP 200 OK\"; record skipped",
             present=[TMP + "/" + f + ".txt"], secs=5)
    # The example: four records, the second claims 5,000 bytes and holds 120.
    blocks = [http(page(i).encode()) for i in range(4)]
    shapes = {
        "long": ([record(u % i, blocks[i][:120] if i == 1 else blocks[i], 5000 if i == 1 else None) for i in range(4)],
                 r"\(http://example.org/1\): Content-Length 5000 runs past (the next record header \(offset \d+\)|the end of its gzip member)"),
        "short": ([record(u % i, blocks[i], len(blocks[i]) - 30 if i == 1 else None) for i in range(4)],
                  r"\(http://example.org/1\): Content-Length \d+ ends \d+ bytes short of the next record header "
                  r"\(offset [0-9+]+\); its block is read to there \(record kept\)"),
        "eof": ([record(u % i, blocks[i], 5000 if i == 3 else None) for i in range(4)],
                r"\(http://example.org/3\): Content-Length 5000 runs past the end of the file, and no record header follows"),
    }
    for shape, (recs, msg) in shapes.items():
        for f in warc_files("lie-" + shape, recs):
            out = TMP + "/" + f + ".jsonl"
            # A length 30 bytes short of the next header is recovered (#32 item 2):
            # read to that header, with a warning, and no skip.
            liar = "3" if shape == "eof" else "" if shape == "short" else "1"
            case("22.3 Content-Length %s %s" % (shape, f), "predict", ["-m", MODEL, "-f", "jsonl", "-o", out, f],
                 0 if shape == "short" else 3,
                 err=re.escape(f) + r": record at offset \d+ " + msg, present=[out], secs=5)
            got = set(re.findall(r'"page":"http://example.org/(\d)"', open(out).read())) if os.path.exists(out) else set()
            if got != set("0123") - {liar}:
                failures.append("22.3 %s %s: pages %s" % (shape, f, sorted(got)))


# ------------------------------------------------------------- outputs

def class3():
    """Outputs that clobber or escape: refused (exit 2) before any work."""
    d = TMP + "/pages"
    shutil.rmtree(d, ignore_errors=True)
    a = write(d + "/a.html", page(1))
    write(d + "/b.html", page(2))
    write(d + "/c.html", page(3))
    model = write(TMP + "/copy.model", open(MODEL, "rb").read())
    case("class3 -o names an input", "predict", ["-m", model, "-o", a, d], 2,
         err=r"tbk-predict: error: .*/pages/a.html: output is (also an input|the same file as the input)", unchanged=[a])
    case("class3 -o names an input, other spelling", "label", ["-q", "-o", "pages/../pages/./a.html", "pages"], 2,
         err=r"pages/\.\./pages/\./a.html: output is the same file as the input", unchanged=[a])
    os.symlink("pages/a.html", TMP + "/link.html") if not os.path.lexists(TMP + "/link.html") else None
    case("class3 -o a link to an input", "features", ["-o", "link.html", "pages/a.html"], 2,
         err=r"link.html: output is the same file as the input pages/a.html", unchanged=[a])
    case("class3 -o names the model", "predict", ["-m", model, "-o", model, a], 2,
         err=r"copy.model: output is (also an input|the same file as the input)", unchanged=[model])
    case("class3 --meta names the labels", "features", ["--labels", "pages/b.html", "--meta", "pages/b.html", a], 2,
         err=r"pages/b.html: output is also an input", unchanged=[d + "/b.html"])
    case("class3 -o ''", "predict", ["-m", model, "-o", "", a], 2, err=r"-o: an empty file name names no file")
    case("class3 --stats ''", "label", ["-q", "--stats", "", d], 2, err=r"--stats: an empty file name")
    case("class3 train -o ''", "train", ["-q", "-o", "", "x.svm", "x.words", "x.meta"], 2, err=r"-o: an empty file name")
    case("class3 --output-dir ''", "predict", ["-m", model, "--output-dir", "", a], 2,
         err=r"--output-dir: an empty directory name")
    case("class3 eval cv --out ''", "eval", ["cv", "--out", "", "x.svm", "x.words", "x.meta"], 2,
         err=r"--out: an empty directory name")
    case("class3 two outputs one file", "features", ["-o", "f.svm", "--meta", "./f.svm", a], 2,
         err=r"\./f.svm: named as two outputs of this run", absent=[TMP + "/f.svm"])
    case("class3 train -o names its rows", "train", ["-q", "-o", a, a, a, a], 2, err=r"output is also an input",
         unchanged=[a])
    # Two pages mapping to one output name: both written, the later one told apart.
    write(d + "/a.htm", page(4))
    write(d + "/q?x.html", page(5))
    write(d + "/q#x.html", page(6))
    out = TMP + "/out"
    shutil.rmtree(out, ignore_errors=True)
    case("class3 colliding output names", "predict", ["-m", model, "--output-dir", "out", "pages"], 0,
         err=r"pages/a.html: its output name out/pages/a.txt is taken by pages/a.htm; written as out/pages/a~2.txt",
         present=[out + "/pages/a.txt", out + "/pages/a~2.txt", out + "/pages/q_x.txt", out + "/pages/q_x~2.txt"])
    if os.path.exists(out + "/pages/a~2.txt") and "page 1 of" not in open(out + "/pages/a~2.txt").read():
        failures.append("class3 colliding output names: a~2.txt does not hold a.html's text")
    # One page's name is a directory another page's name needs: the file is told apart.
    fd = warc_files("filedir", [record("http://h.example/a", http(page(7).encode())),
                                record("http://h.example/a.txt/b", http(page(8).encode()))])[0]
    out = TMP + "/out2"
    shutil.rmtree(out, ignore_errors=True)
    case("class3 a file name another name needs as a directory", "predict", ["-m", model, "--output-dir", "out2", fd],
         0, err=r"http://h.example/a: its output name out2/http/h.example/a.txt is a directory for "
                r"http://h.example/a.txt/b; written as out2/http/h.example/a~2.txt",
         present=[out + "/http/h.example/a~2.txt", out + "/http/h.example/a.txt/b.txt"])
    if os.path.exists(out + "/http/h.example/a~2.txt") and "page 7 of" not in open(out + "/http/h.example/a~2.txt").read():
        failures.append("class3 file and directory names: a~2.txt does not hold a's text")


# ------------------------------------------------------ one bad item

def class4():
    """One bad item (an over-long URL, one page over a limit) costs that
    item only: the others are processed, the run ends with exit 3 (some
    input skipped) or 0 when nothing had to be, and --strict makes it fatal."""
    u = "http://example.org/%s"
    long_path = "/".join(["w" * 250] * 20)
    recs = [record(u % 0, http(page(0).encode())),
            record(u % ("x" * 200000), http(page(1).encode())),
            record(u % 2, http(page(2).encode())),
            record(u % ("y" * 3000), http(page(3).encode())),
            record(u % long_path, http(page(4).encode())),
            record(u % 5, http(page(5).encode()))]
    for f in warc_files("longurl", recs):
        out = TMP + "/" + f + ".jsonl"
        case("class4 200 kB WARC-Target-URI " + f, "predict", ["-m", MODEL, "-f", "jsonl", "-o", out, f], 3,
             err=re.escape(f) + r": record at offset \d+: WARC header line too long", present=[out], secs=5)
        got = set(re.findall(r'"page":"http://example.org/(\w{1,3})', open(out).read())) if os.path.exists(out) else set()
        if got != {"0", "2", "yyy", "www", "5"}:
            failures.append("class4 200 kB WARC-Target-URI %s: pages %s" % (f, sorted(got)))
        if os.path.exists(out):
            os.remove(out)
        case("class4 200 kB WARC-Target-URI, --strict " + f, "predict", ["--strict", "-m", MODEL, "-o", out, f], 1,
             err=r"WARC header line too long\n^tbk-predict: error: %s: input skipped in part \(--strict\)" % re.escape(f),
             absent=[out], secs=5)
    # Names too long for a file system under --output-dir: a part shortened
    # with the MD5 of the whole, a name of many parts hashed past its host,
    # every page written, exit 0; index.tsv says which file is which URL.
    od = TMP + "/od"
    shutil.rmtree(od, ignore_errors=True)
    f = write(TMP + "/names.warc", b"".join(recs[:1] + recs[2:]))
    h = od + "/http/example.org"
    case("class4 URLs too long for file names", "predict", ["-m", MODEL, "--output-dir", "od", "names.warc"], 0,
         present=[h + "/0.txt", h + "/2.txt", h + "/5.txt"], secs=5)
    names = os.listdir(h) if os.path.isdir(h) else []
    if not any(re.match(r"y{150}~[0-9a-f]{32}\.txt$", n) for n in names):
        failures.append("class4 URLs too long for file names: the 3000-byte part was not shortened: %s" % names)
    if not any(re.match(r"~[0-9a-f]{32}\.txt$", n) for n in names):
        failures.append("class4 URLs too long for file names: the 20-part URL was not written under its hash")
    written = sum(len(files) for _, _, files in os.walk(od))
    if written != 6:
        failures.append("class4 URLs too long for file names: %d files written, expected 5 and index.tsv" % written)
    rows = open(od + "/index.tsv").read().splitlines()[1:] if os.path.exists(od + "/index.tsv") else []
    if sorted(r.split("\t")[1] for r in rows) != sorted(u % x for x in ["0", "2", "y" * 3000, long_path, "5"]):
        failures.append("class4 URLs too long for file names: index.tsv does not name the 5 URLs")
    os.remove(f)
    # One page over each limit, in every program that reads pages and every
    # input form: the page is skipped by name, the others go through.
    d = TMP + "/limits"
    shutil.rmtree(d, ignore_errors=True)
    for i in range(4):
        write(d + "/s/p%d.html" % i, page(i))
    bad = {
        "attrs": ("<html><body><div " + " ".join("a%d=1" % i for i in range(1100)) + ">x</div></body></html>",
                  r"element with more than max-attrs \(1000\) attributes at line 1 \(skipped\)"),
        "deep": ("<html><body>" + "<div>" * 5000 + "x</body></html>",
                 r"elements nested deeper than max-depth \(4096\) \(skipped\)"),
        "big": ("<html><body><p>" + "word " * 300000 + "</p></body></html>",
                r"(file exceeds max-page-bytes|exceeds max-record-bytes) \(1048576\) \(skipped\)"),
    }
    for name, (html, _) in bad.items():
        write(d + "/s/%s.html" % name, html)
    write(TMP + "/limits.tsv", "site\tpage\n" + "".join("s\tlimits/s/%s.html\n" % n for n in
                                                      ["p0", "p1", "p2", "p3"] + list(bad)))
    lim = ["--max-page-bytes", "1M"]
    progs = [("label", ["-q", "--min-pages", "2", "-o", "lim.out"]), ("features", ["-o", "lim.out"]),
             ("predict", ["-m", MODEL, "-o", "lim.out"]), ("keywords", ["-o", "lim.out"])]
    for prog, args in progs:
        for form in ("limits", "limits.tsv"):
            case("class4 one page over each limit, %s %s" % (prog, form), prog, lim + args + [form], 3,
                 err="".join(r"(.|\n)*limits/s/%s.html: %s" % (n, m) for n, (_, m) in sorted(bad.items())),
                 present=[TMP + "/lim.out"], secs=10)
            if prog == "predict" and os.path.exists(TMP + "/lim.out"):
                text = open(TMP + "/lim.out").read()
                if not all("page %d of" % i in text for i in range(4)):
                    failures.append("class4 %s %s: a good page is missing from the output" % (prog, form))
            if os.path.exists(TMP + "/lim.out"):
                os.remove(TMP + "/lim.out")
        case("class4 one page over a limit, %s --strict" % prog, prog, ["--strict"] + lim + args + ["limits"], 1,
             err=r"^tbk-%s: error: limits/s/\w+.html: " % prog, absent=[TMP + "/lim.out"], secs=10)
    # stdin over the limit beside a good file.
    case("class4 stdin over max-page-bytes", "predict", ["-m", MODEL, "--max-page-bytes", "1M", "-o", "lim.out", "-",
         "limits/s/p1.html"], 3, err=r"^tbk-predict: warning: -: (file exceeds max-page-bytes|standard input exceeds)",
         present=[TMP + "/lim.out"], stdin=bad["big"][0].encode(), secs=10)
    # A manifest row naming a file whose name is too long: that row only.
    write(TMP + "/longname.tsv", "site\tpage\ns\tlimits/s/p0.html\ns\t%s.html\ns\tlimits/s/p1.html\n" % ("z" * 5000))
    case("class4 manifest row with a 5000-byte file name", "predict", ["-m", MODEL, "-o", "lim.out", "longname.tsv"], 3,
         err=r"z{5000}\.html: manifest row 2: no such file", present=[TMP + "/lim.out"], secs=5)


# ------------------------------------------------ bad labels and gold

def class5():
    """Input that would be silently miscounted: a page listed twice (its
    words would count twice in every document frequency) is warned about
    with a count, and is fatal with --strict."""
    d = TMP + "/pages"
    shutil.rmtree(d, ignore_errors=True)
    for i in range(3):
        write(d + "/p%d.html" % i, page(i))
    case("class5 a page listed twice", "features", ["-o", "f.svm", "pages", "pages/./p1.html"], 0,
         err=r"^tbk-features: warning: pages/p1.html: the same page as pages/\./p1.html, listed twice(.|\n)*"
             r"^tbk-features: warning: 1 pages listed more than once", present=[TMP + "/f.svm"], secs=5)
    os.remove(TMP + "/f.svm")
    case("class5 a page listed twice, --strict", "label", ["-q", "--strict", "-o", "l.jsonl", "pages", "pages/./p1.html"],
         1, err=r"^tbk-label: error: pages/p1.html: the same page as pages/\./p1.html, listed twice \(--strict\)",
         absent=[TMP + "/l.jsonl"], secs=5)
    case("class5 distinct pages, no warning", "features", ["-o", "f.svm", "pages"], 0, no_err=r"listed twice",
         present=[TMP + "/f.svm"], secs=5)
    # The copy is dropped: one page's rows once, not twice.
    subprocess.run([PROGS["features"], "-o", TMP + "/once.svm", "pages"], stderr=subprocess.DEVNULL, cwd=TMP)
    subprocess.run([PROGS["features"], "-o", TMP + "/twice.svm", "pages", "pages/./p1.html"], stderr=subprocess.DEVNULL,
                   cwd=TMP)
    if digest(TMP + "/once.svm") != digest(TMP + "/twice.svm"):
        failures.append("class5 a page listed twice: its rows are not written once")
    for f in ("f.svm", "once.svm", "twice.svm"):
        if os.path.exists(TMP + "/" + f):
            os.remove(TMP + "/" + f)
    labels_cases()
    one_site()


def labels_cases():
    """Labels that match no block, invalid values, a block labelled both
    ways, a line over the limit: each warned about by line, summed up at the
    end (exit 3), and fatal with --strict."""
    r = subprocess.run([PROGS["label"], "-q", "--min-pages", "2", "-o", TMP + "/good.jsonl", "pages"],
                       stderr=subprocess.PIPE, cwd=TMP)
    if r.returncode != 0:
        failures.append("class5 labels: tbk-label failed: %s" % r.stderr.decode())
        return
    rows = [json.loads(l) for l in open(TMP + "/good.jsonl")]
    bad = [json.dumps(o) for o in rows]
    n = len(bad)
    shapes = [
        ("invalid label value", dict(rows[0], label="templat"),
         r"labels.jsonl:%d: invalid label \(not template, boilerplate, content, ignored, 1, -1 or 0\) \(skipped\)" % (n + 1)),
        ("numeric label 2", dict(rows[0], label=2), r"labels.jsonl:%d: invalid label" % (n + 1)),
        ("conflicting labels", dict(rows[1], label="template" if rows[1]["label"] == "content" else "content"),
         r"labels.jsonl:%d: conflicts with the label of line 2 for the same block \(skipped\)" % (n + 1)),
        ("label that matches no block", dict(rows[0], path="/html[1]/body[1]/div[99]"),
         r"labels.jsonl:%d: labelled block /html\[1\]/body\[1\]/div\[99\] of pages/p0.html not found on that page \(skipped\)" % (n + 1) +
         r"(.|\n)*labels.jsonl: 1 labelled blocks in all were not found"),
        ("line over 16 MiB", "x" * (17 << 20), r"labels.jsonl:%d: line longer than 16777216 bytes \(skipped\)" % (n + 1)),
    ]
    for name, extra, msg in shapes:
        write(TMP + "/labels.jsonl", "\n".join(bad + [extra if isinstance(extra, str) else json.dumps(extra)]) + "\n")
        summary = r"" if "no block" in name else r"(.|\n)*^tbk-features: warning: labels.jsonl: 1 label lines skipped"
        case("class5 labels: " + name, "features", ["--labels", "labels.jsonl", "-o", "f.svm", "pages"], 3,
             err=r"^tbk-features: warning: " + msg + summary, present=[TMP + "/f.svm"], secs=10)
        os.remove(TMP + "/f.svm")
        case("class5 labels: %s, --strict" % name, "features", ["--strict", "--labels", "labels.jsonl", "-o", "f.svm",
             "pages"], 1, err=r"^tbk-features: error: .*\(--strict\)$", absent=[TMP + "/f.svm"], secs=10)
    # tbk-eval chunks reads labels the same way (--blocks-labels); its
    # messages say "tbk-eval", not "tbk-eval chunks", so case() is not used.
    write(TMP + "/labels.jsonl", "\n".join(bad + [json.dumps(dict(rows[0], label="templat"))]) + "\n")
    for strict, rc, msg in ((False, 3, r"^tbk-eval chunks: warning: labels.jsonl:%d: invalid label(.|\n)*"
                             r"^tbk-eval chunks: warning: labels.jsonl: 1 label lines skipped" % (n + 1)),
                            (True, 1, r"^tbk-eval chunks: error: labels.jsonl:%d: invalid label.*\(--strict\)$" % (n + 1))):
        r = subprocess.run([PROGS["eval"], "chunks"] + (["--strict"] if strict else []) +
                           ["--min-pages", "2", "--blocks-labels", "labels.jsonl", "pages"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=TMP, timeout=60)
        err = r.stderr.decode("utf-8", "replace")
        name = "class5 labels: invalid value in tbk-eval chunks" + (", --strict" if strict else "")
        if r.returncode != rc or not re.search(msg, err, re.M):
            failures.append("%s: exit %d (expected %d), stderr %r" % (name, r.returncode, rc, err))
        else:
            print("ok %-40s exit %d" % (name, rc))
    # A block labelled both ways gets no label: its row is not written.
    write(TMP + "/labels.jsonl", "\n".join(bad + [json.dumps(dict(rows[1], label="template" if rows[1]["label"] == "content"
                                                                  else "content"))]) + "\n")
    subprocess.run([PROGS["features"], "--labels", "labels.jsonl", "-o", "both.svm", "pages"], stderr=subprocess.DEVNULL,
                   cwd=TMP)
    subprocess.run([PROGS["features"], "--labels", "good.jsonl", "-o", "good.svm", "pages"], stderr=subprocess.DEVNULL,
                   cwd=TMP)
    both, good = (sum(1 for _ in open(TMP + "/" + f)) for f in ("both.svm", "good.svm"))
    if both != good - 1:
        failures.append("class5 conflicting labels: %d rows, expected %d (the block unlabelled)" % (both, good - 1))
    for f in ("labels.jsonl", "both.svm", "good.svm"):
        os.remove(TMP + "/" + f)


def one_site():
    """A training set of one site: tbk-train warns (no cross-site CV, no
    operating points) and tbk-predict -p says why it refuses the model."""
    syn, rows = synth_rows("one", 1, 4)
    case("class5 one training site", "train", ["-q", "-o", "one.model"] + rows, 0,
         err=r"^tbk-train: warning: \S+one.meta: rows from 1 site \(\S+\): no cross-site CV, so the model gets no operating points",
         present=[TMP + "/one.model"], secs=20)
    case("class5 one training site --strict", "train", ["-q", "--strict", "-o", "strict.model"] + rows, 1,
         err=r"^tbk-train: error: \S+one.meta: rows from 1 site \(\S+\): no cross-site CV, so no operating points \(--strict\)",
         absent=[TMP + "/strict.model"], secs=20)
    case("class5 -p on a one-site model", "predict", ["-m", "one.model", "-p", "0.9", "-o", "one.txt",
         syn + "/manifest.tsv"], 5, err=r"^tbk-predict: error: one.model: the model stores no operating points "
         r"\(trained without cross-site CV, as on one site\): -p 0.9 needs one; give -t THRESHOLD instead",
         absent=[TMP + "/one.txt"], secs=5)


# ------------------------------------------------------- special files

def class6():
    """FIFOs, devices and directories where a file is read, a full disk
    where one is written, and the stdin spool under SIGTERM."""
    p = write(TMP + "/p.html", page(1))
    fifo = TMP + "/fifo"
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    os.makedirs(TMP + "/dir.html", exist_ok=True)
    shapes = [
        ("FIFO with no writer as a page", ["-m", MODEL, "-o", "o.txt", "fifo"], 3, r"fifo: empty page \(0 bytes\) \(skipped\)"),
        ("FIFO with no writer as the model", ["-m", "fifo", "-o", "o.txt", "p.html"], 5,
         r"fifo: truncated or not a tbk model"),
        ("/dev/zero as the model", ["-m", "/dev/zero", "-o", "o.txt", "p.html"], 5,
         r"/dev/zero: cannot read: is a device, not a file"),
        ("/dev/zero as a page", ["-m", MODEL, "-o", "o.txt", "/dev/zero"], 3,
         r"/dev/zero: cannot read: is a device, not a file \(skipped\)"),
        ("a directory as the model", ["-m", "dir.html", "-o", "o.txt", "p.html"], 5, r"dir.html: cannot read: is a directory"),
        ("-o on a full disk", ["-m", MODEL, "-o", "/dev/full", "p.html"], 4,
         r"/dev/full: cannot write output: No space left on device"),
    ]
    for name, args, rc, msg in shapes:
        absent = [TMP + "/o.txt"] if rc in (4, 5) else []
        case("class6 " + name, "predict", args, rc, err=r"^tbk-predict: (error|warning): " + msg, absent=absent, secs=5)
        if os.path.exists(TMP + "/o.txt"):
            os.remove(TMP + "/o.txt")
    case("class6 /dev/zero as labels", "features", ["--labels", "/dev/zero", "-o", "f.svm", "p.html"], 1,
         err=r"^tbk-features: error: /dev/zero: cannot read: is a device, not a file", absent=[TMP + "/f.svm"], secs=5)
    case("class6 a directory as labels", "features", ["--labels", "dir.html", "-o", "f.svm", "p.html"], 1,
         err=r"^tbk-features: error: dir.html: cannot read: is a directory", absent=[TMP + "/f.svm"], secs=5)
    case("class6 FIFO with no writer as labels", "features", ["--labels", "fifo", "-o", "f.svm", "p.html"], 1,
         err=r"^tbk-features: error: fifo: empty labels file \(0 bytes\)", absent=[TMP + "/f.svm"], secs=5)
    write(TMP + "/empty.jsonl", "")
    case("class6 empty labels file", "features", ["--labels", "empty.jsonl", "-o", "f.svm", "p.html"], 1,
         err=r"^tbk-features: error: empty.jsonl: empty labels file \(0 bytes\)", absent=[TMP + "/f.svm"], secs=5)
    # Two outputs, the second on a full disk: the first is not left either.
    pages = TMP + "/sixpages"
    for i in range(3):
        write(pages + "/p%d.html" % i, page(i))
    case("class6 label --stats on a full disk", "label", ["-q", "--min-pages", "2", "-o", "lab.jsonl", "--stats",
         "/dev/full", "sixpages"], 4, err=r"^tbk-label: error: /dev/full: cannot write output: No space left on device",
         absent=[TMP + "/lab.jsonl"], secs=5)
    case("class6 features --meta on a full disk", "features", ["-o", "f.svm", "--words", "f.words", "--meta",
         "/dev/full", "sixpages"], 4, err=r"^tbk-features: error: /dev/full: cannot write output: No space left",
         absent=[TMP + "/f.svm", TMP + "/f.words"], secs=5)
    cv_full_stdout()
    cv_killed()
    gold_files()
    # The stdin spool: the program ended by SIGTERM while stdin is still
    # open leaves no copy of it in TMPDIR.
    spool = TMP + "/spool"
    shutil.rmtree(spool, ignore_errors=True)
    os.makedirs(spool)
    env = dict(os.environ, TMPDIR=spool)
    proc = subprocess.Popen([PROGS["predict"], "-m", MODEL, "-o", TMP + "/stdin.txt", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=TMP)
    proc.stdin.write(page(2).encode())
    proc.stdin.flush()
    time.sleep(0.5 * SLOW)
    proc.terminate()
    proc.wait()
    proc.stdin.close()
    left = os.listdir(spool)
    if left or os.path.exists(TMP + "/stdin.txt"):
        failures.append("class6 stdin spool under SIGTERM: left %s" % (left + ["stdin.txt"] * os.path.exists(TMP + "/stdin.txt")))
    else:
        print("ok class6 stdin spool under SIGTERM")


def cv_killed():
    """tbk-eval cv ended by SIGTERM or SIGINT at any point leaves neither --out
    nor its DIR.tmp.* staging directory (files in it or not)."""
    rows = [TMP + "/cv.svm", TMP + "/cv.words", TMP + "/cv.meta"]
    out = TMP + "/cvkill"
    problems, killed = [], 0
    # The signals land at fractions of an unkilled run's time: fixed delays
    # missed every run on an idle machine, where the whole cv takes < 0.1 s.
    t0 = time.monotonic()
    subprocess.run([PROGS["eval"], "cv", "-q", "-k", "3", "--out", out] + rows, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, cwd=TMP, timeout=60 * SLOW)
    whole = time.monotonic() - t0
    shutil.rmtree(out, ignore_errors=True)
    for sig, frac in (("TERM", 0.05), ("INT", 0.2), ("TERM", 0.4), ("INT", 0.6)):
        proc = subprocess.Popen([PROGS["eval"], "cv", "-q", "-k", "3", "--out", out] + rows, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, cwd=TMP)
        delay = frac * whole
        time.sleep(delay)
        killed += proc.poll() is None
        proc.send_signal(getattr(__import__("signal"), "SIG" + sig))
        proc.wait()
        left = [f for f in os.listdir(TMP) if f.startswith("cvkill.tmp.")]
        if left:
            problems.append("SIG%s after %.2f s left %s" % (sig, delay, left))
        shutil.rmtree(out, ignore_errors=True)
        for f in left:
            shutil.rmtree(TMP + "/" + f, ignore_errors=True)
    if not killed:
        problems.append("every run ended before its signal")
    if problems:
        failures.append("class6 eval cv killed: " + "; ".join(problems))
    else:
        print("ok class6 eval cv killed (SIGTERM, SIGINT): no --out staging left (%d of 4 killed mid-run)" % killed)


def gold_files():
    """Gold files that are empty, a FIFO with no writer, a device or a
    directory: refused by name (the page scored as empty gold by tbk-eval
    gold, exit 3; skipped by tbk-label --gold), never read as no content."""
    g = TMP + "/gold"
    shutil.rmtree(g, ignore_errors=True)
    for i in range(5):
        write(g + "/p%d.html" % i, page(i))
        write(g + "/p%d.txt" % i, "page %d of example.org: alpha bravo charlie delta echo foxtrot golf hotel india" % i)
    write(g + "/p1.txt", "")
    os.mkfifo(g + "/fifo.txt")
    os.makedirs(g + "/dir.txt")
    golds = {"p0": "p0.txt", "p1": "p1.txt", "p2": "fifo.txt", "p3": "/dev/zero", "p4": "dir.txt"}
    write(g + "/manifest.tsv", "site\tpage\tgold\n" + "".join("s\t%s.html\t%s\n" % kv for kv in golds.items()))
    msgs = [r"gold/p1.txt: empty gold file \(0 bytes\)", r"gold/fifo.txt: empty gold file \(0 bytes\)",
            r"/dev/zero: cannot read: is a device, not a file", r"gold/dir.txt: cannot read: is a directory"]
    case("class6 gold files: eval gold", "eval", ["gold", "--baseline", "gold/manifest.tsv"], 3,
         err="".join(r"(.|\n)*" + m + r" \(scored as empty gold\)" for m in msgs), secs=5)
    case("class6 gold files: label --gold", "label", ["-q", "--gold", "-o", "gold.jsonl", "gold/manifest.tsv"], 3,
         err="".join(r"(.|\n)*" + m + r" \(skipped\)" for m in msgs), present=[TMP + "/gold.jsonl"], secs=5)
    if os.path.exists(TMP + "/gold.jsonl"):
        got = {json.loads(l)["page"] for l in open(TMP + "/gold.jsonl")}
        if got != {"p0.html"}:
            failures.append("class6 gold files: label --gold labelled %s, expected only p0.html" % sorted(got))
        os.remove(TMP + "/gold.jsonl")


def synth_rows(stem, sites, seed):
    """Synthetic sites (6 pages each) labelled and featurized: the manifest's
    directory and the rows STEM.svm, STEM.words, STEM.meta."""
    syn = TMP + "/synth-" + stem
    if not os.path.exists(syn + "/manifest.tsv"):
        subprocess.run([sys.executable, SRC + "/datasets/synth_sites.py", "--out", syn, "--sites", str(sites), "--pages",
                        "6", "--seed", str(seed)], stdout=subprocess.DEVNULL, check=True)
    rows = [TMP + "/%s.%s" % (stem, ext) for ext in ("svm", "words", "meta")]
    subprocess.run([PROGS["label"], "-q", "--min-pages", "2", "-o", TMP + "/" + stem + ".jsonl", syn + "/manifest.tsv"],
                   stderr=subprocess.DEVNULL, check=True)
    subprocess.run([PROGS["features"], "--labels", TMP + "/" + stem + ".jsonl", "-o", rows[0], "--words", rows[1],
                    "--meta", rows[2], syn + "/manifest.tsv"], stderr=subprocess.DEVNULL)
    return syn, rows


def cv_full_stdout():
    """tbk-eval cv whose table cannot be written (stdout on a full disk):
    exit 4 and neither --out nor its staging directory left."""
    _, rows = synth_rows("cv", 3, 3)
    out = TMP + "/cvout"
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.monotonic()
    with open("/dev/full", "w") as full:
        r = subprocess.run([PROGS["eval"], "cv", "-q", "-k", "3", "--out", out] + rows, stdout=full,
                           stderr=subprocess.PIPE, timeout=60 * SLOW, cwd=TMP)
    took = time.monotonic() - t0
    stderr = r.stderr.decode("utf-8", "replace")
    left = [f for f in os.listdir(TMP) if f.startswith("cvout")]
    problems = []
    if r.returncode != 4:
        problems.append("exit %d, expected 4" % r.returncode)
    if not re.search(r"^tbk-eval cv: error: cannot write to standard output: No space left", stderr, re.M):
        problems.append("stderr lacks the stdout error")
    if left:
        problems.append("left behind: %s" % left)
    if took > 10 * SLOW:
        problems.append("took %.1f s" % took)
    if problems:
        failures.append("class6 eval cv, stdout on a full disk: %s\n    stderr: %s" % ("; ".join(problems), stderr))
    else:
        print("ok %-40s exit 4  %.2f s" % ("class6 eval cv, stdout on a full disk", took))


# ------------------------------------------------------------- numbers

def reseal(text):
    """The model text with every stage's checksum and the outer one made
    right again, as a hostile editor would: only the numbers are wrong."""
    out, starts = [], []
    for line in text.split("\n"):
        if line in ("tbk-model 1", "tbk-model 2", "tbk-history-model 1"):
            starts.append(len(out))
        if line.startswith("checksum "):
            body = "".join(x + "\n" for x in out[starts.pop():])
            line = "checksum " + hashlib.md5(body.encode()).hexdigest()
        out.append(line)
    return "\n".join(out)


def edit_model(text, pattern, repl, nth=0):
    lines, k = text.split("\n"), 0
    for i, line in enumerate(lines):
        if re.match(pattern, line):
            if k == nth:
                lines[i] = repl(line) if callable(repl) else repl
                return reseal("\n".join(lines))
            k += 1
    raise ValueError("model has no line /%s/ #%d" % (pattern, nth))


def class7():
    """Absurd model numbers: refused on load (exit 5, naming the line), or
    harmless; no output ever holds NaN or Inf."""
    base = open(MODEL).read()
    if reseal(base) != base:
        failures.append("class7: reseal does not reproduce the shipped model")
        return
    p = write(TMP + "/p.html", page(1))
    base_lines = base.split("\n")

    def line_of(pattern):
        """The file's line number (from 1) of the first line matching."""
        return next(k for k, l in enumerate(base_lines) if re.match(pattern, l)) + 1

    refused = [
        ("weight 1e308", r"^1 [-0-9]", "1 1e308", 0, r"line \d+: weight 1e\+308 out of range"),
        ("content-stage weight -1e308", r"^1 [-0-9]", "1 -1e308", 1, r"line \d+: weight -1e\+308 out of range"),
        ("weight nan", r"^1 [-0-9]", "1 nan", 0, r"line \d+: bad weight"),
        ("weight inf", r"^2 [-0-9]", "2 inf", 0, r"line \d+: bad weight"),
        ("C inf", r"^C ", "C inf", 0, r"line %d: expected C" % line_of(r"^C ")),
        ("cv_pr_auc 1e308", r"^cv_pr_auc", "cv_pr_auc 1e308", 0, r"line %d: expected cv_pr_auc" % line_of(r"^cv_pr_auc")),
        ("cv_pr_auc -inf", r"^cv_pr_auc", "cv_pr_auc -inf", 1, r"line \d+: expected cv_pr_auc"),
        ("operating point threshold 1e308", r"^op 0.90", "op 0.90 1e308 0.9", 0, r"line %d: bad operating point" % line_of(r"^op 0.90")),
        ("operating point recall nan", r"^op 0.90", "op 0.90 0.5 nan", 0, r"line %d: bad operating point" % line_of(r"^op 0.90")),
        ("encoder bound inf", r"^enc 0 ", lambda l: " ".join(l.split()[:4] + ["inf"] + l.split()[5:]), 0,
         r"line \d+: "),
        ("naive Bayes alpha 1e308", r"^alpha", "alpha 1e308", 0,
         r"naive bayes model \(from line \d+\): numbers out of range \(the log odds of word 0 are not finite\)"),
        ("naive Bayes counts 1e308", r"^totals", "totals 1e308 1e308", 0, r"naive bayes model"),
        ("history weight inf", r"^content ", lambda l: " ".join(l.split()[:2] + ["inf"] + l.split()[3:]), 0,
         r"line %d: bad content weight 2$" % line_of(r"^content ")),
        ("history weight 1e308", r"^template ", lambda l: " ".join(l.split()[:3] + ["1e308"] + l.split()[4:]), 0,
         r"line %d: bad template weight 3$" % line_of(r"^template ")),
        ("history inputs of another build", r"^inputs ", lambda l: l.replace(".shared", ".unique"), 0,
         r"line %d: the history stage's inputs are not this build's" % line_of(r"^inputs ")),
    ]
    for name, pattern, repl, nth, msg in refused:
        m = write(TMP + "/absurd.model", edit_model(base, pattern, repl, nth))
        case("class7 %s" % name, "predict", ["-m", "absurd.model", "-f", "jsonl", "-o", "absurd.jsonl", "p.html"], 5,
             err=r"^tbk-predict: error: absurd.model: " + msg, absent=[TMP + "/absurd.jsonl"], secs=5)
        os.remove(m)
    # The largest weights the loader takes, on the bias and every feature of
    # both stages, and encoder bounds at the ends of the doubles: the
    # decision is finite or clamped, every p a probability.
    big_lines = [re.sub(r"^(\d+) -?[0-9.e+-]+$", lambda mm: mm.group(1) + (" 1e6" if int(mm.group(1)) % 2 else " -1e6"), l)
                 for l in base.split("\n")]
    big = edit_model("\n".join(big_lines), r"^enc 0 ", lambda l: " ".join(l.split()[:4] + ["-1e308", "1e308"] + l.split()[6:]))
    write(TMP + "/big.model", big)
    for stage in ("combined", "template"):
        out = TMP + "/big-%s.jsonl" % stage
        case("class7 weights of 1e6, %s stage" % stage, "predict",
             ["-m", "big.model", "--stage", stage, "-f", "jsonl", "-o", out, "p.html"], 0, present=[out], secs=5)
        if os.path.exists(out):
            for line in open(out):
                if re.search(r"\b(nan|NaN|inf|Infinity)\b", line):
                    failures.append("class7 %s stage: %r" % (stage, line[:200]))
                    break
                row = json.loads(line)
                for key in ("p", "p_template", "p_content"):
                    if key in row and row[key] is not None and not 0 <= row[key] <= 1:
                        failures.append("class7 %s stage: %s = %r" % (stage, key, row[key]))


# ----------------------------------------------------------- encodings

def class8():
    """Stateful and 7-bit encodings, and UTF-16 without a BOM: decoded to
    their text (declared or, for ISO-2022, detected), or refused by naming
    the charset: never "not HTML" (binary) and never their raw shifts."""
    ja = [("日本", "東京"), ("大阪", "京都"), ("名古屋", "横浜"), ("札幌", "福岡")]
    ko = [("한국", "서울"), ("부산", "대구"), ("인천", "광주"), ("대전", "울산")]
    zh = [("中文", "北京"), ("上海", "广州"), ("深圳", "天津"), ("重庆", "成都")]
    latin = [("Grüße", "Köln"), ("schöne", "Straße"), ("Åre", "Malmö"), ("Zürich", "Genève")]

    def table(pairs, meta):
        # One short run a cell: the ISO-2022 shifts are a tenth of the bytes.
        rows = "".join("<tr><td>%s</td><td>%s</td></tr>" % p for p in pairs * 60)
        return ("<html><head>%s<title>t</title></head><body><table>%s</table><p>%s</p></body></html>"
                % (meta, rows, " ".join(a + " " + b for a, b in pairs * 3)))

    cases = [
        # name, python codec, pairs, declared label (None: undeclared), expected outcome
        ("ISO-2022-JP declared", "iso-2022-jp", ja, "iso-2022-jp", "text"),
        ("ISO-2022-JP undeclared", "iso-2022-jp", ja, None, "text"),
        ("ISO-2022-JP-2 declared", "iso-2022-jp-2", ja, "iso-2022-jp-2", "text"),
        ("ISO-2022-KR declared", "iso-2022-kr", ko, "iso-2022-kr", "text"),
        ("ISO-2022-KR undeclared", "iso-2022-kr", ko, None, "text"),
        ("csISO2022KR declared", "iso-2022-kr", ko, "csISO2022KR", "text"),
        ("UTF-7 declared", "utf-7", latin, "utf-7", "text"),
        ("UTF-16LE without BOM", "utf-16-le", ja, "utf-16le", "text"),
        ("UTF-16BE without BOM", "utf-16-be", ja, "utf-16be", "text"),
        ("UTF-16BE without BOM, Latin", "utf-16-be", latin, None, "text"),
        ("HZ-GB-2312 declared", "hz", zh, "hz-gb-2312",
         r"charset HZ-GB-2312 is not supported \(no converter for it on this system\) \(skipped\)"),
    ]
    for name, codec, pairs, label, want in cases:
        meta = "<meta charset=%s>" % label if label else ""
        f = write(TMP + "/enc.html", table(pairs, meta).encode(codec))
        out = TMP + "/enc.txt"
        if os.path.exists(out):
            os.remove(out)
        if want == "text":
            case("class8 %s" % name, "predict", ["-m", MODEL, "--stage", "template", "-f", "jsonl", "-o", "enc.txt", "enc.html"], 0,
                 no_err=r"not HTML|control bytes", present=[out], secs=5)
            # Every block with its text, whatever its score.
            got = " ".join(json.loads(l)["text"] for l in open(out, encoding="utf-8")) if os.path.exists(out) else ""
            missing = [w for p in pairs for w in p if w not in got]
            if missing or "\ufffd" in got or re.search(r"\$\)C|\$B|\+AP|~\{", got):
                failures.append("class8 %s: text not decoded (missing %s): %r" % (name, missing[:3], got[:120]))
        else:
            case("class8 %s" % name, "predict", ["-m", MODEL, "-o", "enc.txt", "enc.html"], 3,
                 err=r"^tbk-predict: warning: enc.html: " + want, present=[out], secs=5)
        os.remove(f)
    # NUL bytes at both parities are still binary, not UTF-16.
    f = write(TMP + "/nul.html", b"<html><body><p>" + b"text \0\0 more \0 " * 200 + b"</p></body></html>")
    case("class8 NULs at both parities", "predict", ["-m", MODEL, "-o", "nul.txt", "nul.html"], 3,
         err=r"nul.html: not HTML: \d+ of the first \d+ bytes are control bytes \(skipped\)", secs=5)
    os.remove(f)


# ------------------------------------------------------------ messages

def class9():
    """Every --help lists only options its program accepts and every exit code."""
    progs = [("label", []), ("features", []), ("train", []), ("predict", []), ("keywords", []), ("eval", ["cv"]), ("eval", ["gold"]),
             ("eval", ["snippets"])]
    for prog, sub in progs:
        r = subprocess.run([PROGS[prog]] + sub + ["--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        text = r.stdout.decode()
        name = " ".join(["tbk-" + prog] + sub)
        codes = set(re.findall(r"^  ([0-9])  ", text.split("Exit status:")[-1], re.M))
        want = set("01234") | ({"5"} if prog in ("label", "features", "train", "predict", "keywords") or sub == ["cv"] else set())
        if codes != want:
            failures.append("class9 %s --help: exit codes %s, expected %s" % (name, sorted(codes), sorted(want)))
        for opt in sorted(set(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)", text, re.M))):
            if opt in ("--help", "--version"):
                continue
            # Any value: a bad one is a usage error about the value, never an unknown or refused option.
            r2 = subprocess.run([PROGS[prog]] + sub + [opt, "1", "/nonexistent/x"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=TMP)
            err = r2.stderr.decode()
            if re.search(r"invalid option|come from the model|unrecognized", err):
                failures.append("class9 %s --help lists %s, which it refuses: %s" % (name, opt, err.strip()))
    print("ok class9 --help of %d programs" % len(progs))
    # A record refused while reading is named by its WARC file, offset and URI.
    zbody = gzip.compress(b"<div>" + b" " * (2 << 20) + b"</div>", 9)
    recs = [record("http://example.org/ok", http(page(1).encode())),
            record("http://example.org/zbomb", http(zbody, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                                                         "Content-Encoding: gzip"))]
    for f in warc_files("bomb", recs):
        case("class9 gzip bomb named by file and offset " + f, "predict",
             ["-m", MODEL, "--max-record-bytes", "1M", "-o", f + ".txt", f], 3,
             err=re.escape(f) + r": record at offset \d+ \(http://example.org/zbomb\): record body exceeds "
                 r"max-record-bytes \(1048576\) \(skipped\)", present=[TMP + "/" + f + ".txt"], secs=5)


# ------------------------------------------- round 3 (#34): outputs

def kw_site(d):
    """Eight pages of one site, each with its topic in <meta name=keywords>."""
    for i, t in enumerate(["volcano", "glacier", "desert", "meadow", "canyon", "lagoon", "tundra", "savanna"]):
        write(d + "/s/p%d.html" % i,
              "<html><head><title>The %s page</title><meta name=\"keywords\" content=\"%s, weather\"></head><body>"
              "<ul><li><a href=/>Home</a></li><li><a href=/n>Newsletter subscription offers</a></li></ul>"
              "<div><h1>All about the %s</h1><p>The %s is a place. Visitors of the %s see the %s at dawn.</p>"
              "<p>Every %s has its own weather; scientists study each %s for years.</p></div>"
              "<div>Newsletter subscription offers and subscription deals every week.</div></body></html>"
              % ((t,) * 8))


def class10():
    """#34 item 1: an output that is any file the run reads (after links
    and other spellings) is a usage error, exit 2, the file unchanged; in
    every program and for every output option."""
    kw = TMP + "/kw"
    shutil.rmtree(kw, ignore_errors=True)
    kw_site(kw)
    for f in ("kw.df", "kw.ranker"):
        if os.path.exists(TMP + "/" + f):
            os.remove(TMP + "/" + f)
    subprocess.run([PROGS["keywords"], "--build-df", "--min-df", "1", "-d", "none", "-o", "kw.df", "kw"],
                   stderr=subprocess.DEVNULL, cwd=TMP, check=True)
    subprocess.run([PROGS["keywords"], "--train-ranker", "--df", "kw.df", "-d", "none", "-o", "kw.ranker", "kw"],
                   stderr=subprocess.DEVNULL, cwd=TMP, check=True)
    same = r"(output is also an input of this run|output is the same file as the input \S+) \(it would be overwritten\)"
    df, rk = TMP + "/kw.df", TMP + "/kw.ranker"
    case("class10 keywords --df F -o F", "keywords", ["--df", "kw.df", "-d", "none", "-o", "kw.df", "kw/s/p0.html"], 2,
         err=r"^tbk-keywords: error: kw.df: " + same, unchanged=[df])
    case("class10 keywords --ranker F -o ./F", "keywords", ["--df", "kw.df", "--ranker", "kw.ranker", "-d", "none", "-o",
         "./kw.ranker", "kw/s/p0.html"], 2, err=r"^tbk-keywords: error: \./kw.ranker: " + same, unchanged=[rk])
    case("class10 keywords --train-ranker -o its --df", "keywords", ["--train-ranker", "--df", "kw.df", "-d", "none",
         "-o", "kw/../kw.df", "kw"], 2, err=r"kw/\.\./kw.df: " + same, unchanged=[df])
    # tbk-eval gold and snippets: the prediction files they read.
    g = TMP + "/g3"
    shutil.rmtree(g, ignore_errors=True)
    for i in range(2):
        write(g + "/p%d.html" % i, page(i))
        write(g + "/p%d.txt" % i, "page %d of example.org: alpha bravo charlie" % i)
        write(g + "/pred/p%d.txt" % i, "page %d of example.org: alpha bravo" % i)
    write(g + "/p0.comments.txt", "a comment")
    write(g + "/manifest.tsv", "site\tpage\tgold\ns\tp0.html\tp0.txt\ns\tp1.html\tp1.txt\n")
    pred0 = g + "/pred/p1.txt"
    case("class10 eval gold --per-page a prediction", "eval", ["gold", "--per-page", "g3/pred/p1.txt", "g3/manifest.tsv",
         "g3/pred"], 2, err=r"^tbk-eval gold: error: g3/pred/p1.txt: " + same, unchanged=[pred0])
    case("class10 eval gold --comments --per-page a comments file", "eval", ["gold", "--comments", "--per-page",
         "g3/p0.comments.txt", "--baseline", "g3/manifest.tsv"], 2, err=r"g3/p0.comments.txt: " + same,
         unchanged=[g + "/p0.comments.txt"])
    write(g + "/evaldata.json", json.dumps({"k0": {"with": ["alpha"], "without": ["zz"]},
                                            "k1": {"with": ["bravo"], "without": ["zz"]}}))
    write(g + "/pages.tsv", "key\tfile\tpage\nk0\t-\tp0.html\nk1\t-\tp1.html\n")
    case("class10 eval snippets --per-page a prediction", "eval", ["snippets", "--per-page", "g3/pred/./p1.txt",
         "g3/evaldata.json", "g3/pages.tsv", "g3/pred"], 2, err=r"g3/pred/\./p1.txt: " + same, unchanged=[pred0])
    case("class10 eval snippets --baseline --per-page a page", "eval", ["snippets", "--baseline", "--per-page",
         "g3/p0.html", "g3/evaldata.json", "g3/pages.tsv"], 2, err=r"g3/p0.html: " + same, unchanged=[g + "/p0.html"])
    # tbk-label --gold --gold-comments: the comments files it reads.
    case("class10 label --gold --gold-comments -o a comments file", "label", ["-q", "--gold", "--gold-comments", "-o",
         "g3/p0.comments.txt", "g3/manifest.tsv"], 2, err=r"g3/p0.comments.txt: " + same,
         unchanged=[g + "/p0.comments.txt"])
    # tbk-eval chunks -o its --blocks-labels or --truth.
    d = TMP + "/c3"
    shutil.rmtree(d, ignore_errors=True)
    for i in range(3):
        write(d + "/s/p%d.html" % i, page(i))
    subprocess.run([PROGS["label"], "-q", "--min-pages", "2", "-o", "c3/labels.jsonl", "c3"], stderr=subprocess.DEVNULL,
                   cwd=TMP, check=True)
    write(d + "/truth.tsv", "site\tmd5\ttpath\n")
    for opt, f in (("--blocks-labels", "c3/labels.jsonl"), ("--truth", "c3/truth.tsv")):
        case("class10 eval chunks -o its %s" % opt, "eval", ["chunks", "-q", "--min-pages", "2", opt, f, "-o", f, "c3"], 2,
             err=r"^tbk-eval chunks: error: %s: " % re.escape(f) + same, unchanged=[TMP + "/" + f])
        case("class10 eval chunks --csv its %s" % opt, "eval", ["chunks", "-q", "--min-pages", "2", "--sample", "2",
             opt, f, "--csv", f, "c3"], 2, err=re.escape(f) + ": " + same, unchanged=[TMP + "/" + f])
    # tbk-eval cv: a file --out would get is one of its rows files.
    _, rows = synth_rows("cv10", 3, 3)
    os.makedirs(TMP + "/cvo10", exist_ok=True)
    shutil.copy(rows[2], TMP + "/cvo10/per_site.csv")
    case("class10 eval cv --out DIR holding an input", "eval", ["cv", "-q", "-k", "3", "--out", "cvo10", rows[0], rows[1],
         "cvo10/per_site.csv"], 2, err=r"cvo10/per_site.csv: " + same, unchanged=[TMP + "/cvo10/per_site.csv"])
    # tbk-eval keywords: --df-out naming its --df.
    case("class10 eval keywords --df-out its --df", "eval", ["keywords", "-m", MODEL, "--df", "kw.df", "--df-out",
         "kw.df", "--train", "kw", "--test", "kw"], 2, err=r"kw.df: " + same, unchanged=[df])


def class11():
    """#34 item 8 (round-2 leftovers): a record before a damaged record
    header (junk, a misspelt version line) is kept, the damage skipped and
    named by its offset; a malformed words line is named by the words file
    and its line; a manifest row naming a directory says so."""
    u = "http://example.org/%d"
    recs = [record(u % i, http(page(i).encode())) for i in range(4)]
    shapes = [("junk", recs[:2] + [b"this is junk, not a record\r\n\r\n"] + recs[2:], "0123"),
              ("misspelt", recs[:2] + [recs[2].replace(b"WARC/1.0", b"WARX/1.0", 1)] + recs[3:], "013")]
    for name, rs, want in shapes:
        for f in warc_files("dmg-" + name, rs):
            out = TMP + "/" + f + ".jsonl"
            case("class11 record before a %s header %s" % (name, f), "predict", ["-m", MODEL, "-f", "jsonl", "-o", out, f],
                 3, err=r"^tbk-predict: warning: %s: offset \d+: expected a WARC record \(\"WARC/\"\); skipping to the "
                        r"next one$" % re.escape(f), no_err=r"Content-Length", present=[out], secs=5)
            got = set(re.findall(r'"page":"http://example.org/(\d)"', open(out).read())) if os.path.exists(out) else set()
            if got != set(want):
                failures.append("class11 record before a %s header %s: pages %s, expected %s" % (name, f, sorted(got),
                                                                                                 sorted(want)))
    # A malformed words line: the words file and its own line are named.
    _, rows = synth_rows("w11", 2, 5)
    bad = [TMP + "/w11bad." + ext for ext in ("svm", "words", "meta")]
    for src, dst in zip(rows, bad):
        shutil.copy(src, dst)
    lines = open(bad[1]).read().split("\n")
    lines[2] = "not a words line"
    write(bad[1], "\n".join(lines))
    case("class11 malformed words line names the words file", "train", ["-q", "-o", "w11.model"] + bad, 3,
         err=r"^tbk-train: warning: %s: line 3: malformed words line \(skipped\)$" % re.escape(bad[1]),
         no_err=r"w11bad.svm: line \d+: malformed words", present=[TMP + "/w11.model"], secs=20)
    lines = open(rows[2]).read().split("\n")
    lines[3] = "{not json"
    write(bad[2], "\n".join(lines))
    shutil.copy(rows[1], bad[1])
    case("class11 malformed meta line names the meta file", "train", ["-q", "-o", "w11.model"] + bad, 3,
         err=r"^tbk-train: warning: %s: line 4: meta line is not a JSON object with a site \(skipped\)$" % re.escape(bad[2]),
         present=[TMP + "/w11.model"], secs=20)
    # A manifest row naming a directory.
    write(TMP + "/md/s/p0.html", page(0))
    os.makedirs(TMP + "/md/s/sub.html", exist_ok=True)
    write(TMP + "/md/manifest.tsv", "site\tpage\ns\ts/p0.html\ns\ts/sub.html\ns\ts/gone.html\n")
    case("class11 manifest row naming a directory", "predict", ["-m", MODEL, "-o", "md.txt", "md/manifest.tsv"], 3,
         err=r"^tbk-predict: warning: md/s/sub.html: manifest row 2: is a directory, not a page file$"
             r"(.|\n)*^tbk-predict: warning: md/s/gone.html: manifest row 3: no such file$",
         present=[TMP + "/md.txt"], secs=5)


def class12():
    """#34 item 2: tbk-label --method chunks --strip DIR and --method etdm
    --template-html DIR write DIR in a staging directory moved into place at
    the end: a run whose -o or --stats fails leaves neither DIR nor its
    staging; a run that succeeds gives DIR every page's file, and files
    already in DIR stay."""
    d = TMP + "/p12"
    shutil.rmtree(d, ignore_errors=True)
    for f in os.listdir(TMP):  # what an earlier run left (the SIGTERM case's outputs)
        if f.startswith("dir12") or f.startswith("l12"):
            (shutil.rmtree if os.path.isdir(TMP + "/" + f) else os.remove)(TMP + "/" + f)
    # Pages that all link to each other: etdm finds their CS and labels them.
    links = "".join("<a href=p%d.html>page number %d</a> " % (k, k) for k in range(4))
    for i in range(4):
        write(d + "/s/p%d.html" % i, page(i, extra="</p><div class=menu>" + links + "</div><p>"))
    runs = [("chunks --strip", ["--method", "chunks", "--strip"], ".txt"),
            ("etdm --template-html", ["--method", "etdm", "--template-html"], ".html")]
    for name, opts, ext in runs:
        out = TMP + "/dir12"
        shutil.rmtree(out, ignore_errors=True)
        for fail in (["-o", "/dev/full"], ["-o", "l12.jsonl", "--stats", "/dev/full"]):
            case("class12 %s, %s fails" % (name, fail[-2]), "label", ["-q", "--min-pages", "2"] + opts + ["dir12"] + fail +
                 ["p12"], 4, err=r"^tbk-label: error: /dev/full: cannot write output: No space left on device",
                 absent=[out, TMP + "/l12.jsonl"], secs=10)
        # Success: DIR appears whole; a file already in it stays.
        write(out + "/keep.txt", "mine")
        case("class12 %s succeeds" % name, "label", ["-q", "--min-pages", "2"] + opts + ["dir12", "-o", "l12.jsonl", "p12"],
             0, present=[out + "/p12/s/p%d%s" % (i, ext) for i in range(4)] + [out + "/keep.txt", TMP + "/l12.jsonl"],
             secs=10)
        os.remove(TMP + "/l12.jsonl")
    # Killed midway (SIGTERM): no staging directory stays.
    big = TMP + "/p12big"
    if not os.path.exists(big):
        for i in range(400):
            write(big + "/s/p%d.html" % i, page(i, extra="filler " * 400))
    shutil.rmtree(TMP + "/dir12", ignore_errors=True)
    proc = subprocess.Popen([PROGS["label"], "-q", "--min-pages", "2", "--method", "etdm", "--template-html", "dir12", "-o",
                             "l12.jsonl", "p12big"], stderr=subprocess.DEVNULL, cwd=TMP)
    time.sleep(0.3)
    alive = proc.poll() is None
    proc.terminate()
    proc.wait()
    left = [f for f in os.listdir(TMP) if f.startswith("dir12") or f.startswith("l12")]
    if alive and left:
        failures.append("class12 etdm --template-html under SIGTERM: left %s" % left)
    else:
        print("ok class12 etdm --template-html under SIGTERM (%s)" % ("killed mid-run" if alive else "ended first"))
    for f in left:
        (shutil.rmtree if os.path.isdir(TMP + "/" + f) else os.remove)(TMP + "/" + f)


def class13():
    """#34 item 3: runs that would silently produce nothing: labels none of
    whose pages is read (another spelling of the paths), an empty or
    header-only cluster assignment, a --reference or --clusters file naming
    none of the pages: each an error (exit 1) naming the file and, for names
    that do not match, one name of each side."""
    d = TMP + "/p13"
    shutil.rmtree(d, ignore_errors=True)
    for f in ("f13.svm", "c13.tsv", "l13b.jsonl"):
        if os.path.exists(TMP + "/" + f):
            os.remove(TMP + "/" + f)
    for i in range(4):
        write(d + "/s/p%d.html" % i, page(i))
    subprocess.run([PROGS["label"], "-q", "--min-pages", "2", "-o", "l13.jsonl", "p13"], stderr=subprocess.DEVNULL,
                   cwd=TMP, check=True)
    nomatch = (r"l13.jsonl: none of the 4 pages it labels is among the 4 pages read \(pages match by name as listed: "
               r"it names p13/s/p0.html, the inputs give \./p13/\.\./p13/s/p0.html\)$")
    case("class13 features: labels of no page read", "features", ["--labels", "l13.jsonl", "-o", "f13.svm",
         "./p13/../p13"], 1, err=r"^tbk-features: error: " + nomatch, absent=[TMP + "/f13.svm"], secs=10)
    case("class13 features: labels of the pages read", "features", ["--labels", "l13.jsonl", "-o", "f13.svm", "p13"], 0,
         present=[TMP + "/f13.svm"], secs=10)
    case("class13 eval chunks: labels of no page read", "eval", ["chunks", "-q", "--min-pages", "2", "--blocks-labels",
         "l13.jsonl", "-o", "c13.tsv", "./p13/../p13"], 1, err=r"^tbk-eval chunks: error: " + nomatch,
         absent=[TMP + "/c13.tsv"], secs=10)
    # tbk-eval cluster: an empty or header-only assignment, a reference of other pages.
    write(TMP + "/empty13.tsv", "")
    write(TMP + "/head13.tsv", "page\tsite\tcluster\tsize\n")
    write(TMP + "/a13.tsv", "page\tsite\tcluster\tsize\n" + "".join("p13/s/p%d.html\ts\t%d\t2\n" % (i, i // 2)
                                                                    for i in range(4)))
    write(TMP + "/ref13.tsv", "page\tsite\n" + "".join("/abs/p13/s/p%d.html\tt%d\n" % (i, i % 2) for i in range(4)))
    case("class13 eval cluster: empty assignment", "eval", ["cluster", "empty13.tsv"], 1,
         err=r"^tbk-eval cluster: error: empty13.tsv: empty file \(0 bytes, no header line\)$")
    case("class13 eval cluster: header-only assignment", "eval", ["cluster", "head13.tsv"], 1,
         err=r"^tbk-eval cluster: error: head13.tsv: no rows below the header \(nothing to score\)$")
    case("class13 eval cluster: a --reference of other pages", "eval", ["cluster", "--reference", "ref13.tsv", "a13.tsv"],
         1, err=r"^tbk-eval cluster: error: ref13.tsv: names none of the 4 pages of a13.tsv \(pages match by name: it "
                r"names /abs/p13/s/p0.html, a13.tsv p13/s/p0.html\)$")
    case("class13 eval cluster: an empty --reference", "eval", ["cluster", "--reference", "empty13.tsv", "a13.tsv"], 1,
         err=r"empty13.tsv: empty file")
    case("class13 eval cluster: a good assignment", "eval", ["cluster", "a13.tsv"], 0)
    # tbk-label --clusters: a 0-byte file, one naming other pages.
    case("class13 label --clusters: 0-byte file", "label", ["-q", "--min-pages", "2", "--clusters", "empty13.tsv", "-o",
         "l13b.jsonl", "p13"], 1, err=r"^tbk-label: error: empty13.tsv: empty file \(0 bytes, no header line\)$",
         absent=[TMP + "/l13b.jsonl"])
    write(TMP + "/c13other.tsv", "page\tcluster\n" + "".join("/elsewhere/p%d.html\t0\n" % i for i in range(4)))
    case("class13 label --clusters: other pages", "label", ["-q", "--min-pages", "2", "--clusters", "c13other.tsv", "-o",
         "l13b.jsonl", "p13"], 1, err=r"^tbk-label: error: c13other.tsv: none of the 4 pages read is in it \(pages "
                                      r"match by name as listed: it names /elsewhere/p0.html, the inputs give "
                                      r"p13/s/p0.html\)$", absent=[TMP + "/l13b.jsonl"])


def both(*pats):
    """A regex that matches when every one of pats is found, in any order."""
    return "".join(r"(?=(.|\n)*%s)" % p for p in pats)


def class14():
    """#34 item 4: page names that would not round-trip through labels,
    rows and TSV (bytes that are not UTF-8, which became U+FFFD and made
    two names one; a control character such as a newline in a site folder,
    written raw into --stats) are refused by name, shown with \\xNN, one
    warning each (exit 3); a file argument so named is refused (exit 1)."""
    d = TMP + "/n14"
    shutil.rmtree(d, ignore_errors=True)
    for i in range(3):
        write(d + "/s/p%d.html" % i, page(i))
    os.makedirs(os.fsencode(d) + b"/bad\nsite")
    for name, i in ((b"/s/caf\xe9.html", 5), (b"/s/caf\xe8.html", 6), (b"/bad\nsite/x.html", 7), (b"/bad\nsite/y.html", 8)):
        with open(os.fsencode(d) + name, "w") as f:
            f.write(page(i))
    for f in ("l14.jsonl", "st14.tsv"):
        if os.path.exists(TMP + "/" + f):
            os.remove(TMP + "/" + f)
    case("class14 names that do not round-trip, tbk-label", "label", ["-q", "--min-pages", "2", "-o", "l14.jsonl",
         "--stats", "st14.tsv", "n14"], 3,
         err=both(r"^tbk-label: warning: n14/s/caf\\xe9.html: file name is not valid UTF-8 \(skipped\)$",
                  r"^tbk-label: warning: n14/s/caf\\xe8.html: file name is not valid UTF-8 \(skipped\)$",
                  r"^tbk-label: warning: n14/bad\\x0asite: file name holds a control character \(tab, newline\.\.\.\) "
                  r"\(directory skipped\)$"),
         present=[TMP + "/l14.jsonl", TMP + "/st14.tsv"], secs=10)
    if os.path.exists(TMP + "/st14.tsv"):
        rows = open(TMP + "/st14.tsv", "rb").read().split(b"\n")
        if any(r and r.count(b"\t") != rows[0].count(b"\t") for r in rows):
            failures.append("class14: --stats has a row with other columns: %r" % rows)
    if os.path.exists(TMP + "/l14.jsonl"):
        text = open(TMP + "/l14.jsonl", encoding="utf-8").read()
        if "\ufffd" in text or "caf" in text or "bad" in text:
            failures.append("class14: labels name a refused page")
    write(TMP + "/n14.tsv", "site\tpage\ns\tn14/s/p0.html\ns\tn14/s/p1.html\n")
    with open(TMP + "/n14.tsv", "ab") as f:
        f.write(b"s\tn14/s/caf\xe9.html\n")
    case("class14 a manifest row naming a non-UTF-8 file", "predict", ["-m", MODEL, "-o", "n14.txt", "n14.tsv"], 3,
         err=r"^tbk-predict: warning: n14/s/caf\\xe9.html: manifest row 3: file name is not valid UTF-8 \(skipped\)$",
         present=[TMP + "/n14.txt"], secs=10)
    case("class14 a file argument naming a non-UTF-8 file", "predict", ["-m", MODEL, "-o", "n14.txt",
         os.fsdecode(b"n14/s/caf\xe9.html")], 1,
         err=r"^tbk-predict: error: n14/s/caf.*: file name is not valid UTF-8: refused as a page name", secs=10)


def class15():
    """#34 item 9: dangling symbolic links, FIFOs and devices inside input
    directories: one warning each, counted (exit 3), never a hang; the
    other pages are read."""
    d = TMP + "/n15"
    shutil.rmtree(d, ignore_errors=True)
    for i in range(3):
        write(d + "/s/p%d.html" % i, page(i))
    os.symlink("nowhere.html", d + "/s/dangling.html")
    os.symlink("/nonexistent/site", d + "/gone")
    os.mkfifo(d + "/s/fifo.html")
    os.symlink("/dev/zero", d + "/s/zero.html")
    out = TMP + "/n15.txt"
    for prog, args in (("predict", ["-m", MODEL, "-o", "n15.txt"]), ("label", ["-q", "--min-pages", "2", "-o", "n15.txt"]),
                       ("features", ["-o", "n15.txt"])):
        case("class15 special files in a directory, tbk-%s" % prog, prog, args + ["n15"], 3,
             err=both(r"^tbk-%s: warning: n15/s/dangling.html: dangling symbolic link \(skipped\)$" % prog,
                      r"^tbk-%s: warning: n15/gone: dangling symbolic link \(skipped\)$" % prog,
                      r"^tbk-%s: warning: n15/s/fifo.html: a FIFO, not a file \(skipped\)$" % prog,
                      r"^tbk-%s: warning: n15/s/zero.html: a device, not a file \(skipped\)$" % prog),
             present=[out], secs=10)
        if prog == "predict" and os.path.exists(out) and not all("page %d of" % i in open(out).read() for i in range(3)):
            failures.append("class15: a good page is missing from the output")
        if os.path.exists(out):
            os.remove(out)


def class16():
    """#34 item 5: side files in other encodings: UTF-16 (with its BOM)
    decoded, a UTF-8 BOM dropped, CRLF line ends read as LF; binary data,
    Latin-1 --text and CR-only manifests refused by name with the reason;
    never garbage scores with exit 0 or a message naming the wrong cause."""
    g = TMP + "/g16"
    shutil.rmtree(g, ignore_errors=True)
    text = "page %d of example.org: alpha bravo charlie delta echo foxtrot golf hotel india"
    for i in range(3):
        write(g + "/p%d.html" % i, page(i))
    write(g + "/p0.txt", text % 0)
    write(g + "/p1.txt", b"\xff\xfe" + (text % 1).encode("utf-16-le"))
    write(g + "/p2.txt", b"\x00\x01\x02binary\x00" * 20)
    write(g + "/manifest.tsv", "site\tpage\tgold\n" + "".join("s\tp%d.html\tp%d.txt\n" % (i, i) for i in range(3)))
    case("class16 eval gold: UTF-16 gold decoded, binary refused", "eval", ["gold", "--per-page", "g16.tsv", "--baseline",
         "g16/manifest.tsv"], 3, err=r"^tbk-eval gold: warning: g16/p2.txt: a NUL byte at offset 0: binary data, or "
                                     r"UTF-16 without a byte-order mark \(scored as empty gold\)$",
         present=[TMP + "/g16.tsv"], secs=10)
    if os.path.exists(TMP + "/g16.tsv"):
        rows = [l.split("\t") for l in open(TMP + "/g16.tsv").read().split("\n")[1:] if l]
        f1 = {r[1]: float(r[4]) for r in rows}
        if abs(f1.get("p1.html", 0) - f1.get("p0.html", -1)) > 0.05:
            failures.append("class16 eval gold: UTF-16 gold scored %s, its UTF-8 twin %s" % (f1.get("p1.html"),
                                                                                              f1.get("p0.html")))
        os.remove(TMP + "/g16.tsv")
    # tbk-keywords --text: UTF-16 decoded, Latin-1 refused.
    words = "The solar panels of the roof.\nSolar panels are cheap. Solar panels!\n"
    write(g + "/t8.txt", words)
    write(g + "/t16.txt", b"\xfe\xff" + words.encode("utf-16-be"))
    write(g + "/lat.txt", "Caf\xe9 cr\xe8me: solar panels, solar panels.\n".encode("latin-1"))
    r8 = subprocess.run([PROGS["keywords"], "--text", "--df", "none", "-n", "2", "g16/t8.txt"], stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL, cwd=TMP).stdout
    r16 = subprocess.run([PROGS["keywords"], "--text", "--df", "none", "-n", "2", "g16/t16.txt"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=TMP).stdout
    if not r8 or r8 != r16:
        failures.append("class16 keywords --text UTF-16: %r, its UTF-8 twin %r" % (r16, r8))
    else:
        print("ok class16 keywords --text UTF-16 = UTF-8")
    case("class16 keywords --text Latin-1 refused", "keywords", ["--text", "--df", "none", "-o", "k16.txt", "g16/t8.txt",
         "g16/lat.txt"], 3, err=r"^tbk-keywords: warning: g16/lat.txt: not UTF-8 \(byte 0xe9 at offset 3; Latin-1 or "
                                r"another charset\? convert it to UTF-8\) \(skipped\)$", present=[TMP + "/k16.txt"])
    # Labels with a UTF-8 BOM, CRLF lines.
    d = TMP + "/p16"
    shutil.rmtree(d, ignore_errors=True)
    for i in range(3):
        write(d + "/s/p%d.html" % i, page(i))
    subprocess.run([PROGS["label"], "-q", "--min-pages", "2", "-o", "l16.jsonl", "p16"], stderr=subprocess.DEVNULL,
                   cwd=TMP, check=True)
    write(TMP + "/l16bom.jsonl", b"\xef\xbb\xbf" + open(TMP + "/l16.jsonl", "rb").read().replace(b"\n", b"\r\n"))
    case("class16 labels with a BOM and CRLF", "features", ["--labels", "l16bom.jsonl", "-o", "f16.svm", "p16"], 0,
         no_err=r"invalid JSON", present=[TMP + "/f16.svm"], secs=10)
    # A manifest with CR-only line ends.
    write(TMP + "/cr16.tsv", "site\tpage\rs\tp16/s/p0.html\rs\tp16/s/p1.html\r")
    case("class16 manifest with CR-only line ends", "predict", ["-m", MODEL, "-o", "cr16.txt", "cr16.tsv"], 1,
         err=r"^tbk-predict: error: cr16.tsv: lines end in CR alone \(classic Mac OS\): save it with LF \(or CRLF\) "
             r"line ends$", absent=[TMP + "/cr16.txt"])
    # A model and a DF table with CRLF line ends: the same model, the same table.
    write(TMP + "/crlf.model", open(MODEL, "rb").read().replace(b"\n", b"\r\n"))
    case("class16 model with CRLF line ends", "predict", ["-m", "crlf.model", "-o", "m16.txt", "p16/s/p0.html"], 0,
         present=[TMP + "/m16.txt"])
    dfsrc = SRC + "/models/keywords.df"
    write(TMP + "/crlf.df", open(dfsrc, "rb").read().replace(b"\n", b"\r\n"))
    ka = subprocess.run([PROGS["keywords"], "--text", "--df", dfsrc, "-n", "3", "g16/t8.txt"], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, cwd=TMP)
    kb = subprocess.run([PROGS["keywords"], "--text", "--df", "crlf.df", "-n", "3", "g16/t8.txt"], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, cwd=TMP)
    if kb.returncode != 0 or ka.stdout != kb.stdout:
        failures.append("class16 DF table with CRLF: exit %d, %r (LF table: %r) %s" % (kb.returncode, kb.stdout, ka.stdout,
                                                                                     kb.stderr.decode()))
    else:
        print("ok class16 DF table with CRLF line ends")


def class17():
    """#34 item 6: identity of side files. A DF table carries a checksum (a
    damaged one is refused, exit 5); a ranker records the DF table it was
    trained with and refuses another (or none); a truncated ranker says so."""
    kw = TMP + "/kw17"
    shutil.rmtree(kw, ignore_errors=True)
    kw_site(kw)
    for f in ("a17.df", "b17.df", "a17.ranker"):
        if os.path.exists(TMP + "/" + f):
            os.remove(TMP + "/" + f)
    subprocess.run([PROGS["keywords"], "--build-df", "--min-df", "1", "-d", "none", "-o", "a17.df", "kw17"],
                   stderr=subprocess.DEVNULL, cwd=TMP, check=True)
    subprocess.run([PROGS["keywords"], "--build-df", "--min-df", "2", "-d", "none", "-o", "b17.df", "kw17"],
                   stderr=subprocess.DEVNULL, cwd=TMP, check=True)
    subprocess.run([PROGS["keywords"], "--train-ranker", "--df", "a17.df", "-d", "none", "-o", "a17.ranker", "kw17"],
                   stderr=subprocess.DEVNULL, cwd=TMP, check=True)
    text = open(TMP + "/a17.df").read()
    if not re.search(r"\nend\nchecksum [0-9a-f]{32}\n$", text):
        failures.append("class17: the DF table has no checksum line: %r" % text[-80:])
    write(TMP + "/bad17.df", text.replace("\tvolcano\n", "\tvolcanx\n", 1))
    p0 = "kw17/s/p0.html"
    case("class17 DF table with a wrong checksum", "keywords", ["--df", "bad17.df", "-d", "none", p0], 5,
         err=r"^tbk-keywords: error: bad17.df: corrupt: checksum does not match the content \(line \d+\)$")
    case("class17 ranker with its DF table", "keywords", ["--df", "a17.df", "--ranker", "a17.ranker", "-d", "none", p0], 0)
    case("class17 ranker with another DF table", "keywords", ["--df", "b17.df", "--ranker", "a17.ranker", "-d", "none", p0],
         5, err=r"^tbk-keywords: error: a17.ranker: trained with the DF table [0-9a-f]{32}, not b17.df \([0-9a-f]{32}\): "
                r"give --df the table it was trained with$")
    case("class17 ranker without its DF table", "keywords", ["--df", "none", "--ranker", "a17.ranker", "-d", "none", p0],
         5, err=r"^tbk-keywords: error: a17.ranker: trained with the DF table [0-9a-f]{32}: give it with --df$")
    data = open(TMP + "/a17.ranker").read()
    write(TMP + "/cut17.ranker", data[:len(data) // 2])
    # A damaged Naive-Bayes word line: named by its line in the model file
    # (as every model message counts lines), not in the NB block or stage.
    lines = open(MODEL).read().split("\n")
    i = next(k for k, l in enumerate(lines) if l.startswith("words ")) + 1
    write(TMP + "/nb17.model", edit_model("\n".join(lines), re.escape(lines[i]) + "$", "x 1 1"))
    case("class17 naive-Bayes error with the model's line", "predict", ["-m", "nb17.model", "-o", "nb17.txt",
         "kw17/s/p0.html"], 5, err=r"^tbk-predict: error: nb17.model: line %d: naive bayes model: bad word index$"
                                   % (i + 1), absent=[TMP + "/nb17.txt"])
    # A content stage saved alone says what it is.
    lines = open(MODEL).read().split("\n")
    starts = [k for k, l in enumerate(lines) if l == "tbk-model 1"]
    end = next(k for k in range(starts[1], len(lines)) if lines[k].startswith("checksum "))
    write(TMP + "/content17.model", "\n".join(lines[starts[1]:end + 1]) + "\n")
    case("class17 a content stage alone as the model", "predict", ["-m", "content17.model", "-o", "c17.txt",
         "kw17/s/p0.html"], 5, err=r"^tbk-predict: error: content17.model: a content stage alone \(schema tbk-units-\S+\), "
                                   r"not a template or two-stage model", absent=[TMP + "/c17.txt"])
    case("class17 truncated ranker", "keywords", ["--df", "a17.df", "--ranker", "cut17.ranker", "-d", "none", p0], 5,
         err=r"^tbk-keywords: error: cut17.ranker: truncated ranker: the file ends within line \d+, before its 'end' line$")


# ------------------------------------------------------- deep pages


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def class18():
    """Pages nested 3,800 deep with text at every level (#34 item 7,
    deep_pages.py). Every block held nearly all the page's text and every
    chunk its 27 kB path: 12.5 CPU-s per MiB in tbk-features, 5 in
    tbk-keywords, 3.9 in tbk-label, 7 s in etdm, 226 bytes of chunk JSON
    Lines per byte of page (bar: 2 CPU-s per MiB). Speed is measured in the
    benchmarks, not here: the checks that fail on the quadratic code are
    counts of the work it does, which a loaded CI machine cannot change
    (blocks per page, at most 64 nested: docs/labelling.md "Blocks"; rows and bytes
    written per byte read); the CPU limits are 10 times the bar, only to
    catch a cost gone far beyond it (a quadratic walk elsewhere), never a
    busy machine."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import deep_pages
    root = TMP + "/deep18"
    shutil.rmtree(root, ignore_errors=True)
    sites = {}
    for shape, n in (("div", 12), ("mix", 6), ("table", 12)):
        paths = deep_pages.write_site(root + "/" + shape, n, shape=shape)
        sites[shape] = (os.path.relpath(os.path.dirname(paths[0]), TMP), n,
                        sum(os.path.getsize(q) for q in paths))

    def cpu_bar(shape):
        return 10 * 2.0 * max(sites[shape][2] / MIB, 0.5)

    for shape in ("div", "mix"):
        d, n, size = sites[shape]
        tag = "class18 %s %d pages (%.1f MiB)" % (shape, n, size / MIB)
        case(tag + ": tbk-features --words --meta", "features",
             ["-o", "f18.svm", "--words", "w18.svm", "--meta", "m18.jsonl", d], 0, cpu=cpu_bar(shape))
        rows = count_lines(TMP + "/f18.svm")
        if rows > 64 * n:
            failures.append("%s: %d blocks on %d pages, more than 64 nested blocks a page" % (tag, rows, n))
        words = os.path.getsize(TMP + "/w18.svm")
        if words > 32 * size:
            failures.append("%s: %d bytes of --words from %d of pages (limit 32 x)" % (tag, words, size))
        case(tag + ": tbk-features --units", "features", ["--units", "-m", MODEL, "-o", "u18.svm", d], 0,
             cpu=cpu_bar(shape))
        case(tag + ": tbk-keywords", "keywords", ["-o", "k18.txt", d], 0, cpu=cpu_bar(shape))
        case(tag + ": tbk-label --all", "label", ["-q", "--all", "--min-pages", "3", "-o", "l18.jsonl", d], 0,
             cpu=cpu_bar(shape))
        lines = count_lines(TMP + "/l18.jsonl")
        if lines > 64 * n:
            failures.append("%s: tbk-label --all wrote %d blocks for %d pages (at most 64 nested a page)"
                            % (tag, lines, n))
        case(tag + ": tbk-label --method etdm, no links", "label",
             ["-q", "--method", "etdm", "--min-pages", "3", "-o", "e18.jsonl", d], 0,
             err=r"^tbk-label: warning: site -: %d of %d pages link to no page of the site \(no labels\)$" % (n, n),
             cpu=cpu_bar(shape))
    d, n, size = sites["table"]
    tag = "class18 nested tables %d pages (%.1f MiB)" % (n, size / MIB)
    for key in ("text", "text+path"):
        case("%s: tbk-label --method chunks --key %s" % (tag, key), "label",
             ["-q", "--method", "chunks", "--key", key, "--min-pages", "3", "-o", "c18.jsonl", d], 0,
             cpu=cpu_bar("table"))
        out = os.path.getsize(TMP + "/c18.jsonl") if os.path.exists(TMP + "/c18.jsonl") else 0
        # One line a chunk of a few words: about 21 bytes of JSON Lines per
        # byte of page once paths are cut at 1,024 bytes (226 before).
        if out > 32 * size:
            failures.append("%s --key %s: %d bytes of JSON Lines from %d of pages (limit 32 x)" % (tag, key, out, size))
    shutil.rmtree(root, ignore_errors=True)
    for f in ("f18.svm", "w18.svm", "m18.jsonl", "u18.svm", "k18.txt", "l18.jsonl", "e18.jsonl", "c18.jsonl"):
        if os.path.exists(TMP + "/" + f):
            os.remove(TMP + "/" + f)


CLASSES = {"1": class1, "2": class2, "3": class3, "4": class4, "5": class5, "6": class6, "7": class7, "8": class8, "9": class9, "10": class10, "11": class11, "12": class12, "13": class13, "14": class14, "15": class15, "16": class16, "17": class17, "18": class18}

if __name__ == "__main__":
    os.makedirs(TMP, exist_ok=True)
    for cls in sys.argv[1:] or sorted(CLASSES):
        CLASSES[cls]()
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    sys.exit(1 if failures else 0)
