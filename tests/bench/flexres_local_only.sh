#!/bin/sh
# minimize --flex against AutoDock Vina 1.2.3 --local_only --flex from the same starts (1fpu +
# imatinib, AutoDock-Vina's example/flexible_docking; tests/data/flex). One core each.
# Usage, from the repository root:  sh tests/bench/flexres_local_only.sh [build/engine/posewright-cli]
# Prints one line per start: Vina's and ours, affinity and inter+intra (the minimized objective,
# Vina's reported numbers), and ours - Vina's on both.
set -e
CLI=${1:-build/engine/posewright-cli}
D=tests/data/flex
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# Starts: imatinib's input pose and three rigid moves of it with THR 315 as given; Vina's eight
# docked models, each with its own THR 315; the same ligands with LYS 271 flexible too.
python3 - "$D" "$T" <<'PY'
import sys
d, t = sys.argv[1], sys.argv[2]
models, cur = [], None
for l in open(d + "/1fpu_ligand_flex_vina_out.pdbqt").read().splitlines():
    if l.startswith("MODEL"): cur = []
    elif l.startswith("ENDMDL"): models.append(cur)
    elif cur is not None and not l.startswith("REMARK VINA") and not l.startswith("REMARK IN") \
            and not l.startswith("REMARK UN"): cur.append(l)
for k, m in enumerate(models, 1):
    b = next(i for i, l in enumerate(m) if l.startswith("BEGIN_RES"))
    open("%s/dock%d_ligand.pdbqt" % (t, k), "w").write("\n".join(m[:b]) + "\n")
    open("%s/dock%d_flex.pdbqt" % (t, k), "w").write("\n".join(m[b:]) + "\n")
PY
cases=""
for l in 1iep moved1 moved2 moved3; do
    f=$D/${l}_ligand.pdbqt; [ $l = 1iep ] && f=$D/1iep_ligand.pdbqt
    cases="$cases $l:$D/1fpu_receptor_rigid.pdbqt:$D/1fpu_receptor_flex.pdbqt:$f"
    cases="$cases 2res_$l:$D/1fpu_rigid_2res.pdbqt:$D/flex_2res.pdbqt:$f"
done
for k in 1 2 3 4 5 6 7 8; do
    cases="$cases dock$k:$D/1fpu_receptor_rigid.pdbqt:$T/dock${k}_flex.pdbqt:$T/dock${k}_ligand.pdbqt"
    cases="$cases 2res_dock$k:$D/1fpu_rigid_2res.pdbqt:$D/flex_2res.pdbqt:$T/dock${k}_ligand.pdbqt"
done
printf '%-12s %9s %9s %9s %9s %8s %8s\n' start vina_aff ours_aff vina_obj ours_obj d_aff d_obj
for c in $cases; do
    IFS=: read name r f l <<EOF2
$c
EOF2
    v=$(vina --receptor $r --flex $f --ligand $l --config $D/1fpu_receptor.box.txt --local_only \
        --cpu 1 --out $T/v.pdbqt 2>&1 | awk -F: '/\(kcal\/mol\)/ { split($2, x, " "); printf "%s ", x[1] }')
    o=$($CLI minimize --receptor $r --flex $f --ligands $l --box $D/1fpu_receptor.box.txt \
        --threads 1 --json 2>/dev/null)
    echo "$v" "$o" | python3 -c '
import sys, json
line = sys.stdin.read().split(" {", 1)
v = [float(x) for x in line[0].split()]
o = json.loads("{" + line[1])
va, vobj = v[0], v[1] + v[4]
oa, oobj = o["affinity"], o["inter"] + o["intra"]
print("%-12s %9.3f %9.3f %9.3f %9.3f %8.3f %8.3f" % (sys.argv[1], va, oa, vobj, oobj, oa - va, oobj - vobj))
' "$name"
done
