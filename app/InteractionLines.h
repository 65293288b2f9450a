// InteractionLines: the hydrogen bonds and clashes between a posed ligand and the receptor, as
// the scoring function sees them (XS donor/acceptor types and radii), for dashed lines in the view.
#pragma once

#include "MoleculeDrawing.h"
#include "ScoringTarget.h"

#include <vector>

namespace pw {

// Heavy-atom pairs only (Vina scores heavy atoms). Hydrogen bond: an XS donor facing an XS
// acceptor where Vina's H-bond term is non-zero (surface distance below 0, i.e. closer than the
// sum of the XS radii). Clash: any other pair whose surface distance is below kClashOverlap.
std::vector<DrawLine> interactionLines(const ScoringTarget& target, const Molecule& ligand);

// Overlap (Å, negative surface distance) beyond which a non-H-bonded contact counts as a clash:
// Vina's repulsion is d^2 for d < 0, and at d = -0.5 Å it outweighs a good hydrophobic contact
// (0.840 * 0.25 = 0.21 against -0.0351 per pair); our choice, not a literature value.
inline constexpr double kClashOverlap = -0.5;

} // namespace pw
