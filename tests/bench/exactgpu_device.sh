#!/usr/bin/env bash
# One device call for exact (grid-free) minimization on the GPU (issue 18 item 2, helper
# "exactgpu"): its GPU tests and `bench minimize --exact` on cuda against the CPU on all cores of
# the same host, and the grid path's speed with the binary before this change. Run from the
# repository root on the GPU machine with the carried folder C (default .carry-exactgpu) holding
# bin/ (posewright-cli, posewright-cli-before, gpu_test_minimize_exact,
# gpu_test_minimize_exact_gradient, gpu_test_pair_score,
# gpu_test_pair_backend, gpu_test_minimize) and libs/ or libs.tar.xz (bundle-libs.sh output of
# those programs); bin/ may come as bin.tar.xz.
# Usage: tests/bench/exactgpu_device.sh [tests|minimizetest|bench|grid]...  (default: tests bench grid)
set -uo pipefail
C=${C:-$PWD/.carry-exactgpu}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
[ -d "$C/libs" ] || tar -C "$C" -xJf "$C/libs.tar.xz"
[ -d "$C/bin" ] || tar -C "$C" -xJf "$C/bin.tar.xz"
export LD_LIBRARY_PATH=$C/libs
CLI=$C/bin/posewright-cli
# The test binaries name their data by the path they were built at.
if [ ! -e /work/wt/exactgpu/tests/data ]; then
    mkdir -p /work/wt/exactgpu/tests && ln -s "$PWD/tests/data" /work/wt/exactgpu/tests/data
fi
nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv,noheader
echo "host cores: $(nproc)"
D=tests/data/complexes/1iep
TARGET="--receptor $D/receptor.pdbqt --box $D/box.txt --ligand $D/ligand_xtal.pdbqt"
# The bench's JSON, the fields that matter, one line per run.
fields() { grep '^{' | sed -E 's/.*"poses":([0-9]+).*"device":"([^"]*)".*"seconds":([0-9.e+-]+),"poses_per_second":([0-9.e+-]+),"mean_affinity":([0-9.e+-]+),"median_affinity":([0-9.e+-]+).*"mean_evaluations":([0-9.e+-]+).*"exact":(true|false).*/poses \1 | \2 | \3 s | \4 poses\/s | mean aff \5 | median \6 | evals \7 | exact \8/'; }
for part in ${*:-tests bench grid}; do
    case $part in
    tests)
        for t in gpu_test_minimize_exact gpu_test_minimize_exact_gradient gpu_test_pair_score \
            gpu_test_pair_backend; do
            timeout 300 "$C/bin/$t" 2>&1 | grep -vE "^PASS|^Config|^\*\*\*\*" | tee -a "$OUT/tests.log" | tail -14
        done
        ;;
    minimizetest) # the grid path's GPU-vs-CPU criteria (unchanged kernel instances)
        timeout 300 "$C/bin/gpu_test_minimize" 2>&1 | tee -a "$OUT/tests.log" | grep -E "FAIL|Totals" | tail -8
        ;;
    bench)
        # Exact minimization, Vina's steps (the bench's default) and the well-conditioned strong
        # Wolfe (--smooth): the GPU on 2,000 and 20,000 random 1iep starts, the CPU (all cores) on
        # the first 2,000 (the same starts: seed 1).
        for mode in "" "--algorithm wolfe --smooth"; do
            timeout 120 "$CLI" bench minimize $TARGET --exact $mode --device cuda --poses 2000 20000 \
                --repeat 2 2>/dev/null | tee -a "$OUT/bench.jsonl" | fields
            timeout 150 "$CLI" bench minimize $TARGET --exact $mode --device cpu --poses 2000 \
                2>/dev/null | tee -a "$OUT/bench.jsonl" | fields
        done
        ;;
    grid)
        # The grid path before (posewright-cli-before: the parent commit's engine/cuda) and after,
        # alternated, 100,000 random starts, Vina's steps.
        for b in posewright-cli-before posewright-cli posewright-cli-before posewright-cli; do
            echo -n "$b: "
            timeout 60 "$C/bin/$b" bench minimize $TARGET --device cuda --poses 100000 --repeat 3 \
                2>/dev/null | tee -a "$OUT/grid.jsonl" | fields
        done
        ;;
    esac
done
