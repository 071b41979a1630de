#!/bin/sh
# Install the peer extractors for bench/peers (NOT part of CI). Idempotent.
# Needs root (apt-get) and network access to the Debian and npm registries.
#
#   boilerpipe 1.2.0   Debian libboilerpipe-java (+ libnekohtml-java, libxerces2-java)
#   readability-lxml   Debian python3-readability (for /usr/bin/python3)
#   Mozilla Readability npm @mozilla/readability + linkedom -> bench/peers/.node/
#   /usr/bin/time      Debian time (wall clock and peak RSS of each run)
#
# Peer code only lands in system paths and the git-ignored .node/ and .cache/
# directories; nothing here is ever committed.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
NODE_DIR=${PEERS_NODE_DIR:-$HERE/.node}
# linkedom 0.18.15 (latest when this was written) depends on "cssomnom",
# which the npm registry answers with 404; 0.18.13 is the newest release
# whose dependency tree installs.
READABILITY_VERSION=0.6.0
LINKEDOM_VERSION=0.18.13

DEBS="libboilerpipe-java libnekohtml-java libxerces2-java python3-readability python3-lxml time"
missing=""
for p in $DEBS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
command -v javac >/dev/null 2>&1 || missing="$missing default-jdk-headless"
# nodejs from NodeSource ships npm itself; Debian's npm package would conflict.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
  echo "install.sh: apt-get install$missing"
  apt-get update -qq
  # shellcheck disable=SC2086 # word splitting of the package list is intended
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

# Mozilla Readability + linkedom, pinned, into the git-ignored NODE_DIR.
mkdir -p "$NODE_DIR"
have() { # have PKG VERSION: is exactly that version installed in NODE_DIR?
  node -e 'const p=require(process.argv[1]); process.exit(p.version===process.argv[2]?0:1)' \
    "$NODE_DIR/node_modules/$1/package.json" "$2" 2>/dev/null
}
if ! have @mozilla/readability "$READABILITY_VERSION" || ! have linkedom "$LINKEDOM_VERSION"; then
  cat > "$NODE_DIR/package.json" <<EOF
{
  "name": "tbk-bench-peers",
  "private": true,
  "description": "peer extractors for bench/peers (installed by install.sh, never committed)",
  "dependencies": {
    "@mozilla/readability": "$READABILITY_VERSION",
    "linkedom": "$LINKEDOM_VERSION"
  }
}
EOF
  (cd "$NODE_DIR" && npm install --no-audit --no-fund --omit=dev)
fi

# The Java harness is compiled here, never committed as a .class.
"$HERE/build_java.sh"

# Smoke test on a page written here (not third-party): every peer must run
# and find the article paragraph.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  printf '%s' '<html><head><meta charset="iso-8859-1"><title>Smoke</title></head><body>
<div id="nav"><a href="/">Home</a> | <a href="/about">About</a></div>
<div class="post"><h1>Smoke test</h1>
<p>The caf'
  printf '\351'   # e-acute in ISO-8859-1: checks the charset sniffing
  printf '%s' ' smoke test paragraph is long enough to count as article text for
every extractor under test, with several sentences of ordinary prose in it. It
talks about nothing in particular, but it does so at length, so that text density
and word count heuristics treat it as the main content of this little page.</p>
<p>A second paragraph follows, again with plenty of words, because readability
scores paragraphs by their length and by the commas they contain, and boilerpipe
looks at the number of words per block and the link density of each block.</p>
</div><div id="footer">Copyright nobody</div></body></html>'
} > "$tmp/smoke.html"
mkdir -p "$tmp/m"
printf 'site\tpage\turl\tgold\nsmoke\tsmoke.html\t\tsmoke.gold\n' > "$tmp/m/manifest.tsv"
cp "$tmp/smoke.html" "$tmp/m/smoke.html"
printf 'Smoke test\n' > "$tmp/m/smoke.gold"
"$HERE/run_peers.sh" "$tmp/m/manifest.tsv" "$tmp/out" >/dev/null
ok=1
for tool in boilerpipe-article boilerpipe-default readability-lxml mozilla-readability; do
  f="$tmp/out/$tool/smoke.txt"
  if grep -q "$(printf 'caf\303\251 smoke test paragraph')" "$f" 2>/dev/null; then
    echo "install.sh: $tool OK"
  else
    echo "install.sh: $tool FAILED the smoke test (output: $f)" >&2
    ok=0
  fi
done
[ "$ok" = 1 ] || exit 1
echo "install.sh: all peers installed"
