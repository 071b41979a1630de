#!/usr/bin/env bash
# A Chinese, a Japanese and a Thai news site built like their English twin
# (datasets/synth_news_cjk.py: menu, "most read" ranking box, copyright
# footer, article paragraphs) are labelled like it: menu, box and footer
# template on at least 90% of the pages, the article a content block on
# every page; tbk-predict with the shipped model removes the menu and the
# footer and keeps every paragraph, in all four languages (the box it
# removes on the English pages; on the Chinese and Japanese ones it keeps
# some of its items on some pages: printed, not failed, EVALUATION.md).
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
MODEL=$TBK_SRC/models/default.model
python3 "$TBK_SRC/datasets/synth_news_cjk.py" --out "$T/news" --pages 20 --seed 3 --langs en,zh,ja,th || die "synth_news_cjk.py failed"
"$LABEL" -q -o "$T/l.jsonl" "$T/news/manifest.tsv" 2>"$T/err" || { cat "$T/err" >&2; die "tbk-label failed"; }
"$PRED" -m "$MODEL" -f jsonl -o "$T/p.jsonl" "$T/news/manifest.tsv" 2>"$T/err" || { cat "$T/err" >&2; die "tbk-predict failed"; }
python3 "$TBK_SRC/datasets/synth_news_cjk.py" --out "$T/news" --score "$T/l.jsonl" "$T/p.jsonl" >"$T/score.jsonl" ||
  die "scoring failed"
python3 - "$T/score.jsonl" <<'PY' || die "the CJK twins are not handled like the English site"
import json, sys
got = {s["lang"]: s for s in map(json.loads, open(sys.argv[1], encoding="utf-8"))}
bad = []
for lang, s in sorted(got.items()):
    print(lang, s)
    n = s["pages"]
    for part in ("menu", "ranking", "footer"):
        if s[part] < 0.9 * n:
            bad.append("%s: %s template on %d of %d pages" % (lang, part, s[part], n))
    if s["article"] != n:
        bad.append("%s: article content on %d of %d pages" % (lang, s["article"], n))
    for part in ("menu_kept", "footer_kept"):
        if s[part]:
            bad.append("%s: tbk-predict keeps the %s on %d pages" % (lang, part[:-5], s[part]))
    if s["paragraphs_kept"] != s["paragraphs"]:
        bad.append("%s: tbk-predict keeps %d of %d paragraphs" % (lang, s["paragraphs_kept"], s["paragraphs"]))
assert set(got) == {"en", "zh", "ja", "th"}, got.keys()
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
echo ok
