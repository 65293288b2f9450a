#!/bin/bash
# Sixteenth session (2026-11-28), the lead's device calls (nvidia-h100-x2: 2 GPUs, 32 host cores):
# parallel efficiency on 2 GPUs of the whole commands (issue 17). The carried folder C holds,
# made from the worktree root after building posewright-cli (and the gpu_test_* targets):
#   C=.carry16; mkdir -p $C/bin && cp build/engine/posewright-cli build/tests/gpu_test_* $C/bin/
#   rm -rf $C/bin/*_autogen; strip $C/bin/*; tar -C $C -cf - bin | xz -9 -T2 > $C/bin.tar.xz
#   libs.tar.xz (../shared/tools/bundle-libs.sh), data.tar.xz (../shared/data/smiles as data/smiles),
#   screen.tar.xz (the twelfth session's screen: maps/ = autogrid4 maps of 1iep, ob_all.pdbqt = the
#   716 Open Babel ligands, as session14_device.sh describes them); old.tar.xz (optional: an
#   older build's bin/ as old/, for A/B rows)
# Usage, from the repository root on the device:  C=.carry16 bash tests/bench/session16_device.sh STEP...
#   scale    tests/bench/scale_device.sh with NLIGS (1000) and no optional steps: bench minimize
#            2M poses, the minimize command 200k poses, dock NLIGS SMILES (budget x 0.05), each on
#            cuda:0 and cuda:all, with every run's phase timings
#   screen   the 716-ligand AD4 screen (default budget, 20 runs, seed 42), `dock --timings` on
#            cuda:0 then cuda:all; wall seconds, phases, ranked SDFs compared
#   dockab   dock NLIG (1000) SMILES (Vina, budget x 0.05): this build on cuda:0 with one and two
#            docking lanes, on cuda:all, and old/posewright-cli on cuda:all; outputs compared
#   minab    the minimize command (200,000 poses): old/ against this build, cuda:0 and cuda:all
#   screenab the screen on cuda:0 and on cuda:all (SCREEN_L2=1: also cuda:0 with two lanes;
#            SCREEN_G=0: not on cuda:all)
#   dockpair dock NLIG SMILES on cuda:0 then cuda:all, REPEAT (2) times
#   suites   every gpu_test_* carried (SUITES='GLOB ...'), split over GPU 0 and GPU 1
R=$PWD; C=$(cd "${C:-.carry16}" && pwd); OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for t in bin libs data screen old; do [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"; done
export LD_LIBRARY_PATH=$C/libs
mkdir -p /work/wt "$R/build/engine"
[ -e /work/wt/lead ] || ln -s "$R" /work/wt/lead
[ -e /work/wt/shared ] || ln -s "$C" /work/wt/shared # the suites' ../shared data (data.tar.xz)
[ -e "$R/build/engine/posewright-cli" ] || ln -s "$C/bin/posewright-cli" "$R/build/engine/posewright-cli"
nvidia-smi --query-gpu=index,name --format=csv,noheader; echo "cores $(nproc) $(date -u +%FT%TZ)"
CLI=${CLI:-$C/bin/posewright-cli}
T=$(mktemp -d)

scale() {
    C=$C OUT=$T/scale NLIGS=${NLIGS:-1000} DEADLINE=0 SMILES_SOURCE=$C/data/smiles/nci_first_5k.smi \
        bash "$R/tests/bench/scale_device.sh" > "$OUT/scale.txt" 2>&1
    tail -12 "$OUT/scale.txt"
}

screen() {
    local s e dev tag
    for dev in cuda:0 cuda:all; do
        tag=${dev/:/_}
        s=$(date +%s.%N)
        timeout 300 "$CLI" dock --device $dev --maps "$C/screen/maps/1iep.maps.fld" \
            --ligands "$C/screen/ob_all.pdbqt" --runs 20 --seed 42 --timings \
            --json "$T/screen_$tag.json" --out "$T/screen_$tag.sdf" > "$T/screen_$tag.out" 2> "$T/screen_$tag.err"
        e=$(date +%s.%N)
        echo "screen $dev rc=$? wall $(python3 -c "print(round($e-$s,2))") s"
        grep '^timings:' "$T/screen_$tag.err"
        grep -v '^timings:\|^dock: ' "$T/screen_$tag.err" | tail -2
    done
    cmp -s "$T/screen_cuda_0.sdf" "$T/screen_cuda_all.sdf" && echo "screen SDF identical" || echo "screen SDF DIFFERENT"
    cp "$T"/screen_*.err "$OUT/" 2>/dev/null
}

# One dock run: NAME ENV-ASSIGNMENTS(or -) BINARY DEVICE ARGS...: wall seconds and phases.
dockrun() {
    local name=$1 envs=$2 bin=$3 dev=$4 s e rc; shift 4
    s=$(date +%s.%N)
    if [ "$envs" = - ]; then envs=""; fi
    env $envs timeout 400 "$bin" "$@" --device $dev --timings --json "$T/$name.json" --out "$T/$name.sdf" \
        > "$T/$name.out" 2> "$T/$name.err"; rc=$?
    e=$(date +%s.%N)
    echo "$name ($envs $dev) rc=$rc wall $(python3 -c "print(round($e-$s,2))") s"
    grep '^timings:' "$T/$name.err" | grep -E 'wall|dock|wait|write|maps|gpu_search|\[' | head -30
    grep -v '^timings:\|^dock: ' "$T/$name.err" | tail -1
    cp "$T/$name.err" "$OUT/" 2>/dev/null
}
same() { cmp -s "$T/$1.sdf" "$T/$2.sdf" && echo "$1 = $2 (SDF)" || echo "$1 != $2 (SDF DIFFERENT)"; }

# dock of NLIG (1000) NCI SMILES into 1iep (Vina, 20 runs, budget x 0.05, as scale_device.sh):
# this build on one GPU (one lane; two lanes), on all GPUs, and the old build on all GPUs.
dockab() {
    local n=${NLIG:-1000} old=$C/old/posewright-cli
    head -n "$n" "$C/data/smiles/nci_first_5k.smi" > "$T/lig.smi"
    local D=$R/tests/data/complexes/1iep
    local K="dock --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $T/lig.smi --runs 20 --budget-scale 0.05 --seed 42"
    dockrun new1 - "$CLI" cuda:0 $K
    dockrun new1l2 POSEWRIGHT_DOCK_LANES=2 "$CLI" cuda:0 $K
    dockrun newG - "$CLI" cuda:all $K
    [ -x "$old" ] && dockrun oldG - "$old" cuda:all $K
    same new1 new1l2; same new1 newG; [ -x "$old" ] && same new1 oldG
}

# dock NLIG SMILES on cuda:all with the batch sizes of BATCHES ("128 2000"), and on cuda:0 with
# one batch: how much of the wall time is the batches' pipeline.
dockbatch() {
    local n=${NLIG:-1000} b
    head -n "$n" "$C/data/smiles/nci_first_5k.smi" > "$T/lig.smi"
    local D=$R/tests/data/complexes/1iep
    local K="dock --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $T/lig.smi --runs 20 --budget-scale 0.05 --seed 42"
    for b in ${BATCHES:-128 2000}; do dockrun newG_b$b - "$CLI" cuda:all $K --batch $b; done
    dockrun new1_b2000 - "$CLI" cuda:0 $K --batch 2000
}

# dock NLIG SMILES on cuda:all (DEV), one run per entry of VARIANTS ("NAME|ENV=V ...|ARGS;..."; "-"
# for no environment): the docking knobs (POSEWRIGHT_DOCK_LANES, POSEWRIGHT_DOCK_CHUNK_RUNS, --batch).
dockvar() {
    local n=${NLIG:-1000} v name envs args
    head -n "$n" "$C/data/smiles/nci_first_5k.smi" > "$T/lig.smi"
    local D=$R/tests/data/complexes/1iep
    local K="dock --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $T/lig.smi --runs 20 --budget-scale 0.05 --seed 42"
    IFS=';' read -ra vs <<< "$VARIANTS"
    for v in "${vs[@]}"; do
        IFS='|' read -r name envs args <<< "$v"
        dockrun "$name" "$envs" "$CLI" "${DEV:-cuda:all}" $K $args
    done
}

# The minimize command, 200,000 1iep poses (scale_device.sh's input), old build against this one,
# on cuda:0 and cuda:all, alternating, twice: wall seconds, write and commit phases, outputs compared.
minab() {
    local D=$R/tests/data/complexes/1iep old=$C/old/posewright-cli b dev k s e name
    local TG="--receptor $D/receptor.pdbqt --box $D/box.txt"
    timeout 120 "$CLI" bench minimize $TG --ligand $D/ligand_xtal.pdbqt --poses ${CMD_POSES:-200000} --seed 1 \
        --device cuda:0 --write-poses "$T/poses.sdf" > /dev/null 2>&1
    for k in 1 2; do
        for dev in cuda:0 cuda:all; do
            for b in old new; do
                name=min_${b}_${dev/:/}_$k
                s=$(date +%s.%N)
                timeout 120 $([ $b = old ] && echo "$old" || echo "$CLI") minimize $TG --ligands "$T/poses.sdf" \
                    --device $dev --timings --out "$T/$name.sdf" > /dev/null 2> "$T/$name.err"
                e=$(date +%s.%N)
                echo "$name rc=$? wall $(python3 -c "print(round($e-$s,2))") s $(grep -E '^timings:   (write|commit|wait_pipeline|setup) ' "$T/$name.err" | awk '{printf "%s %s ", $2, $3}')"
                cmp -s "$T/$name.sdf" "$T/min_old_cuda0_1.sdf" || echo "  $name differs from min_old_cuda0_1"
            done
        done
    done
    cp "$T"/min_new_cudaall_1.err "$OUT/" 2>/dev/null
}

# The screen (AD4, default budget) on one GPU and on all GPUs, this build (SCREEN_L2=1: also one
# GPU with two docking lanes).
screenab() {
    local K="dock --maps $C/screen/maps/1iep.maps.fld --ligands $C/screen/ob_all.pdbqt --runs 20 --seed 42"
    dockrun scr1 - "$CLI" cuda:0 $K
    [ -n "${SCREEN_L2:-}" ] && dockrun scr1l2 POSEWRIGHT_DOCK_LANES=2 "$CLI" cuda:0 $K
    [ "${SCREEN_G:-1}" = 0 ] || { dockrun scrG - "$CLI" cuda:all $K; same scr1 scrG; }
    [ -n "${SCREEN_L2:-}" ] && same scr1 scr1l2
}

# dock NLIG SMILES, this build, cuda:0 then cuda:all, REPEAT (2) times alternating.
dockpair() {
    local n=${NLIG:-1000} k
    head -n "$n" "$C/data/smiles/nci_first_5k.smi" > "$T/lig.smi"
    local D=$R/tests/data/complexes/1iep
    local K="dock --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $T/lig.smi --runs 20 --budget-scale 0.05 --seed 42"
    for k in $(seq 1 ${REPEAT:-2}); do
        dockrun pair1_$k - "$CLI" cuda:0 $K
        dockrun pairG_$k - "$CLI" cuda:all $K
        same pair1_1 pairG_$k
    done
}

suites() {
    local list=() pats g half
    read -ra pats <<< "${SUITES:-*}"
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
    cat "$T/suites0.txt" "$T/suites1.txt" | tee "$OUT/suites.txt"
}

for step in "$@"; do echo "== $step $(date -u +%T)"; $step; done
