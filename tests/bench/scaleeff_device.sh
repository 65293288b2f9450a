#!/usr/bin/env bash
# Helper scaleeff's GPU checks (issue 17), for the lead's device call: the GPU suites whose host
# code this branch changed (CUDA dock: longest-first launch order, templates and exact scorers
# built on every core, phase timings; CudaBackend timings; cuda:all docking split), one after the
# other on GPU 0 (multi_gpu uses every GPU), each under its own time limit; a table last.
# The throughput and efficiency figures are tests/bench/scale_device.sh's (run it after this).
#
# Build here (nvcc needs no GPU) and carry C (default .carry-scale, git-ignored by .carry*):
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPOSEWRIGHT_GUI=OFF \
#         -DCMAKE_CUDA_ARCHITECTURES=90
#   cmake --build build --target posewright-cli gpu_test_dock_order_gpu gpu_test_dock_gpu \
#         gpu_test_dock_gpu_ad4 gpu_test_backend_gpu gpu_test_multi_gpu
#   mkdir -p .carry-scale/bin && cp build/engine/posewright-cli build/tests/gpu_test_* .carry-scale/bin/
#   ../shared/tools/bundle-libs.sh .carry-scale/bin/* .carry-scale/libs
# Then on the device, from the repository root: tests/bench/scaleeff_device.sh   (~2 minutes)
set -uo pipefail
C=${C:-$PWD/.carry-scale}
OUT=${OUT:-/tmp/scaleeff}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$C/libs
nvidia-smi -L
rows=()
for t in gpu_test_dock_order_gpu gpu_test_dock_gpu gpu_test_dock_gpu_ad4 gpu_test_backend_gpu gpu_test_multi_gpu; do
    if [ ! -x "$C/bin/$t" ]; then
        rows+=("| $t | not carried | |")
        continue
    fi
    # The suites read tests/data at the path they were built with.
    compiled=$(strings "$C/bin/$t" | grep -m1 '/tests/data$' || true)
    if [ -n "$compiled" ] && [ ! -e "$compiled" ]; then
        mkdir -p "$(dirname "$compiled")" && ln -s "$PWD/tests/data" "$compiled"
    fi
    s=$SECONDS
    timeout 150 "$C/bin/$t" > "$OUT/$t.txt" 2>&1
    rc=$?
    echo "== $t rc=$rc ($((SECONDS - s)) s)"
    grep -E "^FAIL|QINFO" -A2 "$OUT/$t.txt" | head -12
    rows+=("| $t | rc=$rc | $(grep -E '^Totals' "$OUT/$t.txt" | head -1) |")
done
echo
echo "| suite | exit | totals |"
echo "| --- | --- | --- |"
printf '%s\n' "${rows[@]}"
