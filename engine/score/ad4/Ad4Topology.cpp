#include "score/ad4/Ad4Topology.h"

#include "core/InputError.h"
#include "score/ad4/Ad4Parameters.h"

#include <array>
#include <cmath>

namespace pw::ad4 {

namespace {

// Bond classes (AtomParameters::bondIndex): C, N, O, H, other (XX), P, S.
constexpr int kClasses = 7;
enum { C = 0, N = 1, O = 2, H = 3, XX = 4, P = 5, S = 6 };

struct BondRanges {
    std::array<std::array<double, kClasses>, kClasses> lo{}, hi{};
    constexpr void set(int a, int b, double min, double max) {
        lo[a][b] = lo[b][a] = min - 0.1; // autodock4's BOND_LENGTH_TOLERANCE
        hi[a][b] = hi[b][a] = max + 0.1;
    }
};

// autodock4 4.2.6's bond-length ranges (Å; mostly CRC Handbook values), default 0.9-2.1.
constexpr BondRanges makeRanges() {
    BondRanges r;
    for (int a = 0; a < kClasses; ++a)
        for (int b = 0; b < kClasses; ++b)
            r.set(a, b, 0.9, 2.1);
    r.set(C, C, 1.20, 1.545);
    r.set(C, N, 1.1, 1.479);
    r.set(C, O, 1.15, 1.47);
    r.set(C, H, 1.022, 1.12);
    r.set(C, XX, 0.9, 1.545);
    r.set(C, P, 1.85, 1.89);
    r.set(C, S, 1.55, 1.835);
    r.set(N, N, 1.0974, 1.128);
    r.set(N, O, 1.0619, 1.25);
    r.set(N, H, 1.004, 1.041);
    r.set(N, XX, 0.9, 1.041);
    r.set(N, P, 1.4910, 1.4910);
    r.set(N, S, 1.58, 1.672);
    r.set(O, O, 1.208, 1.51);
    r.set(O, H, 0.955, 1.0289);
    r.set(O, XX, 0.955, 2.1);
    r.set(O, P, 1.36, 1.67);
    r.set(O, S, 1.41, 1.47);
    r.set(H, H, 100., -100.); // never bonded
    r.set(H, XX, 0.9, 1.5);
    r.set(H, P, 1.40, 1.44);
    r.set(H, S, 1.325, 1.3455);
    r.set(XX, XX, 0.9, 2.1);
    r.set(XX, P, 0.9, 2.1);
    r.set(XX, S, 1.325, 2.1);
    r.set(P, P, 2.18, 2.23);
    r.set(P, S, 1.83, 1.88);
    r.set(S, S, 2.03, 2.05);
    return r;
}

constexpr BondRanges kRanges = makeRanges();

std::vector<int> bondClasses(const Molecule& mol) {
    std::vector<int> cls(mol.atoms.size());
    for (size_t i = 0; i < mol.atoms.size(); ++i) {
        const AtomParameters* p = findParameters(mol.atoms[i].ad4Type);
        if (!p)
            throw InputError(mol.sourceFile, 0,
                             "atom " + std::to_string(i + 1) + " (" + mol.atoms[i].name +
                                 ") has AutoDock 4 type '" + mol.atoms[i].ad4Type +
                                 "', which AD4.1_bound does not know");
        cls[i] = p->bondIndex;
    }
    return cls;
}

} // namespace

bool ad4Bonded(int a, int b, double d) { return d >= kRanges.lo[a][b] && d <= kRanges.hi[a][b]; }

std::vector<std::pair<int, int>> ad4Bonds(const Molecule& mol) {
    const std::vector<int> cls = bondClasses(mol);
    std::vector<std::pair<int, int>> bonds;
    const int n = static_cast<int>(mol.atoms.size());
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (ad4Bonded(cls[i], cls[j], (mol.atoms[i].position - mol.atoms[j].position).norm()))
                bonds.emplace_back(i, j);
    return bonds;
}

std::vector<std::pair<int, int>> ad4NonbondedPairs(const Molecule& mol) {
    if (!mol.torsionTree || mol.torsionTree->torsionCount() == 0)
        return {};
    const int n = static_cast<int>(mol.atoms.size());
    const TorsionTree& tree = *mol.torsionTree;
    std::vector<std::vector<int>> adj(n);
    for (const auto& [a, b] : ad4Bonds(mol)) {
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    // keep[i*n+j]: the pair is scored. Start with every distinct pair.
    std::vector<char> keep(static_cast<size_t>(n) * n, 1);
    const auto drop = [&](int a, int b) { keep[static_cast<size_t>(a) * n + b] = keep[static_cast<size_t>(b) * n + a] = 0; };
    for (int i = 0; i < n; ++i) {
        drop(i, i);
        for (int j : adj[i]) {
            drop(i, j);                // 1-2
            for (int k : adj[j]) {
                drop(i, k);            // 1-3
                for (int l : adj[k])
                    drop(i, l);        // 1-4
            }
        }
    }
    const std::vector<int> piece = tree.nodeOfAtom(n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (piece[i] == piece[j])
                drop(i, j);
    struct Torsion {
        int a1, a2, p1, p2; // parent-side axis atom, child-side axis atom, their pieces
    };
    std::vector<Torsion> tors;
    for (size_t t = 1; t < tree.nodes.size(); ++t) {
        const TorsionNode& node = tree.nodes[t];
        tors.push_back({node.axisParentAtom, node.axisChildAtom, piece[node.axisParentAtom],
                        piece[node.axisChildAtom]});
    }
    for (const Torsion& ti : tors) {
        drop(ti.a2, ti.a1);
        for (const Torsion& tj : tors) {
            if (ti.p1 == tj.p1) drop(tj.a2, ti.a2);
            if (ti.p1 == tj.p2) drop(tj.a1, ti.a2);
            if (ti.p2 == tj.p1) drop(tj.a2, ti.a1);
            if (ti.p2 == tj.p2) drop(tj.a1, ti.a1);
        }
        for (int k = 0; k < n; ++k) {
            if (piece[k] == ti.p1) drop(k, ti.a2);
            if (piece[k] == ti.p2) drop(k, ti.a1);
        }
    }
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < n - 1; ++i)
        for (int j = i + 1; j < n; ++j)
            if (keep[static_cast<size_t>(i) * n + j])
                pairs.emplace_back(i, j);
    return pairs;
}

} // namespace pw::ad4
