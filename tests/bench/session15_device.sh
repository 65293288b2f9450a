#!/bin/bash
# Fifteenth session (2026-11-27), the lead's device calls (nvidia-h100-x2: 2 GPUs, 32 host cores):
# flexible side chains on the GPU (issue 18). The carried folder C holds, made from the worktree
# root after building posewright-cli and the gpu_test_* targets:
#   C=.carry15; mkdir -p $C/bin && cp build/engine/posewright-cli build/tests/gpu_test_* $C/bin/
#   rm -rf $C/bin/*_autogen; strip $C/bin/*; tar -C $C -cf - bin | xz -9 -T2 > $C/bin.tar.xz
#   libs.tar.xz and peers/ (Debian's `vina` 1.2.3 and its libraries) as session14_device.sh has them
# Usage, from the repository root on the device:  C=.carry15 bash tests/bench/session15_device.sh STEP...
#   suites     every gpu_test_* carried (SUITES='GLOB ...': gpu_test_GLOB only), split over GPU 0 and
#              GPU 1; the two flexible-side-chain suites' logs kept whole
#   flexmin    `minimize --flex` (THR 315 of Vina's 1fpu example) of N random imatinib starts
#              (`bench minimize --write-poses`, seed 1): --device cuda against --device cpu on
#              all cores, the same starts; per start, Vina's inter + intra of both ends
#   ad4grad    `bench ad4exact` on 1,000,000 perturbed crystal poses of 1stp and 3ce3 (their
#              ../shared GPF: data.tar.xz as session13_device.sh packs it), energies alone and
#              with --gradient (the smooth twin and its gradient), GPU against one core and all
#   race       `bench dock` of the race (1stp, 3ce3: AutoDock-GPU's maps and crystal ligand, nrun
#              100, seed 42, --repeat 3) with this build and with old/posewright-cli (old.tar.xz:
#              the previous session's binary), alternating, on GPU 1
#   minbench   `bench minimize` (1iep, 500,000 random starts, --repeat 3) with this build and the
#              previous session's, alternating, on GPU 1
#   flexdock   `dock --flex` of imatinib into 1fpu with THR 315 (20 runs, seed 1): --device cuda,
#              --device cpu on all cores, and vina --flex --exhaustiveness 8 --cpu <all cores>
R=$PWD; C=$(cd "${C:-.carry15}" && pwd); OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for t in bin libs data old; do [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"; done
export LD_LIBRARY_PATH=$C/libs
mkdir -p /work/wt "$R/build/engine"
[ -e /work/wt/lead ] || ln -s "$R" /work/wt/lead
[ -e /work/wt/shared ] || ln -s "$C" /work/wt/shared # the suites' ../shared data (data.tar.xz)
[ -e "$R/build/engine/posewright-cli" ] || ln -s "$C/bin/posewright-cli" "$R/build/engine/posewright-cli"
nvidia-smi --query-gpu=index,name --format=csv,noheader; echo "cores $(nproc) $(date -u +%FT%TZ)"
CLI=$C/bin/posewright-cli
F=$R/tests/data/flex
T=$(mktemp -d)

suites() {
    local list=() pats g half
    read -ra pats <<< "${SUITES:-*}" # (read does not expand the patterns against this folder)
    for g in "${pats[@]}"; do list+=("$C"/bin/gpu_test_$g); done
    half=$(( (${#list[@]} + 1) / 2 ))
    run_on() { # GPU, suites...
        local gpu=$1; shift
        for t in "$@"; do
            n=$(basename "$t"); s=$(date +%s.%N)
            CUDA_VISIBLE_DEVICES=$gpu timeout ${SUITE_TIMEOUT:-400} "$t" > "$T/suite_$n.log" 2>&1; rc=$?
            echo "$n rc=$rc $(grep -E '^Totals' "$T/suite_$n.log") $(python3 -c "print(round($(date +%s.%N)-$s,1))")s"
            [ $rc = 0 ] || grep -E '^FAIL|Loc:' "$T/suite_$n.log" | head -6
        done
    }
    run_on 0 "${list[@]:0:$half}" > "$T/suites0.txt" 2>&1 &
    run_on 1 "${list[@]:$half}" > "$T/suites1.txt" 2>&1 &
    wait
    cat "$T/suites0.txt" "$T/suites1.txt" > "$OUT/suites.txt"
    for n in flex_minimize_gpu flex_dock_gpu; do
        cp "$T/suite_gpu_test_$n.log" "$OUT/" 2>/dev/null
    done
}

flexmin() {
    local n=${N:-2000} cores=$(nproc)
    $CLI bench minimize --receptor $F/1fpu_receptor_rigid.pdbqt --box $F/1fpu_receptor.box.txt \
        --ligand $F/1iep_ligand.pdbqt --poses $n --seed 1 --device cpu --write-poses $T/starts.sdf > /dev/null 2>&1
    for dev in cuda cpu; do
        /usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KB" -o $T/time_$dev.txt \
            $CLI minimize --receptor $F/1fpu_receptor_rigid.pdbqt --flex $F/1fpu_receptor_flex.pdbqt \
            --box $F/1fpu_receptor.box.txt --ligands $T/starts.sdf --device $dev --threads $cores \
            --json --out $T/min_$dev.sdf > $T/min_$dev.jsonl 2> $T/min_$dev.err
        echo "$dev rc=$? $(cat $T/time_$dev.txt)"; tail -2 $T/min_$dev.err
    done > "$OUT/flexmin.txt" 2>&1
    python3 - $T/min_cuda.jsonl $T/min_cpu.jsonl >> "$OUT/flexmin.txt" 2>&1 <<'PY'
import json, sys
def load(p):
    d = {}
    for l in open(p):
        o = json.loads(l)
        if "inter" in o: d[o["index"]] = o
    return d
g, c = load(sys.argv[1]), load(sys.argv[2])
both = sorted(set(g) & set(c))
obj = lambda o: o["inter"] + o["intra"]
diff = [obj(g[i]) - obj(c[i]) for i in both]
print(f"starts minimized: gpu {len(g)}, cpu {len(c)}, both {len(both)}")
print("GPU end vs CPU end (Vina's inter + intra): lower by >0.01 %d, within 0.01 %d, higher by >0.01 %d, higher by >0.5 %d" % (
    sum(x < -0.01 for x in diff), sum(abs(x) <= 0.01 for x in diff), sum(x > 0.01 for x in diff), sum(x > 0.5 for x in diff)))
print("mean affinity gpu %.4f cpu %.4f; mean objective difference %.4f; best gpu %.3f cpu %.3f" % (
    sum(g[i]["affinity"] for i in both) / len(both), sum(c[i]["affinity"] for i in both) / len(both),
    sum(diff) / len(diff), min(g[i]["affinity"] for i in both), min(c[i]["affinity"] for i in both)))
for name, d in (("gpu", g), ("cpu", c)):
    paths = {}
    for o in d.values(): paths[o["path"]] = paths.get(o["path"], 0) + 1
    print(name, "paths", dict(sorted(paths.items())), "mean evaluations %.0f" % (sum(o["evaluations"] for o in d.values()) / len(d)))
PY
}

flexdock() {
    local cores=$(nproc)
    for dev in cuda cpu; do
        /usr/bin/time -f "%e s wall, %U s user" -o $T/dtime_$dev.txt \
            $CLI dock --receptor $F/1fpu_receptor_rigid.pdbqt --flex $F/1fpu_receptor_flex.pdbqt \
            --ligands $F/1iep_ligand.pdbqt --box $F/1fpu_receptor.box.txt --runs 20 --seed 1 \
            --poses 3 --device $dev --threads $cores --out $T/dock_$dev.sdf --json $T/dock_$dev.json > $T/dock_$dev.out 2> $T/dock_$dev.err
        echo "$dev rc=$? $(cat $T/dtime_$dev.txt)"; head -3 $T/dock_$dev.out; tail -1 $T/dock_$dev.err
        python3 -c "
import json; o = json.loads(open('$T/dock_$dev.json').readline())
print('  poses', [(p['run'], round(p['affinity'], 3), round(p['search_energy'], 3), p['evaluations']) for p in o['poses']])"
    done > "$OUT/flexdock.txt" 2>&1
    if [ -x "$C/peers/vina" ]; then
        /usr/bin/time -f "%e s wall, %U s user" -o $T/vtime.txt env LD_LIBRARY_PATH=$C/peers:$C/libs \
            $C/peers/vina --receptor $F/1fpu_receptor_rigid.pdbqt --flex $F/1fpu_receptor_flex.pdbqt \
            --ligand $F/1iep_ligand.pdbqt --config $F/1fpu_receptor.box.txt --cpu $cores --seed 1 \
            --exhaustiveness 8 --out $T/vina_out.pdbqt > $T/vina.log 2>&1
        echo "vina rc=$? $(cat $T/vtime.txt)"; grep -A4 "^mode" $T/vina.log
    fi >> "$OUT/flexdock.txt" 2>&1
}

ad4grad() {
    for id in 1stp 3ce3; do
        for g in "" --gradient; do
            CUDA_VISIBLE_DEVICES=0 timeout 150 $CLI bench ad4exact \
                --gpf "$C/data/complexes/$id/ad4maps/$id.gpf" --receptor "$R/tests/data/complexes/$id/receptor.pdbqt" \
                --ligand "$R/tests/data/complexes/$id/ligand_xtal.pdbqt" --poses 1000000 --cpu-poses 2000 \
                --outside penalty $g 2>&1 | tail -1
        done
    done > "$OUT/ad4grad.txt" 2>&1
}

race() {
    for round in 1 2; do
        for bin in old new; do
            local cli=$CLI; [ $bin = old ] && cli=$C/old/posewright-cli
            for id in 1stp 3ce3; do
                local M=$C/data/complexes/$id/ad4maps
                CUDA_VISIBLE_DEVICES=1 timeout 90 $cli bench dock --device cuda \
                    --maps "$M/${id}_protein.maps.fld" --ligands "$M/../ligand_xtal.pdbqt" \
                    --reference "$M/../ligand_xtal.pdbqt" --runs 100 --seed 42 --repeat 3 > $T/race.json 2>&1
                echo "race $id $bin round $round rc=$?: $(grep -o '"seconds":[0-9.]*' $T/race.json | cut -d: -f2 | tr '\n' ' ') $(grep -oE '"(best_search_energy|top_rmsd_ref|evaluations)":[-0-9.]*' $T/race.json | head -3 | tr '\n' ' ')"
            done
        done
    done > "$OUT/race.txt" 2>&1
}

minbench() { # bench minimize of 1iep, 500,000 random starts, old and new binaries alternating, GPU 1
    local D=$R/tests/data/complexes/1iep
    for round in 1 2; do
        for bin in old new; do
            local cli=$CLI; [ $bin = old ] && cli=$C/old/posewright-cli
            CUDA_VISIBLE_DEVICES=1 timeout 120 $cli bench minimize --receptor $D/receptor.pdbqt --box $D/box.txt \
                --ligand $D/ligand_xtal.pdbqt --poses 500000 --seed 1 --repeat 3 --device cuda 2>/dev/null > $T/minb.json
            echo "minimize $bin round $round: $(grep -oE '"(poses_per_s|median_affinity|seconds)":[-0-9.e+]*' $T/minb.json | tr '\n' ' ')"
        done
    done > "$OUT/minbench.txt" 2>&1
}

for step in "$@"; do "$step"; done
for f in suites flexmin flexdock ad4grad race minbench; do
    [ -f "$OUT/$f.txt" ] || continue
    echo "== $f"; cat "$OUT/$f.txt"
done
