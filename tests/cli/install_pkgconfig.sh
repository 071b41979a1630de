#!/usr/bin/env bash
# What a program outside this tree gets from cmake --install: tbk.h and
# tbk_version.h, libtbk.so with its SONAME links, libtbk.a, and a tbk.pc
# from which docs/example/predict_page.c builds against either library and
# scores a page of our own with the installed default model.
# (install_layout.sh checks the programs' side of the installation.)
. "$(dirname "$0")/lib.sh"
command -v pkg-config >/dev/null && command -v cc >/dev/null && command -v readelf >/dev/null ||
  skip "pkg-config, cc or readelf missing"
tmp_reset
prefix=$TBK_TMP/prefix
cmake --install "$TBK_BIN" --prefix "$prefix" >/dev/null || die "cmake --install failed"
pc=$(find "$prefix" -name tbk.pc | head -1)
[[ -n $pc ]] || die "tbk.pc not installed"
libdir=$(dirname "$(dirname "$pc")")
for f in include/tbk.h include/tbk_version.h share/tbk/default.model; do
  [[ -f $prefix/$f ]] || die "not installed: $f"
done
[[ -f $libdir/libtbk.a ]] || die "libtbk.a not installed in $libdir"
real=$libdir/libtbk.so.$TBK_PROJECT_VERSION
[[ -f $real && ! -L $real ]] || die "libtbk.so.$TBK_PROJECT_VERSION not installed in $libdir"
soname=$(readelf -d "$real" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ $(readlink "$libdir/$soname") == "libtbk.so.$TBK_PROJECT_VERSION" ]] || die "no $soname link to the library"
[[ $(readlink "$libdir/libtbk.so") == "$soname" ]] || die "no libtbk.so link to $soname"

export PKG_CONFIG_PATH=$libdir/pkgconfig
[[ $(pkg-config --modversion tbk) == "$TBK_PROJECT_VERSION" ]] || die "tbk.pc version is not $TBK_PROJECT_VERSION"
# A sanitizer build's library needs the sanitizer runtime at link time.
san=()
case $(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$TBK_BIN/CMakeCache.txt") in
  Asan) san=(-fsanitize=address,undefined) ;;
  Ubsan) san=(-fsanitize=undefined) ;;
esac
example=$TBK_SRC/docs/example/predict_page.c

# Shared: the build line of docs/example/README.md.
# shellcheck disable=SC2046
cc "${san[@]}" -o "$TBK_TMP/shared" "$example" $(pkg-config --cflags --libs tbk) ||
  die "cannot build the example against the installed libtbk.so"
grep -qF "[$soname]" <<<"$(readelf -d "$TBK_TMP/shared")" || die "the example does not load $soname"
# Static: pkg-config --static adds what libtbk.a needs (Requires.private,
# Libs.private). With both libraries installed the linker takes the shared
# one for -ltbk, so the archive is named as a file, as a user who wants it
# does; the other libraries stay shared (Debian ships no static libunistring,
# which a fully static libpsl needs).
libs=$(pkg-config --static --libs tbk)
libs=${libs/-ltbk/-l:libtbk.a}
# shellcheck disable=SC2046,SC2086
cc "${san[@]}" -o "$TBK_TMP/static" "$example" $(pkg-config --cflags tbk) $libs ||
  die "cannot build the example against libtbk.a with pkg-config --static"
readelf -d "$TBK_TMP/static" >"$TBK_TMP/static.dyn"
grep -q "libtbk" "$TBK_TMP/static.dyn" && die "the static example still loads libtbk"
grep -qF "[libxml2.so" "$TBK_TMP/static.dyn" || die "the static example was linked without libxml2"

# A page of our own: a link menu, a story in three paragraphs, a footer.
cat >"$TBK_TMP/page.html" <<'HTML'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour ferry timetable changes for the winter season</title></head>
<body>
<div class="masthead"><ul>
<li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li>
<li><a href="/weather">Weather</a></li><li><a href="/opinion">Opinion</a></li><li><a href="/contact">Contact us</a></li>
</ul></div>
<div class="story">
<h1>Harbour ferry timetable changes for the winter season</h1>
<div>The harbour ferry will run every forty minutes instead of every half hour from the first Monday of November, the port authority said on Tuesday, citing lower passenger numbers after the summer.</div>
<div>Commuters who cross before eight in the morning will keep the current service, because the early sailings are still full on most weekdays, according to figures the authority published with the new timetable.</div>
<div>The last evening crossing moves from half past eleven to eleven o'clock, and the island bus will wait for the late ferry on Fridays and Saturdays until the spring timetable starts in March.</div>
</div>
<div class="footer">Copyright 2024 The Harbour Gazette. All rights reserved. <a href="/privacy">Privacy policy</a> | <a href="/terms">Terms of use</a> | <a href="/advertise">Advertise with us</a></div>
</body></html>
HTML
model=$prefix/share/tbk/default.model
LD_LIBRARY_PATH=$libdir "$TBK_TMP/shared" "$model" "$TBK_TMP/page.html" >"$TBK_TMP/shared.out" 2>"$ERR" ||
  die "the example (shared) failed"
(unset LD_LIBRARY_PATH; "$TBK_TMP/static" "$model" "$TBK_TMP/page.html") >"$TBK_TMP/static.out" 2>"$ERR" ||
  die "the example (static) failed"
cmp -s "$TBK_TMP/shared.out" "$TBK_TMP/static.out" || die "the shared and static examples print different output"

# Seven blocks (the menu's <ul> folds into its <div>; the story, its
# headline, three paragraphs, the footer), each with a probability in
# [0,1]; the menu and the footer are template, the paragraphs are not.
sed '/^--$/,$d' "$TBK_TMP/shared.out" >"$TBK_TMP/blocks.tsv"
awk -F'\t' '
  NF != 5 || $1 != NR - 1 || $2 !~ /^[01]\.[0-9]+$/ || $2 < 0 || $2 > 1 { print "bad line " NR ": " $0; bad = 1 }
  END { if (NR != 7) { print NR " blocks, want 7"; bad = 1 }; exit bad }' "$TBK_TMP/blocks.tsv" ||
  die "unexpected block lines: $(cat "$TBK_TMP/blocks.tsv")"
p() { awk -F'\t' -v path="$1" '$4 == path { print $2 }' "$TBK_TMP/blocks.tsv"; }
menu=$(p /html[1]/body[1]/div[1])
footer=$(p /html[1]/body[1]/div[3])
para_max=$(for k in 1 2 3; do p "/html[1]/body[1]/div[2]/div[$k]"; done | sort -g | tail -1)
[[ -n $menu && -n $footer && -n $para_max ]] || die "blocks missing: $(cat "$TBK_TMP/blocks.tsv")"
awk -v m="$menu" -v f="$footer" -v q="$para_max" 'BEGIN { exit !(m >= 0.5 && f >= 0.5 && q < 0.5) }' ||
  die "menu $menu and footer $footer should be template (>= 0.5), paragraphs (max $para_max) not"

# The kept text: the headline and the story, without the menu and footer.
sed '1,/^--$/d' "$TBK_TMP/shared.out" >"$TBK_TMP/kept.txt"
[[ $(head -1 "$TBK_TMP/kept.txt") == "Harbour ferry timetable changes for the winter season" ]] ||
  die "kept text does not start with the headline"
grep -q "^The harbour ferry will run every forty minutes" "$TBK_TMP/kept.txt" || die "first paragraph not kept"
grep -q "^The last evening crossing" "$TBK_TMP/kept.txt" || die "last paragraph not kept"
grep -qE "Opinion|Copyright" "$TBK_TMP/kept.txt" && die "menu or footer kept: $(cat "$TBK_TMP/kept.txt")"
echo "ok: menu $menu, footer $footer, paragraphs <= $para_max"
