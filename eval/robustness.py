#!/usr/bin/env python3
"""robustness.py — pages under F1 0.5 and 0.8, and F1 by kind of page.

Usage: eval/robustness.py [options] RESULTS_DIR

RESULTS_DIR is run_eval.sh's results directory (or any directory laid out like
it): RESULTS_DIR/per-page/<dataset>.<tool>.<gold>.tsv (`tbk-eval gold
--per-page`: site, page, precision, recall, f1, ...) and RESULTS_DIR/kinds.tsv
(eval/page_kind.py's output: dataset, site, page, kind, why). Prints Markdown:

  1. per data set and gold (main; dragnet also main+comments), one row per
     tool: pages, mean F1, pages with F1 < 0.5 and < 0.8 (count and share);
  2. by kind of page, pooled over the data sets (main gold) and per data set:
     pages, and per tool mean F1 and pages under 0.5; the best figure of each
     row in bold, and the row's goal check (tbk >= the best peer in mean F1
     and <= it in pages under 0.5);
  3. with --pages-under: every page under F1 0.5 for at least one of the
     listed tools, by kind (set/site/id and each tool's F1);
  4. with --worst N: the N worst pages of --tool (set/site/id, kind, P, R, F1).

Options:
  --kinds FILE        kinds TSV (default RESULTS_DIR/kinds.tsv; without one
                      every page is "untagged")
  --tools A,B,...     tools of the kind tables (default: tbk and the peers
                      present: boilerpipe-article, boilerpipe-default,
                      readability-lxml, mozilla-readability)
  --pages-under A,B   list the pages under 0.5 of these tools ("peers": the
                      peers present)
  --worst N           the N worst pages of --tool (default tool: tbk)
  --tool T            the tool of --worst
  --gold G            gold variant of the kind tables and lists (default main)
Python 3 standard library only.
"""
import collections
import os
import sys

import page_kind  # eval/page_kind.py, beside this script: the kinds and their labels

PEERS = ["boilerpipe-article", "boilerpipe-default", "readability-lxml", "mozilla-readability"]
KINDS = page_kind.KINDS + ["untagged"]
KIND_LABEL = dict(page_kind.KIND_LABEL, untagged="untagged")
GOLD_LABEL = {"main": "main text", "comments": "main text + comments"}


def load(res, kinds_file):
    """{(dataset, gold): {tool: {page: (site, P, R, F1)}}} and {(dataset, page): kind}."""
    data = collections.OrderedDict()
    d = os.path.join(res, "per-page")
    for name in sorted(os.listdir(d)):
        if not name.endswith(".tsv"):
            continue
        stem = name[:-4]
        ds, rest = stem.split(".", 1)
        tool, gold = rest.rsplit(".", 1)
        pages = {}
        with open(os.path.join(d, name), encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            ix = {k: header.index(k) for k in ("site", "page", "precision", "recall", "f1")}
            for line in f:
                r = line.rstrip("\n").split("\t")
                pages[r[ix["page"]]] = (r[ix["site"]], float(r[ix["precision"]]), float(r[ix["recall"]]),
                                        float(r[ix["f1"]]))
        data.setdefault((ds, gold), {})[tool] = pages
    data = collections.OrderedDict(sorted(data.items(), key=lambda kv: (kv[0][0], kv[0][1] != "main", kv[0][1])))
    kinds = {}
    if kinds_file and os.path.exists(kinds_file):
        with open(kinds_file, encoding="utf-8") as f:
            f.readline()
            for line in f:
                r = line.rstrip("\n").split("\t")
                kinds[(r[0], r[2])] = r[3]
    return data, kinds


def pct(n, total):
    return "%d (%.1f %%)" % (n, 100.0 * n / total) if total else "-"


def page_id(ds, page):
    """dataset/site/id; an id of 32 or more hex digits (scrapinghub_aeb's hashes) cut to its first 12."""
    p = page[len("pages/"):] if page.startswith("pages/") else page
    p = p.rsplit(".", 1)[0]
    head, _, tail = p.rpartition("/")
    if len(tail) >= 32 and all(c in "0123456789abcdef" for c in tail):
        p = "%s/%s…" % (head, tail[:12])
    return "%s/%s" % (ds, p)


def per_set_tables(data, out):
    out.append("#### Pages under F1 0.5 and 0.8, per gold set\n")
    out.append("Goal: at most 1 % of a set's pages under F1 0.5.\n")
    for (ds, gold), tools in data.items():
        n = max(len(p) for p in tools.values())
        out.append("%s (%d pages, gold: %s)\n" % (ds, n, GOLD_LABEL.get(gold, gold)))
        out.append("| tool | pages | F1 mean | F1 < 0.5 | F1 < 0.8 | ≤ 1 % under 0.5 |")
        out.append("|---|---|---|---|---|---|")
        rows = []
        for tool, pages in tools.items():
            f1 = [v[3] for v in pages.values()]
            rows.append((tool, len(f1), sum(f1) / len(f1), sum(x < 0.5 for x in f1), sum(x < 0.8 for x in f1)))
        for tool, np_, mean, u5, u8 in sorted(rows, key=lambda r: (r[3], -r[2])):
            out.append("| %s | %d | %.3f | %s | %s | %s |" % (tool, np_, mean, pct(u5, np_), pct(u8, np_),
                                                            "yes" if u5 <= 0.01 * np_ else "no"))
        out.append("")


def kind_table(title, rows_by_kind, tools, out):
    """rows_by_kind: {kind: {tool: [f1, ...]}}."""
    out.append(title + "\n")
    head = "| kind | pages | " + " | ".join("%s F1 mean / < 0.5" % t for t in tools)
    has_goal = "tbk" in tools and any(t in PEERS for t in tools)
    out.append(head + (" | tbk ≥ best peer |" if has_goal else " |"))
    out.append("|---|---|" + "---|" * len(tools) + ("---|" if has_goal else ""))
    total = collections.defaultdict(list)
    for kind in KINDS + ["all"]:
        if kind == "all":
            per = total
        else:
            per = rows_by_kind.get(kind)
            if not per:
                continue
            for t, v in per.items():
                total[t].extend(v)
        n = max(len(v) for v in per.values())
        stats = {}
        for t in tools:
            v = per.get(t)
            if v:
                stats[t] = (sum(v) / len(v), sum(x < 0.5 for x in v), len(v))
        best_mean = max((s[0] for s in stats.values()), default=None)
        best_u5 = min((s[1] for s in stats.values()), default=None)
        cells = []
        for t in tools:
            if t not in stats:
                cells.append("-")
                continue
            mean, u5, _ = stats[t]
            m = "%.3f" % mean
            u = "%d" % u5
            if round(mean, 3) == round(best_mean, 3):
                m = "**%s**" % m
            if u5 == best_u5:
                u = "**%s**" % u
            cells.append("%s / %s" % (m, u))
        goal = ""
        if has_goal:
            peers = [stats[t] for t in tools if t in PEERS and t in stats]
            if "tbk" in stats and peers:
                bm = max(p[0] for p in peers)
                bu = min(p[1] for p in peers)
                ok_m = stats["tbk"][0] >= bm - 5e-4
                ok_u = stats["tbk"][1] <= bu
                goal = " | %s mean, %s < 0.5" % ("yes" if ok_m else "**no**", "yes" if ok_u else "**no**")
            else:
                goal = " | -"
        label = "all" if kind == "all" else KIND_LABEL[kind]
        out.append("| %s | %d | %s%s |" % (label, n, " | ".join(cells), goal))
    out.append("")


def by_kind(data, kinds, tools, gold, datasets):
    rows = collections.defaultdict(lambda: collections.defaultdict(list))
    for (ds, g), per_tool in data.items():
        if g != gold or ds not in datasets:
            continue
        for t in tools:
            for page, v in per_tool.get(t, {}).items():
                rows[kinds.get((ds, page), "untagged")][t].append(v[3])
    return rows


def main(argv):
    opts = {"--kinds": None, "--tools": None, "--pages-under": None, "--worst": None, "--tool": "tbk",
            "--gold": "main"}
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        if a in opts:
            if i + 1 >= len(argv):
                sys.exit("robustness.py: %s needs a value" % a)
            opts[a] = argv[i + 1]
            i += 2
            continue
        if a.startswith("-"):
            sys.exit("robustness.py: unknown option %s (--help)" % a)
        args.append(a)
        i += 1
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    res = args[0]
    data, kinds = load(res, opts["--kinds"] or os.path.join(res, "kinds.tsv"))
    if not data:
        sys.exit("robustness.py: no per-page files in %s/per-page" % res)
    gold = opts["--gold"]
    present = {t for per in data.values() for t in per}
    tools = opts["--tools"].split(",") if opts["--tools"] else [t for t in ["tbk"] + PEERS if t in present]
    out = []
    per_set_tables(data, out)
    datasets = [ds for (ds, g) in data if g == gold]
    if kinds:
        dist = collections.OrderedDict((ds, collections.Counter()) for ds in datasets)
        for (ds, page), k in kinds.items():
            if ds in dist:
                dist[ds][k] += 1
        out.append("#### Kinds of page per gold set (eval/page_kind.py)\n")
        out.append("| data set | pages | " + " | ".join(KIND_LABEL[k] for k in KINDS[:-1]) + " |")
        out.append("|---|---|" + "---|" * (len(KINDS) - 1))
        for ds, c in dist.items():
            n = sum(c.values())
            out.append("| %s | %d | " % (ds, n) + " | ".join(pct(c[k], n) if c[k] else "0" for k in KINDS[:-1])
                       + " |")
        out.append("")
    kind_table("#### By kind of page, pooled over %s (gold: %s); cells: F1 mean / pages under 0.5" % (
        " + ".join(datasets), GOLD_LABEL.get(gold, gold)), by_kind(data, kinds, tools, gold, datasets), tools, out)
    for ds in datasets:
        kind_table("#### By kind of page, %s (gold: %s)" % (ds, GOLD_LABEL.get(gold, gold)),
                   by_kind(data, kinds, tools, gold, [ds]), tools, out)
    if opts["--pages-under"]:
        lt = opts["--pages-under"].split(",")
        if lt == ["peers"]:
            lt = [t for t in PEERS if t in present]
        out.append("#### Pages under F1 0.5 for %s, by kind (gold: %s)\n" % (", ".join(lt), GOLD_LABEL.get(gold, gold)))
        out.append("| kind | page | " + " | ".join(lt) + " |")
        out.append("|---|---|" + "---|" * len(lt))
        rows = []
        for (ds, g), per_tool in data.items():
            if g != gold:
                continue
            pages = set()
            for t in lt:
                pages |= {p for p, v in per_tool.get(t, {}).items() if v[3] < 0.5}
            for p in pages:
                k = kinds.get((ds, p), "untagged")
                f = [per_tool[t][p][3] if p in per_tool.get(t, {}) else None for t in lt]
                rows.append((KINDS.index(k), -sum(x < 0.5 for x in f if x is not None), page_id(ds, p), k, f))
        for _, _, pid, k, f in sorted(rows):
            out.append("| %s | %s | %s |" % (KIND_LABEL[k], pid, " | ".join(
                "-" if x is None else ("**%.2f**" % x if x < 0.5 else "%.2f" % x) for x in f)))
        out.append("")
        out.append("Under 0.5 for every one of them, by kind:\n")
        common = collections.defaultdict(list)
        for _, _, pid, k, f in sorted(rows):
            if all(x is not None and x < 0.5 for x in f):
                common[k].append(pid)
        for k in KINDS:
            if common[k]:
                out.append("- %s (%d): %s" % (KIND_LABEL[k], len(common[k]), ", ".join(common[k])))
        if not common:
            out.append("- none")
        out.append("")
        for i, t in enumerate(lt):
            out.append("Under 0.5 for %s, by kind:\n" % t)
            for k in KINDS:
                ids = sorted(pid for _, _, pid, kk, f in rows if kk == k and f[i] is not None and f[i] < 0.5)
                if ids:
                    out.append("- %s (%d): %s" % (KIND_LABEL[k], len(ids), ", ".join(ids)))
            out.append("")
    if opts["--worst"]:
        t = opts["--tool"]
        n = int(opts["--worst"])
        rows = []
        for (ds, g), per_tool in data.items():
            if g != gold:
                continue
            for p, v in per_tool.get(t, {}).items():
                rows.append((v[3], page_id(ds, p), kinds.get((ds, p), "untagged"), v + (p,)))
        rows.sort()
        base = {(ds, p): v[2] for (ds, g), per_tool in data.items() if g == gold
                for p, v in per_tool.get("baseline", {}).items()}
        out.append("#### The %d worst pages of %s (gold: %s)\n" % (n, t, GOLD_LABEL.get(gold, gold)))
        if base:
            out.append("baseline R = recall of the page's whole visible text (`tbk-eval gold --baseline`): "
                       "under 0.5, most of the gold is not on the page at all.\n")
        out.append("| page | kind | P | R | F1 |" + (" baseline R |" if base else ""))
        out.append("|---|---|---|---|---|" + ("---|" if base else ""))
        for f1, pid, k, v in rows[:n]:
            b = base.get((pid.split("/", 1)[0], v[4]))
            out.append("| %s | %s | %.3f | %.3f | %.3f |" % (pid, KIND_LABEL[k], v[1], v[2], v[3])
                       + ((" %.3f |" % b if b is not None else " - |") if base else ""))
        out.append("")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
