// PdbqtBondOrders: bond orders and formal charges for a ligand read from PDBQT (which has
// neither), from Meeko's REMARK SMILES and SMILES IDX lines when the file carries them.
#pragma once

#include "core/Molecule.h"

namespace pw {

// Sets the order of every bond between two atoms mapped by "SMILES IDX" (Kekulé form, aromatic
// flags kept on atoms) and the formal charges of mapped atoms. Returns false, changing nothing,
// when the properties are missing, the SMILES does not parse, or the mapping does not fit.
bool applySmilesBondOrders(Molecule& m);

} // namespace pw
