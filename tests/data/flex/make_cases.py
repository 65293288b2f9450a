#!/usr/bin/env python3
"""Builds the 1fpu flexible-residue test cases from AutoDock-Vina's example/flexible_docking
(solution/ files, copied here): Vina's docked models split into ligand + flex files, imatinib
moved rigidly off its input pose, and a second flex file that adds LYS A 271 (5 torsions) to
THR A 315 with the matching rigid receptor. Run once from this folder; the outputs are committed."""
import math

def atoms_of(lines):
    return [l for l in lines if l.startswith(("ATOM", "HETATM"))]

def set_xyz(line, x, y, z):
    return line[:30] + "%8.3f%8.3f%8.3f" % (x, y, z) + line[54:]

def xyz(line):
    return float(line[30:38]), float(line[38:46]), float(line[46:54])

# 1. Vina's docked models 1, 2 and 5: ligand and moved THR 315 in separate files.
models, cur = [], None
for l in open("1fpu_ligand_flex_vina_out.pdbqt").read().splitlines():
    if l.startswith("MODEL"):
        cur = []
    elif l.startswith("ENDMDL"):
        models.append(cur)
    elif cur is not None:
        cur.append(l)
for k in (1, 2, 5):
    m = models[k - 1]
    b = next(i for i, l in enumerate(m) if l.startswith("BEGIN_RES"))
    lig = [l for l in m[:b] if not l.startswith("REMARK VINA") and not l.startswith("REMARK INTER")
           and not l.startswith("REMARK INTRA") and not l.startswith("REMARK UNBOUND")]
    open("model%d_ligand.pdbqt" % k, "w").write("\n".join(lig) + "\n")
    open("model%d_flex.pdbqt" % k, "w").write("\n".join(m[b:]) + "\n")

# 2. Imatinib's input pose moved rigidly: rotation (degrees) about its centroid, then a shift (Å).
lig = open("1iep_ligand.pdbqt").read().splitlines()
pts = [xyz(l) for l in atoms_of(lig)]
c = [sum(p[d] for p in pts) / len(pts) for d in range(3)]
def rot(axis, deg):
    ax = [a / math.sqrt(sum(v * v for v in axis)) for a in axis]
    t = math.radians(deg); co, si = math.cos(t), math.sin(t); x, y, z = ax
    return [[co + x*x*(1-co), x*y*(1-co) - z*si, x*z*(1-co) + y*si],
            [y*x*(1-co) + z*si, co + y*y*(1-co), y*z*(1-co) - x*si],
            [z*x*(1-co) - y*si, z*y*(1-co) + x*si, co + z*z*(1-co)]]
moves = {"moved1": ((1, 0, 0), 10, (0.5, 0.0, -0.3)),
         "moved2": ((0, 1, 1), -15, (-0.4, 0.6, 0.2)),
         "moved3": ((1, 1, 0), 4, (0.2, -0.1, 0.2))}
for name, (axis, deg, shift) in moves.items():
    r = rot(axis, deg)
    out = []
    for l in lig:
        if l.startswith(("ATOM", "HETATM")):
            p = [a - b for a, b in zip(xyz(l), c)]
            q = [sum(r[i][j] * p[j] for j in range(3)) + c[i] + shift[i] for i in range(3)]
            l = set_xyz(l, *q)
        out.append(l)
    open("%s_ligand.pdbqt" % name, "w").write("\n".join(out) + "\n")

# 3. THR A 315 + LYS A 271: LYS's CA and side chain leave the rigid receptor.
rigid = open("1fpu_receptor_rigid.pdbqt").read().splitlines()
lys = {l[12:16].strip(): l for l in rigid if l.startswith("ATOM") and l[17:26] == "LYS A 271"}
moving = ["CA", "CB", "CG", "CD", "CE", "NZ", "HZ1", "HZ2", "HZ3"]
open("1fpu_rigid_2res.pdbqt", "w").write("\n".join(
    l for l in rigid if not (l.startswith("ATOM") and l[17:26] == "LYS A 271" and
                             l[12:16].strip() in moving)) + "\n")
def atom(serial, name):
    return "ATOM  %5d" % serial + lys[name][11:]
thr = open("1fpu_receptor_flex.pdbqt").read().splitlines()
block = ["BEGIN_RES LYS A 271", "ROOT", atom(1, "CA"), "ENDROOT"]
for s, name in zip(range(2, 6), ["CB", "CG", "CD", "CE"]):
    block += ["BRANCH %3d %3d" % (s - 1, s), atom(s, name)]
block += ["BRANCH   5   6", atom(6, "NZ"), atom(7, "HZ1"), atom(8, "HZ2"), atom(9, "HZ3"),
          "ENDBRANCH   5   6"]
for s in range(5, 1, -1):
    block.append("ENDBRANCH %3d %3d" % (s - 1, s))
block.append("END_RES LYS A 271")
open("flex_2res.pdbqt", "w").write("\n".join(thr + block) + "\n")
