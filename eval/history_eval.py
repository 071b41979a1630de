#!/usr/bin/env python3
"""Site history against the per-page decision, on the gold sets, leave one
set out (issue #35).

    eval/history_eval.py --models DIR --units DIR --data DIR --work DIR
                         [--sets dragnet,msv_big9_chaos,scrapinghub_aeb]
                         [--orders 2] [--l2 1e-3]

DIR/models/no-SET.two.model: run_eval.sh's leave-one-set-out two-stage
models; --units DIR/SET.labels.jsonl: the units' gold labels (tbk-label
--gold, as run_eval.sh writes them). For every set T, the training rows of
the combiners come from T's own held-out model (no-T), so they hold the
logits a model gives on pages it was not trained on. For every set S:
the combiners are trained on the other sets' rows and attached to no-S's
model; S's pages are then predicted site by site with a fresh store, in
the manifest's order and in --orders - 1 shuffled orders (seeded), and
each page's token F1 (tbk-eval gold --per-page) is compared with the same
model's without history, by the number of the site's pages seen before it
(0, 1, 2-4, 5-9, 10-49, 50+). Prints a Markdown table; writes the rows,
models and per-page files under --work.
"""
import argparse
import csv
import os
import random
import subprocess
import sys

BINS = [(0, 0, "0"), (1, 1, "1"), (2, 4, "2-4"), (5, 9, "5-9"), (10, 49, "10-49"), (50, 10**9, "50+")]


def run(cmd, ok=(0, 3)):
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode not in ok:
        sys.exit("history_eval.py: %s failed (%d): %s" % (" ".join(cmd[:3]), r.returncode, r.stderr[-500:]))


def fresh(path):
    for ext in ("", "-wal", "-shm"):
        if os.path.exists(path + ext):
            os.remove(path + ext)


def read_manifest(path):
    with open(path, encoding="utf-8") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    return rows[0], rows[1:]


def write_manifest(path, head, rows):
    """A manifest in another order, beside the set's own (its paths are
    relative to it)."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(head)
        w.writerows(rows)


def seen_before(rows, head):
    """page -> the site's pages before it, in this order."""
    si, pi = head.index("site"), head.index("page")
    count, seen = {}, {}
    for r in rows:
        seen[r[pi]] = count.get(r[si], 0)
        count[r[si]] = seen[r[pi]] + 1
    return seen


def per_page(path):
    with open(path, encoding="utf-8") as f:
        return {r["page"]: float(r["f1"]) for r in csv.DictReader(f, delimiter="\t")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", required=True)
    ap.add_argument("--units", required=True)
    ap.add_argument("--labels", required=True, help="DIR/SET.labels.jsonl: tbk-label's block labels of each set")
    ap.add_argument("--data", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--build", default=os.environ.get("TBK_BUILD", "build"))
    ap.add_argument("--sets", default="dragnet,msv_big9_chaos,scrapinghub_aeb")
    ap.add_argument("--orders", type=int, default=2)
    ap.add_argument("--l2", default="1e-3")
    ap.add_argument("--free", default=None, help="train_history.py's --free")
    a = ap.parse_args()
    predict = os.path.join(a.build, "predict", "tbk-predict")
    tbk_eval = os.path.join(a.build, "eval", "tbk-eval")
    here = os.path.dirname(os.path.abspath(__file__))
    sets = a.sets.split(",")
    os.makedirs(a.work, exist_ok=True)
    w = a.work

    # 1. Training rows of every set, from its own held-out model.
    for t in sets:
        model = os.path.join(a.models, "no-%s.two.model" % t)
        manifest = os.path.join(a.data, t, "manifest.tsv")
        for stage, extra in (("units", []), ("blocks", ["--stage", "template"])):
            rows = os.path.join(w, "%s.%s.rows" % (t, stage))
            if os.path.exists(rows):
                continue
            db = os.path.join(w, "rows.db")
            fresh(db)
            run([predict, "-m", model, *extra, "--history", db, "--history-rows", rows + ".tmp",
                 "-o", os.path.join(w, "rows.out"), manifest])
            os.replace(rows + ".tmp", rows)
            fresh(db)

    out = []
    out.append("| set | order | pages seen before | pages | F1 per page | F1 with history | better / worse |")
    out.append("|---|---|---|---:|---:|---:|---|")
    for s in sets:
        # 2. Combiners from the other sets, on no-S's model.
        pairs = []
        for t in sets:
            if t != s:
                gold = os.path.join(a.units, "%s.labels.jsonl" % t)
                site = os.path.join(a.labels, "%s.labels.jsonl" % t)
                pairs += ["%s:%s" % (os.path.join(w, "%s.units.rows" % t), gold),
                          "%s:%s" % (os.path.join(w, "%s.blocks.rows" % t), site if os.path.exists(site) else gold)]
        hmodel = os.path.join(w, "no-%s.history.model" % s)
        run([sys.executable, os.path.join(here, "..", "models", "train_history.py"), "--l2", a.l2,
             *(["--free", a.free] if a.free else []),
             "-m", os.path.join(a.models, "no-%s.two.model" % s), "-o", hmodel, *pairs], ok=(0,))
        manifest = os.path.join(a.data, s, "manifest.tsv")
        head, rows = read_manifest(manifest)
        base_dir = os.path.join(w, "pred", s + ".none")
        base_pp = os.path.join(w, "%s.none.tsv" % s)
        if not os.path.exists(base_pp):
            run([predict, "-m", hmodel, "--output-dir", base_dir, manifest])
            run([tbk_eval, "gold", "--per-page", base_pp, manifest, base_dir])
        base = per_page(base_pp)
        si, pi = head.index("site"), head.index("page")
        for order in range(a.orders):
            # tbk-predict takes a manifest's pages by site and page name;
            # another order is one process per page, in that order
            ordered = sorted(rows, key=lambda r: (r[si], r[pi]))
            if order:
                random.Random(order).shuffle(ordered)
            db = os.path.join(w, "%s.order%d.db" % (s, order))
            fresh(db)
            pred = os.path.join(w, "pred", "%s.order%d" % (s, order))
            if not order:
                run([predict, "-m", hmodel, "--history", db, "--output-dir", pred, manifest])
            else:
                one = os.path.join(a.data, s, "history-one.tsv")
                for r in ordered:
                    write_manifest(one, head, [r])
                    run([predict, "-m", hmodel, "--history", db, "--output-dir", pred, one])
                os.remove(one)
            pp = os.path.join(w, "%s.order%d.tsv.pp" % (s, order))
            run([tbk_eval, "gold", "--per-page", pp, manifest, pred])
            hist = per_page(pp)
            seen = seen_before(ordered, head)
            for lo, hi, name in BINS:
                pages = [r[pi] for r in ordered if lo <= seen[r[pi]] <= hi and r[pi] in base and r[pi] in hist]
                if not pages:
                    continue
                b = sum(base[p] for p in pages) / len(pages)
                h = sum(hist[p] for p in pages) / len(pages)
                better = sum(hist[p] > base[p] + 1e-9 for p in pages)
                worse = sum(hist[p] < base[p] - 1e-9 for p in pages)
                out.append("| %s | %s | %s | %d | %.4f | %.4f | %d / %d |" % (
                    s, "by name" if not order else "shuffled %d" % order, name, len(pages), b, h, better, worse))
            allp = [p for p in base if p in hist]
            out.append("| %s | %s | all | %d | %.4f | %.4f | |" % (
                s, "by name" if not order else "shuffled %d" % order, len(allp),
                sum(base[p] for p in allp) / len(allp), sum(hist[p] for p in allp) / len(allp)))
    print("\n".join(out))


if __name__ == "__main__":
    main()
