#!/usr/bin/env bash
# libtbk.so exports exactly the functions declared in tbk.h: none of the
# internal ones (the objects are compiled with hidden visibility), and
# every public one (its declaration carries TBK_API). Its SONAME is
# libtbk.so.<SOVERSION>, the name programs record.
. "$(dirname "$0")/lib.sh"
command -v nm >/dev/null && command -v readelf >/dev/null || skip "nm or readelf missing"
tmp_reset
lib=$TBK_BIN/core/libtbk.so
[[ -e $lib ]] || die "no shared library at $lib"

# The public functions: every identifier followed by '(' in tbk.h once its
# comments are gone (the comments name functions in passing); and the
# public data: the options' defaults, declared `extern const TYPE NAME;`.
perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' "$TBK_SRC/core/include/tbk.h" >"$TBK_TMP/tbk.h"
{ grep -oE '\btbk_[a-z0-9_]+[[:space:]]*\(' "$TBK_TMP/tbk.h" | tr -d '( \t'
  grep -oE 'extern const [a-z_]+ tbk_[a-z0-9_]+;' "$TBK_TMP/tbk.h" | awk '{print $4}' | tr -d ';'
} | sort -u >"$TBK_TMP/declared"
[[ $(wc -l <"$TBK_TMP/declared") -ge 30 ]] || die "found only $(wc -l <"$TBK_TMP/declared") functions in tbk.h"
# AddressSanitizer adds an __odr_asan.NAME beside each exported variable
# (its one-definition-rule check): not the library's.
nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ && $3 !~ /^__odr_asan\./ {print $3}' | sed 's/@.*//' |
  sort -u >"$TBK_TMP/exported"

leaked=$(comm -13 "$TBK_TMP/declared" "$TBK_TMP/exported")
missing=$(comm -23 "$TBK_TMP/declared" "$TBK_TMP/exported")
[[ -z $leaked ]] || die "exported but not declared in tbk.h: $(echo $leaked)"
[[ -z $missing ]] || die "declared in tbk.h but not exported (TBK_API missing?): $(echo $missing)"

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ $soname =~ ^libtbk\.so\.[0-9]+$ ]] || die "unexpected SONAME: '$soname'"
echo "ok: $(wc -l <"$TBK_TMP/exported") functions exported, SONAME $soname"
