#!/usr/bin/env bash
# The lead's device calls of the fifth session (2026-11-26), one GPU. Phases as arguments:
#   checks  gpu_test_lingo_cuda ten times (the RDKit warm-up of the fourth session), then every
#           gpu suite of merged main once at full size
#   race    1stp and 3ce3, AD4, nrun 100, seed 42, --repeat 3: every CLI in CLIS (binary names in
#           C/bin) against AutoDock-GPU on the same GPU and maps (seeds 42-44)
#   prof    Nsight Compute on one docking launch of 1stp (AD4, defaults) for every CLI in PROF
#   dock30  the dock30 quality run (tests/bench/search_device.sh's protocol) for CLI_DOCK30
#   suites  the docking suites of the branch (C/bin/branch/gpu_test_*)
# C (default .carry-s5) holds bin.tar.xz (bin/posewright-cli*, bin/main/gpu_test_* built at main,
# bin/branch/gpu_test_* built on the branch), libs.tar.xz (bundle-libs.sh output), ad4/1stp|3ce3
# (ad4maps), shared/smiles/nci_first_5k.smi, dock30.tar.xz, peers/ (autodock_gpu_64wi,
# libcudart.so.13) and BUILT_AT (the checkout the binaries were built in).
set -uo pipefail
C=$(cd "${C:-.carry-s5}" && pwd)
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for t in bin libs dock30; do
    [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"
done
export LD_LIBRARY_PATH=$C/libs:$C/peers
B=$(cat "$C/BUILT_AT")
mkdir -p "$B/tests" "$B/build/engine" "$B/../shared/data/complexes"
[ -e "$B/tests/data" ] || ln -s "$PWD/tests/data" "$B/tests/data"
[ -e "$B/build/engine/posewright-cli" ] || ln -s "$C/bin/posewright-cli" "$B/build/engine/posewright-cli"
[ -e "$B/../shared/data/smiles" ] || ln -s "$C/shared/smiles" "$B/../shared/data/smiles"
for id in 1stp 3ce3; do
    mkdir -p "$B/../shared/data/complexes/$id"
    [ -e "$B/../shared/data/complexes/$id/ad4maps" ] ||
        ln -s "$C/ad4/$id" "$B/../shared/data/complexes/$id/ad4maps"
done
nvidia-smi --query-gpu=index,name,clocks.sm,clocks.max.sm --format=csv,noheader
echo "host cores: $(nproc); date: $(date -u +%FT%TZ)"

checks() {
    local ok=0 i t
    for i in 1 2 3 4 5 6 7 8 9 10; do
        timeout 90 "$C/bin/main/gpu_test_lingo_cuda" >"$OUT/lingo_$i.log" 2>&1
        rc=$?
        [ $rc = 0 ] && ok=$((ok + 1)) || echo "lingo run $i rc=$rc: $(tail -2 "$OUT/lingo_$i.log" | tr '\n' ' ')"
    done
    echo "gpu_test_lingo_cuda: $ok/10 passed"
    for t in $(ls "$C/bin/main" | grep '^gpu_test_' | grep -v lingo); do
        timeout ${SUITE_TIMEOUT:-120} "$C/bin/main/$t" >"$OUT/$t.log" 2>&1
        echo "$t rc=$? $(grep -E '^Totals' "$OUT/$t.log")"
        grep -E "^FAIL" -A2 "$OUT/$t.log" | cut -c1-250 | head -6
    done
}

suites() {
    local t
    for t in $(ls "$C/bin/branch" | grep '^gpu_test_'); do
        timeout ${SUITE_TIMEOUT:-120} "$C/bin/branch/$t" >"$OUT/branch_$t.log" 2>&1
        echo "branch $t rc=$? $(grep -E '^Totals' "$OUT/branch_$t.log")"
        grep -E "^FAIL" -A2 "$OUT/branch_$t.log" | cut -c1-250 | head -6
    done
}

race() {
    local id D cli seed
    for id in 1stp 3ce3; do
        D=$C/ad4/$id
        for cli in ${CLIS:-posewright-cli-base posewright-cli}; do
            env ${RACE_ENV:-} timeout 90 "$C/bin/$cli" bench dock --device cuda ${RACE_FLAGS:-} \
                --maps $D/${id}_protein.maps.fld --ligands $D/ligand_xtal.pdbqt \
                --reference $D/ligand_xtal.pdbqt --runs 100 --seed 42 --repeat 3 2>/dev/null |
                python3 -c "
import json, sys
r = [json.loads(l) for l in sys.stdin if l.startswith('{')]
if r: print('$cli $id: search s', ' '.join('%.3f' % x['seconds'] for x in r), ' best %.3f' % r[0]['best_score'],
            ' inter+intra %.3f' % r[0]['best_search_energy'], ' top1 A %s' % r[0].get('top_rmsd_ref'),
            ' gens %.1f' % r[0]['mean_generations'], ' evals/indiv %.1f' % r[0].get('evaluations_per_individual', 0),
            ' evals %s' % r[0].get('evaluations'), ' runs<2A %.2f' % r[0]['runs_within_2A_fraction'])"
        done
        for seed in ${ADGPU_SEEDS:-42 43}; do
            (cd "$D" && "$C/peers/autodock_gpu_64wi" --ffile ${id}_protein.maps.fld \
                --lfile ligand_xtal.pdbqt --nrun 100 --seed $seed 2>&1 | grep -iE "took" |
                tr '\n' ' ' | sed "s/^/AutoDock-GPU $id seed $seed: /")
            echo " best $(awk '/^   1 \|/ {print $3; exit}' "$D/ligand_xtal.dlg")" \
                "$(grep -iE "energy evaluations|generations used" "$D/ligand_xtal.dlg" |
                    awk -F: '/valuations/ {e += $2; ne++} /enerations/ {g += $2; ng++}
                        END {if (ne) printf "mean evals/run %.0f gens/run %.1f (%d runs)", e / ne, g / ng, ne}')"
        done
    done
}

prof() {
    local cli D=$C/ad4/1stp
    command -v ncu >/dev/null || { echo "no ncu"; return; }
    for cli in ${PROF:-posewright-cli-base posewright-cli}; do
        timeout 240 ncu --clock-control none --section LaunchStats --section Occupancy \
            --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis \
            --section ComputeWorkloadAnalysis --section SourceCounters -k regex:dockKernel -c 1 \
            -f -o "$OUT/prof_$cli" "$C/bin/$cli" bench dock --device cuda \
            --maps $D/1stp_protein.maps.fld --ligands $D/ligand_xtal.pdbqt --runs 100 --seed 42 \
            >"$OUT/prof_$cli.log" 2>&1
        echo "== ncu $cli rc=$?"
        ncu -i "$OUT/prof_$cli.ncu-rep" --page details --print-units base 2>&1 |
            grep -E "Duration|Registers|Achieved Occupancy|Theoretical Occupancy|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Local|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Stall|Block Limit|Waves" |
            head -40
        ncu -i "$OUT/prof_$cli.ncu-rep" --page details --section SourceCounters 2>&1 | tail -30
    done
}

# Per-source-line stall samples of one short docking launch (budget x0.1) on COMPLEX with CLI_PROF
# and warps WARPS: CSV of ncu's source page into OUT (aggregated on the development machine).
srcprof() {
    local cli=${CLI_PROF:-posewright-cli} id=${COMPLEX:-3ce3} D
    D=$C/ad4/$id
    [ -e "$B/engine" ] || ln -s "$PWD/engine" "$B/engine"
    POSEWRIGHT_DOCK_WARPS=${WARPS:-16} timeout 200 ncu --clock-control none --section SourceCounters \
        --section WarpStateStats --section LaunchStats --section Occupancy --import-source yes \
        -k regex:dockKernel -c 1 -f -o "$OUT/src_$id" "$C/bin/$cli" bench dock --device cuda \
        --maps $D/${id}_protein.maps.fld --ligands $D/ligand_xtal.pdbqt --runs 100 --seed 42 \
        --budget-scale 0.1 >"$OUT/src_$id.log" 2>&1
    echo "== srcprof $id rc=$?"
    ncu -i "$OUT/src_$id.ncu-rep" --page details --print-units base 2>&1 |
        grep -E "Duration|Registers Per|Achieved Occupancy|Local Memory|Stall|Warp Cycles Per Issued|Issue Slots" | head
    for v in ${SRC_VIEWS:-sass cuda,sass}; do
        ncu -i "$OUT/src_$id.ncu-rep" --page source --csv --print-source $v >"$OUT/src_${id}_${v/,/_}.csv" 2>&1
        echo "source csv $v: $(wc -l <"$OUT/src_${id}_${v/,/_}.csv") lines"
        gzip -f "$OUT/src_${id}_${v/,/_}.csv"
    done
    rm -f "$OUT/src_$id.ncu-rep"
}

# Warps per block against search time (1stp, 3ce3), CLI_PROF.
warps() {
    local w id D cli=${CLI_PROF:-posewright-cli}
    for id in 1stp 3ce3; do
        D=$C/ad4/$id
        for w in ${WARPS_LIST:-8 16 32}; do
            POSEWRIGHT_DOCK_WARPS=$w timeout 60 "$C/bin/$cli" bench dock --device cuda \
                --maps $D/${id}_protein.maps.fld --ligands $D/ligand_xtal.pdbqt \
                --reference $D/ligand_xtal.pdbqt --runs 100 --seed 42 --repeat 3 2>/dev/null |
                python3 -c "
import json, sys
r = [json.loads(l) for l in sys.stdin if l.startswith('{')]
if r: print('$cli $id warps $w: search s', ' '.join('%.3f' % x['seconds'] for x in r), ' best %.3f' % r[0]['best_score'], ' evals %s' % r[0].get('evaluations'))"
        done
    done
}

dock30() {
    local D30=$C/dock30 ids id CLI=$C/bin/${CLI_DOCK30:-posewright-cli}
    ids=$(ls "$D30" | grep -v csv | grep -v -E '^(3drf|2vaa|3er5)$')
    for id in $ids; do
        mkdir -p "$D30/$id/maps"
        [ -f "$D30/$id/maps/protein.maps.fld" ] ||
            timeout 60 "$CLI" maps --gpf "$D30/$id/protein.gpf" --receptor "$D30/$id/protein.pdbqt" \
                --out "$D30/$id/maps/protein.maps.fld" --device cuda >"$D30/$id/maps.log" 2>&1
    done
    local jl=$OUT/dock30_${CLI_DOCK30:-posewright-cli}.jsonl
    : >"$jl"
    for id in $ids; do
        line=$(env ${RACE_ENV:-} timeout 40 "$CLI" bench dock --device cuda ${RACE_FLAGS:-} \
            --maps "$D30/$id/maps/protein.maps.fld" --ligands "$D30/$id/flex-xray.pdbqt" \
            --reference "$D30/$id/flex-xray.pdbqt" --runs 100 --seed 42 2>/dev/null | grep '"bench"')
        [ -n "$line" ] && echo "$id $line" >>"$jl" || echo "dock30 $id: failed or timed out"
    done
    python3 - "$jl" "$D30/ligand_properties.csv" <<'EOF'
import json, sys
props = {l.split(",")[0]: l.strip().split(",") for l in open(sys.argv[2]) if "," in l}
n = near = top = 0; sec = 0.0
for line in open(sys.argv[1]):
    pid, js = line.split(" ", 1)
    d = json.loads(js); p = props[pid]; ref = float(p[3] or p[5])
    n += 1; near += d["best_search_energy"] <= ref + 0.5
    top += (d.get("top_rmsd_ref") is not None and d["top_rmsd_ref"] < 2.0); sec += d["seconds"]
print(f"dock30: reached {near}/{n}  top1<2A {top}/{n}  search s {sec:.1f}")
EOF
}

for phase in "$@"; do
    echo "=== $phase $(date -u +%T)"
    $phase
done
