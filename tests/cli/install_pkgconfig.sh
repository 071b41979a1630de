#!/usr/bin/env bash
# cmake --install puts the programs, libtbk, tbk.h, tbk.pc and the default
# model in place, and a program built only from what pkg-config says links
# and runs against the installed library.
. "$(dirname "$0")/lib.sh"
command -v pkg-config >/dev/null && command -v cc >/dev/null || skip "pkg-config or cc missing"
prefix=$TBK_TMP/prefix
rm -rf "$TBK_TMP"; mkdir -p "$TBK_TMP"
cmake --install "$TBK_BIN" --prefix "$prefix" >/dev/null || die "cmake --install failed"
for f in bin/tbk-label bin/tbk-features bin/tbk-train bin/tbk-predict bin/tbk-eval include/tbk.h \
         share/tbk/default.model; do
  [ -e "$prefix/$f" ] || die "not installed: $f"
done
pc=$(find "$prefix" -name tbk.pc | head -1)
[ -n "$pc" ] || die "tbk.pc not installed"
cat >"$TBK_TMP/use.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <tbk.h>
int main(void) {
  const char *html = "<html><body><div>One two three four five six seven eight nine ten.</div></body></html>";
  tbk_page *p;
  tbk_error err;
  if (tbk_page_parse(html, strlen(html), NULL, &p, &err) != TBK_OK) { fprintf(stderr, "%s\n", err.msg); return 1; }
  printf("%zu %s\n", tbk_page_block_count(p), tbk_page_block(p, 0)->path);
  tbk_page_free(p);
  return 0;
}
C
export PKG_CONFIG_PATH=$(dirname "$pc")
# A sanitizer build's library needs the sanitizer runtime at link time.
san=()
case $(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$TBK_BIN/CMakeCache.txt") in
  Asan) san=(-fsanitize=address,undefined) ;;
  Ubsan) san=(-fsanitize=undefined) ;;
esac
# shellcheck disable=SC2046
cc "${san[@]}" -o "$TBK_TMP/use" "$TBK_TMP/use.c" $(pkg-config --cflags --libs --static tbk) ||
  die "cannot build against the installed tbk"
out=$("$TBK_TMP/use") || die "program built against tbk failed"
[ "$out" = "1 /html[1]/body[1]/div[1]" ] || die "unexpected output: $out"
echo ok
