#!/bin/bash
# Fourteenth session (2026-11-27), the lead's device calls (nvidia-h100-x2: 2 GPUs, 32 host cores).
# The carried folder is session13_device.sh's (its header says how to make it), plus Debian's
# `vina` 1.2.3 and its libraries in peers/ (`cp /usr/bin/vina C/peers/ &&
# ../shared/tools/bundle-libs.sh /usr/bin/vina C/peers`).
# Usage, from the repository root on the device:  C=.carry14 bash tests/bench/session14_device.sh STEP...
#   screenpair  session13's `perligand` (ours, `dock --json`, GPU 0) and `peerbest` (AutoDock-GPU
#            `--filelist`, GPU 1) at the same time, then `evals`
#   evals    where each program spends its evaluations on the screen: per ligand, ours (the mean
#            of its runs' evaluations and generations, per_default.json) against AutoDock-GPU's
#            (the last row of its AutoStop table on stdout: evaluations per run, generations),
#            by active-torsion count (from each ligand's PDBQT)
#   vina     Vina scoring, 1iep from a random start, 100 runs: ours (`bench dock --repeat 3`, and
#            `dock` as a whole process) against `vina --exhaustiveness 8 --cpu <all cores>` (and
#            its set-up alone, --max_evals 1)
S13=$(dirname "$0")/session13_device.sh
export C=$(cd "${C:-.carry14}" && pwd) OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
bash "$S13" # unpacks C once, before any two steps run at once
CLI=$C/bin/posewright-cli
export LD_LIBRARY_PATH=$C/libs

screenpair() {
    bash "$S13" perligand > /dev/null 2>&1 &
    bash "$S13" peerbest > /dev/null 2>&1 &
    wait
    evals
}

evals() {
    python3 - "$OUT" "$C/screen" > "$OUT/evals.txt" 2>&1 <<'EOF'
import json, os, re, sys
out, screen = sys.argv[1], sys.argv[2]
def name_and_torsions(path):
    name, tors = None, None
    for l in open(path):
        if l.startswith("REMARK  Name"): name = l.split("=", 1)[1].strip()
        m = re.match(r"REMARK\s+(\d+) active torsions", l)
        if m: tors = int(m.group(1))
    return name, tors
files = [l.strip() for l in open(os.path.join(screen, "filelist.txt")) if l.strip().endswith(".pdbqt")]
job = {}  # AutoDock-GPU's job number (1-based, filelist order) -> last AutoStop row
cur = None
for l in open(os.path.join(out, "screen_adgpu.log"), errors="replace"):
    m = re.search(r"Running Job #(\d+)", l)
    if m: cur = int(m.group(1)); continue
    m = re.match(r"\s*(\d+)\s*\|\s*(\d+)\s*\|", l)
    if m and cur is not None: job[cur] = (int(m.group(1)), int(m.group(2)))
peer, tors = {}, {}
for k, f in enumerate(files, 1):
    name, t = name_and_torsions(os.path.join(screen, f))
    tors[name] = t
    if k in job: peer[name] = job[k]
d = json.load(open(os.path.join(out, "per_default.json")))
ours = {}
for x in d["ligands"]:
    if x.get("runs"):
        r = x["runs"]
        ours[x["name"]] = (sum(y["generations"] for y in r) / len(r), sum(y["evaluations"] for y in r) / len(r))
both = sorted(k for k in ours if k in peer and tors.get(k) is not None)
print(f"ligands: ours {len(ours)}, AutoDock-GPU rows {len(job)}, both {len(both)}")
print("torsions | ligands | ours gens | peer gens | ours evals/run | peer evals/run | ours/peer evals | share of our evals")
total = sum(ours[k][1] for k in both)
for lo, hi in [(0, 3), (4, 6), (7, 9), (10, 11), (12, 99)]:
    ks = [k for k in both if lo <= tors[k] <= hi]
    if not ks: continue
    og = sum(ours[k][0] for k in ks) / len(ks); pg = sum(peer[k][0] for k in ks) / len(ks)
    oe = sum(ours[k][1] for k in ks) / len(ks); pe = sum(peer[k][1] for k in ks) / len(ks)
    print(f"{lo}-{hi} | {len(ks)} | {og:.1f} | {pg:.1f} | {oe:.0f} | {pe:.0f} | {oe / pe:.2f} | {sum(ours[k][1] for k in ks) / total:.2f}")
oe = sum(ours[k][1] for k in both); pe = sum(peer[k][1] for k in both)
print(f"all | {len(both)} | | | {oe / len(both):.0f} | {pe / len(both):.0f} | {oe / pe:.2f} | 1.00")
with open(os.path.join(out, "evals_per_ligand.tsv"), "w") as f:
    f.write("name\ttorsions\tours_gens\tours_evals_per_run\tpeer_gens\tpeer_evals_per_run\n")
    for k in both:
        f.write(f"{k}\t{tors[k]}\t{ours[k][0]:.1f}\t{ours[k][1]:.0f}\t{peer[k][0]}\t{peer[k][1]}\n")
EOF
}

vina() {
    local D=tests/data/complexes/1iep
    {
        CUDA_VISIBLE_DEVICES=0 timeout 60 "$CLI" bench dock --device cuda --receptor $D/receptor.pdbqt \
            --box $D/box.txt --ligands $D/ligand_xtal.pdbqt --reference $D/ligand_xtal.pdbqt \
            --runs 100 --seed 42 --repeat 3 2>/dev/null | python3 -c "
import json, sys
r = [json.loads(l) for l in sys.stdin if l.startswith('{')]
if r: print('ours vina 1iep: search s', ' '.join('%.3f' % x['seconds'] for x in r), ' best %.3f' % r[0]['best_score'],
            ' top1 A %s' % r[0].get('top_rmsd_ref'), ' gens %.1f' % r[0]['mean_generations'], ' evaluations %s' % r[0].get('evaluations'))"
        for k in 1 2; do
            CUDA_VISIBLE_DEVICES=0 /usr/bin/time -f "ours vina 1iep dock whole process s %e" timeout 60 "$CLI" dock \
                --device cuda --receptor $D/receptor.pdbqt --box $D/box.txt --ligands $D/ligand_xtal.pdbqt \
                --runs 100 --seed 42 --out /tmp/1iep_ours.sdf 2>&1 | grep -E "whole process|rror" | tail -1
        done
        echo "  our top pose: $(grep -A1 -m1 '<dock_score>' /tmp/1iep_ours.sdf | tail -1) kcal/mol"
        for evals in 0 1; do
            LD_LIBRARY_PATH=$C/peers /usr/bin/time -f "vina --max_evals $evals whole process s %e" timeout 120 \
                "$C/peers/vina" --receptor $D/receptor.pdbqt --ligand $D/ligand_xtal.pdbqt --config $D/box.txt \
                --exhaustiveness 8 --seed 42 --cpu "$(nproc)" --max_evals $evals \
                --out /tmp/vina_1iep_$evals.pdbqt 2>&1 | grep -E "^ +1 |whole process"
        done
    } > "$OUT/vina.txt" 2>&1
}

for step in "$@"; do "$step"; done
rm -f "$OUT"/per_default.sdf "$OUT"/per_default.log "$OUT"/per0.txt "$OUT"/per1.txt "$OUT"/screen0.txt \
    "$OUT"/screen1.txt
for f in perligand peerbest evals vina; do
    [ -f "$OUT/$f.txt" ] || continue
    echo "== $f"; cat "$OUT/$f.txt"
done
