// ReceptorSites: the receptor atoms as the AD4 map sweep reads them: position relative to the
// grid centre, charge, type, and the bond vectors autogrid 4.2.6 derives for directional H-bonds.
#pragma once

#include "core/Molecule.h"
#include "score/ad4/Ad4Parameters.h"

#include <vector>

namespace pw::ad4 {

struct ReceptorSite {
    Vec3 position;     // Å, relative to the grid centre
    double charge = 0; // partial charge (e)
    int type = 0;      // index into the receptor type list
    HbondType hbond = HbondType::None;
    double vol = 0, solpar = 0;
    // Directional H-bond geometry (autogrid's rvector / rvector2 / rexp): for a donor hydrogen the
    // X->H unit vector and the exponent of its cosine (2 for N-H, 4 for O-H/S-H); for an acceptor
    // the unit vector pointing out of the atom between its lone pairs and, for an oxygen or
    // sulphur, the lone-pair plane normal (carbonyl) or the X1->X2 direction (hydroxyl, ether).
    Vec3 bond = Vec3::Zero();
    Vec3 plane = Vec3::Zero();
    int cosExponent = 0;
};

// Builds the sites in file order. `typeOf(i)` gives the index into `receptorTypes` of atom i.
// Bonded neighbours are searched as autogrid does: among the 20 atoms before and after in file
// order, by distance (so a receptor must keep its atoms in PDBQT order for identical maps).
std::vector<ReceptorSite> mapReceptorSites(const Molecule& receptor, const Vec3& gridCentre,
                                           const std::vector<int>& typeOf,
                                           const std::vector<const AtomParameters*>& receptorTypes);

} // namespace pw::ad4
