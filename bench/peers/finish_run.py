#!/usr/bin/env python3
"""Finish one tool run of run_peers.sh: write OUTDIR/timing.json.

Merges the harness's JSON line (OUTDIR/harness.json: in-process seconds,
pages, bytes, failures) with /usr/bin/time -v (OUTDIR/time-v.log: whole-process
wall clock, CPU, peak RSS). Pages the harness never wrote (crash, timeout)
get an empty .txt and count as failures, so every listed page has an output.
Prints the timing record as one JSON line.
"""
import argparse
import json
import os
import sys


def parse_time_v(path):
    """Fields of GNU time -v output that we report."""
    fields = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.strip().rpartition(": ")
                fields[key] = value
    except OSError:
        return {}
    res = {}
    wall = fields.get("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    if wall:
        secs = 0.0
        for part in wall.split(":"):
            secs = secs * 60 + float(part)
        res["wall_seconds"] = round(secs, 3)
    for key, name, conv in (("User time (seconds)", "user_seconds", float),
                            ("System time (seconds)", "sys_seconds", float),
                            ("Maximum resident set size (kbytes)", "max_rss_kb", int)):
        if key in fields:
            res[name] = conv(fields[key])
    return res


def read_harness(path):
    """Last JSON object line the harness printed, or {}."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [l for l in f if l.lstrip().startswith("{")]
        return json.loads(lines[-1]) if lines else {}
    except (OSError, ValueError):
        return {}


def main():
    ap = argparse.ArgumentParser()
    for a in ("--tool", "--version", "--manifest", "--list", "--outdir"):
        ap.add_argument(a, required=True)
    ap.add_argument("--exit-status", type=int, required=True)
    ap.add_argument("--timeout", type=float, required=True)
    args = ap.parse_args()

    with open(args.list, encoding="utf-8") as f:
        entries = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    missing = 0
    nbytes = 0
    for src, rel in entries:
        try:
            nbytes += os.path.getsize(src)
        except OSError:
            pass  # unreadable page: the harness counted it as a failure
        out = os.path.join(args.outdir, rel)
        if not os.path.exists(out):
            os.makedirs(os.path.dirname(out), exist_ok=True)
            open(out, "w").close()
            missing += 1

    h = read_harness(os.path.join(args.outdir, "harness.json"))
    t = parse_time_v(os.path.join(args.outdir, "time-v.log"))
    rec = {
        "tool": args.tool,
        "version": args.version,
        "manifest": os.path.abspath(args.manifest),
        "pages": len(entries),
        "bytes": nbytes,
        "pages_run": h.get("pages", 0),
        "failures": h.get("failures", 0) + missing,
        "failures_in_harness": h.get("failures", 0),
        "pages_not_written": missing,
        "empty_outputs": h.get("empty", 0) + missing,
        "extract_seconds": h.get("extract_seconds"),
        "exit_status": args.exit_status,
        "timed_out": args.exit_status == 124,
        "timeout_seconds": args.timeout,
    }
    rec.update(t)
    ex = rec.get("extract_seconds")
    if ex:
        rec["pages_per_second_extract"] = round(rec["pages_run"] / ex, 2)
        rec["mb_per_second_extract"] = round(h.get("bytes", 0) / 1e6 / ex, 3)
    if rec.get("wall_seconds"):
        rec["pages_per_second_wall"] = round(rec["pages"] / rec["wall_seconds"], 2)
    with open(os.path.join(args.outdir, "timing.json"), "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=2)
        f.write("\n")
    print(json.dumps(rec))
    if args.exit_status != 0:
        sys.stderr.write("finish_run.py: %s exited with status %d (see %s)\n" % (
            args.tool, args.exit_status, os.path.join(args.outdir, "stderr.log")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
