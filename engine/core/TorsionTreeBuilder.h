// TorsionTreeBuilder: turns a ligand whose rotatable bonds are marked into Vina's torsion tree
// (rigid fragments joined by rotatable bonds), rooted at the most central fragment.
#pragma once

#include "Molecule.h"
#include "TorsionTree.h"

namespace pw {

// Builds the tree from Bond::rotatable. The root is the fragment Meeko picks: strip leaf fragments
// of the fragment graph until one or two remain, then take the larger (more atoms; ties: the one
// holding the lowest atom index). rootAtom >= 0 forces the fragment holding that atom instead.
// Nodes come out in depth-first order (every parent before its children), atoms of a node and
// children of a node in ascending atom order, so the result does not depend on bond order.
// Throws InputError (naming m.sourceFile/m.name) when the molecule is empty or not connected,
// or a rotatable bond lies on a ring (then the fragments do not form a tree).
TorsionTree buildTorsionTree(const Molecule& m, int rootAtom = -1);

// Checks that a tree covers every atom exactly once and that each BRANCH axis is a bond between
// its parent fragment and its own; returns an empty string when it is sound, else what is wrong.
std::string checkTorsionTree(const Molecule& m, const TorsionTree& tree);

} // namespace pw
