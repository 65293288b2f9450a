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
for f in suites hits ab scale ad4; do
    [ -f "$OUT/$f.txt" ] || continue
    echo "== $f"
    case $f in
        suites) cat "$OUT/$f.txt" ;;
        *) tail -45 "$OUT/$f.txt" ;;
    esac
done
