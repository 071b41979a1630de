#!/usr/bin/env python3
"""Generate a news site in English, Chinese and Japanese (and Thai) with the same
template: a menu, a "most read" ranking box, a copyright footer around each
page's unique article (headline and paragraphs). The three sites are twins:
same markup, same number of items and paragraphs, only the language
differs, so a tool that handles every script alike labels them alike.

All text is produced here from small word lists, nothing is copied from the
web; output is deterministic for a given --seed.

Layout of --out DIR:
  DIR/manifest.tsv              site page url gold
  DIR/pages/<site>/<n>.html     the pages (UTF-8)
  DIR/gold/<site>/<n>.txt       the article: headline, then one paragraph a line
  DIR/truth.jsonl               per page: site, page, menu, ranking, footer, paragraphs

Usage: synth_news_cjk.py --out DIR [--pages N] [--seed S] [--langs en,zh,ja,th]
       synth_news_cjk.py --out DIR --score LABELS UNITS   (one JSON line per language:
         pages where tbk-label's LABELS make the menu, box, footer template and the
         article content; units tbk-predict -f jsonl's UNITS keep)
"""
import argparse
import collections
import json
import os
import random

LANG = {
    "en": {
        "site": "valley-news.example",
        "menu": ["Home", "National", "World", "Business", "Sports", "Entertainment", "Technology",
                 "Cars", "Property", "Education", "Travel", "About us"],
        "ranking": "Most read",
        "footer": "Copyright 2024 Valley News Group. All rights reserved. Do not reproduce without permission.",
        "words": ("city council plan road school river market bridge station museum library harbor park "
                  "festival budget report mayor teacher student worker family visitor company project "
                  "weather train bus farm hospital").split(),
        "verbs": "opened announced discussed approved reviewed delayed welcomed expanded visited".split(),
        "sep": " ", "end": ".", "comma": ",",
    },
    "zh": {
        "site": "xinwen.example",
        "menu": ["首页", "国内", "国际", "财经", "体育", "娱乐", "科技", "汽车", "房产", "教育", "旅游", "关于我们"],
        "ranking": "热门排行",
        "footer": "版权所有 © 2024 新闻网 保留所有权利 未经许可不得转载",
        "words": ("城市 政府 计划 道路 学校 河流 市场 大桥 车站 博物馆 图书馆 港口 公园 节日 预算 报告 "
                  "市长 老师 学生 工人 家庭 游客 公司 项目 天气 火车 公交 农场 医院").split(),
        "verbs": "宣布 讨论 批准 审查 推迟 欢迎 扩大 访问 开放".split(),
        "sep": "", "end": "。", "comma": "，",
    },
    "ja": {
        "site": "nyuusu.example",
        "menu": ["トップ", "国内", "国際", "経済", "スポーツ", "エンタメ", "科学", "自動車", "不動産", "教育", "旅行", "会社概要"],
        "ranking": "アクセスランキング",
        "footer": "Copyright © 2024 ニュース株式会社 無断転載を禁じます すべての権利は保護されています",
        "words": ("市役所 計画 道路 学校 川 市場 橋 駅 博物館 図書館 港 公園 祭り 予算 報告書 市長 "
                  "先生 学生 労働者 家族 観光客 会社 事業 天気 電車 バス 農場 病院").split(),
        "verbs": "発表しました 議論しました 承認しました 見直しました 延期しました 歓迎しました 拡大しました".split(),
        "sep": "", "end": "。", "comma": "、",
    },
    "th": {
        "site": "khao.example",
        "menu": ["หน้าแรก", "ในประเทศ", "ต่างประเทศ", "เศรษฐกิจ", "กีฬา", "บันเทิง", "เทคโนโลยี", "ยานยนต์",
                 "อสังหาริมทรัพย์", "การศึกษา", "ท่องเที่ยว", "เกี่ยวกับเรา"],
        "ranking": "ข่าวยอดนิยม",
        "footer": "สงวนลิขสิทธิ์ © 2024 ข่าวหุบเขา ห้ามคัดลอกหรือเผยแพร่โดยไม่ได้รับอนุญาต",
        "words": ("เมือง สภา แผน ถนน โรงเรียน แม่น้ำ ตลาด สะพาน สถานี พิพิธภัณฑ์ ห้องสมุด ท่าเรือ "
                  "สวนสาธารณะ เทศกาล งบประมาณ รายงาน นายกเทศมนตรี ครู นักเรียน คนงาน ครอบครัว "
                  "นักท่องเที่ยว บริษัท โครงการ อากาศ รถไฟ รถเมล์ ฟาร์ม โรงพยาบาล").split(),
        "verbs": "เปิด ประกาศ หารือ อนุมัติ ทบทวน เลื่อน ต้อนรับ ขยาย เยี่ยมชม".split(),
        # no spaces between words; a space ends a clause or a sentence
        "sep": "", "end": "", "comma": " ", "join": " ",
    },
}


def sentence(r, L):
    n = r.randint(6, 12)
    ws = [r.choice(L["words"]) for _ in range(n)]
    ws.insert(r.randint(2, n - 1), r.choice(L["verbs"]))
    cut = r.randint(3, n - 2)
    if L["sep"]:
        s = " ".join(ws[:cut]) + L["comma"] + " " + " ".join(ws[cut:]) + L["end"]
        return s[0].upper() + s[1:]
    return "".join(ws[:cut]) + L["comma"] + "".join(ws[cut:]) + L["end"]


def page(r, L, k, headlines):
    title = sentence(r, L)
    title = title[:-len(L["end"])] if L["end"] else title
    paras = [L.get("join", L["sep"]).join(sentence(r, L) for _ in range(r.randint(2, 4)))
             for _ in range(r.randint(4, 7))]
    menu = "".join('<li><a href="/%d/">%s</a></li>' % (i, m) for i, m in enumerate(L["menu"]))
    rank = "".join('<li><a href="/a/%d.html">%s</a></li>' % (i, h) for i, h in enumerate(headlines))
    html = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head><body>\n"
            "<div id=\"header\"><ul class=\"menu\">%s</ul></div>\n"
            "<div id=\"main\"><div class=\"article\"><h1>%s</h1>\n%s</div>\n"
            "<div class=\"sidebar\"><h3>%s</h3><ol class=\"ranking\">%s</ol></div></div>\n"
            "<div id=\"footer\"><p>%s</p></div>\n</body></html>\n") % (
        title, menu, title, "\n".join("<p>%s</p>" % p for p in paras), L["ranking"], rank, L["footer"])
    return html, title, paras


def score(d, labels, units):
    """Per language, on how many pages tbk-label made the menu, the ranking
    box and the footer template and the article content, and what
    tbk-predict -f jsonl kept: JSON lines, one per language."""
    def by_page(path):
        pages = collections.defaultdict(list)
        for line in open(path, encoding="utf-8"):
            o = json.loads(line)
            pages[o["page"][o["page"].index("pages/"):]].append(o)
        return pages
    blocks, kept_units = by_page(labels), by_page(units)
    got = collections.defaultdict(collections.Counter)
    for t in map(json.loads, open(os.path.join(d, "truth.jsonl"), encoding="utf-8")):
        s, bl, us = got[t["lang"]], blocks[t["page"]], kept_units[t["page"]]
        s["pages"] += 1
        # label text is a snippet: compare its start
        lab = lambda prefix: next((b["label"] for b in bl if b["text"][:12] == prefix[:12]), None)
        for part in ("menu", "ranking", "footer"):
            s[part] += lab(t[part]) == "template"
        s["article"] += lab(t["title"]) == "content"
        kept = [u for u in us if u["content"]]
        s["menu_kept"] += any(u["path"].startswith("/html[1]/body[1]/div[1]/") for u in kept)
        s["ranking_kept"] += any("/div[2]/div[2]/" in u["path"] for u in kept)
        s["ranking_items_kept"] += sum("/div[2]/div[2]/" in u["path"] for u in kept)
        s["footer_kept"] += t["footer"] in {u["text"] for u in kept}
        s["paragraphs"] += len(t["paragraphs"])
        s["paragraphs_kept"] += sum("/div[2]/div[1]/p[" in u["path"] for u in kept)
    for lang, s in sorted(got.items()):
        print(json.dumps(dict(lang=lang, **s)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--langs", default="en,zh,ja", help="among en, zh, ja, th (Thai)")
    ap.add_argument("--score", nargs=2, metavar=("LABELS", "UNITS"),
                    help="score tbk-label's and tbk-predict -f jsonl's output on the --out site instead")
    a = ap.parse_args()
    if a.score:
        return score(a.out, *a.score)
    langs = a.langs.split(",")
    if not set(langs) <= set(LANG):
        ap.error("--langs: unknown language in %r" % a.langs)
    os.makedirs(a.out, exist_ok=True)
    rows, truth = [], []
    for lang, L in ((k, LANG[k]) for k in LANG if k in langs):
        r = random.Random("%d-%s" % (a.seed, lang))
        # the ranking box changes a little over time, as such boxes do
        pool = [sentence(r, L)[:-len(L["end"]) or None][:24] for _ in range(7)]
        site = L["site"]
        os.makedirs(os.path.join(a.out, "pages", site), exist_ok=True)
        os.makedirs(os.path.join(a.out, "gold", site), exist_ok=True)
        for k in range(a.pages):
            heads = pool[:5] if k < a.pages * 3 // 4 else pool[2:7]
            html, title, paras = page(r, L, k, heads)
            rel = "pages/%s/%02d.html" % (site, k)
            gold = "gold/%s/%02d.txt" % (site, k)
            with open(os.path.join(a.out, rel), "w", encoding="utf-8") as f:
                f.write(html)
            with open(os.path.join(a.out, gold), "w", encoding="utf-8") as f:
                f.write("\n".join([title] + paras) + "\n")
            rows.append((site, rel, "https://%s/a/%02d.html" % (site, k), gold))
            truth.append({"lang": lang, "site": site, "page": rel, "menu": " ".join(L["menu"]),
                          "ranking": L["ranking"] + " " + " ".join(heads), "footer": L["footer"],
                          "title": title, "paragraphs": paras})
    with open(os.path.join(a.out, "manifest.tsv"), "w", encoding="utf-8") as f:
        f.write("site\tpage\turl\tgold\n")
        for row in sorted(rows):
            f.write("\t".join(row) + "\n")
    with open(os.path.join(a.out, "truth.jsonl"), "w", encoding="utf-8") as f:
        for t in truth:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
