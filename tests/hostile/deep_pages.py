#!/usr/bin/env python3
"""Pages nested thousands of elements deep with a few words at every level
(issue #34 item 7): the shape whose cost per MiB is quadratic in the depth
wherever a program walks a block's ancestors or descendants once per block,
unit, token or chunk. The parser refuses a page nested deeper than
max-depth (4096, core/page: "elements nested deeper than max-depth"), so
the default depth, 3,800, is the deepest a page gets through whole.

Used by hostile.py (class 18); run alone it writes a site of such pages:

    python3 deep_pages.py DIR [PAGES [DEPTH [SHAPE]]]

writes DIR/deep.example/p<i>.html (no links: the shape etdm found slow);
SHAPE is one of SHAPES below (mix by default).
"""
import os
import sys

DEPTH = 3800
# A mix of block and inline elements that the parser nests as written (no
# <p>, which an inner block would close, no <a>, which cannot nest).
MIX = ("div", "span", "b", "section", "i", "div", "em", "article", "strong", "span")
SHAPES = {
    "mix": MIX,            # blocks at 3 levels of 10, inline markup between
    "div": ("div",),       # a block at every level
    "table": ("table", "tr", "td"),  # a chunk at every level (--method chunks)
}
WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
         "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu").split()


def deep_page(i, depth=DEPTH, site="deep.example", shape="mix"):
    """One page: DEPTH nested elements, each opening with three or four
    words (distinct per page and level, so that no two levels are one block
    by their text), closed in order at the end."""
    tags = SHAPES[shape]
    out = ["<html><head><title>%s deep %d</title></head><body>" % (site, i)]
    for d in range(depth):
        tag = tags[d % len(tags)]
        if tag in ("table", "tr"):  # text only in cells
            out.append("<%s>" % tag)
            continue
        w = [WORDS[(d * 7 + i * 3 + k) % len(WORDS)] for k in range(3 + d % 2)]
        out.append("<%s>%s %d " % (tag, " ".join(w), d))
    for d in reversed(range(depth)):
        out.append("</%s>" % tags[d % len(tags)])
    out.append("</body></html>\n")
    return "".join(out)


def write_site(root, pages=10, depth=DEPTH, site="deep.example", shape="mix"):
    """Write PAGES deep pages under ROOT/SITE/ and return their paths."""
    d = os.path.join(root, site)
    os.makedirs(d, exist_ok=True)
    paths = []
    for i in range(pages):
        p = os.path.join(d, "p%d.html" % i)
        with open(p, "w") as f:
            f.write(deep_page(i, depth, site, shape))
        paths.append(p)
    return paths


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else DEPTH
    shape = sys.argv[4] if len(sys.argv) > 4 else "mix"
    for p in write_site(sys.argv[1], n, depth, shape=shape):
        print(p)
