// MoleculeDrawings: converts the engine's molecules into the view's drawing values; the one place
// where the engine's model meets the widgets' (ARCHITECTURE.md §2: app joins the two).
#pragma once

#include "MoleculeDrawing.h"
#include "core/Molecule.h"

#include <array>
#include <vector>

namespace pw {

struct DrawingOptions {
    // Hydrogens bonded only to carbon hide the chemistry (H-bond donors are what matter in a
    // pocket): left out by default, as molecular viewers do.
    bool nonPolarHydrogens = false;
};

MoleculeDrawing toDrawing(const Molecule& molecule, DrawStyle style,
                          const DrawingOptions& options = {});

inline constexpr double kPocketRadius = 6.0; // Å, as the issue asks: residues lining the pocket

// The receptor's pocket: every residue with an atom within `radius` Å of a ligand atom, as
// thicker sticks (atom sources index the receptor). Empty when no residue is that close.
MoleculeDrawing pocketDrawing(const Molecule& receptor, const std::vector<const Molecule*>& ligands,
                              double radius = kPocketRadius);

// C-alpha traces, one per chain segment (a new segment at a chain change or a gap > 4.2 Å, as
// consecutive C-alpha atoms are 3.8 Å apart).
std::vector<std::vector<std::array<double, 3>>> backboneTraces(const Molecule& receptor);

} // namespace pw
