// Ad4Topology: which ligand atom pairs autodock4 4.2.6 scores in the ligand's internal energy.
// Bonds are found from distances as autodock4 finds them (a pair is bonded when its distance lies
// within the range for the two atoms' bond classes, widened by 0.1 Å); pairs 1-2, 1-3 and 1-4
// along those bonds are left out, as are pairs within one rigid piece of the torsion tree, and
// the pairs across a torsion bond: each axis atom with every atom of the other axis atom's piece
// (and with the other torsions' axis atoms touching that piece). A ligand without torsions has
// no internal pairs (autodock4 computes no internal energy for it).
#pragma once

#include "core/Molecule.h"

#include <utility>
#include <vector>

namespace pw::ad4 {

// autodock4's covalent bond test for two atoms of bond classes a, b (AtomParameters::bondIndex)
// at distance d.
bool ad4Bonded(int bondIndexA, int bondIndexB, double d);

// Bonds of the ligand (index pairs i < j), perceived from its coordinates as autodock4 does.
// Throws InputError (naming mol.sourceFile) for an atom whose AD4 type is unknown.
std::vector<std::pair<int, int>> ad4Bonds(const Molecule& mol);

// The internal non-bonded pairs (i < j, in autodock4's order: i ascending, then j).
std::vector<std::pair<int, int>> ad4NonbondedPairs(const Molecule& mol);

} // namespace pw::ad4
