#!/usr/bin/env bash
# README command (1): install the Debian packages, build everything, run dereth.
# Until the embedded demo exists, "run" is `dereth --version`.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
echo "bootstrap: configuring (preset 'default', build/)"
cmake --preset default
echo "bootstrap: building"
cmake --build --preset default
echo "bootstrap: running build/bin/dereth --version"
./build/bin/dereth --version
echo "bootstrap: done. The embedded demo is not built yet; build/bin/dereth-msg decodes messages today."
