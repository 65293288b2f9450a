// MoleculeDrawings: converts the engine's molecules into the view's drawing values; the one place
// where the engine's model meets the widgets' (ARCHITECTURE.md §2: app joins the two).
#pragma once

#include "MoleculeDrawing.h"
#include "core/Molecule.h"

namespace pw {

MoleculeDrawing toDrawing(const Molecule& molecule, DrawStyle style);

} // namespace pw
