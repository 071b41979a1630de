#!/usr/bin/env bash
# debian-docs.sh [OUT_DIR] [MAX_PAGES_PER_SITE]
#
# Builds a multi-site crawl sample from Debian documentation packages: each
# package is one "site" whose pages share a generator's template (Sphinx,
# DocBook, gtk-doc, Doxygen/BoostBook, qdoc, javadoc, RDoc, asciidoc, ...).
# Packages are fetched with `apt-get download` into a temporary directory,
# unpacked with `dpkg-deb -x`, and up to MAX_PAGES_PER_SITE (default 300)
# *.html / *.htm pages (gzipped ones are gunzipped) are copied per package,
# chosen deterministically: sorted paths, evenly spaced sample.
#
# OUT_DIR (default <script dir>/cache/debian_docs, ignored by git) gets the
# layout of the shared datasets: manifest.tsv (site page url gold), pages/
# <site>/<id>.html, README.md (package versions, counts), upstream/<pkg>.
# copyright. The old OUT_DIR is replaced only when the build succeeded.
#
# Env: TBK_DEBDOCS_PACKAGES  space-separated package list (overrides default)
#      TBK_DEBDOCS_MIN       skip packages with fewer HTML pages (default 50)
# Exit codes: 0 sample built; 1 download/unpack failed or no package usable;
#             2 usage error; 77 apt-get/dpkg-deb missing (not a Debian system)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ $# -gt 2 || ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  [[ ${1:-} == -h || ${1:-} == --help ]] && exit 0 || exit 2
fi
out=${1:-$here/cache/debian_docs}
max=${2:-300}
min=${TBK_DEBDOCS_MIN:-50}
if ! [[ $max =~ ^[1-9][0-9]*$ && $min =~ ^[0-9]+$ ]]; then
  echo "error: MAX_PAGES_PER_SITE and TBK_DEBDOCS_MIN must be positive integers" >&2
  exit 2
fi
for tool in apt-get apt-cache dpkg-deb gzip; do
  if ! command -v "$tool" >/dev/null; then
    echo "$tool not found; debian-docs.sh needs a Debian system"
    exit 77
  fi
done

# Debian 12 packages with many HTML pages, chosen for template variety.
# (ruby3.1-doc, tcl8.6-doc and debian-reference-en were tried: < 50 pages.)
default_packages="python3.11-doc postgresql-doc-15 python-django-doc cmake-doc
libboost1.74-doc libglib2.0-doc libgtk-3-doc qt5-doc-html openjdk-17-doc
sqlite3-doc git-doc apache2-doc sphinx-doc postfix-doc python-sqlalchemy-doc
libxml2-doc"
read -r -a packages <<< "$(tr -s '[:space:]' ' ' <<< "${TBK_DEBDOCS_PACKAGES:-$default_packages}")"

available() { apt-cache show "$1" >/dev/null 2>&1; }
usable=()
for p in "${packages[@]}"; do available "$p" && usable+=("$p"); done
if [[ ${#usable[@]} -eq 0 && $(id -u) -eq 0 ]]; then
  echo "apt lists know none of the packages; running apt-get update"
  apt-get update -qq
  for p in "${packages[@]}"; do available "$p" && usable+=("$p"); done
fi
for p in "${packages[@]}"; do
  [[ " ${usable[*]} " == *" $p "* ]] || echo "skip     $p (not known to apt)"
done
if [[ ${#usable[@]} -eq 0 ]]; then
  echo "error: none of the packages is available" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tbk-debdocs.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/deb" "$work/new/pages" "$work/new/upstream"
echo "download ${#usable[@]} packages into $work/deb"
# apt-get download writes into the current directory; as root it warns that
# the _apt sandbox user cannot write there, which is harmless.
if ! (cd "$work/deb" && apt-get download -q "${usable[@]}") > "$work/download.log" 2>&1; then
  grep -v '^W: Download is performed unsandboxed' "$work/download.log" >&2 || true
  echo "error: apt-get download failed" >&2
  exit 1
fi
grep -v '^W: Download is performed unsandboxed' "$work/download.log" || true

rows="$work/rows.tsv"
: > "$rows"
summary="$work/summary.tsv"
: > "$summary"
for p in "${usable[@]}"; do
  deb=$(find "$work/deb" -maxdepth 1 -name "${p}_*.deb" | head -n1)
  if [[ -z $deb ]]; then
    echo "error: apt-get download did not produce $p" >&2
    exit 1
  fi
  version=$(dpkg-deb -f "$deb" Version)
  tree="$work/x/$p"
  mkdir -p "$tree"
  dpkg-deb -x "$deb" "$tree"
  # Real files only: doc packages symlink the same HTML tree into several
  # places, and symlinks would duplicate pages. A page shipped both plain and
  # gzipped counts once (the plain one).
  (cd "$tree" && find . -type f \( -name '*.html' -o -name '*.htm' \
      -o -name '*.html.gz' -o -name '*.htm.gz' \) -printf '%P\n') \
    | LC_ALL=C sort \
    | awk '{ seen[$0] = 1; line[NR] = $0 }
           END { for (i = 1; i <= NR; i++) {
                   l = line[i]
                   if (l ~ /\.gz$/ && (substr(l, 1, length(l) - 3) in seen)) continue
                   print l } }' > "$work/all.txt"
  total=$(wc -l < "$work/all.txt")
  if [[ $total -lt $min ]]; then
    echo "skip     $p $version ($total HTML pages < $min)"
    rm -rf "$tree" "$deb"
    continue
  fi
  # Evenly spaced sample: indices floor(i * n / k), i = 0..k-1 (distinct
  # because n > k), so the sample spreads over the whole sorted tree.
  awk -v n="$total" -v k="$max" 'BEGIN { if (k > n) k = n
         for (i = 0; i < k; i++) pick[int(i * n / k) + 1] = 1 }
       (NR in pick)' "$work/all.txt" > "$work/pick.txt"
  mkdir -p "$work/new/pages/$p"
  declare -A used=()
  count=0
  while IFS= read -r rel; do
    base=${rel#usr/share/doc/}
    base=${base#usr/share/}
    base=${base%.gz}
    base=${base%.html}
    base=${base%.htm}
    id=${base//\//__}
    id=$(printf '%s' "$id" | LC_ALL=C sed 's/[^A-Za-z0-9._-]/_/g')
    [[ -n ${used[$id]:-} ]] && id="${id}~$count"
    used[$id]=1
    dest="$work/new/pages/$p/$id.html"
    if [[ $rel == *.gz ]]; then
      gzip -dc "$tree/$rel" > "$dest"
    else
      cp "$tree/$rel" "$dest"
    fi
    url="file:///${rel%.gz}"
    printf '%s\t%s\t%s\t\n' "$p" "pages/$p/$id.html" "$url" >> "$rows"
    count=$((count + 1))
  done < "$work/pick.txt"
  unset used
  if [[ -f $tree/usr/share/doc/$p/copyright ]]; then
    cp "$tree/usr/share/doc/$p/copyright" "$work/new/upstream/$p.copyright"
  fi
  bytes=$(du -sb "$work/new/pages/$p" | cut -f1)
  printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$version" "$total" "$count" "$bytes" >> "$summary"
  echo "site     $p $version: $count of $total HTML pages, $((bytes / 1024)) KiB"
  rm -rf "$tree" "$deb"
done

if [[ ! -s $rows ]]; then
  echo "error: no package had >= $min HTML pages" >&2
  exit 1
fi
{
  printf 'site\tpage\turl\tgold\n'
  LC_ALL=C sort -t $'\t' -k1,1 -k2,2 "$rows"
} > "$work/new/manifest.tsv"

npages=$(($(wc -l < "$work/new/manifest.tsv") - 1))
nsites=$(wc -l < "$summary")
total_bytes=$(awk -F'\t' '{ s += $5 } END { print s }' "$summary")
mib=$(awk -v b="$total_bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
{
  echo "# debian_docs: documentation packages of Debian as a multi-site crawl"
  echo
  echo "Built by \`datasets/debian-docs.sh\` on $(date -u +%Y-%m-%d) from $(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release)."
  echo "Each Debian documentation package is one site (site key = package name); pages of a"
  echo "package share the template of the tool that generated them. Up to $max pages per site,"
  echo "chosen deterministically (sorted paths, evenly spaced). Gzipped pages were gunzipped;"
  echo "otherwise the bytes are exactly as shipped. \`url\` is the installed path (file:///usr/share/...)."
  echo "There is no gold text. The pages are third-party material under each package's license"
  echo "(see \`upstream/<package>.copyright\`): never commit them into the repository."
  echo
  echo "$nsites sites, $npages pages, $mib MiB."
  echo
  echo "| package (site) | version | HTML pages in package | pages sampled | KiB |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %d | %d | %d |\n", $1, $2, $3, $4, $5 / 1024 }' "$summary"
} > "$work/new/README.md"

mkdir -p "$(dirname "$out")"
rm -rf "$out"
mv "$work/new" "$out"
echo "done: $nsites sites, $npages pages, $mib MiB in $out"
