// SymmetryRmsd: heavy-atom RMSD that does not penalize symmetry: the minimum over the graph
// isomorphisms of the heavy-atom graphs (automorphisms of one molecule, or the matches between
// a ligand and a reference copy of it that lists its atoms in another order).
#pragma once

#include "core/Molecule.h"

#include <vector>

namespace pw::dock {

class SymmetryRmsd {
public:
    // At most this many mappings are kept (highly symmetric molecules have thousands); the
    // identity always comes first for a molecule against itself.
    static constexpr int kMaxMappings = 2000;

    // Automorphisms of mol's heavy-atom graph (atoms labelled by element and heavy degree).
    explicit SymmetryRmsd(const Molecule& mol);
    // Matches of mol's heavy-atom graph onto reference's. Throws InputError (naming the
    // reference) when the two are not the same heavy-atom graph.
    SymmetryRmsd(const Molecule& mol, const Molecule& reference);

    // a: coordinates in mol's atom order; b: in mol's order (first constructor) or reference's
    // (second). The minimum RMSD over the mappings, Å.
    double rmsd(const std::vector<Vec3>& a, const std::vector<Vec3>& b) const;
    int mappingCount() const { return static_cast<int>(maps_.size()); }
    int heavyAtomCount() const { return static_cast<int>(heavy_.size()); }

private:
    std::vector<int> heavy_;             // mol's heavy atoms, in search order
    std::vector<std::vector<int>> maps_; // maps_[k][i]: the other molecule's atom for heavy_[i]
};

} // namespace pw::dock
