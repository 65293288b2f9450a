// ReceptorPreparation: a receptor ready to score: PDBQT as given (XS types from its AD4 types);
// PDB with hydrogens gets AD4 types, Gasteiger charges and XS types; no polar H is refused.
#pragma once

#include "core/Molecule.h"

namespace pw {

struct ReceptorPreparationOptions {
    bool computeCharges = true; // Gasteiger-Marsili through RDKit (AD4 scoring needs charges)
};

// A receptor whose atoms all carry AD4 types (read from a PDBQT) only gets XS types. A PDB
// receptor must have its polar hydrogens (an H on some N or O), else InputError:
//   "receptor FILE has no polar hydrogens: add them (e.g. reduce, pdbfixer, or openbabel -h)
//    or give a PDBQT".
// PDB has no bond orders, so sp2 centres and aromatic rings are judged from bond lengths, and
// charged groups (ammonium, carboxylate, guanidinium, imidazolium) from hydrogen counts; then
// the AD4 rules of ligand preparation apply. Bonds are perceived by distance when absent.
Molecule prepareReceptor(const Molecule& input, const ReceptorPreparationOptions& options = {});

} // namespace pw
