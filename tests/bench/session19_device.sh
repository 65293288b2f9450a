#!/usr/bin/env bash
# Nineteenth session's device calls (issue 15 item 4 on the 16-core nvidia-h200 host, CPU only):
# a cold substructure filter over 1M distinct molecules and the export of 1M poses, each build in
# turn. Run from the repository root:  C=.carry19 bash .carry19/session19_device.sh STEP...
# C holds bin.tar.xz (bin/posewright-cli = this branch, bin/posewright-cli-base = main's),
# libs.tar.xz (bundle-libs.sh of both), nci32768.smi, and optionally perf.tar.xz (perf + libs).
# Steps:
#   sub     build the 1M-distinct store (bench hits substructure, keeps it), then fresh
#           `hits query` processes per pattern and build, alternated, /usr/bin/time; a trace of
#           the phases (POSEWRIGHT_HITS_TRACE=1, builds that have it), perf of one query.
#   export  build the 1M-pose store (bench hits, keeps it), `hits export` of every row by each
#           build, alternated, /usr/bin/time, outputs compared, beside bench hits' plain_write.
set -uo pipefail
C=$(cd "${C:-.carry19}" && pwd)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
W=${WORK:-/tmp/w19}; mkdir -p "$W"
for t in bin libs perf; do
    [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"
done
export LD_LIBRARY_PATH=$C/libs
NEW=$C/bin/posewright-cli; BASE=$C/bin/posewright-cli-base
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), kernel $(uname -r), $(date -u +%FT%TZ)"
df -h "$W" | tail -1
TIMEFORMAT="%R %U %S"
PATTERNS=${PATTERNS:-"c1ccccc1 c1ccc2[nH]ccc2c1 [NX3;H2]c [c;\$(c1ccc2[nH]ccc2c1)]"}
# hits_device.sh's eight, for the bench's rows (the last is recursive: RDKit matches it).
BENCH_PATTERNS=${BENCH_PATTERNS:-"c1ccccc1 c1ccncc1 C(=O)[OH] [NX3;H2]c c1ccc2[nH]ccc2c1 S(=O)(=O)N [N+](=O)[O-] [c;\$(c1ccc2[nH]ccc2c1)]"}
MOLS=${MOLS:-1000000}
POSES=${POSES:-1000000}
ROUNDS=${ROUNDS:-3}

sub() {
    local db=$W/distinct/bench_hits_substructure.db
    mkdir -p "$W/distinct"
    if [ ! -f "$db" ]; then
        SECONDS=0
        timeout 300 "$NEW" bench hits substructure --smiles "$C/nci32768.smi" --dir "$W/distinct" \
            --molecules "$MOLS" --threads "$(nproc)" --sample 0 --patterns "$BENCH_PATTERNS" --keep >"$OUT/bench_sub.jsonl" \
            2>"$OUT/bench_sub.err"
        echo "bench hits substructure rc=$? ${SECONDS}s"; tail -2 "$OUT/bench_sub.err"
        command -v python3 >/dev/null || cut -c1-400 "$OUT/bench_sub.jsonl"
        command -v python3 >/dev/null && python3 - "$OUT/bench_sub.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    keep = ("what", "pattern", "matched", "screen_survivors", "compact", "seconds", "cpu_seconds",
            "fresh_seconds", "fresh_cpu_seconds", "again_seconds", "from_pack",
            "parallel_seconds", "one_reader_seconds", "peak_rss_mib")
    print(" ".join(f"{k}={d[k]}" for k in keep if k in d))
PY
    fi
    [ -f "$db" ] || return
    ls -la "$db"
    for round in $(seq "$ROUNDS"); do
        for b in ${BUILDS:-posewright-cli-base posewright-cli}; do
            [ -x "$C/bin/$b" ] || continue
            for p in $PATTERNS; do
                t=$( { time POSEWRIGHT_HITS_TRACE=${TRACE:-} timeout 60 "$C/bin/$b" hits query "$db" \
                    --where "smarts('$p')" --columns id --limit 100000000 2>"$OUT/q.err" | wc -l >"$OUT/q.n"; } 2>&1 )
                echo "query $b $p round $round: wall/user/sys $t lines $(cat "$OUT/q.n") ${VARIANT:-}"
                [ "$round" = 1 ] && [ "$b" = posewright-cli ] && grep trace "$OUT/q.err" | sed 's/^/    /'
            done
        done
    done
    if [ -x "$C/perf/perf" ] && [ -n "${PERF:-}" ]; then
        local p=${PERF_PATTERN:-c1ccccc1}
        LD_LIBRARY_PATH=$C/perf/libs:$LD_LIBRARY_PATH "$C/perf/perf" stat -e task-clock,page-faults,context-switches,cpu-migrations \
            "$NEW" hits query "$db" --where "smarts('$p')" --columns id --limit 100000000 2>&1 >/dev/null | tail -12
        LD_LIBRARY_PATH=$C/perf/libs:$LD_LIBRARY_PATH "$C/perf/perf" record -F 4000 -g -o "$W/perf.data" \
            "$NEW" hits query "$db" --where "smarts('$p')" --columns id --limit 100000000 >/dev/null 2>"$W/perf.err"
        LD_LIBRARY_PATH=$C/perf/libs:$LD_LIBRARY_PATH "$C/perf/perf" report -i "$W/perf.data" --stdio --no-children \
            --sort sym --percent-limit 0.7 -g none 2>/dev/null | grep -v '^#' | grep -v '^$' >"$OUT/perf_sub.txt"
        head -45 "$OUT/perf_sub.txt"
    fi
}

export_rows() {
    local dir=$W/poses
    mkdir -p "$dir"
    if [ ! -f "$dir/bench_hits.db" ]; then
        SECONDS=0
        timeout 300 "$NEW" bench hits --molecules tests/data/shapes/cdk2.sdf --dir "$dir" --poses "$POSES" \
            --keep >"$OUT/bench_hits.jsonl" 2>"$OUT/bench_hits.err"
        echo "bench hits rc=$? ${SECONDS}s"; tail -2 "$OUT/bench_hits.err"
        cut -c1-330 "$OUT/bench_hits.jsonl"
    fi
    for round in $(seq "$ROUNDS"); do
        for b in posewright-cli-base posewright-cli; do
            [ -x "$C/bin/$b" ] || continue
            rm -f "$dir/o_$b.sdf"
            sync; t=$( { time "$C/bin/$b" hits export "$dir/bench_hits.db" --out "$dir/o_$b.sdf" >/dev/null 2>"$OUT/e.err"; } 2>&1 )
            echo "export $b round $round: wall/user/sys $t bytes $(stat -c %s "$dir/o_$b.sdf" 2>/dev/null) $(tail -1 "$OUT/e.err")"
        done
        cmp -s "$dir/o_posewright-cli-base.sdf" "$dir/o_posewright-cli.sdf" && echo "  outputs identical" || echo "  OUTPUTS DIFFER"
    done
    rm -f "$dir"/o_*.sdf
    # The placed export's thread cap (8 by default) against 16, on the same SDF (bench hits
    # imports it again).
    for t in ${EXPORT_THREADS:-}; do
        mkdir -p "$dir/t$t"
        timeout 200 "$NEW" bench hits --molecules tests/data/shapes/cdk2.sdf --dir "$dir/t$t" \
            --poses "$POSES" --sdf "$dir/bench_hits_poses.sdf" --export-threads "$t" 2>/dev/null |
            grep -E '"(export_sdf|plain_write)"' | cut -c1-200
        rm -rf "$dir/t$t"
    done
    local bytes=4327462504
    for round in 1 2; do
        sync; t=$( { time head -c "$bytes" /dev/zero | dd of="$dir/plain.bin" bs=1M status=none; } 2>&1 )
        echo "plain write of $bytes bytes (dd bs=1M): wall/user/sys $t"; rm -f "$dir/plain.bin"
    done
}

for step in "$@"; do
    case $step in
    sub) sub ;;
    export) export_rows ;;
    *) echo "unknown step $step" ;;
    esac
done
