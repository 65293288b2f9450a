#!/bin/sh
# Measures the reference numbers of tests/cli/test_cli_flex_score and test_cli_flex_minimize with
# Debian's AutoDock Vina 1.2.3 (apt-get install autodock-vina), from this folder:
#   sh vina_reference.sh > vina_score.txt                    (--score_only)
#   sh vina_reference.sh --local_only > vina_local_only.txt  (the numbers after its local search)
# Each case: vina --receptor R --flex F --ligand L --config 1fpu_receptor.box.txt --score_only
# One line per case: name receptor flex ligand, then Vina's printed numbers in its order:
# total, (1) inter, ligand-receptor, ligand-flex, (2) intra, ligand, flex-receptor, flex-flex,
# (3) torsional, (4) unbound.
set -e
MODE=${1:---score_only}
echo "# Measured $(date -u +%F) with $(vina --version | head -1): sh vina_reference.sh $* (columns: see vina_reference.sh)"
run() {
    printf '%s %s %s %s' "$1" "$2" "$3" "$4"
    vina --receptor "$2" --flex "$3" --ligand "$4" --config 1fpu_receptor.box.txt $MODE \
        --cpu 1 --out /tmp/vina_reference_out.pdbqt | awk -F: '/\(kcal\/mol\)/ { split($2, v, " "); printf " %s", v[1] } END { print "" }'
}
R=1fpu_receptor_rigid.pdbqt
F=1fpu_receptor_flex.pdbqt
run xtal $R $F 1iep_ligand.pdbqt
for m in moved1 moved2 moved3; do run $m $R $F ${m}_ligand.pdbqt; done
for k in 1 2 5; do run model$k $R model${k}_flex.pdbqt model${k}_ligand.pdbqt; done
R2=1fpu_rigid_2res.pdbqt
F2=flex_2res.pdbqt
run 2res_xtal $R2 $F2 1iep_ligand.pdbqt
for m in moved1 moved2 moved3; do run 2res_$m $R2 $F2 ${m}_ligand.pdbqt; done
run 2res_model1 $R2 $F2 model1_ligand.pdbqt
