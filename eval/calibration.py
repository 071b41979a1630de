#!/usr/bin/env python3
"""calibration.py — is the content stage's p_content calibrated, per kind of page?

Usage: eval/calibration.py [options] MANIFEST

MANIFEST is a gold data set's manifest (site, page, url, gold). The script
  1. labels every text unit of the pages with gold from the gold text
     (`tbk-label --gold -q`: content | boilerplate, words, ...), or reads
     --labels;
  2. predicts every unit (`tbk-predict -m MODEL -f jsonl`: p_content and the
     final decision `content`), or reads --predictions;
  3. joins the two on (page, path) and tags each page with its kind
     (eval/page_kind.py, from the page's HTML; or --kinds, its TSV);
  4. prints Markdown: per kind of page and for all pages, a reliability table
     (p_content bins; units, words, observed content share by units and by
     words, mean predicted p by units and word-weighted, share kept by the
     final decision) with the expected calibration error (ECE, word-weighted:
     sum over bins of the bin's word share times |observed - predicted|, both
     word-weighted; also by units), and the same table for the units of
     **long prose** only; then how often long prose with p_content < 0.01 is
     really boilerplate;
  5. with --out PREFIX also writes PREFIX.md (the same Markdown), PREFIX.svg
     (reliability plot: word-weighted mean predicted vs observed content share
     per bin, one line per kind, the diagonal) and PREFIX.tsv (every
     kind x subset x bin row, machine-readable); PREFIX.prose.svg is the
     plot of the long-prose units.

Long prose (default rule "sentences"): a unit of >= 25 words (--min-words)
with >= 2 sentence ends (. ! ? … 。 ！ ？ followed by a space, a closing quote
or bracket, or the end) in its text; the text of the JSONL records is a
snippet of at most 200 characters, so a snippet cut short (chars > its length)
counts its cut as a sentence end. --prose words: >= 25 words only.

Options:
  -m, --model FILE      the model for tbk-predict (unless --predictions)
  --labels FILE         tbk-label --gold JSONL of MANIFEST (default: run it)
  --predictions FILE    tbk-predict -f jsonl of MANIFEST (default: run it)
  --save-predictions F  keep the predictions tbk-predict wrote in F
  --kinds FILE          page_kind.py TSV (dataset, site, page, kind, why);
                        pages not in it are tagged from their HTML
  --build DIR           where the programs are: DIR/label/tbk-label,
                        DIR/predict/tbk-predict (default $TBK_BUILD, else
                        <repo>/build)
  --name NAME           the data set's name in titles (default: the
                        manifest's directory name)
  --out PREFIX          also write PREFIX.md, PREFIX.svg (all units),
                        PREFIX.prose.svg (long prose), PREFIX.tsv
  --prose RULE          sentences (default) or words
  --min-words N         words of long prose (default 25)
  --worst N             list the N pages (ids only, no text) with the most
                        words of gold content in long-prose units under
                        p_content 0.01
Python 3 standard library only. Exit status: 0, 2 on bad usage or input.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import page_kind  # noqa: E402 (eval/page_kind.py, beside this script)
from robustness import page_id  # noqa: E402

EDGES = [0.0, 0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 0.99, 1.0]
KINDS = page_kind.KINDS
KIND_LABEL = page_kind.KIND_LABEL
SENT_END = re.compile(r"[.!?\u2026\u3002\uff01\uff1f]+(?=[\s\"'\u201d\u2019)\]]|$)")
COLORS = {"article": "#1f77b4", "encyclopedia": "#8c564b", "documentation": "#9467bd", "forum": "#d62728",
          "listing": "#2ca02c", "other": "#ff7f0e", "all": "#000000"}


def die(msg):
    sys.stderr.write("calibration.py: %s\n" % msg)
    sys.exit(2)


def bin_of(p):
    for i in range(len(EDGES) - 2):
        if p < EDGES[i + 1]:
            return i
    return len(EDGES) - 2


def bin_label(i):
    lo, hi = EDGES[i], EDGES[i + 1]
    close = "]" if i == len(EDGES) - 2 else ")"
    return "[%s, %s%s" % (("%g" % lo).lstrip("0") or "0", ("%g" % hi).lstrip("0") if hi < 1 else "1", close)


def sentences(text, chars):
    n = len(SENT_END.findall(text.strip()))
    if chars > len(text) and not SENT_END.search(text.strip()[-1:] or "x"):
        n += 1  # the snippet was cut: its cut ends a sentence at the least
    return n


def is_prose(words, text, chars, rule, min_words):
    if words < min_words:
        return False
    return rule == "words" or sentences(text, chars) >= 2


def read_jsonl(path, what):
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except ValueError:
                die("%s: line %d of %s is not JSON" % (what, n, path))


def run_tool(cmd, out_path):
    """Run a tbk program; exit status 3 (some pages warned) is fine."""
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL if out_path else None, stderr=subprocess.PIPE)
    if r.returncode not in (0, 3):
        die("%s exited %d: %s" % (" ".join(cmd), r.returncode, r.stderr.decode("utf-8", "replace")[-2000:]))


def manifest_pages(path):
    base = os.path.dirname(os.path.abspath(path))
    pages = {}
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header[:2] != ["site", "page"]:
            die("%s: bad manifest header (site, page, ...)" % path)
        for line in f:
            r = line.rstrip("\n").split("\t")
            if len(r) >= 2:
                pages[r[1]] = (r[0], os.path.join(base, r[1]))
    return pages


def page_kinds(manifest, kinds_file, dataset, needed):
    kinds = {}
    if kinds_file:
        with open(kinds_file, encoding="utf-8") as f:
            f.readline()
            for line in f:
                r = line.rstrip("\n").split("\t")
                if len(r) >= 4 and r[0] == dataset:
                    kinds[r[2]] = r[3]
    pages = manifest_pages(manifest)
    for page in needed:
        if page in kinds:
            continue
        path = pages.get(page, (None, None))[1]
        try:
            with open(path, "rb") as f:
                kinds[page] = page_kind.classify(page_kind.decode(f.read()))[0]
        except (OSError, TypeError):
            kinds[page] = "other"
    return kinds


class Bins:
    """Per bin: units, content units, words, content words, sum p, sum p*words, kept units, kept words."""

    def __init__(self):
        self.b = [[0, 0, 0, 0, 0.0, 0.0, 0, 0] for _ in range(len(EDGES) - 1)]

    def add(self, p, content, words, kept):
        r = self.b[bin_of(p)]
        r[0] += 1
        r[1] += content
        r[2] += words
        r[3] += words if content else 0
        r[4] += p
        r[5] += p * words
        r[6] += kept
        r[7] += words if kept else 0

    def units(self):
        return sum(r[0] for r in self.b)

    def words(self):
        return sum(r[2] for r in self.b)

    def ece(self, by_words=True):
        tot = self.words() if by_words else self.units()
        if not tot:
            return None
        e = 0.0
        for r in self.b:
            n = r[2] if by_words else r[0]
            if not n:
                continue
            obs = (r[3] if by_words else r[1]) / n
            pred = (r[5] if by_words else r[4]) / n
            e += n / tot * abs(obs - pred)
        return e

    def points(self):
        """(word-weighted mean p, observed content share by words, words) of each bin with words."""
        return [(r[5] / r[2], r[3] / r[2], r[2]) for r in self.b if r[2]]


def fmt_share(num, den):
    return "%.3f" % (num / den) if den else "-"


def table(title, bins, out):
    ece_w, ece_u = bins.ece(True), bins.ece(False)
    out.append("%s: %d units, %d words; ECE %s (words), %s (units)\n" % (
        title, bins.units(), bins.words(), "-" if ece_w is None else "%.3f" % ece_w,
        "-" if ece_u is None else "%.3f" % ece_u))
    out.append("| p_content | units | words | content (units) | content (words) | mean p | mean p (words) "
               "| kept (words) |")
    out.append("|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(bins.b):
        if not r[0]:
            continue
        out.append("| %s | %d | %d | %s | %s | %.3f | %s | %s |" % (
            bin_label(i), r[0], r[2], fmt_share(r[1], r[0]), fmt_share(r[3], r[2]), r[4] / r[0],
            "%.3f" % (r[5] / r[2]) if r[2] else "-", fmt_share(r[7], r[2])))
    out.append("")


def svg_plot(series, title):
    """series: [(name, colour, [(x, y, words)], width)]. Hand-written SVG."""
    W, H, L, T, S = 700, 500, 60, 40, 400  # width, height, left, top, plot side
    X = lambda v: L + v * S  # noqa: E731
    Y = lambda v: T + (1 - v) * S  # noqa: E731
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
         'font-family="sans-serif" font-size="12">' % (W, H, W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="22" font-size="14">%s</text>' % (L, esc(title))]
    for t in range(0, 11):
        v = t / 10
        o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>' % (X(v), Y(0), X(v), Y(1)))
        o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>' % (X(0), Y(v), X(1), Y(v)))
        if t % 2 == 0:
            o.append('<text x="%.1f" y="%.1f" text-anchor="middle">%.1f</text>' % (X(v), Y(0) + 16, v))
            o.append('<text x="%.1f" y="%.1f" text-anchor="end">%.1f</text>' % (X(0) - 6, Y(v) + 4, v))
    o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#555"/>' % (L, T, S, S))
    o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="4 3"/>' % (
        X(0), Y(0), X(1), Y(1)))
    o.append('<text x="%.1f" y="%d" text-anchor="middle">predicted p_content (bin mean, word-weighted)</text>' % (
        X(0.5), T + S + 36))
    o.append('<text transform="translate(16 %.1f) rotate(-90)" text-anchor="middle">observed content share '
             '(words)</text>' % Y(0.5))
    for name, colour, pts, width in series:
        if not pts:
            continue
        o.append('<polyline fill="none" stroke="%s" stroke-width="%s" points="%s"/>' % (
            colour, width, " ".join("%.1f,%.1f" % (X(x), Y(y)) for x, y, _ in pts)))
        n = sum(p[2] for p in pts)
        for x, y, w in pts:
            r = 2 + 6 * (w / n) ** 0.5
            o.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" fill-opacity="0.5"/>' % (X(x), Y(y), r, colour))
    ly = T + 10
    for name, colour, pts, width in series:
        if not pts:
            continue
        o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%s"/>' % (
            L + S + 10, ly, L + S + 30, ly, colour, width))
        o.append('<text x="%d" y="%d">%s</text>' % (L + S + 34, ly + 4, esc(name)))
        ly += 18
    o.append('<text x="%d" y="%d" fill="#555">dot area: the bin\'s share</text>' % (L + S + 10, ly + 10))
    o.append('<text x="%d" y="%d" fill="#555">of the kind\'s words</text>' % (L + S + 10, ly + 24))
    o.append("</svg>")
    return "\n".join(o) + "\n"


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main(argv):
    opts = {"--model": None, "--labels": None, "--predictions": None, "--save-predictions": None, "--kinds": None,
            "--build": None, "--name": None, "--out": None, "--prose": "sentences", "--min-words": "25",
            "--worst": "0"}
    alias = {"-m": "--model"}
    args = []
    i = 0
    while i < len(argv):
        a = alias.get(argv[i], argv[i])
        if a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        if a in opts:
            if i + 1 >= len(argv):
                die("%s needs a value" % a)
            opts[a] = argv[i + 1]
            i += 2
            continue
        if a.startswith("-") and a != "-":
            die("unknown option %s (--help)" % a)
        args.append(a)
        i += 1
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    if opts["--prose"] not in ("sentences", "words"):
        die("--prose is sentences or words")
    try:
        min_words = int(opts["--min-words"])
        worst = int(opts["--worst"])
    except ValueError:
        die("--min-words and --worst take a number")
    manifest = args[0]
    if not os.path.isfile(manifest):
        die("no manifest %s" % manifest)
    dataset = opts["--name"] or os.path.basename(os.path.dirname(os.path.abspath(manifest)))
    build = opts["--build"] or os.environ.get("TBK_BUILD") or os.path.join(os.path.dirname(HERE), "build")
    tmp = tempfile.mkdtemp(prefix="calibration.")
    try:
        labels = opts["--labels"]
        if not labels:
            labels = os.path.join(tmp, "labels.jsonl")
            run_tool([os.path.join(build, "label", "tbk-label"), "--gold", "-q", "-o", labels, manifest], labels)
        preds = opts["--predictions"]
        if not preds:
            if not opts["--model"]:
                die("give a model (-m) or --predictions")
            preds = opts["--save-predictions"] or os.path.join(tmp, "pred.jsonl")
            run_tool([os.path.join(build, "predict", "tbk-predict"), "-m", opts["--model"], "-f", "jsonl",
                      "-o", preds, manifest], preds)
        gold = {}
        site_of = {}
        for r in read_jsonl(labels, "labels"):
            gold[(r["page"], r["path"])] = (r["label"] == "content", int(r.get("words", 0)))
            site_of[r["page"]] = r.get("site", "")
        joined = []
        unmatched_pred = 0
        for r in read_jsonl(preds, "predictions"):
            g = gold.pop((r["page"], r["path"]), None)
            if g is None:
                if r["page"] in site_of:
                    unmatched_pred += 1
                continue
            joined.append((r["page"], float(r["p_content"]), g[0], g[1], bool(r.get("content")),
                           r.get("text", ""), int(r.get("chars", len(r.get("text", ""))))))
        unmatched_gold = len(gold)
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)
    if not joined:
        die("no unit of %s is both labelled and predicted" % manifest)
    kinds = page_kinds(manifest, opts["--kinds"], dataset, {j[0] for j in joined})
    pages_of = collections.defaultdict(set)
    allb = collections.defaultdict(Bins)   # kind -> all units
    prose = collections.defaultdict(Bins)  # kind -> long prose
    lost = collections.Counter()           # page -> gold content words of long prose under 0.01
    for page, p, content, words, kept, text, chars in joined:
        k = kinds.get(page, "other")
        pages_of[k].add(page)
        pages_of["all"].add(page)
        lp = is_prose(words, text, chars, opts["--prose"], min_words)
        for kk in (k, "all"):
            allb[kk].add(p, content, words, kept)
            if lp:
                prose[kk].add(p, content, words, kept)
        if lp and p < 0.01 and content:
            lost[page] += words
    order = [k for k in KINDS if k in allb] + ["all"]
    rule = ("%d+ words and 2+ sentences" % min_words if opts["--prose"] == "sentences"
            else "%d+ words" % min_words)
    out = ["### Calibration of p_content: %s (%d pages, %d units)\n" % (dataset, len(pages_of["all"]),
                                                                        allb["all"].units())]
    if unmatched_gold or unmatched_pred:
        out.append("Not joined: %d labelled units without a prediction, %d predicted units without a label.\n"
                   % (unmatched_gold, unmatched_pred))
    out.append("content = the gold label (tbk-label --gold); mean p = mean p_content; kept = the final "
               "decision keeps the unit. Long prose: %s.\n" % rule)
    out.append("#### Summary by kind of page\n")
    out.append("| kind | pages | units | ECE (words) | ECE (units) | long prose units | long prose ECE (words) "
               "| long prose p < 0.01: units / words | of which boilerplate (units / words) | kept by the "
               "final decision (words) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for k in order:
        a, pr = allb[k], prose[k]
        r0 = pr.b[0]
        out.append("| %s | %d | %d | %s | %s | %d | %s | %d / %d | %s / %s | %s |" % (
            "all" if k == "all" else KIND_LABEL[k], len(pages_of[k]), a.units(),
            "%.3f" % a.ece(True) if a.ece(True) is not None else "-",
            "%.3f" % a.ece(False) if a.ece(False) is not None else "-",
            pr.units(), "%.3f" % pr.ece(True) if pr.ece(True) is not None else "-",
            r0[0], r0[2], fmt_share(r0[0] - r0[1], r0[0]), fmt_share(r0[2] - r0[3], r0[2]),
            fmt_share(r0[7], r0[2])))
    out.append("")
    if lost:
        top = lost.most_common(3)
        out.append("Gold content in long prose under p_content 0.01: %d words on %d page%s; %s with the most "
                   "hold%s %.1f %% of them.\n" % (
                       sum(lost.values()), len(lost), "" if len(lost) == 1 else "s",
                       "the page" if len(top) == 1 else "the %d pages" % len(top), "s" if len(top) == 1 else "",
                       100.0 * sum(w for _, w in top) / sum(lost.values())))
    for k in order:
        name = "all pages" if k == "all" else KIND_LABEL[k]
        out.append("#### %s (%d pages)\n" % (name, len(pages_of[k])))
        table("All units", allb[k], out)
        table("Long prose (%s)" % rule, prose[k], out)
    if worst:
        out.append("#### Pages with the most gold-content words in long prose under p_content 0.01\n")
        out.append("| page | kind | words |")
        out.append("|---|---|---|")
        for page, w in lost.most_common(worst):
            out.append("| %s | %s | %d |" % (page_id(dataset, page), KIND_LABEL[kinds.get(page, "other")], w))
        out.append("")
    md = "\n".join(out) + "\n"
    sys.stdout.write(md)
    if opts["--out"]:
        prefix = opts["--out"]
        d = os.path.dirname(prefix)
        if d:
            os.makedirs(d, exist_ok=True)
        with open(prefix + ".md", "w", encoding="utf-8") as f:
            f.write(md)
        with open(prefix + ".tsv", "w", encoding="utf-8") as f:
            f.write("dataset\tkind\tsubset\tbin\tunits\tcontent_units\twords\tcontent_words\tmean_p\t"
                    "mean_p_words\tkept_words\n")
            for k in order:
                for sub, bb in (("all", allb[k]), ("long_prose", prose[k])):
                    for i, r in enumerate(bb.b):
                        if r[0]:
                            f.write("%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.4f\t%s\t%d\n" % (
                                dataset, k, sub, bin_label(i), r[0], r[1], r[2], r[3], r[4] / r[0],
                                "%.4f" % (r[5] / r[2]) if r[2] else "", r[7]))
        series = []
        for k in order:
            label = "all (%d pages)" % len(pages_of[k]) if k == "all" else "%s (%d)" % (KIND_LABEL[k],
                                                                                      len(pages_of[k]))
            series.append((label, COLORS[k], allb[k].points(), 3 if k == "all" else 1.5))
        with open(prefix + ".svg", "w", encoding="utf-8") as f:
            f.write(svg_plot(series, "Reliability of p_content: %s, all units" % dataset))
        series = [(s[0], s[1], prose[k].points(), s[3]) for s, k in zip(series, order)]
        with open(prefix + ".prose.svg", "w", encoding="utf-8") as f:
            f.write(svg_plot(series, "Reliability of p_content: %s, long prose" % dataset))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
