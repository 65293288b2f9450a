#!/usr/bin/env bash
# The README's two commands: install what is missing, build (Release), then either open the
# app on the bundled example (`app`) or run the whole test suite (`test`).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-app}
build=${POSEWRIGHT_BUILD_DIR:-build}
bash packaging/install-deps.sh

jobs=$(nproc)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" --parallel "$jobs"

case "$mode" in
  app)
    [ -n "${QT_QPA_PLATFORM:-}" ] || export QT_QPA_PLATFORM=xcb
    exec "$build/app/posewright" resources/examples/1stp/receptor.pdbqt \
      resources/examples/1stp/ligand.pdbqt
    ;;
  test)
    # GUI suites wrap themselves in xvfb-run when there is no display, and GPU suites skip
    # themselves (exit 77) when no CUDA device is usable (tests/CMakeLists.txt).
    exec ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  *)
    echo "usage: $0 app|test" >&2
    exit 2
    ;;
esac
