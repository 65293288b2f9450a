#!/bin/sh
# The exact AD4 intermolecular energy against the map-interpolated one for the crystal ligands of
# the 30 docking complexes (../shared/data/docking/dock30.tar.xz), on autogrid4 4.2.6 maps made as
# that README says (one folder per complex holding protein.pdbqt, flex-xray.pdbqt and the maps).
# Usage: tests/bench/ad4_exact_dock30.sh CLI DOCK30_WITH_MAPS_DIR
# Prints one line per complex: id, atoms inter on maps, exact inter, exact - maps.
set -eu
cli=$1
dir=$2
for c in "$dir"/*/; do
    id=$(basename "$c")
    [ -f "$c/protein.maps.fld" ] && [ -f "$c/protein.e.map" ] || continue
    maps=$("$cli" score --scoring ad4 --maps "$c/protein.maps.fld" --ligand "$c/flex-xray.pdbqt" \
        --json | sed 's/.*"inter":\([-0-9.e+]*\).*/\1/')
    exact=$("$cli" score --scoring ad4 --maps "$c/protein.maps.fld" --ligand "$c/flex-xray.pdbqt" \
        --exact --receptor "$c/protein.pdbqt" --json | sed 's/.*"inter":\([-0-9.e+]*\).*/\1/')
    echo "$id $maps $exact" | awk '{printf "%s %.4f %.4f %+.4f\n", $1, $2, $3, $3 - $2}'
done
