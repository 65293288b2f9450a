#include "TorsionTreeBuilder.h"

#include "InputError.h"
#include "Rings.h"

#include <algorithm>
#include <string>

namespace pw {
namespace {

std::string label(const Molecule& m) {
    return m.name.empty() ? std::string("molecule") : "molecule '" + m.name + "'";
}

} // namespace

TorsionTree buildTorsionTree(const Molecule& m, int rootAtom) {
    const int n = static_cast<int>(m.atoms.size());
    if (n == 0)
        throw InputError(m.sourceFile, m.sourceRecord, label(m) + " has no atoms");
    int components = 0;
    connectedComponents(m, &components);
    if (components != 1)
        throw InputError(m.sourceFile, m.sourceRecord,
                         label(m) + " has " + std::to_string(components) +
                             " disconnected parts; a torsion tree needs one connected molecule");
    const RingMembership rings = findRingMembership(m);
    for (size_t i = 0; i < m.bonds.size(); ++i)
        if (m.bonds[i].rotatable && rings.bondInRing[i])
            throw InputError(m.sourceFile, m.sourceRecord,
                             label(m) + ": bond " + std::to_string(m.bonds[i].a + 1) + "-" +
                                 std::to_string(m.bonds[i].b + 1) +
                                 " is marked rotatable but lies on a ring");

    // Rigid fragments: components of the graph without its rotatable bonds.
    std::vector<std::vector<int>> rigidAdj(n);
    std::vector<int> rotBonds;
    for (size_t i = 0; i < m.bonds.size(); ++i) {
        const Bond& b = m.bonds[i];
        if (b.rotatable) {
            rotBonds.push_back(static_cast<int>(i));
        } else {
            rigidAdj[b.a].push_back(b.b);
            rigidAdj[b.b].push_back(b.a);
        }
    }
    std::vector<int> frag(n, -1);
    std::vector<std::vector<int>> members;
    for (int s = 0; s < n; ++s) {
        if (frag[s] >= 0)
            continue;
        const int f = static_cast<int>(members.size());
        members.emplace_back();
        std::vector<int> todo{s};
        frag[s] = f;
        while (!todo.empty()) {
            int a = todo.back();
            todo.pop_back();
            members[f].push_back(a);
            for (int nb : rigidAdj[a])
                if (frag[nb] < 0) {
                    frag[nb] = f;
                    todo.push_back(nb);
                }
        }
        std::sort(members[f].begin(), members[f].end());
    }
    const int nf = static_cast<int>(members.size());
    // Fragment graph: one edge per rotatable bond (a tree, since those bonds are bridges).
    struct Edge {
        int other, atomHere, atomThere;
    };
    std::vector<std::vector<Edge>> fadj(nf);
    for (int bi : rotBonds) {
        const Bond& b = m.bonds[bi];
        fadj[frag[b.a]].push_back({frag[b.b], b.a, b.b});
        fadj[frag[b.b]].push_back({frag[b.a], b.b, b.a});
    }

    int root = 0;
    if (rootAtom >= 0 && rootAtom < n) {
        root = frag[rootAtom];
    } else if (nf > 1) {
        // Peel leaves layer by layer; what is left last is the centre (one or two fragments).
        std::vector<int> degree(nf);
        std::vector<bool> removed(nf, false);
        for (int f = 0; f < nf; ++f)
            degree[f] = static_cast<int>(fadj[f].size());
        int left = nf;
        while (left > 2) {
            std::vector<int> leaves;
            for (int f = 0; f < nf; ++f)
                if (!removed[f] && degree[f] <= 1)
                    leaves.push_back(f);
            for (int l : leaves) {
                removed[l] = true;
                --left;
                for (const Edge& e : fadj[l])
                    if (!removed[e.other])
                        --degree[e.other];
            }
        }
        int best = -1;
        for (int f = 0; f < nf; ++f) {
            if (removed[f])
                continue;
            // Members are sorted, so members[f][0] is the lowest atom index of the fragment.
            if (best < 0 || members[f].size() > members[best].size() ||
                (members[f].size() == members[best].size() && members[f][0] < members[best][0]))
                best = f;
        }
        root = best;
    }

    // Depth-first from the root; children ordered by their axis atom in the child.
    TorsionTree tree;
    tree.nodes.reserve(nf);
    struct Todo {
        int frag, parentNode, axisParent, axisChild;
    };
    std::vector<Todo> stack{{root, -1, -1, -1}};
    std::vector<bool> seen(nf, false);
    while (!stack.empty()) {
        Todo t = stack.back();
        stack.pop_back();
        seen[t.frag] = true;
        const int node = static_cast<int>(tree.nodes.size());
        TorsionNode tn;
        tn.parent = t.parentNode;
        tn.axisParentAtom = t.axisParent;
        tn.axisChildAtom = t.axisChild;
        tn.atoms = members[t.frag];
        tree.nodes.push_back(std::move(tn));
        if (t.parentNode >= 0)
            tree.nodes[t.parentNode].children.push_back(node);
        std::vector<Edge> kids;
        for (const Edge& e : fadj[t.frag])
            if (!seen[e.other])
                kids.push_back(e);
        std::sort(kids.begin(), kids.end(),
                  [](const Edge& x, const Edge& y) { return x.atomThere < y.atomThere; });
        for (auto it = kids.rbegin(); it != kids.rend(); ++it)
            stack.push_back({it->other, node, it->atomHere, it->atomThere});
    }
    return tree;
}

std::string checkTorsionTree(const Molecule& m, const TorsionTree& tree) {
    const int n = static_cast<int>(m.atoms.size());
    if (tree.nodes.empty())
        return "the tree has no nodes";
    std::vector<int> owner(n, -1);
    for (size_t k = 0; k < tree.nodes.size(); ++k)
        for (int a : tree.nodes[k].atoms) {
            if (a < 0 || a >= n)
                return "node " + std::to_string(k) + " names atom " + std::to_string(a + 1) +
                       ", which does not exist";
            if (owner[a] >= 0)
                return "atom " + std::to_string(a + 1) + " is in two nodes";
            owner[a] = static_cast<int>(k);
        }
    for (int a = 0; a < n; ++a)
        if (owner[a] < 0)
            return "atom " + std::to_string(a + 1) + " is in no node";
    for (size_t k = 1; k < tree.nodes.size(); ++k) {
        const TorsionNode& node = tree.nodes[k];
        if (node.parent < 0 || node.parent >= static_cast<int>(tree.nodes.size()))
            return "node " + std::to_string(k) + " has no valid parent";
        if (node.axisParentAtom < 0 || node.axisChildAtom < 0 ||
            owner[node.axisParentAtom] != node.parent || owner[node.axisChildAtom] != int(k))
            return "node " + std::to_string(k) + " has its axis atoms in the wrong fragments";
        if (m.findBond(node.axisParentAtom, node.axisChildAtom) < 0)
            return "node " + std::to_string(k) + " hangs on atoms " +
                   std::to_string(node.axisParentAtom + 1) + "-" +
                   std::to_string(node.axisChildAtom + 1) + ", which are not bonded";
    }
    return {};
}

} // namespace pw
