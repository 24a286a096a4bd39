#!/usr/bin/env bash
# dereth_bench_render --pictures DIR writes both pictures into DIR, creating
# DIR (and its parents) when it does not exist yet. A short run: one round,
# two demo ticks, one frame of each scene, 64x64.
# Usage: bench_pictures.sh BENCH PNG_CHECK SCRATCH_DIR
# Exit 77 (skipped) when this machine has no headless GL, unless
# DERETH_REQUIRE_GL=1.
set -euo pipefail
bench=$1 check=$2 scratch=$3
rm -rf "$scratch"
dir="$scratch/not/yet/there"
if ! "$bench" --rounds 1 --demo-ticks 2 --frames 1 --size 64x64 --pictures "$dir" >"$scratch.out" 2>&1; then
  cat "$scratch.out"
  if grep -q "no headless demo" "$scratch.out" && [ "${DERETH_REQUIRE_GL:-0}" != 1 ]; then exit 77; fi
  exit 1
fi
for name in bench_demo.png bench_dense.png; do
  "$check" "$dir/$name" 64 64 2
done
