#!/usr/bin/env bash
# The program boundary (tests/boundary.py, docs/ARCHITECTURE.md): the
# sources pass it, and it does catch a program that includes
# tbk_internal.h or an internal header, and a read of struct tbk_page's
# fields outside core/page, and a main.c over 150 lines; a test may still
# include tbk_internal.h.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset

expect_rc 0 python3 "$TBK_SRC/tests/boundary.py" "$TBK_SRC"
grep -q "fields read 0 times outside core/page.* 0 violations" "$OUT" || die "no clean summary: $(cat "$OUT")"

copy=$TBK_TMP/src
mkdir -p "$copy/predict" "$copy/label" "$copy/tests" "$copy/train"
cp -r "$TBK_SRC/core" "$copy/"
printf '#include "cli.h"\n#include "tbk_internal.h"\n' >"$copy/predict/main.c"
printf '#include "tbk_label.h"\n#include "etdm.h"\n' >"$copy/label/main.c"
printf 'static size_t n(const tbk_page *page) { return page->n_nodes; }\n' >>"$copy/core/label/label.c"
printf '#include "tbk_internal.h"\n' >"$copy/tests/test_x.c"
{ printf '#include "tbk_model.h"\n'; for i in $(seq 150); do printf '/* %d */\n' "$i"; done; } >"$copy/train/main.c"
expect_rc 1 python3 "$TBK_SRC/tests/boundary.py" "$copy"
grep -q 'predict/main.c:2: a program includes "tbk_internal.h"' "$OUT" || die "tbk_internal.h in a program not caught: $(cat "$OUT")"
grep -q 'label/main.c:2: a program includes "etdm.h"' "$OUT" || die "an internal header in a program not caught: $(cat "$OUT")"
grep -q "core/label/label.c: reads struct tbk_page's fields 1 times" "$OUT" || die "a field read not caught: $(cat "$OUT")"
grep -q "train/main.c: 151 lines (at most 150)" "$OUT" || die "a long main.c not caught: $(cat "$OUT")"
grep -q "4 violations" "$OUT" || die "wrong count: $(cat "$OUT")"
echo "boundary: ok"
