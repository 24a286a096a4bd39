#!/usr/bin/env bash
# The test programs write scratch files only through dereth::test::TempDir
# (tests/support/temp_dir.hpp: a mkdtemp folder per use). A fixed name under
# the temp folder races when several builds run the suite at once (one run
# removes or overwrites another's files). Fails naming every line that
# builds a temp path by hand.
# Usage: no_fixed_temp_paths.sh [ROOT]
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
hits=$(grep -rnE 'temp_directory_path|"/tmp|P_tmpdir|tmpnam' "$root/tests" --include='*.cpp' --include='*.hpp' \
  | grep -v "^$root/tests/support/temp_dir\(_test\)\{0,1\}\.\(cpp\|hpp\):" || true)
if [ -n "$hits" ]; then
  echo "tests build temp paths by hand (use dereth::test::TempDir, tests/support/temp_dir.hpp):"
  echo "${hits//$root\//}"
  exit 1
fi
echo "no fixed temp paths in tests/"
