// TorsionTree: a flexible ligand as rigid fragments linked by rotatable bonds (Vina's tree,
// PDBQT ROOT/BRANCH). Node 0 is the root; every other node hangs on a bond to its parent.
#pragma once

#include <cstddef>
#include <vector>

namespace pw {

struct TorsionNode {
    int parent = -1;         // node index; -1 for the root
    int axisParentAtom = -1; // atom in the parent fragment (BRANCH first number)
    int axisChildAtom = -1;  // atom in this fragment (BRANCH second number)
    std::vector<int> atoms;  // atoms that belong to this rigid fragment (axisChildAtom included)
    std::vector<int> children; // child nodes, in file/build order
};

struct TorsionTree {
    std::vector<TorsionNode> nodes; // nodes[0] = root

    int torsionCount() const { return nodes.empty() ? 0 : static_cast<int>(nodes.size()) - 1; }
    // Node index owning each atom (size = atom count); -1 for atoms in no node.
    std::vector<int> nodeOfAtom(int atomCount) const;
    // Node order in which every parent precedes its children (depth first from the root).
    std::vector<int> topologicalOrder() const;
};

} // namespace pw
