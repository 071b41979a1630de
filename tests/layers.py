#!/usr/bin/env python3
"""The layer check of core/ (docs/ARCHITECTURE.md): fails when a file
includes a header of a layer its own does not use (directly or through the
layers it uses, by USES below), when USES lists a use the sources do not
make or one already reached through another, when core/CMakeLists.txt's
table (TBK_USES_<layer>) is not the same, when a third-party header appears
outside the layer that owns that dependency, or when code outside core/
includes a third-party header the library is there to hide.

Usage: tests/layers.py [--graph] [SOURCE_ROOT]   (exit 0 clean, 1 violations)
  --graph  also print the layers' include graph, from the #includes: each
           layer with the layers whose headers its files include, and the
           layers by level (each above every layer it includes).
"""
import os
import re
import sys

# The layers and the ones each uses: a DAG, each layer's list holding the
# layers it includes headers of, less those reached through the others.
USES = {
    "base": [],
    "text": ["base"],
    "io": ["base"],
    "page": ["text"],
    "ml": ["base"],
    "model": ["ml", "text"],
    "history": ["ml", "page"],
    "label": ["io", "history"],
    "features": ["page"],
    "rows": ["label", "features"],
    "predict": ["features", "history"],
    "keywords": ["io", "predict"],
    "eval": ["label", "keywords"],
}
LAYERS = list(USES)
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
    "tests/test_html_write.c": ["libxml/HTMLparser.h", "libxml/HTMLtree.h", "libxml/xmlversion.h"],
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


def closure(layer):
    """The layers layer uses, directly or through others."""
    seen = []
    for used in USES[layer]:
        for x in [used] + closure(used):
            if x not in seen:
                seen.append(x)
    return seen


def check_table(core):
    """USES as a DAG of minimal lists, and CMake's table the same."""
    bad = []
    for layer in LAYERS:
        for used in USES[layer]:
            if used not in USES or LAYERS.index(used) >= LAYERS.index(layer):
                bad.append(f"USES: {layer} uses {used}, which is not a layer listed before it")
                continue
            for other in USES[layer]:
                if other != used and used in closure(other):
                    bad.append(f"USES: {layer} lists {used}, which it uses through {other}")
    cmake = os.path.join(core, "CMakeLists.txt")
    with open(cmake, encoding="utf-8") as f:
        text = f.read()
    table = {m.group(1): m.group(2).split() for m in re.finditer(r"^set\(TBK_USES_(\w+)\s*([^)]*)\)", text, re.M)}
    for layer in LAYERS:
        if sorted(table.get(layer, [])) != sorted(USES[layer]) or layer not in table:
            bad.append(f"core/CMakeLists.txt: TBK_USES_{layer} is {table.get(layer)}, tests/layers.py's USES {USES[layer]}")
    for layer in table:
        if layer not in USES:
            bad.append(f"core/CMakeLists.txt: TBK_USES_{layer}: no such layer in tests/layers.py")
    return bad


def print_graph(edges):
    """Each layer's includes, and the layers by level: a layer's level is
    one more than the highest of the layers it includes."""
    print("layers: include graph (LAYER -> the layers whose headers it includes: #include lines)")
    for layer in LAYERS:
        out = ", ".join(f"{t} {n}" for t, n in sorted(edges[layer].items(), key=lambda e: LAYERS.index(e[0])))
        print(f"  {layer:9} -> {out or '-'}")
    level = {}
    for layer in LAYERS:  # each after the ones it may include
        level[layer] = 1 + max((level[t] for t in edges[layer] if t in level), default=-1)
    print("layers: by level (each above every layer it includes; side by side: neither includes the other)")
    for lv in range(max(level.values()), -1, -1):
        print(f"  {lv:2}  " + "  ".join(x for x in LAYERS if level[x] == lv))


def main():
    args = sys.argv[1:]
    graph = "--graph" in args
    args = [a for a in args if a != "--graph"]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    core = os.path.join(root, "core")
    where = {}  # header name -> layer
    for layer in LAYERS:
        for path in sources(os.path.join(core, layer), (".h",)):
            name = os.path.basename(path)
            if name in where:
                print(f"layers: {name} exists in both {where[name]} and {layer}: names must be unique")
                return 1
            where[name] = layer
    bad = check_table(core)
    edges = {layer: {} for layer in LAYERS}  # layer -> used layer -> #include lines
    checked = 0
    for layer in LAYERS:
        sees = closure(layer)
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
                        elif target != layer:
                            edges[layer][target] = edges[layer].get(target, 0) + 1
                            if target not in sees:
                                bad.append(f"{rel}:{no}: {layer} includes \"{name}\" of {target}, a layer it does not use")
                    else:
                        own = owner_of(name)
                        if own and own != layer:
                            bad.append(f"{rel}:{no}: <{name}> belongs to {own}, not {layer}")
    for layer in LAYERS:
        for used in USES[layer]:
            if used not in edges[layer]:
                bad.append(f"USES: {layer} lists {used}, whose headers none of its files include")
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
    if graph:
        print_graph(edges)
    for b in bad:
        print("layers: " + b)
    print(f"layers: {checked} files checked, {len(bad)} violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
