#!/usr/bin/env bash
# The lead's device calls for merged main (2026-11-26, third session), on nvidia-h100-x2, in two
# calls of under ten minutes (phases as arguments):
#   scale    tests/bench/scale_device.sh: one GPU against both (dock, bench minimize, minimize)
#   tests    every gpu suite at full size, the suites dealt over both GPUs
#   sanitize tests/bench/sanitize_device.sh on GPU 0 (memcheck, racecheck; small-problem mode)
#   race     on GPU 1 (at the same time as sanitize): search_device.sh's 1stp/3ce3 race with
#            AutoDock-GPU and Vina 1iep at the defaults, then dock30 quality at the defaults
# C (default .carry-final2) holds bin.tar.xz (posewright-cli + every gpu_test_*), libs.tar.xz
# (bundle-libs.sh output), ad4/1stp|3ce3 (ad4maps), shared/smiles/nci_first_5k.smi,
# nci_first_5k.smi, dock30.tar.xz, peers/ (autodock_gpu_64wi, libcudart.so.13, vina) and
# BUILT_AT (the checkout the binaries were built in).
set -uo pipefail
C=$(cd "${C:-.carry-final2}" && pwd)
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for t in bin libs ad4 dock30; do
    [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"
done
export LD_LIBRARY_PATH=$C/libs:$C/peers
built_at=$(cat "$C/BUILT_AT")
mkdir -p "$built_at/tests" "$built_at/build/engine" "$built_at/../shared/data/complexes"
[ -e "$built_at/tests/data" ] || ln -s "$PWD/tests/data" "$built_at/tests/data"
[ -e "$built_at/build/engine/posewright-cli" ] ||
    ln -s "$C/bin/posewright-cli" "$built_at/build/engine/posewright-cli"
[ -e "$built_at/../shared/data/smiles" ] || ln -s "$C/shared/smiles" "$built_at/../shared/data/smiles"
for id in 1stp 3ce3; do
    mkdir -p "$built_at/../shared/data/complexes/$id"
    [ -e "$built_at/../shared/data/complexes/$id/ad4maps" ] ||
        ln -s "$C/ad4/$id" "$built_at/../shared/data/complexes/$id/ad4maps"
done
nvidia-smi --query-gpu=index,name,uuid --format=csv,noheader
echo "host cores: $(nproc); date: $(date -u +%FT%TZ)"

scale_phase() {
    C=$C OUT=$OUT/scale DEADLINE=${DEADLINE:-150} timeout ${SCALE_TIMEOUT:-230} \
        bash tests/bench/scale_device.sh >"$OUT/scale.txt" 2>&1
    echo "== scale (rc=$?)"
    tail -30 "$OUT/scale.txt"
}
suite_runner() { # GPU, suites...
    local gpu=$1 t
    shift
    for t in "$@"; do
        CUDA_VISIBLE_DEVICES=$gpu timeout ${TEST_TIMEOUT:-150} "$C/bin/$t" >"$OUT/$t.log" 2>&1
        echo "$t (GPU $gpu) rc=$? $(grep -E '^Totals' "$OUT/$t.log")"
        grep -hE "^FAIL" -A3 "$OUT/$t.log" | cut -c1-300 | head -8
    done
}
tests_phase() {
    local all=() a=() b=() i=0 t
    for t in "$C"/bin/gpu_test_*; do all+=("$(basename "$t")"); done
    for t in "${all[@]}"; do # multi_gpu wants both GPUs: alone, after the others
        [ "$t" = gpu_test_multi_gpu ] && continue
        if [ $((i % 2)) = 0 ]; then a+=("$t"); else b+=("$t"); fi
        i=$((i + 1))
    done
    suite_runner 0 "${a[@]}" >"$OUT/tests0.txt" 2>&1 &
    suite_runner 1 "${b[@]}" >"$OUT/tests1.txt" 2>&1 &
    wait
    suite_runner 0,1 gpu_test_multi_gpu >>"$OUT/tests1.txt" 2>&1
    echo "== gpu suites"
    cat "$OUT/tests0.txt" "$OUT/tests1.txt"
}
sanitize_phase() {
    (CUDA_VISIBLE_DEVICES=0 C=$C OUT=$OUT/sanitize TOTAL=${SAN_TOTAL:-300} JOBS=${SAN_JOBS:-3} \
        bash tests/bench/sanitize_device.sh >"$OUT/sanitize.txt" 2>&1; echo "sanitize rc=$?" >>"$OUT/sanitize.txt") &
    RACE_GPU=1 DOCK30_GPU=1 SEQUENTIAL=1 VARIANTS=default VINA_VARIANTS=default SCREEN_VARIANTS=none \
        C=$C OUT=$OUT/search timeout ${RACE_TIMEOUT:-300} bash tests/bench/search_device.sh \
        >"$OUT/race.txt" 2>&1
    wait
    echo "== race and dock30 at the defaults (GPU 1)"
    grep -v "^[0-9], NVIDIA" "$OUT/race.txt"
    echo "== compute-sanitizer (GPU 0)"
    tail -25 "$OUT/sanitize.txt"
}
for phase in ${*:-scale tests}; do
    ${phase}_phase
done
