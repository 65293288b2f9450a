#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ and runs each for
# SECONDS (default 60) from its seed corpus: `ctest -L fuzz`. Needs clang-14 and Debian's
# libclang-rt-14-dev (libFuzzer). Not part of the default CI run: .ci/run calls it only when
# POSEWRIGHT_CI_FUZZ=1.
#   tests/fuzz/run-fuzz.sh [SECONDS] [TARGET-REGEX]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
only=${2:-.}
CC=${CC:-clang-14} CXX=${CXX:-clang++-14} cmake -S . -B build-fuzz -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOSEWRIGHT_FUZZ=ON -DPOSEWRIGHT_GUI=OFF \
  -DPOSEWRIGHT_TESTS=OFF -DPOSEWRIGHT_CUDA=OFF -DPOSEWRIGHT_FUZZ_SECONDS="$seconds" \
  ${CMAKE_EXTRA_ARGS:-}
targets=$(grep -o 'fuzz_[a-z0-9_]*' build-fuzz/tests/fuzz/CTestTestfile.cmake | sort -u | grep -E "$only" || true)
cmake --build build-fuzz --target $targets -j"${JOBS:-2}"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} ctest --test-dir build-fuzz -L fuzz -R "$only" \
  --output-on-failure
