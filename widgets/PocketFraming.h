// PocketFraming: where to put the camera to show ligands in their pocket: looking along the
// ligands' flattest axis, from the side of the pocket's mouth (fewer receptor atoms in the way).
#pragma once

#include "MoleculeDrawing.h"

#include <array>
#include <optional>
#include <vector>

namespace pw {

struct PocketFrame {
    std::array<double, 3> center{};    // the point looked at: centre of the ligands' atoms
    std::array<double, 3> direction{}; // unit vector from the centre towards the eye
    std::array<double, 3> viewUp{};    // unit vector, perpendicular to direction
    double ligandRadius = 0.0;         // farthest ligand atom from center (Å)
};

// Nothing when there is no ligand atom. Receptor atoms only choose the side to look from.
std::optional<PocketFrame> framePocket(const std::vector<MoleculeDrawing>& ligands,
                                       const MoleculeDrawing& receptor);

} // namespace pw
