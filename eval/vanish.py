#!/usr/bin/env python3
"""vanish.py — pages whose main text an extractor loses, on pages without
human gold: each of two extractors' outputs taken as the other's reference.

Usage: eval/vanish.py [--min-tokens N] [--share S] [--kinds KINDS.tsv]
                      MANIFEST A_NAME A_DIR B_NAME B_DIR

A_DIR and B_DIR hold one output per page as tbk-eval gold reads them
(<site>/<id>.txt, or tbk-predict --output-dir's pages/...). A page counts as
"A lost the text" when B's output has at least N word tokens (default 100)
and A's output holds less than S (default 0.3) of them (token recall of A
against B, tbk-eval gold's metric), and the other way round. Neither output
is gold: a page where A keeps under 30 % of what B keeps is a page where one
of them is badly wrong, and which one is a matter for reading the page; the
count per extractor is how often each is the one that came out short. With
--kinds (eval/page_kind.py --all's TSV) the counts are given by kind of page.
Prints a Markdown table (with --list, then each page either lost: its
reference's tokens and the recall). Env: TBK_BUILD (default <repo>/build).
Exit: 0 done, 1 a tool failed, 2 usage.
"""
import argparse
import collections
import csv
import os
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def recall_per_page(evaluate, manifest, ref_dir, pred_dir, tmp):
    """Per page: (tokens of the reference, recall of pred against it)."""
    base = os.path.dirname(os.path.abspath(manifest))
    ref_manifest = os.path.join(tmp, "ref.tsv")
    # page paths stay relative (the predictions are found by them): the
    # manifest's folders are linked beside the temporary manifest
    for name in os.listdir(base):
        if os.path.isdir(os.path.join(base, name)):
            os.symlink(os.path.join(base, name), os.path.join(tmp, name))
    with open(manifest, encoding="utf-8") as f, open(ref_manifest, "w", encoding="utf-8") as out:
        rows = csv.reader(f, delimiter="\t")
        out.write("site\tpage\turl\tgold\n")
        next(rows)
        for r in rows:
            page = r[1]
            rel = page[len("pages/"):] if page.startswith("pages/") else page
            # a peer's layout (<site>/<id>.txt) or tbk-predict --output-dir's (pages/...)
            refs = [os.path.join(ref_dir, os.path.splitext(p)[0] + ".txt") for p in (rel, page)]
            ref = next((r for r in refs if os.path.exists(r)), None)
            if not ref or os.path.getsize(ref) == 0:
                continue
            out.write("%s\t%s\t%s\t%s\n" % (r[0], page, r[2], os.path.abspath(ref)))
    per_page = os.path.join(tmp, "per-page.tsv")
    subprocess.run([evaluate, "gold", "--per-page", per_page, ref_manifest, pred_dir], check=True,
                   stdout=subprocess.DEVNULL)
    res = {}
    for r in csv.DictReader(open(per_page, encoding="utf-8"), delimiter="\t"):
        res[r["page"]] = (int(r["gold_tokens"]), float(r["recall"]))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-tokens", type=int, default=100)
    ap.add_argument("--share", type=float, default=0.3)
    ap.add_argument("--kinds")
    ap.add_argument("--list", action="store_true", help="also list the pages each lost, with the reference's tokens and the recall")
    ap.add_argument("manifest")
    ap.add_argument("a_name")
    ap.add_argument("a_dir")
    ap.add_argument("b_name")
    ap.add_argument("b_dir")
    a = ap.parse_args()
    evaluate = os.path.join(os.environ.get("TBK_BUILD", os.path.join(SRC, "build")), "eval", "tbk-eval")
    kinds = {}
    if a.kinds:
        for r in csv.reader(open(a.kinds, encoding="utf-8"), delimiter="\t"):
            if len(r) >= 4:
                kinds[r[2]] = r[3]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            # a against b's output: where a lost b's text; b against a's
            os.makedirs(os.path.join(tmp, "a"))
            os.makedirs(os.path.join(tmp, "b"))
            a_lost = recall_per_page(evaluate, a.manifest, a.b_dir, a.a_dir, os.path.join(tmp, "a"))
            b_lost = recall_per_page(evaluate, a.manifest, a.a_dir, a.b_dir, os.path.join(tmp, "b"))
        except (OSError, subprocess.CalledProcessError) as e:
            sys.exit("vanish.py: error: %s" % e)
    pages = sorted(set(a_lost) & set(b_lost))
    count = collections.defaultdict(collections.Counter)
    for p in pages:
        k = kinds.get(p, "all") if kinds else "all"
        for kk in {k, "all"}:
            count[kk]["pages"] += 1
            ref, rec = a_lost[p]
            if ref >= a.min_tokens and rec < a.share:
                count[kk]["a"] += 1
            ref, rec = b_lost[p]
            if ref >= a.min_tokens and rec < a.share:
                count[kk]["b"] += 1
    print("| kind | pages | %s lost the text | %s lost the text |" % (a.a_name, a.b_name))
    print("|---|---|---|---|")
    for k in sorted(count, key=lambda k: (k == "all", k)):
        c = count[k]
        print("| %s | %d | %d (%.1f %%) | %d (%.1f %%) |" % (k, c["pages"], c["a"], 100.0 * c["a"] / c["pages"],
                                                          c["b"], 100.0 * c["b"] / c["pages"]))
    if a.list:
        for name, lost in ((a.a_name, a_lost), (a.b_name, b_lost)):
            print("\n%s lost the text of:" % name)
            for p in pages:
                ref, rec = lost[p]
                if ref >= a.min_tokens and rec < a.share:
                    print("- %s (reference %d tokens, recall %.2f)" % (p, ref, rec))


if __name__ == "__main__":
    main()
