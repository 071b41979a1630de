#!/usr/bin/env bash
# The layer check (tests/layers.py, docs/ARCHITECTURE.md): the sources pass
# it, and it does catch an upward include, one between sibling layers, a
# dependency's header in the wrong layer and one in a program, and CMake's
# table of uses drifting from its own; its --graph has label and features
# apart (neither includes the other) and ml below features.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset

expect_rc 0 python3 "$TBK_SRC/tests/layers.py" "$TBK_SRC"
grep -q "0 violations" "$OUT" || die "no clean summary: $(cat "$OUT")"
expect_rc 0 python3 "$TBK_SRC/tests/layers.py" --graph "$TBK_SRC"
# label and features know nothing of each other (label sits higher, over
# history, for tbk-label --history): neither includes the other.
uses() { sed -n "s/^  $1 *-> //p" "$OUT"; }
[[ -n $(uses label) && -n $(uses features) ]] || die "no include graph: $(cat "$OUT")"
[[ " $(uses label)" != *" features "* && " $(uses features)" != *" label "* ]] ||
  die "label and features include each other: $(cat "$OUT")"
ml=$(sed -n 's/^ *\([0-9]*\)  .*\bml\b.*/\1/p' "$OUT")
features=$(sed -n 's/^ *\([0-9]*\)  .*\bfeatures\b.*/\1/p' "$OUT")
[ -n "$ml" ] && [ -n "$features" ] && [ "$ml" -lt "$features" ] || die "ml not below features: $(cat "$OUT")"

copy=$TBK_TMP/src
mkdir -p "$copy"
cp -r "$TBK_SRC/core" "$copy/"
mkdir -p "$copy/predict"
echo '#include "units.h"' >>"$copy/core/page/page.c"
echo '#include "label.h"' >>"$copy/core/features/units.c"
sed -i 's/^set(TBK_USES_ml base)$/set(TBK_USES_ml base text)/' "$copy/core/CMakeLists.txt"
echo '#include <libxml/tree.h>' >>"$copy/core/features/units.c"
echo '#include <pcre2.h>' >"$copy/predict/main.c"
expect_rc 1 python3 "$TBK_SRC/tests/layers.py" "$copy"
grep -q 'core/page/page.c:[0-9]*: page includes "units.h" of features, a layer it does not use' "$OUT" || die "upward include not caught: $(cat "$OUT")"
grep -q 'core/features/units.c:[0-9]*: features includes "label.h" of label, a layer it does not use' "$OUT" || die "sibling include not caught: $(cat "$OUT")"
grep -q "TBK_USES_ml is \['base', 'text'\]" "$OUT" || die "CMake's table drifting not caught: $(cat "$OUT")"
grep -q 'core/features/units.c:[0-9]*: <libxml/tree.h> belongs to page, not features' "$OUT" || die "libxml2 outside page not caught: $(cat "$OUT")"
grep -q 'predict/main.c:1: <pcre2.h> outside the library' "$OUT" || die "PCRE2 in a program not caught: $(cat "$OUT")"
grep -q "5 violations" "$OUT" || die "wrong count: $(cat "$OUT")"
echo "layers: ok"
