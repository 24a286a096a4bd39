#!/usr/bin/env bash
# dereth-server serves the sandbox on a free port pair; dereth play logs in with
# the account it prints, stays 30 ticks headless recording the session, and
# logs off after saying a line; the server logged the login and the line and
# stops on Ctrl-C. The recording
# (on that random port) replays through dereth-cap, dereth-sim and dereth
# replay, all finding the AC traffic by the protocol.
set -euo pipefail
server=$1 dereth=$2 out=$3 cap=$4 sim=$5
rm -rf "$out" && mkdir -p "$out"
"$server" --port 0 --seconds 20 >"$out/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "log in with" "$out/server.log" && break; sleep 0.1; done
port=$(sed -n 's/.*serving .* on 127\.0\.0\.1:\([0-9]*\) and.*/\1/p' "$out/server.log")
account=$(sed -n 's/.*account "\([^"]*\)", password.*/\1/p' "$out/server.log")
password=$(sed -n 's/.*password "\([^"]*\)".*/\1/p' "$out/server.log")
[ -n "$port" ] && [ -n "$account" ] || { echo "no port/account in:"; cat "$out/server.log"; exit 1; }
printf '%s\n' "$password" >"$out/pw"
"$dereth" play --server "127.0.0.1:$port" --account "$account" --password-file "$out/pw" \
  --headless --ticks 30 --record "$out/rec" --say "hello from the test" --at 0.2 \
  >"$out/play.log" 2>&1 || { cat "$out/play.log"; exit 1; }
grep -q "in the world on 127.0.0.1:$port" "$out/play.log" || { cat "$out/play.log"; exit 1; }
# Without a scenario it is the sandbox: the line said comes back as speech.
grep -q "chat: speech: Demo Player: hello from the test" "$out/play.log" || { cat "$out/play.log"; exit 1; }
for _ in $(seq 50); do grep -q "login 1: account \"$account\" from 127.0.0.1:" "$out/server.log" && break; sleep 0.1; done
grep -q "login 1: account \"$account\" from 127.0.0.1:" "$out/server.log" || { cat "$out/server.log"; exit 1; }
# The server heard what the player said.
for _ in $(seq 50); do grep -q "login 1 says (chat): hello from the test" "$out/server.log" && break; sleep 0.1; done
grep -q "login 1 says (chat): hello from the test" "$out/server.log" || { cat "$out/server.log"; exit 1; }
kill -INT $pid
wait $pid
grep -q "stopped after 1 login" "$out/server.log" || { cat "$out/server.log"; exit 1; }
rm -f "$out/pw"
rec=$(ls "$out"/rec/*.pcap)
[ "$(stat -c %a "$rec")" = 600 ] || { echo "recording mode $(stat -c %a "$rec")"; exit 1; }
# The demo's password is its account name, so look for the filler instead
# (tests/app/recording_test.cpp checks a distinct password byte for byte).
grep -q -a -F '****' "$rec" || { echo "no blanked password in the recording"; exit 1; }
"$cap" "$rec" >"$out/cap.log" 2>&1 || { cat "$out/cap.log"; exit 1; }
grep -q "encrypted checksums verified from the handshake seeds (0 failures)" "$out/cap.log" || { cat "$out/cap.log"; exit 1; }
grep -Eq "^summary: packets=[1-9][0-9]* .*framing_errors=0 decode_errors=0$" "$out/cap.log" || { cat "$out/cap.log"; exit 1; }
# --json decodes the player's own session: the line said (a Talk action), the
# PlayerDescription, the login; only the DDD handshake (read nowhere) is left.
"$cap" --json "$rec" >"$out/cap.jsonl" 2>/dev/null || { cat "$out/cap.jsonl"; exit 1; }
grep -q '"direction":"c2s",.*"fields":{"opcode":"0x0000F7B1","action_type":"0x00000015","name":"Talk","sequence":[0-9]*,"text":"hello from the test"}' "$out/cap.jsonl" \
  || { echo "the Talk action is not decoded:"; grep F7B1 "$out/cap.jsonl"; exit 1; }
grep -q '"name":"PlayerDescription","target":"0x5' "$out/cap.jsonl" || { echo "no PlayerDescription fields"; exit 1; }
undecoded=$(grep '"undecoded":true' "$out/cap.jsonl" | grep -Ev '"opcode":"0x0000F7E[56]"' || true)
[ -z "$undecoded" ] || { echo "undecoded:"; echo "$undecoded"; exit 1; }
"$sim" "$rec" --quiet >"$out/sim.log" 2>&1 || { cat "$out/sim.log"; exit 1; }
grep -Eq "^summary: input=capture messages=[1-9][0-9]* .*objects=[1-9]" "$out/sim.log" || { cat "$out/sim.log"; exit 1; }
"$dereth" replay --headless --fast "$rec" >"$out/replay.log" 2>&1 || { cat "$out/replay.log"; exit 1; }
grep -Eq "^replay: messages=[1-9][0-9]* .*objects=[1-9]" "$out/replay.log" || { cat "$out/replay.log"; exit 1; }
echo "dereth-server, dereth play and the recording through dereth-cap, dereth-sim and dereth replay: ok"
