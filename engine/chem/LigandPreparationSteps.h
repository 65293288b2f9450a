// LigandPreparationSteps: the pieces of prepareLigand that PreparedLigandCache reuses for poses
// of an already prepared topology. Internal to engine/chem (it includes RDKit).
#pragma once

#include "LigandPreparation.h"

#include <GraphMol/RWMol.h>

#include <memory>

namespace pw {

// prepareLigand, also keeping (when sanitized is not null) a copy of the sanitized RDKit molecule
// just before hydrogens are added: only on the RDKit path and when the input's own coordinates
// are used (no 3D embedding); left untouched otherwise (PDBQT tree kept, embedding).
Molecule prepareLigandKeeping(const Molecule& input, const LigandPreparationOptions& options,
                              std::unique_ptr<RDKit::RWMol>* sanitized);

// The molecule prepareLigand works on: the largest fragment when the options say so, no tree.
Molecule ligandWorkCopy(const Molecule& input, const LigandPreparationOptions& options);

// Geometry-dependent decisions of prepareLigand, so that a reused preparation can check them for
// every pose: bonds without orders shown by short C/N/O distances (refused), a flat input (re-
// embedded), and whether the RDKit molecule gets a conformer at all (toRdkit's rule).
bool lacksBondOrders(const Molecule& m);
bool isFlat(const Molecule& m);
bool hasConformer(const Molecule& m);

} // namespace pw
