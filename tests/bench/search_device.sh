#!/usr/bin/env bash
# Which local search and stopping rule gives the docking search the most per second (issue 13),
# measured on a two-GPU machine (nvidia-h100-x2 or h200-x2) in one call, two streams at once:
#   GPU 0: search quality on the dock30 set (tests/bench/dock30_device.sh's protocol: maps built
#          on the GPU from make_gpf.py's GPF, the crystal ligand from random starts, nrun 100,
#          seed 42) for every variant in VARIANTS;
#   GPU 1: 1stp and 3ce3 (search time, best energy) for every variant, then AutoDock-GPU on the
#          same GPU and maps (nrun 100, seeds 42-44); Vina 1iep from a random start for every
#          VINA_VARIANTS entry, ours whole process (`dock` under /usr/bin/time) and search
#          (`bench dock`), against `vina --exhaustiveness 8 --cpu <all cores>` whole process and
#          its set-up alone (`--max_evals 1`); then our 1,000-ligand AD4 screen into 1iep (20 runs
#          each) for every SCREEN_VARIANTS entry.
# A variant is a set of `bench dock` flags, '+' for spaces: "--ls-iterations+40".
# Run from the repository root on the GPU machine with the carried folder C holding bin.tar.xz
# (bin/posewright-cli), libs.tar.xz (bundle-libs.sh output for it and for vina), ad4.tar.xz
# (ad4/<id>/ maps + ligand_xtal.pdbqt for 1stp, 3ce3, 1iep), dock30.tar.xz (dock30/<id>/:
# protein.pdbqt, flex-xray.pdbqt, protein.gpf; dock30/ligand_properties.csv), screen.tar.xz
# (screen/ob_all.pdbqt: 1,000 united-atom NCI ligands, one MODEL each) and peers/
# (autodock_gpu_64wi, libcudart.so.13, vina). Prints a summary table per stream last.
set -uo pipefail
C=${C:-$PWD/.carry-exp}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for t in bin libs ad4 dock30 screen; do
    [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"
done
export LD_LIBRARY_PATH=$C/libs:$C/peers
CLI=$C/bin/posewright-cli
VARIANTS=${VARIANTS:-"default --adadelta-stop+0.01 --ls-iterations+40"}
VINA_VARIANTS=${VINA_VARIANTS:-"default"}
SCREEN_VARIANTS=${SCREEN_VARIANTS:-"default"}
flags() { [ "$1" = default ] && return; echo "${1//+/ }"; }
runs() { case "$1" in *--runs*) ;; *) echo "--runs ${2:-100}" ;; esac; } # unless the variant sets it
summary() { # jsonl -> one line: reached, top-1, seconds, generations, evals/individual, autostop
    python3 - "$@" <<'EOF'
import json, sys
props = {l.split(",")[0]: l.strip().split(",") for l in open(sys.argv[2]) if "," in l}
n = near = top = 0; sec = gen = epi = auto = 0.0
for line in open(sys.argv[1]):
    pid, js = line.split(" ", 1)
    try: d = json.loads(js)
    except ValueError: continue
    p = props[pid]; ref = float(p[3] or p[5])
    n += 1; near += d["best_search_energy"] <= ref + 0.5
    top += (d.get("top_rmsd_ref") is not None and d["top_rmsd_ref"] < 2.0)
    sec += d["seconds"]; gen += d["mean_generations"]; epi += d.get("evaluations_per_individual", 0)
    auto += d["autostopped_fraction"]
print(f"reached {near}/{n}  top1<2A {top}/{n}  search s {sec:.1f}  mean gens {gen/max(n,1):.1f}"
      f"  evals/indiv {epi/max(n,1):.1f}  autostopped {auto/max(n,1):.2f}")
EOF
}

dock30_stream() {
    export CUDA_VISIBLE_DEVICES=${DOCK30_GPU:-0}
    local D30=$C/dock30 ids id v
    ids=$(ls "$D30" | grep -v csv | grep -v -E '^(3drf|2vaa|3er5)$') # 26-32 torsions: > 40 s each
    for id in $ids; do
        mkdir -p "$D30/$id/maps"
        timeout 60 $CLI maps --gpf "$D30/$id/protein.gpf" --receptor "$D30/$id/protein.pdbqt" \
            --out "$D30/$id/maps/protein.maps.fld" --device cuda >"$D30/$id/maps.log" 2>&1 ||
            echo "$id maps failed: $(tail -1 "$D30/$id/maps.log")"
    done
    for v in $VARIANTS; do
        local jl=$OUT/dock30_${v//[^a-z0-9.]/_}.jsonl
        : >"$jl"
        for id in $ids; do
            line=$(timeout 40 $CLI bench dock --device cuda $(flags "$v") \
                --maps "$D30/$id/maps/protein.maps.fld" --ligands "$D30/$id/flex-xray.pdbqt" \
                --reference "$D30/$id/flex-xray.pdbqt" --runs 100 --seed 42 2>/dev/null | grep '"bench"')
            [ -n "$line" ] && echo "$id $line" >>"$jl" || echo "dock30 $v $id: failed or timed out"
        done
        echo "dock30 [$v]: $(summary "$jl" "$D30/ligand_properties.csv")"
    done
}

race_stream() {
    export CUDA_VISIBLE_DEVICES=${RACE_GPU:-1}
    local id D v seed
    for id in 1stp 3ce3; do
        D=$C/ad4/$id
        for v in $VARIANTS; do
            timeout 60 $CLI bench dock --device cuda $(flags "$v") \
                --maps $D/${id}_protein.maps.fld --ligands $D/ligand_xtal.pdbqt \
                --reference $D/ligand_xtal.pdbqt --runs 100 --seed 42 --repeat 3 2>/dev/null |
                python3 -c "
import json, sys
r = [json.loads(l) for l in sys.stdin if l.startswith('{')]
if r: print('ours $id [$v]: search s', ' '.join('%.3f' % x['seconds'] for x in r), ' best %.3f' % r[0]['best_score'],
            ' inter+intra %.3f' % r[0]['best_search_energy'], ' top1 A %s' % r[0].get('top_rmsd_ref'),
            ' gens %.1f' % r[0]['mean_generations'], ' evals/indiv %.1f' % r[0].get('evaluations_per_individual', 0),
            ' autostopped %.2f' % r[0]['autostopped_fraction'], ' runs<2A %.2f' % r[0]['runs_within_2A_fraction'])"
            /usr/bin/time -f "ours $id [$v] whole process s %e" timeout 60 $CLI dock --device cuda \
                $(flags "$v") \
                --maps $D/${id}_protein.maps.fld --ligands $D/ligand_xtal.pdbqt --runs 100 --seed 42 \
                --out /tmp/${id}_ours.sdf 2>&1 | grep -E "whole process|rror" | tail -1
        done
        for seed in 42 43 44; do
            (cd "$D" && /usr/bin/time -f "process %e s" "$C/peers/autodock_gpu_64wi" \
                --ffile ${id}_protein.maps.fld --lfile ligand_xtal.pdbqt --nrun 100 --seed $seed 2>&1 |
                grep -iE "took|process" | tr '\n' ' ' | sed "s/^/AutoDock-GPU $id seed $seed: /")
            echo " best $(awk '/^   1 \|/ {print $3; exit}' "$D/ligand_xtal.dlg")"
        done
    done
    D=tests/data/complexes/1iep
    for v in $VINA_VARIANTS; do
        timeout 60 $CLI bench dock --device cuda $(flags "$v") --receptor $D/receptor.pdbqt \
            --box $D/box.txt --ligands $D/ligand_xtal.pdbqt --reference $D/ligand_xtal.pdbqt \
            $(runs "$v") --seed 42 --repeat 3 2>/dev/null | python3 -c "
import json, sys
r = [json.loads(l) for l in sys.stdin if l.startswith('{')]
if r: print('ours vina 1iep [$v]: search s', ' '.join('%.3f' % x['seconds'] for x in r), ' setup s %.3f' % r[0]['setup_seconds'],
            ' best %.3f' % r[0]['best_score'], ' top1 A %s' % r[0].get('top_rmsd_ref'), ' ls %s' % r[0]['local_search'],
            ' gens %.1f' % r[0]['mean_generations'])"
        /usr/bin/time -f "ours vina 1iep [$v] whole process s %e" timeout 60 $CLI dock --device cuda \
            $(flags "$v") --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $D/ligand_xtal.pdbqt \
            $(runs "$v") --seed 42 --out /tmp/1iep_ours.sdf 2>&1 | grep -E "whole process|rror" | tail -1
        echo "  top pose: $(grep -A1 -m1 '<dock_score>' /tmp/1iep_ours.sdf | tail -1) kcal/mol"
    done
    for evals in 0 1; do
        /usr/bin/time -f "vina --max_evals $evals whole process s %e" timeout 120 "$C/peers/vina" \
            --receptor $D/receptor.pdbqt --ligand $D/ligand_xtal.pdbqt --config $D/box.txt \
            --exhaustiveness 8 --seed 42 --cpu "$(nproc)" --max_evals $evals \
            --out /tmp/vina_1iep_$evals.pdbqt 2>&1 | grep -E "^ +1 |whole process"
    done
    for v in $SCREEN_VARIANTS; do
        [ "$v" = none ] && continue
        /usr/bin/time -f "ours screen1000 [$v] whole process s %e" timeout ${SCREEN_TIMEOUT:-150} \
            $CLI bench dock --device cuda $(flags "$v") \
            --maps $C/ad4/1iep/1iep_protein.maps.fld --ligands $C/screen/ob_all.pdbqt --runs 20 \
            --seed 42 2>"$OUT/screen.err" | python3 -c "
import json, sys
for l in sys.stdin:
    if l.startswith('{'):
        d = json.loads(l); print('ours screen1000 [$v]: docked', d['docked'], ' search s %.1f' % d['seconds'],
              ' ligands/s %.2f' % d['ligands_per_second'], ' gens %.1f' % d['mean_generations'],
              ' autostopped %.2f' % d['autostopped_fraction'])"
        tail -1 "$OUT/screen.err"
    done
}

nvidia-smi --query-gpu=index,name,uuid --format=csv,noheader
echo "host cores: $(nproc); date: $(date -u +%FT%TZ)"
# STREAMS: which of the two to run (default both, at once); SEQUENTIAL=1 runs them one after the
# other (for one GPU: DOCK30_GPU=RACE_GPU=N).
STREAMS=${STREAMS:-race dock30}
for s in $STREAMS; do
    if [ -n "${SEQUENTIAL:-}" ]; then ${s}_stream >"$OUT/$s.txt" 2>&1; else ${s}_stream >"$OUT/$s.txt" 2>&1 & fi
done
wait
for s in $STREAMS; do
    echo "== $s"
    cat "$OUT/$s.txt"
done
