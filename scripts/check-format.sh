#!/usr/bin/env bash
# Checks that C++ sources match .clang-format (clang-format 14, Debian 12's).
# With no arguments: every tracked .cpp/.hpp/.h outside third_party/. With
# arguments: those files (a file named *.txt is checked as C++). Prints each
# file that differs and how to fix it; exits 1 if any does.
set -euo pipefail
cd "$(dirname "$0")/.."

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
  echo "check-format: $CLANG_FORMAT is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi

if [ $# -gt 0 ]; then
  files=("$@")
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' | grep -v '^third_party/')
else
  mapfile -t files < <(find src include tests tools \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) | sort)
fi

bad=0
for f in "${files[@]}"; do
  if ! "$CLANG_FORMAT" --style=file:.clang-format --assume-filename="${f%.txt}" --dry-run -Werror <"$f" >/dev/null 2>&1; then
    echo "check-format: $f is not clang-formatted (fix: clang-format -i $f)"
    bad=1
  fi
done
if [ "$bad" -eq 0 ]; then
  echo "check-format: ${#files[@]} files formatted"
fi
exit "$bad"
