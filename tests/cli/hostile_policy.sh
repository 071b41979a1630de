#!/usr/bin/env bash
# The bad-page policy, the same in every program: a bad page is reported as
# "prog: warning: FILE: reason (skipped)", counted, the run continues and
# the good pages' output is complete; the exit code is 3. --strict makes the
# first bad page fatal: "prog: error: FILE: reason", exit 1, no output file.
. "$(dirname "$0")/lib.sh"
need_python
tmp_reset
T=$TBK_TMP
mkdir -p "$T/in/site"
bash "$TBK_SRC/fuzz/make_seed_model.sh" "$TBK_BIN" "$T/m.model" >/dev/null 2>"$T/err" || { rc=$?; cat "$T/err" >&2; exit $rc; }
for i in 1 2 3; do
  echo "<html><body><div>good page $i alpha bravo charlie delta echo foxtrot</div><ul><li>menu one two three four five six seven</li></ul></body></html>" >"$T/in/site/good$i.html"
done
: >"$T/in/site/bad1-empty.html"
printf '\x7fELF\x02\x01\x01\x00' >"$T/in/site/bad2-elf.html"
python3 -c 'print("<html><body>" + "<div>" * 5000 + "deep" + "</div>" * 5000)' >"$T/in/site/bad3-deep.html"

policy() { # policy NAME PROG CHECK CMD...: exit 3, three warnings, CHECK (default: -o file) names the 3 good pages
  local name=$1 prog=$2 check=${3:-$T/$1.out}
  shift 3
  "$@" -o "$T/$name.out" 2>"$T/$name.err"
  local rc=$?
  [ $rc -eq 3 ] || { cat "$T/$name.err" >&2; die "$name: exit $rc, expected 3"; }
  grep -q "^$prog: warning: $T/in/site/bad1-empty.html: empty page (0 bytes) (skipped)$" "$T/$name.err" || die "$name: empty page not reported"
  grep -q "^$prog: warning: $T/in/site/bad2-elf.html: not HTML: looks like ELF executable (skipped)$" "$T/$name.err" || die "$name: ELF not reported"
  grep -q "^$prog: warning: $T/in/site/bad3-deep.html: elements nested deeper than max-depth (4096) (skipped)$" "$T/$name.err" || die "$name: deep page not reported"
  for i in 1 2 3; do grep -q "good$i" "$check" || die "$name: good page $i missing from the output"; done
  "$@" --strict -o "$T/$name.strict" 2>"$T/$name.err"
  rc=$?
  [ $rc -eq 1 ] || die "$name --strict: exit $rc, expected 1"
  grep -q "^$prog: error: $T/in/site/bad1-empty.html: empty page (0 bytes)$" "$T/$name.err" || { cat "$T/$name.err" >&2; die "$name --strict: first bad page not the error"; }
  ls "$T/$name".strict* >/dev/null 2>&1 && die "$name --strict left an output file"
  echo "$name: exit 3 with 3 pages reported; --strict exit 1"
}
policy label tbk-label "" "$LABEL" -q --min-pages 1 --all "$T/in"
policy features tbk-features "$T/f.meta" "$FEAT" --meta "$T/f.meta" "$T/in" # page names are in the meta file
policy predict tbk-predict "" "$PRED" -m "$T/m.model" -f jsonl "$T/in"
echo ok
