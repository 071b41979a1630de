#!/usr/bin/env bash
# Install tbk's build dependencies (Debian 12 packages) and build it into
# ./build. Safe to run again: apt and cmake skip what is already done.
#   ./setup.sh [BUILD_TYPE]     BUILD_TYPE: Release (default), Debug, Asan, Ubsan
set -euo pipefail
cd "$(dirname "$0")"
type=${1:-Release}
build=build
[ "$type" = Release ] || build="build-$(echo "$type" | tr '[:upper:]' '[:lower:]')"

pkgs=(build-essential cmake pkg-config libxml2-dev liblinear-dev libssl-dev
      libpcre2-dev zlib1g-dev libpsl-dev libuchardet-dev libsqlite3-dev publicsuffix python3 python3-venv xz-utils groff-base
      locales)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "setup.sh: installing ${missing[*]}" >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE="$type" -DTBK_WERROR=ON >&2
cmake --build "$build" -j"$(nproc)" >&2
echo "setup.sh: built into $build/" >&2
