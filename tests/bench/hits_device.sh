#!/usr/bin/env bash
# Issue 15 item 4 on a many-core machine, CPU only (helper hits3, eighth session): the hit store's
# speed goals where the cores exist. Two benchmarks of posewright-cli, then one short table:
#   1. `bench hits substructure`: a store of 1M DISTINCT molecules (the NCI set, then seeded
#      random two-fragment pairs), the screen's load (one reader and in parallel), and per
#      pattern the filter cold (a fresh connection: open, screen load, match; what `hits query`
#      pays), cold on a connection that has loaded the screen, and again (a repeated query);
#   2. `bench hits`: a generated 1M-pose SDF (cdk2.sdf's 47 molecules moved rigidly, seeded
#      tags), its import (wall, poses/s, per stage), opening the saved store, sorting three
#      columns without and with an index, the numeric filter, the export of every row to SDF
#      beside a plain write of as many bytes, and peak RSS;
# Then, if time is left, `hits import` of the same SDF as a user runs it (/usr/bin/time: wall,
# CPU, peak RSS). Aimed at ~240 s on 16 cores (estimated from 2-core CPU times: ~110 s for
# step 1, most of it building the store; ~90 s for step 2); every step has its own time limit
# (280 + 200 + 90 s at worst). MOLS=500000 halves step 1.
#
# Build here (CPU only; nothing of the GPU is used), into the carried folder C (default
# .carry-hits, git-ignored by the .carry* rule):
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPOSEWRIGHT_GUI=OFF
#   cmake --build build --target posewright-cli
#   mkdir -p .carry-hits/bin && cp build/engine/posewright-cli .carry-hits/bin/
#   ../shared/tools/bundle-libs.sh .carry-hits/bin/posewright-cli .carry-hits/libs
#   cp ../shared/data/smiles/nci32768.smi .carry-hits/
# Optional: the branch point's build as .carry-hits/bin/posewright-cli-base (the same libraries)
# for a before/after of `hits query` on the 1M-distinct store on the same machine.
# (bin.tar.xz / libs.tar.xz in C are unpacked as session5_device.sh does; the SMILES are also
# looked for in C/shared/smiles/ and ../shared/data/smiles/.)
# A carry folder built this way (helper hits3, 2026-11-26: posewright-cli of the commit named in
# its BUILT_FROM, posewright-cli-base of 22bca8c, libs, nci32768.smi; 46 MB) was left in
# /work/wt/hits3/.carry-hits; copy it to the checkout's .carry-hits.
# On the device, from the repository root:  tests/bench/hits_device.sh
# Knobs (environment): POSES (1000000), MOLS (1000000 distinct molecules), THREADS (all cores),
# WORK (scratch folder, default /tmp/hits_device: ~15 GB, removed at the end unless KEEP=1),
# PATTERNS (the SMARTS, space-separated), SKIP_IMPORT_CMD=1 (no `hits import` step).
set -uo pipefail
C=$(cd "${C:-.carry-hits}" && pwd)
OUT=${OUT:-/tmp/hits_out}
WORK=${WORK:-/tmp/hits_device}
POSES=${POSES:-1000000}
MOLS=${MOLS:-1000000}
THREADS=${THREADS:-$(nproc)}
PATTERNS=${PATTERNS:-"c1ccccc1 c1ccncc1 C(=O)[OH] [NX3;H2]c c1ccc2[nH]ccc2c1 S(=O)(=O)N [N+](=O)[O-] [c;\$(c1ccc2[nH]ccc2c1)]"}
SECONDS=0
mkdir -p "$OUT" "$WORK"
for t in bin libs; do
    [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"
done
export LD_LIBRARY_PATH=$C/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CLI=$C/bin/posewright-cli
[ -x "$CLI" ] || { echo "hits_device.sh: no $CLI (see the build steps at the top)" >&2; exit 2; }
SMI=""
for f in "${SMILES:-}" "$C/nci32768.smi" "$C/shared/smiles/nci32768.smi" \
         "$PWD/../shared/data/smiles/nci32768.smi"; do
    [ -n "$f" ] && [ -f "$f" ] && { SMI=$f; break; }
done
[ -n "$SMI" ] || { echo "hits_device.sh: nci32768.smi not found" >&2; exit 2; }
MOLECULES=$PWD/tests/data/shapes/cdk2.sdf
echo "host cores: $(nproc); threads: $THREADS; date: $(date -u +%FT%TZ); $(uname -m)"
grep -m1 "model name" /proc/cpuinfo
free -g | head -2
df -h "$WORK" | tail -1

# 1. The store of 1M distinct molecules and the substructure filter over it (first: never
#    measured on many cores; its build is the longest step, ~1.5 CPU-ms a molecule here).
mkdir -p "$WORK/distinct"
timeout 280 "$CLI" bench hits substructure --smiles "$SMI" --dir "$WORK/distinct" \
    --molecules "$MOLS" --threads "$THREADS" --sample 2000 --patterns "$PATTERNS" --keep \
    >"$OUT/bench_sub.jsonl" 2>"$OUT/bench_sub.err"
echo "bench hits substructure rc=$? at ${SECONDS}s"; tail -3 "$OUT/bench_sub.err"
# `hits query` on that store, a fresh process per query (what a user's cold query costs), two
# rounds; with C/bin/posewright-cli-base (the branch point's build) carried too, alternated with
# it on the same store.
DB=$WORK/distinct/bench_hits_substructure.db
if [ -f "$DB" ]; then
    TIMEFORMAT="%R %U %S"
    for round in 1 2; do
        for b in posewright-cli posewright-cli-base; do
            [ -x "$C/bin/$b" ] || continue
            for p in ${QUERY_PATTERNS:-"c1ccc2[nH]ccc2c1" "c1ccccc1" "[NX3;H2]c"}; do
                t=$( { time timeout 60 "$C/bin/$b" hits query "$DB" --where "smarts('$p')" \
                    --columns id --limit 100000000 2>&1 | wc -l >"$OUT/q.count"; } 2>&1 )
                echo "query $b $round $p $(cat "$OUT/q.count") $t" >>"$OUT/queries.txt"
            done
        done
    done
    cat "$OUT/queries.txt"
fi
rm -rf "$WORK/distinct"


# 2. The 1M-pose store. --keep: the SDF stays for the `hits import` step below.
mkdir -p "$WORK/poses"
timeout 200 "$CLI" bench hits --molecules "$MOLECULES" --dir "$WORK/poses" --poses "$POSES" \
    --threads 0 --sort dock_score,mw,name --keep >"$OUT/bench_hits.jsonl" 2>"$OUT/bench_hits.err"
echo "bench hits rc=$? at ${SECONDS}s"; tail -3 "$OUT/bench_hits.err"
rm -f "$WORK/poses/bench_hits_export.sdf" "$WORK/poses/bench_hits.db"

# 3. `hits import` as a user runs it, on the SDF of step 2 (skipped past 400 s).
if [ "${SKIP_IMPORT_CMD:-0}" != 1 ] && [ $SECONDS -lt 400 ] && [ -f "$WORK/poses/bench_hits_poses.sdf" ]; then
    rm -f "$WORK/cmd.db"
    TIMER=""
    [ -x /usr/bin/time ] && TIMER="/usr/bin/time -f %e_%U_%S_%M -o $OUT/import_cmd.time"
    t0=$(date +%s.%N)
    $TIMER timeout 90 "$CLI" hits import "$WORK/cmd.db" "$WORK/poses/bench_hits_poses.sdf" \
        --threads 0 >"$OUT/import_cmd.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    [ -n "$TIMER" ] || echo "$(python3 -c "print($t1 - $t0)")_-_-_-" >"$OUT/import_cmd.time"
    echo "hits import rc=$rc at ${SECONDS}s: wall_user_sys_maxrssKB $(cat "$OUT/import_cmd.time")"
fi
[ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"

python3 - "$OUT" "$POSES" <<'EOF'
import json, os, sys
out, poses = sys.argv[1], int(sys.argv[2])
def lines(name):
    try:
        return [json.loads(l) for l in open(os.path.join(out, name)) if l.startswith('{')]
    except OSError:
        return []
rows = []
def row(step, n, wall, cpu, rate, rss, note=''):
    rows.append((step, n, wall, cpu, rate, rss, note))
for o in lines('bench_hits.jsonl'):
    w, c, r = o.get('seconds'), o.get('cpu_seconds'), o.get('peak_rss_mib')
    what = o['what']
    if what == 'generate':
        row('generate SDF', o['poses'], w, c, o['poses'] / w, r, '%.2f GB' % (o['sdf_bytes'] / 1e9))
    elif what == 'import':
        row('import (bench)', o['poses'], w, c, o['poses_per_second'], r,
            'cut %.1f parse %.1f insert %.1f CPU-s, rank %.2f s, commit %.2f s' % (
                o['cut_cpu_seconds'], o['parse_cpu_seconds'], o['insert_cpu_seconds'],
                o['rank_seconds'], o['commit_seconds']))
    elif what == 'pack_screen':  # hits5: the screen pack written after the import
        row('pack screen after import', o['poses'], w, c, o['import_and_pack_poses_per_second'], r,
            'rate: import and pack; %d molecules' % o['molecules'])
    elif what == 'open':
        row('open store', o['poses'], w, c, None, r)
    elif what == 'sort':
        row('sort %s%s' % (o['column'], ' (index)' if o['index'] else ''), o['poses'], w, c, None, r)
    elif what == 'filter':
        row('numeric filter%s' % (' (indexes)' if o['index'] else ''), o['poses'], w, c, None, r,
            '%d matched' % o['matched'])
    elif what == 'index':
        row('index %s' % o['column'], o['poses'], w, c, None, r)
    elif what in ('export_sdf', 'plain_write'):
        row(what.replace('_', ' '), o['poses'], w, c, o['mib_per_second'], r, 'MiB/s')
for o in lines('bench_sub.jsonl'):
    w, c, r = o.get('seconds'), o.get('cpu_seconds'), o.get('peak_rss_mib')
    what = o['what']
    if what == 'build':
        row('build distinct store', o['molecules'], w, c, o['molecules'] / w, r)
    elif what == 'load_screen':
        if 'one_reader_seconds' in o:
            row('load screen, one reader', o['molecules'], o['one_reader_seconds'],
                o['one_reader_cpu_seconds'], None, r)
        if 'parallel_seconds' in o:  # hits5: pw_screen in parallel, then the pack (if valid)
            row('load screen%s' % (', parallel' if o.get('parallel') else ''), o['molecules'],
                o['parallel_seconds'], o['parallel_cpu_seconds'], None, r)
            row('load screen, %s' % ('from the pack' if o.get('from_pack') else 'no valid pack'),
                o['molecules'], w, c, None, r)
        else:
            row('load screen%s' % (', parallel' if o.get('parallel') else ''), o['molecules'], w,
                c, None, r)
    elif what == 'filter':
        p = o['pattern']
        if 'fresh_seconds' in o:
            row('smarts %s cold, fresh conn' % p, o['molecules'], o['fresh_seconds'],
                o['fresh_cpu_seconds'], None, r, '%d matched' % o['matched'])
        row('smarts %s cold' % p, o['molecules'], w, c, None, r,
            '%d survivors of the screen' % o['screen_survivors'])
        row('smarts %s again' % p, o['molecules'], o['again_seconds'], o['again_cpu_seconds'],
            None, r)
try:
    for l in open(os.path.join(out, 'queries.txt')):
        _, b, rnd, p, n, w, u, sy = l.split()
        row('hits query %s%s r%s' % (p, ' BASE' if b.endswith('-base') else '', rnd), int(n) - 1,
            float(w), float(u) + float(sy), None, None, 'fresh process, rows = output lines - 1')
except (OSError, ValueError):
    pass
try:
    t = open(os.path.join(out, 'import_cmd.time')).read().split()[-1].split('_')
    num = lambda v: None if v == '-' else float(v)
    wall, user, sys_, rss = (num(v) for v in t)
    row('hits import (command)', poses, wall, user + sys_ if user is not None else None,
        poses / wall, rss / 1024 if rss else None, 'rank pass and commit included')
except (OSError, IndexError, ValueError, TypeError):
    pass
f = lambda v, d: '-' if v is None else ('%.' + str(d) + 'f') % v
print('%-44s %9s %9s %9s %11s %8s  %s' % ('step', 'rows', 'wall s', 'CPU s', 'rate/s', 'RSS MiB', 'note'))
for s, n, w, c, rate, rss, note in rows:
    print('%-44s %9d %9s %9s %11s %8s  %s' % (s[:44], n, f(w, 3), f(c, 2), f(rate, 0), f(rss, 0), note))
EOF
echo "total ${SECONDS}s"
