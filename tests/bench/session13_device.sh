#!/bin/bash
# Thirteenth session (2026-11-27), the lead's device calls (nvidia-h100-x2: 2 GPUs, 32 host cores):
# AutoStop's settings measured on search quality (dock30), the race and the screen (issue 13).
# The carried folder C holds, made from the worktree root after building posewright-cli (and the
# gpu_test_* targets for `suites`):
#   C=.carry13; mkdir -p $C/bin && cp build/engine/posewright-cli [build/tests/gpu_test_*] $C/bin/
#   rm -rf $C/bin/*_autogen; strip $C/bin/*; ../shared/tools/bundle-libs.sh $C/bin/* $C/libs
#   tar -C $C -cf - bin | xz -9 -T2 > $C/bin.tar.xz; tar -C $C -cf - libs | xz -9 -T2 > $C/libs.tar.xz
#   tar -C ../shared -cf - data/complexes/1stp data/complexes/3ce3 | xz -6 -T2 > $C/data.tar.xz
#   dock30.tar.xz: ../shared/data/docking/dock30.tar.xz unpacked, with ../shared/tools/peers/make_gpf.py
#   run on each complex (protein.gpf), packed again
#   screen.tar.xz: session11_device.sh's `screen` inputs (screen/ob_all.pdbqt, screen/maps/,
#   screen/ob/ (one file per ligand), screen/filelist.txt); peers/: ../shared/tools/peers
# Usage, from the repository root on the device:  C=.carry13 bash tests/bench/session13_device.sh STEP...
#   quality  for each variant of VARIANTS0 on GPU 0 and VARIANTS1 on GPU 1 (at the same time):
#            dock30 (27 complexes with 2-11 torsions, maps built on the GPU from each protein.gpf,
#            AD4, nrun 100, seed 42; session5_device.sh's protocol) and the race (1stp, 3ce3:
#            AutoDock-GPU's maps and crystal ligand, nrun 100, seed 42, `bench dock --repeat 3`)
#   screen   the 716-ligand united-atom AD4 screen of 1iep (20 runs, seed 42): SCREEN0 on GPU 0,
#            SCREEN1 on GPU 1, at the same time (a variant "adgpu" is AutoDock-GPU v1.5
#            `--filelist` on the same ligands, one file each)
#   perligand  the same screen through `dock --json` for each variant of PER0 (GPU 0) and PER1
#            (GPU 1), then each ligand's best search energy (inter + intra, the lowest of its 20
#            runs) against AutoDock-GPU's (adgpu_best.tsv of an earlier `peerbest` in $OUT)
#   peerbest AutoDock-GPU's screen alone on GPU 1, and each ligand's lowest (1) + (2) over its
#            runs in $OUT/adgpu_best.tsv (the name inside its PDBQT, energy)
#   peerrace AutoDock-GPU on the race's inputs, on GPU 1
#   suites   every gpu_test_* carried, on GPU 0
# Running steps in two processes at once: unpack C first (the script with no step).
# A variant is a name and the flags it adds to `bench dock`, as name:flag,flag (commas for spaces);
# "default" adds none. SEED (default 42) is the seed of `perligand` and `peerbest`.
R=$PWD; C=$(cd "${C:-.carry13}" && pwd); OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for t in bin libs data screen dock30; do [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"; done
export LD_LIBRARY_PATH=$C/libs
mkdir -p /work/wt "$R/build/engine"
[ -e /work/wt/lead ] || ln -s "$R" /work/wt/lead
[ -e /work/wt/shared ] || ln -s "$C" /work/wt/shared
[ -e "$R/build/engine/posewright-cli" ] || ln -s "$C/bin/posewright-cli" "$R/build/engine/posewright-cli"
nvidia-smi --query-gpu=index,name --format=csv,noheader; echo "cores $(nproc) $(date -u +%FT%TZ)"
CLI=$C/bin/posewright-cli
D30=$C/dock30
IDS=$(ls "$D30" | grep -v -E 'csv|README' | grep -v -E '^(3drf|2vaa|3er5)$')

flagsOf() { local v=$1; [[ $v == *:* ]] && echo "${v#*:}" | tr ',' ' '; }
nameOf() { echo "${1%%:*}"; }

maps30() {
    for id in $IDS; do
        mkdir -p "$D30/$id/maps"
        [ -f "$D30/$id/maps/protein.maps.fld" ] ||
            CUDA_VISIBLE_DEVICES=0 timeout 60 "$CLI" maps --gpf "$D30/$id/protein.gpf" \
                --receptor "$D30/$id/protein.pdbqt" --out "$D30/$id/maps/protein.maps.fld" \
                --device cuda > "$D30/$id/maps.log" 2>&1 || echo "maps $id failed: $(tail -1 "$D30/$id/maps.log")"
    done
}

quality1() { # variant gpu cores
    local v=$1 g=$2 cores=$3 name flags jl
    name=$(nameOf "$v"); flags=$(flagsOf "$v"); jl=$OUT/dock30_$name.jsonl; : > "$jl"
    for id in $IDS; do
        line=$(CUDA_VISIBLE_DEVICES=$g taskset -c "$cores" timeout 60 "$CLI" bench dock --device cuda $flags \
            --maps "$D30/$id/maps/protein.maps.fld" --ligands "$D30/$id/flex-xray.pdbqt" \
            --reference "$D30/$id/flex-xray.pdbqt" --runs 100 --seed 42 2>/dev/null | grep '"bench"')
        [ -n "$line" ] && echo "$id $line" >> "$jl" || echo "dock30 $name $id: failed or timed out"
    done
    python3 - "$jl" "$D30/ligand_properties.csv" "$name" <<'EOF'
import json, sys
props = {l.split(",")[0]: l.strip().split(",") for l in open(sys.argv[2]) if "," in l}
n = near = top = 0; sec = ev = 0.0; missed = []
for line in open(sys.argv[1]):
    pid, js = line.split(" ", 1)
    d = json.loads(js); p = props[pid]; ref = float(p[3] or p[5])
    n += 1; ok = d["best_search_energy"] <= ref + 0.5; near += ok
    if not ok: missed.append(f"{pid}({d['best_search_energy']:.2f}/{ref:.2f})")
    top += (d.get("top_rmsd_ref") is not None and d["top_rmsd_ref"] < 2.0)
    sec += d["seconds"]; ev += d.get("evaluations", 0)
print(f"dock30 {sys.argv[3]}: reached {near}/{n} top1<2A {top}/{n} search s {sec:.1f} evaluations {ev:.3g} missed {' '.join(missed)}")
EOF
    for id in 1stp 3ce3; do
        local M=$C/data/complexes/$id/ad4maps
        CUDA_VISIBLE_DEVICES=$g taskset -c "$cores" timeout 90 "$CLI" bench dock --device cuda $flags \
            --maps "$M/${id}_protein.maps.fld" --ligands "$M/../ligand_xtal.pdbqt" \
            --reference "$M/../ligand_xtal.pdbqt" --runs 100 --seed 42 --repeat 3 > "$OUT/race_${id}_$name.json" 2>&1
        echo "race $id $name rc=$?: $(grep -o '"seconds":[0-9.]*' "$OUT/race_${id}_$name.json" | cut -d: -f2 | tr '\n' ' ') $(grep -oE '"(best_search_energy|top_rmsd_ref|evaluations|mean_generations)":[-0-9.]*' "$OUT/race_${id}_$name.json" | head -4 | tr '\n' ' ')"
    done
}

quality() {
    maps30
    ( for v in ${VARIANTS0-default}; do quality1 "$v" 0 0-15; done > "$OUT/quality0.txt" 2>&1 ) &
    ( for v in ${VARIANTS1:-}; do quality1 "$v" 1 16-31; done > "$OUT/quality1.txt" 2>&1 ) &
    wait
    cat "$OUT/quality0.txt" "$OUT/quality1.txt" > "$OUT/quality.txt"
}

screen1() { # variant gpu cores
    local v=$1 g=$2 cores=$3 name flags S=$C/screen
    name=$(nameOf "$v"); flags=$(flagsOf "$v")
    if [ "$name" = adgpu ]; then
        ( mkdir -p /tmp/adgpu && cd /tmp/adgpu && rm -rf ob && cp -r "$S/ob" "$S/maps" "$S/filelist.txt" . &&
          /usr/bin/time -f "adgpu_process_seconds %e" env LD_LIBRARY_PATH="$C/peers" CUDA_VISIBLE_DEVICES=$g \
            taskset -c "$cores" timeout 400 "$C/peers/autodock_gpu_64wi" --filelist filelist.txt --nrun 20 --seed ${SEED:-42} \
            > "$OUT/screen_adgpu.log" 2>&1
          echo "screen adgpu (GPU $g) rc=$?: $(grep -iE 'run time of entire|adgpu_process' "$OUT/screen_adgpu.log" | tail -2 | tr '\n' ' ') dlg $(ls /tmp/adgpu/ob/*.dlg 2>/dev/null | wc -l)" )
        return
    fi
    ( cd "$S/maps" && CUDA_VISIBLE_DEVICES=$g taskset -c "$cores" timeout 400 "$CLI" bench dock --device cuda $flags \
        --maps 1iep.maps.fld --ligands "$S/ob_all.pdbqt" --runs 20 --seed 42 --timings \
        > "$OUT/screen_$name.json" 2> "$OUT/screen_$name.err"
      echo "screen $name (GPU $g) rc=$?: $(grep -oE '"(docked|refused|seconds|ligands_per_second|evaluations_per_second|mean_generations|autostopped_fraction|best_search_energy)":[-0-9.e+]*' "$OUT/screen_$name.json" | tr '\n' ' ')" )
}

screen() {
    ( for v in ${SCREEN0-default}; do screen1 "$v" 0 0-7; done > "$OUT/screen0.txt" 2>&1 ) &
    ( for v in ${SCREEN1:-}; do screen1 "$v" 1 16-23; done > "$OUT/screen1.txt" 2>&1 ) &
    wait
    cat "$OUT/screen0.txt" "$OUT/screen1.txt" > "$OUT/screen.txt"
}

perligand1() { # variant gpu cores
    local v=$1 g=$2 cores=$3 name flags S=$C/screen s
    name=$(nameOf "$v"); flags=$(flagsOf "$v"); s=$(date +%s.%N)
    ( cd "$S/maps" && CUDA_VISIBLE_DEVICES=$g taskset -c "$cores" timeout 500 "$CLI" dock --device cuda $flags \
        --maps 1iep.maps.fld --ligands "$S/ob_all.pdbqt" --runs 20 --seed ${SEED:-42} --json "$OUT/per_$name.json" \
        --out "$OUT/per_$name.sdf" > "$OUT/per_$name.log" 2>&1
      echo "dock $name (GPU $g) rc=$? $(python3 -c "print(round($(date +%s.%N)-$s,1))") s" )
}

perligand() {
    ( for v in ${PER0-default}; do perligand1 "$v" 0 0-15; done > "$OUT/per0.txt" 2>&1 ) &
    ( for v in ${PER1:-}; do perligand1 "$v" 1 16-31; done > "$OUT/per1.txt" 2>&1 ) &
    wait
    cat "$OUT/per0.txt" "$OUT/per1.txt" > "$OUT/perligand.txt"
    # Against AutoDock-GPU when `peerbest` has written its table (run it first, or earlier in the
    # same call); otherwise the variants against the first only.
    python3 - "$OUT" ${PER0-default} ${PER1:-} >> "$OUT/perligand.txt" 2>&1 <<'EOF'
import json, os, sys
out, variants = sys.argv[1], [v.split(":")[0] for v in sys.argv[2:]]
peer = {}
if os.path.exists(os.path.join(out, "adgpu_best.tsv")):
    for line in open(os.path.join(out, "adgpu_best.tsv")):
        name, e = line.rstrip("\n").split("\t")
        if e != "None": peer[name] = float(e)
def ours(name):
    d = json.load(open(os.path.join(out, f"per_{name}.json")))
    return {x["name"]: min(r["search_energy"] for r in x["runs"]) for x in d["ligands"] if x.get("runs")}
print(f"AutoDock-GPU ligands with energies: {len(peer)}")
base = None
for v in variants:
    try: o = ours(v)
    except Exception as e: print(v, "unreadable:", e); continue
    both = [k for k in o if k in peer]
    diff = sorted(o[k] - peer[k] for k in both) or [0]
    line = (f"{v}: ligands {len(o)}, with a peer value {len(both)}; ours lower by >0.5 "
            f"{sum(x < -0.5 for x in diff)}, within 0.5 {sum(abs(x) <= 0.5 for x in diff)}, higher by >0.5 "
            f"{sum(x > 0.5 for x in diff)}; mean ours-peer {sum(diff) / len(diff):+.3f}")
    if base is None: base = (v, o)
    else:
        bv, bo = base; c = [k for k in o if k in bo]
        line += (f"; against {bv}: higher by >0.5 {sum(o[k] > bo[k] + 0.5 for k in c)}, lower by >0.5 "
                 f"{sum(o[k] < bo[k] - 0.5 for k in c)}, sum {sum(o[k] - bo[k] for k in c):+.1f}")
    print(line)
EOF
}

peerbest() { # AutoDock-GPU's screen on GPU 1; each ligand's lowest (1) + (2) into $OUT/adgpu_best.tsv
    screen1 adgpu 1 16-23 > "$OUT/peerbest.txt" 2>&1
    python3 - /tmp/adgpu/ob > "$OUT/adgpu_best.tsv" <<'EOF'
import glob, os, re, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.dlg"))):
    inter = None; best = None
    for line in open(f, errors="replace"):
        m = re.search(r"\((1|2)\) Final (Intermolecular|Total Internal) Energy\s*=\s*([-+0-9.eE]+)", line)
        if not m: continue
        if m.group(1) == "1": inter = float(m.group(3))
        elif inter is not None:
            e = inter + float(m.group(3)); best = e if best is None else min(best, e); inter = None
    # The ligand's name inside its PDBQT (Open Babel's file numbers drift from the names).
    pdbqt = os.path.join(sys.argv[1], os.path.basename(f)[:-4] + ".pdbqt")
    name = next((l.split("=")[1].strip() for l in open(pdbqt) if l.startswith("REMARK  Name")), f)
    print(f"{name}\t{best}")
EOF
    echo "adgpu_best.tsv: $(wc -l < "$OUT/adgpu_best.tsv") ligands" >> "$OUT/peerbest.txt"
}

peerrace() { # AutoDock-GPU v1.5 on the race's inputs (nrun 100, seed 42), on GPU 1
    for id in 1stp 3ce3; do
        local M=$C/data/complexes/$id/ad4maps
        ( cd "$M" && LD_LIBRARY_PATH=$C/peers CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 timeout 60 \
            "$C/peers/autodock_gpu_64wi" --ffile "${id}_protein.maps.fld" --lfile ../ligand_xtal.pdbqt \
            --nrun 100 --seed 42 > "$OUT/race_${id}_adgpu.log" 2>&1
          echo "race $id AutoDock-GPU rc=$?: $(grep -E 'Job #1 took|Run time' "$OUT/race_${id}_adgpu.log" | head -4 | tr '\n' ' ')" )
    done > "$OUT/peerrace.txt" 2>&1
}

suites() {
    for t in "$C"/bin/gpu_test_*; do
        n=$(basename "$t"); s=$(date +%s.%N)
        CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 timeout ${SUITE_TIMEOUT:-300} "$t" > "$OUT/suite_$n.log" 2>&1; rc=$?
        echo "$n rc=$rc $(grep -E '^Totals' "$OUT/suite_$n.log") $(python3 -c "print(round($(date +%s.%N)-$s,1))")s"
        [ $rc = 0 ] || grep -E '^FAIL|Loc:' "$OUT/suite_$n.log" | head -6
    done > "$OUT/suites.txt" 2>&1
}

for step in "$@"; do "$step"; done
for f in quality screen perligand peerbest peerrace suites; do
    [ -f "$OUT/$f.txt" ] || continue
    echo "== $f"; cat "$OUT/$f.txt"
done
