#!/usr/bin/env python3
"""Throughput of the Python module (python/tbk) with 1 and 2 threads sharing
one Model: pages/s of model.text() over the same pages held in memory.
Prints one markdown row per thread count (BENCHMARKS.md).

Usage: PYTHONPATH=PREFIX/lib/python3.X/site-packages \\
       bench/python_threads.py MANIFEST [--limit N] [--repeat R]
"""
import argparse
import csv
import os
import threading
import time

import tbk


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("manifest")
    ap.add_argument("--limit", type=int, default=600)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    base = os.path.dirname(os.path.abspath(a.manifest))
    with open(a.manifest, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))[: a.limit]
    pages = [open(os.path.join(base, r["page"]), "rb").read() for r in rows]
    model = tbk.Model()
    model.text(pages[0])  # load lazily-built tables before timing
    mb = sum(len(p) for p in pages) / 1e6
    print("| threads | pages | best s | pages/s | MB/s | speed-up | CPU s / wall s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    one = None
    for n in (1, 2):
        best, util = float("inf"), 0.0
        for _ in range(a.repeat):
            c0 = time.process_time()
            parts = [pages[i::n] for i in range(n)]
            ts = [threading.Thread(target=lambda ps: [model.text(p) for p in ps], args=(ps,)) for ps in parts]
            t0 = time.perf_counter()
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            wall = time.perf_counter() - t0
            if wall < best:
                best, util = wall, (time.process_time() - c0) / wall
        one = one or best
        print(f"| {n} | {len(pages)} | {best:.2f} | {len(pages) / best:.0f} | {mb / best:.1f} | {one / best:.2f} | {util:.2f} |")


if __name__ == "__main__":
    main()
