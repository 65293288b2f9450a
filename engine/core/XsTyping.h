// XsTyping: assigns Vina's XS types from AD4 types and bonding, the way AutoDock Vina 1.2 does
// when it reads a PDBQT (carbon next to a heteroatom is polar, N/O with a donor H are donors).
#pragma once

#include "Molecule.h"

#include <vector>

namespace pw {

// Requires atoms[i].ad4Type and bonds (hydrogens included when the molecule has them).
// Sets atoms[i].xs for every atom (XsType::None for hydrogens and unknown types).
void assignXsTypes(Molecule& m);

// The same rules over a given bond graph (adjacency[i] = neighbours of atom i), e.g. the bonds
// Vina itself perceives from distances (score/VinaBonding.h) instead of Molecule::bonds.
void assignXsTypes(Molecule& m, const std::vector<std::vector<int>>& adjacency);

} // namespace pw
