#!/usr/bin/env bash
# Issue 17, item 4: one GPU against all GPUs of the machine, on workloads that saturate one GPU:
# `minimize` (bench: 2,000,000 poses; command: 200,000 poses SDF to ranked SDF) and `dock` (300
# and 1,000 NCI SMILES x 20 runs, Vina, the heuristic budget scaled down), each as cuda:0 and
# cuda:all; optional (while under DEADLINE): cuda:all with one docking lane per GPU
# (POSEWRIGHT_DOCK_LANES=1, the A/B of the second lane), one shard per GPU at once + merge, the
# GPU suites gpu_test_multi_gpu and gpu_test_dock_order_gpu, and one GPU with its runs in input
# order. Prints every run's phase timings (--timings: where the wall time goes, per device and
# docking lane) and, last, a short table: rates, parallel efficiency (T1 / (G x TG) on the whole
# command's wall time, or rate on G GPUs / (G x rate on one)) and whether the ranked outputs are
# identical. Written for 2x H100/H200 in under 5 minutes (each step has its own time limit).
#
# The lead's command (2 GPUs, from the repository root, binaries in the carried folder):
#   C=.carry-scale tests/bench/scale_device.sh 2>&1 | tee /tmp/scale.txt
#
# Build here (nvcc needs no GPU), into the carried folder C (default .carry-scale, git-ignored by
# the .carry* rule):
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPOSEWRIGHT_GUI=OFF \
#         -DCMAKE_CUDA_ARCHITECTURES=90
#   cmake --build build --target posewright-cli gpu_test_multi_gpu gpu_test_dock_order_gpu
#   mkdir -p .carry-scale/bin && cp build/engine/posewright-cli build/tests/gpu_test_multi_gpu \
#         build/tests/gpu_test_dock_order_gpu .carry-scale/bin/
#   ../shared/tools/bundle-libs.sh .carry-scale/bin/* .carry-scale/libs
#   cp ../shared/data/smiles/nci_first_5k.smi .carry-scale/
# Then, on the device, from the repository root: tests/bench/scale_device.sh
# (session_device.sh's layout works too: C=.carry-session/scale with bin/ and libs/, the SMILES
# found at $C/../shared/smiles/nci_first_5k.smi.)
# Knobs (environment): NLIGS ("300 1000": the dock sizes, each 1 GPU vs all; the optional steps
# use the last), DOCK_RUNS (20), DOCK_BUDGET_SCALE (0.05: the heuristic
# budget per run, which grows with the torsions, x 0.05, i.e. ~62,000 evaluations for a rigid ligand
# at 20 runs; the whole budget would take ~4 min per GPU) or DOCK_EVALS (a fixed budget per run
# instead), MIN_POSES (2000000, bench), CMD_POSES
# (200000, the minimize command), DEADLINE (200 s: optional steps start only before it).
# The old LIGANDS/RUNS/POSES variables (a 100-ligand, 10-run screen: one launch shorter than its
# longest run, no GPU saturated) are ignored on purpose.
set -uo pipefail
C=${C:-$PWD/.carry-scale}
OUT=${OUT:-/tmp/scale}
NLIGS=${NLIGS:-${NLIG:-300 1000}}
NMAX=$(echo $NLIGS | tr ' ' '\n' | sort -n | tail -1)
DOCK_RUNS=${DOCK_RUNS:-20}
DOCK_BUDGET_SCALE=${DOCK_BUDGET_SCALE:-0.05}
DOCK_EVALS=${DOCK_EVALS:-}
if [ -n "$DOCK_EVALS" ]; then BUDGET="--evaluations $DOCK_EVALS"; else BUDGET="--budget-scale $DOCK_BUDGET_SCALE"; fi
MIN_POSES=${MIN_POSES:-2000000}
CMD_POSES=${CMD_POSES:-200000}
DEADLINE=${DEADLINE:-200}
SECONDS=0
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$C/libs
CLI=$C/bin/posewright-cli
D=$PWD/tests/data/complexes/1iep
TARGET="--receptor $D/receptor.pdbqt --box $D/box.txt"
# DEV1/DEVG/G/SHARD_DEVICE: for a dry run of the script without GPUs (DEV1=cpu DEVG=cpu G=1
# SHARD_DEVICE=cpu and small sizes); on the device machine leave them unset.
DEV1=${DEV1:-cuda:0}
DEVG=${DEVG:-cuda:all}
nvidia-smi -L 2>/dev/null
G=${G:-$(nvidia-smi -L | wc -l)}
echo "host cores: $(nproc); GPUs: $G; date: $(date -u +%FT%TZ); binary: $CLI"

# The ligands: the first NMAX NCI SMILES (each dock size takes the first NLIG of them).
LIG=$OUT/ligands.smi
src=""
for f in "${SMILES_SOURCE:-}" "$C/nci_first_5k.smi" "$C/../shared/smiles/nci_first_5k.smi" \
         "$PWD/../shared/data/smiles/nci_first_5k.smi"; do
    [ -n "$f" ] && [ -f "$f" ] && { src=$f; break; }
done
if [ -n "$src" ]; then
    head -n "$NMAX" "$src" > "$LIG"
else # fallback: the 300 in the repository, repeated under new names (said in the output)
    for k in 1 2 3 4; do awk -v k=$k '{ print $1 "\t" $2 "_r" k }' tests/data/smiles/nci_first_300.smi; done |
        head -n "$NMAX" > "$LIG"
    src="tests/data/smiles/nci_first_300.smi repeated (nci_first_5k.smi not found)"
fi
echo "ligands: $(wc -l < "$LIG") from $src"

num() { # KEY: the first numeric value of "KEY": on stdin
    grep -o "\"$1\":[-0-9.eE+]*" | head -1 | cut -d: -f2
}
maxnum() { # KEY: the largest value of "KEY": on stdin (one per device group)
    grep -o "\"$1\":[-0-9.eE+]*" | cut -d: -f2 | sort -g | tail -1
}
timed() { # LIMIT NAME command...: runs it (stdout > $OUT/NAME.out, stderr > $OUT/NAME.err),
          # prints its wall seconds ("-" when it failed or ran out of time)
    local limit=$1 name=$2 s e rc
    shift 2
    s=$(date +%s.%N)
    timeout "$limit" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
    rc=$?
    e=$(date +%s.%N)
    if [ $rc -ne 0 ]; then
        echo "  ($name: rc=$rc; $(tail -1 "$OUT/$name.err"))" >&2
        echo "-"
    else
        awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }'
    fi
}
isnum() { [[ "${1:-}" =~ ^[0-9.eE+-]+$ ]]; }
eff_rate() { # rate1 rateG: rateG / (G x rate1)
    if isnum "${1:-}" && isnum "${2:-}"; then
        awk -v a="$1" -v b="$2" -v g="$G" 'BEGIN { if (a > 0) printf "%.3f", b / (g * a); else print "-" }'
    else echo "-"; fi
}
eff_time() { eff_rate "${2:-}" "${1:-}"; } # time1 timeG: time1 / (G x timeG)
same() { [ -s "$1" ] && [ -s "$2" ] && { cmp -s "$1" "$2" && echo identical || echo DIFFERENT; } || echo "-"; }
phases() { # FILE: the timings table lines of a run's stderr
    grep '^timings:' "$1" | sed 's/^timings: /    /'
}

# The GPU suites whose host code the multi-GPU split touches (optional, after the timings).
# The test binaries read their data at the path they were built with.
gpu_suites() {
for t in gpu_test_multi_gpu gpu_test_dock_order_gpu; do
    [ -x "$C/bin/$t" ] || continue
    compiled=$(strings "$C/bin/$t" | grep -m1 '/tests/data$' || true)
    if [ -n "$compiled" ] && [ ! -e "$compiled" ]; then
        mkdir -p "$(dirname "$compiled")" && ln -s "$PWD/tests/data" "$compiled"
    fi
    timeout 120 "$C/bin/$t" > "$OUT/$t.txt" 2>&1
    echo "$t rc=$? $(grep -E 'Totals' "$OUT/$t.txt")"
    grep -E "FAIL" -A2 "$OUT/$t.txt" | head -6
done
}

# The table, also when the run is stopped (a caller's time limit): what finished is kept.
b1="" bG="" m1="-" mG="-" sS="-" tI="-" tL="-"
declare -A t1 tG g1 gG
table() {
    echo; echo "total ${SECONDS}s"
    rate() { isnum "${2:-}" && awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.1f", n / t; else print "-" }' || echo "-"; }
    echo
    echo "| what | 1 GPU | $G GPUs | parallel efficiency | ranked output |"
    echo "| --- | ---: | ---: | ---: | --- |"
    echo "| bench minimize, $MIN_POSES 1iep poses (poses/s) | ${b1:--} | ${bG:--} | $(eff_rate "${b1:-}" "${bG:-}") | |"
    echo "| minimize command, $CMD_POSES poses SDF to ranked SDF (wall s) | $m1 | $mG | $(eff_time "$m1" "$mG") | $(same "$OUT/min1.sdf" "$OUT/minG.sdf") |"
    for n in $NLIGS; do
        echo "| dock command, $n SMILES x $DOCK_RUNS runs (wall s) | ${t1[$n]:--} | ${tG[$n]:--} | $(eff_time "${t1[$n]:-}" "${tG[$n]:-}") | $(same "$OUT/dock1_$n.sdf" "$OUT/dockG_$n.sdf") |"
        echo "| dock, $n: ligands/s (wall) | $(rate "$n" "${t1[$n]:-}") | $(rate "$n" "${tG[$n]:-}") | | |"
        echo "| dock, $n: GPU search (s; busiest device or lane) | ${g1[$n]:--} | ${gG[$n]:--} | | |"
    done
    echo "| dock $NMAX, $DEVG one lane per GPU (wall s) | ${t1[$NMAX]:--} | $tL | $(eff_time "${t1[$NMAX]:-}" "$tL") | $(same "$OUT/dock1_$NMAX.sdf" "$OUT/dockL.sdf") |"
    echo "| dock $NMAX, $G shards at once + merge (wall s) | ${t1[$NMAX]:--} | $sS | $(eff_time "${t1[$NMAX]:-}" "$sS") | $(same "$OUT/dock1_$NMAX.sdf" "$OUT/dockS.sdf") |"
    echo "| dock $NMAX $DEV1, input order vs longest first (wall s) | $tI | ${t1[$NMAX]:--} | | $(same "$OUT/dock1_$NMAX.sdf" "$OUT/dockI.sdf") |"
}
trap 'echo "(stopped by a signal at ${SECONDS}s)"; table; exit 143' TERM INT

# 1. bench minimize: the backend alone (packing, transfers, exact re-scoring included; set-up not).
echo; echo "== bench minimize, $MIN_POSES 1iep poses (t=${SECONDS}s)"
B="bench minimize $TARGET --ligand $D/ligand_xtal.pdbqt --poses $MIN_POSES --seed 1 --repeat 1 --timings"
w1=$(timed 120 bmin1 $CLI $B --device $DEV1)
wG=$(timed 120 bminG $CLI $B --device $DEVG)
b1=$(grep '^{"bench"' "$OUT/bmin1.out" | tail -1 | num poses_per_second)
bG=$(grep '^{"bench"' "$OUT/bminG.out" | tail -1 | num poses_per_second)
echo "  poses/s: $DEV1 ${b1:--}, $DEVG ${bG:--} (process wall, pose generation included: $w1 s, $wG s)"
echo "  $DEV1 timed call:"; phases "$OUT/bmin1.err"
echo "  $DEVG timed call:"; phases "$OUT/bminG.err"

# 2. The minimize command: SDF in, ranked SDF out (host reading, parsing and writing included).
echo; echo "== minimize command, $CMD_POSES poses (t=${SECONDS}s)"
timeout 120 $CLI bench minimize $TARGET --ligand $D/ligand_xtal.pdbqt --poses $CMD_POSES --seed 1 \
    --device $DEV1 --write-poses "$OUT/poses.sdf" > /dev/null 2>&1
M="minimize $TARGET --ligands $OUT/poses.sdf --timings"
m1=$(timed 120 min1 $CLI $M --device $DEV1 --out "$OUT/min1.sdf")
mG=$(timed 120 minG $CLI $M --device $DEVG --out "$OUT/minG.sdf")
echo "  cuda:0 ${m1} s:"; phases "$OUT/min1.err"
echo "  cuda:all ${mG} s:"; phases "$OUT/minG.err"

# 3. The dock command: SMILES to ranked SDF (embedding, maps, search, re-scoring, clustering),
# for each size of NLIGS.
K="dock $TARGET --runs $DOCK_RUNS $BUDGET --seed 42 --timings"
tim() { grep -o '"timings":{.*' "$1" 2>/dev/null; } # the summary's timings object
for n in $NLIGS; do
    head -n "$n" "$LIG" > "$OUT/lig$n.smi"
    echo; echo "== dock command, $(grep -c . "$OUT/lig$n.smi") ligands x $DOCK_RUNS runs, $BUDGET (t=${SECONDS}s)"
    KN="$K --ligands $OUT/lig$n.smi"
    t1[$n]=$(timed 150 dock1_$n $CLI $KN --device $DEV1 --out "$OUT/dock1_$n.sdf" --json "$OUT/dock1_$n.json")
    tG[$n]=$(timed 100 dockG_$n $CLI $KN --device $DEVG --out "$OUT/dockG_$n.sdf" --json "$OUT/dockG_$n.json")
    echo "  $DEV1 ${t1[$n]} s:"; phases "$OUT/dock1_$n.err"
    echo "  $DEVG ${tG[$n]} s:"; phases "$OUT/dockG_$n.err"
    g1[$n]=$(tim "$OUT/dock1_$n.json" | maxnum gpu_search); gG[$n]=$(tim "$OUT/dockG_$n.json" | maxnum gpu_search)
done

# 4. Optional: the largest dock on all GPUs with one docking lane per GPU (no second launch).
if [ "$SECONDS" -lt "$DEADLINE" ]; then
    echo; echo "== dock, $NMAX ligands, $DEVG with one lane per GPU (POSEWRIGHT_DOCK_LANES=1) (t=${SECONDS}s)"
    tL=$(POSEWRIGHT_DOCK_LANES=1 timed 100 dockL $CLI $K --ligands "$OUT/lig$NMAX.smi" --device $DEVG --out "$OUT/dockL.sdf")
    phases "$OUT/dockL.err"
else
    echo; echo "(one-lane dock skipped: ${SECONDS}s past DEADLINE=${DEADLINE}s)"
fi

# 5. Optional: a job array's way: one shard per GPU at once, then merge.
if [ "$SECONDS" -lt "$DEADLINE" ]; then
    echo; echo "== dock, $NMAX ligands, $G shards at once + merge (t=${SECONDS}s)"
    s0=$(date +%s.%N)
    for k in $(seq 1 "$G"); do
        timeout 100 $CLI $K --ligands "$OUT/lig$NMAX.smi" --device "${SHARD_DEVICE:-cuda:$((k - 1))}" \
            --shard "$k/$G" --shard-block 16 --out "$OUT/shard$k.sdf" > /dev/null 2> "$OUT/shard$k.err" &
    done
    wait
    $CLI merge "$OUT/dockS.sdf" "$OUT"/shard*.sdf 2> "$OUT/merge.err" || echo "  merge failed: $(tail -1 "$OUT/merge.err")"
    sS=$(awk -v s="$s0" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
    for k in $(seq 1 "$G"); do echo "  shard $k/$G:"; phases "$OUT/shard$k.err"; done
else
    echo; echo "(shards skipped: ${SECONDS}s past DEADLINE=${DEADLINE}s)"
fi

# 6. Optional: the GPU suites (host code of the split), then one GPU with its runs in input order.
if [ "$SECONDS" -lt "$DEADLINE" ]; then
    echo; echo "== GPU suites (t=${SECONDS}s)"
    gpu_suites
fi
if [ "$SECONDS" -lt "$DEADLINE" ]; then
    echo; echo "== dock $DEV1, $NMAX ligands, runs launched in input order (t=${SECONDS}s)"
    tI=$(POSEWRIGHT_DOCK_ORDER=input timed 100 dockI $CLI $K --ligands "$OUT/lig$NMAX.smi" --device $DEV1 --out "$OUT/dockI.sdf")
    phases "$OUT/dockI.err"
else
    echo; echo "(input-order dock skipped: ${SECONDS}s past DEADLINE=${DEADLINE}s)"
fi

table
