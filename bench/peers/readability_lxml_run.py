#!/usr/bin/python3
"""Run readability-lxml (Debian python3-readability) over a list of pages.

Usage: readability_lxml_run.py LISTFILE OUTDIR
       readability_lxml_run.py --sniff LISTFILE   (OUTPUT_REL<TAB>charset per page)
LISTFILE: one page per line, "INPUT_PATH<TAB>OUTPUT_REL" (OUTPUT_REL e.g.
site/id.txt). Writes OUTDIR/OUTPUT_REL (UTF-8, one block per line; empty on
failure) and prints one JSON line: in-process seconds spent in decoding +
extraction + HTML->text (file I/O excluded), pages, bytes, failures.
Must run under the Python that has the Debian package (/usr/bin/python3).
"""
import json
import logging
import os
import sys
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lxml.html  # noqa: E402
from readability import Document  # noqa: E402
import peer_text  # noqa: E402


def extract(data):
    html, _charset = peer_text.decode_html(data)
    summary = Document(html).summary()
    return peer_text.html_element_text(lxml.html.document_fromstring(summary))


def main(argv):
    if len(argv) == 3 and argv[1] == "--sniff":
        with open(argv[2], encoding="utf-8") as lf:
            for line in lf:
                if line.strip():
                    src, rel = line.rstrip("\n").split("\t")
                    with open(src, "rb") as f:
                        print("%s\t%s" % (rel, peer_text.sniff_charset(f.read())[0]))
        return 0
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    listfile, outdir = argv[1], argv[2]
    logging.getLogger("readability").setLevel(logging.CRITICAL)
    logging.getLogger("readability.readability").setLevel(logging.CRITICAL)
    pages = nbytes = failures = empty = 0
    seconds = 0.0
    with open(listfile, encoding="utf-8") as lf:
        entries = [line.rstrip("\n").split("\t") for line in lf if line.strip()]
    for src, rel in entries:
        pages += 1
        text = ""
        try:
            with open(src, "rb") as f:
                data = f.read()
        except OSError as e:
            data = None
            failures += 1
            sys.stderr.write("FAIL %s: unreadable page: %s\n" % (rel, e))
        if data is not None:
            nbytes += len(data)
            t0 = time.perf_counter()
            try:
                text = extract(data)
            except Exception as e:  # a peer failing on a page must not stop the run
                text = ""
                failures += 1
                sys.stderr.write("FAIL %s: %s: %s\n" % (rel, type(e).__name__, str(e)[:200]))
            seconds += time.perf_counter() - t0
        if not text:
            empty += 1
        out = os.path.join(outdir, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w", encoding="utf-8", errors="replace") as f:
            f.write(text + "\n" if text else "")
    print(json.dumps({"tool": "readability-lxml", "extract_seconds": round(seconds, 4),
                      "pages": pages, "bytes": nbytes, "failures": failures,
                      "empty": empty}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
