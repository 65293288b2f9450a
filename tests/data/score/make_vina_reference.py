#!/usr/bin/env python3
"""Records AutoDock Vina 1.2.3 (Debian package `autodock-vina`) --score_only values that
tests/score/test_vina_score.cpp compares with, beside those of tests/data/reference/:

  <id>_no_refine.json: vina --cpu 1 --receptor receptor.pdbqt --ligand POSE --config box.txt
                       --score_only --no_refine          (Vina's grid maps, 0.375 A)
  <id>_vinardo.json:   vina --cpu 1 --scoring vinardo --receptor receptor.pdbqt --ligand POSE
                       --config box.txt --score_only     (explicit receptor atoms)

Run from this directory: python3 make_vina_reference.py
"""
import json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPLEXES = os.path.join(HERE, "..", "complexes")
POSES = ["xtal"] + ["pose%02d" % i for i in range(10)]

def score(cwd, pose_file, extra):
    cmd = ["vina", "--cpu", "1", "--receptor", "receptor.pdbqt", "--ligand", pose_file,
           "--config", "box.txt", "--score_only"] + extra
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=True).stdout
    def grab(label):
        m = re.search(re.escape(label) + r"\s*:\s*(-?[0-9.]+)", out)
        return float(m.group(1))
    return {"affinity": grab("Estimated Free Energy of Binding"),
            "inter": grab("(1) Final Intermolecular Energy"),
            "intra": grab("(2) Final Total Internal Energy"),
            "torsional": grab("(3) Torsional Free Energy")}, " ".join(cmd)

def main():
    version = subprocess.run(["vina", "--version"], capture_output=True, text=True).stdout.strip()
    for cid in ["1iep", "1stp", "3ce3"]:
        cwd = os.path.join(COMPLEXES, cid)
        for name, extra in [("no_refine", ["--no_refine"]), ("vinardo", ["--scoring", "vinardo"])]:
            poses = {}
            command = ""
            for p in POSES:
                f = "ligand_xtal.pdbqt" if p == "xtal" else "poses/%s.pdbqt" % p
                values, command = score(cwd, f, extra)
                poses[p] = {"file": f, "score_only": values}
            doc = {"program": version + " (Debian package), --cpu 1", "complex": cid,
                   "command": command.replace(f, "POSE"), "poses": poses}
            with open(os.path.join(HERE, "%s_%s.json" % (cid, name)), "w") as fh:
                json.dump(doc, fh, indent=1)
            print(cid, name, "done", file=sys.stderr)

if __name__ == "__main__":
    main()
