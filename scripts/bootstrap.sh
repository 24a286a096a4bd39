#!/usr/bin/env bash
# README command (1): install the Debian packages, build everything, run the
# embedded demo: a window where a display exists, otherwise headless to a PNG
# whose path dereth prints.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
echo "bootstrap: configuring (preset 'default', build/)"
cmake --preset default
echo "bootstrap: building"
cmake --build --preset default
echo "bootstrap: running the demo (build/bin/dereth)"
./build/bin/dereth
