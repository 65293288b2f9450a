#!/usr/bin/env bash
# One device call for the CUDA docking search (issue 13): gpu tests, then per-complex and
# screening benchmarks beside AutoDock-GPU on the same GPU. Run from the repository root on the
# GPU machine with the carried folder C (default .carry-cudadock) holding:
#   bin/ (posewright-cli, gpu_test_dock_gpu), libs.tar.xz (bundle-libs.sh output), peers/
#   (autodock_gpu_64wi + libcudart, vina + its boost libraries), ad4.tar.xz (ad4/<id>/: AD4 maps + ligand_xtal.pdbqt),
#   screen.tar.xz (screen/: prepared ligands as all.pdbqt, lig*.pdbqt and AutoDock-GPU's
#   filelist.txt, whose first line is ../ad4/1iep/1iep_protein.maps.fld; all100.pdbqt and
#   filelist100.txt: the first 100).
# Usage: tests/bench/dock_device.sh [tests|complex|screen|vina|ad4tests|ad4race]...
#   (default: tests complex screen vina)
# ad4tests: the gpu suites that AD4 docking touches (gpu_test_dock_gpu_ad4 reads the 1stp and 3ce3
#   maps from the shared data path it was built with: BUILT_AT, default /work/wt/gpudock);
# ad4race: AD4 docking of 1stp and 3ce3 (nrun 100, ADADELTA, AutoDock-GPU's population, budget
#   heuristics and AutoStop) beside AutoDock-GPU on the same maps: search time against its "Job
#   took", whole process against whole process, and the evaluations per run from its DLG.
set -uo pipefail
C=${C:-$PWD/.carry-cudadock}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for t in libs ad4 screen; do
    [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"
done
export LD_LIBRARY_PATH=$C/libs
CLI=$C/bin/posewright-cli
# The test binary names its data by the path it was built at.
BUILT_AT=${BUILT_AT:-/work/wt/cudadock}
if [ ! -e $BUILT_AT/tests/data ]; then
    mkdir -p $BUILT_AT/tests && ln -s "$PWD/tests/data" $BUILT_AT/tests/data
fi
SHARED=$(dirname "$BUILT_AT")/shared/data
for id in 1stp 3ce3; do
    if [ -d "$C/ad4/$id" ] && [ ! -e "$SHARED/complexes/$id/ad4maps" ]; then
        mkdir -p "$SHARED/complexes/$id" && ln -s "$C/ad4/$id" "$SHARED/complexes/$id/ad4maps"
    fi
done
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
nproc
parts=${*:-tests complex screen vina}

adgpu() { # dir, args...: AutoDock-GPU whole process time and its own docking time
    local dir=$1
    shift
    (cd "$dir" && /usr/bin/time -f "adgpu_process_seconds %e" timeout 150 env LD_LIBRARY_PATH="$C/peers" \
        "$C/peers/autodock_gpu_64wi" "$@" 2>&1 | grep -iE "took|run time|seconds|error" | tail -4)
}

for part in $parts; do
    case $part in
    tests)
        timeout ${TEST_TIMEOUT:-150} "$C/bin/gpu_test_dock_gpu" 2>&1 | tail -25 | tee "$OUT/tests.log"
        ;;
    complex)
        for id in 1stp 3ce3; do
            D=tests/data/complexes/$id
            for w in ${WARPS:-8 16 32}; do
                POSEWRIGHT_DOCK_WARPS=$w POSEWRIGHT_CUDA_TIMING=1 timeout 90 $CLI bench dock \
                    --device cuda --local-search adadelta \
                    --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $D/ligand_xtal.pdbqt \
                    --reference $D/ligand_xtal.pdbqt --runs 100 --seed 42 --repeat 3 2>&1 |
                    grep -E '"bench"|cuda_dock' | tee -a "$OUT/complex.jsonl" |
                    sed "s/^/w=$w /" | cut -c1-400
            done
            timeout 90 $CLI bench dock --device cuda --local-search bfgs \
                --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $D/ligand_xtal.pdbqt \
                --reference $D/ligand_xtal.pdbqt --runs 100 --seed 42 --repeat 2 2>&1 |
                grep -E '"bench"' | tee -a "$OUT/complex.jsonl" | sed "s/^/bfgs /" | cut -c1-300
            /usr/bin/time -f "posewright_process_seconds %e" timeout 90 $CLI dock --device cuda \
                --local-search adadelta \
                --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $D/ligand_xtal.pdbqt \
                --runs 100 --seed 42 --out /tmp/$id.sdf 2>&1 | tail -2
            for seed in 42 43 44; do
                echo "AutoDock-GPU $id seed $seed"
                adgpu "$C/ad4/$id" --ffile ${id}_protein.maps.fld --lfile ligand_xtal.pdbqt \
                    --nrun 100 --seed $seed
            done
        done
        ;;
    screen)
        D=tests/data/complexes/1iep
        N=${SCREEN:-100} # all100.pdbqt/filelist100.txt: the first 100; N empty: all 1,000
        [ "$N" = 1000 ] && N=
        timeout 150 $CLI bench dock --device cuda --local-search adadelta \
            --receptor $D/receptor.pdbqt --box $D/box.txt \
            --ligands "$C/screen/all$N.pdbqt" --runs 20 --seed 42 --repeat ${REPEAT:-1} 2>&1 |
            grep '"bench"' | tee -a "$OUT/screen.jsonl" | cut -c1-500
        # AutoDock-GPU reads the same prepared ligands re-written by Open Babel (united-atom
        # AD4 PDBQT: it refused posewright's all-hydrogen PDBQT in parse_liganddata).
        echo "AutoDock-GPU 1iep filelist ($(($(wc -l < "$C/screen/ob/filelist100.txt") - 1)) ligands)"
        adgpu "$C/screen/ob" --filelist filelist100.txt --nrun 20 --seed 42
        ;;
    vina)
        D=tests/data/complexes/1iep
        $CLI bench dock --device cuda --local-search adadelta --receptor $D/receptor.pdbqt \
            --box $D/box.txt --ligands $D/ligand_xtal.pdbqt --reference $D/ligand_xtal.pdbqt --runs 100 \
            --seed 42 --repeat 3 2>&1 | grep '"bench"' | tee -a "$OUT/vina1iep.jsonl" | cut -c1-500
        # Vina itself on all cores, same box and ligand (ligand as given: Vina randomises it).
        /usr/bin/time -f "vina_process_seconds %e" env LD_LIBRARY_PATH="$C/peers" "$C/peers/vina" \
            --receptor $D/receptor.pdbqt --ligand $D/ligand_xtal.pdbqt --config $D/box.txt \
            --exhaustiveness 8 --seed 42 --cpu "$(nproc)" --out /tmp/vina_1iep_out.pdbqt 2>&1 |
            grep -E "^ +1 |vina_process" | tee "$OUT/vina1iep.txt"
        ;;
    ad4tests)
        for t in dock_gpu_ad4 dock_gpu backend_gpu minimize; do
            timeout ${TEST_TIMEOUT:-150} "$C/bin/gpu_test_$t" >"$OUT/$t.log" 2>&1
            echo "gpu_test_$t rc=$? $(grep -E '^Totals' "$OUT/$t.log")"
            grep -hE "^(FAIL|QINFO)" -A2 "$OUT/$t.log" | cut -c1-300 | head -20
        done
        ;;
    ad4race)
        for id in 1stp 3ce3; do
            D=$C/ad4/$id
            POSEWRIGHT_CUDA_TIMING=1 timeout 120 $CLI bench dock --device cuda \
                --local-search adadelta --maps $D/${id}_protein.maps.fld \
                --ligands $D/ligand_xtal.pdbqt --reference $D/ligand_xtal.pdbqt --runs 100 \
                --seed 42 --repeat ${REPEAT:-3} 2>&1 | grep -E '"bench"|cuda_dock' |
                tee -a "$OUT/ad4race.jsonl" | cut -c1-700
            /usr/bin/time -f "posewright_process_seconds %e" timeout 90 $CLI dock --device cuda \
                --local-search adadelta --maps $D/${id}_protein.maps.fld \
                --ligands $D/ligand_xtal.pdbqt --runs 100 --seed 42 --out /tmp/$id.sdf 2>&1 |
                tail -2
            for seed in 42 43 44; do
                echo "AutoDock-GPU $id seed $seed"
                adgpu "$D" --ffile ${id}_protein.maps.fld --lfile ligand_xtal.pdbqt \
                    --nrun 100 --seed $seed
            done
            # Its evaluations and generations per run (the last seed's DLG), counted as printed.
            grep -hiE "evaluation|generation" "$D/ligand_xtal.dlg" | sed 's/[0-9.]\+/N/g' |
                sort | uniq -c | sort -rn | head -6
            grep -hiE "evaluation|generation" "$D/ligand_xtal.dlg" | head -6
            cp "$D/ligand_xtal.dlg" "$OUT/adgpu_$id.dlg" 2>/dev/null
        done
        ;;
    esac
done
