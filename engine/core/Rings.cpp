#include "Rings.h"

#include <algorithm>
#include <utility>

namespace pw {

RingMembership findRingMembership(const Molecule& m) {
    const int n = static_cast<int>(m.atoms.size());
    RingMembership out;
    out.bondInRing.assign(m.bonds.size(), true);
    out.atomInRing.assign(n, false);

    // Adjacency with bond indices, so that parallel edges and the tree edge are told apart.
    std::vector<std::vector<std::pair<int, int>>> adj(n); // (neighbour, bond index)
    for (size_t i = 0; i < m.bonds.size(); ++i) {
        const Bond& b = m.bonds[i];
        if (b.a < 0 || b.b < 0 || b.a >= n || b.b >= n || b.a == b.b) {
            out.bondInRing[i] = false;
            continue;
        }
        adj[b.a].emplace_back(b.b, static_cast<int>(i));
        adj[b.b].emplace_back(b.a, static_cast<int>(i));
    }

    std::vector<int> disc(n, -1), low(n, 0);
    int time = 0;
    struct Frame {
        int atom;
        int viaBond; // bond used to enter this atom, -1 for a DFS root
        size_t next; // next adjacency entry to look at
    };
    std::vector<Frame> stack;
    for (int start = 0; start < n; ++start) {
        if (disc[start] >= 0)
            continue;
        disc[start] = low[start] = time++;
        stack.push_back({start, -1, 0});
        while (!stack.empty()) {
            Frame& f = stack.back();
            if (f.next < adj[f.atom].size()) {
                auto [nb, bond] = adj[f.atom][f.next++];
                if (bond == f.viaBond)
                    continue;
                if (disc[nb] < 0) {
                    disc[nb] = low[nb] = time++;
                    stack.push_back({nb, bond, 0});
                } else {
                    low[f.atom] = std::min(low[f.atom], disc[nb]);
                }
                continue;
            }
            // All neighbours done: propagate low to the parent, decide on the entering bond.
            const int atom = f.atom, via = f.viaBond;
            stack.pop_back();
            if (!stack.empty()) {
                int parent = stack.back().atom;
                low[parent] = std::min(low[parent], low[atom]);
                if (low[atom] > disc[parent])
                    out.bondInRing[via] = false; // a bridge
            }
        }
    }
    for (size_t i = 0; i < m.bonds.size(); ++i)
        if (out.bondInRing[i]) {
            out.atomInRing[m.bonds[i].a] = true;
            out.atomInRing[m.bonds[i].b] = true;
        }
    return out;
}

std::vector<int> connectedComponents(const Molecule& m, int* count) {
    const int n = static_cast<int>(m.atoms.size());
    auto adj = m.neighbours();
    std::vector<int> comp(n, -1);
    int c = 0;
    std::vector<int> todo;
    for (int s = 0; s < n; ++s) {
        if (comp[s] >= 0)
            continue;
        comp[s] = c;
        todo.push_back(s);
        while (!todo.empty()) {
            int a = todo.back();
            todo.pop_back();
            for (int nb : adj[a])
                if (comp[nb] < 0) {
                    comp[nb] = c;
                    todo.push_back(nb);
                }
        }
        ++c;
    }
    if (count)
        *count = c;
    return comp;
}

} // namespace pw
