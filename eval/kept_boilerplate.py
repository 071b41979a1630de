#!/usr/bin/env python3
"""What the content stage keeps that the gold calls boilerplate, by line tag.

    eval/kept_boilerplate.py GOLD_LABELS.jsonl PRED_DIR [EXAMPLES]

GOLD_LABELS.jsonl is `tbk-label --gold` output; PRED_DIR holds the
`tbk-predict -f jsonl --output-dir` files of the same manifest. A unit
counts when the prediction keeps it (content: true) and its gold label is
boilerplate; it weighs its words (the label line's "words"). Prints the
share of those words per line tag, and a few example texts of each of the
five largest tags (EXAMPLES, default 5).
"""
import collections
import glob
import json
import os
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip())
    labels, pred = sys.argv[1], sys.argv[2]
    nex = int(sys.argv[3]) if len(sys.argv) == 4 else 5
    gold = {}
    with open(labels, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            gold[(r["page"], r["path"])] = (r["label"], r["words"])
    words = collections.Counter()
    examples = collections.defaultdict(list)
    for name in glob.glob(os.path.join(pred, "**", "*.jsonl"), recursive=True):
        with open(name, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                label, w = gold.get((r["page"], r["path"]), (None, 0))
                if r["content"] and label == "boilerplate":
                    words[r["tag"]] += w
                    if len(examples[r["tag"]]) < nex:
                        examples[r["tag"]].append(r["text"][:90])
    total = sum(words.values())
    print("kept boilerplate: %d words" % total)
    for tag, w in words.most_common(10):
        print("%-10s %6d words  %5.1f %%" % (tag, w, 100.0 * w / max(total, 1)))
    for tag, _ in words.most_common(5):
        print("== " + tag)
        for t in examples[tag]:
            print("   " + t)


if __name__ == "__main__":
    main()
