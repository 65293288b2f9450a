#include "RingClosure.h"

#include <array>
#include <initializer_list>

namespace pw {
namespace {

// Joins message pieces with append() only: GCC 12 warns falsely (-Wrestrict) on chained
// operator+ of std::string.
std::string words(std::initializer_list<std::string_view> parts) {
    std::string s;
    for (std::string_view p : parts)
        s.append(p);
    return s;
}

} // namespace

int closureCarbonIndex(std::string_view ad4) {
    if (ad4.size() == 3 && ad4[0] == 'C' && ad4[1] == 'G' && ad4[2] >= '0' && ad4[2] <= '3')
        return ad4[2] - '0';
    return -1;
}

int closureDummyIndex(std::string_view ad4) {
    if (ad4.size() == 2 && ad4[0] == 'G' && ad4[1] >= '0' && ad4[1] <= '3')
        return ad4[1] - '0';
    return -1;
}

bool hasRingClosures(const Molecule& m) {
    for (const Atom& a : m.atoms)
        if (isClosureCarbon(a) || isClosureDummy(a))
            return true;
    return false;
}

std::string findRingClosures(const Molecule& m, std::vector<ClosureBond>& closures,
                             int* offendingAtom) {
    closures.clear();
    const int n = static_cast<int>(m.atoms.size());
    std::array<std::vector<int>, 4> carbons, dummies;
    for (int i = 0; i < n; ++i) {
        if (int k = closureCarbonIndex(m.atoms[i].ad4Type); k >= 0)
            carbons[k].push_back(i);
        if (int k = closureDummyIndex(m.atoms[i].ad4Type); k >= 0)
            dummies[k].push_back(i);
    }
    const auto adj = m.neighbours();
    auto fail = [&](int atom, std::string what) {
        if (offendingAtom)
            *offendingAtom = atom;
        closures.clear();
        return what;
    };
    for (int k = 0; k < 4; ++k) {
        const std::string num = std::to_string(k);
        const std::string cg = words({"CG", num}), g = words({"G", num});
        // The carbon each pseudo-atom hangs on.
        std::vector<int> hostOf(dummies[k].size(), -1);
        for (size_t d = 0; d < dummies[k].size(); ++d) {
            const int dummy = dummies[k][d];
            int hosts = 0;
            for (int j : adj[dummy])
                if (closureCarbonIndex(m.atoms[j].ad4Type) == k) {
                    hostOf[d] = j;
                    ++hosts;
                }
            if (hosts != 1 || adj[dummy].size() != 1)
                return fail(dummy, words({"ring-closure pseudo-atom ", m.atoms[dummy].name, " (", g,
                                          ") must be bonded to exactly one ", cg,
                                          " carbon of its own fragment and to nothing else; it "
                                          "has ",
                                          std::to_string(hosts), " ", cg, " and ",
                                          std::to_string(adj[dummy].size() - hosts),
                                          " other neighbour(s)"}));
        }
        if (carbons[k].empty() && dummies[k].empty())
            continue;
        if (carbons[k].size() != 2 || dummies[k].size() != 2) {
            const int atom = !carbons[k].empty() ? carbons[k][0] : dummies[k][0];
            return fail(atom,
                        words({"ring closure ", num, " has ", std::to_string(carbons[k].size()),
                               " ", cg, " and ", std::to_string(dummies[k].size()), " ", g,
                               " atoms; expected the two ", cg,
                               " carbons of one broken ring bond, each with one ", g,
                               " pseudo-atom (as Meeko writes them)"}));
        }
        if (hostOf[0] == hostOf[1]) {
            const int unpaired = carbons[k][0] == hostOf[0] ? carbons[k][1] : carbons[k][0];
            return fail(unpaired, words({"ring-closure carbon ", m.atoms[unpaired].name, " (", cg,
                                         ") carries no ", g, " pseudo-atom; expected one on each ",
                                         cg, " carbon"}));
        }
        ClosureBond c;
        c.index = k;
        c.a = hostOf[0];
        c.dummyOfA = dummies[k][0];
        c.b = hostOf[1];
        c.dummyOfB = dummies[k][1];
        closures.push_back(c);
    }
    return {};
}

Molecule withRingsClosed(const Molecule& m) {
    std::vector<ClosureBond> closures;
    if (!hasRingClosures(m) || !findRingClosures(m, closures).empty())
        return m;
    Molecule out = m;
    out.torsionTree.reset();
    std::vector<int> newIndex(m.atoms.size(), -1);
    out.atoms.clear();
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        if (isClosureDummy(m.atoms[i]))
            continue;
        newIndex[i] = static_cast<int>(out.atoms.size());
        Atom a = m.atoms[i];
        if (isClosureCarbon(a))
            a.ad4Type.resize(1); // "CGn" -> "C": Meeko breaks bonds between sp3 carbons only
        out.atoms.push_back(std::move(a));
    }
    out.bonds.clear();
    for (const Bond& b : m.bonds)
        if (newIndex[b.a] >= 0 && newIndex[b.b] >= 0)
            out.bonds.push_back(Bond{newIndex[b.a], newIndex[b.b], b.order, b.rotatable});
    for (const ClosureBond& c : closures)
        if (out.findBond(newIndex[c.a], newIndex[c.b]) < 0)
            out.bonds.push_back(Bond{newIndex[c.a], newIndex[c.b], BondOrder::Single, false});
    return out;
}

} // namespace pw
