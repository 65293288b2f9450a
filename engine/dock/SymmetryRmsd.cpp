#include "SymmetryRmsd.h"

#include "core/InputError.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace pw::dock {
namespace {

// A heavy-atom graph: atoms keyed by element and heavy-atom degree (bond orders and hydrogens
// are left out, so a crystal ligand without hydrogens or with Kekulé bonds still matches).
struct HeavyGraph {
    std::vector<int> atoms;                // molecule atom indices
    std::vector<int> label;                // per graph node
    std::vector<std::vector<int>> adj;     // graph node neighbours
    std::vector<std::vector<char>> bonded; // adjacency matrix

    explicit HeavyGraph(const Molecule& m) {
        std::vector<int> node(m.atoms.size(), -1);
        for (size_t i = 0; i < m.atoms.size(); ++i)
            if (m.atoms[i].element != 1) {
                node[i] = static_cast<int>(atoms.size());
                atoms.push_back(static_cast<int>(i));
            }
        const size_t n = atoms.size();
        adj.assign(n, {});
        bonded.assign(n, std::vector<char>(n, 0));
        for (const Bond& b : m.bonds) {
            const int u = node[b.a], v = node[b.b];
            if (u < 0 || v < 0 || u == v || bonded[u][v])
                continue;
            bonded[u][v] = bonded[v][u] = 1;
            adj[u].push_back(v);
            adj[v].push_back(u);
        }
        for (size_t i = 0; i < n; ++i)
            label.push_back(m.atoms[atoms[i]].element * 16 + static_cast<int>(adj[i].size()));
    }
};

// Breadth-first order over A (each component from its lowest node): every node after the first
// of its component has an already placed neighbour, which prunes the search early.
std::vector<int> searchOrder(const HeavyGraph& a) {
    std::vector<int> order;
    std::vector<char> seen(a.atoms.size(), 0);
    for (size_t s = 0; s < a.atoms.size(); ++s) {
        if (seen[s])
            continue;
        std::queue<int> q;
        q.push(static_cast<int>(s));
        seen[s] = 1;
        while (!q.empty()) {
            const int u = q.front();
            q.pop();
            order.push_back(u);
            for (int v : a.adj[u])
                if (!seen[v]) {
                    seen[v] = 1;
                    q.push(v);
                }
        }
    }
    return order;
}

class Matcher {
public:
    Matcher(const HeavyGraph& a, const HeavyGraph& b, std::vector<std::vector<int>>& out)
        : a_(a), b_(b), out_(out), order_(searchOrder(a)), image_(a.atoms.size(), -1),
          used_(b.atoms.size(), 0) {}

    void run() { extend(0); }

private:
    void extend(size_t depth) {
        if (static_cast<int>(out_.size()) >= SymmetryRmsd::kMaxMappings)
            return;
        if (depth == order_.size()) {
            std::vector<int> m(order_.size());
            for (size_t i = 0; i < order_.size(); ++i)
                m[i] = b_.atoms[image_[order_[i]]];
            out_.push_back(std::move(m));
            return;
        }
        const int u = order_[depth];
        for (size_t v = 0; v < b_.atoms.size(); ++v) {
            if (used_[v] || b_.label[v] != a_.label[u] ||
                !consistent(depth, u, static_cast<int>(v)))
                continue;
            image_[u] = static_cast<int>(v);
            used_[v] = 1;
            extend(depth + 1);
            used_[v] = 0;
            image_[u] = -1;
        }
    }
    // Bonds between u and every placed node agree with bonds between their images.
    bool consistent(size_t depth, int u, int v) const {
        for (size_t k = 0; k < depth; ++k) {
            const int w = order_[k];
            if (a_.bonded[u][w] != b_.bonded[v][image_[w]])
                return false;
        }
        return true;
    }

    const HeavyGraph& a_;
    const HeavyGraph& b_;
    std::vector<std::vector<int>>& out_;
    std::vector<int> order_, image_;
    std::vector<char> used_;
};

std::vector<int> orderedAtoms(const HeavyGraph& g) {
    std::vector<int> out;
    for (int u : searchOrder(g))
        out.push_back(g.atoms[u]);
    return out;
}

} // namespace

SymmetryRmsd::SymmetryRmsd(const Molecule& mol) {
    const HeavyGraph g(mol);
    heavy_ = orderedAtoms(g);
    maps_.push_back(heavy_); // the identity first: it always exists
    std::vector<std::vector<int>> found;
    Matcher(g, g, found).run();
    for (auto& m : found)
        if (m != heavy_)
            maps_.push_back(std::move(m));
    if (static_cast<int>(maps_.size()) > kMaxMappings)
        maps_.resize(kMaxMappings);
}

SymmetryRmsd::SymmetryRmsd(const Molecule& mol, const Molecule& reference) {
    const HeavyGraph a(mol), b(reference);
    heavy_ = orderedAtoms(a);
    if (a.atoms.size() == b.atoms.size()) {
        std::vector<int> la = a.label, lb = b.label;
        std::sort(la.begin(), la.end());
        std::sort(lb.begin(), lb.end());
        if (la == lb)
            Matcher(a, b, maps_).run();
    }
    if (maps_.empty())
        throw InputError(reference.sourceFile, reference.sourceRecord,
                         "reference '" + reference.name + "' (" + std::to_string(b.atoms.size()) +
                             " heavy atoms) is not the same molecule as ligand '" + mol.name +
                             "' (" + std::to_string(a.atoms.size()) +
                             " heavy atoms): its heavy-atom graph does not match");
}

double SymmetryRmsd::rmsd(const std::vector<Vec3>& a, const std::vector<Vec3>& b) const {
    if (heavy_.empty())
        return 0;
    double best = std::numeric_limits<double>::infinity();
    for (const auto& m : maps_) {
        double sum = 0;
        for (size_t i = 0; i < heavy_.size() && sum < best; ++i)
            sum += (a[heavy_[i]] - b[m[i]]).squaredNorm();
        best = std::min(best, sum);
    }
    return std::sqrt(best / heavy_.size());
}

} // namespace pw::dock
