#!/usr/bin/env python3
"""The docs hold together (ctest docs/links).

1. Every relative link of every Markdown file of the repository resolves:
   `[text](path)`, `[text](path#anchor)`, `[text](#anchor)`, `<a href="...">`
   and reference definitions `[id]: path`, outside code spans and fenced code
   blocks. The path must exist (relative to the file; a leading `/` means the
   repository's root); an anchor into a Markdown file must be one of its
   headings' GitHub anchors (below) or an `id`/`name` attribute it writes.
   Links with a scheme (`https:`, `mailto:`) are not followed; an anchor into
   a file that is not Markdown is not checked.
2. README.md has at most 300 lines.
3. EVALUATION.md and BENCHMARKS.md each open with a summary of at most 80
   lines: the lines before the file's first heading (outside code blocks)
   whose text holds a date (YYYY-MM-DD), or the whole file when no heading
   does. The summary links to docs/experiments/, and every file of
   docs/experiments/ is linked from one of the two summaries.

GitHub's anchor of a heading: its text as rendered (inline code's and
emphasis's markers, link targets and HTML tags dropped), lower-cased, every
character that is not a letter, digit, mark, `_`, `-` or space removed, each
space made `-`; a repeated anchor in one file gets `-1`, `-2`, ... in order.

Usage: tests/docs_links.py [SOURCE_DIR]   (default: the tree this file is in)
Exit 0 when all holds, 1 with one line per fault otherwise.
"""
import os
import re
import subprocess
import sys
import unicodedata
from urllib.parse import unquote

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
README_MAX = 300
SUMMARY_MAX = 80
SUMMARIES = ["EVALUATION.md", "BENCHMARKS.md"]
EXPERIMENTS = "docs/experiments"


def markdown_files():
    """The repository's *.md files: git's list when there is one (so build
    trees and ignored third-party data never count), else a walk that skips
    hidden and build directories and datasets/cache."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard", "*.md"],
                             capture_output=True, text=True, check=True).stdout
        files = [f for f in out.splitlines() if os.path.isfile(os.path.join(ROOT, f))]
        if files:
            return sorted(files)
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for d, dirs, names in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        dirs[:] = [x for x in dirs if not x.startswith((".", "build")) and
                   os.path.normpath(os.path.join(rel, x)) != os.path.join("datasets", "cache")]
        found += [os.path.normpath(os.path.join(rel, n)) for n in names if n.endswith(".md")]
    return sorted(found)


def prose_lines(text):
    """(line number, line) outside fenced code blocks, inline code blanked."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = re.match(r"\s{0,3}(`{3,}|~{3,})", line)
        if m:
            if fence is None:
                fence = m.group(1)
                continue
            if m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
                continue
        if fence is not None:
            continue
        yield n, line


def blank_code_spans(line):
    return re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line)


def heading_text(line):
    m = re.match(r"\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line)
    return m.group(2) if m else None


def github_anchor(title):
    t = re.sub(r"`([^`]*)`", r"\1", title)
    t = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", t)
    t = re.sub(r"<[^>]+>", "", t)
    t = t.lower()
    out = []
    for ch in t:
        cat = unicodedata.category(ch)
        if ch in "-_ " or cat[0] in "LMN":
            out.append("-" if ch == " " else ch)
    return "".join(out)


_anchors = {}


def anchors_of(path):
    if path not in _anchors:
        text = open(path, encoding="utf-8").read()
        seen, names = {}, set()
        for _, line in prose_lines(text):
            title = heading_text(line)
            if title is not None:
                a = github_anchor(title)
                k = seen.get(a, 0)
                seen[a] = k + 1
                names.add(a if k == 0 else "%s-%d" % (a, k))
        names |= set(re.findall(r"""<[^>]*\b(?:id|name)=["']([^"']+)["']""", text))
        _anchors[path] = names
    return _anchors[path]


LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")
HREF = re.compile(r"""<a\s[^>]*\bhref=["']([^"']+)["']""")


def links(text):
    for n, line in prose_lines(text):
        line = blank_code_spans(line)
        for rx in (LINK, HREF):
            for m in rx.finditer(line):
                yield n, m.group(1)
        m = REFDEF.match(line)
        if m:
            yield n, m.group(1)


def check_link(md, n, target, faults):
    if not target or re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target):
        return
    path, _, anchor = target.partition("#")
    path = unquote(path)
    if path.startswith("/"):
        dest = os.path.join(ROOT, path.lstrip("/"))
    elif path:
        dest = os.path.normpath(os.path.join(ROOT, os.path.dirname(md), path))
    else:
        dest = os.path.join(ROOT, md)
    if not os.path.exists(dest):
        faults.append("%s:%d: %s: no such file" % (md, n, target))
        return
    if anchor and dest.endswith(".md") and os.path.isfile(dest):
        if unquote(anchor) not in anchors_of(dest):
            faults.append("%s:%d: %s: no heading or id with that anchor in %s"
                          % (md, n, target, os.path.relpath(dest, ROOT)))


DATED = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def summary_lines(text):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in prose_lines(text):
        title = heading_text(line)
        if title is not None and DATED.search(title):
            return lines[:n - 1]
    return lines


def main():
    faults = []
    files = markdown_files()
    for md in files:
        text = open(os.path.join(ROOT, md), encoding="utf-8").read()
        for n, target in links(text):
            check_link(md, n, target, faults)

    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    count = len(readme.split("\n")) - (1 if readme.endswith("\n") else 0)
    if count > README_MAX:
        faults.append("README.md: %d lines, more than %d" % (count, README_MAX))

    linked = set()
    for name in SUMMARIES:
        path = os.path.join(ROOT, name)
        if not os.path.isfile(path):
            faults.append("%s: missing" % name)
            continue
        summary = summary_lines(open(path, encoding="utf-8").read())
        if len(summary) > SUMMARY_MAX:
            faults.append("%s: the summary before the first dated heading is %d lines, more than %d"
                          % (name, len(summary), SUMMARY_MAX))
        mine = set()
        for _, target in links("\n".join(summary)):
            p = os.path.normpath(os.path.join(os.path.dirname(name), unquote(target.partition("#")[0])))
            if p.startswith(EXPERIMENTS + os.sep):
                mine.add(p)
        linked |= mine
        if not mine:
            faults.append("%s: the summary links to nothing under %s/" % (name, EXPERIMENTS))
    exp_dir = os.path.join(ROOT, EXPERIMENTS)
    if os.path.isdir(exp_dir):
        for f in sorted(os.listdir(exp_dir)):
            rel = os.path.join(EXPERIMENTS, f)
            if f.endswith(".md") and rel not in linked:
                faults.append("%s: linked from neither summary (%s)" % (rel, ", ".join(SUMMARIES)))

    for f in faults:
        print("docs/links: " + f)
    print("docs/links: %d Markdown files, %d faults" % (len(files), len(faults)))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
