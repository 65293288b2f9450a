#include "RingCentroids.h"

#include "core/Rings.h"

#include <algorithm>
#include <deque>

namespace pw::shape {

std::vector<std::vector<int>> smallestRings(const Molecule& m) {
    const int n = int(m.atoms.size());
    const RingMembership ring = findRingMembership(m);
    // Ring bonds only, as (neighbour, bond index).
    std::vector<std::vector<std::pair<int, int>>> adj(static_cast<size_t>(n));
    for (int b = 0; b < int(m.bonds.size()); ++b) {
        const Bond& bond = m.bonds[size_t(b)];
        if (!ring.bondInRing[size_t(b)] || bond.a < 0 || bond.b < 0 || bond.a >= n || bond.b >= n)
            continue;
        adj[size_t(bond.a)].push_back({bond.b, b});
        adj[size_t(bond.b)].push_back({bond.a, b});
    }
    std::vector<std::vector<int>> rings, seen; // seen: sorted copies, to keep each ring once
    std::vector<int> parent(static_cast<size_t>(n));
    for (int b = 0; b < int(m.bonds.size()); ++b) {
        if (!ring.bondInRing[size_t(b)])
            continue;
        const int from = m.bonds[size_t(b)].a, to = m.bonds[size_t(b)].b;
        if (from < 0 || to < 0 || from >= n || to >= n)
            continue;
        // Breadth-first from `from` to `to` without this bond: the shortest path closes the
        // smallest ring through the bond.
        std::fill(parent.begin(), parent.end(), -1);
        parent[size_t(from)] = from;
        std::deque<int> queue{from};
        while (!queue.empty() && parent[size_t(to)] < 0) {
            const int a = queue.front();
            queue.pop_front();
            for (const auto& [next, via] : adj[size_t(a)])
                if (via != b && parent[size_t(next)] < 0) {
                    parent[size_t(next)] = a;
                    queue.push_back(next);
                }
        }
        if (parent[size_t(to)] < 0)
            continue; // cannot happen for a ring bond; a malformed graph is skipped
        std::vector<int> cycle;
        for (int a = to; a != from; a = parent[size_t(a)])
            cycle.push_back(a);
        cycle.push_back(from);
        std::vector<int> key = cycle;
        std::sort(key.begin(), key.end());
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            continue;
        seen.push_back(std::move(key));
        rings.push_back(std::move(cycle));
    }
    return rings;
}

std::vector<Vec3> ringCentroids(const Molecule& m) {
    std::vector<Vec3> out;
    for (const std::vector<int>& r : smallestRings(m)) {
        Vec3 c = Vec3::Zero();
        for (int a : r)
            c += m.atoms[size_t(a)].position;
        out.push_back(c / double(r.size()));
    }
    return out;
}

} // namespace pw::shape
