#!/usr/bin/env bash
# Checks that every tracked C file is as .clang-format would write it.
# Generated files (core/page/html_tables.c: its generator's layout) are
# left out. Exit 0: clean, or clang-format missing (skipped, with a message);
# 1: the files clang-format would change are listed (fix: clang-format -i).
# The config is written for clang-format 14; another version may format
# some constructs otherwise, so a version other than 14 is named in a note.
set -uo pipefail
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null; then
  echo "format_check: $cf not found: skipped"
  exit 0
fi
version=$("$cf" --version)
case $version in
  *" version 14."*) ;;
  *) echo "format_check: note: .clang-format is tuned for clang-format 14; this is: $version" ;;
esac
bad=()
while IFS= read -r f; do
  "$cf" --style=file --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files '*.c' '*.h' | grep -v '^core/page/html_tables\.c$')
if [ ${#bad[@]} -gt 0 ]; then
  echo "format_check: ${#bad[@]} file(s) differ from .clang-format (clang-format -i FILE... to fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format_check: every C file matches .clang-format"
