#!/usr/bin/env bash
# unpack.sh [SHARED_DIR] [CACHE_DIR]
#
# Unpacks every SHARED_DIR/*.tar.xz (third-party page archives) into
# CACHE_DIR, which is outside git (datasets/cache/ is ignored). An archive is
# skipped when its stamp (size + mtime of the archive) matches the one written
# by the last successful unpack, so re-running is cheap.
#
# Defaults: SHARED_DIR = <script dir>/../../shared/datasets
#           CACHE_DIR  = <script dir>/cache
# Exit codes: 0 all archives present and unpacked (or already up to date)
#             1 an archive failed to unpack (partial output is removed)
#             2 usage error
#             77 SHARED_DIR does not exist (nothing to unpack; tests skip)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ $# -gt 2 || ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  [[ ${1:-} == -h || ${1:-} == --help ]] && exit 0 || exit 2
fi
shared=${1:-$here/../../shared/datasets}
cache=${2:-$here/cache}

if [[ ! -d $shared ]]; then
  echo "shared datasets not found at $shared; nothing to unpack"
  exit 77
fi

shopt -s nullglob
archives=("$shared"/*.tar.xz)
if [[ ${#archives[@]} -eq 0 ]]; then
  echo "no *.tar.xz archives in $shared; nothing to unpack"
  exit 0
fi

mkdir -p "$cache/.stamps"
cache=$(cd "$cache" && pwd)
unpacked=0 skipped=0
for a in "${archives[@]}"; do
  name=$(basename "$a" .tar.xz)
  stamp_file="$cache/.stamps/$name.stamp"
  want="$(stat -c '%s %Y' "$a")"
  # The stamp holds "size mtime" on line 1, then the top-level entries the
  # archive created, so a deleted output directory forces a re-unpack.
  if [[ -f $stamp_file && "$(head -n1 "$stamp_file")" == "$want" ]]; then
    complete=1
    while IFS= read -r entry; do
      [[ -e $cache/$entry ]] || complete=0
    done < <(tail -n +2 "$stamp_file")
    if [[ $complete -eq 1 ]]; then
      echo "skip     $name (already unpacked, archive unchanged)"
      skipped=$((skipped + 1))
      continue
    fi
  fi
  # Unpack beside the target first so an interrupted run never leaves a
  # half-written dataset where tools would read it.
  tmp=$(mktemp -d "$cache/.unpack-$name.XXXXXX")
  echo "unpack   $name.tar.xz -> $cache/"
  if ! tar -xJf "$a" -C "$tmp"; then
    rm -rf "$tmp"
    echo "error: failed to unpack $a" >&2
    exit 1
  fi
  rm -f "$stamp_file"
  entries=()
  for e in "$tmp"/* "$tmp"/.[!.]*; do
    base=$(basename "$e")
    rm -rf "${cache:?}/$base"
    mv "$e" "$cache/$base"
    entries+=("$base")
  done
  rmdir "$tmp"
  { echo "$want"; printf '%s\n' "${entries[@]}"; } > "$stamp_file"
  unpacked=$((unpacked + 1))
done
echo "done: $unpacked unpacked, $skipped already up to date, in $cache"
