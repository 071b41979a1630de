#!/usr/bin/env python3
"""docs_examples.py — the shell examples of the docs print what they show.

Usage: tests/docs_examples.py SOURCE_DIR BUILD_DIR

In README.md, docs/predict.md and docs/keywords.md, a shell block's line
"$ COMMAND" followed by lines that are not "$ …" is an example with its
output: COMMAND is run with bash (stdout and stderr together) in a scratch
directory holding links to the source's datasets/ and to the build
(build/), with the build's programs first on PATH, and its output must be
those lines. A command shown without output is run too, in order, since a
later example may read what it wrote (article.txt), but its output is not
compared. A docs example that drifts from the program fails here.
Exit: 0 every example matches, 1 one does not (each named), 2 usage.
"""
import os
import re
import subprocess
import sys
import tempfile

FILES = ["README.md", "docs/predict.md", "docs/keywords.md"]
PROGRAMS = ["predict", "label", "features", "train", "keywords", "eval", "cluster"]


def examples(text):
    """(line number, command, expected output lines or None) per "$ " line
    of the ```sh blocks, in order."""
    out, in_sh, cur = [], False, None
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            if cur:
                out.append(cur)
                cur = None
            in_sh = line.strip() in ("```", "```sh", "```console") and not in_sh
            continue
        if not in_sh:
            continue
        if line.startswith("$ "):
            if cur:
                out.append(cur)
            cur = (n, line[2:], [])
        elif cur:
            cur[2].append(line)
    return [(n, cmd, lines or None) for n, cmd, lines in out]


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    src, build = (os.path.abspath(a) for a in sys.argv[1:])
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.join(build, p) for p in PROGRAMS] + [env.get("PATH", "")])
    env["TBK_MODEL"] = os.path.join(src, "models", "default.model")
    faults = checked = 0
    for rel in FILES:
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            text = f.read()
        with tempfile.TemporaryDirectory() as work:
            os.symlink(os.path.join(src, "datasets"), os.path.join(work, "datasets"))
            os.symlink(build, os.path.join(work, "build"))
            for n, cmd, want in examples(text):
                r = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
                if want is None:
                    continue
                checked += 1
                got = r.stdout.rstrip("\n").split("\n")
                want = [re.sub(r"\s+$", "", w) for w in want]
                got = [re.sub(r"\s+$", "", g) for g in got]
                if got != want:
                    faults += 1
                    print("docs/examples: %s:%d: $ %s" % (rel, n, cmd))
                    for w, g in zip(want + [""] * len(got), got + [""] * len(want)):
                        if w != g:
                            print("  shown:   %s\n  printed: %s" % (w, g))
                            break
    print("docs/examples: %d examples with output checked, %d faults" % (checked, faults))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
