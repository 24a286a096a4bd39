#!/usr/bin/env bash
# Installs every Debian 12 package dereth needs to build, test, fuzz and run.
# Idempotent: packages already present are left alone; apt-get runs only when
# something is missing. Debian packages only; nothing else is downloaded.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git python3
  # the format check (scripts/check-format.sh, a ctest test)
  clang-format
  # fuzzing: clang-16 with its libFuzzer runtime (the `fuzz` preset; clang-14
  # cannot compile libstdc++ 12's <expected>)
  clang-16 libclang-rt-16-dev llvm-14
  # libraries
  libsdl2-dev libglm-dev libopenal-dev libasio-dev libspdlog-dev libfmt-dev
  catch2 libcli11-dev libpcap-dev libstb-dev libbenchmark-dev zlib1g-dev
  # OpenGL / EGL, Mesa software rasteriser for headless rendering
  libgl-dev libegl-dev libegl-mesa0 libgl1-mesa-dri
  # the glad loader generator (the generated loader is committed)
  python3-glad
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${#missing[@]} package(s): ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
