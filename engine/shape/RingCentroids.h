// RingCentroids: the smallest ring through each ring bond of a molecule, and the centres of those
// rings: where ring-centroid overlay starts put the fit's centroid on the reference.
#pragma once

#include "core/Molecule.h"

#include <vector>

namespace pw::shape {

// For every bond on a ring (core/Rings.h), the shortest cycle through it; each cycle once, as
// atom indices in ring order. For fused and bridged systems this gives each ring a chemist names
// (naphthalene: its two six-rings, not the ten-ring around both).
std::vector<std::vector<int>> smallestRings(const Molecule& m);

// Mean position of each ring's atoms, in smallestRings order.
std::vector<Vec3> ringCentroids(const Molecule& m);

} // namespace pw::shape
