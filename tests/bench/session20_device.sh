#!/usr/bin/env bash
# Twentieth session's device call (issue 15 item 4 on the 16-core nvidia-h200 host, CPU only):
# recursive SMARTS filters through the compact matcher, and `hits query --order` over 1M rows,
# this branch against main's build. Run from the repository root:
#   C=.carry20 bash .carry20/session20_device.sh sub order
# C holds what session19_device.sh needs (bin.tar.xz with bin/posewright-cli = this branch and
# bin/posewright-cli-base = main's, bin/sqlite3 to drop the bench's indexes, libs.tar.xz with
# the libraries of all three, nci32768.smi) and a copy of session19_device.sh.
# Steps:
#   sub    session19_device.sh's `sub` (the 1M-distinct store built by bench hits substructure,
#          then fresh `hits query --where "smarts(P)"` processes per pattern and build), with
#          recursive patterns among PATTERNS.
#   table  the Hits table widget's benchmark (bench_hittable, offscreen Qt; C/ht.tar.xz holds it,
#          its libraries and Qt's offscreen platform plugin): 1M generated rows, then the 1M-pose
#          store of `order` read by the panel's loadHitColumns (run `order` first).
#   memory peak RSS of fresh `hits query` processes: a SMARTS filter over the 1M-distinct store
#          of `sub`, an unindexed order over the 1M-pose store of `order` (run both first).
#   order  bench hits on 1M poses (sort rows without an index), then fresh `hits query --order C
#          --columns id` processes of every row and of 10 rows, per column and build, outputs
#          compared.
set -uo pipefail
C=$(cd "${C:-.carry20}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
W=${WORK:-/tmp/w20}; mkdir -p "$W"
export C OUT WORK=$W
export PATTERNS=${PATTERNS:-"[c;\$(c1ccc2[nH]ccc2c1)] [N;!\$(NC=O)] [\$([NX3]C=O),\$([OH]c)] c1ccc2[nH]ccc2c1"}
ROUNDS=${ROUNDS:-3}
TIMEFORMAT="%R %U %S"

order() {
    local dir=$W/poses
    mkdir -p "$dir"
    if [ ! -f "$dir/bench_hits.db" ]; then
        SECONDS=0
        timeout 300 "$C/bin/posewright-cli" bench hits --molecules tests/data/shapes/cdk2.sdf --dir "$dir" \
            --poses "${POSES:-1000000}" --no-export --keep >"$OUT/bench_hits.jsonl" 2>"$OUT/bench_hits.err"
        echo "bench hits rc=$? ${SECONDS}s"; tail -2 "$OUT/bench_hits.err"
        grep -E '"(import|open|sort|filter|index)"' "$OUT/bench_hits.jsonl" | cut -c1-200
        "$C/bin/sqlite3" "$dir/bench_hits.db" "DROP INDEX bench_by_dock_score; DROP INDEX bench_by_mw; DROP INDEX bench_by_name;" 2>&1 ||
            echo "(no sqlite3: the bench's indexes stay; the rows below are then indexed sorts)"
    fi
    for round in $(seq "$ROUNDS"); do
        for column in dock_score mw name; do
            for limit in 100000000 10; do
                for b in posewright-cli-base posewright-cli; do
                    t=$( { time "$C/bin/$b" hits query "$dir/bench_hits.db" --order "$column" --columns id \
                        --limit "$limit" 2>"$OUT/o.err" | md5sum >"$OUT/o_$b.md5"; } 2>&1 )
                    echo "order $column limit $limit $b round $round: wall/user/sys $t $(tail -1 "$OUT/o.err")"
                done
                cmp -s "$OUT/o_posewright-cli-base.md5" "$OUT/o_posewright-cli.md5" && echo "  outputs identical" ||
                    echo "  OUTPUTS DIFFER"
            done
        done
    done
}

for t in bin libs; do
    [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"
done
export LD_LIBRARY_PATH=$C/libs
# Peak resident memory of a command (python's getrusage of its children).
peak() {
    python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print("peak_rss_mib %.0f rc %d" % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, r.returncode))' "$@"
}

table() {
    [ -d "$C/ht" ] || { mkdir -p "$C/ht" && tar -C "$C/ht" -xJf "$C/ht.tar.xz"; }
    local run="env QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH=$C/ht/plugins LD_LIBRARY_PATH=$C/ht/libs:$C/libs $C/ht/bench_hittable"
    $run 1000000 20 2>&1 | grep -v propagateSizeHints
    for round in 1 2; do
        [ -f "$W/poses/bench_hits.db" ] && $run --store "$W/poses/bench_hits.db" 2>&1 | grep -v propagateSizeHints
    done
}

memory() {
    local db=$W/distinct/bench_hits_substructure.db
    for p in c1ccccc1 "[c;\$(c1ccc2[nH]ccc2c1)]"; do
        [ -f "$db" ] && echo "hits query smarts('$p') 1M distinct: $(peak "$C/bin/posewright-cli" hits query "$db" --where "smarts('$p')" --columns id --limit 100000000)"
    done
    db=$W/poses/bench_hits.db
    [ -f "$db" ] && echo "hits query --order dock_score 1M poses: $(peak "$C/bin/posewright-cli" hits query "$db" --order dock_score --columns id --limit 100000000)"
}

echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(date -u +%FT%TZ)"
for step in "$@"; do
    case $step in
    sub) ROUNDS=$ROUNDS bash "$HERE/session19_device.sh" sub ;;
    order) order ;;
    table) table ;;
    memory) memory ;;
    *) echo "unknown step $step" ;;
    esac
done
