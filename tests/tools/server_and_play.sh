#!/usr/bin/env bash
# dereth-server serves the demo on a free port pair; dereth play logs in with
# the account it prints, stays 30 ticks headless, and logs off; the server
# logged the login and stops by itself.
set -euo pipefail
server=$1 dereth=$2 out=$3
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
  --headless --ticks 30 --no-record >"$out/play.log" 2>&1 || { cat "$out/play.log"; exit 1; }
grep -q "in the world on 127.0.0.1:$port" "$out/play.log" || { cat "$out/play.log"; exit 1; }
for _ in $(seq 50); do grep -q "login 1: account \"$account\" from 127.0.0.1:" "$out/server.log" && break; sleep 0.1; done
grep -q "login 1: account \"$account\" from 127.0.0.1:" "$out/server.log" || { cat "$out/server.log"; exit 1; }
kill -INT $pid
wait $pid
grep -q "stopped after 1 login" "$out/server.log" || { cat "$out/server.log"; exit 1; }
rm -f "$out/pw"
echo "dereth-server and dereth play: ok"
