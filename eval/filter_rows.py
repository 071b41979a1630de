#!/usr/bin/env python3
"""Copy a feature set's rows without those of the sites listed in a file.

    eval/filter_rows.py IN_PREFIX OUT_PREFIX SITES_FILE

IN_PREFIX.svm, .words and .meta (tbk-features output: aligned line by line,
meta with one header line first) are copied to OUT_PREFIX.* without the
rows whose meta "site" is a line of SITES_FILE, so that a model evaluated
on a data set never trains on any of its sites (run_eval.sh,
content_experiment.sh).
"""
import json
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip())
    src, dst, sites_file = sys.argv[1:4]
    with open(sites_file, encoding="utf-8") as f:
        drop = set(line.rstrip("\n") for line in f if line.strip())
    kept = dropped = 0
    with open(src + ".svm", encoding="utf-8") as fs, open(src + ".words", encoding="utf-8") as fw, \
         open(src + ".meta", encoding="utf-8") as fm, open(dst + ".svm", "w", encoding="utf-8") as os_, \
         open(dst + ".words", "w", encoding="utf-8") as ow, open(dst + ".meta", "w", encoding="utf-8") as om:
        om.write(fm.readline())
        for s, w, m in zip(fs, fw, fm):
            if json.loads(m)["site"] in drop:
                dropped += 1
                continue
            os_.write(s)
            ow.write(w)
            om.write(m)
            kept += 1
    print("%s: kept %d rows, dropped %d" % (dst, kept, dropped), file=sys.stderr)


if __name__ == "__main__":
    main()
