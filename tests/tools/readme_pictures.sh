#!/usr/bin/env bash
# Runs scripts/readme-pictures.sh into a scratch folder and checks each
# picture: 1280x720 and not blank (many colours). Keeps the script from rotting.
# Usage: readme_pictures.sh BIN_DIR PNG_CHECK OUT_DIR
set -euo pipefail
bin=$1 check=$2 out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
bash "$root/scripts/readme-pictures.sh" --bin "$bin" --out "$out"
for name in demo.png demo-recall.png demo-dungeon.png; do
  "$check" "$out/$name" 1280 720 2000
done
