#!/usr/bin/env python3
"""Posewright `minimize` against AutoDock Vina 1.2.3 `--local_only` from the same perturbed starts,
both final poses scored by `vina --score_only` (Vina's own numbers).

For every complex of dock30 (../shared/data/docking, extracted): the box is the fld grid's centre
and size; `posewright-cli bench minimize --write-poses` makes N seeded starts (rotation, translation
per axis, every torsion turned); Vina minimizes each start with --local_only, posewright minimizes
them all with `minimize` (extra options after --); our final coordinates are put into the start's
PDBQT (same atoms, same order) and both results are scored with --score_only. One core throughout.

usage: vina_local_compare.py DOCK30_DIR OUT_DIR CLI [--poses 7] [--seed 1] [--ids a,b]
                             [--max-translation 1.15] [--max-rotation 30] [--max-torsion 60]
                             [--reuse-vina] [--tag NAME] [--start-cli CLI2]
                             [-- MINIMIZE OPTIONS...]
Prints one line per start and a summary; writes OUT_DIR/results.tsv.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr[-2000:]}")
    return r.stdout


def fld_box(path):
    spacing = npts = center = None
    for line in open(path):
        if line.startswith("#SPACING"):
            spacing = float(line.split()[1])
        elif line.startswith("#NELEMENTS"):
            npts = [int(v) for v in line.split()[1:4]]
        elif line.startswith("#CENTER"):
            center = [float(v) for v in line.split()[1:4]]
    size = [n * spacing for n in npts]
    return center, size


def write_box(path, center, size):
    with open(path, "w") as f:
        for axis, c, s in zip("xyz", center, size):
            f.write(f"center_{axis} = {c:.3f}\n")
        for axis, s in zip("xyz", size):
            f.write(f"size_{axis} = {s:.3f}\n")


def split_models(path):
    """The MODEL blocks of a multi-model PDBQT, without MODEL/ENDMDL lines."""
    models, cur = [], None
    for line in open(path):
        if line.startswith("MODEL"):
            cur = []
        elif line.startswith("ENDMDL"):
            models.append(cur)
            cur = None
        elif cur is not None:
            cur.append(line)
    if not models and cur is None:  # a single ligand without MODEL lines
        models = [open(path).readlines()]
    return models


def atom_lines(lines):
    return [i for i, l in enumerate(lines) if l.startswith(("ATOM", "HETATM"))]


def coords_of(lines):
    return [(float(lines[i][30:38]), float(lines[i][38:46]), float(lines[i][46:54]))
            for i in atom_lines(lines)]


def inside(lines, center, size):
    for x in coords_of(lines):
        for d in range(3):
            if abs(x[d] - center[d]) > size[d] / 2:
                return False
    return True


def with_coords(lines, xyz):
    out = list(lines)
    idx = atom_lines(lines)
    assert len(idx) == len(xyz), (len(idx), len(xyz))
    for i, (x, y, z) in zip(idx, xyz):
        l = out[i]
        out[i] = f"{l[:30]}{x:8.3f}{y:8.3f}{z:8.3f}{l[54:]}"
    return out


def sdf_records(path):
    """{inputIndex: [(x, y, z) per atom]} of a V2000 SDF written by `minimize --out`."""
    recs = {}
    text = open(path).read().split("$$$$\n")
    for rec in text:
        lines = rec.split("\n")
        if len(lines) < 4:
            continue
        counts = lines[3]
        natoms = int(counts[0:3])
        xyz = [(float(l[0:10]), float(l[10:20]), float(l[20:30])) for l in lines[4:4 + natoms]]
        m = re.search(r">\s*<inputIndex>\s*\n(\d+)", rec)
        recs[int(m.group(1))] = xyz
    return recs


SCORE_RE = {
    "affinity": re.compile(r"Estimated Free Energy of Binding\s*:\s*(\S+)"),
    "inter": re.compile(r"\(1\) Final Intermolecular Energy\s*:\s*(\S+)"),
    "intra": re.compile(r"\(2\) Final Total Internal Energy\s*:\s*(\S+)"),
}


def vina_score(receptor, ligand, box, center, size):
    """vina --score_only of one pose. Vina 1.2.3 computes maps before scoring (unused by the
    score); when every atom is inside the box, --autobox (maps around the ligand) gives the same
    numbers much faster; otherwise the real box, whose out-of-box penalty then counts."""
    lines = open(ligand).readlines()
    where = ["--autobox"] if inside(lines, center, size) else ["--config", box]
    out = run(["vina", "--receptor", receptor, "--ligand", ligand, "--score_only", "--cpu", "1"]
              + where)
    vals = {}
    for k, rx in SCORE_RE.items():
        m = rx.search(out)
        if not m:
            raise RuntimeError(f"no '{k}' in vina --score_only of {ligand}:\n{out}")
        vals[k] = float(m.group(1))
    vals["total"] = vals["inter"] + vals["intra"]  # the minimized objective
    return vals


def vina_local_only(receptor, box, starts, d):
    """vina --local_only of every start in one --batch run (maps computed once)."""
    todo = [k for k in starts if not os.path.exists(os.path.join(d, f"vina{k}.pdbqt"))]
    if not todo:
        return
    run(["vina", "--receptor", receptor, "--config", box, "--local_only", "--cpu", "1", "--dir",
         d, "--batch"] + [os.path.join(d, f"start{k}.pdbqt") for k in todo])
    for k in todo:
        os.replace(os.path.join(d, f"start{k}_out.pdbqt"), os.path.join(d, f"vina{k}.pdbqt"))


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        k = argv.index("--")
        argv, extra = argv[:k], argv[k + 1:]
    ap = argparse.ArgumentParser()
    ap.add_argument("dock30")
    ap.add_argument("out")
    ap.add_argument("cli")
    ap.add_argument("--poses", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ids", default="")
    ap.add_argument("--max-translation", default="1.15")  # per axis: |t| <= 2 A
    ap.add_argument("--max-rotation", default="30")
    ap.add_argument("--max-torsion", default="60")
    ap.add_argument("--reuse-vina", action="store_true",
                    help="keep Vina's results already in OUT (same starts)")
    ap.add_argument("--tag", default="ours")
    ap.add_argument("--start-cli", default="",
                    help="posewright-cli that writes the starts (default: CLI)")
    a = ap.parse_args(argv)

    ids = a.ids.split(",") if a.ids else sorted(
        e for e in os.listdir(a.dock30) if os.path.isdir(os.path.join(a.dock30, e)))
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for pdb in ids:
        src = os.path.join(a.dock30, pdb)
        d = os.path.join(a.out, pdb)
        os.makedirs(d, exist_ok=True)
        receptor = os.path.join(src, "protein.pdbqt")
        center, size = fld_box(os.path.join(src, "protein.maps.fld"))
        box = os.path.join(d, "box.txt")
        write_box(box, center, size)
        starts = os.path.join(d, "starts.pdbqt")
        if not (a.reuse_vina and os.path.exists(starts)):
            run([a.start_cli or a.cli, "bench", "minimize", "--receptor", receptor, "--ligand",
                 os.path.join(src, "flex-xray.pdbqt"), "--box", box, "--poses", str(a.poses),
                 "--seed", str(a.seed), "--max-translation", a.max_translation, "--max-rotation",
                 a.max_rotation, "--max-torsion", a.max_torsion, "--device", "cpu", "--threads",
                 "1", "--write-poses", starts])
        models = split_models(starts)
        kept = []
        for k, lines in enumerate(models):
            if not inside(lines, center, size):
                print(f"{pdb} start {k}: an atom outside the box, skipped (Vina refuses it)")
                continue
            p = os.path.join(d, f"start{k}.pdbqt")
            open(p, "w").writelines(lines)
            kept.append(k)
        if not kept:
            continue
        # Ours: every kept start in one run (index order = kept order).
        ours_in = os.path.join(d, "kept.pdbqt")
        with open(ours_in, "w") as f:
            for k in kept:
                f.write(f"MODEL {k + 1}\n")
                f.writelines(models[k])
                f.write("ENDMDL\n")
        if not a.reuse_vina:
            for k in kept:
                for f in (f"vina{k}.pdbqt", f"vina{k}.pdbqt.score.json"):
                    if os.path.exists(os.path.join(d, f)):
                        os.remove(os.path.join(d, f))
        vina_local_only(receptor, box, kept, d)
        sdf = os.path.join(d, f"{a.tag}.sdf")
        js = run([a.cli, "minimize", "--receptor", receptor, "--box", box, "--ligands", ours_in,
                  "--device", "cpu", "--threads", "1", "--json", "--out", sdf] + extra)
        ours_json = [json.loads(l) for l in js.splitlines() if l.startswith("{")]
        recs = sdf_records(sdf)
        for j, k in enumerate(kept):
            vout = os.path.join(d, f"vina{k}.pdbqt")
            pw = os.path.join(d, f"{a.tag}{k}.pdbqt")
            open(pw, "w").writelines(with_coords(models[k], recs[j]))
            cache = vout + ".score.json"  # Vina's result does not change between runs
            if a.reuse_vina and os.path.exists(cache):
                sv = json.load(open(cache))
            else:
                sv = vina_score(receptor, vout, box, center, size)
                json.dump(sv, open(cache, "w"))
            so = vina_score(receptor, pw, box, center, size)
            oj = ours_json[j]
            rows.append((pdb, k, sv, so, oj))
            print(f"{pdb} {k}: vina total {sv['total']:8.3f} aff {sv['affinity']:8.3f} | "
                  f"ours total {so['total']:8.3f} aff {so['affinity']:8.3f} "
                  f"(reported {oj['affinity']:8.3f}) d_total {so['total'] - sv['total']:+.3f}",
                  flush=True)

    with open(os.path.join(a.out, f"results-{a.tag}.tsv"), "w") as f:
        f.write("id\tstart\tvina_total\tvina_affinity\tours_total\tours_affinity\t"
                "ours_reported_affinity\n")
        for pdb, k, sv, so, oj in rows:
            f.write(f"{pdb}\t{k}\t{sv['total']:.3f}\t{sv['affinity']:.3f}\t{so['total']:.3f}\t"
                    f"{so['affinity']:.3f}\t{oj['affinity']:.3f}\n")
    summarize(rows)


def summarize(rows):
    n = len(rows)
    if not n:
        print("no starts")
        return
    for key in ("total", "affinity"):
        d = [so[key] - sv[key] for _, _, sv, so, _ in rows]
        worse = [x for x in d if x > 0.01]
        print(f"{key}: {n} starts, ours above Vina (+0.01) in {len(worse)}"
              f" (worst {max(d):+.3f}), mean ours - Vina {sum(d) / n:+.3f}")
    rep = max(abs(so["affinity"] - oj["affinity"]) for _, _, _, so, oj in rows)
    print(f"largest |our reported affinity - vina --score_only of our pose|: {rep:.3f}")


if __name__ == "__main__":
    main()
