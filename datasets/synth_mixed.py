#!/usr/bin/env python3
"""Hosts that serve several templates, pages interleaved: the synthetic test
of tbk-cluster (issue #15).

Each host gets --templates generated sites of datasets/synth_sites.py (site i
has style i % 4: table, div, HTML5, docs, with their own menus and optional
blocks), all under the host's one site key, their pages numbered in turn
(page k of the host is page k // T of its template k % T), so a host's
pages interleave its templates. truth.tsv names each page's template
(host/style), the grouping tbk-cluster should find.

Layout of --out DIR:
  DIR/manifest.tsv        site page url gold (site = the host)
  DIR/truth.tsv           page site (site = host/template): the reference
  DIR/pages/<host>/<id>.html

With --replicate N MANIFEST... (the scale test), the pages of the
manifests are instead copied round-robin into N pages under --out, each
copy with perturbed text (a copy number in its <title>, a paragraph of
random words before </body>), with manifest.tsv (site kept) listing them.

Deterministic for a given --seed. Exit codes: 0 ok, 1 I/O error, 2 usage.
"""
import argparse
import os
import random
import shutil
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth_sites as ss  # noqa: E402


def replicate(out, n, manifests, seed):
    """N copies of the manifests' pages, round-robin, with perturbed text."""
    src = []
    for m in manifests:
        base = os.path.dirname(os.path.abspath(m))
        with open(m, encoding="utf-8") as f:
            next(f)
            for line in f:
                cells = line.rstrip("\n").split("\t")
                src.append((cells[0], os.path.join(base, cells[1])))
    r = random.Random(seed)
    words = ["lorem", "ipsum", "dolor", "sit", "amet", "tempor", "magna", "aliqua", "veniam", "nostrud"]
    os.makedirs(os.path.join(out, "pages"), exist_ok=True)
    rows = []
    for k in range(n):
        site, path = src[k % len(src)]
        with open(path, "rb") as f:
            data = f.read()
        tag = (" %d " % k).encode()
        t = data.find(b"</title>")
        if t >= 0:
            data = data[:t] + tag + data[t:]
        para = ("<p>%s</p>" % " ".join(r.choice(words) for _ in range(r.randint(5, 30)))).encode()
        b = data.rfind(b"</body>")
        data = data[:b] + para + data[b:] if b >= 0 else data + para
        page = "pages/%06d.html" % k
        with open(os.path.join(out, page), "wb") as f:
            f.write(data)
        rows.append((site, page, "", ""))
    with open(os.path.join(out, "manifest.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("site\tpage\turl\tgold\n")
        f.writelines("\t".join(row) + "\n" for row in sorted(rows))


def main(argv=None):
    ap = argparse.ArgumentParser(description="Generate hosts with several interleaved templates.")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--hosts", type=int, default=4, help="hosts (default 4)")
    ap.add_argument("--templates", type=int, default=3, help="templates per host, at most 4 (default 3)")
    ap.add_argument("--pages", type=int, default=20, help="pages per template (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--replicate", type=int, metavar="N", help="N perturbed copies of the pages of MANIFEST...")
    ap.add_argument("manifests", nargs="*", metavar="MANIFEST", help="--replicate: manifests to copy")
    args = ap.parse_args(argv)
    if args.replicate is not None:
        if args.replicate < 1 or not args.manifests:
            ap.error("--replicate needs N >= 1 and at least one MANIFEST")
        try:
            replicate(args.out, args.replicate, args.manifests, args.seed)
        except OSError as e:
            print("synth_mixed.py: %s" % e, file=sys.stderr)
            return 1
        return 0
    if args.manifests:
        ap.error("MANIFEST goes with --replicate")
    if args.hosts < 1 or args.pages < 1 or not 1 <= args.templates <= len(ss.STYLES):
        ap.error("--hosts and --pages must be >= 1, --templates 1..%d" % len(ss.STYLES))
    gen = types.SimpleNamespace(seed=args.seed, pages=args.pages, template_style=None, links=None)
    langs = {code: ss.Lang(code) for code in ss.LANGS}
    manifest, truth = [], []
    try:
        shutil.rmtree(os.path.join(args.out, "pages"), ignore_errors=True)
        for h in range(args.hosts):
            host = "host%02d.example" % h
            os.makedirs(os.path.join(args.out, "pages", host))
            # Consecutive site indices: every template of a host has its own style.
            sites = [ss.make_site(h * len(ss.STYLES) + t, gen, langs) for t in range(args.templates)]
            for k in range(args.pages * args.templates):
                s = sites[k % args.templates]
                p = s.pages[k // args.templates]
                html = ss.render(s, p)[0]
                page = "pages/%s/p%04d.html" % (host, k)
                with open(os.path.join(args.out, page), "w", encoding="utf-8", newline="\n") as f:
                    f.write(html)
                manifest.append((host, page, "http://%s/p%04d.html" % (host, k), ""))
                truth.append((page, "%s/%s" % (host, ss.STYLES[s.style][0])))
        with open(os.path.join(args.out, "manifest.tsv"), "w", encoding="utf-8", newline="\n") as f:
            f.write("site\tpage\turl\tgold\n")
            f.writelines("\t".join(r) + "\n" for r in sorted(manifest))
        with open(os.path.join(args.out, "truth.tsv"), "w", encoding="utf-8", newline="\n") as f:
            f.write("page\tsite\n")
            f.writelines("\t".join(r) + "\n" for r in sorted(truth))
    except OSError as e:
        print("synth_mixed.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
