#!/usr/bin/env bash
# What cmake --install lays out beyond the library (install_pkgconfig.sh):
# the generated version header, the man pages, programs that report the
# project version, and a tbk-predict that finds the installed model relative
# to itself, so the prefix can be moved and no path of the build machine is
# compiled into it.
. "$(dirname "$0")/lib.sh"
tmp_reset
prefix=$TBK_TMP/prefix
cmake --install "$TBK_BIN" --prefix "$prefix" >/dev/null || die "cmake --install failed"
for f in include/tbk_version.h share/tbk/default.model share/tbk/keywords.df share/man/man1/tbk-{label,features,train,predict,keywords,eval,cluster}.1 share/man/man7/tbk.7; do
  [[ -e $prefix/$f ]] || die "not installed: $f"
done
grep -q "^#define TBK_VERSION \"$TBK_PROJECT_VERSION\"$" "$prefix/include/tbk_version.h" ||
  die "installed tbk_version.h does not say $TBK_PROJECT_VERSION"
[[ $("$prefix/bin/tbk-predict" --version) == "tbk-predict $TBK_PROJECT_VERSION" ]] || die "installed tbk-predict --version"
# tbk-keywords finds the shipped background table beside the installed model
# ("solar panel" is not in it: idf 1 + ln 2414).
printf 'Solar panels, solar panels.\n' >"$TBK_TMP/solar.txt"
[[ $(env -u TBK_MODEL "$prefix/bin/tbk-keywords" --text -n 1 "$TBK_TMP/solar.txt") == $'17.58\tsolar panels' ]] ||
  die "installed tbk-keywords does not use share/tbk/keywords.df"

# Neither the source nor the build directory is in the installed program.
# Debug information names them by nature, so only the program's own
# contents are searched (a sanitizer build also records source file names).
case $(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$TBK_BIN/CMakeCache.txt") in
  Asan | Ubsan | Debug) echo "path check skipped: debug or sanitizer build" ;;
  *)
    command -v objcopy >/dev/null || skip "objcopy missing"
    objcopy --strip-debug "$prefix/bin/tbk-predict" "$TBK_TMP/tbk-predict.stripped" || die "objcopy failed"
    for dir in "$TBK_SRC" "$TBK_BIN" "$(cd "$TBK_SRC" && pwd -P)" "$(cd "$TBK_BIN" && pwd -P)"; do
      if grep -aqF "$dir" "$TBK_TMP/tbk-predict.stripped"; then die "installed tbk-predict contains $dir"; fi
    done
    ;;
esac

# The installed program finds the installed model, also after the prefix
# moved; its output is the shipped model's.
page=$TBK_SRC/datasets/examples/news-article.html
"$PRED" -m "$TBK_SRC/models/default.model" "$page" >"$TBK_TMP/want.txt" || die "tbk-predict -m failed"
mv "$prefix" "$TBK_TMP/moved"
(unset TBK_MODEL; cd / && "$TBK_TMP/moved/bin/tbk-predict" "$page") >"$TBK_TMP/got.txt" ||
  die "the moved installation's tbk-predict did not find its model"
cmp -s "$TBK_TMP/want.txt" "$TBK_TMP/got.txt" || die "the moved installation's default model gives other output"
# And the build tree's program finds the model without -m (README's first command).
(unset TBK_MODEL; cd / && "$PRED" "$page") >"$TBK_TMP/build.txt" || die "the build tree's tbk-predict did not find the model"
cmp -s "$TBK_TMP/want.txt" "$TBK_TMP/build.txt" || die "the build tree's default model gives other output"
echo ok
