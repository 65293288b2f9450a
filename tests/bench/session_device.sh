#!/usr/bin/env bash
# The lead's one device call for merged main (2026-11-26, second session of the day), on a machine
# with two GPUs (nvidia-h100-x2). Phases, each with its own time limit so that a slow part cannot
# take the others' results with it:
# Usage: tests/bench/session_device.sh [scale] [streams] [sanitize] [screen] [sharing]
#   (default: scale streams; screen: our 1,000-ligand screen on GPU 0 while memcheck runs on GPU 1)
#   scale: tests/bench/scale_device.sh (one GPU against both: minimize and dock, outputs compared)
#   streams: at the same time, one stream per GPU:
#      GPU 0: AD4 race with AutoDock-GPU on 1stp and 3ce3 (same maps, nrun 100; AutoDock-GPU runs on
#             the same GPU right after ours), Vina 1iep against `vina --exhaustiveness 8`, then our
#             1,000-ligand AD4 screen into 1iep (20 runs each);
#      GPU 1: AutoDock-GPU's 1,000-ligand screen (`--filelist`, 20 runs each, same maps), then every
#             gpu test suite;
#   sanitize: compute-sanitizer memcheck over some gpu suites, two at a time.
# Run from the repository root on the GPU machine with the carried folder C (default
# .carry-session) holding bin.tar.xz (bin/: posewright-cli, gpu_test_*), libs.tar.xz
# (bundle-libs.sh output for them and for vina), peers/ (autodock_gpu_64wi, libcudart.so.13,
# vina), ad4.tar.xz (ad4/<id>/ maps + ligand_xtal.pdbqt for 1stp, 3ce3, 1iep), screen.tar.xz
# (screen/ob/: 1,000 NCI ligands prepared by posewright and re-written by `obabel -ipdbqt -opdbqt`
# as the united-atom AD4 PDBQT AutoDock-GPU reads; screen/filelist.txt for it; screen/ob_all.pdbqt:
# the same 1,000 in one file, one MODEL each, for ours), shared.tar.xz (the
# shared data the gpu suites read: smiles/nci_first_5k.smi) and BUILT_AT (the checkout the
# binaries were built in: they read tests/data and ../shared/data through it).
set -uo pipefail
C=${C:-$PWD/.carry-session}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for t in bin libs ad4 screen shared; do
    [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"
done
export LD_LIBRARY_PATH=$C/libs:$C/peers
CLI=$C/bin/posewright-cli
built_at=$(cat "$C/BUILT_AT")
mkdir -p "$built_at/tests" "$built_at/../shared/data/complexes"
[ -e "$built_at/tests/data" ] || ln -s "$PWD/tests/data" "$built_at/tests/data"
mkdir -p "$built_at/build/engine" # gpu_test_gpu_sharing runs the CLI by its build path
[ -e "$built_at/build/engine/posewright-cli" ] || ln -s "$C/bin/posewright-cli" "$built_at/build/engine/posewright-cli"
[ -e "$built_at/../shared/data/smiles" ] || ln -s "$C/shared/smiles" "$built_at/../shared/data/smiles"
for id in 1stp 3ce3; do
    mkdir -p "$built_at/../shared/data/complexes/$id"
    [ -e "$built_at/../shared/data/complexes/$id/ad4maps" ] ||
        ln -s "$C/ad4/$id" "$built_at/../shared/data/complexes/$id/ad4maps"
done
nvidia-smi --query-gpu=index,name,uuid --format=csv,noheader
echo "host cores: $(nproc); date: $(date -u +%FT%TZ)"

adgpu() { # dir, args...: AutoDock-GPU's whole process time and its own docking time
    local dir=$1
    shift
    (cd "$dir" && /usr/bin/time -f "adgpu_process_seconds %e" "$C/peers/autodock_gpu_64wi" "$@" 2>&1 |
        grep -iE "took|run time|seconds|error" | tail -4)
}

phases=${*:-scale streams}

scale_phase() { # 1. One GPU against both.
mkdir -p "$C/scale/bin"
ln -sf "$C/bin/posewright-cli" "$C/bin/gpu_test_multi_gpu" "$C/scale/bin/"
ln -sfn "$C/libs" "$C/scale/libs"
head -${SCALE_LIGANDS:-100} tests/data/smiles/nci_first_300.smi > /tmp/scale_ligands.smi
C=$C/scale OUT=$OUT/scale POSES=${POSES:-200000} RUNS=${RUNS:-10} LIGANDS=/tmp/scale_ligands.smi \
    timeout ${SCALE_TIMEOUT:-240} bash tests/bench/scale_device.sh > "$OUT/scale.txt" 2>&1
echo "== scale (rc=$?)"
cat "$OUT/scale.txt" | tail -12
}

# 2. Two streams at once.
stream_gpu0() {
    export CUDA_VISIBLE_DEVICES=0
    for id in 1stp 3ce3; do
        D=$C/ad4/$id
        timeout 120 $CLI bench dock --device cuda --local-search adadelta \
            --maps $D/${id}_protein.maps.fld --ligands $D/ligand_xtal.pdbqt \
            --reference $D/ligand_xtal.pdbqt --runs 100 --seed 42 --repeat 3 2>&1 |
            grep '"bench"' | sed "s/^/ours $id /" | cut -c1-600
        /usr/bin/time -f "ours_process_seconds $id %e" timeout 90 $CLI dock --device cuda \
            --local-search adadelta --maps $D/${id}_protein.maps.fld \
            --ligands $D/ligand_xtal.pdbqt --runs 100 --seed 42 --out /tmp/$id.sdf 2>&1 | tail -1
        for seed in 42 43 44; do
            echo "AutoDock-GPU $id seed $seed: $(adgpu "$D" --ffile ${id}_protein.maps.fld \
                --lfile ligand_xtal.pdbqt --nrun 100 --seed $seed | tr '\n' ' ')"
            grep -m1 -A2 "RMSD TABLE" -h "$D/ligand_xtal.dlg" > /dev/null
            awk '/^   1 \|/ && !done {print "  adgpu best cluster:", $0; done=1}' "$D/ligand_xtal.dlg"
        done
    done
    D=tests/data/complexes/1iep
    timeout 60 $CLI bench dock --device cuda --local-search adadelta --receptor $D/receptor.pdbqt \
        --box $D/box.txt --ligands $D/ligand_xtal.pdbqt --reference $D/ligand_xtal.pdbqt --runs 100 \
        --seed 42 --repeat 3 2>&1 | grep '"bench"' | sed "s/^/ours vina 1iep /" | cut -c1-600
    /usr/bin/time -f "vina_process_seconds %e" timeout 120 "$C/peers/vina" --receptor $D/receptor.pdbqt \
        --ligand $D/ligand_xtal.pdbqt --config $D/box.txt --exhaustiveness 8 --seed 42 \
        --cpu "$(nproc)" --out /tmp/vina_1iep.pdbqt 2>&1 | grep -E "^ +1 |process_seconds"
    [ -n "${NO_SCREEN:-}" ] || screen_ours
}
screen_ours() { # the ligands AutoDock-GPU docks (united-atom AD4 PDBQT, one MODEL each), same maps
    timeout ${SCREEN_TIMEOUT:-300} $CLI bench dock --device cuda --local-search adadelta \
        --maps $C/ad4/1iep/1iep_protein.maps.fld --ligands $C/screen/ob_all.pdbqt --runs 20 \
        --seed 42 2> "$OUT/screen_ours.err" | grep '"bench"' | sed "s/^/ours screen1000 /" | cut -c1-800
    echo "ours screen1000 rc=${PIPESTATUS[0]}; refused: $(grep -c warning "$OUT/screen_ours.err")"
}
stream_gpu1() {
    export CUDA_VISIBLE_DEVICES=1
    echo "AutoDock-GPU screen1000: $(adgpu "$C/screen" --filelist filelist.txt --nrun 20 --seed 42 |
        tr '\n' ' ')"
    for b in "$C"/bin/gpu_test_*; do
        t=$(basename "$b")
        [ "$t" = gpu_test_multi_gpu ] && continue
        timeout ${TEST_TIMEOUT:-120} "$b" > "$OUT/$t.log" 2>&1
        echo "$t rc=$? $(grep -E '^Totals' "$OUT/$t.log")"
        grep -hE "^FAIL" -A3 "$OUT/$t.log" | cut -c1-300 | head -8
    done
}
streams_phase() {
    stream_gpu0 > "$OUT/gpu0.txt" 2>&1 &
    stream_gpu1 > "$OUT/gpu1.txt" 2>&1 &
    wait
    echo "== GPU 1 stream"
    cat "$OUT/gpu1.txt"
    echo "== GPU 0 stream"
    cat "$OUT/gpu0.txt"
}
sanitize_phase() { # compute-sanitizer memcheck, one suite per GPU at a time (SANITIZE: suites)
    local i=0
    for t in ${SANITIZE:-pair_score dock_gpu_ad4 dock_gpu macrocycle_gpu}; do
        (CUDA_VISIBLE_DEVICES=$((i % 2)) timeout ${SANITIZE_TIMEOUT:-150} compute-sanitizer \
            --tool memcheck --error-exitcode 3 "$C/bin/gpu_test_$t" > "$OUT/memcheck_$t.log" 2>&1
         echo "memcheck gpu_test_$t rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck_$t.log" | tail -1)") &
        i=$((i + 1))
        [ $((i % 2)) = 0 ] && wait
    done
    wait
}
screen_phase() { # our screen on GPU 0 while compute-sanitizer runs on GPU 1
    (CUDA_VISIBLE_DEVICES=0 screen_ours > "$OUT/screen.txt" 2>&1) &
    local t
    for t in ${SANITIZE:-pair_score dock_gpu_ad4 macrocycle_gpu}; do
        CUDA_VISIBLE_DEVICES=1 timeout ${SANITIZE_TIMEOUT:-120} compute-sanitizer --tool memcheck \
            --error-exitcode 3 "$C/bin/gpu_test_$t" > "$OUT/memcheck_$t.log" 2>&1
        echo "memcheck gpu_test_$t rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck_$t.log" | tail -1)"
    done
    wait
    cat "$OUT/screen.txt"
}
sharing_phase() {
    timeout 120 "$C/bin/gpu_test_gpu_sharing" > "$OUT/gpu_test_gpu_sharing.log" 2>&1
    echo "gpu_test_gpu_sharing rc=$? $(grep -E '^Totals' "$OUT/gpu_test_gpu_sharing.log")"
    grep -E "^FAIL" -A3 "$OUT/gpu_test_gpu_sharing.log" | head -8
}
for phase in $phases; do
    ${phase}_phase
done
