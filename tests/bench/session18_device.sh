#!/bin/bash
# Eighteenth session (2026-11-28), the lead's device calls (nvidia-h100-x2: 2 GPUs, 32 host cores):
# the minimize command on two GPUs: its serial parts (issue 17). The carried folder C
# holds, made from the worktree root after building posewright-cli and the gpu_test_* targets:
#   C=.carry18; mkdir -p $C/bin && cp build/engine/posewright-cli build/tests/gpu_test_* $C/bin/
#   rm -rf $C/bin/*_autogen; strip $C/bin/*; tar -C $C -cf - bin | xz -9 -T2 > $C/bin.tar.xz
#   libs.tar.xz (../shared/tools/bundle-libs.sh); old.tar.xz: an older build's posewright-cli as
#   old/posewright-cli, for A/B rows; optional: jemalloc/libjemalloc.so.2 (Debian's libjemalloc2,
#   which this build links; and for the 'J' variant: an older build with jemalloc preloaded)
# Usage, from the repository root on the device:  C=.carry18 bash tests/bench/session18_device.sh STEP...
#   suites   the gpu_test_* carried (SUITES='GLOB ...'), split over GPU 0 and GPU 1; then
#            gpu_test_gpu_sharing again with both GPUs visible (cuda:all is two GPUs there)
#   minab    the minimize command on 200,000 poses (CMD_POSES): old/ and this build on cuda:0
#            and cuda:all (MINAB_L1=1: also this build with one worker per GPU); ROUNDS (2)
#            rounds; every ranked SDF compared with the first
#   big      the same command on 2,000,000 poses (BIG_POSES): this build on cuda:0 and cuda:all,
#            BIG_ROUNDS (1) times, then BIG_VARIANTS more ('L1' one worker per GPU, 'L2' two, 'J' jemalloc preloaded on
#            cuda:all, 'old' old/ on cuda:all, 'old1' old/ on cuda:0, 'spool' this build with every
#            ranked record spooled to the file, as before (4de8e54's build), 'T24' --threads 24
#            on cuda:0 and cuda:all, 'Tsweep' the same for each of THREADS_LIST (16 20 24 28));
#            each run's CPU seconds (user, system)
#   probe    how fast the host fills a large file from several threads (write_probe.cpp)
R=$PWD; C=$(cd "${C:-.carry18}" && pwd); OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for t in bin libs old jemalloc; do [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"; done
export LD_LIBRARY_PATH=$C/libs:$C/jemalloc # the build links jemalloc (engine/CMakeLists.txt)
mkdir -p /work/wt "$R/build/engine"
[ -e /work/wt/lead ] || ln -s "$R" /work/wt/lead
[ -e "$R/build/engine/posewright-cli" ] || ln -s "$C/bin/posewright-cli" "$R/build/engine/posewright-cli"
nvidia-smi --query-gpu=index,name --format=csv,noheader; echo "cores $(nproc) $(date -u +%FT%TZ)"
CLI=${CLI:-$C/bin/posewright-cli}
T=$(mktemp -d -p "${TMPROOT:-/tmp}")
D=$R/tests/data/complexes/1iep
TG="--receptor $D/receptor.pdbqt --box $D/box.txt"

# poses FILE N: N perturbed 1iep crystal poses (bench minimize --write-poses, seed 1).
poses() {
    [ -f "$1" ] || timeout 300 "$CLI" bench minimize $TG --ligand $D/ligand_xtal.pdbqt --poses "$2" \
        --seed 1 --device cuda:0 --write-poses "$1" > /dev/null 2>&1
}

# minrun NAME ENV(or -) BINARY DEVICE POSES [ARGS...]: one minimize command, its wall time and main
# phases; its SDF compared with REF (the first run's, kept).
minrun() {
    local name=$1 envs=$2 bin=$3 dev=$4 in=$5 s e rc
    shift 5
    [ "$envs" = - ] && envs=
    s=$(date +%s.%N)
    ( TIMEFORMAT='cpu user %U s, system %S s'; time env $envs timeout 300 "$bin" minimize $TG --ligands "$in" \
        --device "$dev" --timings "$@" --out "$T/$name.sdf" > /dev/null 2> "$T/$name.err" ) 2> "$T/$name.cpu"
    rc=$?; e=$(date +%s.%N)
    # teardown: the process's wall after the command's own (timings: wall), start-up included
    local tw; tw=$(awk '$1=="timings:" && $2=="wall" {print $3}' "$T/$name.err")
    echo "$name rc=$rc wall $(python3 -c "print(round($e-$s,2))") s (outside timings $(python3 -c "print(round($e-$s-${tw:-0},2))") s) $(grep -E '^timings:   (setup|wait_pipeline|write|commit|remove_spool|release_devices) ' "$T/$name.err" | awk '{printf "%s %s ", $2, $3}')$(cat "$T/$name.cpu")"
    grep '^stages' "$T/$name.err" | sed 's/^/    /'
    if [ -z "$REF" ]; then REF=$T/$name.sdf
    else cmp -s "$T/$name.sdf" "$REF" && echo "    same SDF" || echo "    SDF DIFFERS from $(basename "$REF")"; rm -f "$T/$name.sdf"
    fi
    cp "$T/$name.err" "$OUT/" 2>/dev/null
}

minab() {
    local old=$C/old/posewright-cli in=$T/poses200k.sdf k
    poses "$in" "${CMD_POSES:-200000}"
    REF=
    for k in $(seq 1 "${ROUNDS:-2}"); do
        minrun old1_$k - "$old" cuda:0 "$in"
        minrun new1_$k - "$CLI" cuda:0 "$in"
        minrun oldG_$k - "$old" cuda:all "$in"
        minrun newG_$k - "$CLI" cuda:all "$in"
        if [ -n "${MINAB_L1:-}" ]; then
            minrun newL1_1_$k POSEWRIGHT_MINIMIZE_LANES=1 "$CLI" cuda:0 "$in"
            minrun newL1_G_$k POSEWRIGHT_MINIMIZE_LANES=1 "$CLI" cuda:all "$in"
        fi
    done
    rm -f "$REF"
}

big() {
    local in=$T/poses2M.sdf v
    poses "$in" "${BIG_POSES:-2000000}"
    ls -la "$in"; df -h "$T" | tail -1
    REF=
    for k in $(seq 1 "${BIG_ROUNDS:-1}"); do
        minrun big1_$k - "$CLI" cuda:0 "$in"
        minrun bigG_$k - "$CLI" cuda:all "$in"
    done
    for v in ${BIG_VARIANTS:-}; do
        case $v in
        L1) minrun bigL1_1 POSEWRIGHT_MINIMIZE_LANES=1 "$CLI" cuda:0 "$in"
            minrun bigL1_G POSEWRIGHT_MINIMIZE_LANES=1 "$CLI" cuda:all "$in" ;;
        L2) minrun bigL2_1 POSEWRIGHT_MINIMIZE_LANES=2 "$CLI" cuda:0 "$in"
            minrun bigL2_G POSEWRIGHT_MINIMIZE_LANES=2 "$CLI" cuda:all "$in" ;;
        J) minrun bigJ_G LD_PRELOAD=$C/jemalloc/libjemalloc.so.2 "$CLI" cuda:all "$in" ;;
        old) minrun bigOldG - "$C/old/posewright-cli" cuda:all "$in" ;;
        old1) minrun bigOld1 - "$C/old/posewright-cli" cuda:0 "$in" ;;
        T24) minrun bigT24_1 - "$CLI" cuda:0 "$in" --threads 24
            minrun bigT24_G - "$CLI" cuda:all "$in" --threads 24 ;;
        Tsweep) for t in ${THREADS_LIST:-16 20 24 28}; do
                minrun bigT${t}_1 - "$CLI" cuda:0 "$in" --threads "$t"
                minrun bigT${t}_G - "$CLI" cuda:all "$in" --threads "$t"
            done ;;
        spool) minrun bigSpool1 POSEWRIGHT_RANKED_MEMORY_MIB=0 "$CLI" cuda:0 "$in"
            minrun bigSpoolG POSEWRIGHT_RANKED_MEMORY_MIB=0 "$CLI" cuda:all "$in" ;;
        esac
    done
    rm -f "$REF" "$in"
}

# probe: the host's file system and page-cache settings, then write_probe (its own source, built
# here as $C/write_probe) filling PROBE_GIB (12) GiB by pwrite and through a mapping, and anonymous
# memory with and without transparent huge pages.
probe() {
    findmnt -no FSTYPE,OPTIONS -T "$T"; cat /sys/kernel/mm/transparent_hugepage/enabled
    sysctl vm.dirty_ratio vm.dirty_background_ratio vm.dirty_bytes vm.dirty_background_bytes 2>/dev/null
    local g=${PROBE_GIB:-12} m t
    for m in ${PROBE_MODES:-pwrite:1 pwrite:8 pwrite:16 mmap:8 mmap:16 mmap:32 anon:8 anon-huge:8}; do
        "$C/write_probe" "$T/probe.bin" "$g" "${m%%:*}" "${m##*:}"
    done | tee "$OUT/probe.txt"
}

suites() {
    local list=() pats g half
    read -ra pats <<< "${SUITES:-*}"
    for g in "${pats[@]}"; do list+=("$C"/bin/gpu_test_$g); done
    half=$(( (${#list[@]} + 1) / 2 ))
    run_on() { # GPUs, suites...
        local gpu=$1; shift
        for t in "$@"; do
            n=$(basename "$t"); s=$(date +%s.%N)
            CUDA_VISIBLE_DEVICES=$gpu timeout ${SUITE_TIMEOUT:-400} "$t" > "$T/suite_$n$gpu.log" 2>&1; rc=$?
            echo "$n (GPUs $gpu) rc=$rc $(grep -E '^Totals' "$T/suite_$n$gpu.log") $(python3 -c "print(round($(date +%s.%N)-$s,1))")s"
            [ $rc = 0 ] || grep -E '^FAIL|Loc:' "$T/suite_$n$gpu.log" | head -6
        done
    }
    run_on 0 "${list[@]:0:$half}" > "$T/suites0.txt" 2>&1 &
    run_on 1 "${list[@]:$half}" > "$T/suites1.txt" 2>&1 &
    wait
    run_on 0,1 "$C/bin/gpu_test_gpu_sharing" > "$T/suites01.txt" 2>&1
    cat "$T/suites0.txt" "$T/suites1.txt" "$T/suites01.txt" | tee "$OUT/suites.txt"
}

for step in "$@"; do echo "== $step $(date -u +%T)"; $step; done
