// VinaTopology: a molecule seen the way AutoDock Vina 1.2.3 sees a PDBQT: its own bonds (distances,
// covalent radii, torsion-tree mobility), XS types, intramolecular pairs and rotatable-bond count.
#pragma once

#include "core/Molecule.h"

#include <utility>
#include <vector>

namespace pw {

struct VinaLigandTopology {
    // Bonds Vina perceives, as neighbour lists in Vina's own order (atom indices of the Molecule).
    std::vector<std::vector<int>> adjacency;
    // Bonds across a torsion-tree axis (Vina's DISTANCE_ROTOR bonds), atom indices.
    std::vector<std::pair<int, int>> rotatableBonds;
    std::vector<XsType> types; // per atom; None for hydrogens
    // Heavy-atom pairs Vina scores inside the ligand: not rigid relative to each other (different
    // fragments, neither on the other's torsion axis) and not within three bonds.
    std::vector<std::pair<int, int>> intraPairs;
    // Macrocycles (core/RingClosure.h), as Vina 1.2.3 pairs them (model.cpp initialize_pairs):
    // each Gn pseudo-atom with the CGn across its broken ring bond (the glue), and with every
    // other scored atom (gaussians only, RingClosureTerm). Pairs within three bonds of both ends
    // of a broken ring bond are in none of the lists (Vina's is_closure_clash).
    std::vector<std::pair<int, int>> gluePairs;
    std::vector<std::pair<int, int>> pseudoAtomPairs;
    // Vina's Nrot (conf_independent.cpp num_tors): half a count per end of each rotatable bond
    // whose other end is a heavy atom with more than one heavy neighbour.
    double numTors = 0;
    // Vina's internal atom order (the order its PDBQT parser stores atoms), atom indices.
    std::vector<int> vinaOrder;
};

// The molecule's atoms are expected in file order (as the PDBQT reader stores them); without a
// torsion tree the molecule is one rigid body.
VinaLigandTopology buildVinaLigandTopology(const Molecule& ligand);

// Vina's bonds inside a rigid molecule (a receptor), found with a cell list.
std::vector<std::vector<int>> vinaRigidBonds(const Molecule& m);

// XS types of a rigid molecule (receptor) by Vina's rules over its own bond perception.
std::vector<XsType> vinaRigidXsTypes(const Molecule& m);

// Vina's covalent radius of an atom by AD4 type (VinaConstants.h); `known` false for types
// outside Vina's table (metals unknown to AD4 get 1.75 Å).
double vinaCovalentRadius(const Atom& a, bool* known = nullptr);

} // namespace pw
