#!/usr/bin/env python3
"""Synthetic training data for timing tbk-train at scale.

Resamples rows of a real tbk-features output (the seed: features, words and
meta files of labelled blocks) into N rows spread over synthetic sites of
--site-rows rows each, jittering every non-binary feature value a little so
the rows stay distinct (deduplication would otherwise fold them back to the
seed). Values keep their kind's range (counts stay non-negative integers,
ratios and positions stay in [0, 1]), labels and word counts are kept, so
MDL finds cut points and the classifier sees the class structure of real
data. Output is the three aligned files tbk-train reads; the meta header is
the seed's, so the schema id is the current build's.

Usage: gen_train.py --seed PREFIX --schema SCHEMA.tsv --rows N --out PREFIX
  PREFIX.svm, PREFIX.words, PREFIX.meta.jsonl are read (seed) / written (out);
  SCHEMA.tsv is `tbk-features --schema` (index, name, kind).
"""
import argparse
import json
import math
import random
import sys


def read_seed(prefix):
    with open(prefix + ".svm") as f:
        feats = [line.rstrip("\n") for line in f]
    with open(prefix + ".words") as f:
        words = [line.rstrip("\n") for line in f]
    with open(prefix + ".meta.jsonl") as f:
        header = f.readline()
        tags = [json.loads(line).get("tag", "div") for line in f]
    if not (len(feats) == len(words) == len(tags)):
        sys.exit("gen_train.py: seed files are not aligned")
    rows = []
    for fl, wl, tag in zip(feats, words, tags):
        parts = fl.split()
        label = parts[0]
        pairs = []
        for p in parts[1:]:
            i, v = p.split(":")
            pairs.append((int(i), float(v)))
        rows.append((label, pairs, wl.split(" ", 1)[1] if " " in wl else "", tag))
    return header, rows


def fmt(v):
    s = "%.9g" % v
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--site-rows", type=int, default=2000)
    ap.add_argument("--random-seed", type=int, default=1)
    a = ap.parse_args()

    kinds = {}
    with open(a.schema) as f:
        for line in f:
            idx, _name, kind = line.rstrip("\n").split("\t")
            kinds[int(idx)] = kind
    header, seed = read_seed(a.seed)
    if not seed:
        sys.exit("gen_train.py: empty seed")
    rnd = random.Random(a.random_seed)
    gauss = rnd.gauss
    with open(a.out + ".svm", "w") as fo, open(a.out + ".words", "w") as wo, open(a.out + ".meta.jsonl", "w") as mo:
        mo.write(header)
        for r in range(a.rows):
            label, pairs, wl, tag = seed[rnd.randrange(len(seed))]
            site = "synth%05d.example" % (r // a.site_rows)
            out = [label]
            for i, v in pairs:
                k = kinds.get(i, "binary")
                if k == "count":
                    v = float(max(0, round(v * math.exp(gauss(0.0, 0.15)))))
                elif k in ("ratio", "position"):
                    v = min(1.0, max(0.0, v + gauss(0.0, 0.02)))
                elif k == "real":
                    v = v * math.exp(gauss(0.0, 0.05))
                if v != 0.0:
                    out.append("%d:%s" % (i, fmt(v)))
            fo.write(" ".join(out) + "\n")
            wo.write(label + (" " + wl if wl else "") + "\n")
            mo.write('{"site":"%s","page":"p%d.html","path":"/html[1]/body[1]/div[1]","tag":"%s",'
                     '"md5":"%032x","label":%s,"block":0}\n' % (site, r, tag, r, label))


if __name__ == "__main__":
    main()
