#!/usr/bin/env bash
# Issue 17, item 4: one GPU against all GPUs of the machine, on workloads that saturate one GPU:
# `minimize` (bench: 2,000,000 poses; command: 200,000 poses SDF to ranked SDF) and `dock` (1,000
# NCI SMILES x 20 runs, Vina, the heuristic budget scaled down), each as cuda:0, cuda:all and, for dock, one
# shard per GPU at once + merge. Prints every run's phase timings (--timings: where the wall time
# goes, per device) and, last, a short table: rates, parallel efficiency (rate on G GPUs / (G x
# rate on one)) and whether the ranked outputs are identical. Written for 2x H200/H100 in under
# 4 minutes (each step has its own time limit; optional steps are skipped past DEADLINE seconds).
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
# Knobs (environment): NLIG (1000 ligands), DOCK_RUNS (20), DOCK_BUDGET_SCALE (0.05: the heuristic
# budget per run, which grows with the torsions, x 0.05, i.e. ~62,000 evaluations for a rigid ligand
# at 20 runs; the whole budget would take ~4 min per GPU) or DOCK_EVALS (a fixed budget per run
# instead), MIN_POSES (2000000, bench), CMD_POSES
# (200000, the minimize command), DEADLINE (170 s: optional steps start only before it).
# The old LIGANDS/RUNS/POSES variables (a 100-ligand, 10-run screen: one launch shorter than its
# longest run, no GPU saturated) are ignored on purpose.
set -uo pipefail
C=${C:-$PWD/.carry-scale}
OUT=${OUT:-/tmp/scale}
NLIG=${NLIG:-1000}
DOCK_RUNS=${DOCK_RUNS:-20}
DOCK_BUDGET_SCALE=${DOCK_BUDGET_SCALE:-0.05}
DOCK_EVALS=${DOCK_EVALS:-}
if [ -n "$DOCK_EVALS" ]; then BUDGET="--evaluations $DOCK_EVALS"; else BUDGET="--budget-scale $DOCK_BUDGET_SCALE"; fi
MIN_POSES=${MIN_POSES:-2000000}
CMD_POSES=${CMD_POSES:-200000}
DEADLINE=${DEADLINE:-170}
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

# The ligands: the first NLIG NCI SMILES.
LIG=$OUT/ligands.smi
src=""
for f in "${SMILES_SOURCE:-}" "$C/nci_first_5k.smi" "$C/../shared/smiles/nci_first_5k.smi" \
         "$PWD/../shared/data/smiles/nci_first_5k.smi"; do
    [ -n "$f" ] && [ -f "$f" ] && { src=$f; break; }
done
if [ -n "$src" ]; then
    head -n "$NLIG" "$src" > "$LIG"
else # fallback: the 300 in the repository, repeated under new names (said in the output)
    for k in 1 2 3 4; do awk -v k=$k '{ print $1 "\t" $2 "_r" k }' tests/data/smiles/nci_first_300.smi; done |
        head -n "$NLIG" > "$LIG"
    src="tests/data/smiles/nci_first_300.smi repeated (nci_first_5k.smi not found)"
fi
echo "ligands: $(wc -l < "$LIG") from $src"

# The test binaries read their data at the path they were built with.
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

# The table, also when the run is stopped (a caller's time limit): what finished is kept.
b1="" bG="" m1="-" mG="-" t1="-" tG="-" k1="" kG="" g1="" gG="" sS="-" tI="-"
ndock=$(grep -c . "$LIG")
table() {
    echo; echo "total ${SECONDS}s"
    rate() { isnum "${2:-}" && awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.1f", n / t; else print "-" }' || echo "-"; }
    echo
    echo "| what | 1 GPU | $G GPUs | parallel efficiency | ranked output |"
    echo "| --- | ---: | ---: | ---: | --- |"
    echo "| bench minimize, $MIN_POSES 1iep poses (poses/s) | ${b1:--} | ${bG:--} | $(eff_rate "${b1:-}" "${bG:-}") | |"
    echo "| minimize command, $CMD_POSES poses SDF to ranked SDF (wall s) | $m1 | $mG | $(eff_time "$m1" "$mG") | $(same "$OUT/min1.sdf" "$OUT/minG.sdf") |"
    echo "| dock command, $ndock SMILES x $DOCK_RUNS runs (wall s) | $t1 | $tG | $(eff_time "$t1" "$tG") | $(same "$OUT/dock1.sdf" "$OUT/dockG.sdf") |"
    echo "| dock command, ligands/s (wall) | $(rate "$ndock" "$t1") | $(rate "$ndock" "$tG") | | |"
    echo "| dock: backend phase (search + re-scoring + clustering, s) | ${k1:--} | ${kG:--} | $(eff_time "${k1:-}" "${kG:-}") | |"
    echo "| dock: GPU search (s; $G GPUs: the busiest) | ${g1:--} | ${gG:--} | $(eff_time "${g1:-}" "${gG:-}") | |"
    echo "| dock, $G shards at once + merge (wall s) | $t1 | $sS | $(eff_time "$t1" "$sS") | $(same "$OUT/dock1.sdf" "$OUT/dockS.sdf") |"
    echo "| dock $DEV1, input order vs longest first (wall s) | $tI | $t1 | | $(same "$OUT/dock1.sdf" "$OUT/dockI.sdf") |"
}
trap 'echo "(stopped by a signal at ${SECONDS}s)"; table; exit 143' TERM INT

# 1. bench minimize: the backend alone (packing, transfers, exact re-scoring included; set-up not).
echo; echo "== bench minimize, $MIN_POSES 1iep poses (t=${SECONDS}s)"
B="bench minimize $TARGET --ligand $D/ligand_xtal.pdbqt --poses $MIN_POSES --seed 1 --repeat 1"
w1=$(timed 120 bmin1 $CLI $B --device $DEV1)
wG=$(timed 120 bminG $CLI $B --device $DEVG)
b1=$(grep '^{"bench"' "$OUT/bmin1.out" | tail -1 | num poses_per_second)
bG=$(grep '^{"bench"' "$OUT/bminG.out" | tail -1 | num poses_per_second)
echo "  poses/s: $DEV1 ${b1:--}, $DEVG ${bG:--} (process wall, pose generation included: $w1 s, $wG s)"

# 2. The minimize command: SDF in, ranked SDF out (host reading, parsing and writing included).
echo; echo "== minimize command, $CMD_POSES poses (t=${SECONDS}s)"
timeout 120 $CLI bench minimize $TARGET --ligand $D/ligand_xtal.pdbqt --poses $CMD_POSES --seed 1 \
    --device $DEV1 --write-poses "$OUT/poses.sdf" > /dev/null 2>&1
M="minimize $TARGET --ligands $OUT/poses.sdf --timings"
m1=$(timed 120 min1 $CLI $M --device $DEV1 --out "$OUT/min1.sdf")
mG=$(timed 120 minG $CLI $M --device $DEVG --out "$OUT/minG.sdf")
echo "  cuda:0 ${m1} s:"; phases "$OUT/min1.err"
echo "  cuda:all ${mG} s:"; phases "$OUT/minG.err"

# 3. The dock command: SMILES to ranked SDF (embedding, maps, search, re-scoring, clustering).
echo; echo "== dock command, $(wc -l < "$LIG") ligands x $DOCK_RUNS runs, $BUDGET (t=${SECONDS}s)"
K="dock $TARGET --ligands $LIG --runs $DOCK_RUNS $BUDGET --seed 42 --timings"
t1=$(timed 100 dock1 $CLI $K --device $DEV1 --out "$OUT/dock1.sdf" --json "$OUT/dock1.json")
tG=$(timed 100 dockG $CLI $K --device $DEVG --out "$OUT/dockG.sdf" --json "$OUT/dockG.json")
echo "  cuda:0 ${t1} s:"; phases "$OUT/dock1.err"
echo "  cuda:all ${tG} s:"; phases "$OUT/dockG.err"
tim() { grep -o '"timings":{.*' "$1" 2>/dev/null; } # the summary's timings object
k1=$(tim "$OUT/dock1.json" | num dock); kG=$(tim "$OUT/dockG.json" | num dock)
g1=$(tim "$OUT/dock1.json" | maxnum gpu_search); gG=$(tim "$OUT/dockG.json" | maxnum gpu_search)

# 4. A job array's way: one shard per GPU at once, then merge.
echo; echo "== dock, $G shards at once + merge (t=${SECONDS}s)"
s0=$(date +%s.%N)
for k in $(seq 1 "$G"); do
    timeout 100 $CLI $K --device "${SHARD_DEVICE:-cuda:$((k - 1))}" --shard "$k/$G" --shard-block 16 \
        --out "$OUT/shard$k.sdf" > /dev/null 2> "$OUT/shard$k.err" &
done
wait
$CLI merge "$OUT/dockS.sdf" "$OUT"/shard*.sdf 2> "$OUT/merge.err" || echo "  merge failed: $(tail -1 "$OUT/merge.err")"
sS=$(awk -v s="$s0" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
for k in $(seq 1 "$G"); do echo "  shard $k/$G:"; phases "$OUT/shard$k.err"; done

# 5. Optional: the same dock on one GPU with its runs launched in input order (not longest first).
if [ "$SECONDS" -lt "$DEADLINE" ]; then
    echo; echo "== dock cuda:0, runs launched in input order (t=${SECONDS}s)"
    export POSEWRIGHT_DOCK_ORDER=input
    tI=$(timed 100 dockI $CLI $K --device $DEV1 --out "$OUT/dockI.sdf")
    unset POSEWRIGHT_DOCK_ORDER
    phases "$OUT/dockI.err"
else
    echo; echo "(input-order dock skipped: ${SECONDS}s past DEADLINE=${DEADLINE}s)"
fi

table
