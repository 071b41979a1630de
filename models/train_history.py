#!/usr/bin/env python3
"""Train the site-history combiners and attach them to a two-stage model.

    models/train_history.py -m MODEL -o OUT ROWS:LABELS [ROWS:LABELS ...]

ROWS: what `tbk-predict --history DB --history-rows ROWS` wrote for a
set's pages (unit rows from the combined stage, block rows from
`--stage template`); LABELS: JSONL with page, path and label of the same
pages: the units' gold (`tbk-label --gold`: content or boilerplate,
weighted by words) for unit rows, the site's block labels (`tbk-label`:
template or content, weighted by characters) for block rows. The block
combiner learns to tell, from the pages seen so far, what the site's
labels say once all its pages are in; a block without a label of its own
takes one from the gold units under it (boilerplate when all are, content
when most of their words are), or is left out.

The combiners (core/ml/history_stage.c) are one logistic regression per
band of the site's page count and stage, over five inputs: bias, the
stage's logit, the share of the other pages holding the row, whether two
or more do, and the share holding its enclosing block. Rows are weighted by their
words (the metric counts words). Trained by Newton's method with an L2
penalty, the repetition inputs' weights kept at 0 or above, and their sum
(the push toward template of a row on every other page) at least the band
below's; the stage is appended to MODEL and the file's checksum renewed.
Python standard library only.
"""
import argparse
import hashlib
import json
import math
import sys

BANDS = 5
PER_BAND = 5
DIM = BANDS * PER_BAND
NAMES = []
for _b in ("1", "2-4", "5-9", "10-49", "50+"):
    NAMES += ["h%s.%s" % (_b, n) for n in ("bias", "logit", "share", "shared", "outer_share")]
MAGIC = "tbk-history-model 1"
CAP = 12.0


def band_of(pages):
    return 0 if pages < 2 else 1 if pages < 5 else 2 if pages < 10 else 3 if pages < 50 else 4


def inputs(p, pages, df, outer):
    """tbk_history_inputs: the band and its five values."""
    logit = -CAP if p <= 0 else CAP if p >= 1 else math.log(p / (1 - p))
    logit = max(-CAP, min(CAP, logit))
    return band_of(pages), (1.0, logit, df / pages, 1.0 if df >= 2 else 0.0, outer / pages)


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def read_gold(path):
    gold = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("label") not in ("content", "boilerplate", "template"):
                continue
            size = r.get("words", r.get("chars", 1))
            gold[(r["page"], r["path"])] = (0 if r["label"] == "content" else 1, max(1, int(size)))
    return gold


def block_labels(gold):
    """(page, block path) -> (label, words) from the units under it."""
    by_page = {}
    for (page, path), (label, words) in gold.items():
        by_page.setdefault(page, []).append((path.split("#")[0], label, words))
    return by_page


def label_block(units, path):
    prefix = path + "/"
    bp = cont = 0
    for upath, label, words in units:
        if upath == path or upath.startswith(prefix):
            if label:
                bp += words
            else:
                cont += words
    if bp + cont == 0:
        return None
    if cont == 0:
        return 1, bp
    if cont * 2 > bp + cont:
        return 0, bp + cont
    return None


def read_rows(rows_path, gold, data):
    units_by_page = None
    unit_gold = any("#" in path for _, path in gold)  # else a site's block labels
    used = 0
    with open(rows_path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 7:
                sys.exit("train_history.py: %s: malformed row: %r" % (rows_path, line[:80]))
            stage, page, path = parts[0], unescape(parts[1]), unescape(parts[2])
            pages, df, outer, p = int(parts[3]), int(parts[4]), int(parts[5]), float(parts[6])
            if pages < 1:
                continue
            lw = gold.get((page, path))
            if lw is None and stage == "block" and unit_gold:
                if units_by_page is None:
                    units_by_page = block_labels(gold)
                lw = label_block(units_by_page.get(page, ()), path)
            if lw is None:
                continue
            band, x = inputs(p, pages, df, outer)
            data[stage == "unit"][band].append((x, lw[0], lw[1]))
            used += 1
    return used


def solve(a, b):
    """Gaussian elimination with partial pivoting (a is small, positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[c][c] != 0:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def shortfall(w, floor):
    """How far the push of a row on every other page (the repetition
    inputs' weights summed) falls short of floor: counts over more pages
    are at least as good evidence as over fewer, so a band's push is at
    least the band below's. A band learnt from a few sites (dragnet's 75
    pages of 10-49 for msv_big9_chaos's held-out model) otherwise learns
    almost none, as its rows' per-page decisions already remove most of
    what those sites repeat. The floor is on the sum, not on each weight:
    at one page "two or more" cannot fire and "share" carries it all."""
    return max(0.0, floor - sum(w[i] for i in REPETITION))


def loss(rows, total, w, l2, prior, floor=0.0):
    f = 0.0
    for x, y, wt in rows:
        z = sum(wi * xi for wi, xi in zip(w, x))
        # log(1 + e^z) - y z, stable on both sides
        f += wt * ((z if z > 0 else 0.0) + math.log1p(math.exp(-abs(z))) - y * z)
    return (f / total + 0.5 * l2 * sum((wi - pi) ** 2 for wi, pi in zip(w, prior))
            + 0.5 * FLOOR_PENALTY * shortfall(w, floor) ** 2)


def train_band(rows, l2, fixed=(), floor=0.0):
    """Weighted L2 logistic regression by Newton's method with a backtracking
    line search. The penalty pulls toward the stage's own decision (weight 1
    on its logit, 0 elsewhere), which a band with no rows keeps; the inputs
    in fixed keep those weights; floor: see shortfall."""
    prior = [0.0, 1.0, 0.0, 0.0, 0.0]
    w = list(prior)
    if not rows:
        return w
    total = sum(wt for _, _, wt in rows)
    f = loss(rows, total, w, l2, prior, floor)
    for _ in range(50):
        g = [0.0] * PER_BAND
        h = [[0.0] * PER_BAND for _ in range(PER_BAND)]
        for x, y, wt in rows:
            z = sum(wi * xi for wi, xi in zip(w, x))
            p = 1 / (1 + math.exp(-z)) if z > -30 else 0.0
            s = wt / total
            d = (p - y) * s
            v = p * (1 - p) * s
            for i in range(PER_BAND):
                if x[i]:
                    g[i] += d * x[i]
                    hi = h[i]
                    for j in range(PER_BAND):
                        if x[j]:
                            hi[j] += v * x[i] * x[j]
        for i in range(PER_BAND):
            g[i] += l2 * (w[i] - prior[i])
            h[i][i] += l2
        short = shortfall(w, floor)
        if short > 0:
            for i in REPETITION:
                g[i] -= FLOOR_PENALTY * short
                for j in REPETITION:
                    h[i][j] += FLOOR_PENALTY
        for i in fixed:
            g[i] = 0.0
            h[i] = [0.0] * PER_BAND
            for r in h:
                r[i] = 0.0
            h[i][i] = 1.0
        step = solve(h, g)
        t = 1.0
        while t > 1e-6:
            cand = [wi - t * si for wi, si in zip(w, step)]
            fc = loss(rows, total, cand, l2, prior, floor)
            if fc <= f:
                break
            t /= 2
        else:
            break
        done = f - fc < 1e-10
        w, f = cand, fc
        if done:
            break
    return w


# The repetition inputs: share, shared, outer_share.
REPETITION = (2, 3, 4)
# Weight of the squared shortfall: large enough that the floor holds to
# about 1e-4 of a logit, small enough for Newton's steps to stay stable.
FLOOR_PENALTY = 1e4


def train_band_signed(rows, l2, fixed, floor=0.0):
    """train_band with the repetition inputs' weights at 0 or above: that a
    site repeats a row (or the block around it) is evidence of template,
    never of content. A band with few rows can learn a negative weight from
    a handful of pages (a related-stories box inside a shared block kept as
    content); such an input is fixed at 0 and the band trained again."""
    fixed = list(fixed)
    while True:
        w = train_band(rows, l2, fixed, floor)
        neg = [i for i in REPETITION if i not in fixed and w[i] < 0]
        if not neg:
            return w
        fixed += neg


def attach(model_text, weights):
    lines = model_text.rstrip("\n").split("\n")
    if not lines[0] == "tbk-model 2" or not lines[-1].startswith("checksum "):
        sys.exit("train_history.py: the model is not a two-stage tbk model")
    body = "\n".join(lines[:-1]) + "\n"
    if "\nstage history\n" in body:
        body = body[: body.index("\nstage history\n") + 1]
    stage = "%s\ninputs %d %s\n" % (MAGIC, DIM, " ".join(NAMES))
    for name, w in zip(("template", "content"), weights):
        stage += name + "".join(" %.17g" % v for v in w) + "\n"
    stage += "checksum %s\n" % hashlib.md5(stage.encode()).hexdigest()
    body += "stage history\n" + stage
    return body + "checksum %s\n" % hashlib.md5(body.encode()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-m", "--model", required=True, help="two-stage model to attach the stage to")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--l2", type=float, default=1e-3, help="penalty toward the stage's own decision (1e-3)")
    ap.add_argument("--free", default="bias,share,shared,outer_share/share,shared,outer_share", metavar="T/C",
                    help="the inputs each stage's combiner learns, the others keeping the stage's own decision "
                         "(logit weight 1, others 0): template inputs / content inputs "
                         "(default bias,share,shared,outer_share/share,shared,outer_share)")
    ap.add_argument("pairs", nargs="+", metavar="ROWS:LABELS")
    a = ap.parse_args()
    data = [[[] for _ in range(BANDS)] for _ in range(2)]  # [block, unit][band]
    for pair in a.pairs:
        rows, _, gold = pair.rpartition(":")
        if not rows:
            sys.exit("train_history.py: %s: expected ROWS:LABELS" % pair)
        n = read_rows(rows, read_gold(gold), data)
        print("train_history.py: %s: %d labelled rows" % (rows, n), file=sys.stderr)
    names = ["bias", "logit", "share", "shared", "outer_share"]
    fixed = []
    for part in a.free.split("/"):
        free = set(part.split(",")) if part else set()
        if free - set(names) or len(a.free.split("/")) != 2:
            sys.exit("train_history.py: --free: expected T/C, each a list of %s" % ", ".join(names))
        fixed.append([i for i, n in enumerate(names) if n not in free])
    weights = []
    for stage in (0, 1):
        w = []
        floor = 0.0
        for band in range(BANDS):
            rows = data[stage][band]
            # a band without rows (no training site that large) takes the
            # largest band below it that has some: more pages are at least
            # as good evidence, and the stage's own decision alone would
            # leave the biggest sites without their history
            below = band
            while not rows and below > 0:
                below -= 1
                rows = data[stage][below]
            wb = train_band_signed(rows, a.l2, fixed[stage], floor)
            floor = sum(wb[i] for i in REPETITION)
            print("train_history.py: %s band %s: %d rows%s: %s" % (
                ("template", "content")[stage], NAMES[band * 5][1:].split(".")[0], len(rows),
                "" if below == band else " (band %s's)" % NAMES[below * 5][1:].split(".")[0],
                " ".join("%.3f" % v for v in wb)), file=sys.stderr)
            w += wb
        weights.append(w)
    with open(a.model, encoding="utf-8") as f:
        text = attach(f.read(), weights)
    tmp = a.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    import os
    os.replace(tmp, a.output)


if __name__ == "__main__":
    main()
