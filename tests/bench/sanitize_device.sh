#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over every gpu test binary (issue 16 item 2), from a
# build made on the development machine and carried. Run from the repository root on the GPU
# machine; prints one row per test and tool, and keeps every log in OUT.
#   C=.carry-sanitize OUT=$OUT/sanitize tests/bench/sanitize_device.sh
# C holds: bin/gpu_test_* (and bin/posewright-cli, which some tests run), libs/ (the output of
#   ../shared/tools/bundle-libs.sh for those binaries), BUILT_AT (one line: the worktree the
#   binaries were built in; they read tests/data through that path) and shared-data/smiles/
#   (nci_first_5k.smi, for gpu_test_lingo_cuda).
# Making C on the development machine (a CUDA build, -DCMAKE_CUDA_ARCHITECTURES=90):
#   mkdir -p .carry-sanitize/bin .carry-sanitize/shared-data/smiles
#   cp build/tests/gpu_test_* build/engine/posewright-cli .carry-sanitize/bin/
#   ../shared/tools/bundle-libs.sh .carry-sanitize/bin/* .carry-sanitize/libs
#   pwd > .carry-sanitize/BUILT_AT; cp ../shared/data/smiles/nci_first_5k.smi .carry-sanitize/shared-data/smiles/
# Environment: TOOLS (default "memcheck racecheck"), RUN_TIMEOUT seconds per run (default 240;
# the tools slow kernels 10-100x, a run past it is reported as "timeout", not as clean),
# JOBS runs at once (default 3), ONLY (a regex of test names).
set -uo pipefail
C=$(cd "${C:-.carry-sanitize}" && pwd)
OUT=${OUT:-/tmp/sanitize}
TOOLS=${TOOLS:-memcheck racecheck}
RUN_TIMEOUT=${RUN_TIMEOUT:-240}
JOBS=${JOBS:-3}
ONLY=${ONLY:-.}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$C/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export POSEWRIGHT_SHARED_DATA=$C/shared-data
built_at=$(cat "$C/BUILT_AT")
if [ ! -e "$built_at/tests/data" ]; then # the binaries name their data by the path they were built at
    mkdir -p "$built_at/tests" && ln -s "$PWD/tests/data" "$built_at/tests/data"
fi
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -z "$sanitizer" ]; then
    echo "compute-sanitizer not found" >&2
    exit 1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
"$sanitizer" --version | tail -1 | tee -a "$OUT/device.txt"

runs=()
for t in "$C"/bin/gpu_test_*; do
    name=$(basename "$t")
    [[ $name =~ $ONLY ]] || continue
    for tool in $TOOLS; do runs+=("$name $tool"); done
done

run_one() { # name tool: one sanitizer run, its log in OUT/name.tool.log
    local name=$1 tool=$2 log=$OUT/$1.$2.log extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    [ "$tool" = racecheck ] && extra=(--racecheck-report analysis)
    timeout -k 10 "$RUN_TIMEOUT" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
        --print-limit 50 "$C/bin/$name" > "$log" 2>&1
    echo $? > "$log.rc"
}
export -f run_one
export C OUT RUN_TIMEOUT sanitizer
printf '%s\n' "${runs[@]}" | xargs -P "$JOBS" -L 1 bash -c 'run_one "$0" "$1"'

printf '%-30s %-10s %-8s %-7s %s\n' test tool result errors "test totals"
clean=0 total=0
for r in "${runs[@]}"; do
    read -r name tool <<< "$r"
    log=$OUT/$name.$tool.log
    rc=$(cat "$log.rc" 2>/dev/null || echo "?")
    errors=$(grep -oE "ERROR SUMMARY: [0-9]+" "$log" | grep -oE "[0-9]+$" | tail -1)
    totals=$(grep -E "^Totals:" "$log" | tail -1 | cut -d' ' -f2-7)
    case $rc in
    0) result=clean ;;
    77) result=skipped ;;
    99) result=REPORTED ;;
    124 | 137) result=timeout ;;
    *) result="rc=$rc" ;;
    esac
    total=$((total + 1))
    [ "$result" = clean ] && clean=$((clean + 1))
    printf '%-30s %-10s %-8s %-7s %s\n' "$name" "$tool" "$result" "${errors:--}" "${totals:--}"
done
echo "clean $clean of $total runs (logs: $OUT)"
grep -hE "^========= (Invalid|Race|Error|Program hit|Leaked)" "$OUT"/*.log 2>/dev/null | sort | uniq -c | sort -rn | head -20
