#!/usr/bin/env bash
# The committed man pages (docs/man/tbk-*.1) are what docs/man/gen-man.sh
# makes from the programs' --help and the hand-written docs/man/sections/,
# so a page cannot drift from its program; and they render without a
# warning.
. "$(dirname "$0")/lib.sh"
tmp_reset
gen=$TBK_TMP/man
bash "$TBK_SRC/docs/man/gen-man.sh" "$TBK_BIN" "$gen" || die "docs/man/gen-man.sh failed"
stale=()
for stage in label features train predict keywords eval cluster; do
  page=tbk-$stage.1
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
echo ok
