#!/usr/bin/env bash
# A cut-short copy of the demo's client_portal.dat, a cut-short cell DAT and a
# file of garbage: every program that opens DATs at startup (dereth demo, play
# and replay, dereth-sim, dereth-server) says in one sentence which file and
# what is wrong, exits 1, and runs nothing (no picture, no login, no report).
set -uo pipefail
dereth=$1 dat_tool=$2 sim=$3 server=$4 capture=$5 out=$6
rm -rf "$out" && mkdir -p "$out"
"$dat_tool" make-demo "$out/good" >/dev/null 2>&1 || { echo "make-demo failed"; exit 1; }
portal_size=$(stat -c %s "$out/good/client_portal.dat")
cell_size=$(stat -c %s "$out/good/client_cell_1.dat")
mkdir -p "$out/cut" "$out/cut_cell" "$out/garbage"
head -c $((portal_size / 2)) "$out/good/client_portal.dat" >"$out/cut/client_portal.dat"
cp "$out/good/client_cell_1.dat" "$out/cut/"
cp "$out/good/client_portal.dat" "$out/cut_cell/"
head -c $((cell_size / 2)) "$out/good/client_cell_1.dat" >"$out/cut_cell/client_cell_1.dat"
head -c 70000 /dev/urandom >"$out/garbage/client_portal.dat"
printf 'secret\n' >"$out/pw"

failures=0
# expect NAME FOLDER FILE SENTENCE-RE -- COMMAND...: exit 1, the sentence on
# stderr once, nothing on stdout.
expect() {
  local name=$1 file=$2 sentence=$3
  shift 3
  local rc=0
  "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null || rc=$?
  local problem=
  [ "$rc" -eq 1 ] || problem="exit $rc, expected 1"
  [ -z "$problem" ] && [ "$(grep -c -E "$sentence" "$out/$name.err")" -eq 1 ] || problem=${problem:-"no sentence /$sentence/"}
  [ -z "$problem" ] && grep -q -F "$file" "$out/$name.err" || problem=${problem:-"the file $file is not named"}
  # One sentence: besides the progress line, nothing else on stderr.
  others=$(grep -v -E "$sentence|^dereth: (opening the DATs in|building the embedded)" "$out/$name.err" || true)
  [ -z "$problem" ] && [ -z "$others" ] || problem=${problem:-"more than one sentence"}
  [ -z "$problem" ] && [ ! -s "$out/$name.out" ] || problem=${problem:-"it ran: stdout is not empty"}
  if [ -n "$problem" ]; then
    echo "$name: $problem"
    echo "--- stderr"; cat "$out/$name.err"; echo "--- stdout"; cat "$out/$name.out"
    failures=$((failures + 1))
  fi
}

for case in cut cut_cell garbage; do
  case $case in
    cut) file="$out/cut/client_portal.dat" sentence="cut short: it is $((portal_size / 2)) bytes where its header says $portal_size; copy it again$" ;;
    cut_cell) file="$out/cut_cell/client_cell_1.dat" sentence="cut short: it is $((cell_size / 2)) bytes where its header says $cell_size; copy it again$" ;;
    garbage) file="$out/garbage/client_portal.dat" sentence="not an Asheron's Call DAT file: byte 320 holds 0x[0-9A-F]{8} where a DAT's header has 0x00005442$" ;;
  esac
  dats="$out/$case"
  expect "demo-$case" "$file" "^dereth: cannot open the DATs: $file: $sentence" \
    "$dereth" --set "dats_folder=$dats" demo --headless --ticks 5 --screenshot "$out/demo-$case.png"
  [ ! -e "$out/demo-$case.png" ] || { echo "demo-$case drew a picture"; failures=$((failures + 1)); }
  # The server is never contacted (port 9 would answer unreachable).
  expect "play-$case" "$file" "^dereth: cannot open the DATs: $file: $sentence" \
    "$dereth" play --server 127.0.0.1:9 --account a --password-file "$out/pw" --headless --ticks 5 --no-record \
    --dats "$dats"
  expect "replay-$case" "$file" "^dereth: cannot open the DATs: $file: $sentence" \
    "$dereth" replay --headless --fast --dats "$dats" "$capture"
  expect "sim-$case" "$file" "^dereth-sim: cannot open the DATs: $file: $sentence" \
    "$sim" --quiet --dats "$dats" "$capture"
  if [ "$case" != cut_cell ]; then  # the server reads the portal DAT alone
    expect "server-$case" "$file" "^dereth-server: cannot open the DATs: $file: $sentence" \
      "$server" --port 0 --seconds 1 --dats "$dats"
  fi
done
rm -f "$out/pw"
[ "$failures" -eq 0 ] || exit 1
echo "a cut-short or foreign DAT: one sentence and exit 1 from every program: ok"
