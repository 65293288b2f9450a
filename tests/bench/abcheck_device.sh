#!/usr/bin/env bash
# A/B on one GPU, nothing else running: the search time of two posewright-cli binaries (C/oldbin,
# C/bin) on 1stp and 3ce3 (AD4, BFGS, nrun 100, seed 42), AutoDock-GPU on the same GPU and maps,
# Vina 1iep (ours at the defaults, whole process; vina --exhaustiveness 8 on all cores, whole
# process and set-up alone), then gpu_test_lingo_cuda and gpu_test_dock_gpu_ad4's crystal test.
# C (default .carry-c): bin.tar.xz (bin/ and oldbin/), libs.tar.xz, ad4.tar.xz (ad4/<id>/ maps +
# ligand_xtal.pdbqt), peers/, shared/smiles/nci_first_5k.smi, BUILT_AT.
set -uo pipefail
C=$(cd "${C:-.carry-c}" && pwd)
for t in bin libs ad4; do [ -d "$C/$t" ] || tar -C "$C" -xJf "$C/$t.tar.xz"; done
export LD_LIBRARY_PATH=$C/libs:$C/peers CUDA_VISIBLE_DEVICES=${GPU:-0}
B=$(cat "$C/BUILT_AT")
mkdir -p "$B/tests" "$B/../shared/data/complexes/1stp" "$B/../shared/data/complexes/3ce3"
[ -e "$B/tests/data" ] || ln -s "$PWD/tests/data" "$B/tests/data"
[ -e "$B/../shared/data/smiles" ] || ln -s "$C/shared/smiles" "$B/../shared/data/smiles"
for id in 1stp 3ce3; do
    [ -e "$B/../shared/data/complexes/$id/ad4maps" ] || ln -s "$C/ad4/$id" "$B/../shared/data/complexes/$id/ad4maps"
done
nvidia-smi --query-gpu=index,name,uuid --format=csv,noheader | head -1
for id in 1stp 3ce3; do
    D=$C/ad4/$id
    for b in oldbin bin; do
        "$C/$b/posewright-cli" bench dock --device cuda --local-search bfgs --maps $D/${id}_protein.maps.fld \
            --ligands $D/ligand_xtal.pdbqt --reference $D/ligand_xtal.pdbqt --runs 100 --seed 42 --repeat 3 \
            2>/dev/null | python3 -c "
import json, sys
r = [json.loads(l) for l in sys.stdin if l.startswith('{')]
print('$b $id search s', ' '.join('%.3f' % x['seconds'] for x in r), ' best', r[0]['best_score'], ' top1 A', r[0].get('top_rmsd_ref'))"
    done
    (cd $D && "$C/peers/autodock_gpu_64wi" --ffile ${id}_protein.maps.fld --lfile ligand_xtal.pdbqt \
        --nrun 100 --seed 42 2>&1 | grep -E "took" | sed "s/^/AutoDock-GPU $id: /")
done
D=tests/data/complexes/1iep
/usr/bin/time -f "ours vina 1iep dock (defaults) whole process s %e" "$C/bin/posewright-cli" dock --device cuda \
    --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $D/ligand_xtal.pdbqt --runs 100 --seed 42 \
    --out /tmp/1iep.sdf 2>&1 | tail -1
grep -A1 -m1 '<dock_score>' /tmp/1iep.sdf | tail -1
for e in 0 1; do
    /usr/bin/time -f "vina --max_evals $e whole process s %e" "$C/peers/vina" --receptor $D/receptor.pdbqt \
        --ligand $D/ligand_xtal.pdbqt --config $D/box.txt --exhaustiveness 8 --seed 42 --cpu "$(nproc)" \
        --max_evals $e --out /tmp/v$e.pdbqt 2>&1 | grep -E "^ +1 |whole process"
done
timeout 60 "$C/bin/gpu_test_lingo_cuda" 2>&1 | grep -E "^FAIL|Totals" | head -5
timeout 90 "$C/bin/gpu_test_dock_gpu_ad4" crystalPoseOf1stpAnd3ce3 2>&1 | grep -E "QINFO|FAIL|Totals"
