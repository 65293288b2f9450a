#!/bin/bash
# Ninth session (2026-11-27), device call 1 on nvidia-h100-x4 (4 GPUs): every GPU suite at full size on
# GPU 0, the racecheck leftovers of issue 16 on GPUs 1-2 (dock_order_gpu; multi_gpu:dockWithLanesEqualsOneGpu),
# gpu_test_gpu_sharing with each CLI job under memcheck then racecheck on GPU 3, and hits_device.sh on
# 16 host cores, all at once (~160 s). C: a carry made by sanitize_device.sh's recipe (bin/ or bin.tar.xz,
# libs/ or libs.tar.xz, shared/smiles, ad4/1stp, ad4/3ce3, BUILT_AT) plus nci32768.smi. Run from the
# repository root:  C=.carry-s10 bash tests/bench/session9_device.sh
R=$PWD; C=$(cd "${C:-.carry-s10}" && pwd)
for t in bin libs; do [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"; done
export LD_LIBRARY_PATH=$C/libs
built_at=$(cat "$C/BUILT_AT")
mkdir -p "$built_at/tests" "$built_at/build/engine" "$built_at/../shared/data/complexes"
[ -e "$built_at/tests/data" ] || ln -s "$R/tests/data" "$built_at/tests/data"
[ -e "$built_at/build/engine/posewright-cli" ] || ln -s "$C/bin/posewright-cli" "$built_at/build/engine/posewright-cli"
[ -e "$built_at/../shared/data/smiles" ] || ln -s "$C/shared/smiles" "$built_at/../shared/data/smiles"
for id in 1stp 3ce3; do mkdir -p "$built_at/../shared/data/complexes/$id"
  [ -e "$built_at/../shared/data/complexes/$id/ad4maps" ] || ln -s "$C/ad4/$id" "$built_at/../shared/data/complexes/$id/ad4maps"; done
export POSEWRIGHT_SHARED_DATA=$C/shared
nvidia-smi --query-gpu=index,name --format=csv,noheader; echo "cores $(nproc) $(date -u +%FT%TZ)"
suites() { for t in $C/bin/gpu_test_*; do n=$(basename $t); s=$(date +%s.%N)
    CUDA_VISIBLE_DEVICES=0 timeout 300 $t > /tmp/suite_$n.log 2>&1; rc=$?
    echo "$n rc=$rc $(grep -E '^Totals' /tmp/suite_$n.log) $(python3 -c "print(round($(date +%s.%N)-$s,1))")s"
    [ $rc = 0 ] || grep -E '^FAIL|Loc:' /tmp/suite_$n.log | head -6; done > $OUT/suites.txt 2>&1; }
san() { env C=$C OUT=/tmp/$1 SMALL=$5 GPUS="$2" JOBS=1 TOOLS="$3" TOTAL=${TOT:-420} RUN_TIMEOUT=${TOT:-420} ONLY="$4" \
        SPLIT='multi_gpu' $6 bash $R/tests/bench/sanitize_device.sh > $OUT/$1.txt 2>&1; }
suites &
san order 1 racecheck 'dock_order' 2 &
( sed 's/^entries=()$/entries=(gpu_test_multi_gpu:dockWithLanesEqualsOneGpu); ONLY="^$"/' $R/tests/bench/sanitize_device.sh > /tmp/san_lanes.sh
  env C=$C OUT=/tmp/lanes SMALL=2 GPUS=2 JOBS=1 TOOLS=racecheck TOTAL=420 RUN_TIMEOUT=420 ONLY=multi_gpu SPLIT=multi_gpu bash /tmp/san_lanes.sh > $OUT/lanes.txt 2>&1 ) &
( TOT=30 CLI_TIMEOUT=${CLI_T:-220} san cli 3 "memcheck racecheck" '^$' 1 "CLI_RUNS=1" ) &
( mkdir -p $C/hb/bin && ln -sf $C/bin/posewright-cli $C/hb/bin/ && ln -sfn $C/libs $C/hb/libs && cp $C/nci32768.smi $C/hb/
  C=$C/hb OUT=/tmp/hits_out MOLS=${MOLS:-500000} THREADS=16 SKIP_IMPORT_CMD=1 taskset -c 0-15 bash $R/tests/bench/hits_device.sh > $OUT/hits.txt 2>&1 ) &
wait
for f in order lanes cli; do echo "== $f"; grep -vE '^$' $OUT/$f.txt | tail -12; done
echo "== suites"; cat $OUT/suites.txt; echo "== hits"; tail -40 $OUT/hits.txt
for f in /tmp/cli/gpu_sharing_wrapped.*.log; do tail -5 $f; done > $OUT/cli_wrapped_tail.txt 2>&1
