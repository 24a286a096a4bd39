#!/usr/bin/env bash
# Verifies every entry of the retail DATs in $DERETH_RETAIL_DATS decodes.
# Skips (exit 77) when the variable is unset: proprietary data is never required.
set -u
tool="$1"
if [ -z "${DERETH_RETAIL_DATS:-}" ]; then
  echo "DERETH_RETAIL_DATS is not set: skipping the retail DAT check"
  exit 77
fi
found=0
for name in client_portal.dat client_cell_1.dat client_highres.dat client_local_English.dat; do
  path="$DERETH_RETAIL_DATS/$name"
  if [ -f "$path" ]; then
    found=1
    "$tool" verify --quiet "$path" || { echo "$name: not every entry decodes"; exit 1; }
  fi
done
if [ "$found" -eq 0 ]; then
  echo "DERETH_RETAIL_DATS=$DERETH_RETAIL_DATS holds no client_*.dat file"
  exit 1
fi
