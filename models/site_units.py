#!/usr/bin/env python3
"""site_units.py — content-stage labels for pages that have no human gold,
by the site rule the template stage's labels follow (Kolcz & Yih), applied
to the content stage's text units.

    site_units.py [--min-pages N] [--min-words W] [--max-site-rows R] IN.jsonl OUT.jsonl

IN.jsonl is `tbk-label --gold` run over a multi-page site's manifest with a
gold that matches no word, so that every unit of every page is listed with
its md5 (units with no word are not listed). A unit is

  boilerplate  when its text is on >= max(ceil(10% of the site's pages), 3)
               pages of the site (the template rule of tbk-label);
  content      when its text is on this page only, once, and has at least
               W words (default 10): a paragraph no other page of a
               documentation package, forum or blog repeats is the page's
               own text;
  left out     otherwise (short unique lines: a date, a "next: ..." link,
               a page number, which the human gold sets decide better;
               text on 2 pages up to the threshold: ambiguous).

Sites with fewer than N pages (default 10) are left out, as tbk-label does;
at most R labelled units of a site are kept (default 0: all), evenly
spaced in input order, so that these rows do not outweigh the human gold.
Why this rule: the human gold sets are news articles; documentation,
forums and company sites have other layouts, and what such a page alone
says is its main text (docs/experiments/evaluation-content-stage.md).
Exit: 0 written, 1 bad input, 2 usage.
"""
import argparse
import collections
import json
import math
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-pages", type=int, default=10)
    ap.add_argument("--min-words", type=int, default=10)
    ap.add_argument("--max-site-rows", type=int, default=0)
    ap.add_argument("inp")
    ap.add_argument("out")
    a = ap.parse_args()
    rows = []
    df = collections.defaultdict(set)        # (site, md5) -> pages
    on_page = collections.Counter()          # (site, page, md5) -> copies
    pages = collections.defaultdict(set)     # site -> pages
    try:
        with open(a.inp, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                j = json.loads(line)
                k = (j["site"], j["md5"])
                df[k].add(j["page"])
                on_page[(j["site"], j["page"], j["md5"])] += 1
                pages[j["site"]].add(j["page"])
                rows.append(j)
    except (OSError, ValueError, KeyError) as e:
        sys.exit("site_units.py: error: %s: %s" % (a.inp, e))
    counts = collections.Counter()
    labelled = collections.defaultdict(list)  # site -> (row, label)
    for j in rows:
        site = j["site"]
        n = len(pages[site])
        if n < a.min_pages:
            continue
        d = len(df[(site, j["md5"])])
        if d >= max(math.ceil(0.1 * n), 3):
            labelled[site].append((j, "boilerplate"))
        elif d == 1 and on_page[(site, j["page"], j["md5"])] == 1 and j["words"] >= a.min_words:
            labelled[site].append((j, "content"))
        else:
            counts["left out"] += 1
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        for site, rs in labelled.items():
            if a.max_site_rows and len(rs) > a.max_site_rows:
                step = len(rs) / a.max_site_rows
                rs = [rs[int(k * step)] for k in range(a.max_site_rows)]
            for j, label in rs:
                j["label"] = label
                counts[label] += 1
                out.write(json.dumps(j, ensure_ascii=False, separators=(",", ":")) + "\n")
    os.replace(tmp, a.out)
    print("site_units.py: %s: %d content, %d boilerplate, %d left out" %
          (a.out, counts["content"], counts["boilerplate"], counts["left out"]), file=sys.stderr)


if __name__ == "__main__":
    main()
