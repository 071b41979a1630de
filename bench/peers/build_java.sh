#!/bin/bash
# Compile BoilerpipeRun.java into the git-ignored cache dir when the class is
# missing or older than the source. Prints nothing on success.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE_DIR=${PEERS_CACHE_DIR:-$HERE/.cache}
CP=/usr/share/java/boilerpipe.jar:/usr/share/java/nekohtml.jar:/usr/share/java/xercesImpl.jar
for j in $(echo "$CP" | tr : ' '); do
  [ -f "$j" ] || { echo "build_java.sh: missing $j (run bench/peers/install.sh)" >&2; exit 1; }
done
cls="$CACHE_DIR/java/BoilerpipeRun.class"
if [ ! -f "$cls" ] || [ "$HERE/BoilerpipeRun.java" -nt "$cls" ]; then
  mkdir -p "$CACHE_DIR/java"
  javac -Xlint:all -Werror -cp "$CP" -d "$CACHE_DIR/java" "$HERE/BoilerpipeRun.java"
fi
