#!/usr/bin/env bash
# --parser (#33): tbk's parser by default, the installed libxml2's own with
# --parser libxml2. With libxml2 2.9.14, the one tbk's parser reproduces,
# both give every output byte for byte; a name that is neither is a usage
# error (exit 2) naming the option. Every page-reading program takes it.
. "$(dirname "$0")/lib.sh"
tmp_reset
ex=$TBK_SRC/datasets/examples
export TBK_MODEL=$TBK_SRC/models/default.model
pages=("$ex"/*.html)
[[ ${#pages[@]} -ge 3 ]] || die "no example pages in $ex"

expect_rc 0 "$PRED" -f jsonl "${pages[@]}"
cp "$OUT" "$TBK_TMP/tbk.jsonl"
expect_rc 0 "$PRED" --parser libxml2 -f jsonl "${pages[@]}"
cp "$OUT" "$TBK_TMP/libxml2.jsonl"
[[ -s $TBK_TMP/tbk.jsonl ]] || die "no output"
expect_rc 0 "$PRED" --parser tbk -f jsonl "${pages[@]}"
cmp -s "$OUT" "$TBK_TMP/tbk.jsonl" || die "--parser tbk is not the default"
for p in tbk libxml2; do
  expect_rc 0 "$LABEL" --parser $p --min-pages 2 "${pages[@]}"
  cp "$OUT" "$TBK_TMP/$p.labels"
  expect_rc 0 "$FEAT" --parser $p "${pages[@]}"
  cp "$OUT" "$TBK_TMP/$p.features"
done
if [[ $(pkg-config --modversion libxml-2.0 2>/dev/null) == 2.9.14 ]]; then
  for o in jsonl labels features; do
    cmp -s "$TBK_TMP/tbk.$o" "$TBK_TMP/libxml2.$o" || die "libxml2 2.9.14's own parser gave other $o than tbk's"
  done
fi

PROG=tbk-predict
expect_rc 2 "$PRED" --parser html5 "${pages[0]}"
expect_err "^tbk-predict: error: .*--parser.*'tbk' or 'libxml2'"
expect_messages
