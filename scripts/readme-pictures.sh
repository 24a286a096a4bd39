#!/usr/bin/env bash
# The README's pictures are program output, not hand-made screenshots: the
# headless demo (Mesa's software OpenGL where no GPU is found) at fixed
# physics ticks, under an empty config, so every run writes the same frames.
#
#   scripts/readme-pictures.sh            write docs/images/demo.png, demo-recall.png and demo-dungeon.png
#   --bin DIR                             the executables (default build/bin); builds nothing
#   --out DIR                             where the PNGs go (default docs/images)
#
# demo.png: tick 264 (8.8 s, 2.1 s into the timeline, which starts with the
# LoginComplete at the end of world entry's portal space, tick 202): the
# demo camera's first view, close behind the player looking across the near
# bolt lane: the Flame Bolt cast at 1 s has just exploded by the NPC it hit
# (left), and that NPC's answer, the Frost Bolt cast at 1.8 s, flies off to
# the right with its trail.
# demo-recall.png: tick 1040 (34.7 s): the player, recalled to its spot
# north-east of the lanes, fades in after its portal-space animation
# (PS_UnHide), facing the NPCs' exchange.
# demo-dungeon.png: tick 1747 (58.2 s, 51.5 s into the timeline): the
# dungeon trip, the player running east through the corridor toward the
# great hall and its exit portal, glowing violet between its stone posts
# (docs/scenario.md, "The demo scenario").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/build/bin"
out="$root/docs/images"
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$(cd "$2" && pwd); shift ;;
    --out) mkdir -p "$2"; out=$(cd "$2" && pwd); shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "readme-pictures: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
dereth="$bin/dereth"
[ -x "$dereth" ] || { echo "readme-pictures: no $dereth (build the dereth target first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/empty.conf"  # no user settings (DAT folder, window size) leak into the pictures
picture() {  # picture TICKS NAME
  "$dereth" --config "$work/empty.conf" --log-level error demo --headless --ticks "$1" --size 1280x720 \
    --screenshot "$work/$2" >/dev/null
  mv "$work/$2" "$out/$2"
  echo "readme-pictures: $out/$2 (tick $1)"
}
picture 264 demo.png
picture 1040 demo-recall.png
picture 1747 demo-dungeon.png
