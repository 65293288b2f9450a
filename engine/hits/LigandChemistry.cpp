#include "LigandChemistry.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace pw::hits {

LigandChemistry::LigandChemistry(const Molecule& m) : m_(m), neighbours_(m.neighbours()) {
    for (const Atom& a : m.atoms)
        hasExplicitH_ |= a.element == 1;
    valence_.assign(m.atoms.size(), 0.0);
    for (const Bond& b : m.bonds) {
        const double order = b.order == BondOrder::Aromatic ? 1.5 : double(int(b.order));
        valence_[b.a] += order;
        valence_[b.b] += order;
    }
}

std::vector<int> LigandChemistry::explicitHydrogens(int atom) const {
    std::vector<int> h;
    for (int n : neighbours_[atom])
        if (element(n) == 1)
            h.push_back(n);
    return h;
}

int LigandChemistry::hydrogenCount(int atom) const {
    if (hasExplicitH_)
        return int(explicitHydrogens(atom).size());
    const int e = element(atom);
    const int base = e == 7 ? 3 : (e == 8 || e == 16) ? 2 : 0;
    if (!base)
        return 0;
    return std::max(0, int(std::lround(base + m_.atoms[atom].formalCharge - valence_[atom])));
}

bool LigandChemistry::doubleBondedTo(int atom, int otherElement) const {
    for (const Bond& b : m_.bonds)
        if ((b.a == atom || b.b == atom) && b.order == BondOrder::Double &&
            element(b.a == atom ? b.b : b.a) == otherElement)
            return true;
    return false;
}

// Bonded to a carbon or sulfur that carries a double-bonded O or S.
bool LigandChemistry::isAmideN(int atom) const {
    for (int n : neighbours_[atom])
        if ((element(n) == 6 || element(n) == 16) &&
            (doubleBondedTo(n, 8) || doubleBondedTo(n, 16)))
            return true;
    return false;
}

bool LigandChemistry::onlySingleBonds(int atom) const {
    for (const Bond& b : m_.bonds)
        if ((b.a == atom || b.b == atom) && b.order != BondOrder::Single)
            return false;
    return true;
}

bool LigandChemistry::isDonor(int atom) const {
    const int e = element(atom);
    return (e == 7 || e == 8) && hydrogenCount(atom) > 0;
}

bool LigandChemistry::isAcceptor(int atom) const {
    const int e = element(atom);
    if (e == 8)
        return true;
    // Thioether and thiophene sulfur: a weak acceptor (biotin's S1 takes Thr90's OG1 hydrogen).
    if (e == 16)
        return hydrogenCount(atom) == 0 && neighbours_[atom].size() == 2 &&
               !doubleBondedTo(atom, 8);
    if (e != 7 || m_.atoms[atom].formalCharge > 0 || hydrogenCount(atom) > 0)
        return false;
    return !isAmideN(atom) && !(m_.atoms[atom].aromatic && neighbours_[atom].size() == 3);
}

bool LigandChemistry::isHydrophobicCarbon(int atom) const {
    if (element(atom) != 6)
        return false;
    for (int n : neighbours_[atom])
        if (element(n) != 6 && element(n) != 1)
            return false;
    return true;
}

std::vector<LigandChemistry::ChargeCentre> LigandChemistry::positiveCentres() const {
    std::vector<ChargeCentre> out;
    const int n = int(m_.atoms.size());
    for (int i = 0; i < n; ++i) {
        const Atom& a = m_.atoms[i];
        if (a.element == 7 && a.formalCharge > 0) {
            out.push_back({a.position, i});
            continue;
        }
        // Amidine or guanidine carbon: the centre of its nitrogens.
        if (a.element == 6 && !a.aromatic && doubleBondedTo(i, 7)) {
            std::vector<int> nitrogens;
            for (int nb : neighbours_[i])
                if (element(nb) == 7)
                    nitrogens.push_back(nb);
            if (nitrogens.size() >= 2) {
                Vec3 c = Vec3::Zero();
                for (int x : nitrogens)
                    c += m_.atoms[x].position;
                out.push_back({c / double(nitrogens.size()), i});
            }
            continue;
        }
        // Basic amine: sp3 N with a heavy neighbour, no multiple bond on it or its neighbours, no
        // aromatic neighbour, not an amide.
        if (a.element == 7 && a.formalCharge == 0 && !a.aromatic && onlySingleBonds(i) &&
            !isAmideN(i) && neighbours_[i].size() > explicitHydrogens(i).size()) {
            bool basic = true;
            for (int nb : neighbours_[i])
                basic &= !m_.atoms[nb].aromatic && onlySingleBonds(nb);
            if (basic)
                out.push_back({a.position, i});
        }
    }
    return out;
}

std::vector<LigandChemistry::ChargeCentre> LigandChemistry::negativeCentres() const {
    std::vector<ChargeCentre> out;
    const int n = int(m_.atoms.size());
    for (int i = 0; i < n; ++i) {
        const Atom& a = m_.atoms[i];
        const int e = a.element;
        if ((e == 6 || e == 15 || e == 16) && a.formalCharge == 0) {
            // Oxygens with no other heavy neighbour: COO (exactly two), SO3 / PO3 (three or more).
            std::vector<int> terminalO;
            for (int nb : neighbours_[i])
                if (element(nb) == 8 && neighbours_[nb].size() - explicitHydrogens(nb).size() == 1)
                    terminalO.push_back(nb);
            if ((e == 6 && terminalO.size() == 2) || (e != 6 && terminalO.size() >= 3)) {
                Vec3 c = Vec3::Zero();
                for (int o : terminalO)
                    c += m_.atoms[o].position;
                out.push_back({c / double(terminalO.size()), i});
            }
        } else if (e == 8 && a.formalCharge < 0) {
            bool inGroup = false; // counted with its carboxylate, sulfonate or phosphate
            for (int nb : neighbours_[i])
                inGroup |= element(nb) == 6 || element(nb) == 15 || element(nb) == 16;
            if (!inGroup)
                out.push_back({a.position, i});
        }
    }
    return out;
}

std::vector<std::vector<int>> LigandChemistry::aromaticRings() const {
    const int n = int(m_.atoms.size());
    std::vector<std::vector<int>> rings;
    if (n > 300) // ligands only: the depth-limited search is for small molecules
        return rings;
    // Every simple cycle of 5 or 6 heavy atoms, once.
    std::set<std::vector<int>> seen;
    std::vector<int> path;
    std::function<void(int, int)> walk = [&](int start, int at) {
        for (int next : neighbours_[at]) {
            if (element(next) == 1)
                continue;
            if (next == start && path.size() >= 5) {
                std::vector<int> key = path;
                std::sort(key.begin(), key.end());
                if (seen.insert(key).second)
                    rings.push_back(path);
                continue;
            }
            if (path.size() >= 6 || next < start ||
                std::find(path.begin(), path.end(), next) != path.end())
                continue;
            path.push_back(next);
            walk(start, next);
            path.pop_back();
        }
    };
    for (int s = 0; s < n; ++s) {
        path = {s};
        walk(s, s);
    }
    std::vector<std::vector<int>> aromatic;
    for (const auto& ring : rings) {
        const size_t size = ring.size();
        int aromaticBonds = 0, piAtoms = 0, heteroWithoutPi = 0;
        std::vector<char> pi(size, 0);
        for (size_t k = 0; k < size; ++k) {
            const int bi = m_.findBond(ring[k], ring[(k + 1) % size]);
            const BondOrder order = m_.bonds[bi].order;
            aromaticBonds += order == BondOrder::Aromatic;
            if (order == BondOrder::Double || order == BondOrder::Aromatic)
                pi[k] = pi[(k + 1) % size] = 1;
        }
        for (size_t k = 0; k < size; ++k) {
            piAtoms += pi[k] || m_.atoms[ring[k]].aromatic;
            const int e = element(ring[k]);
            heteroWithoutPi += !pi[k] && (e == 7 || e == 8 || e == 16);
        }
        if (aromaticBonds == int(size) || piAtoms == int(size) ||
            (size == 5 && piAtoms == 4 && heteroWithoutPi == 1))
            aromatic.push_back(ring);
    }
    return aromatic;
}

} // namespace pw::hits
