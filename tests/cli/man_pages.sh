#!/usr/bin/env bash
# The committed man pages (docs/man/tbk-*.1, and the overview tbk.7) are
# what docs/man/gen-man.sh makes from the programs' --help and the
# hand-written docs/man/sections/, so a page cannot drift from its program;
# they render without a warning; and cmake --install puts the overview
# where "man tbk" finds it, naming every program installed.
. "$(dirname "$0")/lib.sh"
tmp_reset
gen=$TBK_TMP/man
bash "$TBK_SRC/docs/man/gen-man.sh" "$TBK_BIN" "$gen" || die "docs/man/gen-man.sh failed"
stale=()
for page in tbk-{label,features,train,predict,keywords,eval,cluster}.1 tbk.7; do
  [[ -f $TBK_SRC/docs/man/$page ]] || die "docs/man/$page is missing: run docs/man/gen-man.sh BUILD_DIR"
  if ! diff -u "$TBK_SRC/docs/man/$page" "$gen/$page" >"$TBK_TMP/$page.diff"; then
    head -n 40 "$TBK_TMP/$page.diff" >&2
    stale+=("docs/man/$page")
  fi
done
((${#stale[@]} == 0)) ||
  die "${stale[*]} out of date with the programs' --help or docs/man/sections/: run docs/man/gen-man.sh BUILD_DIR and commit the pages"

# groff's and (where installed) mandoc's checks: any warning fails.
command -v groff >/dev/null || skip "groff missing (setup.sh installs groff-base)"
for stage in label features train predict keywords eval cluster; do
  page=$TBK_SRC/docs/man/tbk-$stage.1
  warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1) || die "groff failed on $page"
  [[ -z $warn ]] || die "groff warns on $page: $warn"
  if command -v mandoc >/dev/null; then
    warn=$(mandoc -Tlint -W warning "$page" 2>&1) || die "mandoc -Tlint: $warn"
    [[ -z $warn ]] || die "mandoc warns on $page: $warn"
  fi
  # The rendered page has the standard sections.
  text=$(groff -man -Tutf8 "$page" 2>/dev/null | sed 's/.\x08//g')
  for sec in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
    grep -q "^$sec\$" <<<"$text" || die "tbk-$stage.1 has no $sec section"
  done
done

# The overview: clean, its sections, and every program by its page.
page=$TBK_SRC/docs/man/tbk.7
warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1) || die "groff failed on $page"
[[ -z $warn ]] || die "groff warns on $page: $warn"
if command -v mandoc >/dev/null; then
  warn=$(mandoc -Tlint -W warning "$page" 2>&1) || die "mandoc -Tlint: $warn"
  [[ -z $warn ]] || die "mandoc warns on $page: $warn"
fi
text=$(groff -man -Tutf8 "$page" 2>/dev/null | sed 's/.\x08//g')
for sec in NAME DESCRIPTION PIPELINE PROGRAMS FILES ENVIRONMENT "EXIT STATUS" EXAMPLES "SEE ALSO"; do
  grep -q "^$sec\$" <<<"$text" || die "tbk.7 has no $sec section"
done
for code in 0 1 2 3 4 5; do
  grep -Eq "^ +$code +[a-z]" <<<"$text" || die "tbk.7's EXIT STATUS has no $code"
done

# Installed: the overview in man7, and for every program installed its own
# page in man1, named in the overview's PROGRAMS and SEE ALSO.
prefix=$TBK_TMP/prefix
cmake --install "$TBK_BIN" --prefix "$prefix" >/dev/null || die "cmake --install failed"
man=$(find "$prefix" -type d -name man -path '*/share/man' | head -n 1)
[[ -f $man/man7/tbk.7 ]] || die "cmake --install did not install share/man/man7/tbk.7"
cmp -s "$man/man7/tbk.7" "$page" || die "the installed tbk.7 is not docs/man/tbk.7"
programs=$(sed -n '/^PROGRAMS$/,/^[A-Z]/p' <<<"$text")
see_also=$(sed -n '/^SEE ALSO$/,$p' <<<"$text" | tr -s ' \n' ' ')
n=0
for bin in "$prefix"/bin/tbk-*; do
  prog=$(basename "$bin")
  n=$((n + 1))
  [[ -f $man/man1/$prog.1 ]] || die "$prog is installed without its man page"
  grep -q "^ *$prog(1)\$" <<<"$programs" || die "tbk.7's PROGRAMS does not name $prog(1)"
  grep -q "$prog(1)" <<<"$see_also" || die "tbk.7's SEE ALSO does not name $prog(1)"
  grep -q 'tbk(7)' <<<"$(groff -man -Tutf8 "$man/man1/$prog.1" 2>/dev/null | sed 's/.\x08//g')" ||
    die "$prog.1 does not point to tbk(7)"
done
((n == 7)) || die "$n programs installed, expected 7"
# man finds it by its name, as a user types it.
if command -v man >/dev/null; then
  MANPATH=$man man -w tbk 2>/dev/null | grep -q "man7/tbk.7" || die "'man tbk' does not find the installed tbk.7"
fi
echo ok
