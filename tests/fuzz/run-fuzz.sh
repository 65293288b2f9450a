#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ and runs each for
# SECONDS (default 60) from its seed corpus and the inputs in tests/fuzz/regressions (replayed
# first): `ctest -L fuzz`, JOBS targets at a time (default 2; each fuzzes on one core).
# Needs clang-14 and Debian's libclang-rt-14-dev (libFuzzer): packaging/install-deps.sh fuzz.
# CI runs it (.ci/run) with SEED=1 and RUNS=checked (each target stops at the inputs it ran clean
# here from that seed); SEED=0 (the default) lets libFuzzer pick a seed per run, RUNS=0 (the
# default) lets the time alone end each target, RUNS=N caps every target at N inputs.
#   tests/fuzz/run-fuzz.sh [SECONDS] [TARGET-REGEX]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
only=${2:-.}
CC=${CC:-clang-14} CXX=${CXX:-clang++-14} cmake -S . -B build-fuzz -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOSEWRIGHT_FUZZ=ON -DPOSEWRIGHT_GUI=OFF \
  -DPOSEWRIGHT_TESTS=OFF -DPOSEWRIGHT_CUDA=OFF -DPOSEWRIGHT_FUZZ_SECONDS="$seconds" \
  -DPOSEWRIGHT_FUZZ_SEED="${SEED:-0}" -DPOSEWRIGHT_FUZZ_RUNS="${RUNS:-0}" \
  ${CMAKE_EXTRA_ARGS:-}
targets=$(grep -o 'fuzz_[a-z0-9_]*' build-fuzz/tests/fuzz/CTestTestfile.cmake | sort -u | grep -E "$only" || true)
cmake --build build-fuzz --target $targets -j"${JOBS:-2}"
# Leaks are findings too; the suppressions name only third-party allocations (RDKit's embedding).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/packaging/sanitizers/lsan.supp}
ctest --test-dir build-fuzz -L fuzz -R "$only" \
  --output-on-failure -j"${JOBS:-2}"
