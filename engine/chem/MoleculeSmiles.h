// MoleculeSmiles: canonical isomeric SMILES of a loaded molecule (RDKit, hydrogens removed), so
// that loaded ligands can enter SMILES-based tools such as the LINGO similarity table.
#pragma once

#include "core/Molecule.h"

#include <string>

namespace pw {

// Throws InputError naming the molecule when RDKit cannot sanitize it (e.g. missing bond orders
// that leave an impossible valence).
std::string moleculeSmiles(const Molecule& m);

} // namespace pw
