// MoleculeDrawings: converts the engine's molecules into the view's drawing values; the one place
// where the engine's model meets the widgets' (ARCHITECTURE.md §2: app joins the two).
#pragma once

#include "MoleculeDrawing.h"
#include "core/Molecule.h"

namespace pw {

struct DrawingOptions {
    // Hydrogens bonded only to carbon hide the chemistry (H-bond donors are what matter in a
    // pocket): left out by default, as molecular viewers do.
    bool nonPolarHydrogens = false;
};

MoleculeDrawing toDrawing(const Molecule& molecule, DrawStyle style,
                          const DrawingOptions& options = {});

} // namespace pw
