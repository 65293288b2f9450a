#!/usr/bin/env python3
"""Vina 1.2.3 references for the macrocycle tests (tests/cli/test_cli_macrocycle.cpp).

Runs, on one core, for the Meeko-prepared crystal pose (bace1_ligand.pdbqt) and every MODEL of
starts.pdbqt: vina --score_only (as given), and vina --local_only followed by --score_only of its
result. Writes vina_reference.json beside this script. Usage: python3 make_vina_reference.py
"""
import json, os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
FIELDS = {"affinity": r"Estimated Free Energy of Binding\s*:\s*(\S+)",
          "inter": r"\(1\) Final Intermolecular Energy\s*:\s*(\S+)",
          "intra": r"\(2\) Final Total Internal Energy\s*:\s*(\S+)",
          "torsional": r"\(3\) Torsional Free Energy\s*:\s*(\S+)",
          "unbound": r"\(4\) Unbound System's Energy\s*:\s*(\S+)"}


def vina(*args):
    out = subprocess.run(["vina", "--receptor", os.path.join(here, "receptor.pdbqt"), "--config",
                          os.path.join(here, "box.txt"), "--cpu", "1", "--seed", "1", *args],
                         capture_output=True, text=True, check=True).stdout
    return out


def scores(text):
    return {k: float(re.search(p, text).group(1)) for k, p in FIELDS.items()}


def models(path):
    blocks, cur = [], None
    for line in open(path):
        if line.startswith("MODEL"):
            cur = []
        elif line.startswith("ENDMDL"):
            blocks.append("".join(cur))
            cur = None
        elif cur is not None:
            cur.append(line)
    return blocks


def main():
    ref = {"program": subprocess.run(["vina", "--version"], capture_output=True,
                                     text=True).stdout.strip() + " (Debian package), --cpu 1",
           "what": "score_only: vina --score_only of the pose as given; local_only: vina "
                   "--local_only from it, then vina --score_only of its result. unbound is "
                   "Vina's (4) as it prints it: intra + the ring-closure glue",
           "crystal": {}, "starts": []}
    with tempfile.TemporaryDirectory() as tmp:
        crystal = os.path.join(here, "bace1_ligand.pdbqt")
        ref["crystal"]["score_only"] = scores(vina("--ligand", crystal, "--score_only"))
        ref["crystal"]["score_only_vinardo"] = scores(vina("--ligand", crystal, "--score_only",
                                                           "--scoring", "vinardo"))
        ref["crystal"]["score_only_glue25"] = scores(vina("--ligand", crystal, "--score_only",
                                                          "--weight_glue", "25"))
        ref["crystal"]["score_only_no_refine"] = scores(vina("--ligand", crystal, "--score_only",
                                                             "--no_refine"))
        for k, text in enumerate(models(os.path.join(here, "starts.pdbqt"))):
            start = os.path.join(tmp, f"start{k}.pdbqt")
            open(start, "w").write(text)
            entry = {"model": k + 1, "score_only": scores(vina("--ligand", start, "--score_only")),
                     "score_only_vinardo": scores(vina("--ligand", start, "--score_only",
                                                       "--scoring", "vinardo")),
                     "score_only_glue25": scores(vina("--ligand", start, "--score_only",
                                                      "--weight_glue", "25"))}
            out = os.path.join(tmp, f"start{k}_out.pdbqt")
            vina("--ligand", start, "--local_only", "--out", out)
            entry["local_only"] = scores(vina("--ligand", out, "--score_only"))
            ref["starts"].append(entry)
            print(k, entry, file=sys.stderr)
    json.dump(ref, open(os.path.join(here, "vina_reference.json"), "w"), indent=1)


main()
