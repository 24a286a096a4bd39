#!/usr/bin/env bash
# A capture cut inside a record: dereth-cap, dereth-sim and dereth replay
# each refuse it in one sentence naming the file and the byte offset (exit 1),
# and with --allow-truncated replay what came before and say how much.
set -euo pipefail
cap=$1 sim=$2 dereth=$3 example=$4 out=$5
rm -rf "$out" && mkdir -p "$out"
cut="$out/cut.pcap"
head -c 40000 "$example" >"$cut"
check_refused() {  # tool-name, then the command
  local name=$1; shift
  if "$@" >"$out/$name.out" 2>"$out/$name.err"; then echo "$name accepted a cut capture"; exit 1; fi
  [ "$(wc -l <"$out/$name.err")" -eq 1 ] || { echo "$name said more than one line:"; cat "$out/$name.err"; exit 1; }
  grep -q "$cut at offset [0-9]*: truncated (the capture is damaged after record [0-9]*: .*--allow-truncated replays the [0-9]* records ([0-9]* bytes) before it)" "$out/$name.err" \
    || { echo "$name:"; cat "$out/$name.err"; exit 1; }
}
check_refused dereth-cap "$cap" "$cut"
check_refused dereth-sim "$sim" --quiet "$cut"
check_refused replay "$dereth" replay --headless --fast "$cut"
"$cap" --allow-truncated "$cut" >"$out/cap2.out" 2>"$out/cap2.err"
grep -q "^summary: packets=[1-9]" "$out/cap2.out" || { cat "$out/cap2.out" "$out/cap2.err"; exit 1; }
grep -q "read [0-9]* records ([0-9]* bytes) before the damage" "$out/cap2.err" || { cat "$out/cap2.err"; exit 1; }
"$sim" --allow-truncated "$cut" >"$out/sim2.out" 2>"$out/sim2.err"
grep -q "^summary: input=capture messages=[1-9]" "$out/sim2.out" || { cat "$out/sim2.out" "$out/sim2.err"; exit 1; }
grep -q "before the damage" "$out/sim2.err" || { cat "$out/sim2.err"; exit 1; }
"$dereth" replay --headless --fast --allow-truncated "$cut" >"$out/replay2.out" 2>"$out/replay2.err"
grep -q "^replay: messages=[1-9]" "$out/replay2.out" || { cat "$out/replay2.out" "$out/replay2.err"; exit 1; }
grep -q "before the damage" "$out/replay2.out" || { cat "$out/replay2.out"; exit 1; }
echo "truncated capture: refused by all three tools, replayed up to the damage when allowed"
