#!/usr/bin/env bash
# Installs the Debian 12 packages Posewright needs to build, run and test.
# Idempotent: prints nothing and touches nothing when everything is already there.
#   packaging/install-deps.sh [fuzz]
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev libgl-dev libglx-dev libxkbcommon-dev
  libvtk9-dev librdkit-dev libboost-dev libeigen3-dev libjemalloc-dev
  xvfb xauth libgl1-mesa-dri
  libsqlite3-dev
  autogrid
  openmpi-bin libopenmpi-dev
)
# `install-deps.sh fuzz`: also clang and libFuzzer for tests/fuzz/run-fuzz.sh (the opt-in fuzz job).
if [ "${1:-}" = fuzz ]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  sudo=(sudo -E)
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
