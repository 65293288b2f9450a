#!/usr/bin/env bash
# AD4 search quality on the 30 complexes of ../shared/data/docking (issue 13), on the GPU machine:
# per complex, the AD4 maps are built on the GPU (`maps --device cuda`, the grid of the benchmark's
# protein.maps.fld, GPF from ../shared/tools/peers/make_gpf.py), then `bench dock` docks the crystal
# ligand from random starts: nrun 100, AutoDock-GPU's population, budget heuristics and AutoStop,
# seed 42, and the CLI's default local search (BFGS, the protocol of RESULTS.md's 27/27 rows);
# LOCAL_SEARCH=adadelta|solis-wets picks another (AutoDock-GPU's default is ADADELTA). A complex
# "reaches the global minimum" when its best inter + intra is within 0.5 kcal/mol of
# ligand_properties.csv's probable global minimum (or best score so far); top-1 is the best
# cluster's pose within 2 A of the crystal. AutoDock-GPU on the same set: 28/30 and
# 20/30 (../shared/reference/peers/README.md).
#
# Run from the repository root on the GPU machine with the carried folder C holding bin.tar.xz
# (bin/posewright-cli), libs.tar.xz (bundle-libs.sh output) and dock30.tar.xz (dock30/<id>/:
# protein.pdbqt, flex-xray.pdbqt, protein.maps.fld, protein.gpf; dock30/ligand_properties.csv).
# Usage: tests/bench/dock30_device.sh [ID...]   (default: all 30; TIMEOUT seconds per complex)
set -uo pipefail
C=${C:-$PWD/.carry-gpudock}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for t in bin libs dock30; do
    [ -d "$C/$t" ] || [ ! -f "$C/$t.tar.xz" ] || tar -C "$C" -xJf "$C/$t.tar.xz"
done
export LD_LIBRARY_PATH=$C/libs
CLI=$C/bin/posewright-cli
D30=$C/dock30
ids=${*:-$(ls "$D30" | grep -v csv)}
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
printf "%-5s %4s %9s %9s %6s %7s %7s %8s\n" id tors best global near top1_A seconds evals
for id in $ids; do
    D=$D30/$id
    mkdir -p "$D/maps"
    timeout 120 $CLI maps --gpf "$D/protein.gpf" --receptor "$D/protein.pdbqt" \
        --out "$D/maps/protein.maps.fld" --device cuda >"$D/maps.log" 2>&1 ||
        { echo "$id maps failed: $(tail -1 "$D/maps.log")"; continue; }
    line=$(timeout "${TIMEOUT:-90}" $CLI bench dock --device cuda ${LOCAL_SEARCH:+--local-search "$LOCAL_SEARCH"} \
        --maps "$D/maps/protein.maps.fld" --ligands "$D/flex-xray.pdbqt" \
        --reference "$D/flex-xray.pdbqt" --runs 100 --seed 42 2>"$D/dock.err" | grep '"bench"')
    echo "$id $line" >>"$OUT/dock30.jsonl"
    [ -n "$line" ] || { echo "$id docking failed or timed out: $(tail -1 "$D/dock.err")"; continue; }
    # The row of ligand_properties.csv: pdb,n_atoms,n_tors,global,rmsd,best_so_far.
    props=$(grep "^$id," "$D30/ligand_properties.csv")
    python3 - "$id" "$props" "$line" <<'EOF'
import json, sys
pid, props, line = sys.argv[1], sys.argv[2].split(","), json.loads(sys.argv[3])
ref = float(props[3] or props[5])
best = line["best_search_energy"]
near = best <= ref + 0.5
top = line.get("top_rmsd_ref")
print(f"{pid:5s} {props[2]:>4s} {best:9.2f} {ref:9.2f} {'yes' if near else 'no':>6s} "
      f"{(f'{top:.2f}' if top is not None else 'n/a'):>7s} {line['seconds']:7.2f} "
      f"{line['evaluations']:8d}")
EOF
done | tee "$OUT/dock30.txt"
awk 'NF==8 && ($5=="yes" || $5=="no") {n++; near+=($5=="yes"); top+=($6!="n/a" && $6<2.0)}
     END {printf "reached the global minimum: %d/%d, top-1 within 2 A: %d/%d\n", near, n, top, n}' \
    "$OUT/dock30.txt" | tee -a "$OUT/dock30.txt"
