// ReceptorPreparation: a receptor ready to score: PDBQT as given (XS types from its AD4 types);
// PDB with hydrogens gets AD4 types, Gasteiger charges and XS types; no polar H is refused.
#pragma once

#include "core/Molecule.h"

#include <functional>
#include <string>

namespace pw {

struct ReceptorPreparationOptions {
    bool computeCharges = true; // Gasteiger-Marsili through RDKit (AD4 scoring needs charges)
    // A PDB receptor without polar hydrogens (as the PDB archive gives it) gets them on its
    // standard residues at this pH (ReceptorProtonation); false refuses it instead.
    bool addPolarHydrogens = true;
    double pH = 7.4;
    // Told once, with the file name, what was added (the CLI prints it on stderr).
    std::function<void(const std::string&)> note;
};

// A receptor whose atoms all carry AD4 types (read from a PDBQT) only gets XS types. A PDB
// receptor without polar hydrogens (no H on any N or O) gets them on its standard residues
// (see ReceptorPreparationOptions); when there are none to protonate, or addPolarHydrogens is
// false, InputError:
//   "receptor FILE has no polar hydrogens: add them (e.g. reduce, pdbfixer, or openbabel -h)
//    or give a PDBQT".
// PDB has no bond orders, so sp2 centres and aromatic rings are judged from bond lengths, and
// charged groups (ammonium, carboxylate, guanidinium, imidazolium) from hydrogen counts; then
// the AD4 rules of ligand preparation apply. Bonds are perceived by distance when absent.
Molecule prepareReceptor(const Molecule& input, const ReceptorPreparationOptions& options = {});

} // namespace pw
