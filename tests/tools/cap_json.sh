#!/usr/bin/env bash
# dereth-cap --json over example.pcap decodes what dereth decodes anywhere:
# its 313 F7E0 ServerMessages (spell text) as fields, and leaves undecoded
# only the messages dereth reads nowhere (property updates, appraisals,
# inventory moves: 355 of 2,088; the enchantment events and the player's
# stat updates are written as fields).
set -euo pipefail
cap=$1 example=$2
out=$("$cap" --json "$example" 2>/dev/null)
chat=$(grep -c '"opcode":"0x0000F7E0","name":"ServerMessage","text":"' <<<"$out" || true)
undecoded=$(grep -c '"undecoded":true' <<<"$out" || true)
echo "ServerMessage decoded: $chat; undecoded: $undecoded"
[ "$chat" -eq 313 ] || { echo "expected the 313 ServerMessages as fields"; exit 1; }
[ "$undecoded" -eq 355 ] || { echo "expected 355 undecoded records"; exit 1; }
# Nothing dereth decodes is left undecoded: no F7E0, and no game event or
# action of a type dereth reads (0x13 PlayerDescription, chat, combat, movement,
# health, enchantments), and no private stat update.
if grep '"undecoded":true' <<<"$out" | grep -Eq '"opcode":"0x0000F7E0"|"(event|action)_type":"0x0000(0013|02BD|0147|028A|028B|02EB|0004|01A7|01B8|0248|F61C|F753|F61B|F752|F7C9|F61E|F661|0015|005D|01DF|01E1|0008|000A|01B7|0053|00A1|01C0|01C7|02C2|02C3|02C4|02C5|02C6|02C7|02C8|0312)"|"opcode":"0x000002(CD|DD|DF|E1|E3|E5|E7|E9)"'; then
  echo "a message dereth decodes was left undecoded"; exit 1
fi
grep -q 'summary: .*decode_errors=0$' <<<"$out" || { echo "decode errors"; exit 1; }
