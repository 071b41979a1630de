#!/usr/bin/env bash
# Pages in East Asian legacy charsets with no declaration (and ones that
# declare UTF-8 or ISO-8859-1 wrongly) decode to the text they were written from (a wrong declaration with a
# warning naming both charsets): each
# page's UTF-8 source text is converted with iconv, tbk-label reads the
# pages (tbk-label) and every paragraph must come back exactly from
# tbk-predict's units. A page of non-ASCII
# bytes no charset explains is refused with a warning naming it, never
# decoded to mojibake.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
command -v iconv >/dev/null || skip "iconv not found"
mkdir -p "$T/src" "$T/in"
python3 - "$T/src" <<'PY'
import os, sys
d = sys.argv[1]
texts = {
    "zh-hans": ["本市今天召开新闻发布会，介绍了城市公共交通的最新进展和明年的建设计划。",
                "据介绍，全市将新增十二条公交线路，地铁三号线预计在明年年底前通车运营。",
                "市民代表在会上提出了关于停车难和老旧小区改造的意见，有关部门表示将认真研究。"],
    "zh-hant": ["本市今天召開新聞發布會，介紹了城市公共交通的最新進展和明年的建設計劃。",
                "據介紹，全市將新增十二條公車路線，捷運三號線預計在明年年底前通車營運。",
                "市民代表在會上提出了關於停車難和老舊社區改造的意見，有關部門表示將認真研究。"],
    "ja": ["市は今日記者会見を開き、公共交通の最新の状況と来年の整備計画について説明しました。",
           "説明によると、市内には新しいバス路線が十二本追加され、地下鉄三号線は来年末までに開業する予定です。",
           "会見では市民の代表から駐車場の不足や古い住宅地の改修についての意見が出され、担当部署は検討すると答えました。"],
    "ko": ["시는 오늘 기자회견을 열고 대중교통의 최신 현황과 내년 건설 계획을 발표했습니다.",
           "설명에 따르면 시내에 새로운 버스 노선 열두 개가 추가되고 지하철 삼호선은 내년 말까지 개통될 예정입니다.",
           "회견에서 시민 대표들은 주차난과 노후 주거지 개선에 관한 의견을 제시했고 관계 부서는 검토하겠다고 밝혔습니다."],
}
for lang, paras in texts.items():
    for k in range(2):  # a short and a long page
        body = "".join("<div><p>%s</p></div>\n" % p for p in paras * (1 + 4 * k))
        html = "<html><head><title>%s</title></head><body>\n%s</body></html>\n" % (paras[0][:8], body)
        open(os.path.join(d, "%s.%d.html" % (lang, k)), "w", encoding="utf-8").write(html)
        open(os.path.join(d, "%s.%d.txt" % (lang, k)), "w", encoding="utf-8").write("\n".join(paras) + "\n")
PY
conv() { iconv -f UTF-8 -t "$2" "$T/src/$1.html" >"$T/in/$1.$3.html" || die "iconv to $2 failed"; }
for k in 0 1; do
  conv zh-hans.$k GB18030 gb18030
  conv zh-hant.$k BIG5 big5
  conv ja.$k SHIFT_JIS shift_jis
  conv ja.$k EUC-JP euc-jp
  conv ja.$k ISO-2022-JP iso-2022-jp
  conv ko.$k EUC-KR euc-kr
done
# a wrong declaration: UTF-8 claimed, GB18030 written
{ printf '<meta charset="utf-8">'; cat "$T/in/zh-hans.1.gb18030.html"; } >"$T/in/zh-hans.1.liar-utf8.html"
# ... and Western claimed (a template's ISO-8859-1 default), GB18030, Big5,
# Shift_JIS and EUC-KR written
for p in zh-hans.1.gb18030 zh-hant.0.big5 ja.1.shift_jis ko.0.euc-kr; do
  { printf '<meta charset="iso-8859-1">'; cat "$T/in/$p.html"; } >"$T/in/${p%.*}.liar-latin1-${p##*.}.html"
done
# random high bytes: no charset explains them
python3 -c "
import random, sys
r = random.Random(5)
sys.stdout.buffer.write(b'<html><body><div>' + bytes(r.randrange(0x80, 0x100) for _ in range(3000)) + b'</div></body></html>')
" >"$T/in/noise.html"
for prog in "$LABEL -q --min-pages 1 --all" "$PRED -f jsonl"; do
  $prog -o "$T/l.jsonl" "$T/in" 2>"$T/err"
  rc=$?
  [ $rc -eq 3 ] || { cat "$T/err" >&2; die "${prog%% *}: exit $rc, expected 3 (one page skipped)"; }
  grep -q "warning: $T/in/noise.html: cannot tell the charset" "$T/err" || { cat "$T/err" >&2; die "no warning naming the undecodable page"; }
  # The pages whose declaration is wrong are read right, each with a warning
  # naming the declared and the detected charset (#32 item 5); no other page
  # is warned about.
  for liar in "$T"/in/*.liar-*.html; do
    grep -Eq "warning: $liar: charset (UTF-8|windows-1252) \(<meta>\) does not fit the bytes .*; read as [A-Z0-9-]+ \(detected\) instead$" "$T/err" ||
      { cat "$T/err" >&2; die "no warning naming the declared and the used charset of $liar"; }
  done
  [ "$(grep -c warning "$T/err")" = "$((1 + $(ls "$T"/in/*.liar-*.html | wc -l)))" ] || { cat "$T/err" >&2; die "warnings for decodable pages"; }
done
python3 - "$T/l.jsonl" "$T/src" <<'PY' || die "decoded text is wrong"
import collections, json, os, sys
text = collections.defaultdict(str)
for line in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(line)
    text[os.path.basename(o["page"])] += o["text"] + "\n"
assert "noise.html" not in text
pages = 0
for name in sorted(os.listdir(sys.argv[2])):
    if not name.endswith(".txt"):
        continue
    stem = name[:-4]
    want = open(os.path.join(sys.argv[2], name), encoding="utf-8").read().split("\n")[:-1]
    for enc in ("gb18030", "big5", "shift_jis", "euc-jp", "iso-2022-jp", "euc-kr", "liar-utf8", "liar-latin1-gb18030",
                "liar-latin1-big5", "liar-latin1-shift_jis", "liar-latin1-euc-kr"):
        page = "%s.%s.html" % (stem, enc)
        if not os.path.exists(os.path.join(os.path.dirname(sys.argv[1]), "in", page)):
            continue
        pages += 1
        got = text.get(page, "")
        assert "\ufffd" not in got, (page, "replacement characters")
        for p in want:
            assert p in got, (page, p, got[:200])
assert pages == 17, pages
print("ok:", pages, "pages")
PY
echo ok
