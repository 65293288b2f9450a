#!/usr/bin/env bash
# Issue 17, item 4: one GPU against all GPUs of the machine (`--device cuda:0` vs `cuda:all`) for
# minimize and dock, with the parallel efficiency (rate on G GPUs / (G x rate on one)) and whether
# the ranked outputs are identical. For the lead, on a machine with 2+ GPUs (nvidia-h100-x2).
#
# Build on the dev machine (nvcc needs no GPU) and carry the folder C (default .carry-scale,
# git-ignored by the .carry* rule or add it):
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPOSEWRIGHT_GUI=OFF \
#         -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build build --target posewright-cli gpu_test_multi_gpu
#   mkdir -p .carry-scale/bin && cp build/engine/posewright-cli build/tests/gpu_test_multi_gpu .carry-scale/bin/
#   ../shared/tools/bundle-libs.sh .carry-scale/bin/* .carry-scale/libs
# Then, from the repository root on the device: tests/bench/scale_device.sh
# Sizes: POSES (minimize, default 400000), LIGANDS (SMILES file, default tests/data/smiles/
# nci_first_300.smi), RUNS (dock runs per ligand, default 20).
set -uo pipefail
C=${C:-$PWD/.carry-scale}
OUT=${OUT:-/tmp/scale}
POSES=${POSES:-400000}
LIGANDS=${LIGANDS:-$PWD/tests/data/smiles/nci_first_300.smi}
RUNS=${RUNS:-20}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$C/libs
CLI=$C/bin/posewright-cli
D=$PWD/tests/data/complexes/1iep
G=$(nvidia-smi -L | wc -l)
nvidia-smi -L
echo "host cores: $(nproc); GPUs: $G; date: $(date -u +%FT%TZ)"

# The test binary reads its data at the path it was built with.
compiled=$(strings "$C/bin/gpu_test_multi_gpu" | grep -m1 '/tests/data$' || true)
if [ -n "$compiled" ] && [ ! -e "$compiled" ]; then
    mkdir -p "$(dirname "$compiled")" && ln -s "$PWD/tests/data" "$compiled"
fi
timeout 300 "$C/bin/gpu_test_multi_gpu" > "$OUT/gpu_test.txt" 2>&1
echo "gpu_test_multi_gpu rc=$? $(grep -E 'Totals' "$OUT/gpu_test.txt")"
grep -E "QINFO|FAIL" "$OUT/gpu_test.txt" | head -8

json() { # FIELD: the value of a numeric field of the last JSON line on stdin
    grep '^{"bench"' | tail -1 | sed -E "s/.*\"$1\":([0-9.eE+-]+).*/\\1/"
}
wall() { # command...: its wall seconds (stdout, stderr to $OUT/last.err)
    local s e
    s=$(date +%s.%N)
    "$@" > /dev/null 2> "$OUT/last.err"
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }'
}
eff() { # rate1 rateG: rateG / (G x rate1)
    awk -v a="$1" -v b="$2" -v g="$G" 'BEGIN { if (a > 0) printf "%.3f", b / (g * a); else print "-" }'
}

# Backend throughput (bench: one batch, set-up excluded), best of 3.
b1=$($CLI bench minimize --receptor $D/receptor.pdbqt --box $D/box.txt --ligand $D/ligand_xtal.pdbqt \
    --poses $POSES --seed 1 --device cuda:0 --repeat 3 2>/dev/null | json poses_per_second)
bG=$($CLI bench minimize --receptor $D/receptor.pdbqt --box $D/box.txt --ligand $D/ligand_xtal.pdbqt \
    --poses $POSES --seed 1 --device cuda:all --repeat 3 2>/dev/null | json poses_per_second)
d1=$($CLI bench dock --receptor $D/receptor.pdbqt --box $D/box.txt --ligands "$LIGANDS" \
    --runs $RUNS --seed 42 --device cuda:0 2>/dev/null | json ligands_per_second)
dG=$($CLI bench dock --receptor $D/receptor.pdbqt --box $D/box.txt --ligands "$LIGANDS" \
    --runs $RUNS --seed 42 --device cuda:all 2>/dev/null | json ligands_per_second)

# Whole commands (read, prepare, compute, ranked SDF written): wall seconds, outputs compared.
$CLI bench minimize --receptor $D/receptor.pdbqt --box $D/box.txt --ligand $D/ligand_xtal.pdbqt \
    --poses $POSES --seed 1 --device cuda:0 --write-poses "$OUT/poses.sdf" > /dev/null 2>&1
m1=$(wall $CLI minimize --receptor $D/receptor.pdbqt --box $D/box.txt --ligands "$OUT/poses.sdf" \
    --device cuda:0 --out "$OUT/min1.sdf")
mG=$(wall $CLI minimize --receptor $D/receptor.pdbqt --box $D/box.txt --ligands "$OUT/poses.sdf" \
    --device cuda:all --out "$OUT/minG.sdf")
tail -2 "$OUT/last.err"
t1=$(wall $CLI dock --receptor $D/receptor.pdbqt --box $D/box.txt --ligands "$LIGANDS" --runs $RUNS \
    --seed 42 --device cuda:0 --out "$OUT/dock1.sdf")
tG=$(wall $CLI dock --receptor $D/receptor.pdbqt --box $D/box.txt --ligands "$LIGANDS" --runs $RUNS \
    --seed 42 --device cuda:all --out "$OUT/dockG.sdf")
tail -1 "$OUT/last.err"
# A job array's way (no MPI here): one shard per GPU at once, then merge.
s0=$(date +%s.%N)
for k in $(seq 1 $G); do
    $CLI dock --receptor $D/receptor.pdbqt --box $D/box.txt --ligands "$LIGANDS" --runs $RUNS \
        --seed 42 --device cuda:$((k - 1)) --shard $k/$G --shard-block 16 --out "$OUT/shard$k.sdf" \
        > /dev/null 2> "$OUT/shard$k.err" &
done
wait
$CLI merge "$OUT/dockS.sdf" "$OUT"/shard*.sdf 2> "$OUT/merge.err"
sS=$(awk -v s="$s0" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
same() { cmp -s "$1" "$2" && echo identical || echo DIFFERENT; }

echo
echo "| what | 1 GPU | $G GPUs | parallel efficiency | ranked output |"
echo "| --- | ---: | ---: | ---: | --- |"
echo "| bench minimize, $POSES 1iep poses (poses/s, best of 3) | $b1 | $bG | $(eff $b1 $bG) | |"
echo "| bench dock, $(grep -c . "$LIGANDS") ligands x $RUNS runs (ligands/s) | $d1 | $dG | $(eff $d1 $dG) | |"
echo "| minimize command, SDF to ranked SDF (wall s) | $m1 | $mG | $(eff $mG $m1) | $(same "$OUT/min1.sdf" "$OUT/minG.sdf") |"
echo "| dock command, SMILES to ranked SDF (wall s) | $t1 | $tG | $(eff $tG $t1) | $(same "$OUT/dock1.sdf" "$OUT/dockG.sdf") |"
echo "| dock, $G shards (one per GPU, at once) + merge (wall s) | $t1 | $sS | $(eff $sS $t1) | $(same "$OUT/dock1.sdf" "$OUT/dockS.sdf") |"
