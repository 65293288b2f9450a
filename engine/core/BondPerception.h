// BondPerception: covalent bonds from 3D coordinates (covalent radii + tolerance) for formats that
// carry none (PDB, PDBQT); a uniform grid keeps it linear in the atom count (100k atoms is fast).
#pragma once

#include "Molecule.h"

namespace pw {

struct BondPerceptionOptions {
    // Two atoms are bonded when their distance is at most r1 + r2 + tolerance (Å). 0.45 Å is the
    // tolerance Open Babel's ConnectTheDots uses with the same Cordero radii.
    double tolerance = 0.45;
    // Closer pairs are overlapping atoms (alternate positions, bad models), never bonds.
    double minDistance = 0.4;
};

// Adds single bonds by distance to m.bonds, keeping the bonds already there (CONECT, SDF) and
// never duplicating one. Rules: a hydrogen gets at most one bond (its nearest partner), no H-H
// bonds, and water atoms (HOH, WAT, ...) bond only inside their own residue. Returns the number
// of bonds added.
int perceiveBonds(Molecule& m, const BondPerceptionOptions& options = {});

// True for the residue names used for water (HOH, WAT, H2O, DOD, TIP3, SOL, ...).
bool isWaterResidueName(const std::string& name);

} // namespace pw
