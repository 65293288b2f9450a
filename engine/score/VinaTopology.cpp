#include "VinaTopology.h"

#include "VinaConstants.h"
#include "core/Element.h"
#include "core/RingClosure.h"
#include "core/XsTyping.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace pw {
namespace {

bool isHydrogenAtom(const Atom& a) {
    if (a.ad4Type.empty())
        return a.element == 1;
    return a.ad4Type == "H" || a.ad4Type == "HD" || a.ad4Type == "HS";
}

// Rigidity relation of Vina's mobility matrix for one ligand (parse_pdbqt.cpp): atoms of one
// node's range are fixed; the two atoms of a node's torsion axis are fixed to all of its range.
class Mobility {
public:
    explicit Mobility(int n) : n_(n), fixed_(static_cast<size_t>(n) * n, 0) {
        for (int i = 0; i < n; ++i)
            set(i, i);
    }
    void set(int i, int j) {
        fixed_[static_cast<size_t>(i) * n_ + j] = 1;
        fixed_[static_cast<size_t>(j) * n_ + i] = 1;
    }
    bool fixed(int i, int j) const { return fixed_[static_cast<size_t>(i) * n_ + j] != 0; }

private:
    int n_;
    std::vector<char> fixed_;
};

struct VinaLayout {
    std::vector<int> order;                // vina index -> atom index
    std::vector<std::vector<int>> ranges;  // per Vina node: vina indices
    std::vector<std::pair<int, int>> axes; // per Vina node (root: -1,-1): vina indices
};

// Reproduces the order in which Vina's parser stores ligand atoms: a node's own atoms in file
// order, each followed by the axis atoms of the branches hanging on it; then the branches,
// depth first. A branch holding only its axis atom and nothing below is no node for Vina.
VinaLayout layoutFromTree(const Molecule& m) {
    VinaLayout out;
    const int n = static_cast<int>(m.atoms.size());
    if (!m.torsionTree || m.torsionTree->nodes.empty()) {
        out.ranges.emplace_back();
        out.axes.emplace_back(-1, -1);
        for (int i = 0; i < n; ++i) {
            out.order.push_back(i);
            out.ranges[0].push_back(i);
        }
        return out;
    }
    const TorsionTree& t = *m.torsionTree;
    std::vector<int> vinaIndex(n, -1);
    auto place = [&](int atom) {
        if (atom < 0 || atom >= n || vinaIndex[atom] >= 0)
            return -1;
        vinaIndex[atom] = static_cast<int>(out.order.size());
        out.order.push_back(atom);
        return vinaIndex[atom];
    };
    auto isEmptyBranch = [&](int c) {
        const TorsionNode& nd = t.nodes[c];
        return nd.children.empty() && nd.atoms.size() <= 1;
    };
    auto visit = [&](auto&& self, int node) -> void {
        const TorsionNode& nd = t.nodes[node];
        const int rangeIndex = static_cast<int>(out.ranges.size());
        out.ranges.emplace_back();
        out.axes.emplace_back(node == 0 ? -1 : vinaIndex[nd.axisParentAtom],
                              node == 0 ? -1 : vinaIndex[nd.axisChildAtom]);
        std::vector<int> atoms = nd.atoms;
        std::sort(atoms.begin(), atoms.end());
        std::vector<int> range;
        for (int a : atoms) {
            if (node == 0 || a != nd.axisChildAtom) {
                int v = place(a);
                if (v >= 0)
                    range.push_back(v);
            }
            for (int c : nd.children)
                if (t.nodes[c].axisParentAtom == a) {
                    int v = place(t.nodes[c].axisChildAtom);
                    if (v >= 0)
                        range.push_back(v);
                }
        }
        out.ranges[rangeIndex] = range;
        for (int a : atoms)
            for (int c : nd.children)
                if (t.nodes[c].axisParentAtom == a && !isEmptyBranch(c))
                    self(self, c);
    };
    visit(visit, 0);
    // Atoms the tree does not mention stay rigid with the root, after everything else.
    for (int i = 0; i < n; ++i)
        if (vinaIndex[i] < 0) {
            vinaIndex[i] = static_cast<int>(out.order.size());
            out.order.push_back(i);
            out.ranges[0].push_back(vinaIndex[i]);
        }
    return out;
}

double sqr(double x) {
    return x * x;
}

// Vina's assign_bonds over vina-ordered atoms: candidates within 1.1 (R_i + R_max) that are not
// mobile relative to i, grouped in 15 Å beads; a bond when r < 1.1 (R_i + R_j) and no candidate
// sits closer to both ends than they are to each other.
std::vector<std::vector<int>> perceiveBonds(const std::vector<Vec3>& x,
                                            const std::vector<double>& rcov,
                                            const std::vector<bool>& known, const Mobility& mob) {
    const int n = static_cast<int>(x.size());
    const double beadRadius = 15.0;
    std::vector<std::pair<Vec3, std::vector<int>>> beads;
    for (int i = 0; i < n; ++i) {
        bool added = false;
        for (auto& b : beads)
            if ((x[i] - b.first).squaredNorm() < sqr(beadRadius)) {
                b.second.push_back(i);
                added = true;
                break;
            }
        if (!added)
            beads.push_back({x[i], {i}});
    }
    std::vector<std::vector<int>> adj(n);
    std::vector<int> relevant;
    for (int i = 0; i < n; ++i) {
        const double ri = known[i] ? rcov[i] : vina::kMaxCovalentRadius;
        const double reach = vina::kBondLengthAllowance * (ri + vina::kMaxCovalentRadius);
        relevant.clear();
        for (const auto& b : beads) {
            if ((b.first - x[i]).squaredNorm() > sqr(beadRadius + reach))
                continue;
            for (int j : b.second)
                if (j != i && mob.fixed(i, j) && (x[i] - x[j]).squaredNorm() < sqr(reach))
                    relevant.push_back(j);
        }
        for (int j : relevant) {
            if (j <= i)
                continue;
            const double r2 = (x[i] - x[j]).squaredNorm();
            if (r2 >= sqr(vina::kBondLengthAllowance * (rcov[i] + rcov[j])))
                continue;
            bool between = false;
            for (int c : relevant) {
                if (c == i || c == j)
                    continue;
                if (mob.fixed(i, c) && mob.fixed(j, c) && (x[i] - x[c]).squaredNorm() < r2 &&
                    (x[j] - x[c]).squaredNorm() < r2) {
                    between = true;
                    break;
                }
            }
            if (!between) {
                adj[i].push_back(j);
                adj[j].push_back(i);
            }
        }
    }
    return adj;
}

// Vina's bonded_to(a, n): a depth-first walk that does not revisit atoms, so an atom first met
// on a longer path is not expanded again (Vina's own 1-4 rule, reproduced as is).
void bondedWithin(const std::vector<std::vector<int>>& adj, int a, int depth,
                  std::vector<int>& out) {
    if (std::find(out.begin(), out.end(), a) != out.end())
        return;
    out.push_back(a);
    if (depth > 0)
        for (int b : adj[a])
            bondedWithin(adj, b, depth - 1, out);
}

// Vina's is_closure_clash: i and j are, or are bonded to, two CGn carbons of the same n (the
// ends of one broken ring bond): 1-2, 1-3 and 1-4 pairs across it once the ring is closed.
bool nearBrokenRingBond(const Molecule& m, const std::vector<std::vector<int>>& adj, int i, int j) {
    bool closureNearI[4] = {false, false, false, false};
    auto markNear = [&](int a) {
        if (int k = closureCarbonIndex(m.atoms[a].ad4Type); k >= 0)
            closureNearI[k] = true;
    };
    markNear(i);
    for (int a : adj[i])
        markNear(a);
    auto nearJ = [&](int a) {
        const int k = closureCarbonIndex(m.atoms[a].ad4Type);
        return k >= 0 && closureNearI[k];
    };
    if (nearJ(j))
        return true;
    for (int a : adj[j])
        if (nearJ(a))
            return true;
    return false;
}

} // namespace

double vinaCovalentRadius(const Atom& a, bool* known) {
    std::string_view ad = a.ad4Type;
    std::string symbol;
    if (ad.empty()) {
        symbol = std::string(elementSymbol(a.element));
        ad = symbol;
    }
    if (ad == "NS")
        ad = "N";
    else if (ad == "OS")
        ad = "O";
    else if (ad == "HS")
        ad = "H";
    else if (ad == "Se")
        ad = "S"; // Vina's atom_equivalence_data
    else if (ad == "CL")
        ad = "Cl";
    else if (ad == "BR")
        ad = "Br";
    for (const auto& e : vina::kAd4CovalentRadius)
        if (ad == e.ad4) {
            if (known)
                *known = true;
            return e.radius;
        }
    if (known)
        *known = false;
    const int z = a.ad4Type.empty() ? a.element : elementOfAd4Type(a.ad4Type);
    return isMetal(z) ? vina::kMetalCovalentRadius : covalentRadius(z);
}

VinaLigandTopology buildVinaLigandTopology(const Molecule& ligand) {
    VinaLigandTopology topo;
    const int n = static_cast<int>(ligand.atoms.size());
    const VinaLayout layout = layoutFromTree(ligand);
    topo.vinaOrder = layout.order;

    Mobility mob(n);
    for (size_t k = 0; k < layout.ranges.size(); ++k) {
        const auto& range = layout.ranges[k];
        for (size_t a = 0; a < range.size(); ++a)
            for (size_t b = a + 1; b < range.size(); ++b)
                mob.set(range[a], range[b]);
        const auto [p, c] = layout.axes[k];
        if (p >= 0 && c >= 0) {
            for (int v : range) {
                mob.set(p, v);
                mob.set(c, v);
            }
            mob.set(p, c);
        }
    }

    std::vector<Vec3> x(n);
    std::vector<double> rcov(n);
    std::vector<bool> known(n);
    for (int v = 0; v < n; ++v) {
        const Atom& a = ligand.atoms[layout.order[v]];
        x[v] = a.position;
        bool k = false;
        rcov[v] = vinaCovalentRadius(a, &k);
        known[v] = k;
    }
    const auto adj = perceiveBonds(x, rcov, known, mob);

    // Bond lists in atom indices, Vina's neighbour order kept.
    topo.adjacency.assign(n, {});
    for (int v = 0; v < n; ++v)
        for (int w : adj[v])
            topo.adjacency[layout.order[v]].push_back(layout.order[w]);

    Molecule typed = ligand;
    assignXsTypes(typed, topo.adjacency);
    topo.types.resize(n);
    for (int i = 0; i < n; ++i)
        topo.types[i] = typed.atoms[i].xs;

    // Rotatable bonds: perceived bonds between the two atoms of a torsion axis.
    auto isRotor = [&](int v, int w) {
        for (size_t k = 1; k < layout.axes.size(); ++k) {
            const auto [p, c] = layout.axes[k];
            if ((p == v && c == w) || (p == w && c == v))
                return true;
        }
        return false;
    };
    std::vector<int> heavyNeighbours(n, 0);
    for (int v = 0; v < n; ++v)
        for (int w : adj[v])
            if (!isHydrogenAtom(ligand.atoms[layout.order[w]]))
                ++heavyNeighbours[v];
    for (int v = 0; v < n; ++v) {
        const int i = layout.order[v];
        if (isHydrogenAtom(ligand.atoms[i]))
            continue;
        int rotors = 0;
        for (int w : adj[v]) {
            if (!isRotor(v, w))
                continue;
            if (v < w)
                topo.rotatableBonds.emplace_back(i, layout.order[w]);
            if (!isHydrogenAtom(ligand.atoms[layout.order[w]]) && heavyNeighbours[w] > 1)
                ++rotors;
        }
        topo.numTors += 0.5 * rotors;
    }

    // Gn pseudo-atoms have no XS type but take part in intramolecular pairs (Vina gives them an
    // XS type of their own).
    auto scored = [&](int i) {
        return topo.types[i] != XsType::None || isClosureDummy(ligand.atoms[i]);
    };
    const bool macrocycle = hasRingClosures(ligand);
    std::vector<int> near;
    for (int v = 0; v < n; ++v) {
        const int i = layout.order[v];
        if (!scored(i))
            continue;
        near.clear();
        bondedWithin(adj, v, 3, near);
        for (int w = v + 1; w < n; ++w) {
            const int j = layout.order[w];
            if (!scored(j) || mob.fixed(v, w))
                continue;
            if (std::find(near.begin(), near.end(), w) != near.end())
                continue;
            if (!macrocycle) {
                topo.intraPairs.emplace_back(i, j);
                continue;
            }
            const int ci = closureCarbonIndex(ligand.atoms[i].ad4Type);
            const int cj = closureCarbonIndex(ligand.atoms[j].ad4Type);
            const int di = closureDummyIndex(ligand.atoms[i].ad4Type);
            const int dj = closureDummyIndex(ligand.atoms[j].ad4Type);
            if ((ci >= 0 && ci == dj) || (cj >= 0 && cj == di))
                topo.gluePairs.emplace_back(i, j);
            else if (nearBrokenRingBond(ligand, topo.adjacency, i, j))
                continue;
            else if (di >= 0 || dj >= 0)
                topo.pseudoAtomPairs.emplace_back(i, j);
            else
                topo.intraPairs.emplace_back(i, j);
        }
    }
    return topo;
}

std::vector<std::vector<int>> vinaRigidBonds(const Molecule& m) {
    const int n = static_cast<int>(m.atoms.size());
    std::vector<std::vector<int>> adj(n);
    if (n == 0)
        return adj;
    std::vector<double> rcov(n), reach(n);
    for (int i = 0; i < n; ++i) {
        bool k = false;
        rcov[i] = vinaCovalentRadius(m.atoms[i], &k);
        reach[i] = vina::kBondLengthAllowance *
                   ((k ? rcov[i] : vina::kMaxCovalentRadius) + vina::kMaxCovalentRadius);
    }
    // Cell list with cells as wide as the longest candidate distance.
    const double cell = 2.0 * vina::kBondLengthAllowance * vina::kMaxCovalentRadius + 1e-6;
    Vec3 lo = m.atoms[0].position, hi = lo;
    for (const Atom& a : m.atoms) {
        lo = lo.cwiseMin(a.position);
        hi = hi.cwiseMax(a.position);
    }
    int dims[3];
    for (int d = 0; d < 3; ++d)
        dims[d] = std::max(1, static_cast<int>((hi[d] - lo[d]) / cell) + 1);
    auto cellOf = [&](const Vec3& p, int d) {
        return std::clamp(static_cast<int>((p[d] - lo[d]) / cell), 0, dims[d] - 1);
    };
    std::vector<std::vector<int>> cells(static_cast<size_t>(dims[0]) * dims[1] * dims[2]);
    for (int i = 0; i < n; ++i) {
        const Vec3& p = m.atoms[i].position;
        cells[(static_cast<size_t>(cellOf(p, 0)) * dims[1] + cellOf(p, 1)) * dims[2] + cellOf(p, 2)]
            .push_back(i);
    }
    std::vector<int> relevant;
    for (int i = 0; i < n; ++i) {
        const Vec3& pi = m.atoms[i].position;
        relevant.clear();
        const int cx = cellOf(pi, 0), cy = cellOf(pi, 1), cz = cellOf(pi, 2);
        for (int x = std::max(0, cx - 1); x <= std::min(dims[0] - 1, cx + 1); ++x)
            for (int y = std::max(0, cy - 1); y <= std::min(dims[1] - 1, cy + 1); ++y)
                for (int z = std::max(0, cz - 1); z <= std::min(dims[2] - 1, cz + 1); ++z)
                    for (int j : cells[(static_cast<size_t>(x) * dims[1] + y) * dims[2] + z])
                        if (j != i && (m.atoms[j].position - pi).squaredNorm() < sqr(reach[i]))
                            relevant.push_back(j);
        for (int j : relevant) {
            if (j <= i)
                continue;
            const double r2 = (m.atoms[j].position - pi).squaredNorm();
            if (r2 >= sqr(vina::kBondLengthAllowance * (rcov[i] + rcov[j])))
                continue;
            bool between = false;
            for (int c : relevant) {
                if (c == j)
                    continue;
                const Vec3& pc = m.atoms[c].position;
                if ((pi - pc).squaredNorm() < r2 && (m.atoms[j].position - pc).squaredNorm() < r2) {
                    between = true;
                    break;
                }
            }
            if (!between) {
                adj[i].push_back(j);
                adj[j].push_back(i);
            }
        }
    }
    return adj;
}

std::vector<XsType> vinaRigidXsTypes(const Molecule& m) {
    Molecule typed = m;
    assignXsTypes(typed, vinaRigidBonds(m));
    std::vector<XsType> types(m.atoms.size());
    for (size_t i = 0; i < m.atoms.size(); ++i)
        types[i] = typed.atoms[i].xs;
    return types;
}

} // namespace pw
