// PdbqtWriter: a ligand as PDBQT with its torsion tree (ROOT/BRANCH/ENDBRANCH/TORSDOF, atoms
// grouped per rigid fragment as AutoDock Tools and Meeko write them) or a rigid receptor.
#pragma once

#include "core/Molecule.h"

#include <string>

namespace pw {

// The PDBQT text of one molecule (no MODEL/ENDMDL lines). A molecule with a torsion tree is a
// ligand; one without a tree and with at most one residue is a rigid ligand (ROOT only,
// TORSDOF 0); any other is a receptor (ATOM/HETATM lines only). Atoms without an AD4 type get one
// from their element and neighbours (a fallback; preparation assigns the real types).
std::string pdbqtText(const Molecule& m);

// Order in which pdbqtText writes the atoms of a ligand: per node, depth first from the root,
// each branch starting with its axis atom. Receptors keep their order.
std::vector<int> pdbqtAtomOrder(const Molecule& m);

} // namespace pw
