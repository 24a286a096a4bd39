#!/usr/bin/env bash
# README command (2), and what CI runs (.ci/run): install the Debian packages
# if missing, build, and run the whole ctest suite.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
ctest --preset default "$@"
