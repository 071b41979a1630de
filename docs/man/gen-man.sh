#!/usr/bin/env bash
# Build the man pages docs/man/tbk-*.1 from each program's --help plus the
# hand-written parts in docs/man/sections/tbk-*.roff, so the options and
# exit statuses of a page are always those of its program, and the overview
# docs/man/tbk.7 from docs/man/sections/tbk.roff (see the end):
#   docs/man/gen-man.sh [BUILD_DIR [OUT_DIR]]   (defaults: build, docs/man)
# The cli/man_pages test regenerates the pages into the build tree and fails
# when they differ from the committed ones.
#
# From --help: SYNOPSIS (the Usage lines), the start of DESCRIPTION (the
# text before the first "Heading:"), COMMANDS, OPTIONS (one subsection per
# "... options:" heading) and EXIT STATUS. tbk-eval's commands each get a
# section from 'tbk-eval COMMAND --help'. From the .roff file: NAME, the rest
# of DESCRIPTION, and every later section (ENVIRONMENT, FILES, EXAMPLES,
# SEE ALSO), in the file's order. The version comes from --version, the date
# from TBK_VERSION_DATE in CMakeLists.txt (the version's date): nothing
# depends on when or where the script runs.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
out=${2:-$here}
mkdir -p "$out"

date=$(sed -n 's/^set(TBK_VERSION_DATE \([0-9-]*\))$/\1/p' "$src/CMakeLists.txt")
[[ -n $date ]] || { echo "gen-man.sh: no set(TBK_VERSION_DATE ...) in CMakeLists.txt" >&2; exit 1; }

# The help text to roff. mode=main: the page's SYNOPSIS..EXIT STATUS (with a
# "@DESCRIPTION@" line where the hand-written description goes); mode=sub:
# one command's section of tbk-eval (its title in $TBK_TITLE); mode=usage:
# the SYNOPSIS lines only.
help2roff='
function esc(s,   n, i, t, w, lead, out) {
  gsub(/\\/, "\\e", s)
  n = split(s, t, / /)
  out = ""
  for (i = 1; i <= n; i++) {
    w = t[i]
    lead = w; sub(/[^(\[\047"].*$/, "", lead)
    w = substr(w, length(lead) + 1)
    # Options, "-" for stdin and negative numbers: a real minus sign (so
    # they can be searched for and pasted); program names likewise.
    if (w ~ /^-/) gsub(/-/, "\\-", w)
    else if (w ~ /^tbk-/) gsub(/-/, "\\-", w)
    out = out (i > 1 ? " " : "") lead w
  }
  if (out ~ /^[.\047]/) out = "\\&" out
  # "tmpl.*" ending a line is no end of sentence: no double space after it.
  if (out ~ /\.\*$/) out = out "\\&"
  return out
}
# "Usage: tbk-eval cv [OPTION]... FEATURES" -> bold literals, italic metavariables.
function synopsis(s,   n, i, t, w, core, pre, post, out) {
  sub(/^Usage: /, "", s)
  n = split(s, t, / /)
  out = ".B " esc(t[1])
  for (i = 2; i <= n; i++) {
    w = t[i]; pre = w; sub(/[^\[].*$/, "", pre); core = substr(w, length(pre) + 1)
    post = core; sub(/^[^\].]*/, "", post); core = substr(core, 1, length(core) - length(post))
    if (core ~ /^[A-Z][A-Z_0-9]*$/) core = "\\fI" core "\\fR"
    else if (core != "") core = "\\fB" esc(core) "\\fR"
    out = out (i == 2 ? "\n" : " ") pre core post
  }
  return out
}
# "-o, --output FILE" -> "\fB\-o\fR, \fB\-\-output\fR \fIFILE\fR"
function term(s,   n, i, alt, m, j, w, out, part) {
  n = split(s, alt, /, /)
  out = ""
  for (i = 1; i <= n; i++) {
    m = split(alt[i], w, / /)
    part = "\\fB" esc(w[1]) "\\fR"
    for (j = 2; j <= m; j++) part = part " \\fI" esc(w[j]) "\\fR"
    out = out (i > 1 ? ", " : "") part
  }
  return out
}
function heading(h) {
  if (mode == "sub") { print ".SS \"" h "\""; return }
  if (h ~ /^Exit status/) { print ".SH \"EXIT STATUS\""; return }
  if (h == "Commands") { print ".SH COMMANDS"; return }
  if (!in_options) { print ".SH OPTIONS"; in_options = 1 }
  if (h != "Options" || subsections) { print ".SS \"" h "\""; subsections = 1 }
}
{ line[NR] = $0 }
END {
  if (mode == "usage") { print synopsis(line[1]); exit }
  # "  or:  tbk-keywords --build-df ..." lines after the first: more forms.
  syn = synopsis(line[1])
  for (first = 2; line[first] ~ /^  or:  /; first++) {
    u = line[first]; sub(/^  or:  /, "Usage: ", u)
    syn = syn "\n.br\n" synopsis(u)
  }
  if (mode == "main") print ".SH SYNOPSIS\n" syn ENVIRON["TBK_EXTRA_USAGE"] "\n.SH DESCRIPTION"
  else print ".SH \"" ENVIRON["TBK_TITLE"] "\"\n" syn "\n.PP"
  state = "text"   # text, blank (a paragraph break is pending), heading, list (after an entry)
  described = 0
  for (k = first; k <= NR; k++) {
    l = line[k]
    if (l == "") { if (state != "heading") state = "blank"; continue }
    if (l !~ /^ / && l ~ /:$/ && line[k - 1] == "" && line[k + 1] ~ /^ /) {
      if (mode == "main" && !described) { print "@DESCRIPTION@"; described = 1 }
      h = l; sub(/:$/, "", h)
      heading(h)
      state = "heading"
      continue
    }
    if (l ~ /^   ? ? ? ?[^ ]/ && (l ~ /^ *-/ || l ~ /^ *[^ ]+( [^ ]+)*  +[^ ]/) && state != "text" && state != "blank") {
      t = l; sub(/^ +/, "", t)
      d = t; sub(/^[^ ]+( [^ ]+)*( +|$)/, "", d)
      t = substr(t, 1, length(t) - length(d)); sub(/ +$/, "", t)
      print ".TP\n" term(t)
      if (d != "") print esc(d)
      state = "list"
      continue
    }
    if (l ~ /^ / && state == "list") { sub(/^ +/, "", l); print esc(l); continue }
    sub(/^ +/, "", l)
    if (state == "blank" || state == "list") print ".PP"
    state = "text"
    print esc(l)
  }
  if (mode == "main" && !described) print "@DESCRIPTION@"
}'

# Merge the generated part with the hand-written sections file.
merge='
FNR == 1 { file++ }
file == 1 {
  if ($0 ~ /^\.SH /) { name = $0; sub(/^\.SH +/, "", name); gsub(/"/, "", name); order[++n] = name; next }
  if (name != "") body[name] = body[name] $0 "\n"
  next
}
{ gen = gen $0 "\n" }
END {
  if (!("NAME" in body)) { print "gen-man.sh: no .SH NAME in the sections file" > "/dev/stderr"; exit 1 }
  printf ".TH %s 1 %s \"tbk %s\" \"tbk manual\"\n", toupper(prog_roff), date, version
  # No hyphenation: option names and paths must read as typed.
  printf ".nh\n"
  printf ".SH NAME\n%s", body["NAME"]
  desc = ("DESCRIPTION" in body) ? ".PP\n" body["DESCRIPTION"] : ""
  at = index(gen, "@DESCRIPTION@\n")
  printf "%s%s%s", substr(gen, 1, at - 1), desc, substr(gen, at + length("@DESCRIPTION@\n"))
  for (i = 1; i <= n; i++) {
    if (order[i] == "NAME" || order[i] == "DESCRIPTION") continue
    printf ".SH %s\n%s", (order[i] ~ / / ? "\"" order[i] "\"" : order[i]), body[order[i]]
  }
}'

for stage in label features train predict keywords eval cluster; do
  prog=tbk-$stage
  bin=$build/$stage/$prog
  sections=$here/sections/$prog.roff
  [[ -x $bin ]] || { echo "gen-man.sh: $bin not built (give the build directory)" >&2; exit 1; }
  [[ -f $sections ]] || { echo "gen-man.sh: $sections missing" >&2; exit 1; }
  version=$("$bin" --version | sed -n "s/^$prog //p")
  [[ -n $version ]] || { echo "gen-man.sh: $prog --version printed no version" >&2; exit 1; }
  help=$("$bin" --help)
  # Commands (tbk-eval): the entries of the "Commands:" block.
  cmds=$(printf '%s\n' "$help" | awk '/^Commands:$/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }')
  extra_usage=""
  for c in $cmds; do
    extra_usage+=$'\n.br\n'$("$bin" "$c" --help | awk -v mode=usage "$help2roff")
  done
  {
    printf '%s\n' "$help" | TBK_EXTRA_USAGE=$extra_usage awk -v mode=main "$help2roff"
    for c in $cmds; do
      "$bin" "$c" --help | TBK_TITLE="$(echo "$prog $c" | tr '[:lower:]' '[:upper:]' | sed 's/-/\\-/g')" awk -v mode=sub "$help2roff"
    done
  } >"$out/$prog.1.gen.tmp"
  # The EXIT STATUS section of the main help goes last among the generated
  # ones: after the commands' own sections.
  awk '/^\.SH "EXIT STATUS"$/ { ex = 1 } /^\.SH "TBK/ { ex = 0 } { if (ex) tail = tail $0 "\n"; else print } END { printf "%s", tail }' \
    "$out/$prog.1.gen.tmp" >"$out/$prog.1.gen"
  awk -v prog_roff="${prog//-/\\-}" -v date="$date" -v version="$version" "$merge" "$sections" "$out/$prog.1.gen" \
    >"$out/$prog.1.tmp"
  rm -f "$out/$prog.1.gen" "$out/$prog.1.gen.tmp"
  mv "$out/$prog.1.tmp" "$out/$prog.1"
done

# tbk(7), the overview: docs/man/sections/tbk.roff as it is, but for its
# @PROGRAMS@ line, which becomes one entry per program with the summary of
# the NAME line of the program's own sections file (written once, there).
overview=$here/sections/tbk.roff
[[ -f $overview ]] || { echo "gen-man.sh: $overview missing" >&2; exit 1; }
version=$("$build/predict/tbk-predict" --version | sed -n 's/^tbk-predict //p')
programs=""
for stage in label features train predict keywords cluster eval; do
  name=$(sed -n '/^\.SH NAME$/{n;p;q}' "$here/sections/tbk-$stage.roff")
  what=${name#*\\- }
  [[ -n $what && $what != "$name" ]] || { echo "gen-man.sh: no summary in the NAME of tbk-$stage.roff" >&2; exit 1; }
  programs+=".TP"$'\n'".BR tbk\\-$stage (1)"$'\n'"$what"$'\n'
done
TBK_PROGRAMS=$programs awk -v date="$date" -v version="$version" '
  BEGIN { printf ".TH TBK 7 %s \"tbk %s\" \"tbk manual\"\n.nh\n", date, version }
  /^\.SH / { on = 1 }
  !on { next }
  $0 == "@PROGRAMS@" { printf "%s", ENVIRON["TBK_PROGRAMS"]; next }
  { print }' "$overview" >"$out/tbk.7.tmp"
mv "$out/tbk.7.tmp" "$out/tbk.7"
