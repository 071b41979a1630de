#!/usr/bin/env python3
"""The program boundary check (docs/ARCHITECTURE.md, "The program boundary").

The programs (PROGRAMS below) reach the library through the public header
(core/include/tbk.h) and, per layer, one header written for them:
core/<layer>/tbk_<layer>.h. This check fails when

  - a program includes another header of core/ (an internal header, or
    core/tbk_internal.h, which includes them all);
  - code outside core/page reads a field of struct tbk_page (the other
    layers and the programs read a page through tbk_page_view_of);
  - a program's main.c is longer than MAIN_MAX lines (a program is its
    options and calls into the library: the rest goes to the library, or
    to a helper file beside main.c).

Tests, fuzzers and benchmarks (tests/, fuzz/, bench/) are not programs:
they test the internals and keep tbk_internal.h; their field reads are
counted, not refused.

It also counts what the boundary is for: the internal tbk_* functions the
programs use (identifiers in program sources declared in a core header
other than tbk.h), and the reads of struct tbk_page's fields.

Usage: tests/boundary.py [--list] [SOURCE_ROOT]
  --list  also print each internal function (with its uses) and each read
Exit 0 clean, 1 violations.
"""
import collections
import os
import re
import sys

PROGRAMS = ["cli", "predict", "label", "features", "train", "keywords", "cluster", "eval"]
INTERNAL_USERS = ["tests", "fuzz", "bench"]
PUBLIC = ("tbk.h", "tbk_version.h")
MAIN_MAX = 150
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# A variable, parameter or member declared as a pointer to a page.
PAGE_DECL = re.compile(r'\b(?:struct\s+)?tbk_page\s*\*\s*(?:const\s+)?(\w+)\s*(?![\w(])')


def strip(text):
    """Comments and string contents out, line numbers kept."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def sources(root, exts=(".c", ".h")):
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(exts):
                yield os.path.join(d, f)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def page_fields(core):
    """The field names of struct tbk_page, from its definition in core/page."""
    for path in sources(os.path.join(core, "page"), (".h",)):
        m = re.search(r"struct tbk_page \{(.*?)\n\};", strip(read(path)), re.S)
        if m:
            names = set()
            for stmt in m.group(1).split(";"):
                for part in re.sub(r"\[[^\]]*\]", "", stmt).split(","):
                    word = re.findall(r"(\w+)\s*$", part.strip())
                    if word:
                        names.add(word[0])
            return names
    return set()


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    listing = "--list" in sys.argv[1:]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    core = os.path.join(root, "core")
    declared = {}  # internal function -> header that declares it
    public = set()
    program_headers = set()
    internal_headers = {"tbk_internal.h"}
    for path in sources(core, (".h",)):
        name = os.path.basename(path)
        layer = os.path.basename(os.path.dirname(path))
        for m in re.finditer(r"\b(tbk_\w+)\s*\(", strip(read(path))):
            if name == "tbk.h":
                public.add(m.group(1))
            else:
                declared.setdefault(m.group(1), os.path.relpath(path, root))
        if name in PUBLIC:
            continue
        if name == f"tbk_{layer}.h":
            program_headers.add(name)
        else:
            internal_headers.add(name)
    internal = {n: h for n, h in declared.items() if n not in public}

    texts = {}
    for top in ["core"] + PROGRAMS + INTERNAL_USERS:
        for path in sources(os.path.join(root, top)):
            texts[os.path.relpath(path, root)] = strip(read(path))

    bad = []
    uses = collections.Counter()
    for rel, text in texts.items():
        top = rel.split(os.sep)[0]
        if top not in PROGRAMS:
            continue
        for m in INCLUDE.finditer(read(os.path.join(root, rel))):
            if m.group(1) in internal_headers:
                no = read(os.path.join(root, rel))[:m.start()].count("\n") + 1
                bad.append(f"{rel}:{no}: a program includes \"{m.group(1)}\", a header internal to the library")
        for m in re.finditer(r"\b(tbk_\w+)\b", text):
            if m.group(1) in internal:
                uses[m.group(1)] += 1

    fields = page_fields(core)
    field_alt = "|".join(sorted(fields))
    members = {m.group(1) for text in texts.values() for m in PAGE_DECL.finditer(text)}
    reads = collections.Counter()
    read_lines = []
    access = re.compile(r"(->|\.)?\s*\b(\w+)\s*->\s*(" + field_alt + r")\b")
    for rel, text in texts.items():
        if rel.startswith(os.path.join("core", "page") + os.sep) or not fields:
            continue
        local = {m.group(1) for m in PAGE_DECL.finditer(text)}
        for m in access.finditer(text):
            via_member, name, field = m.groups()
            if (via_member and name in members) or (not via_member and name in local):
                reads[rel] += 1
                read_lines.append(f"{rel}:{text[:m.start(2)].count(chr(10)) + 1}: {name}->{field}")
    for top in PROGRAMS:
        main_c = os.path.join(root, top, "main.c")
        if os.path.exists(main_c):
            n = read(main_c).count("\n")
            if n > MAIN_MAX:
                bad.append(f"{top}/main.c: {n} lines (at most {MAIN_MAX})")
    refused = {f: n for f, n in reads.items() if f.split(os.sep)[0] not in INTERNAL_USERS}
    for rel, n in sorted(refused.items()):
        bad.append(f"{rel}: reads struct tbk_page's fields {n} times (use tbk_page_view_of)")

    if listing:
        for n in sorted(uses):
            print(f"boundary: internal {n} ({internal[n]}): {uses[n]} uses")
        for line in read_lines:
            print(f"boundary: read {line}")
    for b in bad:
        print("boundary: " + b)
    tolerated = sum(reads.values()) - sum(refused.values())
    print(f"boundary: programs use {len(uses)} internal functions ({sum(uses.values())} uses); "
          f"struct tbk_page fields read {sum(refused.values())} times outside core/page "
          f"(+{tolerated} in tests, fuzzers, benchmarks); {len(bad)} violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
