#!/bin/bash
# Run peer extractors over the gold pages of one dataset manifest.
#
# Usage: run_peers.sh MANIFEST OUTROOT [tool...]
#   MANIFEST  dataset manifest.tsv (header site page url gold; paths relative
#             to the manifest's directory); only rows with a non-empty gold
#             column are run (all rows with PEERS_ALL=1: trafilatura_eval,
#             whose gold is snippets scored by 'tbk-eval snippets').
#   OUTROOT   output root; per tool: OUTROOT/<tool>/<page path>.txt (the page
#             path without its leading "pages/", .html -> .txt, i.e.
#             <site>/<id>.txt) and OUTROOT/<tool>/timing.json.
#   tools     boilerpipe-article boilerpipe-default readability-lxml
#             mozilla-readability (default: all four, one after the other).
#
# Environment: PEERS_ALL=1 runs every page of the manifest; PEERS_TIMEOUT (seconds per tool run, default 7200; pages not
# done by then count as failures), PEERS_PYTHON (default /usr/bin/python3,
# the Python with Debian's python3-readability), PEERS_JAVA_OPTS (default
# "-Xmx4g -Xss64m"), PEERS_NODE_DIR, PEERS_CACHE_DIR.
# A tool failing on a page leaves an empty .txt and is counted in
# timing.json ("failures"); the run goes on.
set -euo pipefail

ALL_TOOLS="boilerpipe-article boilerpipe-default readability-lxml mozilla-readability"
if [ $# -lt 2 ]; then
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
MANIFEST=$1
OUTROOT=$2
shift 2
TOOLS=${*:-$ALL_TOOLS}

HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PEERS_PYTHON:-/usr/bin/python3}
TIMEOUT=${PEERS_TIMEOUT:-7200}
JAVA_OPTS=${PEERS_JAVA_OPTS:--Xmx4g -Xss64m}
NODE_DIR=${PEERS_NODE_DIR:-$HERE/.node}
CACHE_DIR=${PEERS_CACHE_DIR:-$HERE/.cache}
export PEERS_NODE_DIR=$NODE_DIR PEERS_CACHE_DIR=$CACHE_DIR
JARS=/usr/share/java/boilerpipe.jar:/usr/share/java/nekohtml.jar:/usr/share/java/xercesImpl.jar

[ -f "$MANIFEST" ] || { echo "run_peers.sh: no manifest $MANIFEST" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "run_peers.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
for t in $TOOLS; do
  case " $ALL_TOOLS " in *" $t "*) ;; *) echo "run_peers.sh: unknown tool $t" >&2; exit 2 ;; esac
done

BASE=$(cd "$(dirname "$MANIFEST")" && pwd)
mkdir -p "$OUTROOT"
OUTROOT=$(cd "$OUTROOT" && pwd)
LIST="$OUTROOT/pages.tsv"
# INPUT_PATH<TAB>OUTPUT_REL for every page with gold.
awk -F'\t' -v base="$BASE" -v all="${PEERS_ALL:-0}" '
  NR == 1 { if ($2 != "page" || $4 != "gold") { print "bad manifest header" > "/dev/stderr"; exit 3 } next }
  $4 != "" || all == 1 {
    rel = $2; sub(/^pages\//, "", rel); sub(/\.[Hh][Tt][Mm][Ll]?$/, "", rel)
    print base "/" $2 "\t" rel ".txt"
  }' "$MANIFEST" > "$LIST"
echo "run_peers.sh: $(wc -l < "$LIST") pages$([ "${PEERS_ALL:-0}" = 1 ] || echo " with gold") from $MANIFEST" >&2

for tool in $TOOLS; do
  out="$OUTROOT/$tool"
  mkdir -p "$out"
  find "$out" -type f -name '*.txt' -delete
  rm -f "$out/timing.json" "$out/harness.json" "$out/time-v.log" "$out/stderr.log"
  case $tool in
    boilerpipe-*)
      "$HERE/build_java.sh"
      # shellcheck disable=SC2206
      cmd=(java $JAVA_OPTS -cp "$JARS:$CACHE_DIR/java" BoilerpipeRun "${tool#boilerpipe-}" "$LIST" "$out")
      version="boilerpipe $(dpkg-query -W -f='${Version}' libboilerpipe-java), nekohtml $(dpkg-query -W -f='${Version}' libnekohtml-java), $(java -version 2>&1 | head -1)"
      ;;
    readability-lxml)
      cmd=("$PY" "$HERE/readability_lxml_run.py" "$LIST" "$out")
      version="python3-readability $(dpkg-query -W -f='${Version}' python3-readability), python3-lxml $(dpkg-query -W -f='${Version}' python3-lxml), $("$PY" --version 2>&1)"
      ;;
    mozilla-readability)
      cmd=(node "$HERE/mozilla_readability_run.mjs" "$LIST" "$out")
      version="@mozilla/readability $(node -p "require('$NODE_DIR/node_modules/@mozilla/readability/package.json').version"), linkedom $(node -p "require('$NODE_DIR/node_modules/linkedom/package.json').version"), node $(node --version)"
      ;;
  esac
  echo "run_peers.sh: $tool ..." >&2
  set +e
  /usr/bin/time -v -o "$out/time-v.log" timeout "$TIMEOUT" "${cmd[@]}" > "$out/harness.json" 2> "$out/stderr.log"
  rc=$?
  set -e
  "$PY" "$HERE/finish_run.py" --tool "$tool" --version "$version" --manifest "$MANIFEST" \
    --list "$LIST" --outdir "$out" --exit-status "$rc" --timeout "$TIMEOUT"
done
