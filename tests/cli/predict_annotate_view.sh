#!/usr/bin/env bash
# tbk-predict -f html --annotate as a person sees it (#32 item 7): a
# hand-made page whose lines are boxes of known place and size is annotated,
# rendered by headless Chromium to a PNG, and the PNG (decoded here: Python's
# zlib, no image library) must show every removed unit in the legend's
# "removed" colour and every kept one in its "kept" colour, two colours
# that differ, reddish and greenish, both in the legend box; each decided
# element carries its probability as a tooltip (title). The plain -f html
# output has none of it. Skips when chromium is not installed (Debian
# package chromium; .ci/run installs it).
. "$(dirname "$0")/lib.sh"
set -e
PROG=tbk-predict
need_python
tmp_reset
cd "$TBK_TMP"

# Every line a 40 px box, its text left of x = 500 (padding): the
# background at x = 700 is the box's own. Lines in document order:
# 5 menu items, the headline, 4 paragraphs, 2 footer lines.
cat >page.html <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour ferry timetable changes for the winter season</title>
<style>
body{margin:0;width:800px;font:16px/20px sans-serif;background:#fff;color:#000}
nav ul{margin:0;padding:0;list-style:none}
nav li,p,h1,footer div{height:40px;margin:0;padding:0 300px 0 0;overflow:hidden;font-size:16px;line-height:20px}
a{color:#00c}
</style></head>
<body>
<nav id="menu"><ul>
<li><a href="/">Home</a></li><li><a href="/news/">News</a></li><li><a href="/sport/">Sport</a></li>
<li><a href="/weather/">Weather</a></li><li><a href="/contact/">Contact us</a></li>
</ul></nav>
<main><article>
<h1>Harbour ferry timetable changes for the winter season</h1>
<p>The harbour ferry will run every forty minutes instead of every half hour from the first Monday of November, the port authority said on Thursday, citing lower passenger numbers after the summer.</p>
<p>Commuters who rely on the early crossing will keep the six o'clock departure, which the authority said carries more than two hundred people on a typical weekday morning.</p>
<p>The last evening boat will leave the east pier at half past nine, an hour earlier than in summer, and the weekend service will stop at the island jetty only on request.</p>
<p>Residents of the island have asked the council to review the changes in the spring, when the authority expects to publish figures on how many people used the winter service.</p>
</article></main>
<footer><div>Copyright 2024 Harbour Gazette. All rights reserved.</div><div><a href="/privacy/">Privacy policy</a> | <a href="/terms/">Terms of use</a></div></footer>
</body></html>
EOF

expect_rc 0 "$PRED" -f html page.html
cp "$OUT" plain.html
expect_rc 0 "$PRED" -f html --annotate page.html
cp "$OUT" ann.html
expect_rc 0 "$PRED" --stage template -f html --annotate page.html
cp "$OUT" ann-template.html

# The markup: every line decided, with a tooltip; the style and legend
# once; nothing of it in the plain rendering.
python3 - <<'PY' || die "the annotated markup does not check out"
import re
ann = open("ann.html", encoding="utf-8").read()
plain = open("plain.html", encoding="utf-8").read()
tags = re.findall(r'<(li|h1|p|div) ([^>]*data-tbk-decision="(kept|removed)"[^>]*)>', ann)
assert len(tags) == 12, len(tags)
for _, attrs, dec in tags:
    m = re.search(r'title="tbk: (kept|removed), p_content ([01]\.\d{3})"', attrs)
    assert m and m.group(1) == dec, attrs
    p = re.search(r'data-tbk-content="([01]\.\d{3})"', attrs).group(1)
    assert p == m.group(2), attrs
assert ann.count('id="tbk-annotate-style"') == 1 and ann.count('id="tbk-legend"') == 1
assert ann.index('id="tbk-annotate-style"') < ann.index("</head>") < ann.index('id="tbk-legend"')
assert re.search(r'id="tbk-legend".*content stage.*data-tbk-decision="kept".*data-tbk-decision="removed"', ann, re.S)
for s in ("data-tbk", "tbk-legend", "tbk-annotate-style"):
    assert s not in plain, s
t = open("ann-template.html", encoding="utf-8").read()
assert re.search(r'id="tbk-legend".*template stage', t, re.S) and 'title="tbk: ' in t and "p_template" in t
open("decisions.txt", "w").write("".join(d + "\n" for _, _, d in tags))
PY
grep -qx removed decisions.txt && grep -qx kept decisions.txt || die "the page has no removed or no kept line"

command -v chromium >/dev/null 2>&1 || skip "chromium not installed (apt-get install chromium): the rendering is not checked"
# --no-sandbox: as root (CI) Chromium refuses to start otherwise.
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --user-data-dir="$TBK_TMP/profile" --window-size=1000,800 --screenshot="$TBK_TMP/ann.png" \
  "file://$TBK_TMP/ann.html" >chromium.log 2>&1 || true
[[ -s ann.png ]] || { tail -5 chromium.log >&2; die "chromium wrote no screenshot"; }

python3 - <<'PY' || die "the rendered page does not show the decisions as the legend says"
import struct, zlib

def png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit, non-interlaced PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and ctype in (2, 6), (depth, ctype, interlace)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows

w, h, px = png("ann.png")
dec = open("decisions.txt").read().split()
near = lambda a, b: all(abs(x - y) <= 8 for x, y in zip(a, b))
colour = {}
for k, d in enumerate(dec):
    c = px[40 * k + 20][700]
    colour.setdefault(d, c)
    assert near(c, colour[d]), ("line", k, d, c, colour[d])
kept, removed = colour["kept"], colour["removed"]
white = (255, 255, 255)
assert not near(kept, removed) and not near(kept, white) and not near(removed, white), (kept, removed)
assert removed[0] > removed[1] + 30 and kept[1] > kept[0] + 30, (kept, removed)
# The legend: a box at the bottom right (below and right of the lines)
# with a swatch of each colour.
box = [px[y][x] for y in range(h - 200, h) for x in range(w - 420, w)]
assert any(near(c, removed) for c in box) and any(near(c, kept) for c in box), "legend swatches missing"
# Right of the lines (x = 900, beyond the page's 800 px), the page is white.
assert near(px[60][900], white), px[60][900]
print("kept", kept, "removed", removed)
PY
echo "annotate view ok"
