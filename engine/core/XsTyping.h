// XsTyping: assigns Vina's XS types from AD4 types and bonding, the way AutoDock Vina 1.2 does
// when it reads a PDBQT (carbon next to a heteroatom is polar, N/O with a donor H are donors).
#pragma once

#include "Molecule.h"

namespace pw {

// Requires atoms[i].ad4Type and bonds (hydrogens included when the molecule has them).
// Sets atoms[i].xs for every atom (XsType::None for hydrogens and unknown types).
void assignXsTypes(Molecule& m);

} // namespace pw
