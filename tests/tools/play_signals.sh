#!/usr/bin/env bash
# Ctrl-C (SIGINT) and SIGTERM in a headless `dereth play` log off: dereth
# sends CharacterLogOff (dereth-server says the character logged off), writes
# its report line and the trace, and exits 0; a second signal while it logs
# off is never needed. Each signal goes to a child dereth in the world.
set -euo pipefail
server=$1 dereth=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
"$server" --port 0 --seconds 40 >"$out/server.log" 2>&1 &
pid=$!
child=
trap 'kill $pid 2>/dev/null || true; [ -z "$child" ] || kill -KILL $child 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "log in with" "$out/server.log" && break; sleep 0.1; done
port=$(sed -n 's/.*serving .* on 127\.0\.0\.1:\([0-9]*\) and.*/\1/p' "$out/server.log")
account=$(sed -n 's/.*account "\([^"]*\)", password.*/\1/p' "$out/server.log")
password=$(sed -n 's/.*password "\([^"]*\)".*/\1/p' "$out/server.log")
[ -n "$port" ] && [ -n "$account" ] || { echo "no port/account in:"; cat "$out/server.log"; exit 1; }
printf '%s\n' "$password" >"$out/pw"

login=0
for signal in INT TERM; do
  login=$((login + 1))
  # Far more ticks than the test waits: only the signal ends this run. A
  # script's background job starts with SIGINT ignored, as dereth keeps it
  # then: env gives it the default disposition a terminal's program has.
  env --default-signal=INT "$dereth" play --server "127.0.0.1:$port" --account "$account" --password-file "$out/pw" \
    --headless --ticks 100000 --no-record --trace "$out/$signal.jsonl" \
    >"$out/$signal.out" 2>"$out/$signal.err" &
  child=$!
  for _ in $(seq 100); do grep -q "in the world on" "$out/$signal.out" && break; sleep 0.1; done
  grep -q "in the world on" "$out/$signal.out" || { echo "never entered:"; cat "$out/$signal.out" "$out/$signal.err"; exit 1; }
  sleep 1  # some ticks in the world
  kill -s "$signal" "$child"
  rc=0
  wait "$child" || rc=$?
  child=
  [ "$rc" -eq 0 ] || { echo "SIG$signal: exit $rc, expected 0"; cat "$out/$signal.out" "$out/$signal.err"; exit 1; }
  # The report: the run's line and the network's, as after --ticks.
  grep -Eq "^play: messages=[1-9][0-9]* .*ticks=[1-9][0-9]* " "$out/$signal.out" || { echo "no report:"; cat "$out/$signal.out"; exit 1; }
  grep -q "^network: packets_in=" "$out/$signal.out" || { echo "no network line:"; cat "$out/$signal.out"; exit 1; }
  name=$([ "$signal" = INT ] && echo "Ctrl-C" || echo "SIGTERM")
  grep -qx "dereth: $name: logged off" "$out/$signal.err" || { echo "no logoff sentence:"; cat "$out/$signal.err"; exit 1; }
  # The trace was written to its end (its last line is whole).
  [ -s "$out/$signal.jsonl" ] && tail -c 1 "$out/$signal.jsonl" | od -An -c | grep -q '\\n' || { echo "trace cut short"; exit 1; }
  # The server saw the CharacterLogOff.
  for _ in $(seq 50); do grep -q "login $login: the character logged off" "$out/server.log" && break; sleep 0.1; done
  grep -q "login $login: the character logged off" "$out/server.log" || { echo "SIG$signal: no logoff at the server:"; cat "$out/server.log"; exit 1; }
done
kill -INT $pid
wait $pid
rm -f "$out/pw"
echo "SIGINT and SIGTERM: dereth play logged off, reported and exited 0: ok"
