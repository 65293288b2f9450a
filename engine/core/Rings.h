// Rings: which bonds and atoms of a molecule lie on a ring, from the bond graph alone.
// A bond is in a ring exactly when it is not a bridge of the graph (removing it keeps its ends
// joined).
#pragma once

#include "Molecule.h"

#include <vector>

namespace pw {

struct RingMembership {
    std::vector<bool> bondInRing; // indexed like Molecule::bonds
    std::vector<bool> atomInRing; // indexed like Molecule::atoms
};

// Linear time (Tarjan's bridge finding), iterative so that long chains cannot overflow the stack.
RingMembership findRingMembership(const Molecule& m);

// Connected components: component index for every atom (0..count-1), in order of first atom.
std::vector<int> connectedComponents(const Molecule& m, int* count = nullptr);

} // namespace pw
