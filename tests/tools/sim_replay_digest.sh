#!/usr/bin/env bash
# dereth-sim and dereth replay write byte-identical digests for one capture
# with their defaults: both simulate with the same DATs (the embedded demo
# world when none is configured), whether the replay is headless, takes
# pictures or has a window; and both without DATs with --no-dats.
set -euo pipefail
sim=$1 dereth=$2 capture=$3 out=$4
rm -rf "$out" && mkdir -p "$out"
export XDG_CONFIG_HOME="$out/config"  # no user config (dats_folder)
"$sim" "$capture" --quiet --digest "$out/sim.jsonl" >"$out/sim.log" 2>&1 || { cat "$out/sim.log"; exit 1; }
"$sim" "$capture" --quiet --no-dats --digest "$out/sim-no-dats.jsonl" >"$out/sim-no-dats.log" 2>&1 \
  || { cat "$out/sim-no-dats.log"; exit 1; }
same() {
  cmp -s "$1" "$2" || { echo "$3: the digests differ ($1, $2)"; diff <(head -c 2000 "$1") <(head -c 2000 "$2") | head; exit 1; }
}
"$dereth" replay --headless --fast "$capture" --digest "$out/headless.jsonl" >"$out/headless.log" 2>&1 \
  || { cat "$out/headless.log"; exit 1; }
same "$out/sim.jsonl" "$out/headless.jsonl" "dereth replay --headless --fast"
"$dereth" replay --headless --fast "$capture" --digest "$out/pictures.jsonl" --screenshot-every 100000 \
  --out "$out/shots" >"$out/pictures.log" 2>&1 || { cat "$out/pictures.log"; exit 1; }
same "$out/sim.jsonl" "$out/pictures.jsonl" "dereth replay --headless --fast --screenshot-every"
SDL_VIDEODRIVER=offscreen "$dereth" replay --fast "$capture" --digest "$out/window.jsonl" \
  --set window_width=320 --set window_height=200 >"$out/window.log" 2>&1 || { cat "$out/window.log"; exit 1; }
same "$out/sim.jsonl" "$out/window.jsonl" "dereth replay --fast in a window"
"$dereth" replay --headless --fast --no-dats "$capture" --digest "$out/no-dats.jsonl" >"$out/no-dats.log" 2>&1 \
  || { cat "$out/no-dats.log"; exit 1; }
same "$out/sim-no-dats.jsonl" "$out/no-dats.jsonl" "--no-dats"
# The DATs matter for this recording: with and without them the digests differ.
if cmp -s "$out/sim.jsonl" "$out/sim-no-dats.jsonl"; then echo "the DATs changed nothing: a weak test"; exit 1; fi
echo "dereth-sim and dereth replay (headless, with pictures, in a window, --no-dats): identical digests"
