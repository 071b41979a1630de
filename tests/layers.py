#!/usr/bin/env python3
"""The layer check of core/ (docs/ARCHITECTURE.md): fails when a file
includes a header of a layer above its own, when a third-party header
appears outside the layer that owns that dependency, or when code outside
core/ includes a third-party header the library is there to hide.

Usage: tests/layers.py [SOURCE_ROOT]   (exit 0 clean, 1 violations)
"""
import os
import re
import sys

LAYERS = ["base", "text", "io", "page", "label", "features", "ml", "model", "history", "predict", "keywords", "eval"]
# Third-party headers (by include prefix) and the one layer that may use each.
OWNER = {
    "libxml/": "page",
    "linear.h": "ml",
    "openssl/": "text",
    "pcre2.h": "text",
    "iconv.h": "text",
    "uchardet/": "text",
    "uchardet.h": "text",
    "zlib.h": "io",
    "libpsl.h": "io",
    "sqlite3.h": "history",
}
# What code outside core/ may never include: the library is the only code
# that touches these (zlib is allowed: tests and fuzzers build gzip input).
HIDDEN = ["libxml/", "linear.h", "openssl/", "pcre2.h", "libpsl.h", "uchardet", "sqlite3.h"]
# Tests that check the library against the dependency itself.
CROSS_CHECKS = {
    "tests/test_logreg.c": ["linear.h"],
    "tests/test_html_tables.c": ["libxml/HTMLparser.h", "libxml/HTMLtree.h", "libxml/chvalid.h",
                                 "libxml/parserInternals.h", "libxml/xmlversion.h"],
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def owner_of(name):
    for prefix, layer in OWNER.items():
        if name == prefix or name.startswith(prefix):
            return layer
    return None


def sources(root, exts=(".c", ".h")):
    for d, _, files in os.walk(root):
        for f in sorted(files):
            if f.endswith(exts):
                yield os.path.join(d, f)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    core = os.path.join(root, "core")
    where = {}  # header name -> layer
    for layer in LAYERS:
        for path in sources(os.path.join(core, layer), (".h",)):
            name = os.path.basename(path)
            if name in where:
                print(f"layers: {name} exists in both {where[name]} and {layer}: names must be unique")
                return 1
            where[name] = layer
    bad = []
    checked = 0
    for layer in LAYERS:
        rank = LAYERS.index(layer)
        for path in sources(os.path.join(core, layer)):
            checked += 1
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                for no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    kind, name = m.groups()
                    if kind == '"':
                        if name in ("tbk.h", "tbk_version.h"):
                            continue
                        target = where.get(name)
                        if target is None:
                            bad.append(f"{rel}:{no}: includes \"{name}\", which is in no layer")
                        elif LAYERS.index(target) > rank:
                            bad.append(f"{rel}:{no}: {layer} includes \"{name}\" of {target}, a layer above")
                    else:
                        own = owner_of(name)
                        if own and own != layer:
                            bad.append(f"{rel}:{no}: <{name}> belongs to {own}, not {layer}")
    public = os.path.join(core, "include", "tbk.h")
    with open(public, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m and m.group(1) == '"' and m.group(2) != "tbk_version.h":
                bad.append(f"core/include/tbk.h:{no}: the public header includes \"{m.group(2)}\"")
    for top in ("cli", "label", "features", "train", "predict", "eval", "bench", "tests", "fuzz", "docs"):
        for path in sources(os.path.join(root, top)):
            checked += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                for no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    rel = os.path.relpath(path, root)
                    if (m and m.group(1) == "<" and any(m.group(2).startswith(h) for h in HIDDEN)
                            and m.group(2) not in CROSS_CHECKS.get(rel, [])):
                        bad.append(f"{rel}:{no}: <{m.group(2)}> outside the library")
    for b in bad:
        print("layers: " + b)
    print(f"layers: {checked} files checked, {len(bad)} violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
