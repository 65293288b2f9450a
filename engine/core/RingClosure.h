// RingClosure: macrocycles as Meeko writes them for AutoDock Vina 1.2 / AutoDock-GPU: one ring
// bond broken, its two carbons typed CGn and each carrying a pseudo-atom Gn placed where the
// other carbon sits; scoring pulls every Gn onto the CGn across the broken bond (RingClosureTerm).
#pragma once

#include "Molecule.h"

#include <string>
#include <string_view>
#include <vector>

namespace pw {

// Closure index n of a "CGn" / "Gn" AD4 type (n = 0..3), -1 for any other type.
int closureCarbonIndex(std::string_view ad4);
int closureDummyIndex(std::string_view ad4);
inline bool isClosureCarbon(const Atom& a) {
    return closureCarbonIndex(a.ad4Type) >= 0;
}
inline bool isClosureDummy(const Atom& a) {
    return closureDummyIndex(a.ad4Type) >= 0;
}

bool hasRingClosures(const Molecule& m); // any CGn or Gn atom

// One broken ring bond: carbons a and b (both CGn) and their pseudo-atoms (dummyOfA is bonded to
// a and sits where b belongs, dummyOfB the other way round).
struct ClosureBond {
    int index = 0; // n of CGn/Gn
    int a = -1, b = -1;
    int dummyOfA = -1, dummyOfB = -1;
};

// The closures of a molecule whose Gn atoms are bonded to their CGn (Molecule::bonds), checked:
// for every n present, exactly two CGn and two Gn, each Gn bonded to exactly one CGn and the two
// CGn each carrying one. Returns the problem in words (empty when sound); closures gets the
// pairs found; offendingAtom (optional) the atom the problem is about, for the reader's line.
std::string findRingClosures(const Molecule& m, std::vector<ClosureBond>& closures,
                             int* offendingAtom = nullptr);

// The molecule as chemistry: pseudo-atoms removed, each broken ring bond restored (single bond
// between the two CGn), CGn typed back to plain carbon (AD4 "C"), the torsion tree dropped (it
// no longer matches the atoms). Used for SDF and every format that does not know Gn atoms.
// A molecule without closures is returned unchanged.
Molecule withRingsClosed(const Molecule& m);

} // namespace pw
