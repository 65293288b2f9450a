// FlexDrawings: the flexible side chains as the view highlights them (DrawStyle::FlexibleResidue):
// the chosen residues as the receptor holds them, or a minimization's side chains where a frame
// or its result put them. Atom sources are receptor atoms of the same residue, so that a
// double-click on a highlight names its residue.
#pragma once

#include "MoleculeDrawing.h"
#include "chem/FlexResidueSplit.h"
#include "score/flex/FlexModel.h"

#include <vector>

namespace pw {

// CA and side chain (hydrogens on carbon left out) of every chosen residue found in receptor.
MoleculeDrawing chosenResiduesDrawing(const Molecule& receptor,
                                      const std::vector<FlexResidueSpec>& specs);

// The model's side chains at flat coordinates (FlexModel order); receptor: the document's, for
// the atoms' sources.
MoleculeDrawing flexSideChainsDrawing(const FlexModel& flex, const std::vector<Vec3>& coordinates,
                                      const Molecule& receptor);

} // namespace pw
