#!/usr/bin/env bash
# The layer check (tests/layers.py, docs/ARCHITECTURE.md): the sources pass
# it, and it does catch an upward include, a dependency's header in the
# wrong layer and one in a program.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset

expect_rc 0 python3 "$TBK_SRC/tests/layers.py" "$TBK_SRC"
grep -q "0 violations" "$OUT" || die "no clean summary: $(cat "$OUT")"

copy=$TBK_TMP/src
mkdir -p "$copy"
cp -r "$TBK_SRC/core" "$copy/"
mkdir -p "$copy/predict"
echo '#include "units.h"' >>"$copy/core/page/page.c"
echo '#include <libxml/tree.h>' >>"$copy/core/features/units.c"
echo '#include <pcre2.h>' >"$copy/predict/main.c"
expect_rc 1 python3 "$TBK_SRC/tests/layers.py" "$copy"
grep -q 'core/page/page.c:[0-9]*: page includes "units.h" of features, a layer above' "$OUT" || die "upward include not caught: $(cat "$OUT")"
grep -q 'core/features/units.c:[0-9]*: <libxml/tree.h> belongs to page, not features' "$OUT" || die "libxml2 outside page not caught: $(cat "$OUT")"
grep -q 'predict/main.c:1: <pcre2.h> outside the library' "$OUT" || die "PCRE2 in a program not caught: $(cat "$OUT")"
grep -q "3 violations" "$OUT" || die "wrong count: $(cat "$OUT")"
echo "layers: ok"
