#!/usr/bin/env python3
"""Reference scorer for peer outputs (cross-check for tbk-eval's metric).

Usage: score_dir.py GOLD_MANIFEST OUTDIR [--per-page FILE]

For every manifest row with a non-empty gold column, the extraction is
OUTDIR/<page path without leading "pages/", .html -> .txt> (the layout
run_peers.sh writes); a missing file counts as an empty extraction.

Metric, per page, on token multisets:
  tokens   = regex \\w+ (Python re, Unicode) over the text, except that every
             Han / Hiragana / Katakana code point is a token of its own;
             each token case-folded with str.casefold();
  overlap  = sum of the Counter intersection of prediction and gold tokens;
  P = overlap / |pred|, R = overlap / |gold|, F1 = 2PR / (P + R);
  both empty -> P = R = F1 = 1; prediction empty, gold not -> P = R = F1 = 0;
  gold empty, prediction not -> P = R = F1 = 0.
Reports mean and median P/R/F1 over the pages as one JSON line.
"""
import argparse
import json
import os
import re
import statistics
import sys
from collections import Counter

# Scripts written without spaces: one token per code point.
_CJK = ("\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3038-\u303b"
        "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
        "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f")
TOKEN = re.compile("[%s]|(?:(?![%s])\\w)+" % (_CJK, _CJK), re.UNICODE)


def tokens(text):
    return Counter(t.casefold() for t in TOKEN.findall(text))


def prf(pred, gold):
    np_, ng = sum(pred.values()), sum(gold.values())
    if np_ == 0 and ng == 0:
        return 1.0, 1.0, 1.0
    if np_ == 0 or ng == 0:
        return 0.0, 0.0, 0.0
    overlap = sum((pred & gold).values())
    p, r = overlap / np_, overlap / ng
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except FileNotFoundError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("manifest")
    ap.add_argument("outdir")
    ap.add_argument("--per-page", help="write site, page, P, R, F1, token counts as TSV")
    args = ap.parse_args()

    base = os.path.dirname(os.path.abspath(args.manifest))
    rows = []
    missing = 0
    with open(args.manifest, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header[:4] != ["site", "page", "url", "gold"]:
            sys.exit("score_dir.py: bad manifest header %r" % header)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 4 or not cols[3]:
                continue
            site, page, gold = cols[0], cols[1], cols[3]
            rel = re.sub(r"\.html?$", "", re.sub(r"^pages/", "", page), flags=re.I) + ".txt"
            pred_text = read_text(os.path.join(args.outdir, rel))
            if pred_text is None:
                missing += 1
                pred_text = ""
            gold_text = read_text(os.path.join(base, gold)) or ""
            pred, gold_t = tokens(pred_text), tokens(gold_text)
            p, r, f1 = prf(pred, gold_t)
            rows.append((site, page, p, r, f1, sum(pred.values()), sum(gold_t.values())))

    if args.per_page:
        with open(args.per_page, "w", encoding="utf-8") as f:
            f.write("site\tpage\tprecision\trecall\tf1\tpred_tokens\tgold_tokens\n")
            for row in rows:
                f.write("%s\t%s\t%.4f\t%.4f\t%.4f\t%d\t%d\n" % row)

    def stat(i, fn):
        return round(fn([row[i] for row in rows]), 4) if rows else None

    print(json.dumps({
        "manifest": os.path.abspath(args.manifest),
        "outdir": os.path.abspath(args.outdir),
        "pages": len(rows),
        "missing_outputs": missing,
        "empty_outputs": sum(1 for row in rows if row[5] == 0),
        "precision_mean": stat(2, statistics.fmean),
        "recall_mean": stat(3, statistics.fmean),
        "f1_mean": stat(4, statistics.fmean),
        "precision_median": stat(2, statistics.median),
        "recall_median": stat(3, statistics.median),
        "f1_median": stat(4, statistics.median),
    }))


if __name__ == "__main__":
    main()
