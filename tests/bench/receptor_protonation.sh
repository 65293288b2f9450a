#!/bin/bash
# Receptor PDBs without hydrogens, protonated by posewright (ReceptorProtonation), against the
# receptor PDBQTs AutoDockTools prepared (tests/data/complexes): polar hydrogens added at pH 7.4
# and 5.0 versus the PDBQT's HD atoms, and the Vina score of the crystal ligand in each.
# 1stp ships receptor.pdb as the PDB archive gives it; 3ce3 and 1iep ship only the PDBQT, so
# their heavy atoms are written out as a PDB without hydrogens first.
# Usage: tests/bench/receptor_protonation.sh [path/to/posewright-cli]   (from the repo root)
set -euo pipefail
CLI=${1:-build/engine/posewright-cli}
DATA=tests/data/complexes
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# PDBQT -> PDB of the heavy atoms: columns 1-66 kept, element from the AD4 type.
strip_pdbqt() {
    awk '/^(ATOM|HETATM)/ {
        t = substr($0, 78, 2); gsub(/ /, "", t)
        if (t == "HD" || t == "H") next
        e = t; if (t == "A") e = "C"; else if (t == "OA") e = "O"; else if (t == "NA") e = "N";
        else if (t == "SA") e = "S"
        printf "%-76s%2s\n", substr($0, 1, 66), toupper(e) }
        END { print "END" }' "$1" > "$2"
}

printf "%-6s %-12s %8s %8s %8s %10s %10s\n" complex receptor "H pH7.4" "H pH5.0" "ADT HD" "Vina PDBQT" "Vina PDB"
for c in 1stp 3ce3 1iep; do
    pdb=$DATA/$c/receptor.pdb
    if [ ! -f "$pdb" ]; then
        pdb=$TMP/${c}_noH.pdb
        strip_pdbqt $DATA/$c/receptor.pdbqt "$pdb"
    fi
    added() { "$CLI" info "$pdb" --ph "$1" 2>&1 >/dev/null | sed -n 's/.*added \([0-9]*\) polar hydrogens.*/\1/p'; }
    hd=$(awk 'substr($0,78,2)=="HD"' $DATA/$c/receptor.pdbqt | wc -l)
    score() { "$CLI" score --receptor "$1" --ligand $DATA/$c/ligand_xtal.pdbqt --box $DATA/$c/box.txt 2>/dev/null |
              awk '{for (i = 1; i < NF; ++i) if ($i == "affinity") print $(i + 1)}'; }
    printf "%-6s %-12s %8s %8s %8s %10s %10s\n" $c "$(basename $pdb)" "$(added 7.4)" "$(added 5.0)" "$hd" \
        "$(score $DATA/$c/receptor.pdbqt)" "$(score "$pdb")"
done
