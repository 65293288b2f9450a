// RotatableBonds: which bonds of a prepared ligand become torsions of its tree, following the
// rules Meeko (AutoDock's ligand preparation) applies: acyclic single bonds that move atoms.
#pragma once

#include "Molecule.h"

#include <vector>

namespace pw {

struct RotatableBondOptions {
    // Amide-like C-N bonds ([NX3]-[CX3]=[O,N], amidines included) are rigid unless this is set.
    // Tertiary amides whose two N substituents differ rotate anyway, as in Meeko.
    bool flexibleAmides = false;
    // When set, a bond whose far side holds only polar hydrogens (-OH, -SH, -NH2, -NH3+) is a
    // torsion, as Meeko writes it. Off by default: Vina's score ignores hydrogens, so such a
    // torsion only adds a search dimension, and AutoDock's TORSDOF does not count it either.
    bool hydrogenTorsions = false;
};

// Expects explicit hydrogens (connection counts decide amides and terminal groups) and bond
// orders. A bond is rotatable when it is single (not aromatic), in no ring, not to an atom on a
// linear (sp) axis, not amide-like, and each end has another neighbour that would move with it
// (a heavy atom; or a polar hydrogen with hydrogenTorsions).
std::vector<bool> findRotatableBonds(const Molecule& m, const RotatableBondOptions& options = {});

// Sets Bond::rotatable from findRotatableBonds; returns how many bonds are rotatable.
int markRotatableBonds(Molecule& m, const RotatableBondOptions& options = {});

// Symmetry classes of atoms (equal value = topologically equivalent), by iterative refinement of
// atom invariants (Morgan-like). Used to tell identical tertiary-amide substituents apart.
std::vector<int> symmetryClasses(const Molecule& m);

} // namespace pw
