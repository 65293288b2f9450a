#!/bin/bash
# Twelfth session (2026-11-27), the lead's device calls (nvidia-h100-x2: 2 GPUs, 32 host cores):
# the split local search (engine/cuda/DockKernel.cu's launchDockStep, CudaDocker::setLocalSearchWarps)
# against each run's block searching its own population (POSEWRIGHT_DOCK_LS_WARPS=0).
# POSEWRIGHT_DOCK_LS_MINBLOCKS was read only by the builds of calls 1-2 (the searches as a kernel
# of their own, RESULTS.md); later builds ignore it.
# The binaries were built on the development machine in /work/wt/lead and carried in C, made as
# session11_device.sh's header says (bin.tar.xz, libs.tar.xz, data.tar.xz), plus
#   screen.tar.xz  session11_device.sh's `screen` inputs (screen/ob_all.pdbqt, screen/maps/)
#   peers/         ../shared/tools/peers (AutoDock-GPU v1.5, autodock_gpu_64wi, and its libcudart)
# Usage, from the repository root on the device:  C=.carry12 bash tests/bench/session12_device.sh STEP...
#   suites  the docking gpu_test_* suites (and the others carried) on GPU 0, host cores 16-31
#   race    1stp and 3ce3 (AD4, AutoDock-GPU's maps and crystal ligand, nrun 100, seed 42,
#           `bench dock --repeat 3`) for each variant in VARIANTS ("default"; "W/B" sets
#           POSEWRIGHT_DOCK_LS_WARPS=W, 0 = never split, and POSEWRIGHT_DOCK_LS_MINBLOCKS=B), then
#           AutoDock-GPU `--nrun 100 --seed 42`, on GPU 1
#   screen  the 716-ligand united-atom AD4 screen of 1iep (20 runs, seed 42): never splitting on
#           GPU 0 and the defaults on GPU 1 at the same time
#   peer    the same screen, ours (the defaults) on GPU 0 and AutoDock-GPU v1.5 `--filelist` (the
#           same ligands as one file each: screen/ob/, screen/filelist.txt) on GPU 1 at once
# `suites` and `race` run at the same time (different GPUs and cores); `screen`, `peer` after them.
R=$PWD; C=$(cd "${C:-.carry12}" && pwd); OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for t in bin libs data screen; do [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"; done
export LD_LIBRARY_PATH=$C/libs
mkdir -p /work/wt "$R/build/engine"
[ -e /work/wt/lead ] || ln -s "$R" /work/wt/lead
[ -e /work/wt/shared ] || ln -s "$C" /work/wt/shared
[ -e "$R/build/engine/posewright-cli" ] || ln -s "$C/bin/posewright-cli" "$R/build/engine/posewright-cli"
nvidia-smi --query-gpu=index,name --format=csv,noheader; echo "cores $(nproc) $(date -u +%FT%TZ)"
VARIANTS=${VARIANTS:-"0 default 2/0 8/0"}

suites() {
    for t in "$C"/bin/gpu_test_*; do
        n=$(basename "$t"); s=$(date +%s.%N)
        CUDA_VISIBLE_DEVICES=0 taskset -c 16-31 timeout 300 "$t" > "$OUT/suite_$n.log" 2>&1; rc=$?
        echo "$n rc=$rc $(grep -E '^Totals' "$OUT/suite_$n.log") $(python3 -c "print(round($(date +%s.%N)-$s,1))")s"
        [ $rc = 0 ] || grep -E '^FAIL|Loc:' "$OUT/suite_$n.log" | head -6
    done > "$OUT/suites.txt" 2>&1
}
race() {
    for id in 1stp 3ce3; do
        local M=$C/data/complexes/$id/ad4maps
        for v in $VARIANTS; do
            # "default": the build's defaults; "W/B": POSEWRIGHT_DOCK_LS_WARPS=W (0: never split)
            # and POSEWRIGHT_DOCK_LS_MINBLOCKS=B.
            local w=${v%/*} mb=6 knobs=(); [[ $v != */* ]] || mb=${v#*/}
            [ "$v" = default ] || knobs=(POSEWRIGHT_DOCK_LS_WARPS=$w POSEWRIGHT_DOCK_LS_MINBLOCKS=$mb)
            env "${knobs[@]}" CUDA_VISIBLE_DEVICES=1 \
                taskset -c 0-15 timeout 90 "$C/bin/posewright-cli" bench dock --device cuda \
                --maps "$M/${id}_protein.maps.fld" --ligands "$M/../ligand_xtal.pdbqt" \
                --reference "$M/../ligand_xtal.pdbqt" --runs 100 --seed 42 --repeat 3 \
                > "$OUT/race_${id}_${w}_$mb.json" 2>&1
            echo "race $id split=$v rc=$?: $(grep -o '"seconds":[0-9.]*' "$OUT/race_${id}_${w}_$mb.json" | cut -d: -f2 | tr '\n' ' ') $(grep -oE '"(best_score|best_search_energy|top_rmsd_ref|evaluations)":[-0-9.]*' "$OUT/race_${id}_${w}_$mb.json" | head -4 | tr '\n' ' ')"
        done
        ( cd "$M" && LD_LIBRARY_PATH=$C/peers CUDA_VISIBLE_DEVICES=1 taskset -c 0-15 timeout 60 \
            "$C/peers/autodock_gpu_64wi" --ffile "${id}_protein.maps.fld" --lfile ../ligand_xtal.pdbqt \
            --nrun 100 --seed 42 > "$OUT/race_${id}_adgpu.log" 2>&1
          echo "race $id AutoDock-GPU rc=$?: $(grep -E 'Job #1 took|Run time' "$OUT/race_${id}_adgpu.log" | head -4 | tr '\n' ' ')" )
    done > "$OUT/race.txt" 2>&1
}
screen() {
    # The build's defaults (a launch splits below twice the SMs' live runs) on GPU 1 against
    # never splitting (POSEWRIGHT_DOCK_LS_WARPS=0) on GPU 0, at the same time.
    local S=$C/screen
    for g in 0 1; do
        local knobs=(POSEWRIGHT_DOCK_LS_WARPS=0) name=never
        [ $g = 0 ] || { knobs=(); name=default; }
        ( cd "$S/maps" && env "${knobs[@]}" CUDA_VISIBLE_DEVICES=$g \
            taskset -c $((g * 16))-$((g * 16 + 7)) timeout 400 "$C/bin/posewright-cli" bench dock \
            --device cuda --maps 1iep.maps.fld --ligands "$S/ob_all.pdbqt" --runs 20 --seed 42 --timings \
            > "$OUT/screen_$name.json" 2> "$OUT/screen_$name.err"; echo "screen $name (GPU $g) rc=$?" ) &
    done
    wait
    for name in never default; do
        echo "screen $name: $(grep -oE '"(docked|refused|seconds|ligands_per_second|evaluations_per_second|mean_generations|autostopped_fraction|best_search_energy)":[-0-9.e+]*' "$OUT/screen_$name.json" | tr '\n' ' ')"
        tail -2 "$OUT/screen_$name.err"
    done
    cmp <(grep -v -E 'seconds|per_second' "$OUT/screen_never.json") <(grep -v -E 'seconds|per_second' "$OUT/screen_default.json") \
        && echo "screen: the two JSON outputs are identical but for timings" || echo "screen: the JSON outputs differ"
}

peer() {
    local S=$C/screen
    ( cd "$S/maps" && CUDA_VISIBLE_DEVICES=0 taskset -c 0-7 timeout 400 "$C/bin/posewright-cli" bench dock \
        --device cuda --maps 1iep.maps.fld --ligands "$S/ob_all.pdbqt" --runs 20 --seed 42 --timings \
        > "$OUT/peer_ours.json" 2> "$OUT/peer_ours.err"; echo "ours rc=$?" ) &
    ( mkdir -p /tmp/adgpu && cd /tmp/adgpu && cp -r "$S/ob" "$S/maps" "$S/filelist.txt" . &&
      /usr/bin/time -f "adgpu_process_seconds %e" env LD_LIBRARY_PATH="$C/peers" CUDA_VISIBLE_DEVICES=1 \
        taskset -c 16-23 timeout 400 "$C/peers/autodock_gpu_64wi" --filelist filelist.txt --nrun 20 --seed 42 \
        > "$OUT/peer_adgpu.log" 2>&1; echo "AutoDock-GPU rc=$?" ) &
    wait
    echo "ours: $(grep -oE '"(docked|refused|seconds|ligands_per_second|evaluations_per_second|best_search_energy)":[-0-9.e+]*' "$OUT/peer_ours.json" | tr '\n' ' ')"
    echo "AutoDock-GPU: $(grep -iE "run time of entire|adgpu_process" "$OUT/peer_adgpu.log" | tail -2 | tr '\n' ' ')"
    echo "AutoDock-GPU dlg files: $(ls /tmp/adgpu/ob/*.dlg 2>/dev/null | wc -l)"
}

steps=" $* "
if [[ $steps == *" suites "* || $steps == *" race "* ]]; then
    [[ $steps != *" suites "* ]] || suites &
    [[ $steps != *" race "* ]] || race &
    wait
fi
[[ $steps != *" screen "* ]] || screen > "$OUT/screen.txt" 2>&1
[[ $steps != *" peer "* ]] || peer > "$OUT/peer.txt" 2>&1
for f in race screen peer suites; do
    [ -f "$OUT/$f.txt" ] || continue
    echo "== $f"; cat "$OUT/$f.txt"
done
