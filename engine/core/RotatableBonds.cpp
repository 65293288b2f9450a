#include "RotatableBonds.h"

#include "Rings.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace pw {
namespace {

bool isPolarHydrogen(const Molecule& m, const std::vector<std::vector<int>>& adj, int h) {
    if (m.atoms[h].element != 1)
        return false;
    for (int nb : adj[h])
        if (m.atoms[nb].element != 6 && m.atoms[nb].element != 1)
            return true;
    return false;
}

// An atom on a linear axis (nitrile C, alkyne C, allene centre): rotating about a bond to it
// moves nothing off the axis, so such bonds are not torsions (RDKit's strict rule, too).
bool isLinear(const Molecule& m, const std::vector<std::vector<int>>& adj, int a) {
    if (adj[a].size() != 2)
        return false;
    int doubles = 0;
    for (int nb : adj[a]) {
        int bi = m.findBond(a, nb);
        if (m.bonds[bi].order == BondOrder::Triple)
            return true;
        if (m.bonds[bi].order == BondOrder::Double)
            ++doubles;
    }
    return doubles == 2;
}

// Amide-like: N with three connections, single-bonded to a carbon with three connections that
// carries a (non-aromatic) double bond to O or N. Meeko's SMARTS [NX3]-[CX3]=[O,N].
bool isAmideLike(const Molecule& m, const std::vector<std::vector<int>>& adj, int n, int c) {
    if (m.atoms[n].element != 7 || m.atoms[c].element != 6)
        return false;
    if (adj[n].size() != 3 || adj[c].size() != 3)
        return false;
    for (int nb : adj[c]) {
        if (nb == n)
            continue;
        int e = m.atoms[nb].element;
        // A Kekulé double bond inside an aromatic ring is not C=N (2-aminopyrimidine rotates).
        if (m.atoms[c].aromatic && m.atoms[nb].aromatic)
            continue;
        if ((e == 8 || e == 7) && m.bonds[m.findBond(c, nb)].order == BondOrder::Double)
            return true;
    }
    return false;
}

} // namespace

std::vector<int> symmetryClasses(const Molecule& m) {
    const int n = static_cast<int>(m.atoms.size());
    auto adj = m.neighbours();
    RingMembership rings = findRingMembership(m);
    // Initial invariant: element, degree, hydrogen count, formal charge, aromatic, ring.
    std::vector<int> cls(n);
    {
        std::map<std::tuple<int, int, int, int, bool, bool>, int> ids;
        std::vector<std::tuple<int, int, int, int, bool, bool>> key(n);
        for (int i = 0; i < n; ++i) {
            int h = 0;
            for (int nb : adj[i])
                h += m.atoms[nb].element == 1;
            key[i] = {m.atoms[i].element,
                      static_cast<int>(adj[i].size()),
                      h,
                      m.atoms[i].formalCharge,
                      m.atoms[i].aromatic,
                      rings.atomInRing[i]};
            ids.emplace(key[i], 0);
        }
        int next = 0;
        for (auto& [k, v] : ids)
            v = next++;
        for (int i = 0; i < n; ++i)
            cls[i] = ids[key[i]];
    }
    // Refine by the sorted classes of neighbours (with bond orders) until the count is stable.
    int classCount = -1;
    for (int iter = 0; iter < n + 1; ++iter) {
        std::map<std::pair<int, std::vector<int>>, int> ids;
        std::vector<std::pair<int, std::vector<int>>> key(n);
        for (int i = 0; i < n; ++i) {
            std::vector<int> nbs;
            for (int nb : adj[i])
                nbs.push_back(cls[nb] * 8 + static_cast<int>(m.bonds[m.findBond(i, nb)].order));
            std::sort(nbs.begin(), nbs.end());
            key[i] = {cls[i], std::move(nbs)};
            ids.emplace(key[i], 0);
        }
        int next = 0;
        for (auto& [k, v] : ids)
            v = next++;
        for (int i = 0; i < n; ++i)
            cls[i] = ids[key[i]];
        if (next == classCount)
            break;
        classCount = next;
    }
    return cls;
}

std::vector<bool> findRotatableBonds(const Molecule& m, const RotatableBondOptions& options) {
    const auto adj = m.neighbours();
    const RingMembership rings = findRingMembership(m);
    std::vector<int> classes; // computed only when a tertiary amide needs it

    // Does atom `a` have a neighbour other than `partner` that rotation would move?
    auto movesSomething = [&](int a, int partner) {
        for (int nb : adj[a]) {
            if (nb == partner)
                continue;
            if (m.atoms[nb].element != 1)
                return true;
            if (options.hydrogenTorsions && isPolarHydrogen(m, adj, nb))
                return true;
        }
        return false;
    };

    std::vector<bool> rot(m.bonds.size(), false);
    for (size_t i = 0; i < m.bonds.size(); ++i) {
        const Bond& b = m.bonds[i];
        if (b.order != BondOrder::Single || rings.bondInRing[i])
            continue;
        if (m.atoms[b.a].element == 1 || m.atoms[b.b].element == 1)
            continue;
        if (isLinear(m, adj, b.a) || isLinear(m, adj, b.b))
            continue;
        if (!movesSomething(b.a, b.b) || !movesSomething(b.b, b.a))
            continue;
        if (!options.flexibleAmides) {
            int n = m.atoms[b.a].element == 7 ? b.a : b.b;
            int c = n == b.a ? b.b : b.a;
            if (isAmideLike(m, adj, n, c)) {
                // Tertiary amide: rigid only when its two other substituents are equivalent.
                std::vector<int> others;
                for (int nb : adj[n])
                    if (nb != c && m.atoms[nb].element != 1)
                        others.push_back(nb);
                bool rigid = true;
                if (others.size() == 2) {
                    if (classes.empty())
                        classes = symmetryClasses(m);
                    rigid = classes[others[0]] == classes[others[1]];
                }
                if (rigid)
                    continue;
            }
        }
        rot[i] = true;
    }
    return rot;
}

int markRotatableBonds(Molecule& m, const RotatableBondOptions& options) {
    auto rot = findRotatableBonds(m, options);
    int count = 0;
    for (size_t i = 0; i < m.bonds.size(); ++i) {
        m.bonds[i].rotatable = rot[i];
        count += rot[i];
    }
    return count;
}

} // namespace pw
