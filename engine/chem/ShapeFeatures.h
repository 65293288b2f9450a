// ShapeFeatures: colour (pharmacophore) feature points for shape overlay, typed with RDKit:
// donor, acceptor, cation, anion, aromatic ring centroid, hydrophobe.
#pragma once

#include "core/Molecule.h"
#include "shape/ShapeModel.h"

#include <vector>

namespace pw {

// One point per matching atom (ring centroid for aromatic rings). Throws InputError when RDKit
// cannot sanitize the molecule (the message names its file and record).
std::vector<shape::ColourFeature> colourFeatures(const Molecule& m);

} // namespace pw
