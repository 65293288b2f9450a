#!/bin/bash
# Twenty-first session (2026-11-28), the lead's device calls (nvidia-h200-x2: 2 GPUs, 32 host
# cores), issue 13: where the docking kernel's time goes (Nsight Compute), and BFGS's stop on a
# creeping search (--ls-stop-decrease) on dock30 and the race.
# The carried folder C is made from /work/main's root after building posewright-cli in the
# worktree (session13_device.sh's header has the pattern):
#   C=.carry21; mkdir -p $C/bin && cp ../wt/lead/build/engine/posewright-cli $C/bin/ && strip $C/bin/*
#   ../shared/tools/bundle-libs.sh $C/bin/* $C/libs; cp ../shared/tools/peers/* $C/peers/
#   tar -C ../shared -cf - data/complexes/1stp data/complexes/3ce3 | xz -6 -T2 > $C/data.tar.xz
#   dock30.tar.xz: ../shared/data/docking/dock30.tar.xz unpacked, make_gpf.py run on each complex
# Usage, from the repository root on the device:  C=.carry21 bash tests/bench/session21_device.sh STEP...
#   quality   session13_device.sh's step (dock30 + race per variant: VARIANTS0 on GPU 0,
#             VARIANTS1 on GPU 1, at the same time), then `peerrace` (AutoDock-GPU on GPU 1)
#   profile   ncu (--clock-control none) over three launches of the docking kernel in the race
#             (1stp, 3ce3, defaults), the sections in NCU_SECTIONS; the split search's launches
#             are the third of each generation's three
R=$PWD; C=$(cd "${C:-.carry21}" && pwd); OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export C OUT
S13=$R/tests/bench/session13_device.sh
CLI=$C/bin/posewright-cli

quality() {
    bash "$S13" quality peerrace
}

profile() {
    bash "$S13" > /dev/null 2>&1 # unpacks C
    export LD_LIBRARY_PATH=$C/libs
    local NCU sections=${NCU_SECTIONS:-"SpeedOfLight Occupancy LaunchStats WarpStateStats SchedulerStats ComputeWorkloadAnalysis MemoryWorkloadAnalysis InstructionStats SourceCounters"}
    NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    local args=(); for s in $sections; do args+=(--section "$s"); done
    for id in 1stp 3ce3; do
        local M=$C/data/complexes/$id/ad4maps
        CUDA_VISIBLE_DEVICES=0 timeout 240 "$NCU" --clock-control none --kernel-name regex:dock \
            --launch-skip ${NCU_SKIP:-6} --launch-count ${NCU_COUNT:-3} "${args[@]}" \
            "$CLI" bench dock --device cuda --maps "$M/${id}_protein.maps.fld" \
            --ligands "$M/../ligand_xtal.pdbqt" --runs 100 --seed 42 > "$OUT/ncu_$id.txt" 2>&1
        echo "ncu $id rc=$?"
    done > "$OUT/profile.txt" 2>&1
}

# The search-only launch's instance (POSEWRIGHT_DOCK_SEARCH_REGS: 64, 96 or 128 registers per
# thread) and its warps per block (POSEWRIGHT_DOCK_LS_WARPS), a variant "REGS/WARPS" each
# (REGVARIANTS), on the race (1stp, 3ce3, --repeat 3) on GPU 0; then the split-equality suite
# (gpu_test_dock_order_gpu) under each REGS of REGSUITES.
regs() {
    bash "$S13" > /dev/null 2>&1 # unpacks C
    export LD_LIBRARY_PATH=$C/libs
    for id in 1stp 3ce3; do
        local M=$C/data/complexes/$id/ad4maps
        for v in ${REGVARIANTS:-64/2 96/2 128/2}; do
            POSEWRIGHT_DOCK_SEARCH_REGS=${v%/*} POSEWRIGHT_DOCK_LS_WARPS=${v#*/} CUDA_VISIBLE_DEVICES=0 \
                taskset -c 0-15 timeout 90 "$CLI" bench dock --device cuda \
                --maps "$M/${id}_protein.maps.fld" --ligands "$M/../ligand_xtal.pdbqt" \
                --reference "$M/../ligand_xtal.pdbqt" --runs 100 --seed 42 --repeat 3 \
                > "$OUT/regs_${id}_${v/\//_}.json" 2>&1
            echo "race $id regs/warps=$v rc=$?: $(grep -o '"seconds":[0-9.]*' "$OUT/regs_${id}_${v/\//_}.json" | cut -d: -f2 | tr '\n' ' ') $(grep -oE '"(best_search_energy|top_rmsd_ref|evaluations|mean_generations)":[-0-9.]*' "$OUT/regs_${id}_${v/\//_}.json" | head -4 | tr '\n' ' ')"
        done
    done > "$OUT/regs.txt" 2>&1
    for r in ${REGSUITES:-}; do
        for t in "$C"/bin/gpu_test_*; do
            POSEWRIGHT_DOCK_SEARCH_REGS=$r CUDA_VISIBLE_DEVICES=${SUITE_GPU:-0} timeout 400 "$t" > "$OUT/suite_${r}_$(basename "$t").log" 2>&1
            echo "regs $r $(basename "$t") rc=$? $(grep -E '^Totals' "$OUT/suite_${r}_$(basename "$t").log")"
            grep -E '^FAIL|Loc:' "$OUT/suite_${r}_$(basename "$t").log" | head -6
        done
    done >> "$OUT/regs.txt" 2>&1
}

# Source lines of the split search's launch (the 8th launch: generation 1's search), by warp
# stall samples: ncu's source page of a SourceCounters report, summed per CUDA line.
srcprof() {
    bash "$S13" > /dev/null 2>&1 # unpacks C
    export LD_LIBRARY_PATH=$C/libs
    local NCU; NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    for id in ${SRC_IDS:-1stp 3ce3}; do
        local M=$C/data/complexes/$id/ad4maps
        CUDA_VISIBLE_DEVICES=0 timeout 240 "$NCU" --clock-control none --kernel-name regex:dock \
            --launch-skip 7 --launch-count 1 --section SourceCounters --section WarpStateStats \
            --import-source yes -f -o "$OUT/src_$id" \
            "$CLI" bench dock --device cuda --maps "$M/${id}_protein.maps.fld" \
            --ligands "$M/../ligand_xtal.pdbqt" --runs 100 --seed 42 > "$OUT/src_$id.log" 2>&1
        echo "ncu src $id rc=$?"
        "$NCU" -i "$OUT/src_$id.ncu-rep" --page source --csv --print-source cuda,sass > "$OUT/src_$id.csv" 2> "$OUT/src_$id.err"
        echo "source page rc=$? $(wc -l < "$OUT/src_$id.csv") lines"; head -c 600 "$OUT/src_$id.err"; head -3 "$OUT/src_$id.csv" | cut -c1-400
        xz -T4 -k "$OUT/src_$id.csv"; rm -f "$OUT/src_$id.ncu-rep"
        python3 - "$OUT/src_$id.csv" <<'EOF2'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
if not rows: sys.exit("empty")
# The page lists each file's lines; find the header row with the sample columns.
hi = next((i for i, r in enumerate(rows) if any("Sampl" in c for c in r)), None)
if hi is None: sys.exit("no sampling column")
h = rows[hi]; print("columns:", h[:12])
si = next(i for i, c in enumerate(h) if "Warp Stall Sampling (All" in c)
ii = next((i for i, c in enumerate(h) if c.startswith("Instructions Executed")), None)
ti = next((i for i, c in enumerate(h) if "Thread Instructions Executed" in c), None)
out = []
for r in rows[hi + 1:]:
    if len(r) <= si: continue
    try: s = float(r[si].replace(",", "") or 0)
    except ValueError: continue
    out.append((s, r))
tot = sum(s for s, _ in out) or 1
print(f"total samples {tot:.0f}")
for s, r in sorted(out, key=lambda x: -x[0])[:45]:
    ins = r[ii] if ii is not None else ""; thr = r[ti] if ti is not None else ""
    print(f"{100*s/tot:5.1f}% ins {ins:>12} thr {thr:>13} | {r[0][:6]} {r[1][:110]}")
EOF2
    done > "$OUT/srcprof.txt" 2>&1
}

# The race (1stp, 3ce3, --repeat 3) on GPU 0 with each binary of AB (paths relative to C; new/ is
# unpacked from new.tar.xz), alternated twice, then AutoDock-GPU on the same GPU.
ab() {
    bash "$S13" > /dev/null 2>&1 # unpacks C
    [ -d "$C/new" ] || tar -C "$C" -xJf "$C/new.tar.xz"
    export LD_LIBRARY_PATH=$C/libs
    for round in 1 2; do
        for id in 1stp 3ce3; do
            local M=$C/data/complexes/$id/ad4maps
            for b in ${AB:-bin/posewright-cli new/posewright-cli}; do
                CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 timeout 90 "$C/$b" bench dock --device cuda \
                    --maps "$M/${id}_protein.maps.fld" --ligands "$M/../ligand_xtal.pdbqt" \
                    --reference "$M/../ligand_xtal.pdbqt" --runs 100 --seed 42 --repeat 3 > "$OUT/ab.json" 2>&1
                echo "race $id $b round $round rc=$?: $(grep -o '"seconds":[0-9.]*' "$OUT/ab.json" | cut -d: -f2 | tr '\n' ' ') $(grep -oE '"(best_search_energy|top_rmsd_ref|evaluations|mean_generations)":[-0-9.]*' "$OUT/ab.json" | head -4 | tr '\n' ' ')"
            done
        done
    done > "$OUT/ab.txt" 2>&1
    for id in 1stp 3ce3; do
        local M=$C/data/complexes/$id/ad4maps
        ( cd "$M" && LD_LIBRARY_PATH=$C/peers CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 timeout 60 \
            "$C/peers/autodock_gpu_64wi" --ffile "${id}_protein.maps.fld" --lfile ../ligand_xtal.pdbqt \
            --nrun 100 --seed 42 > "$OUT/ab_${id}_adgpu.log" 2>&1
          echo "race $id AutoDock-GPU rc=$?: $(grep -E 'Job #1 took|Run time' "$OUT/ab_${id}_adgpu.log" | head -4 | tr '\n' ' ')" )
    done >> "$OUT/ab.txt" 2>&1
}

for step in "$@"; do "$step"; done
for f in quality peerrace profile regs srcprof ab; do
    [ -f "$OUT/$f.txt" ] || continue
    echo "== $f"; cat "$OUT/$f.txt"
done
