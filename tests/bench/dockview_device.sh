#!/usr/bin/env bash
# One device call for the GPU docking search's live view (issue 14, helper dockview): the new
# gpu_test_dock_observer (reports from the CUDA search: they arrive, generations increase, the
# reported best re-scored on the CPU equals the reported energy, watched == unwatched output) and
# the existing docking suites gpu_test_dock_gpu and gpu_test_dock_gpu_ad4 (the kernel changed).
# Runtime: well under 3 minutes (each suite is bounded by a 150 s timeout).
#
# Run from the repository root on the GPU machine with the carried folder C (default
# .carry-dockview, git-ignored: .carry-* is) holding
#   bin/   gpu_test_dock_observer gpu_test_dock_gpu gpu_test_dock_gpu_ad4
#   libs/  their shared libraries (../shared/tools/bundle-libs.sh), or libs.tar.xz of libs/
#   ad4/1stp, ad4/3ce3  (optional) the AD4 maps gpu_test_dock_gpu_ad4 reads
#                       (copies of ../shared/data/complexes/<id>/ad4maps)
# Made here (no GPU needed; nvcc builds for sm_90):
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
#       -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
#       -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache
#   cmake --build build --target gpu_test_dock_observer gpu_test_dock_gpu gpu_test_dock_gpu_ad4 -j2
#   C=.carry-dockview; mkdir -p $C/bin $C/ad4
#   cp build/tests/gpu_test_dock_observer build/tests/gpu_test_dock_gpu \
#      build/tests/gpu_test_dock_gpu_ad4 $C/bin/
#   ../shared/tools/bundle-libs.sh $C/bin/* $C/libs && tar -C $C -cJf $C/libs.tar.xz libs && rm -r $C/libs
#   for id in 1stp 3ce3; do cp -r ../shared/data/complexes/$id/ad4maps $C/ad4/$id; done
# then: run(command="tests/bench/dockview_device.sh", carry=[".carry-dockview"]).
# The test binaries name their data by the paths they were built at: set BUILT_AT to the checkout
# that built them (default /work/wt/dockview; BUILT_AT=/work/main for a build in /work/main/build);
# where BUILT_AT/tests/data or BUILT_AT/../shared/data/complexes/<id>/ad4maps is missing on the
# device machine, the script links this checkout's tests/data and the carried maps there.
# Prints each suite's tail, then a table: suite | passed | failed | skipped | exit | seconds.
set -uo pipefail
C=${C:-$PWD/.carry-dockview}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
[ -d "$C/libs" ] || [ ! -f "$C/libs.tar.xz" ] || tar -C "$C" -xJf "$C/libs.tar.xz"
export LD_LIBRARY_PATH=$C/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export QT_QPA_PLATFORM=offscreen
BUILT_AT=${BUILT_AT:-/work/wt/dockview}
if [ ! -e "$BUILT_AT/tests/data" ]; then
    mkdir -p "$BUILT_AT/tests" && ln -s "$PWD/tests/data" "$BUILT_AT/tests/data"
fi
SHARED=$(dirname "$BUILT_AT")/shared/data # the build's ../shared/data
for id in 1stp 3ce3; do
    if [ -d "$C/ad4/$id" ] && [ ! -e "$SHARED/complexes/$id/ad4maps" ]; then
        mkdir -p "$SHARED/complexes/$id" && ln -s "$C/ad4/$id" "$SHARED/complexes/$id/ad4maps"
    fi
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

rows=()
for t in gpu_test_dock_observer gpu_test_dock_gpu gpu_test_dock_gpu_ad4; do
    bin=$C/bin/$t
    if [ ! -x "$bin" ]; then
        rows+=("$t | - | - | - | missing | -")
        continue
    fi
    echo "=== $t"
    start=$(date +%s.%N)
    timeout ${TEST_TIMEOUT:-150} "$bin" >"$OUT/$t.log" 2>&1
    rc=$?
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    tail -20 "$OUT/$t.log"
    totals=$(grep -E '^Totals:' "$OUT/$t.log" | tail -1)
    passed=$(echo "$totals" | sed -n 's/.* \([0-9]*\) passed.*/\1/p')
    failed=$(echo "$totals" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    skipped=$(echo "$totals" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
    rows+=("$t | ${passed:--} | ${failed:--} | ${skipped:--} | $rc | $(printf %.1f "$secs")")
done

echo
echo "suite | passed | failed | skipped | exit | seconds"
for r in "${rows[@]}"; do
    echo "$r"
done
