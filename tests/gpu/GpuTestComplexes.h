// GpuTestComplexes: a complex of tests/data/complexes (receptor, crystal ligand, box), prepared as
// the pair-kernel suites use it: no grid is made (the exact scorers read none).
#pragma once

#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <memory>
#include <string>

namespace pw::test {

struct Complex {
    std::string id;
    Molecule receptor, ligand;
    std::unique_ptr<DockingTarget> target;
};

inline Complex loadComplex(const std::string& id, ScoringKind kind = ScoringKind::Vina) {
    Complex c;
    c.id = id;
    const std::string dir = std::string(POSEWRIGHT_TEST_DATA) + "/complexes/" + id + "/";
    c.receptor = prepareReceptor(readMolecule(dir + "receptor.pdbqt"));
    c.ligand = prepareLigand(readMolecule(dir + "ligand_xtal.pdbqt"));
    c.target = std::make_unique<DockingTarget>(c.receptor, readBoxConfig(dir + "box.txt"), kind, 0);
    return c;
}

} // namespace pw::test
