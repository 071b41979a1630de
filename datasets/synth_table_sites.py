#!/usr/bin/env python3
"""Generate synthetic sites laid out with tables, whose template table text
chunks (Ma et al. 2003) are known exactly: the reference for tbk-eval chunks.

Every site has a header table (site name, a menu row), a left column of
category links, a footer table, and per page one content cell of unique
prose. One of four variants, site i taking variant i % 4 (or --variant):

  fixed     every template chunk on every page
  optional  also optional template tables on part of the pages (the
            paper's netflix "watch preview"): a preview table on 60% and a
            notice on 30% of them
  variants  two templates in one site (the paper's "template variants"):
            product pages (a spec table with fixed labels, a buy box) on 60%
            of the pages, review pages (a rating box) on the other 40%
  repeated  the menu repeated at the bottom, inside the footer (the paper's
            nba.com navigation bar): the same chunk texts at two places

Template chunks appear on >= 30% of a site's pages (the exact pages are
drawn), far above the default threshold; content never repeats.

Layout of --out DIR:
  DIR/manifest.tsv           site page url (header, sorted)
  DIR/pages/<site>/<n>.html  the pages (UTF-8)
  DIR/chunk_truth.tsv        one row per template table node (a chunk at one
                             place of the template): site, node, variant,
                             pages (how many pages hold it), md5 (of its
                             normalized text), tpath (tag names from html to
                             the innermost table tag around it), text

Deterministic for a given --seed. Exit codes: 0 ok, 1 I/O error, 2 usage.
"""
import argparse
import hashlib
import os
import random
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from synth_sites import LANGS, Lang, h, norm, serialize  # noqa: E402

VARIANTS = ["fixed", "optional", "variants", "repeated"]
TABLE_TAGS = set("table tr td th thead tbody tfoot caption".split())


def words(lang, r, lo, hi):
    return " ".join(lang.content_word(r) for _ in range(r.randint(lo, hi))).capitalize()


class Site:
    def __init__(self, index, variant, lang, r):
        self.key = "tbl%02d-%s" % (index, variant)
        self.variant = variant
        self.lang = lang
        self.name = words(lang, r, 1, 2) + " " + lang.content_word(r).capitalize()
        self.menu = unique(lambda: words(lang, r, 1, 2), r.randint(5, 8))
        self.cats = unique(lambda: words(lang, r, 1, 3), r.randint(6, 10))
        self.foot = ["(c) %d %s" % (r.randint(1995, 2003), self.name)] + unique(lambda: words(lang, r, 1, 2), 3)
        self.preview = unique(lambda: words(lang, r, 1, 3), 3)
        self.notice = words(lang, r, 4, 8) + "."
        self.spec_labels = unique(lambda: words(lang, r, 1, 2) + ":", 4)
        self.buy = unique(lambda: words(lang, r, 1, 2), 2)
        self.rating = unique(lambda: words(lang, r, 1, 2), 3)


def unique(make, n):
    out = []
    while len(out) < n:
        w = make()
        if w not in out:
            out.append(w)
    return out


def pick(r, n, share):
    """Exactly round(share x n) of the n pages (at least one)."""
    k = max(1, round(share * n))
    return set(r.sample(range(n), k))


def link(text):
    return h("a", {"href": "/" + hashlib.md5(text.encode("utf-8")).hexdigest()[:8]}, text)


def page_tree(s, i, r, plan):
    lang = s.lang
    header = h("table", {"width": "100%", "bgcolor": "#003366"},
               h("tr", None, h("td", {"colspan": str(len(s.menu))}, h("font", {"size": "5"}, s.name))),
               h("tr", None, [h("td", None, link(m)) for m in s.menu]))
    left = h("td", {"width": "150", "valign": "top"},
             h("table", None, [h("tr", None, h("td", None, link(c))) for c in s.cats]))
    content = [h("h1", None, words(lang, r, 3, 7))]
    content += [h("p", None, lang.paragraph(r)) for _ in range(r.randint(2, 5))]
    side = []
    if i in plan.get("product", ()):
        content.append(h("table", {"border": "1"},
                         [h("tr", None, h("td", None, lab), h("td", None, "%s %d" % (lang.content_word(r), r.randint(1, 99999))))
                          for lab in s.spec_labels]))
        side.append(h("table", {"bgcolor": "#ffffcc"}, [h("tr", None, h("td", None, link(b))) for b in s.buy]))
    if i in plan.get("review", ()):
        side.append(h("table", {"bgcolor": "#eeeeff"}, h("caption", None, s.rating[0]),
                      [h("tr", None, h("th", None, x)) for x in s.rating[1:]]))
    if i in plan.get("preview", ()):
        side.append(h("table", {"bgcolor": "#ccffcc"}, [h("tr", None, h("td", None, link(x))) for x in s.preview]))
    if i in plan.get("notice", ()):
        side.append(h("table", None, h("tr", None, h("td", None, h("i", None, s.notice)))))
    main = h("td", {"valign": "top"}, content)
    right = h("td", {"width": "180", "valign": "top"}, side) if side else None
    foot_cells = [h("td", None, f) for f in s.foot]
    footer = h("table", {"width": "100%"}, h("tr", None, foot_cells))
    if s.variant == "repeated":
        footer.add(h("tr", None, h("td", {"colspan": str(len(s.foot))},
                                  h("table", None, h("tr", None, [h("td", None, link(m)) for m in s.menu])))))
    layout = h("table", {"width": "100%"}, h("tr", None, left, main, right))
    body = h("body", None, header, layout, footer)
    return h("html", None, h("head", None, h("title", None, s.name)), body)


def template_nodes(s, plan, npages):
    """(node, variant part, pages, tpath, text) of every template chunk."""
    all_pages = npages
    rows = [("name", "header", all_pages, "html/body/table/tr/td", s.name)]
    rows += [("menu%d" % k, "header", all_pages, "html/body/table/tr/td", m) for k, m in enumerate(s.menu)]
    rows += [("cat%d" % k, "left", all_pages, "html/body/table/tr/td/table/tr/td", c) for k, c in enumerate(s.cats)]
    rows += [("foot%d" % k, "footer", all_pages, "html/body/table/tr/td", f) for k, f in enumerate(s.foot)]
    side = "html/body/table/tr/td/table/tr/td"
    if s.variant == "repeated":
        rows += [("menu%d-bottom" % k, "footer", all_pages, "html/body/table/tr/td/table/tr/td", m)
                 for k, m in enumerate(s.menu)]
    if "preview" in plan:
        rows += [("preview%d" % k, "optional", len(plan["preview"]), side, x) for k, x in enumerate(s.preview)]
    if "notice" in plan:
        rows += [("notice", "optional", len(plan["notice"]), side, s.notice)]
    if "product" in plan:
        n = len(plan["product"])
        rows += [("spec%d" % k, "product", n, "html/body/table/tr/td/table/tr/td", lab)
                 for k, lab in enumerate(s.spec_labels)]
        rows += [("buy%d" % k, "product", n, side, b) for k, b in enumerate(s.buy)]
    if "review" in plan:
        n = len(plan["review"])
        rows += [("rating-caption", "review", n, "html/body/table/tr/td/table/caption", s.rating[0])]
        rows += [("rating%d" % k, "review", n, "html/body/table/tr/td/table/tr/th", x)
                 for k, x in enumerate(s.rating[1:])]
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description="Generate table-laid-out sites with known template chunks.")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--sites", type=int, default=8, help="number of sites (default 8)")
    ap.add_argument("--pages", type=int, default=30, help="pages per site (default 30)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--variant", choices=VARIANTS, help="every site of this variant (default: site i: i %% 4)")
    args = ap.parse_args(argv)
    if args.sites < 1 or args.pages < 4:
        ap.error("--sites must be >= 1 and --pages >= 4")
    langs = {code: Lang(code) for code in LANGS}
    out = args.out
    manifest, truth = [], []
    try:
        os.makedirs(out, exist_ok=True)
        shutil.rmtree(os.path.join(out, "pages"), ignore_errors=True)
        for si in range(args.sites):
            r = random.Random("%d:%d" % (args.seed, si))
            variant = args.variant or VARIANTS[si % len(VARIANTS)]
            lang = langs[LANGS[si % len(LANGS)]] if LANGS[si % len(LANGS)] != "zh" else langs["en"]
            s = Site(si, variant, lang, r)
            n = args.pages
            plan = {}
            if variant == "optional":
                plan["preview"] = pick(r, n, 0.6)
                plan["notice"] = pick(r, n, 0.3)
            elif variant == "variants":
                product = pick(r, n, 0.6)
                plan["product"] = product
                plan["review"] = set(range(n)) - product
            os.makedirs(os.path.join(out, "pages", s.key))
            for i in range(n):
                tree = page_tree(s, i, r, plan)
                parts = ["<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">"]
                serialize(tree, parts)
                rel = "pages/%s/%03d.html" % (s.key, i)
                with open(os.path.join(out, rel), "w", encoding="utf-8", newline="\n") as f:
                    f.write("".join(parts) + "\n")
                manifest.append((s.key, rel, "http://%s.example/%03d.html" % (s.key, i)))
            for node, part, pages, tpath, text in template_nodes(s, plan, n):
                t = norm(text)
                truth.append((s.key, node, part, str(pages), hashlib.md5(t.encode("utf-8")).hexdigest(), tpath, t))
        manifest.sort()
        with open(os.path.join(out, "manifest.tsv"), "w", encoding="utf-8", newline="\n") as f:
            f.write("site\tpage\turl\n")
            for row in manifest:
                f.write("\t".join(row) + "\n")
        with open(os.path.join(out, "chunk_truth.tsv"), "w", encoding="utf-8", newline="\n") as f:
            f.write("site\tnode\tvariant\tpages\tmd5\ttpath\ttext\n")
            for row in truth:
                f.write("\t".join(row) + "\n")
    except OSError as e:
        print("synth_table_sites.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
