#!/bin/bash
# The streaming parse against the DOM parse (#19): bench/page-equiv parses
# every page both ways (default options and the template stage's), the
# streaming side by tbk's fast parser where it takes the page (most must be
# taken) and again by libxml2's SAX events alone (--parser libxml2), and
# fails unless the two dumps of the page's tables (nodes, runs, text,
# blocks, attributes, names, title, base URL, counters) are byte-identical,
# both fail alike, and the streamed page's HTML (its DOM parsed again on
# the first rendering) is the DOM page's. Pages: the synthetic sites of
# every generator, the hostile parse shapes (smaller), and markup whose
# tree libxml2 shapes in ways a SAX builder must reproduce.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
cd "$TBK_TMP" || die "no scratch dir"
EQUIV=$TBK_BIN/bench/page-equiv
[[ -x $EQUIV ]] || die "$EQUIV is not built"

python3 "$TBK_SRC/datasets/synth_sites.py" --out sites --sites 8 --pages 6 --seed 5 >/dev/null || die "synth_sites.py failed"
python3 "$TBK_SRC/datasets/synth_sites.py" --out links --sites 4 --pages 4 --seed 2 --links foreign >/dev/null ||
  die "synth_sites.py --links failed"
python3 "$TBK_SRC/datasets/synth_mixed.py" --out mix --hosts 2 --templates 3 --pages 6 --seed 3 >/dev/null ||
  die "synth_mixed.py failed"
for g in synth_table_sites synth_news_cjk; do
  python3 "$TBK_SRC/datasets/$g.py" --out "$g" >/dev/null 2>&1 || die "$g.py failed"
done

mkdir -p shapes
python3 - shapes <<'EOF' || die "writing the shapes failed"
import os, sys
d = sys.argv[1]
def w(name, s):
    with open(os.path.join(d, name + ".html"), "w" if isinstance(s, str) else "wb") as f:
        f.write(s)
head = "<html><head><title>t</title></head><body><p>" + "lorem ipsum dolor sit amet " * 20 + "</p>"
K = 1 << 16
# tree shapes libxml2's builder makes (stream.c's list)
w("misplaced", '<html><body><p>x<html lang="de" id=r><body class=b onload=x><p>y</body></html>')
w("comment_split", '<html><head><title>T &amp; x</title><base href="/b/"></head><body><div>a<!-- c -->b'
  '<![CDATA[z]]>c</div><script>1</script><script>2</script></body></html>')
w("second_root", '<p>before</p></html><div>after root<p>more text here and more</p></div><!-- c --><span>x</span>')
w("second_root_comment", '<!-- lead --><p>before</p></html><div>after root</div>')
w("second_root_dtd", '<!DOCTYPE html><p>before</p></html><div>after root</div>')
w("mid_doctype", '<html><body><p>one</p><!DOCTYPE html></body></html><div>after</div>')
w("attrs", '<input checked disabled value="" title="a &amp;amp; b &lt; c" data-x=&quot;q&quot;><select>'
  '<option selected>o</select><a href=x hidden>h</a><p style="DISPLAY : none">s</p><base href><p id=a id=b>')
w("ids", '<p id=a>1</p><p id=a>2</p><a name=a>3</a><a name=n>4</a><b name=n>5</b><p id="">6</p><p id="">7</p>')
w("qnames", '<p><g:plusone a=1>x</g:plusone><x:1y>t</x:1y><a:>u</a:><:b>v</:b><xml:lang>w</xml:lang>'
  '<a:b:c>z</a:b:c><o:p>é</o:p><x:\u00e9t>y</x:\u00e9t><x:-z>q</x:-z></p>')
w("outside", 'text outside <?php echo 1 ?> <b>bold</b> tail')
w("script", '<html><body>\n<script>var a = "<p>";</script><style>p{}</style>   <p>   </p>  \n<p>t</p>\n</body></html>')
w("implied", '<table><tr><td>a<td>b</table><ul><li>1<li>2</ul><p>x<div>y</div><dl><dt>a<dd>b</dl>')
w("blanks", '<html>  <head> </head>  <body> \n <b> x </b> <i> </i> <p>xy <i>z</i> </p></body> </html>  ')
w("blanks401", '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"><html><body>  <p>a</p>  </body></html>')
w("head_text", '<html><head> x <title>a</title><meta charset=utf-8> y</head><body>b</body></html>')
w("frames", '<frameset><frame src=a><noframes><p>no frames text here</p></noframes></frameset>')
w("nul", b'<p>a\x00b</p><p>\x00</p><div title="a\x00b">c</div>')
w("biglines", "<html><body>\n" + "".join("<p>line %d words here</p>\n" % i if i % 1000 == 0 or i > 65530 else "\n"
                                          for i in range(70000)) +
  "<div><span>a</span><!-- c --><b></b></div><div></div>\n<p>x</p><p></p>\n<div><![CDATA[x]]></div><?pi x?></body></html>\n")
w("deep", "<div>" * 3000 + "deep text here and there" + "</div>" * 3000)
w("unknown_names", "<body>" + "".join("<foo%d>t</foo%d><foo%d>u</foo%d>" % (i % 7, i % 7, i % 7, i % 7) for i in range(200)))
# the hostile parse shapes (tests/hostile/hostile.py class 1), smaller
w("attrs_1001", head + "<div " + " ".join("a%d=1" % i for i in range(1001)) + ">x</div>")
w("long_attr", head + '<div title="' + "a" * K + '">x</div></body></html>')
w("entity_attr", head + '<div title="' + "&amp;" * (K // 5) + '">x</div>')
w("open_elements", head + "<div>" * 5000)
w("stray_end", head + "<span>" * 400 + "</i>" * K)
w("p_div", head + "<p><div></p>" * (K // 12))
w("misplaced_body", head + "<div>" * 300 + "<body>" * (K // 6))
w("deep_tables", head + "<table><tr><td>" * (K // 15))
w("entities", head + "<p>" + "&amp;&lt;&#x41;&#66;&zzzz;&am " * (K // 20))
w("forms", head + "<form><input name=q></form>" * 100 + "<form>" * 200)
w("options", head + "<select>" + "<option>x" * 2000)
w("broken_comment", head + "<!-- never closed <p>text after</p>")
w("unclosed_title", "<html><head><title>t</head><body><p>" + "text " * 40 + "</p></body></html>")
w("empty", "")
w("spaces", "   \n  ")
w("binary", b"\x00\x01\x02\xff" * 100)
w("latin1", "<p>caf\xe9 na\xefve</p>".encode("latin-1"))
EOF

find sites links mix synth_table_sites synth_news_cjk shapes -type f \( -name '*.html' -o -name '*.htm' \) | sort > pages.list
n=$(wc -l < pages.list)
[[ $n -ge 300 ]] || die "only $n pages generated"
expect_rc 0 "$EQUIV" -v -l pages.list
grep -q "^page-equiv: $n pages, 0 differ, 0 unreadable$" "$OUT" || die "page-equiv: $(tail -n 3 "$OUT")"
fast=$(sed -n 's/^page-equiv: \([0-9]*\) streamed by the fast parser$/\1/p' "$OUT")
[[ -n $fast && $fast -ge $((n * 9 / 10)) ]] || die "the fast parser took only ${fast:-no} pages of $n"
# "0 streamed" is counted page by page: it fails if the option were ignored
expect_rc 0 "$EQUIV" -v --parser libxml2 -l pages.list
grep -q "^page-equiv: $n pages, 0 differ, 0 unreadable$" "$OUT" &&
  grep -q "^page-equiv: 0 streamed by the fast parser (off)$" "$OUT" ||
  die "page-equiv without the fast parser: $(tail -n 3 "$OUT")"
# what the dump holds (so equal dumps mean equal pages): names,
# attributes as the tree has them, errors counted by the tree builder,
# lines past 65535, the title and the base URL
expect_rc 0 "$EQUIV" -d shapes/attrs.html shapes/ids.html shapes/qnames.html shapes/biglines.html shapes/comment_split.html
for want in ' checked=\[checked\] checked;' ' value=\[\] value;' ' title=\[a &amp; b < c\]' 'errors=2 ' \
  '^node [0-9]+ plusone ' '^node [0-9]+ lang ' '^node [0-9]+ b:c ' 'line=65534 ' 'line=65535 ' '^title \[T & x\]$' \
  '^base \[/b/\]$' '^run 1 [0-9]+-[0-9]+ node=2$'; do
  grep -Eq -- "$want" "$OUT" || die "the dump lacks /$want/"
done
echo "ok: $n pages, streamed = DOM ($fast by the fast parser)"
