#!/bin/bash
# Eleventh session (2026-11-27), the lead's device calls on nvidia-h100-x2 (2 GPUs, 32 host cores).
# The binaries were built on the development machine in /work/wt/lead (they name tests/data,
# ../shared/data and build/engine/posewright-cli by that path) and carried in C:
#   bin.tar.xz   every gpu_test_*, posewright-cli (stripped)
#   libs.tar.xz  ../shared/tools/bundle-libs.sh's output for them
#   data.tar.xz  ../shared/data (complexes, docking, smiles, shapes)
# Making C (from the worktree root, after building posewright-cli and the gpu_test_* targets):
#   C=.carry11; mkdir -p $C/bin && cp build/engine/posewright-cli build/tests/gpu_test_* $C/bin/
#   rm -rf $C/bin/*_autogen; strip $C/bin/*; ../shared/tools/bundle-libs.sh $C/bin/* $C/libs
#   tar -C $C -cf - bin | xz -9 -T2 > $C/bin.tar.xz; tar -C $C -cf - libs | xz -9 -T2 > $C/libs.tar.xz
#   tar -C ../shared -cf - data | xz -6 -T2 > $C/data.tar.xz; rm -rf $C/bin $C/libs
# Usage, from the repository root on the device:  C=.carry11 bash tests/bench/session11_device.sh STEP...
#   suites  every gpu_test_* on GPU 0 (host cores 16-31), one line per suite
#   hits    tests/bench/hits_device.sh on host cores 0-15 (issue 15 item 4), beside `suites`
#   scale   tests/bench/scale_device.sh on both GPUs (issue 17 item 4), alone on the host
#   ab      the launch groups of engine/cuda/DockGpu.cpp (bin/posewright-cli) against main's
#           launches (bin/posewright-cli-base): a 1iep AD4 screen of the first NSCREEN (500) NCI
#           SMILES x 20 runs, base on GPU 0 and new on GPU 1 at once; then the race, 1stp and 3ce3
#           (AD4, AutoDock-GPU's maps, nrun 100, 3 repeats), base then new on GPU 0
#   screen  the 1,000-ligand AD4 screen against AutoDock-GPU in one call: C/screen.tar.xz holds
#           screen/ob/*.pdbqt (the first 1,000 NCI SMILES made 3D and written as united-atom AD4
#           PDBQT by Open Babel, the ligands AD4.1_bound cannot type left out), screen/filelist.txt
#           (AutoDock-GPU's --filelist: the maps' FLD, then one ligand per line), screen/ob_all.pdbqt
#           (the same ligands in one file, one MODEL each, for ours) and screen/maps/ (autogrid4
#           4.2.6's 1iep maps for their types); ours (bin/posewright-cli) on GPU 0 and AutoDock-GPU
#           v1.5 (C/peers: ../shared/tools/peers) on GPU 1 at the same time, 20 runs, seed 42
#   export  `hits export` of 1M generated poses to SDF (issue 15 item 4), helper export's build
#           (bin/posewright-cli) against d1ee3e0's (bin/posewright-cli-base) and others named in
#           EXPORT_BINARIES, alternated twice, on host cores 16-31, beside `screen` (cores 0-15)
#   ad4     gpu_test_ad4_pair_score and `bench pair-score --scoring ad4` (issue 18), if carried
# Steps given together run in that order, `suites` and `hits` at the same time.
R=$PWD; C=$(cd "${C:-.carry11}" && pwd); OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for t in bin libs data; do [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"; done
export LD_LIBRARY_PATH=$C/libs
# The paths compiled into the binaries.
mkdir -p /work/wt "$R/build/engine"
[ -e /work/wt/lead ] || ln -s "$R" /work/wt/lead
[ -e /work/wt/shared ] || ln -s "$C" /work/wt/shared
[ -e "$R/build/engine/posewright-cli" ] || ln -s "$C/bin/posewright-cli" "$R/build/engine/posewright-cli"
nvidia-smi --query-gpu=index,name --format=csv,noheader; echo "cores $(nproc) $(date -u +%FT%TZ)"

suites() {
    for t in "$C"/bin/gpu_test_*; do
        n=$(basename "$t"); s=$(date +%s.%N)
        CUDA_VISIBLE_DEVICES=0 taskset -c 16-31 timeout 300 "$t" > "$OUT/suite_$n.log" 2>&1; rc=$?
        echo "$n rc=$rc $(grep -E '^Totals' "$OUT/suite_$n.log") $(python3 -c "print(round($(date +%s.%N)-$s,1))")s"
        [ $rc = 0 ] || grep -E '^FAIL|Loc:' "$OUT/suite_$n.log" | head -6
    done > "$OUT/suites.txt" 2>&1
}
hits() {
    mkdir -p "$C/hb/bin"; ln -sf "$C/bin/posewright-cli" "$C/hb/bin/"; ln -sfn "$C/libs" "$C/hb/libs"
    cp "$C/data/smiles/nci32768.smi" "$C/hb/"
    C=$C/hb OUT=/tmp/hits_out THREADS=16 taskset -c 0-15 bash "$R/tests/bench/hits_device.sh" > "$OUT/hits.txt" 2>&1
}
scale() {
    mkdir -p "$C/sc/bin"; ln -sf "$C"/bin/posewright-cli "$C"/bin/gpu_test_multi_gpu "$C"/bin/gpu_test_dock_order_gpu "$C/sc/bin/"
    ln -sfn "$C/libs" "$C/sc/libs"; cp "$C/data/smiles/nci_first_5k.smi" "$C/sc/"
    C=$C/sc OUT=/tmp/scale DEADLINE=${DEADLINE:-200} bash "$R/tests/bench/scale_device.sh" > "$OUT/scale.txt" 2>&1
}
ab() {
    local D=$R/tests/data/complexes/1iep N=${NSCREEN:-500}
    head -n "$N" "$C/data/smiles/nci_first_5k.smi" > /tmp/screen.smi
    for v in base new; do
        local cli=$C/bin/posewright-cli gpu=1 cores=16-31
        [ $v = new ] || cli=$C/bin/posewright-cli-base gpu=0 cores=0-15
        ( CUDA_VISIBLE_DEVICES=$gpu taskset -c $cores timeout 400 "$cli" bench dock --device cuda \
            --receptor "$D/receptor.pdbqt" --box "$D/box.txt" --scoring ad4 --ligands /tmp/screen.smi \
            --runs 20 --seed 42 --timings > "$OUT/screen_$v.json" 2> "$OUT/screen_$v.err"
          echo "screen $v (GPU $gpu) rc=$?" ) &
    done
    wait
    for v in base new; do
        echo "screen $v: $(grep -oE '"(seconds|ligands_per_second|evaluations_per_second|best_search_energy|mean_generations|autostopped_fraction)":[-0-9.e+]*' "$OUT/screen_$v.json" | tr '\n' ' ')"
        tail -3 "$OUT/screen_$v.err"
    done
    for id in 1stp 3ce3; do
        local M=$C/data/complexes/$id/ad4maps
        for v in base new; do
            local cli=$C/bin/posewright-cli; [ $v = new ] || cli=$C/bin/posewright-cli-base
            CUDA_VISIBLE_DEVICES=0 timeout 60 "$cli" bench dock --device cuda --maps "$M/${id}_protein.maps.fld" \
                --ligands "$M/../ligand_xtal.pdbqt" --reference "$M/../ligand_xtal.pdbqt" --runs 100 --seed 42 \
                --repeat 3 > "$OUT/race_${id}_$v.json" 2>&1
            echo "race $id $v: $(grep -o '"seconds":[0-9.]*' "$OUT/race_${id}_$v.json" | cut -d: -f2 | tr '\n' ' ') $(grep -o '"best_score":[-0-9.]*' "$OUT/race_${id}_$v.json" | head -1)"
        done
    done
}
export_() {
    local W=/tmp/hx B=$C/bin; mkdir -p $W
    taskset -c 16-31 timeout 200 "$B/posewright-cli" bench hits --molecules "$R/tests/data/shapes/cdk2.sdf" \
        --dir $W --poses 1000000 --keep ${EXPORT_BENCH_ARGS:-} 2>&1 | grep -E '"what":"(import|open|export_sdf|plain_write)"'
    # EXPORT_BINARIES: the builds to alternate (the helper's thread cap of 16, and variants with
    # the cap at 8 and 4, beside d1ee3e0's min(8, cores)).
    for round in 1 2; do
        for b in ${EXPORT_BINARIES:-posewright-cli-base posewright-cli}; do
            [ -x "$B/$b" ] || continue
            rm -f $W/o.sdf; sync
            /usr/bin/time -f "$b hits export 1M: %e s wall, %U s user, %S s system" taskset -c 16-31 \
                timeout 60 "$B/$b" hits export $W/bench_hits.db --out $W/o.sdf 2>&1 | tail -1
        done
    done
    ls -la $W/o.sdf
}
screen() {
    [ -d "$C/screen" ] || tar -C "$C" -xJf "$C/screen.tar.xz"
    local S=$C/screen
    ( cd "$S/maps" && CUDA_VISIBLE_DEVICES=0 taskset -c 0-7 timeout 500 "$C/bin/posewright-cli" bench dock \
        --device cuda --maps 1iep.maps.fld --ligands "$S/ob_all.pdbqt" --runs 20 --seed 42 --timings \
        > "$OUT/screen_ours.json" 2> "$OUT/screen_ours.err"; echo "ours rc=$?" ) &
    ( mkdir -p /tmp/adgpu && cd /tmp/adgpu && cp -r "$S/ob" "$S/maps" "$S/filelist.txt" . &&
      /usr/bin/time -f "adgpu_process_seconds %e" env LD_LIBRARY_PATH="$C/peers" CUDA_VISIBLE_DEVICES=1 \
        taskset -c 8-15 timeout 500 "$C/peers/autodock_gpu_64wi" --filelist filelist.txt --nrun 20 --seed 42 \
        > "$OUT/screen_adgpu.log" 2>&1; echo "AutoDock-GPU rc=$?" ) &
    wait
    echo "ours: $(grep -oE '"(count|refused|docked|seconds|setup_seconds|ligands_per_second|evaluations_per_second|mean_generations|autostopped_fraction|best_search_energy)":[-0-9.e+]*' "$OUT/screen_ours.json" | tr '\n' ' ')"
    tail -4 "$OUT/screen_ours.err"
    echo "AutoDock-GPU:"; grep -iE "run time|job set|error|adgpu_process" "$OUT/screen_adgpu.log" | tail -6
    echo "AutoDock-GPU dlg files: $(ls /tmp/adgpu/ob/*.dlg /tmp/adgpu/*.dlg 2>/dev/null | wc -l)"
}
ad4() {
    # Issue 18's AD4 pair kernel (helper ad4gpu): its suites on GPU 0, then bench ad4exact on
    # 1,000,000 perturbed crystal poses of 1stp and 3ce3 (GPU vs one core and all cores).
    for t in gpu_test_ad4_pair_score gpu_test_ad4_score_cli_gpu gpu_test_ad4_maps_gpu \
             gpu_test_ad4_map_kernel_math cudahost_test_ad4_pair_math cli_test_cli_bench_ad4exact \
             cli_test_cli_score_ad4_exact hits_test_hits_rescore_ad4; do
        [ -x "$C/bin/$t" ] || { echo "$t not carried"; continue; }
        (cd "$R/build" 2>/dev/null || cd "$R"; CUDA_VISIBLE_DEVICES=0 timeout 200 "$C/bin/$t") > "$OUT/ad4_$t.log" 2>&1
        echo "$t rc=$? $(grep -E '^Totals' "$OUT/ad4_$t.log")"
        grep -E '^FAIL|Loc:|QINFO|QWARN' "$OUT/ad4_$t.log" | head -12
    done
    for id in 1stp 3ce3; do
        CUDA_VISIBLE_DEVICES=0 timeout 150 "$C/bin/posewright-cli" bench ad4exact \
            --gpf "$C/data/complexes/$id/ad4maps/$id.gpf" --receptor "$R/tests/data/complexes/$id/receptor.pdbqt" \
            --ligand "$R/tests/data/complexes/$id/ligand_xtal.pdbqt" --poses 1000000 --cpu-poses 2000 \
            --outside penalty 2>&1 | tail -12
    done
}

steps=" $* "
if [[ $steps == *" suites "* || $steps == *" hits "* ]]; then
    [[ $steps != *" suites "* ]] || suites &
    [[ $steps != *" hits "* ]] || hits &
    wait
fi
[[ $steps != *" ab "* ]] || ab > "$OUT/ab.txt" 2>&1
[[ $steps != *" scale "* ]] || scale
[[ $steps != *" ad4 "* ]] || ad4 > "$OUT/ad4.txt" 2>&1
if [[ $steps == *" screen "* || $steps == *" export "* ]]; then
    [[ $steps != *" screen "* ]] || screen > "$OUT/screen.txt" 2>&1 &
    [[ $steps != *" export "* ]] || export_ > "$OUT/export.txt" 2>&1 &
    wait
fi
for f in suites hits ab scale ad4 screen export; do
    [ -f "$OUT/$f.txt" ] || continue
    echo "== $f"
    case $f in
        suites) cat "$OUT/$f.txt" ;;
        *) tail -45 "$OUT/$f.txt" ;;
    esac
done
