#!/usr/bin/env python3
"""Grow a training set to N rows for the scale benchmarks (BENCHMARKS.md):
the rows of FEATURES WORDS META repeated, copy c (from 1) on sites
"c~SITE" with feature 1 scaled by 1 + c * 1e-7, so copies are distinct rows
(deduplication keeps them) on distinct sites (per-site caps do not bite)
with the data's own sparsity and words.

  replicate_rows.py FEATURES WORDS META N OUT_PREFIX

writes OUT_PREFIX.{svm,words.svm,meta.jsonl}: the first N rows of copies
0, 1, 2, ... (copy 0 is the input unchanged)."""
import sys


def scaled(line, c):
    if c == 0:
        return line
    label, _, rest = line.partition(" ")
    if rest.startswith("1:"):
        head, _, tail = rest.partition(" ")
        v = float(head[2:]) * (1 + c * 1e-7)
        rest = f"1:{v:.9g} {tail}" if tail else f"1:{v:.9g}\n"
    return f"{label} {rest}"


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__.split("\n\n")[1])
    feat, words, meta, n, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    f = open(feat).readlines()
    w = open(words).readlines()
    m = open(meta).readlines()
    header, m = m[0], m[1:]
    assert len(f) == len(w) == len(m) and f, "inputs not aligned"
    with open(out + ".svm", "w") as fo, open(out + ".words.svm", "w") as wo, open(out + ".meta.jsonl", "w") as mo:
        mo.write(header)
        for i in range(n):
            c, r = divmod(i, len(f))
            fo.write(scaled(f[r], c))
            wo.write(w[r])
            mo.write(m[r].replace('{"site":"', '{"site":"%d~' % c, 1) if c else m[r])


if __name__ == "__main__":
    main()
