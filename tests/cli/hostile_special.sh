#!/usr/bin/env bash
# Hostile input: special files. A device given as a model, page, labels or
# features file is refused by name ("is a device, not a file": /dev/zero
# would otherwise be read for ever); a directory as a model says so; a FIFO
# with no writer does not hang the open (it reads as empty); a pipe from
# process substitution is read like a file.
. "$(dirname "$0")/lib.sh"
tmp_reset
T=$TBK_TMP
MODEL=$TBK_SRC/models/default.model
printf '<html><body><p>%s</p></body></html>\n' \
  "A paragraph of the article, long enough to be kept by the content stage of the model." >"$T/page.html"
mkdir -p "$T/dir"
mkfifo "$T/fifo"

expect_rc 5 timeout 20 "$PRED" -m /dev/zero "$T/page.html"
expect_err "error: /dev/zero: cannot read: is a device, not a file"
expect_rc 5 timeout 20 "$PRED" -m "$T/dir" "$T/page.html"
expect_err "error: $T/dir: cannot read: is a directory"
expect_rc 5 timeout 20 "$PRED" -m "$T/fifo" "$T/page.html"
expect_err "error: $T/fifo: truncated or not a tbk model"

expect_rc 3 timeout 20 "$PRED" -m "$MODEL" /dev/zero "$T/page.html"
expect_err "warning: /dev/zero: cannot read: is a device, not a file \\(skipped\\)"
grep -q "A paragraph of the article" "$OUT" || die "the good page after the device was not processed"
expect_rc 3 timeout 20 "$PRED" -m "$MODEL" "$T/fifo"
expect_err "warning: $T/fifo: empty page \\(0 bytes\\) \\(skipped\\)"

run timeout 20 "$PRED" -m "$MODEL" <(cat "$T/page.html")
[ "$RC" -eq 0 ] || die "process substitution: exit $RC: $(cat "$ERR")"
grep -q "A paragraph of the article" "$OUT" || die "process substitution: page not read"

expect_rc 1 timeout 20 "$TRAIN" -o "$T/m.model" /dev/zero /dev/null /dev/null
expect_err "/dev/zero: cannot read: is a device, not a file"
expect_absent "$T/m.model"
echo "hostile_special: ok"
